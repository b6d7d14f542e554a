"""The movement log word for word, as the GM reads it after a turn's start
or a flight (R-3.2 stall and random move, R-3.3 climb and descent, R-3.5 and
R-3.6 engine boosts, R-9 figures, R-6.1 terrain, S0 §Changing altitude), and
the names of the rolls the GM is asked to throw at the table."""

from __future__ import annotations

from tests.rules.table_dice_fixture import TableDice

from dataclasses import replace

from ka_tui.rules.air.battle_map import parse_map
from ka_tui.rules.air.move_plan import StartPreview, StartReport
from ka_tui.rules.air.movement import (
    execute_plan,
    preview_start,
    roll_random_move,
    start_turn,
    validate_plan,
)
from ka_tui.rules.air.units import Airman
from ka_tui.rules.core.dice import RollAsk, ScriptedDice
from ka_tui.rules.core.options import AltitudeModel

from .test_air_move_support import FIGHTER, OPEN, OPTS, plan, unit
from .test_landing import FIELD

NINE = Airman("Kay", piloting=9)         # 2d6 of 1+1 misses 9 by 7: a random move
NO_TEST = replace(FIGHTER, test_echelons=frozenset())
HILL = parse_map("""
    . . . .
    . . . .
    . 2 . .
    . . . .
    . . . .
""")


# ---------------------------------------------------------------- at the turn's start


def test_r3_2_a_stall_missed_by_more_than_5_logs_the_random_move_right() -> None:
    _, rep = start_turn(unit(speed=5, altitude=3, pilot=NINE, straight_run=3),
                        ScriptedDice.of([1, 1, 5, 2]),
                        OPTS)
    assert rep.log == (
        "A1: speed 5 → 0 (R-3.2)",
        "A1 stalls: loses one level, 3 → 2 (R-3.2)",
        "A1 stall (R-3.2): 2d6 1+1 = 2 vs 9 (Kay piloting: stall, R-3.2) → failure (margin -7)",
        "A1 is out of control: straight ahead at speed 0, no thrust, turn, climb or landing "
        "(R-3.2)",
        "A1 missed by more than 5: random move, 2 side(s) right, now facing SE (R-3.2, "
        "RULES-NOTES D)")
    assert rep.random_move == 2


def test_r3_2_a_random_move_of_one_side_right_says_right() -> None:
    _, rep = start_turn(unit(speed=5, altitude=3, pilot=NINE), ScriptedDice.of([1, 1, 6, 1]),
                        OPTS)
    assert rep.log[-1] == ("A1 missed by more than 5: random move, 1 side(s) right, now facing "
                           "NE (R-3.2, RULES-NOTES D)")
    assert rep.random_move == 1


def test_r3_2_a_turn_start_without_a_stall_reports_no_random_move() -> None:
    _, rep = start_turn(unit(speed=6), ScriptedDice.of([]), OPTS)
    assert rep == StartReport(6, 1, False, (), ("A1: speed 6 → 1 (R-3.2)",))


def test_r3_2_a_random_move_to_the_left_says_left() -> None:
    out, rep = start_turn(unit(speed=5, altitude=3, pilot=NINE, straight_run=3),
                          ScriptedDice.of([1, 1, 2, 1]), OPTS)
    assert rep.log[-1] == ("A1 missed by more than 5: random move, 1 side(s) left, now facing "
                           "NW (R-3.2, RULES-NOTES D)")
    assert (rep.random_move, out.facing, out.straight_run) == (-1, 5, 0)


def test_r3_2_a_failed_echelon_test_at_the_start_drops_a_level() -> None:
    """S0 §Altitude explained, house rule echelon_test_every_turn."""
    opts = replace(OPTS, echelon_test_every_turn=True)
    out, rep = start_turn(unit(speed=8, altitude=4), ScriptedDice.of([1, 1]), opts)
    assert rep.log == (
        "A1: speed 8 → 3 (R-3.2)",
        "A1 echelon test (S0 §Altitude explained): 2d6 1+1 = 2 vs 5 (Kay piloting: echelon "
        "test, S0 §Altitude explained) → failure (margin -3)",
        "A1 cannot hold the echelon: drops to level 3")
    assert out.altitude == 3


def test_r3_2_a_destroyed_aircraft_neither_slows_nor_stalls() -> None:
    u = unit(speed=2, altitude=0, moved=True, destroyed=True)
    assert preview_start(u, OPTS) == StartPreview(2, False, (), ("on the ground: no speed decay",))
    out, rep = start_turn(u, ScriptedDice.of([]), OPTS)
    assert rep == StartReport(2, 2, False, (), ("on the ground",)) and not out.moved


