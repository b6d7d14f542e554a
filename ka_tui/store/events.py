"""The one event log of the store: every sequence of events a campaign keeps
(close-combat fights, air battles, the campaign's journal) goes through
these functions (DESIGN.md "Fights and battles as a log of events")::

    head = new_log(db, LogKind.FIGHT, "Hangar brawl")
    log = LogRef.fight(head.id)
    stored = append(db, log, LogEvent("fight_started", payload), expect_seq=0)
    done = events(db, log)                       # oldest first, one read
    gone = drop_where(db, log, expect_seq, first_to_drop)   # undo, in one transaction
    set_status(db, log, "ended")

A log is a head row (name, status) and its events ``(seq, kind, payload)``,
``seq`` = 1, 2, … with no gap. Events are never edited (a trigger refuses
UPDATE); undo drops the newest ones. Each write is one ``BEGIN IMMEDIATE``
transaction that first re-reads the end of the log, so:

- ``expect_seq`` (the last ``seq`` the writer saw; 0 for an empty log) must
  still be the end of the log, else ``StaleLog``: two windows can no longer
  both write after the same state;
- the log's own rules (``rules/cqc/log.py`` for fights) must accept the event
  on the state replayed from the log as it is now, else ``EventRefused``
  (a battle that recorded no house rules replays under the campaign's:
  ``rows_to_rules.battle_fallback``).

``expect_seq=None`` appends at the end whatever it is (demo, import, tests).

Storage: each kind keeps its own table pair of the same shape (``fight`` /
``fight_event``, ``battle`` / ``battle_event``, schema v2), named in
``_TABLES``; a new kind is one table pair in a migration and one ``LogKind``.
Plain SQL (the session's connection when writing, ``db.plain_read`` when
reading): this module imports no SQLModel, and reading a log loads none.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

from ka_tui.store.errors import NotFound, StoreError, ValidationError

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB
    from ka_tui.store.plain_read import PlainRead


class LogKind(StrEnum):
    FIGHT = "fight"
    BATTLE = "battle"
    JOURNAL = "journal"   # the campaign's journal (store/journal.py)


# kind -> (head table, event table, the event's link column)
_TABLES: Final[Mapping[LogKind, tuple[str, str, str]]] = {
    LogKind.FIGHT: ("fight", "fight_event", "fight_id"),
    LogKind.BATTLE: ("battle", "battle_event", "battle_id"),
    LogKind.JOURNAL: ("journal", "journal_event", "journal_id"),
}


@dataclass(frozen=True)
class LogRef:
    """Which log: its kind and the id of its head row."""

    kind: LogKind
    id: int

    @classmethod
    def fight(cls, fight_id: int) -> LogRef:
        return cls(LogKind.FIGHT, int(fight_id))

    @classmethod
    def battle(cls, battle_id: int) -> LogRef:
        return cls(LogKind.BATTLE, int(battle_id))


@dataclass(frozen=True)
class LogHead:
    """A log's head row."""

    id: int
    name: str
    status: str = "open"
    created_at: str | None = None


@dataclass(frozen=True)
class LogEvent:
    """One event: ``kind`` and ``payload`` (JSON-able); ``seq`` and
    ``created_at`` are set by the store on append (0 / None before)."""

    kind: str
    payload: Any = None
    seq: int = 0
    created_at: str | None = None


class StaleLog(StoreError):
    """The log moved on since the writer read it: nothing was written."""

    def __init__(self, log: LogRef, expected: int, now: int) -> None:
        # ``now`` counts the log's events, not a step the user sees: a screen
        # says where the log now is in its own terms (``at``)
        super().__init__(f"Another window changed this {log.kind.value} first; "
                         "the screen has been reloaded.")
        self.log = log
        self.expected = expected
        self.now = now

    def at(self, where: str) -> str:
        """The message with where the log now is, as its screen names it
        (``"round 2, step 3"``)."""
        return (f"Another window changed this {self.log.kind.value} (now {where}); "
                "the screen has been reloaded.")


class EventRefused(StoreError):
    """The log's rules refuse the event on its current state: nothing was written."""

    def __init__(self, log: LogRef, reason: str) -> None:
        super().__init__(f"Refused: {reason}. The {log.kind.value} was not changed; "
                         "the screen has been reloaded.")
        self.log = log
        self.reason = reason


# Returns why the event cannot follow ``done`` (the log as it is), or None;
# ``read`` reads the campaign inside the write's transaction.
Accept = Callable[[Sequence[LogEvent], LogEvent, "PlainRead"], "str | None"]


def _accept_fight(done: Sequence[LogEvent], event: LogEvent, read: PlainRead) -> str | None:
    """S0 §Close combat through ``rules/cqc/log.py``: the log so far must replay
    and take the event (order of the steps, one card per fighter and round,
    the faces fit)."""
    from ka_tui.rules.cqc import log as cqc_log
    from ka_tui.store.rows_to_rules import fight_items

    items = fight_items(done)
    progress, broken = cqc_log.replay_prefix(items) if items else (None, None)
    if broken is not None:
        return (f"this fight's log does not replay from {_where(done, broken.index)} "
                f"({broken.detail}); undo back to before it first")
    try:
        cqc_log.apply(progress, event.kind, event.payload, index=len(done))
    except cqc_log.FightLogError as e:
        return e.detail
    return None


