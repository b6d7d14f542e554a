"""The suggestion keys' work on the turn runner, headless
(screens/air/suggesting.py): fill one plan or the side's, skip the
aircraft a player flies (he sent a plan in this battle), pick the target in
the shooting phase, and step a tactic as a ``tactic_set`` step that replays."""

from __future__ import annotations

import pytest

from ka_tui.rules.air import turn as t
from ka_tui.rules.air.battle import Battle, replay
from ka_tui.rules.air.battle_map import BattleMap
from ka_tui.rules.air.movement import validate_plan
from ka_tui.rules.air.plans import plan_event
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.core.options import AirOptions
from ka_tui.screens.air.runner import Refused, Runner
from ka_tui.screens.air.suggesting import (
    fill_one, fill_side, pick_target, tactic_line, tactic_step,
)
from tests.rules.air_combat_fixtures import unit

MAP = BattleMap(20, 20)


def moving() -> Runner:
    units = (unit("a", "blue", q=5, r=12, speed=6, altitude=3),
             unit("b", "blue", q=8, r=12, speed=6, altitude=3),
             unit("x", "red", q=6, r=4, speed=6, altitude=3, facing=3))
    bt = Battle.start(units, MAP, AirOptions())
    bt.state = t.BattleState(bt.state.units, 1, t.Phase.MOVEMENT, ("blue", "red"), 0)
    return Runner(bt)


def test_fill_one_fills_a_legal_plan_as_if_the_gm_built_it() -> None:
    r = moving()
    got = fill_one(r, "a")
    assert r.plan("a") == got.plan
    u = r.unit("a")
    assert u is not None and validate_plan(u, r.plan("a"), MAP, r.options).legal
    assert got.reason


def test_fill_side_skips_the_aircraft_a_player_flies() -> None:
    r = moving()
    ev = plan_event("b", (), False, "Olga")
    r.battle.events.append({**ev, "seq": len(r.battle.events)})
    assert [g.unit_id for g in fill_side(r)] == ["a"]


def test_not_in_the_movement_or_not_moving_now_is_refused() -> None:
    r = moving()
    with pytest.raises(Refused, match="does not move now"):
        fill_one(r, "x")
    with pytest.raises(Refused, match="shooting phase"):
        pick_target(r, "a")


def test_a_tactic_step_is_logged_replayed_and_read_back() -> None:
    r = moving()
    assert tactic_line(r, "a") == "tactic: aggressive"
    r.do(tactic_step(r, "a", "unit"), ScriptedDice.of([]))
    assert tactic_line(r, "a") == "tactic: cautious (own)"
    r.do(tactic_step(r, "b", "side"), ScriptedDice.of([]))
    assert tactic_line(r, "b") == "tactic: cautious (side)"
    assert r.battle.events[-1]["log"] == ["side blue: tactic cautious (suggested plans)"]
    assert replay(r.battle.events, MAP, r.options).units == r.state.units   # changes nothing
    assert fill_one(r, "a").tactic.value == "cautious"
