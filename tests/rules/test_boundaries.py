"""One test on each side of the boundaries in ``ka_tui/rules`` (found by mutation testing).

Each pair is named after its seed section and puts the value exactly on the
edge and one step past it, so a flipped ``<``/``<=`` or an off-by-one in a
table cannot pass. The worked examples elsewhere stay; these pin the edges.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from ka_tui.rules.air.aerobatics import FIGURES, FigureKind, figure_refusal
from ka_tui.rules.air.check_roll import CheckRoll
from ka_tui.rules.air.battle_map import LandingSite, Surface
from ka_tui.rules.air.move_plan import PlanCheck
from ka_tui.rules.air.units import Airman, Damage
from ka_tui.rules.air.aircraft import AircraftClass, EngineKind, Trait
from ka_tui.rules.air.damage import destroyed_by_hull, engine_disabled
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.air.gload import airframe_target, endurance_target
from ka_tui.rules.air.heat import heat_phase
from ka_tui.rules.air.landing import (
    GO_AROUND_MAX_MARGIN,
    carrier_refusal,
    landing_outcome,
    landing_target,
    size_class,
)
from ka_tui.rules.air.movement import (
    complete_plan,
    descent_gain,
    execute_plan,
    preview_start,
    roll_random_move,
    start_turn,
    validate_plan,
)
from ka_tui.rules.core.options import AirOptions, DescentGain, SkillOptions
from ka_tui.rules.core.skill_tests import (
    Contestant,
    opposed_test,
    unopposed_needed,
    unopposed_test,
)
from ka_tui.rules.air.ramming import ram, ram_problems, ram_target
from ka_tui.rules.air.shooting import preview_shot, shoot
from ka_tui.rules.core.target import Finalizer, TargetNumber
from ka_tui.rules.air.wounds import consciousness_target
from tests.rules import air_combat_fixtures as combat
from tests.rules.test_air_move_support import FIGHTER, OPEN, OPTS, TWIN, at, plan, unit

OPT = AirOptions()
JETS = [EngineKind.TURBINE, EngineKind.ETERNIUM]


# ---------------------------------------------------------------- R-7 ramming


def _rammers(target_altitude: int) -> tuple[combat.AirUnit, combat.AirUnit]:
    h = AircraftClass.HEAVY_FIGHTER
    a = combat.unit("A", "blue", cls=h, moved=True, altitude=2)
    b = combat.unit("B", "red", cls=h, moved=True, altitude=target_altitude)
    return a, b


def test_r7_ram_at_the_same_level_is_allowed() -> None:
    a, b = _rammers(2)
    assert ram_problems(a, b, OPT) == ()
    assert ram_target(a, b, OPT).finalizer is Finalizer.NONE


@pytest.mark.parametrize("level", [1, 3])
def test_r7_ram_one_level_apart_in_the_same_hex_is_refused(level: int) -> None:
    """R-7: both aircraft in the same hex *at the same level*."""
    a, b = _rammers(level)
    assert a.hex == b.hex
    problems = ram_problems(a, b, OPT)
    assert len(problems) == 1 and "same level (R-7)" in problems[0]
    assert ram_target(a, b, OPT).finalizer is Finalizer.IMPOSSIBLE
    a2, b2, res = ram(a, b, ScriptedDice.of([]), OPT)
    assert not res.legal and (a2, b2) == (a, b)


# ---------------------------------------------------------------- R-10 landing


def _site(length: int, width: int | None = None, carrier: bool = False) -> LandingSite:
    surface = Surface.CARRIER if carrier else Surface.PREPARED
    return LandingSite("edge", surface, length, width, 0, at(0, 0), carrier)


def test_r10_strip_exactly_the_minimum_length_has_no_penalty() -> None:
    """R-10 table: a single-engine aircraft needs a 5-hex strip."""
    t = landing_target(unit(), _site(5), 3, OPTS)
    assert t.value == 5 - 2 and "strip" not in t.render().replace("prepared strip", "")


def test_r10_strip_one_hex_short_is_plus_2() -> None:
    t = landing_target(unit(), _site(4), 3, OPTS)
    assert t.value == 5 + 2 - 2 and "4-hex strip, single-engine needs 5" in t.render()


def test_r10_strip_exactly_the_minimum_width_is_not_narrow() -> None:
    """R-10 table: twin-engine 8 long, 3 wide (narrowness: house rule narrow_strip_mod)."""
    assert landing_target(unit(profile=TWIN), _site(8, 3), 6, OPTS).value == 5 - 2
    t = landing_target(unit(profile=TWIN), _site(8, 2), 6, OPTS)
    assert t.value == 5 + OPTS.narrow_strip_mod - 2 and "2-hex wide" in t.render()


def test_r10_at_landing_speed_no_penalty_one_over_plus_1() -> None:
    assert landing_target(unit(), _site(6), 3, OPTS).value == 5 - 2
    t = landing_target(unit(), _site(6), 4, OPTS)
    assert t.value == 5 + 1 - 2 and "speed 4 over landing speed 3" in t.render()


@pytest.mark.parametrize("engines,label", [(1, "single-engine"), (2, "twin-engine"),
                                           (3, "four-engine"), (4, "four-engine")])
def test_r10_size_class_rows_by_engine_count(engines: int, label: str) -> None:
    """R-10 table: 1, 2 and 4 engines; a count between rows takes the next larger."""
    assert size_class(replace(FIGHTER, engines=engines)).label == label


def test_r10_two_engines_may_land_on_a_carrier_three_and_four_may_not() -> None:
    """R-10: "Four-engine craft cannot land on carriers" (without eternium and
    equipment); three engines take the four-engine row here as for the
    landing speed and strip (one reading, ``aircraft.r10_row``)."""
    carrier = _site(12, 4, carrier=True)
    assert carrier_refusal(unit(profile=replace(FIGHTER, engines=2)), carrier) is None
    for engines in (3, 4):
        three_or_four = replace(FIGHTER, engines=engines, landing_speed=0)
        assert size_class(three_or_four).label == "four-engine"
        assert three_or_four.landing_speed == 4
        refusal = carrier_refusal(unit(profile=three_or_four), carrier)
        assert refusal is not None and "four-engine" in refusal


@pytest.mark.parametrize("equipped,kind,allowed", [
    (True, EngineKind.ETERNIUM, True), (False, EngineKind.ETERNIUM, False),
    (True, EngineKind.PISTON, False), (False, EngineKind.PISTON, False)])
def test_r10_four_engines_on_a_carrier_need_equipment_and_eternium(
        equipped: bool, kind: EngineKind, allowed: bool) -> None:
    """R-10: "unless fitted with special equipment and eternium engines" — both."""
    u = unit(profile=replace(FIGHTER, engines=4, engine_kind=kind), carrier_equipped=equipped)
    assert (carrier_refusal(u, _site(12, 4, carrier=True)) is None) is allowed


def test_r10_more_than_four_engines_use_the_four_engine_row() -> None:
    assert size_class(replace(FIGHTER, engines=6)).label == "four-engine"


def _missed_by(n: int) -> CheckRoll:
    """A 2d6 landing roll of 2 against a target of 2 + n: missed by exactly n."""
    return CheckRoll("land", TargetNumber(2 + n, "landing", "R-10"), (1, 1), False)


def _outcome(check: CheckRoll, go_around: bool = True) -> tuple[object, ...]:
    out = landing_outcome(check, go_around)
    return out.landed, out.went_around, out.crash_points, out.margin


def test_r10_missed_by_exactly_3_may_go_around() -> None:
    """R-10: "if the roll is failed by no more than 3" the pilot may go around."""
    assert GO_AROUND_MAX_MARGIN == 3
    assert _outcome(_missed_by(3)) == (False, True, 0, 3)
    assert "missed by 3: goes around (R-10)" == landing_outcome(_missed_by(3), True).line


def test_r10_missed_by_4_crash_lands_even_when_going_around_was_planned() -> None:
    assert _outcome(_missed_by(4)) == (True, False, 40, 4)
    assert "crash-lands, 40 points of damage (R-10)" in landing_outcome(_missed_by(4), True).line


def test_r10_missed_by_1_goes_around_and_a_bare_success_lands() -> None:
    assert _outcome(_missed_by(1)) == (False, True, 0, 1)
    assert _outcome(_missed_by(1), go_around=False) == (True, False, 10, 1)
    hit = CheckRoll("land", TargetNumber(2, "landing", "R-10"), (1, 1), True)
    assert _outcome(hit) == (True, False, 0, 0)
    assert "(R-10)" in landing_outcome(hit, True).line


def test_r10_below_landing_speed_is_no_bonus() -> None:
    """R-10: +1 per point *over* the landing speed; under it gives nothing back."""
    t = landing_target(unit(), _site(6), 2, OPTS)
    assert t.value == 5 - 2 and "over landing speed" not in t.render()


def test_r10_one_thrust_point_left_is_reduced_thrust_not_none() -> None:
    """R-10: +4 with no thrust points, +2 with maximum thrust halved (1 of 4 here)."""
    u = unit(damage=Damage(3, (("engine", 3),)))
    t = landing_target(u, _site(6), 3, OPTS)
    assert t.value == 5 + 2 - 2 and "maximum thrust reduced to 1 of 4" in t.render()


# ---------------------------------------------------------------- stall


@pytest.mark.parametrize("kind", JETS)
def test_r3_2_jet_reaching_speed_0_mid_move_does_not_stall(kind: EngineKind) -> None:
    """R-3.2: only a piston engine stalls when its speed drops to 0 — in flight
    too ("as soon as speed drops to 0"); the piston twin of this test is
    ``test_r3_2_stall_in_flight_when_climb_takes_speed_to_zero``."""
    jet = unit(speed=2, altitude=2, profile=replace(FIGHTER, engine_kind=kind))
    check = validate_plan(jet, plan("C"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.end.speed == 0 and check.end.altitude == 3
    assert check.checks == ()
    out, rep = execute_plan(jet, plan("C"), OPEN, ScriptedDice.of([]), OPTS)
    assert (out.speed, out.altitude, out.out_of_control) == (0, 3, False)
    assert not any("stall" in line for line in rep.log)


def test_r3_2_piston_reaching_speed_0_mid_move_stalls_when_flown() -> None:
    out, rep = execute_plan(unit(speed=2, altitude=2), plan("C"), OPEN,
                            ScriptedDice.of([3, 3]), OPTS)
    assert out.speed == 0 and out.altitude == 2   # climbed to 3, stalled back to 2
    assert any("stalls" in line for line in rep.log)


@pytest.mark.parametrize("kind", JETS)
def test_r3_2_preview_start_predicts_no_stall_for_a_jet(kind: EngineKind) -> None:
    pre = preview_start(unit(speed=4, profile=replace(FIGHTER, engine_kind=kind)), OPTS)
    assert pre.speed_after == 0 and not pre.stalls and pre.checks == ()
    assert not any("stall" in line for line in pre.log)


def test_r3_2_speed_5_decays_to_0_and_stalls_speed_6_does_not() -> None:
    """R-3.2: −5 at the start of the turn; a stall exactly at 0."""
    assert preview_start(unit(speed=5), OPTS).stalls
    pre = preview_start(unit(speed=6), OPTS)
    assert pre.speed_after == 1 and not pre.stalls
    out, rep = start_turn(unit(speed=6), ScriptedDice.of([]), OPTS)
    assert out.speed == 1 and not rep.stalled and out.altitude == 2


def test_r3_2_stall_missed_by_6_is_a_random_move() -> None:
    """R-3.2: "missed by more than 5": 6 is more (5 is not: test_air_move)."""
    u = unit(speed=5, altitude=3, facing=0, pilot=Airman("Kay", piloting=8))
    out, rep = start_turn(u, ScriptedDice.of([1, 1, 4, 1]), OPTS)   # 2 vs 8: −6
    assert out.out_of_control and rep.random_move == 1 and out.facing == 1


@pytest.mark.parametrize("d6,side", [(1, -1), (3, -1), (4, 1), (6, 1)])
def test_rules_notes_d_random_move_d6_1_to_3_left_4_to_6_right(d6: int, side: int) -> None:
    assert roll_random_move(ScriptedDice.of([d6, 1]), OPTS) == side


# ---------------------------------------------------------------- R-4 G-load


def test_r4_sides_equal_to_the_g_rating_need_no_airframe_check() -> None:
    u = unit()   # G-rating 3
    assert airframe_target(u, 3) is None
    t = airframe_target(u, 4)
    assert t is not None and t.value == 5 + 1


def test_r4_sides_equal_to_endurance_need_no_check_one_more_does() -> None:
    """R-4: 2 + (2 × wounds) + the sides by which endurance is exceeded."""
    kay = Airman("Kay", piloting=5, endurance=3, wounds=1)
    assert endurance_target(kay, 3) is None
    t = endurance_target(kay, 4)
    assert t is not None and t.value == 2 + 2 + 1


# ---------------------------------------------------------------- R-5 wounds


@pytest.mark.parametrize("wounds,value", [(1, 3), (4, 10), (5, 11)])
def test_r5_consciousness_table_edges(wounds: int, value: int) -> None:
    t = consciousness_target(wounds)
    assert t.finalizer is Finalizer.NONE and t.value == value


def test_r5_six_wounds_is_death_none_is_no_roll() -> None:
    assert consciousness_target(6).finalizer is Finalizer.IMPOSSIBLE
    assert consciousness_target(0).finalizer is Finalizer.AUTO_SUCCESS


# ---------------------------------------------------------------- hull, engine, heat


def test_s0_flight_card_hull_one_short_survives_at_hull_destroyed() -> None:
    u = combat.unit("U", prof={"hull": 4})
    assert not destroyed_by_hull(u, 3, OPT) and destroyed_by_hull(u, 4, OPT)


def test_s0_traits_glider_survives_at_zero_hull_not_one_past() -> None:
    """S0 §Traits Glider (house rule glider_survives_zero_hull)."""
    g = combat.unit("G", prof={"hull": 4}, traits=((Trait.GLIDER, None),))
    assert not destroyed_by_hull(g, 4, OPT) and destroyed_by_hull(g, 5, OPT)


def test_r1_4_engine_runs_on_its_last_fuel_point_and_stops_at_0() -> None:
    assert not engine_disabled(combat.unit("U", fuel=1))
    assert engine_disabled(combat.unit("U", fuel=0))


def test_rules_notes_d_engine_disabled_when_damage_takes_all_thrust() -> None:
    u = combat.unit("U", prof={"thrust": 3})
    assert not engine_disabled(replace(u, damage=Damage(2, (("engine", 2),))))
    assert engine_disabled(replace(u, damage=Damage(3, (("engine", 3),))))


def test_rules_notes_d_heat_check_from_the_threshold_not_below() -> None:
    """R-1.4 heat phase: a check at ``heat_threshold`` (3) or more."""
    below = combat.unit("U", overheat=2, afterburner_on=True)
    _, res = heat_phase(below, ScriptedDice.of([]), OPT)
    assert res.overheat_after == 2 and res.check is None
    at_it = combat.unit("U", overheat=3, afterburner_on=True)
    _, res = heat_phase(at_it, ScriptedDice.of([6, 6]), OPT)
    assert res.overheat_after == 3 and res.check is not None and res.check.success


# ---------------------------------------------------------------- R-9 figures


@pytest.mark.parametrize("kind", [k for k in FigureKind if FIGURES[k].min_speed > 0])
def test_r9_figure_at_its_minimum_speed_allowed_one_below_refused(kind: FigureKind) -> None:
    low = FIGURES[kind].min_speed
    assert figure_refusal(FIGHTER, kind, low) is None
    refusal = figure_refusal(FIGHTER, kind, low - 1)
    assert refusal is not None and f"needs speed {low}" in refusal


# ---------------------------------------------------------------- shooting


def test_r1_4_exactly_one_shot_of_ammunition_left_may_fire() -> None:
    a = combat.unit("A", ammo=OPT.ammo_per_shot)
    b = combat.unit("B", "red", q=0, r=-1, facing=3)
    assert preview_shot(a, b, OPT).legal
    p = preview_shot(replace(a, ammo=OPT.ammo_per_shot - 1), b, OPT)
    assert not p.legal and "out of ammunition (R-1.4)" in p.reason


@pytest.mark.parametrize("dist,legal", [(6, True), (7, False)])
def test_s0_traits_range_3_is_the_last_band_without_long_range(dist: int, legal: bool) -> None:
    """S0 §Traits Long range "fire beyond range 3"; RULES-NOTES D bands of two hexes."""
    a = combat.unit("A")
    b = combat.unit("B", "red", q=0, r=-dist, facing=3)
    p = preview_shot(a, b, OPT)
    assert p.legal is legal
    if not legal:
        assert "beyond range 3 needs Long range" in p.reason


@pytest.mark.parametrize("dist,legal", [(8, True), (9, False)])
def test_long_range_max_band_is_the_last_band_with_long_range(dist: int, legal: bool) -> None:
    """S0 §Traits Long range, house rule long_range_max_band (4: 7–8 hexes)."""
    a = combat.unit("A", traits=((Trait.LONG_RANGE, None),))
    b = combat.unit("B", "red", q=0, r=-dist, facing=3)
    p = preview_shot(a, b, OPT)
    assert p.legal is legal
    if not legal:
        assert "beyond the longest range 4 (house rule long_range_max_band)" in p.reason


# ----------------------------------------------------------------


def _fly(u: combat.AirUnit, text: str, opts: AirOptions = OPTS) -> PlanCheck:
    """The plan completed with straight hexes to fly its speed (R-3.1), checked."""
    return validate_plan(u, complete_plan(u, plan(text), OPEN, opts), OPEN, opts)


def test_r3_1_thrust_up_to_move_allowed_one_past_refused() -> None:
    """S0 §Flight card Move, R-3.1: thrust may not take speed above Move (8)."""
    assert _fly(unit(speed=6), "+2").legal
    check = _fly(unit(speed=6), "+3")
    assert not check.legal and "above Move 8" in check.reason


@pytest.mark.parametrize("levels,checked", [(1, False), (2, False), (3, True)])
def test_r3_3_steep_descent_check_from_three_levels(levels: int, checked: bool) -> None:
    """R-3.3: a descent of more than two levels at once needs a piloting check."""
    check = _fly(unit(altitude=5, speed=4), f"D{levels}")
    assert check.legal, check.reason
    steep = [c for c in check.checks if "descent" in c.what]
    assert bool(steep) is checked
    if checked:
        assert steep[0].target.value == 5 + 3


@pytest.mark.parametrize("lost,gain", [(0, 0), (1, 0), (2, 1), (3, 1), (4, 2)])
def test_r3_3_one_speed_per_two_levels_lost(lost: int, gain: int) -> None:
    assert descent_gain(lost, OPTS) == gain


@pytest.mark.parametrize("lost,gain", [(1, 0), (2, 1), (4, 1)])
def test_r3_3_flat_once_reading_of_the_descent_gain(lost: int, gain: int) -> None:
    """House rule descent_gain = flat_once: +1 once two levels are lost."""
    assert descent_gain(lost, replace(OPTS, descent_gain=DescentGain.FLAT_ONCE)) == gain


def test_r3_6_water_methanol_up_to_its_level_limit() -> None:
    """R-3.6: water-methanol works up to the profile's level (3 here)."""
    assert _fly(unit(altitude=3, speed=4), "WM").legal
    check = _fly(unit(altitude=4, speed=4), "WM")
    assert not check.legal and "up to level 3" in check.reason


