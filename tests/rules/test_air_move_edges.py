"""Hex movement at its boundaries (R-3.1…R-3.4, R-9, R-10, S0 §Altitude):
the last thrust point, the last hex, the exact straight run, the speed caps
of a dive, the per-turn steep descent, and what a flight hands back."""

from __future__ import annotations

from dataclasses import replace

from ka_tui.rules.air.aircraft import Echelon
from ka_tui.rules.air.battle_map import BattleMap, parse_map
from ka_tui.rules.air.move_plan import Climb, Descend, Thrust
from ka_tui.rules.air.movement import (
    complete_plan,
    descent_gain,
    execute_plan,
    speed_cap,
    validate_plan,
)
from ka_tui.rules.air.units import Damage
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.core.options import (
    AltitudeModel,
    DescentGain,
    SteepDescentBasis,
    TurnSpeedBasis,
)

from .test_air_move_support import FIGHTER, OPEN, OPTS, at, plan, unit

FLAT_ONCE = replace(OPTS, descent_gain=DescentGain.FLAT_ONCE)
PER_TURN = replace(OPTS, steep_descent_basis=SteepDescentBasis.TURN)


def test_r3_3_a_dive_is_capped_at_the_dive_maximum_or_move_never_above_12() -> None:
    """R-3.3: "up to the maximum speed in a dive"; S0 §Flight card: 12 at most."""
    assert speed_cap(unit(profile=replace(FIGHTER, dive_max=14))) == 12
    assert speed_cap(unit(profile=replace(FIGHTER, dive_max=6))) == 8      # Move 8
    assert speed_cap(unit()) == 10


def test_r3_3_descent_gain_per_two_levels_and_flat_once() -> None:
    """R-3.3 +1 speed per 2 levels (default), or +1 once from 2 levels (house rule)."""
    assert [descent_gain(n, OPTS) for n in range(-1, 7)] == [0, 0, 0, 1, 1, 2, 2, 3]
    assert [descent_gain(n, FLAT_ONCE) for n in range(-1, 7)] == [0, 0, 0, 1, 1, 1, 1, 1]


