"""Typing speed never changes the result: play one key script twice, on
fresh copies of the same campaign file, and compare.

- **slowly**: after every key the app settles (its workers done, idle), as
  the Pilot tests type;
- **at full speed**: every key of the script posted to the app at once, as
  one input burst (a fast typist, or an SSH link that delivers a line of
  keys in one read): no key waits for the one before it, nor for a save.

Both runs must leave the same rows in the tables the script names and the
same text on the screen. A mode plugs in with a ``KeyScript``: how to make
its app for a campaign file (its dice), what to do first at the same pace in
both runs (open the mode, start a fight), the keys, the tables to compare,
and when the app has nothing left to do.
"""

from __future__ import annotations

import shutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.worker import WorkerCancelled, WorkerFailed

from ka_tui.textual_compat.compositor import screen_lines
from ka_tui.widgets.key_gate import KeysInOrder
from tests.ui.pilot_helpers import SIZE, rows

# the character a terminal sends for the named keys the scripts use
CHARACTERS = {"enter": "\r", "space": " ", "tab": "\t", "escape": "\x1b",
              "backspace": "\x7f", "plus": "+", "minus": "-", "comma": ",",
              "semicolon": ";", "question_mark": "?", "full_stop": "."}
NAMES = {" ": "space", "+": "plus", "-": "minus", ",": "comma", ";": "semicolon",
         "?": "question_mark", ".": "full_stop"}


def key_event(key: str) -> events.Key:
    """The ``Key`` a terminal's byte(s) for ``key`` become (a name or a character)."""
    key = NAMES.get(key, key)
    character = CHARACTERS.get(key, key if len(key) == 1 else None)
    return events.Key(key, character)


def typed(text: str) -> tuple[str, ...]:
    """``"8 8 2"`` as the keys that type it."""
    return tuple(NAMES.get(c, c) for c in text)


@dataclass(frozen=True)
class KeyScript:
    """One script of keys for one mode (see the module doc)."""

    name: str
    keys: tuple[str, ...]
    make_app: Callable[[Path], App[Any]]
    prepare: Callable[[Pilot[Any]], Awaitable[None]]
    tables: tuple[str, ...]
    idle: Callable[[App[Any]], bool] = lambda app: True
    size: tuple[int, int] = SIZE


@dataclass
class Played:
    """What one run left: the rows of each table, and the screen's text."""

    tables: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)
    screen: str = ""
    app: App[Any] | None = None


def screen_text(app: App[Any]) -> str:
    """The text on the terminal now, line by line (what a player reads)."""
    return "\n".join(line.rstrip() for line in screen_lines(app)).rstrip("\n")


async def _workers_done(app: App[Any]) -> None:
    """Every worker finished (a read cancelled by a newer one of its group too)."""
    for worker in list(app.workers):
        try:
            await worker.wait()
        except (WorkerCancelled, WorkerFailed):
            pass


def keys_waiting(app: App[Any]) -> bool:
    """The app's key gate still has keys to hand out, or holds them."""
    gate = app.key_gate if isinstance(app, KeysInOrder) else None
    return gate is not None and gate.busy


async def settle_all(pilot: Pilot[Any], idle: Callable[[App[Any]], bool],
                     rounds: int = 200) -> None:
    """Until no worker runs, no key waits, ``idle`` holds and the app is idle
    twice in a row (held keys may start more saves, each with its own worker)."""
    quiet = 0
    for _ in range(rounds):
        await pilot.pause()
        await _workers_done(pilot.app)
        await pilot.pause()
        busy = any(not w.is_finished for w in pilot.app.workers) or keys_waiting(pilot.app)
        quiet = quiet + 1 if not busy and idle(pilot.app) else 0
        if quiet >= 2:
            return
    raise AssertionError("the app did not settle")


def burst(app: App[Any], keys: tuple[str, ...]) -> None:
    """Every key posted at once, as the bytes of one read from the terminal."""
    for key in keys:
        event = key_event(key)
        event.set_sender(app)
        app.post_message(event)


async def play(script: KeyScript, db: Path, *, full_speed: bool) -> Played:
    app = script.make_app(db)
    got = Played(app=app)
    async with app.run_test(size=script.size) as pilot:
        await settle_all(pilot, script.idle)
        await script.prepare(pilot)
        await settle_all(pilot, script.idle)
        if full_speed:
            burst(app, script.keys)
        else:
            for key in script.keys:
                await pilot.press(key)
                await settle_all(pilot, script.idle)
        await settle_all(pilot, script.idle)
        app.clear_notifications()
        await settle_all(pilot, script.idle)
        got.screen = screen_text(app)
    got.tables = {sql: rows(db, sql) for sql in script.tables}
    return got


async def same_at_any_speed(script: KeyScript, campaign: Path, folder: Path) -> Played:
    """Play ``script`` slowly and at full speed on two copies of ``campaign``;
    assert both left the same tables and screen; return the slow run's."""
    slow_db, fast_db = folder / f"{script.name}-slow.db", folder / f"{script.name}-fast.db"
    shutil.copyfile(campaign, slow_db)
    shutil.copyfile(campaign, fast_db)
    slow = await play(script, slow_db, full_speed=False)
    fast = await play(script, fast_db, full_speed=True)
    for sql in script.tables:
        assert fast.tables[sql] == slow.tables[sql], _difference(
            f"{script.name}: {sql}", slow.tables[sql], fast.tables[sql])
    assert fast.screen == slow.screen, (
        f"{script.name}: the screen differs\n--- slowly:\n{slow.screen}\n"
        f"--- at full speed:\n{fast.screen}")
    return slow


def _difference(what: str, slow: list[tuple[Any, ...]], fast: list[tuple[Any, ...]]) -> str:
    """The first row where the runs part (cut to a line), and how many rows each left."""
    at = next((i for i, (x, y) in enumerate(zip(slow, fast)) if x != y), min(len(slow),
                                                                             len(fast)))
    def cut(rows: list[tuple[Any, ...]]) -> str:
        return repr(rows[at])[:160] if at < len(rows) else "(none)"

    return (f"{what}\n{len(slow)} rows slowly, {len(fast)} at full speed; row {at}:\n"
            f"  slowly:        {cut(slow)}\n  at full speed: {cut(fast)}")
