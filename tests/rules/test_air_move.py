"""Hex movement (R-3), plans and their preview; scripted dice on text maps."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from ka_tui.rules.air.altitude import echelon_of
from ka_tui.rules.air.battle_map import parse_map
from ka_tui.rules.air.units import Airman, Damage
from ka_tui.rules.air.aircraft import EngineKind
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.air.move_plan import (
    Climb,
    StartPreview,
    StartReport,
    TerrainCrash,
    Descend,
    Forward,
    IllegalPlan,
    Thrust,
    TurnRight,
    format_plan,
    parse_plan,
)
from ka_tui.rules.air.movement import (
    complete_plan,
    descent_gain,
    execute_plan,
    piloting_target,
    preview_start,
    start_turn,
    validate_plan,
)
from ka_tui.rules.core.options import AltitudeModel, DescentGain, TurnSpeedBasis
from tests.rules.test_air_move_support import FIGHTER, OPEN, OPTS, at, plan, unit

# ---------------------------------------------------------------- R-2 targets


def test_r2_piloting_target_adds_control_surfaces_and_wounds() -> None:
    """R-2 base; RULES-NOTES D control surfaces +1 per point; wounds +1 each."""
    u = unit(pilot=Airman("Kay", piloting=5, wounds=2),
             damage=Damage(1, (("control_surfaces", 1),)))
    t = piloting_target(u, "stall", "R-3.2")
    assert t.value == 8
    assert t.render() == ("5 (Kay piloting: stall, R-3.2) + 1 (control surfaces damaged, "
                          "RULES-NOTES D) + 2 (pilot wounds, R-7, RULES-NOTES D) = 8")


def test_r2_pending_damage_does_not_count_yet() -> None:
    """R-1.3: damage takes effect only from the unit's own shooting phase."""
    u = unit(pending_damage=Damage(1, (("control_surfaces", 1),)))
    assert piloting_target(u).value == 5


# ----------------------------------------------------------------


