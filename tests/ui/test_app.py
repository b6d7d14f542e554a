"""App shell: help, command palette, campaign picker, bad files,
JSON export / import from inside the app."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from textual.widgets import DataTable, Input

from ka_tui.app import KaApp
from ka_tui.screens.campaign_picker import CampaignPickerScreen
from ka_tui.screens.help import HelpScreen, key_rows
from ka_tui.screens.messages import MessageScreen
from ka_tui.screens.roster.screen import RosterScreen
from ka_tui.screens.transfer_dialogs import ExportScreen, ImportScreen
from tests.ui.pilot_helpers import SIZE, rows, settle
from tests.ui.test_roster import roster


async def test_help_lists_screen_keys_then_global_keys(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await roster(pilot)
        found = key_rows(app, app.screen)
        sections = [r.section for r in found]
        assert sections[0] == "Roster"
        assert sections.index("Roster") < sections.index("Global")
        by_desc = {r.description: r for r in found}
        assert by_desc["Delete the selected row (asks first)"].key == "d del"
        assert any(r.section == "Global" and r.key == "?" for r in found)
        assert any("Command palette" in r.description for r in found)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, RosterScreen)


async def test_every_roster_binding_has_an_id_and_a_palette_entry(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        for binding in (*RosterScreen.BINDINGS, *KaApp.BINDINGS):
            assert binding.id, binding  # type: ignore[union-attr]
        titles = {c.title for c in app.get_system_commands(screen)}
        for expected in ("Add", "Edit", "Copy", "Delete", "Filter", "Sort", "Tab",
                         "Export campaign to JSON", "Import campaign from JSON",
                         "Settings: house rules", "Go to Roster", "Help: keys"):
            assert expected in titles


async def test_palette_runs_a_roster_action(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Filter")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.query_one("#filter", Input).display
        assert app.focused is screen.query_one("#filter", Input)


async def test_not_a_campaign_shows_a_message_and_leaves_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "notes.db"
    bad.write_bytes(b"shopping list\n" * 100)
    before = bad.read_bytes()
    app = KaApp(bad)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MessageScreen)
        assert "not a ka-tui campaign" in app.screen.message
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 2
    assert bad.read_bytes() == before


async def test_newer_schema_is_refused_with_both_versions(demo_db: Path) -> None:
    con = sqlite3.connect(demo_db)
    con.execute("PRAGMA user_version = 99")
    con.close()
    before = demo_db.read_bytes()
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MessageScreen)
        assert "99" in app.screen.message
    assert demo_db.read_bytes() == before


async def test_picker_lists_campaigns_and_opens_the_chosen_one(
        tmp_path: Path, demo_db: Path) -> None:
    from ka_tui.store.db import create_campaign

    other = tmp_path / "other.db"
    create_campaign(other, "Other war").close()
    junk = tmp_path / "junk.db"
    junk.write_text("not sqlite")
    app = KaApp(None, campaigns=[demo_db, junk, other])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, CampaignPickerScreen)
        table = picker.query_one(DataTable)
        assert [str(table.get_row_at(i)[0]) for i in range(3)][2] == "Other war"
        await pilot.press("down")  # the junk file cannot be opened
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is picker
        await pilot.press("down", "enter")
        screen = await roster(pilot)
        assert screen.campaign_name == "Other war"
        assert app.db_path == other


async def test_picker_new_campaign(tmp_path: Path) -> None:
    app = KaApp(None, campaigns=[])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, CampaignPickerScreen)
        app.screen.folder = tmp_path
        await pilot.press("n")
        await pilot.pause()
        await pilot.press(*"Winter Ops", "ctrl+s")
        screen = await roster(pilot)
        assert screen.campaign_name == "Winter Ops"
    assert rows(tmp_path / "winter-ops.db", "SELECT name FROM campaign") == [("Winter Ops",)]


async def test_export_then_import_from_the_palette(demo_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "export.json"
    target = tmp_path / "copy.db"
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await roster(pilot)
        app.action_export_campaign()
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen)
        app.screen.query_one("#input-file", Input).value = str(out)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, RosterScreen)
        app.action_import_campaign()
        await pilot.pause()
        assert isinstance(app.screen, ImportScreen)
        app.screen.query_one("#input-file", Input).value = str(out)
        app.screen.query_one("#input-target", Input).value = str(target)
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("y")  # open it now
        screen = await roster(pilot)
        assert app.db_path == target
        assert screen.tables["characters"].rows
    doc = json.loads(out.read_text())
    names = sorted(c["name"] for c in doc["characters"])
    assert names == sorted(r[0] for r in rows(demo_db, "SELECT name FROM character"))
    assert sorted(r[0] for r in rows(target, "SELECT name FROM character")) == names


async def test_import_of_a_bad_file_names_the_field_and_builds_nothing(
        demo_db: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "nonsense"}))
    target = tmp_path / "never.db"
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await roster(pilot)
        app.action_import_campaign()
        await pilot.pause()
        form = app.screen
        form.query_one("#input-file", Input).value = str(bad)
        form.query_one("#input-target", Input).value = str(target)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form
        assert form.query_one("#field-file").error
    assert not target.exists()
