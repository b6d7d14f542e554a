"""House-rule settings screen (RULES-NOTES: every gap is a named option, editable
by the GM, listed on one settings screen): generic over ``HouseRules``."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

from textual.widgets import DataTable, Input

from ka_tui.app import KaApp
from ka_tui.rules.core.options import HouseRules
from ka_tui.screens.confirm import ConfirmScreen
from ka_tui.screens.settings import (
    SettingsScreen,
    TableForm,
    option_docs,
    options_of,
    parse_value,
)
from tests.ui.pilot_helpers import SIZE, rows, settle
from tests.ui.test_roster import roster


def stored_rules(db: Path) -> dict[str, dict[str, object]]:
    return json.loads(rows(db, "SELECT house_rules FROM campaign")[0][0])


def test_every_option_of_every_section_is_listed() -> None:
    listed = {o.key for o in options_of(HouseRules())}
    expected = {f"{s.name}.{f.name}" for s in fields(HouseRules)
                for f in fields(getattr(HouseRules(), s.name))}
    assert listed == expected


def test_option_docs_come_from_the_comments_in_options_py() -> None:
    """RULES-NOTES A crit_fail_rule: the comment above the field is its explanation."""
    docs = option_docs(type(HouseRules().skills))
    assert "RULES-NOTES A" in docs["crit_fail_rule"]


def test_parse_value_tables_and_lists() -> None:
    assert parse_value((0, 1, 2), "0, 2 4") == [0, 2, 4]
    assert parse_value({2: "cockpit"}, "2: cockpit, 3: engine") == {"2": "cockpit", "3": "engine"}
    assert parse_value({0: 7}, "-1: 6, 0: 7") == {"-1": 6, "0": 7}
    for bad_default, text in (((0,), "a"), ({0: 1}, "0 1"), ({0: 1}, "0: x")):
        try:
            parse_value(bad_default, text)
        except ValueError:
            continue
        raise AssertionError(f"{text!r} was accepted")


async def open_settings(pilot) -> SettingsScreen:  # type: ignore[no-untyped-def]
    await roster(pilot)
    await pilot.press("s")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, SettingsScreen) and screen.loaded
    return screen


async def goto(pilot, screen: SettingsScreen, key: str) -> None:  # type: ignore[no-untyped-def]
    table = screen.query_one(DataTable)
    table.move_cursor(row=[o.key for o in screen.options].index(key))
    await pilot.pause()


async def test_toggle_a_flag_and_save_writes_the_campaign(demo_db: Path) -> None:
    """RULES-NOTES B loser_defence_blocks (default on) switched off and saved."""
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(pilot)
        await goto(pilot, screen, "cqc.loser_defence_blocks")
        await pilot.press("space")
        await pilot.pause()
        assert stored_rules(demo_db).get("cqc", {}).get("loser_defence_blocks") is None
        await pilot.press("ctrl+s")
        await settle(pilot)
    assert stored_rules(demo_db)["cqc"]["loser_defence_blocks"] is False
    assert HouseRules.from_dict(stored_rules(demo_db)).cqc.loser_defence_blocks is False


async def test_edit_a_list_as_a_table_shows_the_error_and_keeps_the_old_value(
        demo_db: Path) -> None:
    """RULES-NOTES D range band modifiers: a list edited a row at a time
    ; a wrong row is refused at the field."""
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(pilot)
        await goto(pilot, screen, "air.range_band_mods")
        await pilot.press("e")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, TableForm) and form.rows == [("1", "0"), ("2", "1"), ("3", "2")]
        await pilot.press("down", "enter")  # row 2
        await pilot.pause()
        await pilot.press("backspace", *"one")
        await pilot.pause()
        assert "whole numbers" in form.query_one("#cell-error").render().plain  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert form.rows[1] == ("2", "1")  # not taken
        form.query_one("#cell-input", Input).value = "99"
        await pilot.pause()
        assert "-12 to 12" in form.error
        form.query_one("#cell-input", Input).value = "2"
        await pilot.press("enter", "down", "enter")
        await pilot.pause()
        form.query_one("#cell-input", Input).value = "4"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("ctrl+s")
        await settle(pilot)
    assert stored_rules(demo_db)["air"]["range_band_mods"] == [0, 2, 4]


async def test_leaving_with_unsaved_changes_asks(demo_db: Path) -> None:
    before = stored_rules(demo_db)
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(pilot)
        await goto(pilot, screen, "skills.crit_fail_rule")
        await pilot.press("space")  # seed -> all_ones
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        assert not isinstance(app.screen, SettingsScreen)
    assert stored_rules(demo_db) == before


async def test_reset_to_default(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_settings(pilot)
        await goto(pilot, screen, "cqc.default_ap")
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one("#input-value", Input).value = "8"
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert stored_rules(demo_db)["cqc"]["default_ap"] == 8
        await pilot.press("r", "ctrl+s")
        await settle(pilot)
    assert "default_ap" not in stored_rules(demo_db).get("cqc", {})
