"""Undo and redo on the close-combat screen, through the real app, a real
campaign file and Pilot (80x24): ``u`` asks first and ``y`` puts the round
back, until anything else is written; on an ended fight ``u`` says why it
cannot undo (its outcome is on the roster). S0 §Close combat 1-6,
RULES-NOTES B."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from ka_tui.screens.confirm import ConfirmScreen
from tests.ui.combat_pilot import (
    INIT, ROUND1, ROUND2, SIZE, footer_keys, keys, kinds, make_app, mike_vs,
    text_of, two_rounds_to_the_end,
)
from tests.ui.pilot_helpers import rows


async def test_undo_on_an_ended_fight_says_why_and_is_not_offered(demo_db: Path) -> None:
    app = make_app(demo_db, INIT + ROUND1 + ROUND2)
    async with app.run_test(size=SIZE) as pilot:
        screen = await two_rounds_to_the_end(pilot)
        assert "combat.undo" not in footer_keys(screen)
        before = kinds(demo_db)
        await keys(pilot, "u")
        assert not isinstance(pilot.app.screen, ConfirmScreen)
        assert "cannot be undone" in text_of(screen, "#status")
        assert kinds(demo_db) == before


async def test_undo_asks_first_and_y_redoes_the_round(demo_db: Path) -> None:
    app = make_app(demo_db, INIT + ROUND1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await mike_vs(pilot, "Olga Petrova")
        await keys(pilot, "a", "D", "enter", "f", "b", "enter", "v", "r", "enter")
        assert screen.view_step == 6
        played = rows(demo_db, "SELECT seq, kind, payload FROM fight_event ORDER BY seq")
        assert "combat.redo" not in footer_keys(screen)
        await keys(pilot, "u")
        assert isinstance(pilot.app.screen, ConfirmScreen)
        assert "Undo round 1" in str(pilot.app.screen.query_one(".confirm-question",
                                                                  Static).render())
        await keys(pilot, "n")                       # keep: nothing dropped
        assert pilot.app.screen is screen and len(kinds(demo_db)) == len(played)
        await keys(pilot, "u", "y")                  # undo
        assert kinds(demo_db) == ["fight_started", "initiative"]
        assert screen.view_step == 2 and "combat.redo" in footer_keys(screen)
        await keys(pilot, "y")                       # redo: the same events are back
        assert rows(demo_db, "SELECT seq, kind, payload FROM fight_event ORDER BY seq") \
            == played
        assert screen.view_step == 6 and "combat.redo" not in footer_keys(screen)


async def test_no_redo_once_something_else_is_written(demo_db: Path) -> None:
    app = make_app(demo_db, INIT + ROUND1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await mike_vs(pilot, "Olga Petrova")
        await keys(pilot, "a", "D", "enter", "f", "b", "enter", "v", "r", "enter")
        await keys(pilot, "u", "y")
        await keys(pilot, "a", "b", "enter")         # a new card: the redo is gone
        assert "combat.redo" not in footer_keys(screen)
        await keys(pilot, "y")
        assert kinds(demo_db) == ["fight_started", "initiative", "card_entered"]
