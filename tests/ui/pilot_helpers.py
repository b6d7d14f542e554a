"""Shared Pilot helpers for the UI tests: a real app, a real SQLite file."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

SIZE = (80, 24)


def rows(db: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Read the campaign file directly, as a check of what was written."""
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def commit_sql(db: Path, sql: str, *args: Any) -> None:
    """One commit by a connection of its own (another process's, as far as
    SQLite and the app's watcher know)."""
    con = sqlite3.connect(db)
    try:
        con.execute(sql, args)
        con.commit()
    finally:
        con.close()


async def settle(pilot: Pilot[Any]) -> None:
    """Let workers finish and the screen catch up."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def wait_for(pilot: Pilot[Any], pred: Callable[[], bool], timeout: float = 10) -> None:
    """Poll ``pred``: workers and screen changes take longer under load."""
    for _ in range(int(timeout / 0.05)):
        if pred():
            return
        await pilot.pause(0.05)
    assert pred(), "condition not met in time"


def steady_cursors(app: Any) -> None:
    """No blinking text cursor in snapshots (a blink makes them flaky)."""
    for screen in app.screen_stack:
        for box in screen.query(Input):
            box.cursor_blink = False
