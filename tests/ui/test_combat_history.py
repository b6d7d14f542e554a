"""A fight's whole history from the close-combat screen, through the real
app, a real campaign file and Pilot (80x24): round by round, readable and
exported (text, Markdown), from the fight or straight from the list of
fights -- an ended fight is more than "(ended)". S0 §Close combat 1-6."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from ka_tui.screens.combat.screen import CombatScreen
from ka_tui.screens.history import HistoryScreen
from tests.ui.combat_pilot import (
    INIT, ROUND1, ROUND2, SIZE, keys, make_app, two_rounds_to_the_end,
)


async def test_an_ended_fight_reads_round_by_round_and_exports(demo_db: Path) -> None:
    app = make_app(demo_db, INIT + ROUND1 + ROUND2)
    async with app.run_test(size=SIZE) as pilot:
        await two_rounds_to_the_end(pilot)
        await keys(pilot, "h")
        history = pilot.app.screen
        assert isinstance(history, HistoryScreen) and history.history is not None
        titles = [s.title for s in history.history.sections]
        assert titles == ["Start", "Round 1", "Round 2",
                          "End: the outcome written to the roster"]
        shown = " ".join(str(w.render()) for w in history.query(".history-section"))
        assert "Cards revealed (S0 §Close combat 3)" in shown and "TT pistol goes to" in shown
        await keys(pilot, "right_square_bracket", "right_square_bracket")
        assert history.section == 2
        await keys(pilot, "m", "e")
        md = demo_db.parent / history.history.file_name("markdown")
        txt = demo_db.parent / history.history.file_name("text")
        assert md.is_file() and "\n## Round 2\n" in md.read_text(encoding="utf-8")
        assert "Round 1\n-------" in txt.read_text(encoding="utf-8")
        await keys(pilot, "escape")
        assert isinstance(pilot.app.screen, CombatScreen)


async def test_earlier_fights_open_from_the_list_and_show_their_history(
        demo_db: Path) -> None:
    """A finished fight is no longer only "(ended)": l, enter, h."""
    app = make_app(demo_db, INIT + ROUND1 + ROUND2)
    async with app.run_test(size=SIZE) as pilot:
        await two_rounds_to_the_end(pilot)
        await keys(pilot, "l", "h")                  # straight from the list
        history = pilot.app.screen
        assert isinstance(history, HistoryScreen) and history.history is not None
        assert history.history.status == "ended" and len(history.history.sections) == 4
        await keys(pilot, "escape", "enter", "h")    # or open the fight, then h
        history = pilot.app.screen
        assert isinstance(history, HistoryScreen) and history.history is not None
        assert history.history.status == "ended" and len(history.history.sections) == 4


def test_snapshot_history_of_an_ended_fight(demo_db: Path, snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await two_rounds_to_the_end(pilot)
        await keys(pilot, "h")
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(make_app(demo_db, INIT + ROUND1 + ROUND2), terminal_size=SIZE,
                        run_before=run_before)
