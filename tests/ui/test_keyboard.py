"""Keyboard rules of the whole app (UX pass): escape leaves a text field,
digits switch modes except from a text field or dropdown, F-keys switch from
anywhere, every binding has an id and every shown key is in the palette, the
roster reaches the profile library, and one ASCII switch covers every glyph."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.binding import Binding
from textual.driver import Driver
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, Select

from ka_tui.app import KaApp
from ka_tui.screens.campaign_picker import CampaignPickerScreen
from ka_tui.screens.aircraft.card_screen import FlightCardScreen
from ka_tui.screens.help import HelpScreen
from ka_tui.screens.aircraft.library import ProfileLibraryScreen
from ka_tui.screens.roller.screen import RollerScreen
from ka_tui.screens.roster.screen import RosterScreen
from ka_tui.screens.settings import SettingsScreen
from ka_tui.widgets import glyphs
from tests.ui.pilot_helpers import SIZE, rows, settle
from tests.ui.test_roster import roster


async def open_roller(pilot: Pilot[None]) -> RollerScreen:
    await settle(pilot)
    await pilot.press("2")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, RollerScreen) and screen.loaded
    return screen


# ------------------------------------------------------------ escape and modes


async def test_escape_leaves_the_faces_field_then_a_digit_switches_mode(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        faces = screen.query_one("#input-faces", Input)
        await pilot.press("f")
        assert app.focused is faces
        await pilot.press("5")
        assert faces.value == "5"  # a digit in a text field is typed, not a mode switch
        assert isinstance(app.screen, RollerScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.focused, (Input, Select))
        await pilot.press("1")
        await settle(pilot)
        assert isinstance(app.screen, RosterScreen)


async def test_help_is_reachable_from_a_text_field_with_escape_then_question_mark(
        demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await open_roller(pilot)
        await pilot.press("escape", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_f_key_switches_mode_while_typing_in_a_field(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        await pilot.press("f")
        assert isinstance(app.focused, Input)
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, RosterScreen)
        await pilot.press("f2")
        await settle(pilot)
        assert app.screen is screen


async def test_digits_on_a_dropdown_do_not_switch_mode(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        who = screen.query_one("#select-who", Select)
        who.focus()
        await pilot.press("1")  # closed dropdown: not a mode switch
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("enter")  # open the list, then type into its search
        await pilot.pause()
        assert who.expanded
        await pilot.press(*"2d10")
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("escape")  # closes the list first
        await pilot.pause()
        assert not who.expanded and app.focused is who
        await pilot.press("escape")  # then leaves the dropdown
        await pilot.pause()
        assert not isinstance(app.focused, (Input, Select))
        await pilot.press("1")
        await settle(pilot)
        assert isinstance(app.screen, RosterScreen)


async def test_escape_in_the_roster_filter_still_clears_it(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        await pilot.press("slash", *"zzz")
        await settle(pilot)
        assert screen.tables["characters"].filter == "zzz"
        await pilot.press("escape")
        await settle(pilot)
        assert screen.tables["characters"].filter == ""


# ------------------------------------------------------------ library from the roster


async def test_roster_l_opens_the_library_and_a_copy_shows_on_the_aircraft_tab(
        demo_db: Path) -> None:
    before = rows(demo_db, "SELECT count(*) FROM aircraft")[0][0]
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        titles = {c.title for c in app.get_system_commands(screen)}
        assert "Library" in titles
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, ProfileLibraryScreen)
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("enter")  # the name asked: the one offered
        await settle(pilot)
        assert app.screen is screen
        assert screen.active_tab == "aircraft"
    assert rows(demo_db, "SELECT count(*) FROM aircraft")[0][0] == before + 1


# ------------------------------------------------------------ every screen, every key


def _own_bindings(node: object) -> list[Binding]:
    """Bindings declared by ka-tui classes (Textual's own widgets have no ids)."""
    found: list[Binding] = []
    for cls in type(node).__mro__:
        if cls.__module__.startswith("ka_tui") and "BINDINGS" in vars(cls):
            found += [b for b in vars(cls)["BINDINGS"] if isinstance(b, Binding)]
    return found


def check_screen(app: KaApp, screen: Screen[Any], seen: set[str]) -> None:
    seen.add(type(screen).__name__)
    for node in (app, screen, *screen.walk_children()):
        for binding in _own_bindings(node):
            assert binding.id, f"{type(node).__name__}: {binding.key} has no id"
    titles = {c.title for c in app.get_system_commands(screen)}
    for active in screen.active_bindings.values():
        binding = active.binding
        if active.node is app or not binding.show or not binding.description:
            continue
        if active.enabled:
            assert binding.description in titles, (type(screen).__name__, binding.key)


async def _visit(pilot: Pilot[None], *keys: str) -> Screen[Any]:
    await pilot.press(*keys)
    await settle(pilot)
    return pilot.app.screen


async def test_every_screen_binding_has_an_id_and_shown_keys_are_in_the_palette(
        demo_db: Path) -> None:
    app = KaApp(demo_db)
    seen: set[str] = set()
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        check_screen(app, screen, seen)                       # characters tab
        check_screen(app, await _visit(pilot, "t"), seen)     # aircraft tab
        assert isinstance(screen, RosterScreen) and screen.active_tab == "aircraft"
        card = await _visit(pilot, "f")
        assert isinstance(card, FlightCardScreen)
        check_screen(app, card, seen)
        library = await _visit(pilot, "l")
        assert isinstance(library, ProfileLibraryScreen)
        check_screen(app, library, seen)
        await _visit(pilot, "escape", "escape")
        assert app.screen is screen
        check_screen(app, await _visit(pilot, "l"), seen)     # library from the roster
        await _visit(pilot, "escape")
        help_screen = await _visit(pilot, "question_mark")
        assert isinstance(help_screen, HelpScreen)
        check_screen(app, help_screen, seen)
        await _visit(pilot, "escape")
        settings = await _visit(pilot, "s")
        assert isinstance(settings, SettingsScreen)
        check_screen(app, settings, seen)
        await _visit(pilot, "escape")
        roller = await _visit(pilot, "2")
        assert isinstance(roller, RollerScreen)
        check_screen(app, roller, seen)
        await _visit(pilot, "escape")                         # leave the faces field
        check_screen(app, roller, seen)
        combat = await _visit(pilot, "3")
        check_screen(app, combat, seen)
    assert {"RosterScreen", "FlightCardScreen", "ProfileLibraryScreen", "HelpScreen",
            "SettingsScreen", "RollerScreen", "CombatScreen"} <= seen


async def test_picker_bindings_have_ids_and_are_in_the_palette(demo_db: Path) -> None:
    app = KaApp(None, campaigns=[demo_db])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, CampaignPickerScreen)
        check_screen(app, app.screen, set())