def test_r3_3_a_dive_never_slows_an_aircraft_already_above_its_cap() -> None:
    """R-3.3: the gain stops at the dive maximum; a faster aircraft keeps its speed."""
    check = validate_plan(unit(speed=11, altitude=4), plan("D2 11F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.end.speed == 11


def test_r3_3_steep_descent_per_turn_checks_once_past_two_levels() -> None:
    """R-3.3 "more than 2 levels at once", read per turn (steep_descent_basis
    turn): the step that takes the turn past 2 levels is checked, later ones not."""
    check = validate_plan(unit(speed=4, altitude=4), plan("D2 F D F D 2F"), OPEN, PER_TURN)
    assert [(c.what, c.step) for c in check.checks] == [("A1 descent of 3 levels (R-3.3)", 2)]
    assert check.checks[0].target.value == 5 + 3
    assert check.terrain_crash is not None    # level 0 is the ground


def test_r3_1_the_last_thrust_point_may_be_spent() -> None:
    check = validate_plan(unit(speed=2), plan("+4 6F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert (check.thrust_used, check.thrust_available) == (4, 4)


def test_r3_3_a_climb_paid_in_speed_may_leave_exactly_the_hexes_flown() -> None:
    check = validate_plan(unit(speed=6), plan("4F C"), OPEN, OPTS)
    assert check.legal, check.reason
    assert (check.end.speed, check.end.altitude, check.hexes_planned) == (4, 3, 4)


def test_r3_1_a_map_without_bounds_is_never_left() -> None:
    """A map of no size (``BattleMap()``) has no edge to note."""
    check = validate_plan(unit(col=3, row=1, speed=3), plan("3F"), BattleMap(), OPTS)
    assert check.legal and check.notes == ()


def test_a_flight_keeps_what_was_so_before_it() -> None:
    """R-3.5 (the afterburner stays on), R-9 (one figure a turn), R-3.2 (out of
    control for the turn), R-1.3 (damage waiting for its phase): a plain flight
    leaves them as they were; a crashed aircraft stays out of the battle."""
    waiting = Damage(1, (("engine", 1),))
    before = unit(speed=3, afterburner_on=True, figure_flown=True, out_of_control=True,
                  pending_damage=waiting)
    end = validate_plan(before, plan("3F"), OPEN, OPTS).end
    assert (end.afterburner_on, end.figure_flown, end.out_of_control, end.moved) == (
        True, True, True, True)
    assert end.pending_damage == waiting
    fresh = validate_plan(unit(speed=3), plan("3F"), OPEN, OPTS).end
    assert (fresh.afterburner_on, fresh.figure_flown, fresh.out_of_control) == (
        False, False, False)
    assert validate_plan(unit(speed=3, crashed=True), plan("3F"), OPEN, OPTS).end.crashed


def test_r10_on_the_ground_it_turns_both_ways_and_taxis_on_one_height() -> None:
    """House rule ground_taxi_hexes (R-10 gives a landed aircraft only the
    take-off): left and right in place, a few hexes ahead on ground of the
    same height -- along a strip on a hill, not off its end."""
    hill = parse_map("\n".join([". . . . ."] * 7) + "\nstrip Hill 1,6 N 6 1 prepared 2")
    parked = replace(unit(col=1, row=3, altitude=2, speed=0), landed=True)
    assert validate_plan(parked, plan("L"), hill, OPTS).end.facing == 5
    assert validate_plan(parked, plan("R"), hill, OPTS).end.facing == 1
    along = validate_plan(parked, plan("F F"), hill, OPTS)
    assert along.legal, along.reason
    assert along.end.hex == at(1, 1) and along.end.landed and along.end.altitude == 2
    edge = replace(parked, hex=at(1, 1))
    assert validate_plan(edge, plan("F"), hill, OPTS).errors == (
        "step 1 (F): taxiing stays on ground of one height (house rule ground_taxi_hexes)",)


def test_r10_a_taxi_of_one_hex_a_move() -> None:
    """House rule ground_taxi_hexes at 1: one hex, and the refusal still offers it."""
    one = replace(OPTS, ground_taxi_hexes=1)
    parked = replace(unit(col=1, row=7, altitude=0, speed=0), landed=True)
    assert validate_plan(parked, plan("F"), OPEN, one).legal
    assert validate_plan(parked, plan("F F"), OPEN, one).errors == (
        "step 2 (F): on the ground it taxis 1 hex(es) a move (house rule ground_taxi_hexes)",)
    assert validate_plan(parked, plan("+1"), OPEN, one).errors == (
        "step 1 (+1): the aircraft is on the ground; take off first (R-10) (or turn and taxi, "
        "house rule ground_taxi_hexes)",)


def test_r9_a_reversing_figure_starts_a_new_straight_run() -> None:
    """R-9 Immelmann "facing reversed": the straight run of R-3.4 starts again."""
    check = validate_plan(unit(speed=6, straight_run=3), plan("IMM 6F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert (check.end.straight_run, check.end.facing, check.end.altitude) == (6, 3, 4)


def test_r3_1_thrust_up_to_move_and_never_past_a_speed_above_it() -> None:
    """S0 §Flight card: Move is the most thrust may give; a dive may have taken
    speed above it, and thrust may then only slow it (R-3.1, R-3.3)."""
    assert validate_plan(unit(speed=7), plan("+1 8F"), OPEN, OPTS).legal
    assert validate_plan(unit(speed=10), plan("-1 9F"), OPEN, OPTS).legal
    assert validate_plan(unit(speed=9), plan("+1 10F"), OPEN, OPTS).errors == (
        "step 1 (+1): thrust +1 would make speed 10, above Move 8 (S0 §Flight card, R-3.1)",)
    assert validate_plan(unit(speed=3), (Thrust(0), *plan("3F")), OPEN, OPTS).thrust_used == 0


def test_r3_2_braking_to_0_stalls_at_the_start_or_the_end() -> None:
    """R-3.1 thrust may take speed to 0; R-3.2 "as soon as speed drops to 0" it stalls."""
    start = validate_plan(unit(speed=1), plan("-1"), OPEN, OPTS)
    assert start.legal, start.reason
    assert (start.end.speed, start.end.altitude, start.hexes_to_fly) == (0, 1, 0)
    assert [c.what for c in start.checks] == ["A1 stall (R-3.2)"]
    end = validate_plan(unit(speed=3), plan("3F -3"), OPEN, OPTS)
    assert end.legal and (end.end.speed, end.end.altitude, end.hexes_to_fly) == (0, 1, 3)


def test_r3_4_turn_band_at_the_start_reads_the_speed_after_start_thrust() -> None:
    """R-3.4 with turn_speed_basis start: the speed "at the start" is the one
    after thrust spent at the start of the movement (R-3.1)."""
    start = replace(OPTS, turn_speed_basis=TurnSpeedBasis.START)
    check = validate_plan(unit(speed=4), plan("-3 F R"), OPEN, start)
    assert check.legal, check.reason
    assert check.end.facing == 1


def test_r3_5_r3_6_engine_boosts_at_their_limits() -> None:
    """R-3.5 overheat +1 a turn of afterburner; R-3.6 the last use, the last
    fuel, up to the altitude limit (none: any level); both boosts add up."""
    assert validate_plan(unit(speed=2, overheat=2), plan("AB 2F"), OPEN, OPTS).end.overheat == 3
    last = validate_plan(unit(speed=2, wm_uses_left=1, fuel=1), plan("WM 2F"), OPEN, OPTS)
    assert last.legal and (last.end.wm_uses_left, last.end.fuel) == (0, 0)
    assert validate_plan(unit(speed=2, altitude=3), plan("WM 2F"), OPEN, OPTS).legal
    free = replace(FIGHTER, wm_altitude_limit=None)
    assert validate_plan(unit(speed=2, altitude=4, profile=free), plan("WM 2F"), OPEN,
                         OPTS).legal
    both = validate_plan(unit(speed=2), plan("AB WM 2F"), OPEN, OPTS)
    assert both.legal and both.thrust_available == 8


def test_r9_figure_effects_on_speed_inversion_and_g() -> None:
    """R-9: the half-roll swaps top and bottom, the barrel roll costs 1 speed,
    the split-S gains 1 but never past the dive maximum; figures count toward
    G (R-4) unless house rule figures_count_toward_gload is off."""
    rolled = validate_plan(unit(speed=6, inverted=True), plan("HALFROLL 6F"), OPEN, OPTS)
    assert rolled.legal and not rolled.end.inverted
    assert validate_plan(unit(speed=6), plan("HALFROLL 6F"), OPEN, OPTS).end.inverted
    assert validate_plan(unit(speed=6), plan("BARREL 5F"), OPEN, OPTS).end.speed == 5
    fast = validate_plan(unit(speed=10, altitude=3), plan("SPLITS 10F"), OPEN, OPTS)
    assert fast.legal and fast.end.speed == 10 and fast.end.altitude == 1
    assert validate_plan(unit(speed=6), plan("LOOP 2F"), OPEN, OPTS).sides_turned == 3
    no_g = replace(OPTS, figures_count_toward_gload=False)
    assert validate_plan(unit(speed=6), plan("LOOP 2F"), OPEN, no_g).sides_turned == 0
    assert validate_plan(unit(speed=6), plan("2F > 3F"), OPEN, OPTS).sides_turned == 1
    assert validate_plan(unit(speed=6), plan("2F > 3F"), OPEN, no_g).sides_turned == 0


def test_r4_no_g_load_after_a_crash_into_the_terrain() -> None:
    """R-6.1 ends the aircraft's flight in the terrain; the G-load of R-4 is not
    rolled then, so the preview does not list it either (a GM typing the
    table's dice is not told to wait for it)."""
    low_g = replace(FIGHTER, g_rating=1)            # the split-S's G 2 is over it
    into_ground = unit(speed=6, altitude=2, profile=low_g)
    check = validate_plan(into_ground, plan("SPLITS"), OPEN, OPTS)
    assert check.terrain_crash is not None
    assert [c.what for c in check.checks] == ["A1 Split-S (R-9)"]
    dice = ScriptedDice.of([6, 6])
    out, rep = execute_plan(into_ground, plan("SPLITS"), OPEN, dice, OPTS)
    assert out.crashed and [r.what for r in rep.rolls] == ["A1 Split-S (R-9)"]
    assert rep.log[-1] == ("A1 hits the terrain at 3,10 (height 0) at speed 6: crash (R-6.1; "
                           "Split-S, R-9)")
    assert dice.exhausted
    above = validate_plan(unit(speed=6, altitude=3, profile=low_g), plan("SPLITS 7F"), OPEN,
                          OPTS)
    assert [(c.what, c.step) for c in above.checks] == [
        ("A1 Split-S (R-9)", 0), ("A1 G-load on the airframe (R-4)", -1)]
    assert above.checks[1].on_fail == "1 airframe hit(s) (R-4)"


def test_r10_a_taxi_is_no_landing_and_a_take_off_leaves_the_ground() -> None:
    """R-10: the report's ``landed`` is a landing this move, not a taxi on the
    ground (house rule ground_taxi_hexes); a take-off on a strip of exactly
    the run needed starts a straight run of that length (R-3.4)."""
    parked = replace(unit(col=1, row=7, altitude=0, speed=0), landed=True)
    out, rep = execute_plan(parked, plan("F"), OPEN, ScriptedDice.of([]), OPTS)
    assert out.landed and out.hex == at(1, 6) and not rep.landed
    strip4 = parse_map("\n".join([". . ."] * 8) + "\nstrip S 1,7 N 4 1 prepared")
    check = validate_plan(parked, plan("TO"), strip4, OPTS)
    assert check.legal, check.reason
    assert (check.end.hex, check.end.straight_run, check.end.speed) == (at(1, 4), 4, 3)


def test_r3_5_an_empty_tank_gives_the_afterburner_no_thrust() -> None:
    """R-3.5 with house rule engine_out_control seed_and: an empty tank is a
    disabled engine, so engaging the afterburner adds no thrust point."""
    check = validate_plan(unit(speed=2, fuel=0), plan("AB 2F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.thrust_available == 0 and check.end.overheat == 1


def test_s0_changes_of_altitude_add_up_to_one_goal() -> None:
    """S0 §Changing altitude (altitude_model s0): a second noted change starts
    from the first one's goal, so the ceiling is read at the goal."""
    s0 = replace(OPTS, altitude_model=AltitudeModel.S0, s0_hexes_per_level=2)
    down = (Descend(1), Descend(1), *plan("6F"))
    check = validate_plan(unit(speed=6, altitude=4), down, OPEN, s0)
    assert check.legal and check.end.altitude == 2 and check.end.altitude_goal is None
    _, rep = execute_plan(unit(speed=6, altitude=4), down, OPEN, ScriptedDice.of([]), s0)
    assert rep.log == ("A1 notes a descent to level 3 (S0 §Changing altitude)",
                       "A1 notes a descent to level 2 (S0 §Changing altitude)",
                       "A1: level 4 → 3 after a move of 2 (S0 §Changing altitude)",
                       "A1: level 3 → 2 after a move of 2 (S0 §Changing altitude)")
    up = (Climb(1), Climb(1), *plan("4F"))
    assert validate_plan(unit(speed=4, altitude=2), up, OPEN, s0).end.altitude == 4
    assert validate_plan(unit(speed=4, altitude=3), up, OPEN, s0).errors == (
        "step 2 (C): ceiling is level 4 (Top); the climb would reach level 5 (S0 §Altitude "
        "explained)",)


def test_r3_3_a_climb_paid_in_thrust_needs_the_thrust_left() -> None:
    assert validate_plan(unit(speed=4), plan("+3 CT 7F"), OPEN, OPTS).errors == (
        "step 2 (CT): climbing 1 level(s) needs 2 thrust, 1 of 4 left (R-3.1)",)


def test_s0_each_level_climbed_into_a_tested_echelon_is_tested() -> None:
    """S0 §Altitude explained: a climb of two levels through two red/grey
    echelons is tested at each."""
    both = replace(FIGHTER, test_echelons=frozenset({Echelon.MOUNTAIN, Echelon.TOP}))
    check = validate_plan(unit(speed=8, altitude=2, profile=both), plan("C2 4F"), OPEN, OPTS)
    assert [(c.what, c.step) for c in check.checks] == [
        ("A1 echelon test at level 3 (Mountain) (S0 §Altitude explained)", 0),
        ("A1 echelon test at level 4 (Top) (S0 §Altitude explained)", 0)]


def test_r3_1_thrust_at_the_end_after_a_hammerhead() -> None:
    """R-9 the hammerhead ends the move; R-3.1 speed may still change at its end."""
    check = validate_plan(unit(speed=2, altitude=3), plan("HAMMER -1"), OPEN, OPTS)
    assert check.legal, check.reason
    assert (check.end.speed, check.end.thrust_at_end_last_turn, check.thrust_used) == (
        1, True, 3)


def test_r3_the_path_gives_each_steps_hex_facing_level_and_speed() -> None:
    """R-3.3 climb paid in speed, R-3.4 a turn in the hex: every point of the path."""
    check = validate_plan(unit(speed=4, altitude=3), plan("C F R F"), OPEN, OPTS)
    assert [(p.step, p.hex.to_offset(), p.facing, p.altitude, p.speed, p.note)
            for p in check.path] == [
        (-1, (3, 10), 0, 3, 4, "start"), (0, (3, 10), 0, 4, 2, "C"),
        (1, (3, 9), 0, 4, 2, "F"), (2, (3, 9), 1, 4, 2, "R"), (3, (4, 9), 1, 4, 2, "F")]


def test_r3_4_two_turns_count_two_sides_for_g() -> None:
    """R-3.4 one side per turn; R-4 counts the sides turned."""
    check = validate_plan(unit(speed=6), plan("2F R 2F L 2F"), OPEN, OPTS)
    assert check.legal and check.sides_turned == 2 and check.end.facing == 0


def test_r3_1_complete_plan_adds_the_missing_hexes_after_start_thrust() -> None:
    """R-3.1: the straight hexes a short plan lacks go after the start thrust
    and before the end thrust; one missing hex is added too."""
    assert complete_plan(unit(speed=2), plan("+1 F"), OPEN, OPTS) == plan("+1 3F")
    assert complete_plan(unit(speed=3), plan("2F"), OPEN, OPTS) == plan("3F")
    assert complete_plan(unit(speed=3), plan("F -1"), OPEN, OPTS) == plan("3F -1")


def test_r9_a_hammerhead_flies_no_hex_of_its_speed() -> None:
    """R-9 the hammerhead "stays in the same hex": the move ends with none flown."""
    check = validate_plan(unit(speed=2, altitude=3), plan("HAMMER"), OPEN, OPTS)
    assert check.legal and (check.hexes_planned, check.hexes_to_fly) == (0, 2)
    assert check.summary().startswith("legal: 0/2 hexes · thrust 2/4 · G 4 · 3 check(s)")


def test_r3_3_descent_gain_is_paid_once_for_the_levels_of_the_whole_turn() -> None:
    """R-3.3 +1 speed per 2 levels lost this turn: each descent adds only what
    the turn's total has not paid yet (2 → +1, 4 → +1 more; 2, 6, 7 → +1, +2, 0)."""
    edge = replace(FIGHTER, ceiling=Echelon.EDGE, test_echelons=frozenset(), dive_max=12)
    twice = validate_plan(unit(speed=6, altitude=6, profile=edge), plan("D2 F D2 7F"), OPEN,
                          OPTS)
    assert twice.legal, twice.reason
    assert (twice.end.speed, twice.end.altitude, twice.hexes_to_fly) == (8, 2, 8)
    tall = replace(OPTS, echelon_of_level={1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3, 7: 4, 8: 4,
                                           9: 5, 10: 6})
    thrice = validate_plan(unit(speed=6, altitude=9, profile=edge), plan("D2 F D4 F D 7F"),
                           OPEN, tall)
    assert thrice.legal, thrice.reason
    assert (thrice.end.speed, thrice.end.altitude, thrice.hexes_to_fly) == (9, 2, 9)


def test_r3_2_an_aircraft_already_at_0_does_not_stall_again() -> None:
    """R-3.2 "as soon as speed drops to 0": at 0 since the turn's start (its
    stall then passed), braking at the end stalls it no second time."""
    check = validate_plan(unit(speed=0, altitude=3), plan("HALFROLL -1"), OPEN, OPTS)
    assert check.legal, check.reason
    assert [c.what for c in check.checks] == ["A1 Half-roll (R-9)"]
    assert (check.end.speed, check.end.altitude) == (0, 3)


def test_s0_notes_are_left_alone_under_the_default_altitude_model() -> None:
    """R-3.3 altitude model (default): a goal noted under S0 §Changing altitude
    (say, before the campaign's house rule changed) is not flown toward."""
    u = unit(speed=3, altitude=2, altitude_goal=3, altitude_progress=2)
    end = validate_plan(u, plan("3F"), OPEN, OPTS).end
    assert (end.altitude, end.altitude_goal, end.altitude_progress) == (2, 3, 2)