def test_r3_2_the_random_move_names_its_two_rolls_for_the_table() -> None:
    """RULES-NOTES D: a d6 for the side (1-3 left, 4-6 right), then the sides."""
    dice = TableDice([4, 2])
    assert roll_random_move(dice, OPTS) == 2
    assert dice.asks == [
        RollAsk("random move: which way (R-3.2)", 1, 6, note="1-3 left, 4-6 right"),
        RollAsk("random move: how many sides (R-3.2)", 1, 2)]
    assert dice.used == [(6, 4), (2, 2)]
    one = TableDice([3])
    assert roll_random_move(one, replace(OPTS, random_move_max_sides=1)) == -1
    assert [a.what for a in one.asks] == ["random move: which way (R-3.2)"]


def test_r3_2_the_random_move_may_turn_up_to_the_house_rules_sides() -> None:
    """RULES-NOTES D ``random_move_max_sides``: a third side is possible at 3."""
    dice = TableDice([6, 3])
    assert roll_random_move(dice, replace(OPTS, random_move_max_sides=3)) == 3
    assert dice.asks[1] == RollAsk("random move: how many sides (R-3.2)", 1, 3)


# ---------------------------------------------------------------- in flight


def test_r3_2_a_stall_in_flight_missed_by_more_than_5_turns_at_random() -> None:
    """R-3.2 "as soon as speed drops to 0": the climb paid in speed stalls it."""
    u = unit(speed=2, altitude=3, pilot=NINE, profile=NO_TEST, straight_run=3)
    out, rep = execute_plan(u, plan("C"), OPEN, ScriptedDice.of([1, 1, 5, 2]), OPTS)
    assert rep.log == (
        "A1: speed 2 → 0 (climbed 1, R-3.3)",
        "A1 stalls: loses one level (R-3.2)",
        "A1 stall (R-3.2): 2d6 1+1 = 2 vs 9 (Kay piloting: stall, R-3.2) → failure (margin -7)",
        "A1 is out of control: failed stall check (R-3.2); straight ahead for the rest of the "
        "move",
        "random move: 2 side(s), now facing SE (R-3.2, RULES-NOTES D)")
    assert rep.stalled and rep.random_move == 2
    assert (out.facing, out.altitude, out.straight_run, out.out_of_control) == (2, 3, 0, True)


def test_r3_2_a_stall_in_flight_missed_by_exactly_5_keeps_its_facing() -> None:
    u = unit(speed=2, altitude=3, pilot=NINE, profile=NO_TEST, straight_run=3)
    out, rep = execute_plan(u, plan("C"), OPEN, ScriptedDice.of([2, 2]), OPTS)   # 4 vs 9
    assert rep.rolls[0].margin == -5 and rep.random_move == 0
    assert (out.facing, out.straight_run, out.out_of_control) == (0, 3, True)


def test_r3_2_a_stall_in_flight_missed_by_6_turns_at_random() -> None:
    u = unit(speed=2, altitude=3, pilot=NINE, profile=NO_TEST)
    out, rep = execute_plan(u, plan("C"), OPEN, ScriptedDice.of([1, 2, 5, 1]), OPTS)  # 3 vs 9
    assert rep.rolls[0].margin == -6 and rep.random_move == 1 and out.facing == 1


def test_r3_2_braking_to_0_low_over_the_ground_stalls_into_it() -> None:
    """R-3.2 a stall loses a level; at the ground's height it is a crash (R-6.1)."""
    u = unit(speed=2, altitude=1)
    assert validate_plan(u, plan("2F -2"), OPEN, OPTS).notes == (
        "the plan flies into terrain at 3,8 (R-6.1 crash)",)
    out, rep = execute_plan(u, plan("2F -2"), OPEN, ScriptedDice.of([6, 6]), OPTS)
    assert rep.log[:3] == ("A1: speed 2 → 0 (thrust -2 at the end, R-3.1)",
                           "A1 stalls: loses one level (R-3.2)",
                           "A1 hits the terrain at 3,8 (height 0) at speed 0: crash (R-6.1; "
                           "stall, R-3.2)")
    assert out.crashed


def test_r3_2_the_in_flight_stall_check_and_what_its_failure_does() -> None:
    check = validate_plan(unit(speed=2, altitude=3, profile=NO_TEST), plan("C"), OPEN, OPTS)
    assert [(c.what, c.step, c.on_fail) for c in check.checks] == [
        ("A1 stall (R-3.2)", 0, "out of control: straight ahead for the rest of the move")]


# ---------------------------------------------------------------- S0


