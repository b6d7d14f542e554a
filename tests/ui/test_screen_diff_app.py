"""The real app written through the screen shadow (issue 13): what it sends to
a terminal, read by a terminal model, must leave the screen Textual would draw
if it repainted everything -- after a dialog opens and closes, and after a
resize with a dialog open (the terminal's content is then unknown: the model
fills it with garbage, so a cell the app does not redraw shows).

The app runs under Pilot with Textual's headless driver told it is a terminal
(``is_headless`` False) and keeping what it is given to write, so
``KaApp._display`` and the shadow run exactly as on a real terminal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual._compositor import LayoutUpdate, visible_screen_stack
from textual.drivers import headless_driver
from textual.geometry import Size
from textual.pilot import Pilot

from ka_tui.app import KaApp
from ka_tui.screens.confirm import ConfirmScreen
from ka_tui.screens.roster.screen import RosterScreen
from tests.ui.pilot_helpers import SIZE, settle, wait_for
from tests.ui.vt_model import Terminal


class _TerminalDriver(headless_driver.HeadlessDriver):
    """The headless driver, except that it says it is a terminal and keeps
    everything the app writes."""

    written: list[str]

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        self.written.append(data)


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the app writes to its terminal (the app's own driver class is not
    used under Pilot: Textual takes the headless one, replaced here)."""
    written: list[str] = []
    monkeypatch.setattr(_TerminalDriver, "written", written, raising=False)
    monkeypatch.setattr(headless_driver, "HeadlessDriver", _TerminalDriver)
    return written


class _Screen:
    """The terminal model fed with everything written so far."""

    def __init__(self, wire: list[str], size: tuple[int, int]) -> None:
        self.wire = wire
        self.term = Terminal(*size)
        self.read = 0

    def catch_up(self) -> Terminal:
        for data in self.wire[self.read:]:
            self.term.feed(data)
        self.read = len(self.wire)
        return self.term


def full_repaint(app: KaApp) -> Terminal:
    """The screen as a full repaint of the current screen draws it."""
    compositor = app.screen._compositor
    visible_screen_stack.set(app._background_screens)
    strips = compositor.render_strips()
    size = compositor.size
    term = Terminal(size.width, size.height)
    term.feed(LayoutUpdate([[s] for s in strips], size.region).render_segments(app.console))
    return term


async def quiet(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.pause(0.05)
    await pilot.pause()


def assert_same(shown: Terminal, wanted: Terminal, what: str) -> None:
    """Every cell looks the same (a blank the shadow erased shows only its
    background: ``Terminal.visible``)."""
    assert (shown.width, shown.height) == (wanted.width, wanted.height)
    seen, want = shown.visible(), wanted.visible()
    bad = [(y, x) for y in range(wanted.height) for x in range(wanted.width)
           if seen[y][x] != want[y][x]]
    assert not bad, (f"{what}: {len(bad)} cells differ, first at {bad[0]}\n"
                     + "\n".join(shown.text()) + "\n---\n" + "\n".join(wanted.text()))


@pytest.mark.parametrize("erase", [False, True], ids=["spaces", "bce-erase"])
async def test_a_dialog_opened_closed_and_resized_leaves_the_terminal_right(
        demo_db: Path, wire: list[str], erase: bool) -> None:
    app = KaApp(demo_db)
    app._screen_shadow.erase = erase  # else terminfo's answer for $TERM
    async with app.run_test(size=SIZE) as pilot:
        screen = _Screen(wire, SIZE)
        await wait_for(pilot, lambda: isinstance(app.screen, RosterScreen)
                       and app.screen.loaded)
        await quiet(pilot)
        assert wire, "the app wrote nothing: the driver is not taken for a terminal"
        assert_same(screen.catch_up(), full_repaint(app), "roster")

        sent = len(wire)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await quiet(pilot)
        assert_same(screen.catch_up(), full_repaint(app), "delete confirm open")
        opening = "".join(wire[sent:])
        assert 0 < len(opening.encode()) < (2 if erase else 4) * 1024  # was 14 KB
        assert ("\x1b[K" in opening) is erase  # the blank lines around the dialog

        # A resize with the dialog open: the terminal may show anything now.
        for width, height in ((100, 30), (64, 20), (80, 24)):
            screen.catch_up().resize(width, height)
            await pilot.resize_terminal(width, height)
            await quiet(pilot)
            assert app.screen._compositor.size == Size(width, height)
            assert_same(screen.catch_up(), full_repaint(app), f"resized to {width}x{height}")

        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, RosterScreen))
        await quiet(pilot)
        assert_same(screen.catch_up(), full_repaint(app), "dialog closed")

        await pilot.press("down")
        await quiet(pilot)
        assert_same(screen.catch_up(), full_repaint(app), "cursor moved")


async def test_a_resize_to_the_same_size_repaints_what_the_terminal_lost(
        demo_db: Path, wire: list[str]) -> None:
    """Shrunk and grown back before the app repaints: the shadow has the old
    size, the terminal lost its content; the app must redraw all of it."""
    app = KaApp(demo_db)
    app._screen_shadow.erase = True
    async with app.run_test(size=SIZE) as pilot:
        screen = _Screen(wire, SIZE)
        await wait_for(pilot, lambda: isinstance(app.screen, RosterScreen)
                       and app.screen.loaded)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await quiet(pilot)
        screen.catch_up().resize(*SIZE)
        await pilot.resize_terminal(60, 20)  # no pause between the two
        await pilot.resize_terminal(*SIZE)
        await quiet(pilot)
        assert_same(screen.catch_up(), full_repaint(app), "resized and back")
