"""Take-off and landing (R-10) on text maps with strips and a carrier."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ka_tui.rules.air.check_roll import roll_check
from ka_tui.rules.air.battle_map import LandingSite, Surface, parse_map
from ka_tui.rules.air.units import Airman, Damage
from ka_tui.rules.air.aircraft import EngineKind
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.air.landing import (
    SIZE_CLASSES,
    carrier_refusal,
    landing_outcome,
    landing_target,
    size_class,
)
from ka_tui.rules.air.movement import execute_plan, validate_plan
from ka_tui.rules.core.target import Finalizer
from tests.rules.test_air_move_support import BOMBER, FIGHTER, OPTS, TWIN, at, plan, unit

FIELD = parse_map("""
    . . . . ~ ~ ~
    . . . . ~ ~ ~
    . . . . ~ ~ ~
    r . . . ~ ~ ~
    r . f . ~ ~ ~
    r . f . ~ ~ ~
    r . f . ~ ~ ~
    r . f . ~ ~ ~
    strip Home 1,7 N 6 1 prepared
    strip Grass 3,7 N 3 1 unprepared
    carrier Ark 5,7 N 4 1
""")


def site(surface: Surface = Surface.PREPARED, length: int = 6, width: int | None = 1,
         carrier: bool = False) -> LandingSite:
    return LandingSite("test", surface, length, width, 0, at(0, 0), carrier)


def test_r10_size_classes_table() -> None:
    assert [(c.max_landing_speed, c.min_length, c.min_width) for c in SIZE_CLASSES.values()] == [
        (3, 5, 1), (6, 8, 3), (4, 12, 4)]
    assert size_class(FIGHTER).label == "single-engine"
    assert size_class(BOMBER).label == "four-engine"


def test_r10_land_on_a_prepared_strip_stops_at_its_end() -> None:
    u = unit(col=1, row=7, altitude=1, speed=3)
    check = validate_plan(u, plan("LAND"), FIELD, OPTS)
    assert check.legal, check.reason
    (c,) = check.checks
    assert c.target.value == 3 and c.target.render().endswith("- 2 (landing on prepared strip, R-10) = 3")
    out, rep = execute_plan(u, plan("LAND"), FIELD, ScriptedDice.of([2, 2]), OPTS)
    assert rep.landed and out.landed and out.hex == at(1, 2)
    assert out.altitude == 0 and out.speed == 0


def test_r10_land_after_flying_onto_the_strip() -> None:
    u = unit(col=1, row=9, altitude=1, speed=3)
    out, rep = execute_plan(u, plan("2F LAND"), FIELD, ScriptedDice.of([6, 6]), OPTS)
    assert out.landed and out.hex == at(1, 2)


def test_r10_over_landing_speed_plus_one_per_point() -> None:
    t = landing_target(unit(), site(), 5, OPTS)
    assert t.value == 5 + 2 - 2


def test_r10_damaged_gear_plus_three_per_leg() -> None:
    u = unit(damage=Damage(2, (("landing_gear", 2),)))
    assert landing_target(u, site(), 3, OPTS).value == 5 + 6 - 2


@pytest.mark.parametrize("engine_hits,mod", [(4, 4), (2, 2), (1, 0)])
def test_r10_no_thrust_plus_4_and_halved_thrust_plus_2(engine_hits: int, mod: int) -> None:
    u = unit(damage=Damage(engine_hits, (("engine", engine_hits),)))
    assert landing_target(u, site(), 3, OPTS).value == 5 + mod - 2


def test_r10_strip_too_short_plus_2_and_narrow_house_rule() -> None:
    u = unit(profile=TWIN)   # twin-engine: 8 hexes long, 3 wide
    t = landing_target(u, site(length=6, width=1), 6, OPTS)
    assert t.value == 5 + 2 + 2 - 2
    assert "narrow_strip_mod" in t.render()
    no_width = replace(OPTS, narrow_strip_mod=0)
    assert landing_target(u, site(length=6, width=1), 6, no_width).value == 5 + 2 - 2


@pytest.mark.parametrize("surface,mod", [
    (Surface.PREPARED, -2), (Surface.UNPREPARED, 2), (Surface.WATER, 3), (Surface.ROUGH, 3),
    (Surface.FOREST, 5), (Surface.CARRIER, 4), (Surface.OPEN, 3)])
def test_r10_surface_modifiers(surface: Surface, mod: int) -> None:
    assert landing_target(unit(), site(surface, width=None), 3, OPTS).value == 5 + mod


def test_r10_landing_on_terrain_off_a_strip() -> None:
    """Water, forest and rough ground come from the map under the aircraft."""
    water = validate_plan(unit(col=6, row=7, altitude=1, speed=3), plan("LAND"), FIELD, OPTS)
    assert water.legal and water.checks[0].target.value == 5 + 3
    forest = validate_plan(unit(col=2, row=7, altitude=1, speed=3), plan("LAND"), FIELD, OPTS)
    # forest run of 4 hexes is short for a single-engine craft (+2)
    assert forest.checks[0].target.value == 5 + 5 + 2


def test_r10_carrier_plus_4_and_four_engines_barred() -> None:
    u = unit(col=5, row=7, altitude=1, speed=3)
    check = validate_plan(u, plan("LAND"), FIELD, OPTS)
    assert check.legal and check.checks[0].target.value == 5 + 2 + 4   # 4-hex deck: short
    heavy = unit(col=5, row=7, altitude=1, speed=3, profile=BOMBER)
    assert "four-engine craft cannot land on a carrier" in validate_plan(
        heavy, plan("LAND"), FIELD, OPTS).reason
    fitted = replace(heavy, carrier_equipped=True,
                     profile=replace(BOMBER, engine_kind=EngineKind.ETERNIUM))
    assert validate_plan(fitted, plan("LAND"), FIELD, OPTS).legal
    assert landing_target(heavy, site(Surface.CARRIER, carrier=True), 3,
                          OPTS).finalizer is Finalizer.IMPOSSIBLE


def test_r10_out_of_control_automatic_failure_margin_10() -> None:
    t = landing_target(unit(), site(), 3, OPTS, in_control=False)
    assert t.finalizer is Finalizer.AUTO_FAIL
    out = landing_outcome(roll_check("land", t, ScriptedDice.of([])), go_around=True)
    assert out.margin == 10 and out.crash_points == 100 and not out.went_around


def test_r3_2_after_a_failed_stall_check_it_cannot_plan_a_landing() -> None:
    """R-3.2: after a failed stall check "It also cannot land or take off"."""
    u = unit(col=1, row=7, altitude=1, speed=3, out_of_control=True)
    reason = validate_plan(u, plan("LAND"), FIELD, OPTS).reason
    assert "out of control" in reason and "stall" in reason and "R-3.2" in reason


def test_r10_an_unconscious_pilots_aircraft_lands_as_an_automatic_failure() -> None:
    """R-5: an unconscious pilot's machine "goes out of control"; R-3.2 bars a
    landing only after a failed stall, so R-10's row applies: "Aircraft out of
    control -- automatic failure (count the margin as 10)": 100 points, 10 hits."""
    u = unit(col=1, row=7, altitude=1, speed=3,
             pilot=Airman("Kay", piloting=3, wounds=1, conscious=False))
    check = validate_plan(u, plan("LAND"), FIELD, OPTS)
    assert check.legal, check.reason
    (c,) = check.checks
    assert c.target.finalizer is Finalizer.AUTO_FAIL and c.target.probability() == 0
    assert "margin counts as 10" in c.target.render()
    assert check.path[-1].hex == at(1, 7)           # comes down where it is, not at the end
    assert any("margin counts as 10" in n for n in check.notes)
    locations = [3, 4] * 10                         # no landing roll: the dice are locations
    out, rep = execute_plan(u, plan("LAND"), FIELD, ScriptedDice.of(locations), OPTS)
    assert out.landed and rep.crash_landing_points == 100 and not rep.went_around
    assert out.pending_damage.hull_hits == 10 and out.hex == at(1, 7)