def test_r3_1_thrust_at_start_changes_this_turns_hexes() -> None:
    """R-3.1: speed changed at the start affects the current turn."""
    check = validate_plan(unit(speed=4), plan("+2 6F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.hexes_to_fly == 6 and check.thrust_used == 2
    short = validate_plan(unit(speed=4), plan("+2 4F"), OPEN, OPTS)
    assert not short.legal
    assert "flies 4 hex(es); speed 6 must fly 6" in short.reason


def test_r3_1_thrust_at_end_changes_next_turns_speed() -> None:
    """R-3.1: speed changed at the end affects the next turn."""
    check = validate_plan(unit(speed=4), plan("4F +2"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.hexes_to_fly == 4
    assert check.end.speed == 6 and check.end.thrust_at_end_last_turn


def test_r3_1_no_start_thrust_after_end_thrust_last_turn() -> None:
    """R-3.1: a unit that changed speed at the end may not change it at the next start."""
    u = unit(speed=4, thrust_at_end_last_turn=True)
    check = validate_plan(u, plan("+1 5F"), OPEN, OPTS)
    assert not check.legal
    assert "end of last turn" in check.reason
    assert validate_plan(u, plan("4F +1"), OPEN, OPTS).legal


def test_r3_1_start_and_end_thrust_in_one_turn() -> None:
    """R-3.1 forbids only end-then-start across turns; both in one turn share the points."""
    check = validate_plan(unit(speed=4), plan("+2 6F -2"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.thrust_used == 4 and check.end.speed == 4
    over = validate_plan(unit(speed=4), plan("+2 6F -3"), OPEN, OPTS)
    assert "needs 3 thrust, 2 of 4 left" in over.reason


def test_r3_1_thrust_limited_to_thrust_points() -> None:
    """R-3.1: thrust points per turn = the profile's thrust."""
    check = validate_plan(unit(speed=2), plan("+5 7F"), OPEN, OPTS)
    assert not check.legal and "needs 5 thrust, 4 of 4 left" in check.reason


def test_r3_1_engine_damage_lowers_thrust() -> None:
    """RULES-NOTES D engine hit: −1 thrust per point in effect."""
    u = unit(speed=2, damage=Damage(1, (("engine", 1),)))
    assert validate_plan(u, plan("+3 5F"), OPEN, OPTS).legal
    assert "3 of 3 left" in validate_plan(u, plan("+4 6F"), OPEN, OPTS).reason


def test_r3_1_braking_costs_thrust() -> None:
    check = validate_plan(unit(speed=6), plan("-2 4F"), OPEN, OPTS)
    assert check.legal and check.thrust_used == 2 and check.end.speed == 4


def test_r3_1_thrust_never_above_move() -> None:
    """S0 §Flight card Move: maximum speed (only diving goes above)."""
    check = validate_plan(unit(speed=7), plan("+2 9F"), OPEN, OPTS)
    assert not check.legal and "above Move 8" in check.reason


def test_r3_1_too_many_hexes_refused() -> None:
    check = validate_plan(unit(speed=3), plan("4F"), OPEN, OPTS)
    assert not check.legal
    assert check.reason == "step 4 (F): speed 3 allows 3 hexes; this would be hex 4 (R-3.1)"


def test_r3_1_start_thrust_after_a_hex_refused() -> None:
    check = validate_plan(unit(speed=3), (Forward(), Thrust(1, "start"), Forward(), Forward()),
                          OPEN, OPTS)
    assert not check.legal and "before any hex" in check.reason


# ----------------------------------------------------------------


def test_r3_2_speed_decays_by_5_at_start_of_turn() -> None:
    u, rep = start_turn(unit(speed=8), ScriptedDice.of([]), OPTS)
    assert (rep.speed_before, u.speed, rep.stalled) == (8, 3, False)


def test_r3_2_stall_loses_one_level() -> None:
    """R-3.2: at 0 the aircraft stalls, loses one level and checks piloting."""
    u, rep = start_turn(unit(speed=5, altitude=3), ScriptedDice.of([3, 3]), OPTS)
    assert rep.stalled and u.speed == 0 and u.altitude == 2
    assert rep.rolls[0].success and not u.out_of_control


def test_r3_2_stall_preview_without_dice() -> None:
    pre = preview_start(unit(speed=4), OPTS)
    assert pre.stalls and pre.speed_after == 0
    assert pre.checks[0].probability == Fraction(30, 36)  # 5+ on 2d6


def test_r3_2_failed_stall_check_out_of_control() -> None:
    """R-3.2: no thrust, no facing or altitude change, straight ahead at speed; no landing."""
    u, rep = start_turn(unit(speed=5, altitude=3), ScriptedDice.of([1, 2]), OPTS)
    assert u.out_of_control and rep.random_move == 0
    assert "out of control" in validate_plan(u, plan("+3 3F"), OPEN, OPTS).reason
    u = replace(u, speed=3)
    assert "out of control" in validate_plan(u, plan("F R 2F"), OPEN, OPTS).reason
    assert "out of control" in validate_plan(u, plan("C 3F"), OPEN, OPTS).reason
    assert "out of control" in validate_plan(u, plan("3F LAND"), OPEN, OPTS).reason
    assert validate_plan(u, plan("3F"), OPEN, OPTS).legal


def test_r3_2_stall_failed_by_more_than_5_random_move() -> None:
    """R-3.2 / RULES-NOTES D: a miss by more than 5 turns the aircraft 1–2 sides."""
    u = unit(speed=5, altitude=3, facing=0, pilot=Airman("Kay", piloting=9))
    # 1+1 = 2 vs 9 misses by 7; d6 2 → left, d2 2 → two sides
    out, rep = start_turn(u, ScriptedDice.of([1, 1, 2, 2]), OPTS)
    assert rep.random_move == -2 and out.facing == 4
    assert any("random move" in line for line in rep.log)


def test_r3_2_miss_by_exactly_5_no_random_move() -> None:
    u = unit(speed=5, altitude=3, pilot=Airman("Kay", piloting=8))
    out, rep = start_turn(u, ScriptedDice.of([1, 2]), OPTS)  # 3 vs 8: margin −5
    assert out.out_of_control and rep.random_move == 0 and out.facing == 0


@pytest.mark.parametrize("kind", [EngineKind.TURBINE, EngineKind.ETERNIUM])
def test_r3_2_eternium_and_turbine_do_not_stall(kind: EngineKind) -> None:
    u = unit(speed=3, profile=replace(FIGHTER, engine_kind=kind))
    out, rep = start_turn(u, ScriptedDice.of([]), OPTS)
    assert out.speed == 0 and not rep.stalled and out.altitude == 2


def test_r3_2_out_of_control_clears_at_next_turn_start() -> None:
    u = unit(speed=9, out_of_control=True, moved=True, figure_flown=True)
    out, _ = start_turn(u, ScriptedDice.of([]), OPTS)
    assert not out.out_of_control and not out.moved and not out.figure_flown


def test_r3_2_stall_in_flight_when_climb_takes_speed_to_zero() -> None:
    """R-3.2 "as soon as speed drops to 0": a climb paid in speed can stall."""
    check = validate_plan(unit(speed=2, altitude=2), plan("C"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.end.altitude == 2 and check.end.speed == 0
    assert [c.what for c in check.checks] == ["A1 stall (R-3.2)"]


def test_r3_2_stall_onto_the_ground_crashes_r6_1() -> None:
    out, rep = start_turn(unit(speed=5, altitude=1), ScriptedDice.of([6, 6]), OPTS, OPEN)
    assert out.crashed and rep.terrain_crash is not None and rep.terrain_crash.altitude == 0


def test_r3_2_a_stall_onto_a_hill_crashes_at_the_hills_height_r6_1() -> None:
    """R-6.1 at the turn's start: a stall from level 3 to 2 over a hill of 3
    is a crash at the hill's height, reported with the height and the speed."""
    hill = parse_map("\n".join([" ".join(["."] * 8)] * 10 + [". . . 3 . . . ."] + [
        " ".join(["."] * 8)]))
    u = unit(col=3, row=10, speed=5, altitude=3)
    out, rep = start_turn(u, ScriptedDice.of([6, 6]), OPTS, hill)
    assert rep.terrain_crash == TerrainCrash(at(3, 10), 2, 3, 0)
    assert out.crashed and out.altitude == 3
    assert rep.log[-1] == "A1 falls to the terrain at 3,10: crash (R-6.1)"


def test_r3_2_no_crash_above_the_terrain() -> None:
    """R-6.1: one level above the hill after the stall flies on."""
    hill = parse_map("\n".join([" ".join(["."] * 8)] * 10 + [". . . 1 . . . ."] + [
        " ".join(["."] * 8)]))
    out, rep = start_turn(unit(speed=5, altitude=3), ScriptedDice.of([6, 6]), OPTS, hill)
    assert rep.terrain_crash is None and not out.crashed and out.altitude == 2
    # no map: the ground is level 0, so a stall down to level 1 flies on
    out, rep = start_turn(unit(speed=5, altitude=2), ScriptedDice.of([6, 6]), OPTS)
    assert rep.terrain_crash is None and not out.crashed and out.altitude == 1


@pytest.mark.parametrize("state", ["landed", "crashed"])
def test_r3_2_an_aircraft_on_the_ground_neither_slows_nor_stalls(state: str) -> None:
    """R-3.2 applies in flight: on the ground (landed, or crashed but not yet
    destroyed) the speed stays, nothing is rolled; the turn's flags clear."""
    u = unit(speed=2, altitude=0, moved=True, figure_flown=True, out_of_control=True,
             landed=state == "landed", crashed=state == "crashed")
    out, rep = start_turn(u, ScriptedDice.of([]), OPTS)
    assert rep == StartReport(2, 2, False, (), ("on the ground",))
    assert (out.moved, out.figure_flown, out.out_of_control) == (False, False, False)


def test_r3_2_speed_1_after_decay_neither_stalls_nor_says_so() -> None:
    """R-3.2: only speed 0 stalls; speed 1 is said as the decay only."""
    out, rep = start_turn(unit(speed=6), ScriptedDice.of([]), OPTS)
    assert (rep.speed_before, rep.speed_after, rep.stalled) == (6, 1, False)
    assert rep.log == ("A1: speed 6 → 1 (R-3.2)",) and out.speed == 1


def test_r3_2_a_jet_at_0_says_why_it_does_not_stall() -> None:
    u = unit(speed=3, profile=replace(FIGHTER, engine_kind=EngineKind.TURBINE))
    _, rep = start_turn(u, ScriptedDice.of([]), OPTS)
    assert rep.log[-1] == "A1 does not stall: turbine engine (R-3.2)"
    assert rep.speed_after == 0 and rep.rolls == ()


@pytest.mark.parametrize("state", ["landed", "crashed"])
def test_r3_2_preview_on_the_ground(state: str) -> None:
    u = unit(speed=2, altitude=0, landed=state == "landed", crashed=state == "crashed")
    assert preview_start(u, OPTS) == StartPreview(2, False, (), (
        "on the ground: no speed decay",))


def test_r3_2_preview_names_the_stall_check_and_what_a_failure_does() -> None:
    pre = preview_start(unit(speed=5, altitude=2), OPTS)
    (check,) = pre.checks
    assert (check.what, check.step) == ("A1 stall (R-3.2)", -1)
    assert check.on_fail.startswith("out of control") and "random facing" in check.on_fail
    assert pre.log == ("speed 5 → 0 (R-3.2: −5 at the start of the turn)",
                       "stall: loses one level to 1 (R-3.2)")


@pytest.mark.parametrize("altitude", [1, 2, 3, 4])
@pytest.mark.parametrize("speed", [3, 5, 6, 9])
def test_r3_2_preview_foretells_the_checks_start_turn_rolls(altitude: int, speed: int) -> None:
    """R-3.2 and S0 §Altitude explained (house rule echelon_test_every_turn):
    the preview's checks are the ones the turn's start rolls, with the same
    targets (the echelon test at the level after a stall)."""
    opts = replace(OPTS, echelon_test_every_turn=True, echelon_test_penalty=1)
    # the second level's echelon needs a test too, so a stall into it is seen
    hill = echelon_of(2, opts)
    assert hill is not None
    low = replace(FIGHTER, test_echelons=FIGHTER.test_echelons | {hill})
    u = unit(speed=speed, altitude=altitude, profile=low)
    pre = preview_start(u, opts)
    _, rep = start_turn(u, ScriptedDice.of([6, 6] * 3), opts, OPEN)
    assert [(c.target.value, c.target.render()) for c in pre.checks] == [
        (r.target.value, r.target.render()) for r in rep.rolls]
    assert pre.speed_after == rep.speed_after and pre.stalls == rep.stalled


# ----------------------------------------------------------------


def test_r3_3_climb_costs_two_speed_per_level() -> None:
    check = validate_plan(unit(speed=6), plan("C 4F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.end.altitude == 3 and check.end.speed == 4 and check.hexes_to_fly == 4


def test_r3_3_climb_costs_two_thrust_per_level() -> None:
    check = validate_plan(unit(speed=6), plan("CT 6F"), OPEN, OPTS)
    assert check.legal and check.thrust_used == 2 and check.end.speed == 6


def test_r3_3_climb_in_speed_cannot_undercut_hexes_flown() -> None:
    check = validate_plan(unit(speed=6), plan("5F C"), OPEN, OPTS)
    assert not check.legal and "costs 2 speed" in check.reason


def test_r3_3_descent_gains_one_speed_per_two_levels() -> None:
    check = validate_plan(unit(speed=6, altitude=4), plan("D2 7F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.end.speed == 7 and check.end.altitude == 2
    assert validate_plan(unit(speed=6, altitude=4), plan("D 6F"), OPEN, OPTS).end.speed == 6


def test_r3_3_descent_gain_counts_levels_over_the_turn() -> None:
    check = validate_plan(unit(speed=6, altitude=4), plan("D F D 6F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.hexes_to_fly == 7


def test_r3_3_descent_gain_flat_once_option() -> None:
    opts = replace(OPTS, descent_gain=DescentGain.FLAT_ONCE)
    assert descent_gain(4, opts) == 1 and descent_gain(4, OPTS) == 2
    assert descent_gain(1, opts) == 0


def test_r3_3_descent_never_above_dive_max_or_12() -> None:
    check = validate_plan(unit(speed=10, altitude=4), plan("D2 10F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.end.speed == 10  # dive maximum 10


def test_r3_3_descending_more_than_2_needs_check_with_penalty() -> None:
    check = validate_plan(unit(speed=6, altitude=4), plan("D3 7F"), OPEN, OPTS)
    assert check.legal, check.reason
    (c,) = check.checks
    assert c.target.value == 8 and c.probability == Fraction(15, 36)
    assert "descending 3 levels at once" in c.target.render()
    assert validate_plan(unit(speed=6, altitude=4), plan("D2 7F"), OPEN, OPTS).checks == ()


def test_r3_3_failed_steep_descent_leaves_aircraft_out_of_control() -> None:
    u = unit(speed=2, altitude=4)
    assert validate_plan(u, plan("D3 F R 2F"), OPEN, OPTS).legal
    out, rep = execute_plan(u, plan("D3 F R 2F"), OPEN, ScriptedDice.of([1, 1]), OPTS)
    assert out.out_of_control and out.facing == 0
    assert out.hex == at(3, 7) and out.altitude == 1   # 3 hexes straight north


def test_r3_3_ceiling_refuses_the_climb() -> None:
    """S0 §Altitude explained: no higher than the flight card allows."""
    check = validate_plan(unit(speed=6, altitude=4), plan("C 4F"), OPEN, OPTS)
    assert not check.legal and "ceiling is level 4 (Top)" in check.reason


def test_s0_echelon_test_when_climbing_into_a_test_echelon() -> None:
    """S0: a red/grey echelon needs a test; failure drops back a level (house rule)."""
    u = unit(speed=6, altitude=3)
    check = validate_plan(u, plan("C 4F"), OPEN, OPTS)
    assert [c.what for c in check.checks] == [
        "A1 echelon test at level 4 (Top) (S0 §Altitude explained)"]
    out, rep = execute_plan(u, plan("C 4F"), OPEN, ScriptedDice.of([1, 1]), OPTS)
    assert out.altitude == 3 and out.speed == 4


def test_s0_echelon_penalty_option() -> None:
    opts = replace(OPTS, echelon_test_penalty=2)
    check = validate_plan(unit(speed=6, altitude=3), plan("C 4F"), OPEN, opts)
    assert check.checks[0].target.value == 7


# ----------------------------------------------------------------


def test_r3_4_turn_needs_straight_hexes_at_speed() -> None:
    check = validate_plan(unit(speed=6), plan("F R 5F"), OPEN, OPTS)
    assert not check.legal
    assert check.reason == "step 2 (R): turn needs 2 straight hexes at speed 6, flown 1 (R-3.4)"
    ok = validate_plan(unit(speed=6), plan("2F R 4F"), OPEN, OPTS)
    assert ok.legal and ok.end.facing == 1 and ok.sides_turned == 1


def test_r3_4_turn_uses_no_hex() -> None:
    check = validate_plan(unit(speed=2, col=3, row=5), plan("F R F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.end.hex == at(3, 4).neighbour(1)


def test_r3_4_straight_run_carried_across_turns() -> None:
    u = unit(speed=6, straight_run=2)
    check = validate_plan(u, plan("R 6F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.end.straight_run == 6
    assert validate_plan(unit(speed=6), plan("5F"), OPEN, OPTS).reason  # still must fly 6
    carried = validate_plan(unit(speed=6), plan("6F"), OPEN, OPTS).end
    assert carried.straight_run == 6


def test_r3_4_turn_band_read_at_current_speed_option() -> None:
    """R-3.4 silent on mid-move speed changes: ``turn_speed_basis`` (default current)."""
    p = (Climb(1, "speed"), Forward(), TurnRight(), Forward())
    assert validate_plan(unit(speed=4), p, OPEN, OPTS).legal  # speed 2: 1 hex per side
    start = replace(OPTS, turn_speed_basis=TurnSpeedBasis.START)
    assert "needs 2 straight hexes at speed 4" in validate_plan(unit(speed=4), p, OPEN,
                                                                start).reason


# ----------------------------------------------------------------


def test_r3_5_afterburner_raises_thrust_and_overheat() -> None:
    u = unit(speed=2)
    assert not validate_plan(u, plan("+5 7F"), OPEN, OPTS).legal
    check = validate_plan(u, plan("AB +5 7F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.thrust_available == 6
    assert check.end.overheat == 1 and check.end.afterburner_on


def test_r3_5_no_afterburner_without_the_number_in_parentheses() -> None:
    from tests.rules.test_air_move_support import BOMBER
    check = validate_plan(unit(speed=2, profile=BOMBER), plan("AB 2F"), OPEN, OPTS)
    assert not check.legal and "no afterburner" in check.reason


def test_r3_5_afterburner_after_moving_refused() -> None:
    assert "before thrust" in validate_plan(unit(speed=2), plan("F AB F"), OPEN, OPTS).reason


def test_r3_6_water_methanol_adds_thrust_uses_and_fuel() -> None:
    check = validate_plan(unit(speed=2), plan("WM +6 8F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.thrust_available == 6
    assert check.end.wm_uses_left == 1 and check.end.fuel == 19


def test_r3_6_water_methanol_altitude_limit() -> None:
    check = validate_plan(unit(speed=2, altitude=4), plan("WM 2F"), OPEN, OPTS)
    assert not check.legal and "up to level 3" in check.reason


def test_r3_6_water_methanol_used_up() -> None:
    check = validate_plan(unit(speed=2, wm_uses_left=0), plan("WM 2F"), OPEN, OPTS)
    assert not check.legal and "used up" in check.reason


# ---------------------------------------------------------------- S0 altitude model


def test_s0_altitude_model_move_of_six_split_over_rounds() -> None:
    """S0 §Changing altitude: note the change, fly a move of 6 (over rounds)."""
    opts = replace(OPTS, altitude_model=AltitudeModel.S0)
    u = unit(speed=4, altitude=2)
    first = validate_plan(u, plan("C 4F"), OPEN, opts)
    assert first.legal, first.reason
    assert first.end.altitude == 2 and first.end.altitude_progress == 4
    assert first.end.speed == 4 and first.end.altitude_goal == 3
    second = validate_plan(replace(first.end, moved=False), plan("4F"), OPEN, opts)
    assert second.end.altitude == 3 and second.end.altitude_goal is None


def test_s0_altitude_model_respects_ceiling() -> None:
    opts = replace(OPTS, altitude_model=AltitudeModel.S0)
    check = validate_plan(unit(speed=4, altitude=3), plan("C2 4F"), OPEN, opts)
    assert not check.legal and "ceiling" in check.reason


# ---------------------------------------------------------------- plans


def test_plan_text_round_trip() -> None:
    text = "AB WM +2 LOOP F R < > C CT2 D3 F -1 LAND"
    steps, errors = parse_plan(text)
    assert not errors
    assert format_plan(steps) == text
    assert parse_plan("3F")[0] == (Forward(), Forward(), Forward())
    assert parse_plan("F -1")[0][1] == Thrust(-1, "end")
    assert parse_plan("D2")[0] == (Descend(2),)


def test_plan_text_errors_name_the_token() -> None:
    _, errors = parse_plan("F Q 3")
    assert errors == ["'Q' is not a step", "'3': a number needs a step after it (e.g. 3F)"]


def test_preview_matches_flight_when_every_check_passes() -> None:
    u = unit(speed=6, altitude=2)
    p = plan("IMM D3 3F R 4F")
    check = validate_plan(u, p, OPEN, OPTS)
    assert check.legal, check.reason
    out, rep = execute_plan(u, p, OPEN, ScriptedDice.of([6] * 12), OPTS)
    assert (out.hex, out.facing, out.altitude, out.speed) == (
        check.end.hex, check.end.facing, check.end.altitude, check.end.speed)
    assert [p.hex for p in rep.path] == [p.hex for p in check.path]
    assert len(rep.rolls) == len(check.checks)


def test_complete_plan_fills_the_speed_before_end_thrust() -> None:
    """R-3.1: the aircraft must fly its speed; the GM may leave the rest straight."""
    u = unit(speed=3)
    assert complete_plan(u, plan("F R +1"), OPEN, OPTS) == plan("F R 2F +1")
    assert complete_plan(u, plan("3F"), OPEN, OPTS) == plan("3F")
    assert complete_plan(unit(speed=4), plan("F R"), OPEN, OPTS) == plan("F R")  # bad turn


def test_execute_refuses_an_illegal_plan_with_the_reason() -> None:
    """R-3.4 (straight hexes per facing change): an illegal plan is refused with the reason."""
    with pytest.raises(IllegalPlan, match="turn needs 2 straight hexes"):
        execute_plan(unit(speed=6), plan("F R 5F"), OPEN, ScriptedDice.of([]), OPTS)


def test_a_unit_moves_once_per_turn() -> None:
    """R-1.2: each unit moves once in the movement phase."""
    out, _ = execute_plan(unit(speed=2), plan("2F"), OPEN, ScriptedDice.of([]), OPTS)
    assert out.moved
    with pytest.raises(IllegalPlan, match="already moved"):
        execute_plan(out, plan("2F"), OPEN, ScriptedDice.of([]), OPTS)


def test_plan_check_reports_overall_odds() -> None:
    """R-2 (2d6 ≥ target) and R-3.3 (descending more than 2 levels needs a check): the plan preview gives every check's odds."""
    check = validate_plan(unit(speed=6, altitude=4), plan("D3 7F"), OPEN, OPTS)
    assert check.all_pass_probability == Fraction(15, 36)


def test_r6_1_flying_into_a_hill_is_detected() -> None:
    """R-6.1: ending at the terrain's height crashes; the turn rolls the damage."""
    hills = parse_map("""
        . . . .
        . . . .
        . 2 . .
        . . . .
        . . . .
    """)
    u = unit(col=1, row=4, altitude=2, speed=3)
    check = validate_plan(u, plan("3F"), hills, OPTS)
    assert check.terrain_crash is not None and check.terrain_crash.hex == at(1, 2)
    assert check.notes and "R-6.1" in check.notes[0]
    out, rep = execute_plan(u, plan("3F"), hills, ScriptedDice.of([]), OPTS)
    assert out.crashed and out.hex == at(1, 2) and rep.terrain_crash == check.terrain_crash
    assert validate_plan(replace(u, altitude=3), plan("3F"), hills, OPTS).terrain_crash is None


def test_r3_3_descending_to_the_ground_is_a_crash_r6_1() -> None:
    check = validate_plan(unit(speed=3, altitude=2), plan("D2 4F"), OPEN, OPTS)
    assert check.terrain_crash is not None and check.terrain_crash.altitude == 0


def test_s0_echelon_test_every_turn_option() -> None:
    """S0 "flying on this altitude requires additional test": option, off by default."""
    u = unit(speed=8, altitude=4)
    assert preview_start(u, OPTS).checks == ()
    opts = replace(OPTS, echelon_test_every_turn=True)
    (c,) = preview_start(u, opts).checks
    assert c.target.value == 5
    out, rep = start_turn(u, ScriptedDice.of([1, 1]), opts)
    assert out.altitude == 3 and not rep.rolls[0].success


def test_r3_2_random_move_sides_option() -> None:
    """RULES-NOTES D ``random_move_max_sides``: 1 means always one side."""
    u = unit(speed=5, altitude=3, pilot=Airman("Kay", piloting=9))
    opts = replace(OPTS, random_move_max_sides=1)
    out, rep = start_turn(u, ScriptedDice.of([1, 1, 5]), opts)  # d6 5 → right
    assert rep.random_move == 1 and out.facing == 1


def test_r3_3_steep_descent_per_turn_option() -> None:
    """R-3.3 "at once": per step (default) or per turn (``steep_descent_basis``)."""
    from ka_tui.rules.core.options import SteepDescentBasis
    u = unit(speed=4, altitude=4)
    p = plan("D2 F D 4F")
    assert validate_plan(u, p, OPEN, OPTS).checks == ()
    per_turn = replace(OPTS, steep_descent_basis=SteepDescentBasis.TURN)
    (c,) = validate_plan(u, p, OPEN, per_turn).checks
    assert c.target.value == 5 + 3 and c.step == 2


def test_leaving_the_map_is_noted() -> None:
    """R-3.1 (an aircraft must fly its Speed): a path that leaves the map is noted, not refused."""
    check = validate_plan(unit(col=3, row=1, speed=3), plan("3F"), OPEN, OPTS)
    assert check.legal and check.notes == ("leaves the map at 3,-1",)


def test_part_a_house_rules_round_trip_through_the_campaign_dict() -> None:
    """Every movement option is stored per campaign and validated on load."""
    from ka_tui.rules.core.options import HouseRules
    rules = HouseRules().with_changes("air", turn_speed_basis=TurnSpeedBasis.START,
                                      echelon_test_penalty=2, takeoff_at_landing_speed=False)
    back = HouseRules.from_dict(rules.to_dict())
    assert back.air.turn_speed_basis is TurnSpeedBasis.START
    assert back.air.echelon_test_penalty == 2 and not back.air.takeoff_at_landing_speed
    with pytest.raises(ValueError, match="steep_descent_basis must be one of step, turn"):
        HouseRules.from_dict({"air": {"steep_descent_basis": "sometimes"}})


def test_required_check_renders_target_odds_and_consequence() -> None:
    check = validate_plan(unit(speed=6, altitude=4), plan("D3 7F"), OPEN, OPTS)
    assert check.checks[0].render() == (
        "A1 descent of 3 levels (R-3.3): 5 (Kay piloting: steep descent, R-3.3) + 3 "
        "(descending 3 levels at once, R-3.3) = 8 — 42% (5/12); on failure out of control "
        "for the rest of the move")


def test_plan_summary_line() -> None:
    ok = validate_plan(unit(speed=6, altitude=4), plan("D3 3F R 4F"), OPEN, OPTS)
    assert ok.summary() == ("legal: 7/7 hexes · thrust 0/4 · G 1 · 1 check(s), all pass 42%")
    bad = validate_plan(unit(speed=6), plan("F R 5F"), OPEN, OPTS)
    assert bad.summary().startswith("illegal: step 2 (R): turn needs 2 straight hexes")
