"""Pilot helpers for the roster's tests: the roster screen once read, what its
tables draw, its detail pane."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from ka_tui.screens.roster.screen import RosterScreen
from ka_tui.widgets.fast_table import FastTable
from tests.ui.pilot_helpers import settle


async def roster(pilot: Any) -> RosterScreen:
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, RosterScreen) and screen.loaded
    return screen


def lines(table: FastTable) -> list[str]:
    """What the table draws, line by line (header first)."""
    return [table.render_line(y).text for y in range(min(table.size.height,
                                                         table.row_count + 1))]


def detail(screen: RosterScreen) -> str:
    return str(screen.query_one("#detail-text", Static).render())


def column(screen: RosterScreen, title: str, tab: str = "characters") -> dict[str, str]:
    """Name -> the cell of column ``title`` (as set, before any cut)."""
    table = screen.query_one(f"#{tab}-table", FastTable)
    titles = [c.title for c in table.columns]
    return {table.get_row_at(i)[0]: table.get_row_at(i)[titles.index(title)]
            for i in range(table.row_count)}

