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
