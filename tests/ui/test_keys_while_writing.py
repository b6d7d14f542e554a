"""Keys typed while a write is in flight take effect in order, as if typed
slowly (screens/in_order.py): none is dropped, none acts on the state from
before the write. Real app under Pilot on a real file; another connection
holds the file's write lock so the write is surely still in flight."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ka_tui.screens.in_order import InOrder
from tests.ui.pilot_helpers import rows, settle, wait_for
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


# ------------------------------------------------------------ the line


def test_steps_wait_for_the_write_in_flight_then_run_in_order() -> None:
    line = InOrder()
    done: list[str] = []
    line.run(lambda: done.append("a"))
    hold = line.hold()
    line.run(lambda: done.append("b"))
    line.run(lambda: done.append("c"))
    assert done == ["a"] and line.busy and line.waiting == 2
    line.release(hold)
    assert done == ["a", "b", "c"] and not line.busy


def test_a_step_that_writes_holds_the_rest_back() -> None:
    line = InOrder()
    done: list[str] = []
    holds = []
    first = line.hold()
    line.run(lambda: holds.append(line.hold()))
    line.run(lambda: done.append("after the second write"))
    line.release(first)
    assert done == [] and len(holds) == 1
    line.release(first)  # released already: changes nothing
    assert done == []
    line.release(holds[0])
    assert done == ["after the second write"]


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
        assert screen.writes.busy is False
    assert rows(demo_db, "SELECT id, struck_at IS NOT NULL FROM roll_log") == [(1, 1)]
