"""The roster's filter: words match role, status, seat and aircraft type as well
as names, and a filter typed fast goes into the filter. Real app (Pilot) on a
real demo campaign file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ka_tui.app import KaApp
from ka_tui.screens.roster.screen import RosterScreen
from tests.ui.pilot_helpers import SIZE, commit_sql, settle, wait_for
from tests.ui.roster_pilot import roster


async def filtered(pilot: Any, screen: RosterScreen, needle: str) -> set[str]:
    await pilot.press("escape")  # clear the last filter (or nothing)
    await pilot.press("slash", *needle)
    await pilot.pause()
    table = screen.active_table()
    names = {table.get_row_at(i)[0] for i in range(table.row_count)}
    await pilot.press("enter")
    return names


async def test_filter_on_role_status_seat_and_aircraft_type(demo_db: Path) -> None:
    commit_sql(demo_db, "UPDATE aircraft SET name = 'Messerschmitt Bf 109 G-10' WHERE id = 6")
    commit_sql(demo_db, "UPDATE aircraft SET pilot_id = 9 WHERE id = 6")  # Mike Dunn flies it
    async with KaApp(demo_db).run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        pilots = await filtered(pilot, screen, "pilot")
        assert {"Arthur Hale", "Jeanne Moreau", "Kasia Nowak", "Olga Petrova",
                "Tom Reilly", "Mike Dunn"} == pilots  # role pilot, or seated as pilot
        assert await filtered(pilot, screen, "wounded") == {"Ilse Brandt"}  # 1 wound
        assert await filtered(pilot, screen, "Bf 109") == {"Mike Dunn"}
        assert await filtered(pilot, screen, "unseated") == {"Ilse Brandt", "Yusuf Karim"}
        assert await filtered(pilot, screen, "crew Mitchell") == {"Eddie Baker",
                                                                  "Ruth Adler"}
        battle = await filtered(pilot, screen, "battle")
        assert "Arthur Hale" in battle and "Tom Reilly" not in battle
        assert await filtered(pilot, screen, "ale") == {"Arthur Hale"}  # names: any part
        await pilot.press("escape", "t")
        assert await filtered(pilot, screen, "Bf 109") == {"Messerschmitt Bf 109 G-10"}
        assert await filtered(pilot, screen, "heavy") == {"Beaufighter KA-C"}
        assert await filtered(pilot, screen, "unseated") == set()
        commit_sql(demo_db, "UPDATE aircraft SET pilot_id = NULL WHERE id = 6")
        await pilot.press("escape", "ctrl+r")
        await settle(pilot)
        assert await filtered(pilot, screen, "unseated") == {"Messerschmitt Bf 109 G-10"}


async def test_a_filter_typed_fast_goes_into_the_filter(demo_db: Path) -> None:
    """``/unseated`` arriving in one read from the terminal (a GM who types fast):
    every letter lands in the filter, none runs a roster or app key (the ``s``
    opened the settings, the ``e`` an edit form)."""
    from textual import events

    async with KaApp(demo_db).run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        for ch in "/unseated":
            pilot.app.post_message(events.Key("slash" if ch == "/" else ch, ch))
        # the keys go one by one (the app's key gate): wait for the last
        await wait_for(pilot, lambda: screen.tables["characters"].filter == "unseated")
        assert pilot.app.screen is screen
        assert screen.tables["characters"].filter == "unseated"
        await wait_for(pilot, lambda: screen.active_table().row_count == 3)