def test_r3_6_last_water_methanol_use_and_its_fuel() -> None:
    """R-3.6 uses; its fuel (house rule wm_fuel_cost, 2 here so one short still flies)."""
    assert _fly(unit(speed=4, wm_uses_left=1), "WM").legal
    used_up = _fly(unit(speed=4, wm_uses_left=0), "WM")
    assert not used_up.legal and "used up (R-3.6)" in used_up.reason
    opts = replace(OPTS, wm_fuel_cost=2)
    assert _fly(unit(speed=4, fuel=2), "WM", opts).legal
    dry = _fly(unit(speed=4, fuel=1), "WM", opts)
    assert not dry.legal and "needs 2 fuel, 1 left" in dry.reason


# ---------------------------------------------------------------- RULES-NOTES D dice


def _shot(faces: list[int]) -> tuple[int, int, int]:
    a = combat.unit("A")
    b = combat.unit("B", "red", q=0, r=-1, facing=3)
    _, _, res = shoot(a, b, ScriptedDice.of(faces + [3, 4] * 6), OPT)
    assert res.legal and res.hit
    return res.normal_hits, res.critical_hits, res.cancelled


def test_rules_notes_d_firepower_3_misses_4_hits_6_is_critical() -> None:
    """RULES-NOTES D: Firepower dice hit on 4+ and are critical on 6; Evasion 3 cancels nothing."""
    assert OPT.firepower_hit_on == 4 and OPT.firepower_crit_on == 6
    assert _shot([2, 2, 3, 4, 5, 3, 3]) == (2, 0, 0)
    assert _shot([2, 2, 3, 5, 6, 3, 3]) == (1, 1, 0)


