"""Watch a campaign file for writes by another process (issue 14).

One plain ``sqlite3`` connection asks ``PRAGMA data_version`` a few times a
second: SQLite changes that number when any *other* connection commits to
the file (another ka-tui process, or this one's own pooled connections), and
reading it touches no table, so an idle watch costs next to nothing. When it
moves, a few small reads (``fingerprints``) say what changed — the roster,
the house rules, the roll log, a fight, a battle — and ``on_change`` gets the
set of those names (``Change`` values in ``screens/door.py``).

Plain ``sqlite3``; no SQLModel. The thread is a daemon and stops on ``stop()``.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterable, Mapping

# area -> the reads whose rows make its fingerprint (small tables; only read
# after ``data_version`` moved)
_AREAS: Mapping[str, tuple[str, ...]] = {
    "roster": ("SELECT * FROM character", "SELECT * FROM skill", "SELECT * FROM weapon",
               "SELECT * FROM aircraft", "SELECT * FROM aircraft_crew"),
    "house_rules": ("SELECT house_rules FROM campaign",),
    "rolls": ("SELECT count(*), max(id) FROM roll_log",),
    "fight": ("SELECT id, status FROM fight",
              ("SELECT count(*), max(id), total(length(payload)), max(created_at) "
               "FROM fight_event")),
    "battle": ("SELECT id, status FROM battle",
               ("SELECT count(*), max(id), total(length(payload)), max(created_at) "
                "FROM battle_event")),
    # the table server: seats, ways in, who is connected (store/table_seats.py)
    "table": ("SELECT id, revoked_at FROM player_key",
              "SELECT id, revoked_at, used_at FROM player_pass",
              "SELECT id, ended_at, drop_asked FROM table_connection WHERE ended_at IS NULL",
              "SELECT * FROM table_server"),
}

DEFAULT_INTERVAL = 0.25  # seconds between two looks: a change shows within ~0.3 s


def fingerprints(con: sqlite3.Connection, areas: Iterable[str] | None = None) -> dict[str, int]:
    """A hash per area of what the file holds now (one read transaction)."""
    out: dict[str, int] = {}
    con.execute("BEGIN")
    try:
        for area in (_AREAS if areas is None else [a for a in areas if a in _AREAS]):
            reads = _AREAS[area]
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
    """Calls ``on_change(areas)`` from its own thread after another connection
    commits a change to the campaign (``areas``: names from ``_AREAS``)."""

    def __init__(self, connect: Callable[[], sqlite3.Connection],
                 on_change: Callable[[frozenset[str]], object], *,
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
        self._written: set[str] = {a for a in written if a in _AREAS}
        self._started_seeing = False
        self.polls = 0  # looks taken (benchmarks/propagation.py)

    def written_here(self, area: str) -> None:
        """This process wrote ``area`` and has told its own views already: take
        the file as it is now as seen, so the write does not come back as
        another process's. Called before the views re-read, so a change
        another process makes from now on is still reported."""
        if area not in _AREAS:
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
                if now == version:
                    continue
                version = now
                self._look(con)
        except sqlite3.Error:
            return  # the file went away (closed, restored): stop watching quietly
        finally:
            con.close()

    def _look(self, con: sqlite3.Connection) -> None:
        prints = fingerprints(con)
        with self._lock:
            changed = frozenset(a for a, h in prints.items() if self._seen.get(a) != h)
            self._seen = prints
        if changed:
            self._on_change(changed)
