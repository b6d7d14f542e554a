"""R-5 wounds and consciousness; R-1.4 recovery in the end phase."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ka_tui.rules.air.check_roll import roll_check
from ka_tui.rules.air.units import Airman, AirUnit
from ka_tui.rules.air.aircraft import AircraftProfile
from ka_tui.rules.core.dice import DiceError, RandomDice, ScriptedDice
from ka_tui.rules.core.target import Finalizer, TargetNumber
from ka_tui.rules.air.wounds import (
    consciousness_target,
    in_control,
    pilot_in_control,
    recovery_roll,
    take_wound,
    take_wounds,
)
from tests.rules.hypothesis_counts import scaled


@pytest.mark.parametrize("wounds,needed", [(1, 3), (2, 5), (3, 7), (4, 10), (5, 11)])
def test_r5_table_number_needed(wounds: int, needed: int) -> None:
    t = consciousness_target(wounds)
    assert t.value == needed and t.finalizer is Finalizer.NONE
    assert "R-5" in t.render()


def test_r5_six_wounds_is_dead_and_unrollable() -> None:
    assert consciousness_target(6).finalizer is Finalizer.IMPOSSIBLE


def test_r5_roll_equal_to_number_stays_conscious() -> None:
    # 2 wounds already, third wound: need 7; 3+4 = 7 holds (R-2 "equal or greater").
    a, res = take_wound(Airman("Kay", wounds=2), ScriptedDice.of([3, 4]))
    assert a.wounds == 3 and a.conscious and res.check is not None and res.check.success
    assert res.check.faces == (3, 4)
    assert any("7 (3 wounds carried, R-5)" in line for line in res.log)


def test_r5_roll_below_number_loses_consciousness() -> None:
    a, res = take_wound(Airman("Kay", wounds=2), ScriptedDice.of([3, 3]))
    assert a.wounds == 3 and not a.conscious and res.knocked_out
    assert any("out of control" in line for line in res.log)


def test_r5_first_wound_needs_three() -> None:
    a, res = take_wound(Airman("Kay"), ScriptedDice.of([1, 1]))
    assert a.wounds == 1 and not a.conscious
    a2, _ = take_wound(Airman("Kay"), ScriptedDice.of([1, 2]))
    assert a2.conscious


def test_r5_sixth_wound_kills_without_a_roll() -> None:
    dice = ScriptedDice.of([])
    a, res = take_wound(Airman("Kay", wounds=5), dice)
    assert a.dead and a.wounds == 6 and not a.conscious and res.dead and res.check is None


def test_r5_wounds_never_above_six() -> None:
    a, results = take_wounds(Airman("Kay", wounds=4), 5, ScriptedDice.of([6, 6]))
    assert a.wounds == 6 and a.dead
    assert [r.wounds_after for r in results] == [5, 6, 6, 6, 6]


def test_r5_unconscious_airman_takes_wound_without_roll() -> None:
    a, res = take_wound(Airman("Kay", wounds=1, conscious=False), ScriptedDice.of([]))
    assert a.wounds == 2 and not a.conscious and res.check is None


def test_r5_recovery_uses_same_table() -> None:
    out = Airman("Kay", wounds=4, conscious=False)
    a, res = recovery_roll(out, ScriptedDice.of([4, 5]))
    assert not a.conscious and res.check is not None and res.check.target.value == 10
    a, res = recovery_roll(out, ScriptedDice.of([5, 5]))
    assert a.conscious and res.came_round


def test_r5_no_recovery_roll_for_conscious_or_dead() -> None:
    for airman in (Airman("A"), Airman("B", wounds=6, conscious=False)):
        a, res = recovery_roll(airman, ScriptedDice.of([]))
        assert a == airman and res.check is None


def test_r5_unconscious_pilot_puts_unit_out_of_control() -> None:
    unit = AirUnit("u1", "blue", AircraftProfile("Test"), Airman("Kay", conscious=False))
    assert not pilot_in_control(unit) and not in_control(unit)


def test_r2_roll_check_consumes_no_dice_when_finalized() -> None:
    t = TargetNumber(5, "piloting", "R-2").finalized(Finalizer.AUTO_FAIL, "test")
    c = roll_check("x", t, ScriptedDice.of([]))
    assert not c.success and not c.rolled and "no roll" in c.render()


def test_r2_roll_check_refuses_bad_faces() -> None:
    with pytest.raises(DiceError):
        roll_check("x", TargetNumber(5, "p", "R-2"), ScriptedDice.of([7, 1]))


@settings(max_examples=scaled(200), deadline=None)
@given(start=st.integers(0, 6), count=st.integers(0, 8), seed=st.integers(0, 10_000))
def test_r5_invariant_wounds_stay_in_0_to_6(start: int, count: int, seed: int) -> None:
    a, results = take_wounds(Airman("Kay").with_wounds(start), count, RandomDice(seed))
    assert 0 <= a.wounds <= 6
    assert a.dead == (a.wounds == 6)
    if a.dead:
        assert not a.conscious
    for r in results:
        assert 0 <= r.wounds_after <= 6 and r.wounds_after >= r.wounds_before
