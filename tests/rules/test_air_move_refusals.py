"""Every refusal of a movement plan, word for word, as the GM reads it in the
plan preview (R-1.2, R-3.1…R-3.6, R-9, R-10, S0 §Altitude explained): a table
of aircraft + plan → the exact reason and the kind of problem."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ka_tui.rules.air.aerobatics import FigureKind
from ka_tui.rules.air.battle_map import parse_map
from ka_tui.rules.air.move_plan import (
    Afterburner,
    Climb,
    Descend,
    Figure,
    Forward,
    Plan,
    PlanProblem,
    TakeOff,
    Thrust,
    TurnRight,
    WaterMethanol,
)
from ka_tui.rules.air.movement import validate_plan
from ka_tui.rules.air.units import AirUnit

from .test_air_move_support import BOMBER, FIGHTER, OPEN, OPTS, plan, unit

OOC = {"out_of_control": True}

# (seed rule, aircraft, plan, exact reason)
REFUSALS: list[tuple[str, AirUnit, Plan, str]] = [
    ("R-1.2", unit(speed=3, moved=True), plan("3F"),
     "A1 has already moved this turn (R-1.2)"),
    ("R-1.2", unit(speed=3, crashed=True), plan("3F"), "A1 is out of the battle"),
    ("R-1.2", unit(speed=3, destroyed=True), plan("3F"), "A1 is out of the battle"),
    ("R-3.1", unit(speed=3), plan("2F"), "the plan flies 2 hex(es); speed 3 must fly 3 (R-3.1)"),
    ("R-3.1", unit(speed=3), (Forward(), Thrust(1, "start"), Forward(), Forward()),
     "step 2 (+1): thrust at the start must come before any hex, turn or climb (R-3.1)"),
    ("R-3.1", unit(speed=4, thrust_at_end_last_turn=True), plan("+1 5F"),
     "step 1 (+1): speed changed at the end of last turn: no change at the start of this "
     "one (R-3.1)"),
    ("R-3.1", unit(speed=7), plan("+2 9F"),
     "step 1 (+2): thrust +2 would make speed 9, above Move 8 (S0 §Flight card, R-3.1)"),
    ("R-3.1", unit(speed=1), plan("-2"),
     "step 1 (-2): speed -1 is below the 0 hexes flown already"),
    ("R-3.1", unit(speed=2), plan("+5 7F"), "step 1 (+5): thrust +5 needs 5 thrust, 4 of 4 "
     "left (R-3.1)"),
    ("R-3.1", unit(speed=2), (Forward(), Forward(), Thrust(1, "end"), Forward()),
     "step 4 (F): nothing may follow thrust at the end of movement (R-3.1)"),
    ("R-3.1", unit(speed=3), plan("4F"),
     "step 4 (F): speed 3 allows 3 hexes; this would be hex 4 (R-3.1)"),
    ("R-3.2", unit(speed=3, **OOC), plan("+1 4F"),
     "step 1 (+1): thrust +1: out of control, no thrust points may be used (R-3.2)"),
    ("R-3.2", unit(speed=3, **OOC), plan("2F R F"),
     "step 3 (R): turn: out of control, it must fly straight ahead (R-3.2)"),
    ("R-3.2", unit(speed=3, **OOC), plan("2F L F"),
     "step 3 (L): turn: out of control, it must fly straight ahead (R-3.2)"),
    ("R-3.2", unit(speed=3, **OOC), plan("C F"),
     "step 1 (C): climb: out of control, it must fly straight ahead (R-3.2)"),
    ("R-3.2", unit(speed=3, altitude=3, **OOC), plan("D 3F"),
     "step 1 (D): descend: out of control, it must fly straight ahead (R-3.2)"),
    ("R-3.2", unit(speed=6, **OOC), plan("LOOP 2F"),
     "step 1 (LOOP): Loop: out of control, it must fly straight ahead (R-3.2)"),
    ("R-3.2", unit(speed=3, altitude=1, **OOC), plan("3F LAND"),
     "step 4 (LAND): land: out of control after a failed stall check, it must fly straight "
     "ahead and cannot land (R-3.2)"),
    ("R-3.3", unit(speed=6), (Climb(0), Forward()), "step 1 (C0): climb at least one level"),
    ("R-3.3", unit(speed=6), (Descend(0), Forward()), "step 1 (D0): descend at least one level"),
    ("R-3.3", unit(speed=6), plan("5F C"),
     "step 6 (C): climbing 1 level(s) costs 2 speed; speed 6 with 5 hexes flown allows 0 "
     "(R-3.3)"),
    ("R-3.3", unit(speed=8), plan("5F C2"),
     "step 6 (C2): climbing 2 level(s) costs 4 speed; speed 8 with 5 hexes flown allows 1 "
     "(R-3.3)"),
    ("R-3.3", unit(speed=8, altitude=1), plan("4F C3"),
     "step 5 (C3): climbing 3 level(s) costs 6 speed; speed 8 with 4 hexes flown allows 2 "
     "(R-3.3)"),
    ("R-3.1", unit(speed=6), (Climb(1), Thrust(1, "start"), *plan("5F")),
     "step 2 (+1): thrust at the start must come before any hex, turn or climb (R-3.1)"),
    ("R-3.1", unit(speed=6, altitude=3), (Descend(1), Thrust(1, "start"), *plan("6F")),
     "step 2 (+1): thrust at the start must come before any hex, turn or climb (R-3.1)"),
    ("R-3.1", unit(speed=6, straight_run=2), (TurnRight(), Thrust(1, "start"), *plan("7F")),
     "step 2 (+1): thrust at the start must come before any hex, turn or climb (R-3.1)"),
    ("R-3.3", unit(speed=6, altitude=4), plan("C 4F"),
     "step 1 (C): ceiling is level 4 (Top); the climb would reach level 5 (S0 §Altitude "
     "explained)"),
    ("R-3.4", unit(speed=6), plan("F R 5F"),
     "step 2 (R): turn needs 2 straight hexes at speed 6, flown 1 (R-3.4)"),
    ("R-3.5", unit(speed=2), (Afterburner(), Afterburner(), Forward(), Forward()),
     "step 2 (AB): afterburner already engaged"),
    ("R-3.5", unit(speed=3), plan("+1 AB 4F"),
     "step 2 (AB): afterburner and water-methanol are engaged before thrust is spent or the "
     "aircraft moves"),
    ("R-3.6", unit(speed=2, profile=replace(FIGHTER, wm_thrust=None)), plan("WM 2F"),
     "step 1 (WM): this aircraft has no water-methanol injection (R-3.6)"),
    ("R-3.6", unit(speed=2), (WaterMethanol(), WaterMethanol(), Forward(), Forward()),
     "step 2 (WM): water-methanol already injected this turn"),
    ("R-3.6", unit(speed=2, wm_uses_left=0), plan("WM 2F"),
     "step 1 (WM): water-methanol used up (R-3.6)"),
    ("R-3.6", unit(speed=2, altitude=4), plan("WM 2F"),
     "step 1 (WM): water-methanol works up to level 3, aircraft at 4 (R-3.6)"),
    ("R-3.6", unit(speed=2, fuel=0), plan("WM 2F"),
     "step 1 (WM): water-methanol needs 1 fuel, 0 left (R-3.6)"),
    ("R-9", unit(speed=6), plan("HALFROLL BARREL 6F"),
     "step 2 (BARREL): Barrel roll: only one figure per turn (R-9)"),
    ("R-9", unit(speed=6, figure_flown=True), plan("HALFROLL 6F"),
     "step 1 (HALFROLL): Half-roll: only one figure per turn (R-9)"),
    ("R-9", unit(speed=6), plan("F HALFROLL 5F"),
     "step 2 (HALFROLL): Half-roll: figures only at the start of the movement (R-9)"),
    ("R-9", unit(speed=6, altitude=3), plan("IMM 6F"),
     "step 1 (IMM): Immelmann would reach level 5, above the ceiling 4 (S0 §Altitude "
     "explained)"),
    ("R-9", unit(speed=6, profile=BOMBER), plan("LOOP 2F"),
     "step 1 (LOOP): Loop: a bomber may not fly aerobatic figures (R-9: no larger than an "
     "attack aircraft)"),
    ("R-9", unit(speed=6, profile=BOMBER), plan("F > 5F"),
     "step 2 (>): Slide-slip: a bomber may not fly aerobatic figures (R-9: no larger than an "
     "attack aircraft)"),
    ("R-9", unit(speed=4, altitude=3), plan("HAMMER F"), "step 2 (F): the move has already ended"),
    ("R-9", unit(speed=6), plan("+1 LOOP 3F"),
     "step 2 (LOOP): Loop needs 4 thrust, 3 of 4 left (R-3.1)"),
    ("R-9", unit(speed=6), (Figure(FigureKind.HALF_ROLL), Thrust(1, "start"), *plan("7F")),
     "step 2 (+1): thrust at the start must come before any hex, turn or climb (R-3.1)"),
    ("R-10", unit(speed=3, altitude=1), plan("LAND F"), "step 2 (F): the move has already ended"),
    ("R-10", unit(speed=3, altitude=1), plan("LAND -1"),
     "step 2 (-1): the move has already ended"),
    ("R-10", unit(speed=3, altitude=2), plan("3F LAND"),
     "step 4 (LAND): to land, fly one level above the surface (level 1); the aircraft is at "
     "level 2 (R-10)"),
]


@pytest.mark.parametrize(("rule", "aircraft", "steps", "reason"), REFUSALS,
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(REFUSALS)])
def test_a_refused_plan_says_exactly_why(rule: str, aircraft: AirUnit, steps: Plan,
                                        reason: str) -> None:
    check = validate_plan(aircraft, steps, OPEN, OPTS)
    assert not check.legal
    assert check.errors == (reason,)
    assert check.summary() == f"illegal: {reason}"


def test_the_kind_of_problem_lets_the_screens_fill_a_short_plan() -> None:
    """R-3.1 (fly the whole speed): a short plan is SHORT, a refused step STEP,
    an aircraft that may not move (R-1.2) CANNOT_MOVE; a legal plan has none."""
    assert validate_plan(unit(speed=3), plan("2F"), OPEN, OPTS).problem is PlanProblem.SHORT
    assert validate_plan(unit(speed=3), plan("4F"), OPEN, OPTS).problem is PlanProblem.STEP
    assert validate_plan(unit(speed=3, moved=True), plan("3F"), OPEN,
                         OPTS).problem is PlanProblem.CANNOT_MOVE
    assert validate_plan(unit(speed=3, crashed=True), plan("3F"), OPEN,
                         OPTS).problem is PlanProblem.CANNOT_MOVE
    assert validate_plan(unit(speed=3), plan("3F"), OPEN, OPTS).problem is None


def test_r10_take_off_needs_the_strips_length_ahead() -> None:
    """R-10 take-off run: a fighter needs 4 hexes of strip ahead."""
    short_strip = parse_map("\n".join([". . . . ."] * 7) + "\nstrip Short 1,6 N 3 1 prepared")
    grounded = replace(unit(col=1, row=6, altitude=0, speed=0), landed=True)
    check = validate_plan(grounded, (TakeOff(),), short_strip, OPTS)
    assert check.errors == ("step 1 (TO): take-off needs 4 hexes of strip ahead, 3 here (R-10)",)


def test_r9_a_figure_step_is_never_the_slide_slip() -> None:
    """R-9: the slide-slip is flown "at any point" as its own step; as a
    start-of-move figure it is refused (not an error of the program)."""
    check = validate_plan(unit(speed=6), (Figure(FigureKind.SLIDE_SLIP), Forward()), OPEN, OPTS)
    assert check.errors == ("step 1 (slide_slip): the slide-slip is a SlideSlip step, not a "
                            "Figure",)
    assert check.problem is PlanProblem.STEP
