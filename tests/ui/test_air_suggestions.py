"""Suggested plans on the air screen, through the real app and a real SQLite
file (the demo battle, Blue moving): ``S`` fills both Blue plans with the
suggestions (rules/air/tactics) and their reasons; ``g`` flies them as if the
GM had built them; ``s`` in the shooting phase puts the cursor on the target
it picks; ``K`` saves a tactic in the battle's log and the panel shows it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.widgets import Static

from ka_tui.app import KaApp
from ka_tui.rules.air.codec import plan_from_json
from ka_tui.rules.air.movement import validate_plan
from ka_tui.rules.air.turn import Phase
from tests.ui.pilot_helpers import SIZE, rows, settle, wait_for
from tests.ui.test_air_battle import QueueDice, open_air

TEMP, SPIT = "Tempest KA-A", "Spitfire KA-B"


def battle_events(db: Path) -> list[tuple[str, dict[str, Any]]]:
    return [(k, json.loads(p)) for k, p in
            rows(db, "SELECT kind, payload FROM battle_event WHERE battle_id = 1 ORDER BY seq")]


def text_of(screen: Any, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_the_gm_side_flies_by_suggestions_and_picks_its_targets(demo_db: Path) -> None:
    app = KaApp(demo_db)
    app.air_dice = QueueDice()  # type: ignore[attr-defined]
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_air(pilot)
        await wait_for(pilot, lambda: screen.runner is not None)
        runner = screen.runner
        assert runner is not None and runner.state.phase is Phase.MOVEMENT
        assert set(runner.next().units) == {TEMP, SPIT}
        await pilot.press("S")
        await settle(pilot)
        for uid in (TEMP, SPIT):
            u = runner.unit(uid)
            assert u is not None and runner.plan(uid)
            assert validate_plan(u, runner.plan(uid), runner.battle_map, runner.options).legal
        detail = text_of(screen, "#air-detail-text")
        assert f"{TEMP} (aggressive): " in detail and f"{SPIT} (aggressive): " in detail
        assert "to-hit" in detail or "close on" in detail
        assert "suggested 2 plan(s)" in text_of(screen, "#air-status")
        planned = {uid: runner.plan(uid) for uid in (TEMP, SPIT)}
        await pilot.press("g")
        await settle(pilot)
        await pilot.press("g")
        await settle(pilot)
        moves = [d["data"] for k, d in battle_events(demo_db) if k == "move_committed"]
        flown = {d["unit"]: plan_from_json(d["plan"]) for d in moves[-2:]}
        assert flown == planned
        await pilot.press("g")          # end the movement
        await settle(pilot)
        runner = screen.runner
        assert runner is not None and runner.state.phase is Phase.SHOOTING
        await pilot.press("s")
        await settle(pilot)
        status = text_of(screen, "#air-status")
        assert status.startswith(("shoot ", "no shot: "))
        if status.startswith("shoot "):
            assert screen.cursor_target() is not None and screen.cursor_target() in status


async def test_a_tactic_is_saved_with_the_battle_and_shown_in_the_panel(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_air(pilot)
        await wait_for(pilot, lambda: screen.runner is not None)
        assert "tactic: aggressive" in text_of(screen, "#air-panel")
        await pilot.press("K")
        await settle(pilot)
        await wait_for(pilot, lambda: any(k == "tactic_set" for k, _ in
                                          battle_events(demo_db)))
        (data,) = [d["data"] for k, d in battle_events(demo_db) if k == "tactic_set"]
        assert data == {"scope": "unit", "name": screen.selected(), "tactic": "cautious"}
        assert "tactic: cautious (own)" in text_of(screen, "#air-panel")
        await pilot.press("ctrl+k")
        await settle(pilot)
        await wait_for(pilot, lambda: sum(k == "tactic_set" for k, _ in
                                          battle_events(demo_db)) == 2)
        sides = [d["data"] for k, d in battle_events(demo_db) if k == "tactic_set"]
        assert sides[-1]["scope"] == "side"
        await pilot.press("S")
        await settle(pilot)
        assert "(cautious): " in text_of(screen, "#air-detail-text")
