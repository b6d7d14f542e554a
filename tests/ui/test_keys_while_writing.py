"""Keys typed while a write is in flight take effect in order, as if typed
slowly (the app's key gate, widgets/key_gate.py; store_work holds the keys a
key's write and the read after it): none is dropped, none acts on the state
from before the write. Real app under Pilot on a real file; another
connection holds the file's write lock so the write is surely still in
flight."""

from __future__ import annotations

import shutil
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from textual.widgets import Static

from ka_tui.app import KaApp
from ka_tui.store.db import CampaignDB
from tests.ui.pilot_helpers import SIZE, rows, settle, wait_for
from tests.ui.test_roller import make_app, open_roller


@contextmanager
def file_locked(db: Path) -> Iterator[None]:
    """Another process's write transaction: the app's writes wait for it."""
    con = sqlite3.connect(db, isolation_level=None)
    try:
        con.execute("BEGIN IMMEDIATE")
        yield
        con.execute("ROLLBACK")
    finally:
        con.close()


# ------------------------------------------------------------ the roller


async def test_strike_typed_while_the_roll_is_logged_strikes_that_roll(demo_db: Path) -> None:
    """``r`` then ``d`` at once: settled, ``d`` strikes the roll just made (the
    log's cursor is on the newest); so it must while that roll is still
    being written (it struck nothing: the log on screen had no roll yet)."""
    app = make_app(demo_db)
    async with app.run_test() as pilot:
        screen = await open_roller(pilot)
        with file_locked(demo_db):
            await pilot.press("r", "d")
            await pilot.pause(0.2)
        await wait_for(pilot, lambda: rows(demo_db, "SELECT count(*) FROM roll_log "
                                                    "WHERE struck_at IS NOT NULL") == [(1,)])
        await settle(pilot)
        assert not app.key_gate.busy
    assert rows(demo_db, "SELECT id, struck_at IS NOT NULL FROM roll_log") == [(1, 1)]


# ------------------------------------------------------------ the roster


async def _names_after(db: Path, keys: str, *, fast: bool, rows_then: int) -> list[str]:
    """The characters after ``keys`` on the roster, once it shows ``rows_then`` rows."""
    from textual import events

    from tests.ui.test_roster import roster, table_names

    app = KaApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        for key in keys:
            if fast:  # all in one read from the terminal
                app.post_message(events.Key(key, key))
            else:
                await pilot.press(key)
                await settle(pilot)
        await wait_for(pilot, lambda: len(table_names(screen)) == rows_then)
        await settle(pilot)
    return sorted(r[0] for r in rows(db, "SELECT name FROM character"))


async def test_copy_twice_at_full_speed_is_copy_twice_typed_slowly(demo_db: Path,
                                                                   tmp_path: Path) -> None:
    """``c c``: the second copy waits for the first and the read after it (it
    was dropped: the first worker was cancelled before it began), so it copies
    the copy, as when typed slowly."""
    slow_db = tmp_path / "slow.db"
    shutil.copy(demo_db, slow_db)
    slow = await _names_after(slow_db, "cc", fast=False, rows_then=13)
    fast = await _names_after(demo_db, "cc", fast=True, rows_then=13)
    assert fast == slow


async def test_delete_reads_his_seat_off_the_app_thread_and_y_typed_at_once_deletes(
        demo_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The delete prompt names his seat (read in a worker: it was read on the
    app's thread, holding every key meanwhile); ``d y`` typed at once deletes."""
    from textual import events

    from ka_tui.screens.confirm import ConfirmScreen
    from ka_tui.store import roster as store_roster
    from tests.ui.test_roster import roster

    threads: list[int] = []
    warnings = store_roster.delete_warnings

    def recorded(db: CampaignDB, character_id: int) -> list[str]:
        threads.append(threading.get_ident())
        return warnings(db, character_id)

    monkeypatch.setattr(store_roster, "delete_warnings", recorded)
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await roster(pilot)  # Arthur Hale first: pilot of Tempest KA-A
        await pilot.press("d")
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        await wait_for(pilot, lambda: "pilot of Tempest KA-A" in str(
            dialog.query_one(".confirm-question", Static).render()))
        await pilot.press("n")
        await settle(pilot)
        for key in "dy":
            app.post_message(events.Key(key, key))
        await settle(pilot)
        await wait_for(pilot, lambda: rows(demo_db, "SELECT count(*) FROM character "
                                                    "WHERE name = 'Arthur Hale'") == [(0,)])
    assert threads and threading.main_thread().ident not in threads