def test_r3_3_a_failed_echelon_test_on_climbing_logs_the_drop() -> None:
    out, rep = execute_plan(unit(speed=6, altitude=3), plan("C 4F"), OPEN,
                            ScriptedDice.of([1, 1]), OPTS)
    assert rep.log == (
        "A1 echelon test at level 4 (Top) (S0 §Altitude explained): 2d6 1+1 = 2 vs 5 (Kay "
        "piloting: echelon test, S0 §Altitude explained) → failure (margin -3)",
        "A1 cannot hold the echelon: back to level 3",
        "A1: speed 6 → 4 (climbed 1, R-3.3)")
    assert out.altitude == 3


def test_s0_a_climb_is_noted_with_the_hexes_per_level() -> None:
    s0 = replace(OPTS, altitude_model=AltitudeModel.S0)
    _, rep = execute_plan(unit(speed=4, altitude=2), plan("C 4F"), OPEN, ScriptedDice.of([]),
                          s0)
    assert rep.log == ("A1 notes a climb to level 3: one level per 6 hexes "
                       "(S0 §Changing altitude)",)


def test_r3_3_a_failed_steep_descent_logs_the_loss_of_control() -> None:
    _, rep = execute_plan(unit(speed=2, altitude=4), plan("D3 F R 2F"), OPEN,
                          ScriptedDice.of([1, 1]), OPTS)
    assert rep.log[1:] == (
        "A1 is out of control: failed steep-descent check (R-3.3); straight ahead for the "
        "rest of the move",
        "A1: speed 2 → 3 (+1 for 3 levels lost, R-3.3)",
        "A1: the rest of the plan is dropped (4 step(s))")


# ----------------------------------------------------------------


def test_r6_1_flying_into_a_hill_is_logged_and_noted() -> None:
    u = unit(col=1, row=4, altitude=2, speed=3)
    check = validate_plan(u, plan("3F"), HILL, OPTS)
    assert check.notes == ("the plan flies into terrain at 1,2 (R-6.1 crash)",)
    assert check.summary() == ("legal: 2/3 hexes · thrust 0/4 · no checks · CRASH (R-6.1) · "
                               "the plan flies into terrain at 1,2 (R-6.1 crash)")
    _, rep = execute_plan(u, plan("3F"), HILL, ScriptedDice.of([]), OPTS)
    assert rep.log == ("A1 hits the terrain at 1,2 (height 2) at speed 3: crash (R-6.1; "
                       "flying into it)",)


def test_r6_1_descending_into_the_ground_names_the_descent() -> None:
    _, rep = execute_plan(unit(speed=3, altitude=2), plan("D2 4F"), OPEN, ScriptedDice.of([]),
                          OPTS)
    assert rep.log == ("A1 hits the terrain at 3,10 (height 0) at speed 3: crash (R-6.1; "
                       "descended 2, R-3.3)",)


def test_leaving_the_map_is_logged_once() -> None:
    """R-3.1 (fly the whole speed): the GM is told where it left the map."""
    _, rep = execute_plan(unit(col=3, row=1, speed=3), plan("3F"), OPEN, ScriptedDice.of([]),
                          OPTS)
    assert rep.log == ("A1 leaves the map at 3,-1",)


# ----------------------------------------------------------------


def test_r3_5_and_r3_6_the_engine_boosts_are_logged() -> None:
    _, ab = execute_plan(unit(speed=6), plan("AB C 4F"), OPEN, ScriptedDice.of([]), OPTS)
    assert ab.log == ("A1: afterburner, thrust (6), overheat 1 (R-3.5)",
                      "A1: speed 6 → 4 (climbed 1, R-3.3)")
    _, wm = execute_plan(unit(speed=2), plan("WM +6 8F"), OPEN, ScriptedDice.of([]), OPTS)
    assert wm.log == ("A1: water-methanol +2 thrust, 1 use(s) left (R-3.6)",
                      "A1: speed 2 → 8 (thrust +6 at the start, R-3.1)")


# ----------------------------------------------------------------


def test_r9_the_figures_are_logged_with_their_effect() -> None:
    _, loop = execute_plan(unit(speed=6), plan("LOOP 2F"), OPEN, ScriptedDice.of([6] * 4), OPTS)
    assert loop.log[1:] == ("A1 flies the Loop: ends in the hex where it began; uses the "
                            "first 4 points of speed (R-9)",)
    _, split = execute_plan(unit(speed=6, altitude=3), plan("SPLITS 7F"), OPEN,
                            ScriptedDice.of([6] * 2), OPTS)
    assert split.log[1:3] == ("A1 flies the Split-S: loses 2 altitude, facing reversed, "
                              "speed +1 (R-9)", "A1: speed 6 → 7 (Split-S, R-9)")