def test_rules_notes_d_evasion_cancels_on_4_not_3() -> None:
    assert OPT.evasion_cancel_on == 4
    assert _shot([2, 2, 4, 4, 1, 4, 3]) == (1, 0, 1)
    assert _shot([2, 2, 4, 4, 1, 3, 3]) == (2, 0, 0)


# ---------------------------------------------------------------- S0 §Skills


def test_s0_skills_magic_13_face_needed_on_the_edge() -> None:
    """S0 §Skills / RULES-NOTES A: a die succeeds when face + number ≥ 13."""
    assert unopposed_needed(7) == 6 and unopposed_needed(7, 2) == 4
    assert unopposed_test((10,), 7, ScriptedDice.of([6]), SkillOptions()).passed
    assert not unopposed_test((10,), 7, ScriptedDice.of([5]), SkillOptions()).passed


def test_s0_close_combat_4_winner_name() -> None:
    a, b = Contestant("Ann", (10,), 5), Contestant("Bob", (10,), 5)
    r = opposed_test(a, b, ScriptedDice.of([8, 2]), SkillOptions())
    assert r.winner == 0 and r.winner_name(a, b) == "Ann"
    r = opposed_test(a, b, ScriptedDice.of([2, 3]), SkillOptions())
    assert r.winner is None and r.winner_name(a, b) is None
