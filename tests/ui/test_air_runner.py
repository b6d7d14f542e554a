"""The air screen's turn runner (screens/air/runner.py) on plain rules values:
what ``g`` would do in each phase (R-1), plans built step by step (R-3.1
thrust at the start or the end), and the R-6 collision checks along a path
shown before anything is rolled."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ka_tui.rules.air import turn as t
from ka_tui.rules.air.battle import Battle
from ka_tui.rules.air.battle_map import BattleMap
from ka_tui.rules.air.move_plan import Forward, Thrust
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.core.options import AirOptions
from ka_tui.screens.air.runner import Refused, Runner
from tests.rules.air_combat_fixtures import unit


def moving(*units: object) -> Runner:
    bt = Battle.start(units, BattleMap(20, 20), AirOptions())  # type: ignore[arg-type]
    bt.state = t.BattleState(bt.state.units, 1, t.Phase.MOVEMENT, ("blue", "red"), 0)
    return Runner(bt)


def test_r6_collision_checks_along_the_path_before_rolling() -> None:
    """R-6: passing through the hex of an out-of-control aircraft at the same
    level needs a collision roll; the preview names it with its odds."""
    a = unit("a", "blue", q=5, r=10, speed=9, altitude=3)
    b = replace(unit("b", "red", q=5, r=7, speed=9, altitude=3), out_of_control=True)
    r = moving(a, b)
    r.plans["a"] = (Forward(),) * 9
    check = r.check("a")
    assert check is not None and check.legal
    assert r.collision_lines("a", check) == [
        "- R-6 collision check at 5,9 level 3: 11 (collision, R-6) = 8%"]


def test_r3_2_the_preview_says_a_plan_ending_slow_stalls_next_turn() -> None:
    """R-3.2: a plan that ends at speed 5 or less stalls at the next turn's
    start (speed −5 before thrust); at the lowest level that is a crash
    (R-6.1). Said with the plan, before it is flown."""
    r = moving(unit("a", "blue", speed=2, altitude=1), unit("b", "red", q=9))
    r.plans["a"] = (Forward(),) * 2
    check = r.check("a")
    assert check is not None and check.legal
    assert r.next_turn_lines(check) == [
        "! stalls as the next turn starts (R-3.2: speed 2 − 5 → 0): a piloting check, "
        "level 1 → 0, the terrain: a crash (R-6.1)"]
    fast = moving(unit("a", "blue", speed=7, altitude=3), unit("b", "red", q=9))
    fast.plans["a"] = (Forward(),) * 7
    check = fast.check("a")
    assert check is not None and check.legal and fast.next_turn_lines(check) == []


def test_r3_1_thrust_keys_go_to_the_start_or_the_end() -> None:
    """R-3.1: thrust before any hex is spent at the start, after one at the end;
    presses add up."""
    r = moving(unit("a", "blue", speed=4), unit("b", "red", q=9))
    r.add_step("a", Thrust(1))
    r.add_step("a", Thrust(1))
    r.add_step("a", Forward())
    r.add_step("a", Thrust(-1))
    assert r.plan("a") == (Thrust(2, "start"), Forward(), Thrust(-1, "end"))
    assert r.plan_text("a") == "+2 F -1"


def test_r1_2_pending_step_refuses_with_the_reason() -> None:
    """R-1.2: only the side whose turn it is acts; a short plan is refused with
    the engine's reason; the whole side moved: the next step ends the movement."""
    r = moving(unit("a", "blue", speed=2), unit("b", "red", q=9))
    with pytest.raises(Refused, match="Blue|blue moves"):
        r.pending("b")
    r.plans["a"] = (Forward(),)
    with pytest.raises(Refused, match="must fly 2"):
        r.pending("a")
    r.fill("a")
    step = r.pending("a")
    assert step.kind == "move_committed" and step.data["plan"] == [{"step": "Forward"}] * 2
    r.do(step, ScriptedDice.of([]))
    assert r.pending(None).data == {"phase": "movement"}


def test_r8_evasive_check_is_in_the_plan_preview() -> None:
    """R-8: flying evasive adds its piloting check to the preview's checks,
    with its target, before anything is rolled."""
    r = moving(unit("a", "blue", speed=2), unit("b", "red", q=9))
    r.plans["a"] = (Forward(), Forward())
    plain = r.check("a")
    assert plain is not None and plain.legal
    assert not any("evasive" in c.what for c in plain.checks)
    r.evasive.add("a")
    check = r.check("a")
    assert check is not None
    assert [c.what for c in check.checks][-1] == "a evasive manoeuvre (R-8)"
    assert check.checks[-1].target.probability() > 0


def test_a_stacked_hex_offers_the_target_at_the_shooters_level_first() -> None:
    """S0 §Altitude and combat (shots only at the same altitude): two of the
    other side share a hex at levels 2 and 3; the level-3 shooter gets the
    level-3 one first, the other next (the , key cycles them)."""
    beau = unit("beau", "red", q=5, r=6, facing=0, altitude=3, speed=4, moved=True)
    temp = unit("temp", "blue", q=5, r=4, facing=0, altitude=2, speed=4, moved=True)
    spit = unit("spit", "blue", q=5, r=4, facing=0, altitude=3, speed=4, moved=True)
    bt = Battle.start((beau, temp, spit), BattleMap(20, 20), AirOptions())
    bt.state = t.BattleState(bt.state.units, 1, t.Phase.SHOOTING, ("red", "blue"), 0)
    r = Runner(bt)
    assert r.stack_targets("beau", temp.hex) == ["spit", "temp"]
    assert r.stack_targets("temp", temp.hex) == []
