"""Movement as the GM and the player read it (R-3, R-9, R-10, S0 §Altitude):
the path's points, the log lines, every refusal's words and the checks a
plan needs, for take-off, the slide-slip, the engine boosts, the echelon test,
the straight flight after a failure and the S0 altitude model."""

from __future__ import annotations

from dataclasses import replace

from ka_tui.rules.air.aircraft import Echelon
from ka_tui.rules.air.battle_map import parse_map
from ka_tui.rules.air.move_plan import TakeOff
from ka_tui.rules.air.movement import execute_plan, preview_start, validate_plan
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.core.options import AltitudeModel

from .test_air_move_support import FIGHTER, OPEN, OPTS, plan, unit

HILL = parse_map("\n".join([". . . . ."] * 7) + "\nstrip Hill 1,6 N 6 1 prepared 2")
MOUNTAIN_TEST = replace(FIGHTER, test_echelons=frozenset({Echelon.MOUNTAIN}),
                        ceiling=Echelon.TOP)


def test_r10_a_take_off_from_a_strip_on_a_hill_climbs_one_level_above_it() -> None:
    """R-10 take-off run (4 for a fighter) along the strip at height 2: the
    aircraft leaves at level 3, at its landing speed (takeoff_at_landing_speed)."""
    u = replace(unit(col=1, row=6, altitude=2, speed=0), landed=True)
    check = validate_plan(u, (TakeOff(),), HILL, OPTS)
    assert check.legal
    assert [(p.note, p.step) for p in check.path] == [
        ("start", -1), ("take-off run", 0), ("take-off run", 0), ("take-off run", 0), ("TO", 0)]
    assert (check.end.altitude, check.end.speed, check.end.landed) == (3, 3, False)
    out, rep = execute_plan(u, (TakeOff(),), HILL, ScriptedDice.of([]), OPTS)
    assert rep.log == ("A1 takes off after 4 hexes, level 3, speed 3 (R-10)",)
    assert out.altitude == 3 and not out.landed


def test_r10_take_off_refusals_say_why() -> None:
    flying = unit(col=1, row=6)
    assert validate_plan(flying, (TakeOff(),), HILL, OPTS).reason == \
        "step 1 (TO): take-off: the aircraft is not on the ground (R-10)"
    grounded = replace(unit(col=1, row=6, altitude=2, speed=0), landed=True)
    assert validate_plan(replace(grounded, out_of_control=True), (TakeOff(),), HILL,
                         OPTS).reason == ("step 1 (TO): take off: out of control, it must "
                                          "fly straight ahead (R-3.2)")
    assert validate_plan(grounded, plan("F"), HILL, OPTS).reason == \
        "step 1 (F): Forward: the aircraft is on the ground; take off first (R-10)"


def test_r9_slide_slip_moves_front_left_or_right_and_keeps_no_straight_run() -> None:
    """R-9 slide-slip: "moves into the front-right or front-left hex, facing
    unchanged", 1 thrust; it is no straight hex for R-3.4."""
    u = unit(speed=3)
    left = validate_plan(u, plan("F < F"), OPEN, OPTS)
    here = u.hex.ahead(0)
    assert [p.hex for p in left.path] == [u.hex, here, here.front_left(0),
                                          here.front_left(0).ahead(0)]
    assert left.end.straight_run == 2 and left.thrust_used == 1 and left.end.facing == 0
    right = validate_plan(u, plan("F > F"), OPEN, OPTS)
    assert right.path[2].hex == here.front_right(0)
    out, rep = execute_plan(u, plan("F < F"), OPEN, ScriptedDice.of([6, 6]), OPTS)
    assert "A1 slide-slips left (R-9)" in rep.log and out.hex == left.end.hex
    assert validate_plan(u, plan("F F F >"), OPEN, OPTS).reason == \
        "step 4 (>): speed 3 allows 3 hexes; the slide-slip would be hex 4 (R-3.1)"
    assert validate_plan(replace(u, out_of_control=True), plan("< F F"), OPEN, OPTS).reason \
        == "step 1 (<): Slide-slip: out of control, it must fly straight ahead (R-3.2)"
    broke = validate_plan(replace(u, profile=replace(FIGHTER, thrust=0)), plan("F < F"), OPEN,
                          OPTS)
    assert broke.reason == "step 2 (<): Slide-slip needs 1 thrust, 0 of 0 left (R-3.1)"


