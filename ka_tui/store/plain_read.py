"""The store's one way to read by plain SQL, without SQLModel.

``CampaignDB.plain_read()`` gives a ``PlainRead``: one consistent snapshot
whose ``execute(sql, params)`` answers like a ``sqlite3`` connection's (a
``PlainResult``: ``fetchall()``, ``fetchone()``, iteration, and ``dicts()``
for rows as ``{column: value}``)::

    with db.plain_read() as read:
        day = read.execute("SELECT day FROM campaign_day WHERE id = 1").fetchone()
        people = read.execute("SELECT * FROM character").dicts()

Outside a ``batch()`` it is one read transaction on a plain ``sqlite3``
connection (the first frames of the roster, the campaign mode and a player's
screen load no SQLAlchemy, about 0.3 s to import). Inside this thread's
``batch()`` it reads the batch's own transaction, so a write's checks see the
rows the write is about to change, and its earlier writes. Every failure is a
``StoreError`` naming the file: ``cannot read /path/c.db: …``.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ka_tui.store.errors import StoreError

if TYPE_CHECKING:
    from sqlmodel import Session

# (sql, params) -> (column names, rows)
Run = Callable[[str, tuple[Any, ...]], tuple[list[str], list[tuple[Any, ...]]]]


class PlainResult:
    """The rows one ``execute`` read (all of them, already fetched)."""

    def __init__(self, names: list[str], rows: list[tuple[Any, ...]]) -> None:
        self.names = names
        self._rows = rows

    def fetchall(self) -> list[tuple[Any, ...]]:
        return list(self._rows)

    def fetchone(self) -> tuple[Any, ...] | None:
        return self._rows[0] if self._rows else None

    def dicts(self) -> list[dict[str, Any]]:
        """Each row as ``{column: value}`` (in the order of the columns)."""
        return [dict(zip(self.names, row)) for row in self._rows]

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self._rows)


class PlainRead:
    """One read snapshot by plain SQL (see the module's docstring)."""

    def __init__(self, run: Run, path: Path | None) -> None:
        self._run = run
        self.path = path

    def execute(self, sql: str, params: Sequence[Any] = ()) -> PlainResult:
        return PlainResult(*self._run(sql, tuple(params)))

    @classmethod
    def on_connection(cls, con: sqlite3.Connection, path: Path | None) -> PlainRead:
        """Reads on a ``sqlite3`` connection (inside the transaction it holds)."""
        def run(sql: str, params: tuple[Any, ...]) -> tuple[list[str], list[tuple[Any, ...]]]:
            try:
                cur = con.execute(sql, params)
                return [d[0] for d in cur.description or ()], cur.fetchall()
            except sqlite3.Error as e:
                raise read_failure(path, e) from None
        return cls(run, path)

    @classmethod
    def on_session(cls, session: Session, path: Path | None = None) -> PlainRead:
        """Reads on a SQLModel session's own connection (its transaction): the
        checks of a write, inside the write."""
        from sqlalchemy.exc import DBAPIError

        def run(sql: str, params: tuple[Any, ...]) -> tuple[list[str], list[tuple[Any, ...]]]:
            try:
                result = session.connection().exec_driver_sql(sql, params)
                if not result.returns_rows:
                    return [], []
                return list(result.keys()), [tuple(r) for r in result.all()]
            except DBAPIError as e:
                raise read_failure(path, e.orig if e.orig is not None else e) from None
        return cls(run, path)


def read_failure(path: Path | None, error: BaseException) -> StoreError:
    """A failed read, said for the GM: a damaged file, a full disk, else SQLite's words."""
    from ka_tui.store.files import no_room

    where = path or "the campaign file"
    damaged = damage_of(error)
    if damaged is not None:
        return StoreError(f"cannot read {where}: {damaged}")
    if path is not None and isinstance(error, sqlite3.OperationalError) and (
            "disk I/O error" in str(error) or "unable to open" in str(error)):
        room = no_room(path)
        if room is not None:
            from ka_tui.store.errors import NoRoom

            return NoRoom(f"cannot read {where}: {room}; free some space and try again.")
    return StoreError(f"cannot read {where}: {error}")


_UNDECODABLE = re.compile(r"Could not decode to UTF-8 column '([^']*)'")


def damage_of(e: BaseException) -> str | None:
    """How a failed read says the file is damaged (a page SQLite finds
    malformed, a text value that is not UTF-8), for the GM; else None."""
    if m := _UNDECODABLE.search(str(e)):
        return (f"the campaign file is damaged (a {m.group(1)} value is not UTF-8 text; "
                "ka-tui backups lists the backups to restore)")
    name = getattr(e, "sqlite_errorname", "")
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return (f"the campaign file is damaged ({e}; ka-tui backups lists the backups "
                "to restore)")
    return None
