"""Errors code reads by field, never by text: ``DiceError`` carries
``reason`` / ``sides`` / ``face`` (RULES-NOTES 3: the table's physical dice
typed in); ``PlanCheck.problem`` says a plan only flies short of its speed
(R-3.1), which ``complete_plan`` fills."""

from __future__ import annotations

import dataclasses

import pytest

from ka_tui.rules.air.move_plan import PlanProblem
from ka_tui.rules.air.movement import validate_plan
from ka_tui.rules.core.dice import DiceError, DiceFault, ScriptedDice
from ka_tui.rules.core.options import AirOptions

from .air_combat_fixtures import unit
from .test_air_move_support import OPEN, plan


def test_rules_notes_3_scripted_dice_say_why_by_field() -> None:
    dice = ScriptedDice.of([7])
    with pytest.raises(DiceError) as err:
        dice.roll(6)
    assert (err.value.reason, err.value.sides, err.value.face) == (DiceFault.BAD_FACE, 6, 7)
    with pytest.raises(DiceError) as err:
        dice.roll(12)
    assert (err.value.reason, err.value.sides, err.value.face) == (DiceFault.EXHAUSTED, 12, None)
    assert str(err.value) == "no scripted face left for a d12"


def test_r3_1_a_short_plan_is_named_by_its_problem() -> None:
    u = unit("A", speed=6)
    short = validate_plan(u, plan("4F"), OPEN, AirOptions())
    assert not short.legal and short.problem is PlanProblem.SHORT
    assert validate_plan(u, plan("6F"), OPEN, AirOptions()).problem is None
    moved = validate_plan(dataclasses.replace(u, moved=True), plan("6F"), OPEN, AirOptions())
    assert moved.problem is PlanProblem.CANNOT_MOVE
    step = validate_plan(u, plan("+9 6F"), OPEN, AirOptions())
    assert not step.legal and step.problem is PlanProblem.STEP