def test_r3_5_engine_boost_refusals_say_why() -> None:
    u = unit(speed=3)
    assert validate_plan(u, plan("F AB F F"), OPEN, OPTS).reason == (
        "step 2 (AB): afterburner and water-methanol are engaged before thrust is spent or "
        "the aircraft moves")
    assert validate_plan(replace(u, out_of_control=True), plan("AB F F F"), OPEN,
                         OPTS).reason == ("step 1 (AB): engine boost: out of control, it must "
                                          "fly straight ahead (R-3.2)")
    plain = replace(u, profile=replace(FIGHTER, afterburner_thrust=None))
    assert validate_plan(plain, plan("AB F F F"), OPEN, OPTS).reason == \
        "step 1 (AB): this aircraft has no afterburner (R-3.5)"


def test_s0_the_echelon_test_on_climbing_in_and_at_the_start_of_a_turn() -> None:
    """S0 §Altitude explained: a red/grey echelon "requires additional test"
    (house rules echelon_test_penalty, echelon_test_every_turn)."""
    o = replace(OPTS, echelon_test_penalty=2, echelon_test_every_turn=True)
    climb = validate_plan(unit(altitude=2, speed=6, profile=MOUNTAIN_TEST), plan("C F F F F"),
                          OPEN, o)
    (c,) = climb.checks
    assert (c.what, c.step, c.on_fail) == (
        "A1 echelon test at level 3 (Mountain) (S0 §Altitude explained)", 0,
        "cannot hold it: drops back one level")
    assert c.target.render() == (
        "5 (Kay piloting: echelon test, S0 §Altitude explained) + 2 (flying at level 3 "
        "(Mountain), S0 §Altitude explained, house rule echelon_test_penalty) = 7")
    start = preview_start(unit(altitude=3, speed=8, profile=MOUNTAIN_TEST), o)
    (s,) = start.checks
    assert (s.what, s.step, s.on_fail) == ("A1 echelon test (S0 §Altitude explained)", -1,
                                           "drops one level")
    assert s.target == c.target
    assert preview_start(unit(altitude=3, speed=8, profile=MOUNTAIN_TEST), OPTS).checks == ()


def test_r3_2_the_stall_check_a_turn_will_start_with() -> None:
    start = preview_start(unit(altitude=3, speed=5), OPTS)
    (s,) = start.checks
    assert (s.what, s.step) == ("A1 stall (R-3.2)", -1)
    assert s.on_fail == ("out of control: no thrust, turn, climb or landing, straight ahead; "
                         "missed by more than 5: a random facing change (R-3.2)")
    assert start.stalls and start.speed_after == 0


def test_r9_after_a_failed_figure_the_rest_is_flown_straight_ahead() -> None:
    """R-9: "the aircraft moves forward half its current speed": the hexes
    left are flown straight ahead (path points of no plan step)."""
    out, rep = execute_plan(unit(speed=6), plan("LOOP F F"), OPEN, ScriptedDice.of([1, 1]), OPTS)
    assert [(p.note, p.step) for p in rep.path] == [
        ("start", -1), ("LOOP", 0), ("straight ahead", -1), ("straight ahead", -1),
        ("straight ahead", -1)]
    assert out.straight_run == 3 and out.hex == unit().hex.ahead(0).ahead(0).ahead(0)
    assert rep.log[-1] == "A1: the rest of the plan is dropped (2 step(s))"


def test_s0_altitude_model_a_descent_needs_no_echelon_test_and_logs_each_level() -> None:
    """S0 §Changing altitude (altitude_model s0): one level per move of
    s0_hexes_per_level; only climbing into a tested echelon is tested."""
    s0 = replace(OPTS, altitude_model=AltitudeModel.S0, s0_hexes_per_level=2,
                 echelon_test_penalty=2)
    u = unit(altitude=4, speed=6, profile=MOUNTAIN_TEST)
    assert validate_plan(u, plan("D 6F"), OPEN, s0).checks == ()
    out, rep = execute_plan(u, plan("D 6F"), OPEN, ScriptedDice.of([]), s0)
    assert rep.log == ("A1 notes a descent to level 3 (S0 §Changing altitude)",
                       "A1: level 4 → 3 after a move of 2 (S0 §Changing altitude)")
    assert out.altitude == 3