def test_r10_an_out_of_control_landing_never_goes_around() -> None:
    """R-10: a go-around needs a miss "no more than 3"; out of control the miss is 10."""
    u = unit(col=1, row=7, altitude=1, speed=3,
             pilot=Airman("Kay", piloting=3, wounds=1, conscious=False))
    out, rep = execute_plan(u, plan("LAND"), FIELD, ScriptedDice.of([3, 4] * 10), OPTS)
    assert not rep.went_around and out.landed


def test_r10_go_around_when_missed_by_3_or_less() -> None:
    u = unit(col=1, row=7, altitude=1, speed=4, pilot=Airman("Kay", piloting=7))
    # target 7 + 1 (speed 4 > 3) − 2 = 6; 2+2 = 4 misses by 2
    out, rep = execute_plan(u, plan("LAND"), FIELD, ScriptedDice.of([2, 2]), OPTS)
    assert rep.went_around and not out.landed and out.altitude == 1
    assert out.hex == at(1, 3) and out.pending_damage.hull_hits == 0


def test_r10_no_go_around_when_declined() -> None:
    u = unit(col=1, row=7, altitude=1, speed=4, pilot=Airman("Kay", piloting=7))
    out, rep = execute_plan(u, plan("LAND!"), FIELD,
                            ScriptedDice.of([2, 2, 3, 3, 3, 3]), OPTS)
    assert out.landed and rep.crash_landing_points == 20
    assert out.pending_damage.hull_hits == 2


