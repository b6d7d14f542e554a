"""Campaign mode through the real app (Textual Pilot, a real campaign file):
plan a mission with the demo's people, refuse an unfit pilot, fly it (its
battle started from the mission and played with scripted dice through
rules/air/battle + store/battles), debrief, see the service record and the
journal change, advance time and see a wound heal and a repair finish; the app
is quit and opened again between the steps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ka_tui.app import KaApp
from ka_tui.screens.campaign.dialogs import DebriefForm, MissionForm, NoteScreen, TimeForm
from ka_tui.screens.campaign.screen import CampaignScreen, MissionScreen, RecordScreen
from ka_tui.store import missions
from ka_tui.store.db import open_campaign
from ka_tui.widgets.fast_table import FastTable
from ka_tui.widgets.form_fields import TextField
from tests.campaign_fixtures import add_enemy, fly_bounce
from tests.ui.pilot_helpers import SIZE, rows, settle, wait_for


async def _campaign(pilot: Any) -> CampaignScreen:
    await settle(pilot)
    await pilot.press("5")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, CampaignScreen)
                   and pilot.app.screen.loaded > 0)
    screen = pilot.app.screen
    assert isinstance(screen, CampaignScreen)
    return screen


async def _on(pilot: Any, cls: type, also: Any = None) -> Any:
    """Wait until the screen on top is a ``cls``, composed (and ``also()``)."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, cls) and app.screen.is_mounted
                   and bool(app.screen.children) and (also is None or also()))
    await settle(pilot)
    return app.screen


def _text(widget: Any) -> str:
    return str(widget.render())


def _field(screen: Any, key: str) -> TextField:
    return next(f for f in screen.query(TextField) if f.key == key)


async def _type(pilot: Any, screen: Any, key: str, text: str) -> None:
    field = _field(screen, key)
    field.input.focus()
    field.input.value = ""
    await pilot.press(*text) if text else None
    await pilot.pause()


def _table_text(screen: Any, tid: str) -> list[str]:
    table = screen.query_one(f"#{tid}", FastTable)
    return [" | ".join(table.get_row_at(i)) for i in range(table.row_count)]