def test_r9_a_failed_figure_is_logged_and_the_check_says_what_follows() -> None:
    u = unit(speed=6)
    (c,) = validate_plan(u, plan("LOOP F F"), OPEN, OPTS).checks
    assert (c.what, c.step, c.on_fail) == (
        "A1 Loop (R-9)", 0, "moves forward half its speed (3 hexes) instead (R-9)")
    assert c.target.render() == ("5 (Kay piloting: Loop, R-9) + 1 (Loop difficulty, R-9) = 6")
    _, rep = execute_plan(u, plan("LOOP F F"), OPEN, ScriptedDice.of([1, 1]), OPTS)
    assert rep.log == (
        "A1 Loop (R-9): 2d6 1+1 = 2 vs 5 (Kay piloting: Loop, R-9) + 1 (Loop difficulty, "
        "R-9) = 6 → failure (margin -4)",
        "A1: Loop fails: forward half speed, 3 hexes in all (R-9)",
        "A1: the rest of the plan is dropped (2 step(s))")
    assert rep.figure_failed


# ----------------------------------------------------------------


def test_r10_the_landing_check_and_the_landing_lines() -> None:
    """R-10: the check a landing needs and what a failure does; a landing on a
    strip rolls to its end, off a strip as far as its speed (house rule
    open_ground_rollout_by_speed), a miss by 3 or less goes around."""
    on_strip = unit(col=1, row=7, altitude=1, speed=3, straight_run=3)
    landed = validate_plan(on_strip, plan("LAND"), FIELD, OPTS)
    assert (landed.end.straight_run, landed.end.speed, landed.end.altitude) == (0, 0, 0)
    assert [(p.step, p.note) for p in landed.path] == [
        (-1, "start"), (0, "lands (R-10)"), (0, "LAND")]
    (c,) = landed.checks
    assert (c.what, c.step, c.on_fail) == (
        "A1 lands on Home (R-10)", 0,
        "go around if missed by 3 or less, else 10 damage per point missed")
    _, rep = execute_plan(on_strip, plan("LAND"), FIELD, ScriptedDice.of([6, 6]), OPTS)
    assert rep.log[1:] == ("A1: lands and rolls to the end of the strip (R-10)",)
    assert [(p.step, p.note) for p in rep.path] == [
        (-1, "start"), (0, "lands (R-10)"), (0, "LAND")]
    rough = unit(col=0, row=7, altitude=1, speed=3)
    _, rep = execute_plan(rough, plan("LAND"), FIELD, ScriptedDice.of([6, 6]), OPTS)
    assert rep.log[1:] == ("A1: lands on rough ground at speed 3 and rolls out 3 hex(es) "
                           "(R-10; house rule open_ground_rollout_by_speed)",)
    fast = unit(col=1, row=7, altitude=1, speed=4, pilot=Airman("Kay", piloting=7))
    _, rep = execute_plan(fast, plan("LAND"), FIELD, ScriptedDice.of([2, 2]), OPTS)
    assert rep.log[1:] == ("A1: missed by 2: goes around (R-10)",)
    assert [p.note for p in rep.path] == ["start", "LAND"] + ["straight ahead"] * 4
    _, rep = execute_plan(unit(col=1, row=7, altitude=1, speed=7), plan("LAND"), FIELD,
                          ScriptedDice.of([1, 2, 3, 3, 3, 4, 4, 3, 4, 4]), OPTS)
    assert rep.log[1:3] == (
        "A1: missed by 4: crash-lands, 40 points of damage (R-10)",
        "A1: 40 points of damage = 4 hit(s) (10 points per hit, RULES-NOTES C; crash landing "
        "(R-10))")
    assert rep.damage.hull_hits == 4 and rep.wounds == ()
    assert [(p.step, p.note) for p in rep.path] == [
        (-1, "start"), (0, "crash-lands (R-10)"), (0, "LAND")]


def test_r10_an_out_of_control_landing_is_previewed_as_a_crash_landing() -> None:
    """R-10 "Aircraft out of control": an automatic failure, its margin counts
    as 10; the preview says so without a roll (an unconscious pilot, R-5)."""
    out_cold = unit(col=1, row=7, altitude=1, speed=3,
                    pilot=Airman("Kay", piloting=3, wounds=1, conscious=False))
    check = validate_plan(out_cold, plan("LAND"), FIELD, OPTS)
    assert check.legal and check.notes == (
        "out of control: the landing fails, its margin counts as 10 (R-10)",)
    assert [(p.step, p.note) for p in check.path] == [
        (-1, "start"), (0, "crash-lands (R-10)"), (0, "LAND")]


def test_r10_a_taxi_off_the_map_is_refused() -> None:
    """House rule ground_taxi_hexes: the taxi stays on the map."""
    parked = replace(unit(col=1, row=0, altitude=0, speed=0), landed=True)
    assert validate_plan(parked, plan("F"), OPEN, OPTS).errors == (
        "step 1 (F): taxiing would leave the map (house rule ground_taxi_hexes)",)