def test_r10_crash_landing_10_damage_per_point_of_margin() -> None:
    u = unit(col=1, row=7, altitude=1, speed=7)
    # target 5 + 4 − 2 = 7; 1+2 = 3 misses by 4 → 40 points = 4 hits, 4 locations
    dice = ScriptedDice.of([1, 2, 3, 3, 3, 4, 4, 3, 4, 4])
    out, rep = execute_plan(u, plan("LAND"), FIELD, dice, OPTS)
    assert rep.crash_landing_points == 40 and out.pending_damage.hull_hits == 4
    assert out.landed and out.hex == at(1, 7)
    assert dice.exhausted


def test_r10_land_from_one_level_above_the_surface() -> None:
    u = unit(col=1, row=7, altitude=2, speed=3)
    check = validate_plan(u, plan("LAND"), FIELD, OPTS)
    assert not check.legal and "one level above the surface" in check.reason


def test_r10_take_off_needs_the_run() -> None:
    u = unit(col=1, row=7, altitude=0, speed=0, landed=True)
    check = validate_plan(u, plan("TO"), FIELD, OPTS)
    assert check.legal, check.reason
    assert check.end.hex == at(1, 4) and check.end.altitude == 1 and check.end.speed == 3
    assert not check.end.landed
    late = replace(u, hex=at(1, 4))
    assert "needs 4 hexes of strip ahead, 3 here" in validate_plan(late, plan("TO"), FIELD,
                                                                  OPTS).reason


def test_r10_take_off_speed_option() -> None:
    u = unit(col=1, row=7, altitude=0, speed=0, landed=True)
    opts = replace(OPTS, takeoff_at_landing_speed=False)
    assert validate_plan(u, plan("TO"), FIELD, opts).end.speed == 4


def test_r10_on_the_ground_only_take_off() -> None:
    u = unit(col=1, row=7, altitude=0, speed=0, landed=True)
    assert "take off first" in validate_plan(u, plan("F"), FIELD, OPTS).reason
    assert validate_plan(u, (), FIELD, OPTS).legal


