"""The app's start (first frame): with a campaign it starts in the
roster's mode (no default screen built or drawn first), the header says
READ-ONLY from the first frame, the picker path is unchanged, a change
another process commits while the app starts still reaches the roster, and
an update that changes nothing writes nothing to the terminal.

Real parts: the demo campaign in a real SQLite file, the real app under
Pilot, another plain ``sqlite3`` connection writing, and what the app writes
to its terminal read by the terminal model (tests/ui/vt_model.py).
"""

from __future__ import annotations

import sqlite3
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from textual.drivers import headless_driver
from textual.screen import Screen
from textual.widgets import Static

import ka_tui.app as app_module
from ka_tui.app import KaApp
from ka_tui.screens.campaign_picker import CampaignPickerScreen
from ka_tui.screens.roster.screen import RosterScreen
from ka_tui.store.db import create_campaign
from ka_tui.store.startup_read import read_roster
from ka_tui.textual_compat.app_state import mode_names_built
from tests.ui.pilot_helpers import SIZE, wait_for
from tests.ui.test_roster import table_names
from tests.ui.test_screen_diff_app import (
    _Screen,
    _TerminalDriver,
    differences,
    full_repaint,
    quiet,
)
from tests.ui.vt_model import Terminal


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the app writes to its terminal (tests/ui/test_screen_diff_app.py:
    Textual's headless driver, taken for a terminal, keeping what it is given)."""
    written: list[str] = []
    monkeypatch.setattr(_TerminalDriver, "written", written, raising=False)
    monkeypatch.setattr(headless_driver, "HeadlessDriver", _TerminalDriver)
    return written


class _Recording(KaApp):
    """KaApp, noting every default screen Textual asks it for and the screen
    the app has when it mounts."""

    CSS_PATH = str(Path(app_module.__file__).parent / str(KaApp.CSS_PATH))  # beside app.py

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.default_screens: list[Screen[Any]] = []
        self.screen_at_mount: Screen[Any] | None = None
        super().__init__(*args, **kwargs)

    def get_default_screen(self) -> Screen[Any]:
        screen = super().get_default_screen()
        self.default_screens.append(screen)
        return screen

    def on_mount(self) -> None:
        self.screen_at_mount = self.screen
        super().on_mount()


def _rename(path: Path, cid: int, name: str) -> None:
    """Another process's commit (a plain sqlite3 connection)."""
    con = sqlite3.connect(path)
    try:
        con.execute("UPDATE character SET name = ? WHERE id = ?", (name, cid))
        con.commit()
    finally:
        con.close()


def _a_character(path: Path) -> tuple[int, str]:
    con = sqlite3.connect(path)
    try:
        row = con.execute("SELECT id, name FROM character ORDER BY id LIMIT 1").fetchone()
    finally:
        con.close()
    return int(row[0]), str(row[1])


def _first_frame(wire: list[str]) -> Terminal | None:
    """The terminal after the first write that draws a character (the mouse
    pointer's shape comes before it), or None yet."""
    term = Terminal(*SIZE)
    for data in list(wire):
        term.feed(data)
        if any(line.strip() for line in term.text()):
            return term
    return None


def _names(app: KaApp) -> list[str]:
    """The character names in the roster's table, or none while another screen shows."""
    return table_names(app.screen) if isinstance(app.screen, RosterScreen) else []


def _loaded(app: KaApp) -> bool:
    return isinstance(app.screen, RosterScreen) and app.screen.loaded


async def test_the_app_starts_on_the_roster_built_at_compose(demo_db: Path) -> None:
    """First frame. No empty default screen first, no mode switch."""
    app = _Recording(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen_at_mount, RosterScreen)
        await wait_for(pilot, lambda: _loaded(app))
        assert app.current_mode == "roster"
        assert app.default_screens == []
        assert "_default" not in mode_names_built(app)
        assert app.screen_stack == [app.screen_at_mount]
        names = _names(app)
        assert names and _a_character(demo_db)[1] in names


async def test_a_read_only_campaign_says_so_in_the_first_frame(
        demo_db: Path, monkeypatch: pytest.MonkeyPatch, wire: list[str]) -> None:
    """First frame (the header says READ-ONLY). The title
    is set before the roster is built, so the first frame written says it."""
    app = KaApp(demo_db, read_only=True)
    assert "READ-ONLY" in app.title  # before the app runs at all
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: _first_frame(wire) is not None)
        first = _first_frame(wire)
        assert first is not None
        assert any("READ-ONLY" in line for line in first.text()), "\n".join(first.text())
        await wait_for(pilot, lambda: _loaded(app))
        assert "READ-ONLY" in app.title
        bar = str(app.screen.query_one("#title-bar", Static).render())
        assert "READ-ONLY" in bar


async def test_a_writable_campaign_has_no_read_only_title(demo_db: Path) -> None:
    """First frame (the control for the test above)."""
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: _loaded(app))
        assert "READ-ONLY" not in app.title
        assert "READ-ONLY" not in str(app.screen.query_one("#title-bar", Static).render())


async def test_without_a_campaign_the_app_still_starts_on_the_picker(
        demo_db: Path, tmp_path: Path) -> None:
    """First frame. Several campaigns, none given: the picker."""
    other = tmp_path / "other.db"
    create_campaign(other, "Other campaign").close()
    app = _Recording(None, campaigns=[demo_db, other])
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CampaignPickerScreen))
        assert app.current_mode == "_default"
        assert app._startup_read is None and app.take_startup_read() is None