def _accept_battle(done: Sequence[LogEvent], event: LogEvent, read: PlainRead) -> str | None:
    """R-1 battle log: begins with ``battle_started``, only once (the GM's
    steps are checked by ``rules/air/battle.py`` as they are played); a
    player's ``plan_sent`` is checked on the full replay (``rules/air/plans.py``:
    the turn running, his aircraft not moved, the plan legal), under the
    rules the GM's screen replays it with (``rows_to_rules.battle_fallback``
    for a log that recorded none)."""
    from ka_tui.rules.air.battle import BattleEventKind, accept_kind

    why = accept_kind([e.kind for e in done], event.kind)
    if why is None and event.kind == BattleEventKind.PLAN:
        from ka_tui.rules.air.plans import accept_plan
        from ka_tui.store.campaign import stored_rules
        from ka_tui.store.rows_to_rules import battle_events, battle_fallback

        payload = event.payload if isinstance(event.payload, dict) else {}
        why = accept_plan(battle_events(done), payload.get("data", {}),
                          battle_fallback(stored_rules(read)))
    return why


def _where(done: Sequence[LogEvent], index: int | None) -> str:
    if index is None or index >= len(done):
        return "its start"
    e = done[index]
    return f"event {e.seq} ({e.kind})"


def _accept_journal(done: Sequence[LogEvent], event: LogEvent, read: PlainRead) -> str | None:
    """A journal entry: a known kind and a day, a text and its links
    (``rules/campaign/journal.py``)."""
    from ka_tui.rules.campaign.journal import entry_problem

    return entry_problem(event.kind, event.payload)


ACCEPT: Final[Mapping[LogKind, Accept]] = {LogKind.FIGHT: _accept_fight,
                                           LogKind.BATTLE: _accept_battle,
                                           LogKind.JOURNAL: _accept_journal}


# --------------------------------------------------------------- plumbing

def _sql(s: Any, sql: str, params: tuple[Any, ...] = ()) -> Any:
    return s.connection().exec_driver_sql(sql, params)


def _dumps(value: Any, field: str) -> str:
    try:
        return json.dumps(value, sort_keys=True)
    except (TypeError, ValueError) as e:
        raise ValidationError(field, f"cannot be stored as JSON ({e})") from None


def _need_head(s: Any, log: LogRef) -> None:
    head, _, _ = _TABLES[log.kind]
    if _sql(s, f"SELECT 1 FROM {head} WHERE id = ?", (log.id,)).first() is None:
        raise NotFound(f"no {log.kind.value} with id {log.id} in this campaign")


def _session_read(db: CampaignDB, s: Any) -> PlainRead:
    """Reads inside a write transaction (its session), by plain SQL."""
    from ka_tui.store.plain_read import PlainRead

    return PlainRead.on_session(s, db.path)


def _last(read: PlainRead, log: LogRef) -> int:
    _, table, link = _TABLES[log.kind]
    [row] = read.execute(f"SELECT max(seq) FROM {table} WHERE {link} = ?", (log.id,))
    return int(row[0] or 0)


def _read(read: PlainRead, log: LogRef, from_seq: int = 1) -> list[LogEvent]:
    _, table, link = _TABLES[log.kind]
    found = read.execute(f"SELECT seq, kind, payload, created_at FROM {table} "
                         f"WHERE {link} = ? AND seq >= ? ORDER BY seq", (log.id, from_seq))
    return [LogEvent(str(k), json.loads(p), int(q), c) for q, k, p, c in found]


def _check_end(db: CampaignDB, s: Any, log: LogRef, expect_seq: int | None) -> int:
    last = _last(_session_read(db, s), log)
    if expect_seq is not None and int(expect_seq) != last:
        raise StaleLog(log, int(expect_seq), last)
    return last


# ------------------------------------------------------------------ heads

def new_log(db: CampaignDB, kind: LogKind, name: str, *, at: str | None = None) -> LogHead:
    """A new, empty, open log. ``at``: a fixed ``created_at`` instead of the
    clock (the demo campaign, which holds no clock value)."""
    name = name.strip()
    if not name:
        raise ValidationError("name", "a name is required")
    head, _, _ = _TABLES[kind]
    with db.transaction() as s:
        if at is None:
            new_id = _sql(s, f"INSERT INTO {head} (name) VALUES (?)", (name,)).lastrowid
        else:
            new_id = _sql(s, f"INSERT INTO {head} (name, created_at) VALUES (?, ?)",
                          (name, at)).lastrowid
        row = _sql(s, f"SELECT id, name, status, created_at FROM {head} WHERE id = ?",
                   (new_id,)).one()
    return LogHead(int(row[0]), str(row[1]), str(row[2]), row[3])


def heads(db: CampaignDB, kind: LogKind) -> list[LogHead]:
    """Every log of a kind, oldest first."""
    head, _, _ = _TABLES[kind]
    with db.plain_read() as read:
        found = read.execute(f"SELECT id, name, status, created_at FROM {head} ORDER BY id")
    return [LogHead(int(i), str(n), str(st), c) for i, n, st, c in found]


