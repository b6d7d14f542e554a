"""Roster aircraft tab filter: `t` switches to the aircraft, `/` and
typed text cut the table to the names that match, escape brings every row back.
The demo campaign holds six aircraft (S0 §Flight card profiles)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input, Static

from ka_tui.app import KaApp
from ka_tui.screens.roster.screen import RosterScreen
from tests.ui.pilot_helpers import SIZE, wait_for
from tests.ui.test_roster import roster, table_names


def aircraft_in_db(db: Path) -> list[str]:
    con = sqlite3.connect(db)
    try:
        return [r[0] for r in con.execute("SELECT name FROM aircraft")]
    finally:
        con.close()


async def aircraft_tab(pilot: Pilot[None]) -> RosterScreen:
    screen = await roster(pilot)
    await pilot.press("t")
    await wait_for(pilot, lambda: screen.active_tab == "aircraft")
    return screen


def detail_text(screen: RosterScreen) -> str:
    return str(screen.query_one("#detail-text", Static).render())


async def test_filter_aircraft_by_name_then_escape_restores(demo_db: Path) -> None:
    everything = sorted(aircraft_in_db(demo_db), key=str.casefold)
    assert len(everything) == 6
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await aircraft_tab(pilot)
        assert sorted(table_names(screen, "aircraft"), key=str.casefold) == everything
        expected = [n for n in everything if "tem" in n.casefold()]
        assert 0 < len(expected) < len(everything)
        await pilot.press("slash", *"tem")
        await wait_for(pilot, lambda: len(table_names(screen, "aircraft")) == len(expected))
        assert sorted(table_names(screen, "aircraft"), key=str.casefold) == expected
        assert screen.query_one("#filter", Input).value == "tem"
        # the character tab keeps its own rows
        assert len(table_names(screen, "characters")) > 0
        await pilot.press("escape")
        await wait_for(pilot, lambda: len(table_names(screen, "aircraft")) == 6)
        assert sorted(table_names(screen, "aircraft"), key=str.casefold) == everything
        assert not screen.query_one("#filter", Input).display
        assert screen.active_tab == "aircraft"


async def test_filter_aircraft_matching_nothing_says_so(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await aircraft_tab(pilot)
        await pilot.press("slash", *"zzq")
        await wait_for(pilot, lambda: table_names(screen, "aircraft") == [])
        text = detail_text(screen)
        assert "zzq" in text or "match" in text.casefold()
        assert "no aircraft yet" not in text.casefold()


async def test_filter_aircraft_matching_nothing_then_escape_restores(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await aircraft_tab(pilot)
        await pilot.press("slash", *"zzq")
        await wait_for(pilot, lambda: table_names(screen, "aircraft") == [])
        await pilot.press("escape")
        await wait_for(pilot, lambda: len(table_names(screen, "aircraft")) == 6)
        assert "no aircraft yet" not in detail_text(screen).casefold()
