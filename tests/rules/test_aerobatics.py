"""Aerobatic figures (R-9): table, who may fly them, when, effects, failure."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ka_tui.rules.air.aerobatics import FIGURES, FigureKind, figure_refusal, half_speed_fallback
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.air.hexgrid import opposite
from ka_tui.rules.air.movement import execute_plan, validate_plan
from tests.rules.test_air_move_support import BOMBER, FIGHTER, OPEN, OPTS, at, plan, unit


def test_r9_figure_table_matches_the_seed() -> None:
    """R-9 table: min speed, thrust, difficulty, G-rating for all seven figures."""
    rows = {k: (s.min_speed, s.thrust, s.difficulty, s.g_rating) for k, s in FIGURES.items()}
    assert rows == {
        FigureKind.LOOP: (4, 4, 1, 3),
        FigureKind.IMMELMANN: (2, 4, 1, 2),
        FigureKind.SPLIT_S: (0, 2, 2, 2),
        FigureKind.HAMMERHEAD: (0, None, 3, 4),
        FigureKind.HALF_ROLL: (0, 1, -1, 0),
        FigureKind.BARREL_ROLL: (1, 1, 0, 0),
        FigureKind.SLIDE_SLIP: (0, 1, 0, 1),
    }
    assert FIGURES[FigureKind.HAMMERHEAD].thrust_cost(5) == 5


def test_r9_loop_ends_in_the_same_hex_using_four_speed() -> None:
    u = unit(speed=6)
    check = validate_plan(u, plan("LOOP 2F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.end.hex == at(3, 8) and check.end.facing == 0
    assert check.thrust_used == 4 and check.sides_turned == 3
    (c,) = check.checks
    assert c.target.value == 6 and "Loop difficulty" in c.target.render()
    assert not validate_plan(u, plan("LOOP 3F"), OPEN, OPTS).legal


def test_r9_loop_needs_speed_4() -> None:
    check = validate_plan(unit(speed=3), plan("LOOP"), OPEN, OPTS)
    assert not check.legal and check.reason.endswith("Loop needs speed 4, speed is 3 (R-9)")


def test_r9_immelmann_gains_two_levels_and_reverses() -> None:
    check = validate_plan(unit(speed=4, altitude=1, facing=1), plan("IMM 4F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.end.altitude == 3 and check.end.facing == opposite(1)
    assert check.path[1].hex == at(3, 10)


def test_r9_split_s_loses_two_levels_speed_plus_one() -> None:
    check = validate_plan(unit(speed=4, altitude=3), plan("SPLITS 5F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert (check.end.altitude, check.end.speed, check.end.facing) == (1, 5, 3)
    assert check.thrust_used == 2
    assert check.checks[0].target.value == 7


def test_r9_hammerhead_costs_thrust_equal_to_speed_and_stays() -> None:
    check = validate_plan(unit(speed=4), plan("HAMMER"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.end.hex == at(3, 10) and check.end.facing == 3 and check.thrust_used == 4
    assert "needs 6 thrust" in validate_plan(unit(speed=6), plan("HAMMER"), OPEN, OPTS).reason
    assert validate_plan(unit(speed=6), plan("AB HAMMER"), OPEN, OPTS).legal
    assert "already ended" in validate_plan(unit(speed=4), plan("HAMMER F"), OPEN, OPTS).reason


def test_r9_half_roll_swaps_sides_easier() -> None:
    check = validate_plan(unit(speed=2), plan("HALFROLL 2F"), OPEN, OPTS)
    assert check.legal and check.end.inverted
    assert check.checks[0].target.value == 4   # difficulty −1


def test_r9_barrel_roll_speed_minus_one() -> None:
    check = validate_plan(unit(speed=3), plan("BARREL 2F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.end.speed == 2 and check.end.facing == 0 and check.sides_turned == 0


def test_r9_slide_slip_front_right_facing_unchanged_any_point() -> None:
    check = validate_plan(unit(speed=3, col=3, row=10), plan("F > <"), OPEN, OPTS)
    assert check.legal, check.reason
    one = at(3, 9)
    assert check.end.hex == one.front_right(0).front_left(0)
    assert check.end.facing == 0 and check.thrust_used == 2 and check.sides_turned == 2
    assert len(check.checks) == 2


def test_r9_slide_slip_does_not_count_as_straight() -> None:
    """House reading: a slide-slip neither adds to nor breaks the straight run (R-3.4)."""
    check = validate_plan(unit(speed=6), plan("F > F R 3F"), OPEN, OPTS)
    assert check.legal, check.reason
    assert "flown 1" in validate_plan(unit(speed=6), plan("F > R 4F"), OPEN, OPTS).reason


def test_r9_one_figure_per_turn() -> None:
    assert "one figure per turn" in validate_plan(
        unit(speed=6), plan("HALFROLL BARREL 5F"), OPEN, OPTS).reason
    flown = unit(speed=6, figure_flown=True)
    assert "one figure per turn" in validate_plan(flown, plan("BARREL 5F"), OPEN, OPTS).reason


def test_r9_figures_only_at_the_start() -> None:
    check = validate_plan(unit(speed=6), plan("F BARREL 4F"), OPEN, OPTS)
    assert not check.legal and "only at the start" in check.reason
    assert validate_plan(unit(speed=6), plan("+1 BARREL 6F"), OPEN, OPTS).legal


def test_r9_no_figures_for_bombers() -> None:
    u = unit(speed=3, profile=BOMBER)
    assert "no larger than an attack aircraft" in validate_plan(u, plan("BARREL 2F"), OPEN,
                                                                OPTS).reason
    assert "no larger than an attack aircraft" in validate_plan(u, plan("> 2F"), OPEN,
                                                                OPTS).reason


def test_s0_loop_box_needed_for_loop() -> None:
    """S0 §Flight card: Loop and Roll boxes say which figures are possible."""
    p = replace(FIGHTER, loop=False, roll=False)
    assert figure_refusal(p, FigureKind.LOOP, 6) is not None
    assert figure_refusal(p, FigureKind.HALF_ROLL, 6) is not None
    assert figure_refusal(p, FigureKind.IMMELMANN, 6) is None


def test_r9_failed_figure_moves_forward_half_speed() -> None:
    u = unit(speed=7)
    out, rep = execute_plan(u, plan("LOOP 3F"), OPEN, ScriptedDice.of([1, 1]), OPTS)
    assert rep.figure_failed and out.hex == at(3, 7) and out.facing == 0
    assert out.speed == 7 and out.figure_flown


@pytest.mark.parametrize("speed,half", [(0, 0), (1, 0), (5, 2), (6, 3), (12, 6)])
def test_r9_half_speed_rounds_down(speed: int, half: int) -> None:
    assert half_speed_fallback(speed) == half


def test_r9_failed_slide_slip_mid_move() -> None:
    """A slide-slip failed after 2 hexes at speed 6: 3 hexes in all, straight."""
    out, rep = execute_plan(unit(speed=6), plan("2F > 3F"), OPEN, ScriptedDice.of([1, 1]), OPTS)
    assert rep.figure_failed and out.hex == at(3, 7)


def test_r9_figure_failed_after_more_than_half_stops_there() -> None:
    out, _ = execute_plan(unit(speed=4), plan("3F >"), OPEN, ScriptedDice.of([1, 1]), OPTS)
    assert out.hex == at(3, 7)