async def test_plan_refuse_fly_debrief_records_time(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        enemy = add_enemy(db)

    # 1. plan: Reilly already flies today's escort (refused beside the field);
    #    Moreau and Kurt go.
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _campaign(pilot)
        assert "Next: Escort the Mitchell" in _text(screen.query_one("#overview-head"))
        await pilot.press("m")
        await settle(pilot)
        await pilot.press("n")
        form = await _on(pilot, MissionForm)
        await _type(pilot, form, "name", "Bounce")
        await _type(pilot, form, "pilots", "Tom Reilly")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "already flies" in str(_field(form, "pilots").error))
        assert "Tom Reilly already flies “Escort the Mitchell” that day" in \
            str(_field(form, "pilots").error)
        await _type(pilot, form, "pilots", "")
        _field(form, "pilots").input.value = "Jeanne Moreau, Kurt Vogel"
        await pilot.press("ctrl+s")
        await _on(pilot, MissionScreen)
        assert "Jeanne Moreau (pilot) in Spitfire KA-B" in _text(
            app.screen.query_one("#mission-text"))
    [(mid,)] = rows(demo_db, "SELECT id FROM mission WHERE name = 'Bounce'")
    assert rows(demo_db, "SELECT count(*) FROM mission_member WHERE mission_id = ?", mid) \
        == [(2,)]

    # 2. fly it: the battle started from the mission through the store, played
    #    with scripted dice (the air-battle screen's part), ended.
    with open_campaign(demo_db) as db:
        bid = fly_bounce(db, mid, enemy)
    assert rows(demo_db, "SELECT battle_id FROM mission_link WHERE mission_id = ?", mid) \
        == [(bid,)]

    # 3. debrief: the summary from the battle, confirmed with notes.
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _campaign(pilot)
        screen.open_mission(mid)
        await _on(pilot, MissionScreen)
        text = _text(app.screen.query_one("#mission-text"))
        assert "Jeanne Moreau: 1 kill" in text and "to confirm" in text
        await pilot.press("d")
        await _on(pilot, DebriefForm)
        _field(app.screen, "notes").input.value = "Clean kill over the coast."
        await pilot.press("ctrl+s")
        await _on(pilot, MissionScreen,
                  lambda: "flown" in _text(app.screen.query_one("#mission-text")))
    assert rows(demo_db, "SELECT status, debrief_notes FROM mission WHERE id = ?", mid) == [
        ("flown", "Clean kill over the coast.")]

    # 4. the service record and the journal changed; a GM note.
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _campaign(pilot)
        await pilot.press("v")
        await wait_for(pilot, lambda: screen.loaded > 1)
        assert any(r.startswith("Jeanne Moreau | 2 | 2 |")
                   for r in _table_text(screen, "records-table"))
        app.push_screen(RecordScreen(2))
        await settle(pilot)
        assert "1944-06-06 Bounce: 1 kill" in _text(app.screen.query_one("#record-text"))
        await pilot.press("escape")
        await pilot.press("j")
        await wait_for(pilot, lambda: screen.loaded > 2)
        journal_rows = _table_text(screen, "journal-table")
        assert any("Jeanne Moreau: 1 kill in “Bounce”" in r for r in journal_rows)
        assert any("Kurt Vogel wounded in “Bounce”" in r for r in journal_rows)
        screen.query_one("#journal-filter").value = "@Kurt"
        await wait_for(pilot, lambda: all("Kurt" in r or "Bounce" in r
                                          for r in _table_text(screen, "journal-table")))
        screen.query_one("#journal-table", FastTable).focus()
        await pilot.press("n")
        await _on(pilot, NoteScreen)
        await pilot.press(*"Kurt sent to hospital")
        await pilot.press("enter", *"under guard")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, CampaignScreen))
    assert rows(demo_db, "SELECT json_extract(payload, '$.text') FROM journal_event "
                         "WHERE kind = 'note' ORDER BY seq DESC LIMIT 1") == [
        ("Kurt sent to hospital\nunder guard",)]

    # 5. time: the preview, then 4 days: wounds heal and the Il-2's repair finishes.
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _campaign(pilot)
        await pilot.press("t")
        await _on(pilot, TimeForm)
        field = next(f for f in app.screen.query("IntField"))
        field.input.value = "4"
        await wait_for(pilot, lambda: "(4 days)" in _text(app.screen.query_one(
            "#time-preview")))
        preview = _text(app.screen.query_one("#time-preview"))
        assert "Kurt Vogel: 1 wound heals, fully healed" in preview
        assert "Il-2 KA-D: repair finished" in preview
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, CampaignScreen))
    assert rows(demo_db, "SELECT day FROM campaign_day") == [("1944-06-10",)]

    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _campaign(pilot)
        table = _table_text(screen, "overview-table")
        assert "ready | pilot | Kurt Vogel — ready" in table
        assert "ready | aircraft | Il-2 KA-D — ready" in table
        assert "Date 1944-06-10" in _text(screen.query_one("#overview-head"))


async def test_the_palette_command_writes_the_journal_as_markdown(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await _campaign(pilot)
        app.action_write_journal()
        await settle(pilot)
    text = (demo_db.parent / "demo-journal.md").read_text()
    assert text.startswith("# Journal: demo\n") and "## 1944-06-03" in text
    with open_campaign(demo_db) as db:
        assert missions.debrief_markdown(db, 1).startswith("# Mission: Dawn patrol")


async def test_link_a_played_battle_and_the_debrief_waits_for_its_end(demo_db: Path) -> None:
    """b links the newest battle not in a mission (the demo's exercise, still
    open); confirming the debrief is refused with the reason, nothing written."""
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _campaign(pilot)
        screen.open_mission(3)
        mission = await _on(pilot, MissionScreen)
        await pilot.press("b")
        await wait_for(pilot, lambda: "battle “Exercise: Blue vs Red” (open)" in _text(
            mission.query_one("#mission-text")))
        await pilot.press("d")
        form = await _on(pilot, DebriefForm)
        assert "(1 still open)" in _text(form.query_one(".debrief-lines"))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "end its battles first" in _text(
            form.query_one(".form-status")))
    assert rows(demo_db, "SELECT status FROM mission WHERE id = 3") == [("planned",)]
    assert rows(demo_db, "SELECT battle_id FROM mission_link WHERE mission_id = 3") == [(1,)]