def set_status(db: CampaignDB, log: LogRef, status: str) -> LogHead:
    head, _, _ = _TABLES[log.kind]
    with db.transaction() as s:
        _need_head(s, log)
        _sql(s, f"UPDATE {head} SET status = ? WHERE id = ?", (status, log.id))
        row = _sql(s, f"SELECT id, name, status, created_at FROM {head} WHERE id = ?",
                   (log.id,)).one()
    return LogHead(int(row[0]), str(row[1]), str(row[2]), row[3])


# ----------------------------------------------------------------- events

def append(db: CampaignDB, log: LogRef, event: LogEvent, expect_seq: int | None, *,
           checked: bool = True, at: str | None = None) -> LogEvent:
    """Append one event at ``expect_seq + 1``, in one write transaction.

    Inside the transaction: ``NotFound`` without the head row, ``StaleLog``
    when ``expect_seq`` is no longer the last ``seq``, ``EventRefused`` when the
    log's rules (``ACCEPT``) refuse it. ``checked=False`` skips only the
    rules (raw tools and store tests of the plumbing); ``at`` a fixed
    ``created_at`` (the demo). Returns the event as stored (with ``seq``)."""
    if not event.kind.strip():
        raise ValidationError("kind", "an event needs a kind")
    text = _dumps(event.payload, "payload")
    payload = json.loads(text)  # what a later replay will read
    _, table, link = _TABLES[log.kind]
    with db.transaction() as s:  # BEGIN IMMEDIATE: no other writer between read and write
        _need_head(s, log)
        last = _check_end(db, s, log, expect_seq)
        if checked:
            read = _session_read(db, s)
            why = ACCEPT[log.kind](_read(read, log), LogEvent(event.kind, payload), read)
            if why is not None:
                raise EventRefused(log, why)
        if at is None:
            _sql(s, f"INSERT INTO {table} ({link}, seq, kind, payload) VALUES (?, ?, ?, ?)",
                 (log.id, last + 1, str(event.kind), text))
        else:
            _sql(s, f"INSERT INTO {table} ({link}, seq, kind, payload, created_at) "
                    "VALUES (?, ?, ?, ?, ?)", (log.id, last + 1, str(event.kind), text, at))
        row = _sql(s, f"SELECT created_at FROM {table} WHERE {link} = ? AND seq = ?",
                   (log.id, last + 1)).one()
    return LogEvent(str(event.kind), payload, last + 1, row[0])


def events(db: CampaignDB, log: LogRef) -> list[LogEvent]:
    """The log's events in order (one read)."""
    with db.plain_read() as read:
        return _read(read, log)


def first_event(db: CampaignDB, log: LogRef) -> LogEvent | None:
    """The log's first event (its start), None for an empty log (one read of
    one row: who takes part, without parsing the rest of a long log)."""
    _, table, link = _TABLES[log.kind]
    with db.plain_read() as read:
        found = read.execute(f"SELECT seq, kind, payload, created_at FROM {table} "
                             f"WHERE {link} = ? ORDER BY seq LIMIT 1", (log.id,)).fetchall()
    return next((LogEvent(str(k), json.loads(p), int(q), c) for q, k, p, c in found), None)


def last_seq(db: CampaignDB, log: LogRef) -> int:
    """The ``seq`` of the newest event (0 for an empty log)."""
    with db.plain_read() as read:
        return _last(read, log)


def drop_from(db: CampaignDB, log: LogRef, seq: int, expect_seq: int | None) -> list[LogEvent]:
    """Undo: drop every event from ``seq`` on, in one transaction (``StaleLog``
    as for ``append``). Returns the dropped events, oldest first."""
    _, table, link = _TABLES[log.kind]
    with db.transaction() as s:
        _check_end(db, s, log, expect_seq)
        gone = _read(_session_read(db, s), log, int(seq))
        _sql(s, f"DELETE FROM {table} WHERE {link} = ? AND seq >= ?", (log.id, int(seq)))
    return gone


def drop_where(db: CampaignDB, log: LogRef, expect_seq: int | None,
               first: Callable[[Sequence[LogEvent]], int | None]) -> list[LogEvent]:
    """Undo decided on the log as it is inside the transaction: ``first(events)``
    names the first ``seq`` to drop (None: nothing). Returns the dropped events."""
    _, table, link = _TABLES[log.kind]
    with db.transaction() as s:
        _check_end(db, s, log, expect_seq)
        done = _read(_session_read(db, s), log)
        seq = first(done)
        if seq is None:
            return []
        _sql(s, f"DELETE FROM {table} WHERE {link} = ? AND seq >= ?", (log.id, int(seq)))
    return [e for e in done if e.seq >= seq]


def undo(db: CampaignDB, log: LogRef, expect_seq: int | None = None) -> LogEvent | None:
    """Drop the newest event (returned), or None when the log is empty."""
    gone = drop_where(db, log, expect_seq, lambda done: done[-1].seq if done else None)
    return gone[-1] if gone else None
