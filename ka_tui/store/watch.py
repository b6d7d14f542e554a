"""Watch a campaign file for writes by another process (live views).

One plain ``sqlite3`` connection asks ``PRAGMA data_version`` a few times a
second: SQLite changes that number when any *other* connection commits to
the file (another ka-tui process, or this one's own pooled connections), and
reading it touches no table, so an idle watch costs next to nothing. When it
moves, a few small reads (``fingerprints``, the reads of ``store/changes.py``'s
``WATCHED``) say what changed — the roster, the house rules, the roll log, a
fight, a battle, the campaign's missions, date, repairs and journal — and
``on_change`` gets the set of those ``Change`` members.

Plain ``sqlite3``; no SQLModel. The thread is a daemon and stops on ``stop()``.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterable, Mapping

from ka_tui.store.changes import WATCHED, Change

DEFAULT_INTERVAL = 0.25  # seconds between two looks: a change shows within ~0.3 s


def _known(areas: Iterable[str]) -> list[Change]:
    """The ``Change`` members named in ``areas`` (names no change has: dropped)."""
    return [Change(a) for a in areas if a in WATCHED]


def fingerprints(con: sqlite3.Connection, areas: Iterable[str] | None = None) -> dict[str, int]:
    """A hash per change (``Change`` keys) of what the file holds now (one read
    transaction); ``areas``: only these changes."""
    out: dict[str, int] = {}
    con.execute("BEGIN")
    try:
        for area in (list(WATCHED) if areas is None else _known(areas)):
            reads = WATCHED[area]
            rows: list[object] = []
            for sql in reads:
                try:
                    rows.append(tuple(con.execute(sql).fetchall()))
                except sqlite3.OperationalError:  # an older schema lacks the table
                    rows.append(None)
            out[area] = hash(tuple(rows))
    finally:
        con.execute("COMMIT")
    return out


class CampaignWatcher:
    """Calls ``on_change(changes)`` from its own thread after another connection
    commits to the campaign (``changes``: the ``Change`` members it touched)."""

    def __init__(self, connect: Callable[[], sqlite3.Connection],
                 on_change: Callable[[frozenset[Change]], object], *,
                 interval: float = DEFAULT_INTERVAL,
                 baseline: Callable[[], Mapping[str, int] | None] | None = None,
                 written: Iterable[str] = ()) -> None:
        """``baseline``: the fingerprints the views were read with (called in the
        watch thread, may wait for them); a difference from them at the start
        is reported like any later change. Without it the file as it is when
        the watch starts is taken as seen. ``written``: areas this process
        wrote since that read (``written_here`` before the watch began)."""
        self._connect = connect
        self._baseline = baseline
        self._on_change = on_change
        self.interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._seen: dict[str, int] = {}
        # areas written here before the baseline was in: taken as seen on top of it
        self._written: set[str] = set(_known(written))
        # areas this process is writing now (``begin_write``): a change seen
        # there waits until the write is done and taken as seen, then is
        # reported only if the file still differs (another's write meanwhile)
        self._writing: dict[str, int] = {}
        self._deferred = False
        self._started_seeing = False
        self.polls = 0  # looks taken (benchmarks/propagation.py)

    def written_here(self, area: str) -> None:
        """This process wrote ``area`` and has told its own views already: take
        the file as it is now as seen, so the write does not come back as
        another process's. Called before the views re-read, so a change
        another process makes from now on is still reported."""
        if area not in WATCHED:
            return
        with self._lock:
            if not self._started_seeing:  # the baseline is not in yet: on top of it
                self._written.add(area)
                return
        try:
            con = self._connect()
        except Exception:  # noqa: BLE001 — at worst the change is reported twice
            return
        try:
            con.isolation_level = None
            now = fingerprints(con, [area])
        except sqlite3.Error:
            return
        finally:
            con.close()
        with self._lock:
            self._seen.update(now)

    def begin_write(self, area: str) -> None:
        """This process is about to write ``area`` (before its transaction)."""
        if area in WATCHED:
            with self._lock:
                self._writing[area] = self._writing.get(area, 0) + 1

    def end_write(self, area: str, *, wrote: bool) -> None:
        """The write begun with ``begin_write`` is over: committed (``wrote``:
        the file as it is now is taken as seen) or not."""
        if area not in WATCHED:
            return
        if wrote:
            self.written_here(area)
        with self._lock:
            left = self._writing.get(area, 0) - 1
            if left > 0:
                self._writing[area] = left
            else:
                self._writing.pop(area, None)

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="ka-watch", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)

    def _run(self) -> None:
        try:
            con = self._connect()
            con.isolation_level = None  # explicit BEGIN/COMMIT in ``fingerprints``
        except Exception:  # noqa: BLE001 — no watching without a file; the app still works
            return
        try:
            version = con.execute("PRAGMA data_version").fetchone()[0]
            base = self._baseline() if self._baseline is not None else None
            with self._lock:
                self._seen = dict(base) if base is not None else fingerprints(con)
                written, self._written = self._written, set()
                self._started_seeing = True
            if written:  # this process's own writes since the read: not another's
                now = fingerprints(con, written)
                with self._lock:
                    self._seen.update(now)
            if base is not None:
                self._look(con)
            while not self._stop.wait(self.interval):
                self.polls += 1
                now = con.execute("PRAGMA data_version").fetchone()[0]
                if now == version and not self._deferred_due():
                    continue
                version = now
                self._look(con)
        except sqlite3.Error:
            return  # the file went away (closed, restored): stop watching quietly
        finally:
            con.close()

    def _deferred_due(self) -> bool:
        """A change held back while this process wrote is ready to be looked at."""
        with self._lock:
            return self._deferred and not self._writing

    def _look(self, con: sqlite3.Connection) -> None:
        prints = fingerprints(con)
        with self._lock:
            moved = {a for a, h in prints.items() if self._seen.get(a) != h}
            held = moved & set(self._writing)  # this process's own write, in flight
            self._deferred = bool(held)
            changed = frozenset(Change(a) for a in moved - held)
            self._seen.update({a: h for a, h in prints.items() if a not in held})
        if changed:
            self._on_change(changed)