# ------------------------------------------------------------ ASCII mode


@pytest.mark.parametrize(("env", "expected"), [
    ({}, False), ({"KA_TUI_ASCII": "1"}, True), ({"KA_TUI_ASCII": "0"}, False),
    ({"NO_COLOR": "1"}, False),  # no colour is not no glyphs
])
def test_ascii_switch_from_the_environment(env: dict[str, str], expected: bool) -> None:
    from ka_tui import cli

    assert cli.env_on(env, "KA_TUI_ASCII") is expected


def test_cli_ascii_flag_turns_the_switch_on(monkeypatch: pytest.MonkeyPatch,
                                            demo_db: Path) -> None:
    from ka_tui import cli

    monkeypatch.setenv("KA_TUI_ASCII", "0")
    started: list[bool] = []
    monkeypatch.setattr(cli, "_run_app",
                        lambda path, flags: started.append(
                            cli.gm_app(path, flags).ascii_glyphs) or 0)
    assert cli.main(["--db", str(demo_db), "--ascii"]) == 0
    assert started == [True]


def test_to_ascii_keeps_every_cell() -> None:
    text = "╭─ Keys ─╮ │ a·b… → ↑↓ ✓✗ ▇░ ▏ 3d10 — é 中"
    out = glyphs.to_ascii(text)
    assert out.isascii()
    from rich.cells import cell_len

    assert len(out) == cell_len(text)
    assert out.startswith("+- Keys -+ | a.b~ > ^v")


class _Recorder(Driver):
    written: list[str] = []

    def write(self, data: str) -> None:
        self.written.append(data)

    def start_application_mode(self) -> None: ...
    def stop_application_mode(self) -> None: ...
    def disable_input(self) -> None: ...


async def test_ascii_driver_writes_only_ascii() -> None:
    app = KaApp(None, ascii_glyphs=True)
    cls = glyphs.ascii_driver(_Recorder)
    driver = cls(app)
    driver.write("\x1b[1m╭──╮\x1b[0m·")
    assert _Recorder.written[-1] == "\x1b[1m+--+\x1b[0m."
    assert KaApp(None, ascii_glyphs=False).get_driver_class() is not None


async def test_ascii_mode_reaches_the_roller_histogram_and_the_flight_card(
        demo_db: Path) -> None:
    from ka_tui.widgets.dice_panel import OddsView
    from ka_tui.widgets.flight_card import FlightCard

    app = KaApp(demo_db, ascii_glyphs=True)
    async with app.run_test(size=SIZE) as pilot:
        await roster(pilot)
        await _visit(pilot, "t")
        card = await _visit(pilot, "f")
        assert card.query_one(FlightCard).ascii
        await _visit(pilot, "escape")
        roller = await open_roller(pilot)
        odds = roller.query_one(OddsView)
        shown = str(odds.render())
        assert "#" in shown and "█" not in shown


# ------------------------------------------------------------ things a GM trips on


async def test_q_asks_before_losing_unsaved_house_rules(demo_db: Path) -> None:
    from ka_tui.screens.confirm import ConfirmScreen

    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await roster(pilot)
        settings = await _visit(pilot, "s")
        assert isinstance(settings, SettingsScreen) and settings.loaded
        await _visit(pilot, "space")  # flip the first option, not saved
        assert settings.unsaved_changes()
        confirm = await _visit(pilot, "q")
        assert isinstance(confirm, ConfirmScreen)
        await _visit(pilot, "n")
        assert app.screen is settings and app.is_running
        await _visit(pilot, "q", "y")
    assert app.return_code == 0


async def test_picker_keeps_the_status_column_on_screen_at_80_columns(
        tmp_path: Path) -> None:
    from textual.widgets import DataTable

    from ka_tui.store.db import create_campaign

    long_name = "Operation Long Name For A Campaign Of Many Words"
    path = tmp_path / "operation-long-name-for-a-campaign-of-many-words.db"
    create_campaign(path, long_name).close()
    app = KaApp(None, campaigns=[path])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 1
        widths = sum(c.get_render_width(table) for c in table.columns.values())
        assert widths <= SIZE[0]
        name, _file, status = table.get_row_at(0)
        assert str(name).endswith("…") and str(status).startswith("schema")