async def test_a_change_committed_after_the_startup_read_reaches_the_roster(
        demo_db: Path) -> None:
    """First frame. The startup read (as the command line begins it),
    then another process renames a character, then the app: the roster first
    shows the read, and the watcher, started from the read's fingerprints,
    brings the new name without a key press."""
    cid, old = _a_character(demo_db)
    read: Future[Any] = Future()
    read.set_result(read_roster(demo_db))
    _rename(demo_db, cid, "Renamed Meanwhile")
    app = KaApp(demo_db, startup_read=read)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: _loaded(app))
        assert old in _names(app)  # the read's rows, drawn at once
        await wait_for(pilot, lambda: "Renamed Meanwhile" in _names(app),
                       timeout=3)
        assert old not in _names(app)


async def test_a_change_committed_right_after_the_roster_shows_reaches_it(
        demo_db: Path) -> None:
    """First frame. Renamed by another connection as soon as the roster
    shows its data (the watcher starts 0.5 s later): the new name shows within
    about 3 s, no key pressed."""
    cid, old = _a_character(demo_db)
    app = KaApp(demo_db)
    watching_at_write: list[bool] = []

    def rename() -> None:  # called again when the roster has read the new name
        if not watching_at_write:
            watching_at_write.append(app._watcher is not None)
            _rename(demo_db, cid, "Renamed At Once")

    app.on_roster_ready = rename
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(watching_at_write))
        await wait_for(pilot, lambda: _loaded(app)
                       and "Renamed At Once" in _names(app), timeout=3)
        assert old not in _names(app)
    assert watching_at_write == [False]


async def test_an_update_that_changes_nothing_writes_nothing(
        demo_db: Path, wire: list[str]) -> None:
    """First frame. Once the screen has settled, a refresh of
    unchanged content sends no byte (not even a cursor move); a real change
    does; ``ctrl+l`` (redraw) writes the whole screen again."""
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: _loaded(app))
        screen = _Screen(wire, SIZE)
        await quiet(pilot)
        roster = app.screen
        assert isinstance(roster, RosterScreen)
        # the hidden filter line, mounted after the first frame
        await wait_for(pilot, lambda: roster._filter_box() is not None)
        await quiet(pilot)
        assert wire, "the app wrote nothing: the driver is not taken for a terminal"

        sent = len(wire)
        app.screen.refresh()
        await quiet(pilot)
        app.screen.refresh(layout=True)
        await quiet(pilot)
        assert "".join(wire[sent:]) == ""

        sent = len(wire)
        await pilot.press("down")  # the cursor row moves: cells change
        await quiet(pilot)
        moved = "".join(wire[sent:])
        assert moved
        assert differences(screen.catch_up(), full_repaint(app)) == []

        sent = len(wire)
        await pilot.press("ctrl+l")
        await quiet(pilot)
        redraw = "".join(wire[sent:])
        assert len(redraw) > len(moved)
        # the redraw alone paints every cell over whatever the terminal showed
        lost = Terminal(*SIZE)
        lost.resize(*SIZE)
        lost.feed(redraw)
        assert differences(lost, full_repaint(app)) == []


async def test_a_startup_read_that_ends_after_a_newer_read_is_dropped(
        demo_db: Path) -> None:
    """The GM reloads (ctrl+r) while the startup read is
    slow; when it ends, its older rows do not replace the newer ones."""
    old = read_roster(demo_db)
    _rename(demo_db, 1, "Newer Name")
    slow: Future[Any] = Future()
    app = _Recording(demo_db, startup_read=slow)
    app.watch_interval = None  # what the roster itself does
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RosterScreen))
        await pilot.pause(0.3)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: _loaded(app) and "Newer Name" in _names(app))
        slow.set_result(old)
        await pilot.pause(0.3)
        assert "Newer Name" in _names(app)


async def test_a_write_before_the_watch_starts_is_handed_to_it(demo_db: Path) -> None:
    """The watch starts after the first frame, from the startup read's
    fingerprints; what this app wrote meanwhile is taken as its own, never
    reported back as another process's (whether the write lands before the
    watch starts or while it starts)."""
    from ka_tui.screens.door import ELSEWHERE, CampaignChanged, Change, door
    from ka_tui.screens.store_work import store_work

    app = KaApp(demo_db)
    app.watch_interval = 0.01
    heard: list[CampaignChanged] = []
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        door(screen).on_campaign_changed(screen, heard.append)
        assert app._watcher is None  # the watch has not started yet
        store_work(screen, lambda db: db.connect().execute(
            "UPDATE character SET strength = strength + 1 WHERE id = 1").connection.commit(),
            group="early", publish=Change.ROSTER)
        await wait_for(pilot, lambda: any(c.source is screen for c in heard))
        await wait_for(pilot, lambda: app._watcher is not None and app._watcher.polls > 10)
    assert [c.source for c in heard if c.source == ELSEWHERE] == []


async def test_back_from_a_stop_the_screen_is_written_whole(
        demo_db: Path, wire: list[str]) -> None:
    """SIGSTOP then SIGCONT (job control, ``kill -STOP``):
    the shell wrote on the terminal meanwhile, so the driver's resume
    repaints every cell (Textual's handler of it never reached the screen
    shadow's reset)."""
    from textual.driver import Driver

    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: _loaded(app))
        await quiet(pilot)
        sent = len(wire)
        app.post_message(Driver.SignalResume())
        await quiet(pilot)
        resumed = "".join(wire[sent:])
        lost = Terminal(*SIZE)
        lost.resize(*SIZE)
        lost.feed(resumed)
        assert differences(lost, full_repaint(app)) == []
