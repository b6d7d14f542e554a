"""The persistent roll log: every dice roll the roller makes, newest first.

One row per roll (the ``roll_log`` table, migration v2): who rolled, what for,
the pool text, the faces as ``[[sides, face], …]`` in the order they were
drawn (so a roll can be replayed with ``ScriptedDice``), a one-line result,
the explanation lines, and the time (UTC, ISO 8601). ``append_roll`` is one
transaction; the time comes from the caller's clock so tests can fix it.

The writes import SQLModel inside the functions, the reads are plain SQL:
call them from a worker thread.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

DEFAULT_LIMIT = 500
_COLUMNS = ("id, who, what, pool, faces, result, explanation, created_at, struck_at, "
            "struck_by")
_SEARCHED = ("who", "what", "pool", "result")  # the columns the log's filter looks in
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


@dataclass(frozen=True)
class RollEntry:
    """A roll to log. ``faces``: (sides, face) pairs in the order drawn."""

    who: str
    what: str
    pool: str
    faces: tuple[tuple[int, int], ...]
    result: str
    explanation: tuple[str, ...] = ()


@dataclass(frozen=True)
class LoggedRoll:
    """A row of the roll log as the screens see it."""

    id: int
    who: str
    what: str
    pool: str
    faces: tuple[tuple[int, int], ...]
    result: str
    explanation: tuple[str, ...]
    created_at: str  # UTC, e.g. 2026-11-30T12:04:05Z
    struck_at: str | None = None  # a struck roll stays in the log: when, UTC
    struck_by: str = ""

    @property
    def struck(self) -> bool:
        return self.struck_at is not None

    @property
    def time(self) -> datetime:
        return datetime.fromisoformat(self.created_at.replace("Z", "+00:00"))

    @property
    def faces_text(self) -> str:
        """The faces as typed at the table: ``3 7 10 12``."""
        return " ".join(str(face) for _, face in self.faces)


def utc_stamp(moment: datetime) -> str:
    """``moment`` as the log stores it (naive datetimes are taken as UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).strftime(_TIME_FORMAT)


def append_roll(db: CampaignDB, entry: RollEntry, *, at: datetime | None = None) -> LoggedRoll:
    """Write ``entry`` in one transaction and return the stored row.

    ``at`` (default: now) is the roll's time; the database default is not used
    so that tests and replays can give their own clock.
    """
    from ka_tui.store.models import RollLogRow

    row = RollLogRow(
        who=entry.who, what=entry.what, pool=entry.pool,
        faces=json.dumps([list(pair) for pair in entry.faces]),
        result=entry.result, explanation=json.dumps(list(entry.explanation)),
        created_at=utc_stamp(at or datetime.now(timezone.utc)))
    with db.transaction() as s:
        s.add(row)
        s.flush()
        s.refresh(row)
    return _logged(row.model_dump())


def strike_roll(db: CampaignDB, roll_id: int, *, by: str, at: datetime | None = None,
                undo: bool = False) -> LoggedRoll:
    """Mark roll ``roll_id`` struck (a mistaken roll: kept in the log, marked,
    with who and when), or standing again with ``undo``. One transaction;
    ``StoreError`` if there is no such roll."""
    from ka_tui.store.errors import StoreError
    from ka_tui.store.models import RollLogRow

    with db.transaction() as s:
        row = s.get(RollLogRow, roll_id)
        if row is None:
            raise StoreError(f"roll #{roll_id} is not in the log (deleted elsewhere?)")
        row.struck_at = None if undo else utc_stamp(at or datetime.now(timezone.utc))
        row.struck_by = "" if undo else by[:60]
        s.add(row)
        s.flush()
        s.refresh(row)
    return _logged(row.model_dump())


def last_standing_roll(db: CampaignDB) -> LoggedRoll | None:
    """The newest roll not struck (what "undo the last roll" strikes)."""
    with db.plain_read() as read:
        rows = read.execute(f"SELECT {_COLUMNS} FROM roll_log WHERE struck_at IS NULL "
                            "ORDER BY id DESC LIMIT 1").dicts()
    return _logged(rows[0]) if rows else None


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _where(text: str) -> tuple[str, list[str]]:
    """A WHERE clause (and its parameters) for the rows whose who, what, pool
    or result contain every word of ``text``, in any case."""
    clauses: list[str] = []
    params: list[str] = []
    for word in text.split():
        clauses.append("(" + " OR ".join(f"lower({c}) LIKE lower(?) ESCAPE '\\'"
                                          for c in _SEARCHED) + ")")
        params += [_like(word)] * len(_SEARCHED)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


def query_rolls(db: CampaignDB, text: str = "", *, limit: int = DEFAULT_LIMIT
                ) -> list[LoggedRoll]:
    """The newest ``limit`` rolls matching ``text`` (case-insensitive words),
    newest first. Plain SQL: the roller's first visit imports no SQLModel."""
    where, params = _where(text)
    with db.plain_read() as read:
        rows = read.execute(f"SELECT {_COLUMNS} FROM roll_log{where} ORDER BY id DESC LIMIT ?",
                            (*params, limit)).dicts()
    return [_logged(row) for row in rows]


def count_rolls(db: CampaignDB, text: str = "") -> int:
    """How many rolls match ``text`` (all of them for an empty filter)."""
    where, params = _where(text)
    with db.plain_read() as read:
        found = read.execute(f"SELECT count(*) FROM roll_log{where}", params).fetchone()
    return int(found[0]) if found is not None else 0


def _pairs(raw: Sequence[Any]) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for item in raw:
        if isinstance(item, list) and len(item) == 2:
            out.append((int(item[0]), int(item[1])))
        elif isinstance(item, int):
            out.append((0, item))  # a bare face (sides unknown), e.g. from another writer
    return tuple(out)


def _logged(row: Mapping[str, Any]) -> LoggedRoll:
    """A ``roll_log`` row (its columns by name) as a logged roll."""
    return LoggedRoll(
        id=int(row["id"]), who=row["who"], what=row["what"], pool=row["pool"],
        faces=_pairs(json.loads(row["faces"] or "[]")), result=row["result"],
        explanation=tuple(str(x) for x in json.loads(row["explanation"] or "[]")),
        created_at=str(row["created_at"]), struck_at=row["struck_at"],
        struck_by=row["struck_by"] or "")