def test_r10_take_off_runs_by_class() -> None:
    """R-10: 4 hexes for a fighter, 6 for a heavy fighter or attack aircraft."""
    from ka_tui.rules.air.aircraft import AircraftClass
    from ka_tui.rules.air.landing import SEED_TAKEOFF_RUN
    assert SEED_TAKEOFF_RUN == {AircraftClass.FIGHTER: 4, AircraftClass.HEAVY_FIGHTER: 6,
                                AircraftClass.ATTACK: 6}
    twin = unit(col=1, row=11, altitude=0, speed=0, landed=True, profile=TWIN)
    strip6 = parse_map("\n".join([". . ."] * 12) + "\nstrip S 1,11 N 6 1 prepared")
    assert validate_plan(twin, plan("TO"), strip6, OPTS).end.hex == at(1, 6)
    assert "needs 6 hexes" in validate_plan(replace(twin, hex=at(1, 10)), plan("TO"), strip6,
                                            OPTS).reason


def test_r10_the_landing_target_names_every_modifier_and_its_rule() -> None:
    """R-10 with R-2's piloting base: each modifier as the GM reads it, with
    its source; a landing at the landing speed has no over-speed line."""
    kay = Airman("Kay", piloting=5, wounds=1)
    u = replace(unit(col=1, row=7, altitude=1, speed=5, pilot=kay),
                damage=Damage(0, (("landing_gear", 1), ("engine", 2)), ()))
    t = landing_target(u, site(Surface.UNPREPARED, length=3, width=None), 5, OPTS)
    assert t.finalizer is Finalizer.NONE
    assert t.render() == (
        "5 (Kay piloting: landing, R-10) + 1 (pilot wounds, R-7, RULES-NOTES D) "
        "+ 2 (speed 5 over landing speed 3, R-10) + 3 (damaged landing-gear legs, R-10) "
        "+ 2 (maximum thrust reduced to 2 of 4, R-10) "
        "+ 2 (3-hex strip, single-engine needs 5, R-10) "
        "+ 2 (landing on unprepared strip, R-10) = 17")
    assert "over landing speed" not in landing_target(u, site(), 3, OPTS).render()


def test_r10_an_out_of_control_landing_on_a_carrier_reads_as_an_automatic_failure() -> None:
    kay = Airman("Kay", piloting=5, wounds=1)
    u = replace(unit(col=1, row=7, altitude=1, speed=3, pilot=kay),
                damage=Damage(0, (("engine", 4),), ()))
    t = landing_target(u, site(Surface.CARRIER, length=6, width=0, carrier=True), 3, OPTS,
                       in_control=False)
    assert t.render() == (
        "5 (Kay piloting: landing, R-10) + 1 (pilot wounds, R-7, RULES-NOTES D) "
        "+ 4 (no thrust points available, R-10) "
        "+ 2 (0-hex wide, single-engine needs 1, R-10, house rule narrow_strip_mod) "
        "+ 4 (landing on a carrier, R-10) = 16 "
        "[automatic failure: aircraft out of control, margin counts as 10 (R-10)]")


def test_r10_a_barred_carrier_landing_says_why() -> None:
    why = ("four-engine craft cannot land on a carrier without special equipment and "
           "eternium engines (R-10)")
    u = unit(col=1, row=7, altitude=1, speed=3, profile=BOMBER)
    carrier = site(Surface.CARRIER, length=12, width=4, carrier=True)
    assert carrier_refusal(u, carrier) == why
    t = landing_target(u, carrier, 3, OPTS)
    assert t.finalizer is Finalizer.IMPOSSIBLE and t.finalizer_reason == why


def test_r10_the_outcome_lines_the_gm_reads() -> None:
    target = landing_target(unit(col=1, row=7, altitude=1, speed=3), site(), 3, OPTS)  # 3
    lands = landing_outcome(roll_check("land", target, ScriptedDice.of([1, 2])), True)
    assert lands.line == "lands and rolls to the end of the strip (R-10)"
    hard = replace(target, base=9)                                                 # 7
    around = landing_outcome(roll_check("land", hard, ScriptedDice.of([2, 3])), True)
    assert around.line == "missed by 2: goes around (R-10)" and around.margin == 2
    crash = landing_outcome(roll_check("land", hard, ScriptedDice.of([1, 2])), True)
    assert crash.line == "missed by 4: crash-lands, 40 points of damage (R-10)"
