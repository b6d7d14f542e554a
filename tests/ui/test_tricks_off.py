"""The app with the Textual tricks off (``textual_compat.tricks``): slower,
never wrong. Every trick off at once, and each form trick alone, through the
real app on a real file: forms open, take keys in order, switch tabs, save
and cancel; dialogs open and close; the terminal shows the screen a full
repaint draws; the player's app starts."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Footer, Input, TabbedContent

from ka_tui.app import KaApp
from ka_tui.player_app import PlayerApp
from ka_tui.screens.confirm import ConfirmScreen
from ka_tui.screens.roster.character_form import CharacterForm
from ka_tui.screens.roster.screen import RosterScreen
from ka_tui.textual_compat.tricks import Trick, tricks_off
from ka_tui.widgets.form_fields import DiscardScreen
from ka_tui.widgets.form_tabs import TabRow
from tests.ui.pilot_helpers import SIZE, rows, settle, wait_for
from tests.ui.test_players import player_ready
from tests.ui.test_screen_diff_app import (  # noqa: F401
    _Screen, assert_shown, full_repaint, quiet, wire)

FORM_TRICKS = [Trick.QUIET_FOOTER, Trick.ONE_LAYOUT_OPEN, Trick.FIRST_RESIZE_SKIP,
               Trick.SHARED_INPUT_STYLES, Trick.QUIET_INPUT_OPEN, Trick.FIXED_INPUT_WIDTH,
               Trick.SINGLE_RESUME_RESTYLE, Trick.DRAWN_TAB_ROW]


@pytest.fixture(params=["all", *FORM_TRICKS], ids=lambda p: f"{p}-off")
def switched_off(request: pytest.FixtureRequest) -> Any:
    tricks = () if request.param == "all" else (request.param,)
    with tricks_off(*tricks) as off:
        yield off


async def _roster(pilot: Any) -> RosterScreen:
    await settle(pilot)
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, RosterScreen)
                   and pilot.app.screen.loaded)
    screen = pilot.app.screen
    assert isinstance(screen, RosterScreen)
    return screen


async def test_a_new_character_is_typed_tabbed_and_saved(
        demo_db: Path, switched_off: frozenset[Trick]) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await _roster(pilot)
        await pilot.press("a", *"Zed")  # typed while the form opens: kept, in order
        await wait_for(pilot, lambda: isinstance(app.screen, CharacterForm))
        await settle(pilot)
        form = app.screen
        assert form.query_one("#input-name", Input).value == "Zed"
        assert bool(form.query(TabRow)) is (Trick.DRAWN_TAB_ROW not in switched_off)
        footer = form.query_one(Footer)
        await wait_for(pilot, lambda: any("Save" in str(k.render())
                                          for k in footer.children))
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert form.query_one(TabbedContent).active == "tab-skills"
        await pilot.press("ctrl+t", "ctrl+t")
        await settle(pilot)
        assert form.query_one(TabbedContent).active == "tab-main"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, RosterScreen))
        assert rows(demo_db, "SELECT name FROM character WHERE name = 'Zed'") == [("Zed",)]


async def test_a_changed_form_asks_before_it_is_thrown_away(demo_db: Path) -> None:
    app = KaApp(demo_db)
    with tricks_off():
        async with app.run_test(size=SIZE) as pilot:
            await _roster(pilot)
            await pilot.press("e")
            await wait_for(pilot, lambda: isinstance(app.screen, CharacterForm))
            await settle(pilot)
            name = app.screen.query_one("#input-name", Input)
            before = name.value
            await pilot.press("end", "x", "escape")
            await wait_for(pilot, lambda: isinstance(app.screen, DiscardScreen))
            await pilot.press("y")
            await wait_for(pilot, lambda: isinstance(app.screen, RosterScreen))
            assert rows(demo_db, "SELECT name FROM character WHERE name = ?",
                        before + "x") == []


async def test_the_terminal_shows_the_screen_with_every_trick_off(
        demo_db: Path, wire: list[str]) -> None:  # noqa: F811
    """Every update written whole (no screen shadow): the terminal still
    shows what a full repaint draws, through a dialog and a cursor move."""
    app = KaApp(demo_db)
    with tricks_off():
        async with app.run_test(size=SIZE) as pilot:
            screen = _Screen(wire, SIZE)
            await _roster(pilot)
            await quiet(pilot)
            await assert_shown(pilot, screen, "roster")
            await pilot.press("d")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await quiet(pilot)
            await assert_shown(pilot, screen, "delete confirm open")
            await pilot.press("n")
            await wait_for(pilot, lambda: isinstance(app.screen, RosterScreen))
            await pilot.press("down")
            await quiet(pilot)
            await assert_shown(pilot, screen, "dialog closed, cursor moved")


async def test_the_players_app_runs_with_every_trick_off(demo_db: Path) -> None:
    app = PlayerApp(demo_db, "Kasia Nowak")
    app.watch_interval = None
    with tricks_off():
        async with app.run_test(size=SIZE) as pilot:
            await player_ready(pilot)
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: type(app.screen).__name__ == "HelpScreen")


@pytest.mark.parametrize("mode", ["roller", "combat", "air", "campaign", "scene", "table"])
async def test_a_modes_first_visit_looks_the_same_styled_once_or_by_textual(
        demo_db: Path, mode: str) -> None:
    """``styled-mode-screen``: a mode's new screen is not restyled again by the
    ScreenResume events of its first visit (its widgets were styled as they
    mounted); it looks, cell by cell with its colours, as when Textual
    restyles it."""
    looks = []
    for switch in (contextlib.nullcontext(), tricks_off(Trick.STYLED_MODE_SCREEN)):
        with switch:
            app = KaApp(demo_db)
            async with app.run_test(size=SIZE) as pilot:
                await _roster(pilot)
                await app.run_action(f"switch_mode({mode!r})")
                await settle(pilot)
                await quiet(pilot)
                looks.append(full_repaint(app).visible())
    assert looks[0] == looks[1]
