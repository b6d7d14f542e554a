"""The campaign mode is live across processes, like the other modes: two
real app instances on one real campaign file, and what window A commits — a
mission planned, a repair queued, a GM note, time advanced, a battle linked
— shows in window B's open view (mode 5) without a key pressed in B, through
B's watcher (``store/watch.py``, ``Change.CAMPAIGN`` in ``store/changes.py``).
A mission edited in B from a form opened before A's edit is refused beside
the field, and nothing of B's is written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ka_tui.app import KaApp
from ka_tui.screens.campaign.dialogs import MissionForm, NoteScreen, TimeForm
from ka_tui.screens.campaign.screen import CampaignScreen, MissionScreen
from tests.ui.pilot_helpers import SIZE, rows, settle, wait_for
from tests.ui.test_campaign import _campaign, _field, _on, _table_text, _text

ESCORT = 3   # the demo's planned "Escort the Mitchell"


async def _view(pilot: Any, key: str) -> CampaignScreen:
    screen = await _campaign(pilot) if not isinstance(pilot.app.screen, CampaignScreen) \
        else pilot.app.screen
    loads = screen.loaded
    await pilot.press(key)
    await wait_for(pilot, lambda: screen.loaded > loads)
    return screen


async def _open_escort(pilot: Any) -> MissionScreen:
    """Enter on the missions view's first row: the newest, the Escort (keys, so
    the screen is pushed in this pilot's app)."""
    await _view(pilot, "m")
    await pilot.press("enter")
    return await _on(pilot, MissionScreen, lambda: "Escort the Mitchell" in _text(
        pilot.app.screen.query_one("#mission-text")))  # type: ignore[no-any-return]


async def test_what_one_window_commits_shows_in_the_others_campaign_view(
        demo_db: Path) -> None:
    a, b = KaApp(demo_db), KaApp(demo_db)
    async with a.run_test(size=SIZE) as pa, b.run_test(size=SIZE) as pb:
        seen = await _view(pb, "m")                          # B: the missions
        await _view(pa, "m")                                 # A: plans one
        await pa.press("n")
        form = await _on(pa, MissionForm)
        _field(form, "name").input.value = "Recce over Caen"
        await pa.press("ctrl+s")
        await _on(pa, MissionScreen)
        await wait_for(pb, lambda: any("Recce over Caen" in r
                                       for r in _table_text(seen, "missions-table")))

        await _view(pb, "p")                                 # B: the repairs
        await pa.press("escape")
        mine = await _view(pa, "p")                          # A: queues the Spitfire
        mine.query_one("#repairs-table").move_cursor(
            row=mine.query_one("#repairs-table").get_row_index("2"))
        await pa.press("enter")
        await wait_for(pb, lambda: any(r.startswith("Spitfire KA-B | repair")
                                       for r in _table_text(seen, "repairs-table")))

        await _view(pb, "j")                                 # B: the journal
        await _view(pa, "j")                                 # A: a GM note
        await pa.press("n")
        await _on(pa, NoteScreen)
        await pa.press(*"Fog at dawn")
        await pa.press("ctrl+s")
        await wait_for(pb, lambda: any("Fog at dawn" in r
                                       for r in _table_text(seen, "journal-table")))

        await _view(pb, "o")                                 # B: the overview
        await pa.press("t")                                  # A: a day passes
        await _on(pa, TimeForm, lambda: "(1 day)" in _text(pa.app.screen.query_one(
            "#time-preview")))
        await pa.press("ctrl+s")
        await wait_for(pb, lambda: "Date 1944-06-07" in _text(
            seen.query_one("#overview-head")))
    assert rows(demo_db, "SELECT day FROM campaign_day") == [("1944-06-07",)]


async def test_an_open_mission_follows_a_link_made_in_another_window(demo_db: Path) -> None:
    a, b = KaApp(demo_db), KaApp(demo_db)
    async with a.run_test(size=SIZE) as pa, b.run_test(size=SIZE) as pb:
        for pilot in (pa, pb):
            await _open_escort(pilot)
        theirs = b.screen
        await pa.press("b")                                  # A links the open exercise
        await wait_for(pb, lambda: "battle “Exercise: Blue vs Red” (open)" in _text(
            theirs.query_one("#mission-text")))


async def test_a_mission_form_opened_before_the_other_windows_edit_is_refused(
        demo_db: Path) -> None:
    a, b = KaApp(demo_db), KaApp(demo_db)
    b.watch_interval = None   # B's form stays as it was opened, as in the second before
    async with a.run_test(size=SIZE) as pa, b.run_test(size=SIZE) as pb:
        for pilot in (pb, pa):                               # B's form opens first
            await _open_escort(pilot)
            await pilot.press("e")
            await _on(pilot, MissionForm)
        _field(a.screen, "briefing").input.value = "Low and fast"
        await pa.press("ctrl+s")
        await _on(pa, MissionScreen)
        form = b.screen
        _field(form, "name").input.value = "Escort (B)"
        await pb.press("ctrl+s")
        await wait_for(pb, lambda: "another window" in str(_field(form, "briefing").error))
        await settle(pb)
        assert isinstance(b.screen, MissionForm)             # still open, nothing written
    assert rows(demo_db, "SELECT name, briefing FROM mission WHERE id = ?", ESCORT) == [
        ("Escort the Mitchell", "Low and fast")]
