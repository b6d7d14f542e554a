"""Hex movement at its boundaries (R-3.1…R-3.4, R-9, R-10, S0 §Altitude):
the last thrust point, the last hex, the exact straight run, the speed caps
of a dive, the per-turn steep descent, and what a flight hands back."""

from __future__ import annotations

from dataclasses import replace

from ka_tui.rules.air.battle_map import BattleMap
from ka_tui.rules.air.movement import descent_gain, speed_cap, validate_plan
from ka_tui.rules.core.options import DescentGain, SteepDescentBasis

from .test_air_move_support import FIGHTER, OPEN, OPTS, plan, unit

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
    from ka_tui.rules.air.units import Damage
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
    from ka_tui.rules.air.battle_map import parse_map
    from .test_air_move_support import at
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
