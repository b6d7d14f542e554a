"""The real app written through the screen shadow: what it sends to
a terminal, read by a terminal model, must leave the screen Textual would draw
if it repainted everything -- after a dialog opens and closes, and after a
resize with a dialog open (the terminal's content is then unknown: the model
fills it with garbage, so a cell the app does not redraw shows).

The app runs under Pilot with Textual's headless driver told it is a terminal
(``is_headless`` False) and keeping what it is given to write, so
the app's ``_display`` (``textual_compat.display``) and the shadow run exactly as on a real terminal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.drivers import headless_driver
from textual.events import Resize
from textual.geometry import Size
from textual.pilot import Pilot

from ka_tui.app import KaApp
from ka_tui.textual_compat import compositor
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
    size = compositor.compositor_size(app.screen)
    term = Terminal(size.width, size.height)
    term.feed(compositor.full_repaint(app))
    return term


async def quiet(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.pause(0.05)
    await pilot.pause()


def differences(shown: Terminal, wanted: Terminal) -> list[tuple[int, int]]:
    """Cells that do not look the same (a blank the shadow erased shows only
    its background: ``Terminal.visible``)."""
    if (shown.width, shown.height) != (wanted.width, wanted.height):
        return [(-1, -1)]
    seen, want = shown.visible(), wanted.visible()
    return [(y, x) for y in range(wanted.height) for x in range(wanted.width)
            if seen[y][x] != want[y][x]]


async def assert_shown(pilot: Pilot[Any], screen: _Screen, what: str) -> None:
    """The terminal model shows what a full repaint draws, once the app has
    written what it has to (a loaded machine: up to 5 s; a stale shadow never
    gets there)."""
    for _ in range(100):
        shown, wanted = screen.catch_up(), full_repaint(pilot.app)  # type: ignore[arg-type]
        bad = differences(shown, wanted)
        if not bad:
            return
        await pilot.pause(0.05)
    raise AssertionError(f"{what}: {len(bad)} cells differ, first at {bad[0]}\n"
                         + "\n".join(shown.text()) + "\n---\n" + "\n".join(wanted.text()))


@pytest.mark.parametrize("erase", [False, True], ids=["spaces", "bce-erase"])
async def test_a_dialog_opened_closed_and_resized_leaves_the_terminal_right(
        demo_db: Path, wire: list[str], erase: bool) -> None:
    app = KaApp(demo_db)
    app.screen_shadow.erase = erase  # else terminfo's answer for $TERM
    async with app.run_test(size=SIZE) as pilot:
        screen = _Screen(wire, SIZE)
        await wait_for(pilot, lambda: isinstance(app.screen, RosterScreen)
                       and app.screen.loaded)
        await quiet(pilot)
        assert wire, "the app wrote nothing: the driver is not taken for a terminal"
        await assert_shown(pilot, screen, "roster")

        sent = len(wire)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await quiet(pilot)
        await assert_shown(pilot, screen, "delete confirm open")
        opening = "".join(wire[sent:])
        assert 0 < len(opening.encode()) < (2 if erase else 4) * 1024  # was 14 KB
        assert ("\x1b[K" in opening) is erase  # the blank lines around the dialog

        # A resize with the dialog open: the terminal may show anything now.
        for width, height in ((100, 30), (64, 20), (80, 24)):
            screen.catch_up().resize(width, height)
            await pilot.resize_terminal(width, height)
            await quiet(pilot)
            assert compositor.compositor_size(app.screen) == Size(width, height)
            await assert_shown(pilot, screen, f"resized to {width}x{height}")

        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, RosterScreen))
        await quiet(pilot)
        await assert_shown(pilot, screen, "dialog closed")

        await pilot.press("down")
        await quiet(pilot)
        await assert_shown(pilot, screen, "cursor moved")


def erasing_app(db: Path) -> KaApp:
    """The app as on a terminal that erases in the background colour."""
    app = KaApp(db)
    app.screen_shadow.erase = True
    return app


async def roster_on(pilot: Pilot[Any], wire: list[str]) -> _Screen:
    """The terminal model, once the roster shows its data."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, RosterScreen) and app.screen.loaded)
    return _Screen(wire, SIZE)


async def test_a_resize_to_the_same_size_repaints_what_the_terminal_lost(
        demo_db: Path, wire: list[str]) -> None:
    """Shrunk and grown back before the app repaints: the shadow has the old
    size, the terminal lost its content; the app must redraw all of it."""
    app = erasing_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster_on(pilot, wire)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await quiet(pilot)
        screen.catch_up().resize(*SIZE)
        # two resize events before the app acts on either (as pilot.resize_terminal
        # posts them, without its pause): Textual repaints once, at the old size
        app.post_message(Resize(Size(60, 20), Size(60, 20)))
        app.post_message(Resize(Size(*SIZE), Size(*SIZE)))
        await quiet(pilot)
        await assert_shown(pilot, screen, "resized and back")


async def test_ctrl_l_writes_the_whole_screen_again_after_another_program_drew_on_it(
        demo_db: Path, wire: list[str]) -> None:
    """A full repaint no longer paints over what another program wrote (a
    ``wall`` message, line noise): ``ctrl+l`` (palette: Redraw) does."""
    app = erasing_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster_on(pilot, wire)
        await quiet(pilot)
        await assert_shown(pilot, screen, "roster")
        screen.catch_up().resize(*SIZE)  # the model's cells turn to garbage
        app.screen.refresh()             # an ordinary full repaint sends nothing new
        await quiet(pilot)
        assert differences(screen.catch_up(), full_repaint(app))
        await pilot.press("ctrl+l")
        await quiet(pilot)
        await assert_shown(pilot, screen, "after ctrl+l")
        assert "Redraw the screen" in [c.title for c in app.get_system_commands(app.screen)]


@pytest.mark.parametrize("signal", ["app_suspend_signal", "app_resume_signal"])
async def test_suspended_or_resumed_the_next_update_is_written_whole(
        demo_db: Path, wire: list[str], signal: str) -> None:
    """Another program drew on the terminal while the app was suspended
    (``App.suspend``: its suspend and resume signals): the terminal is
    garbage now, and the next repaint sends every cell again."""
    app = erasing_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster_on(pilot, wire)
        await quiet(pilot)
        await assert_shown(pilot, screen, "roster")
        screen.catch_up().resize(*SIZE)  # the model's cells turn to garbage
        getattr(app, signal).publish(app)
        app.screen.refresh()
        await quiet(pilot)
        await assert_shown(pilot, screen, f"after {signal}")
