"""Open, create, check and migrate campaign files; the handle screens use.

The handle and its four ways in::

    db = open_campaign(path)                    # checked, migrated, read-only if it must be
    with db.transaction() as s: ...             # one user action (SQLModel session)
    with db.read() as s: ...                    # a SQLModel read snapshot
    with db.plain_read() as read:               # a plain-SQL snapshot, no SQLModel
        rows = read.execute("SELECT …", params).fetchall()
    with db.batch(): ...                        # many calls, ONE transaction
    db = create_campaign(path, name, populate=fill)   # built aside, moved in when done

A campaign is one SQLite file. ``open_campaign`` first reads the file's header
bytes and then a read-only connection, so a file that is not ours (not SQLite,
another app's database, truncated, damaged) or that comes from a newer ka-tui
is refused before a single byte is written. Migrations run on open, after an
online backup (``name.db.bak-v1``). New files are built beside the target and
moved into place only when complete.

Every connection: WAL, ``foreign_keys=ON``, ``busy_timeout``, ``synchronous=FULL``.
A campaign that cannot be written (read-only file, folder or mount, or
``--read-only``) opens read-only: SQLite ``mode=ro``, or ``immutable=1`` when
no ``-wal`` exists (so nothing is created beside it); every write is refused
with ``ReadOnlyCampaign``. Checking a file (``check_file``) never creates a
file beside it. Files are private (``files.protect``: 0600, or 0660 shared).
``CampaignDB.transaction()`` is one user action: ``BEGIN IMMEDIATE`` … commit,
or roll back and raise ``StoreError`` with a message fit for the GM.

SQLAlchemy/SQLModel are imported when a handle is made, not at import time.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ka_tui.store.errors import NoRoom, StoreError, ValidationError
from ka_tui.store.files import (
    DAMAGED,
    fsync_path,
    no_room,
    private_dir,
    protect,
    read_only_reason,
)
from ka_tui.store.file_check import BUSY_TIMEOUT_MS as BUSY_TIMEOUT_MS
from ka_tui.store.file_check import FileCheck as FileCheck
from ka_tui.store.file_check import check_file as check_file
from ka_tui.store.file_check import read_uri as read_uri
from ka_tui.store.limits import NAME_MAX
from ka_tui.store.migrations import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
from ka_tui.store.plain_read import PlainRead, damage_of, read_failure

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine
    from sqlmodel import Session

_SIDE_FILES = ("-wal", "-shm", "-journal")


class ReadOnlyCampaign(StoreError):
    """A write to a campaign opened read-only: one line for the GM."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"Read-only campaign ({reason}): nothing can be changed or "
                         "logged; reading, rolling and export still work.")
        self.path = path
        self.reason = reason


# ---------------------------------------------------------------- creating

def create_campaign(path: Path, name: str, *,
                    populate: Callable[[CampaignDB], None] | None = None,
                    schema: int = SCHEMA_VERSION, shared: bool = False) -> CampaignDB:
    """Make a new campaign file at ``path`` (which must not exist) and open it.

    The file is built under a temporary name in the same folder, filled by
    ``populate`` (e.g. the demo), and only then moved into place, so a failure
    leaves nothing behind. ``schema`` < current is for migration tests.
    ``shared``: group read-write from the start (``--shared-group``).
    """
    path = Path(path)
    if not name.strip():
        raise ValidationError("name", "a campaign needs a name")
    if len(name.strip()) > NAME_MAX:
        raise ValidationError("name", f"a campaign name has at most {NAME_MAX} characters")
    if path.exists():
        raise StoreError(f"{path} already exists; it was not changed.")
    folder = path.parent
    try:
        if not folder.is_dir():
            private_dir(folder, shared=shared)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".new", dir=folder)
    except OSError as e:
        raise StoreError(f"cannot create {path}: {e.strerror}") from None
    os.close(fd)  # mkstemp made it 0600; SQLite builds in it and gives the side files its mode
    tmp = Path(tmp_name)
    try:
        protect(tmp, shared=shared)
        _build(tmp, name.strip(), schema)
        if populate is not None:
            db = CampaignDB(tmp)
            try:
                populate(db)
            finally:
                db.close()
        _publish(tmp, path)
    except BaseException:
        _remove_with_side_files(tmp)
        raise
    return CampaignDB(path)


def _build(path: Path, name: str, schema: int) -> None:
    con = sqlite3.connect(path, isolation_level=None)
    try:
        # A half-built temp file is thrown away, so no fsync per step here;
        # _publish syncs the finished file once before it gets its real name.
        con.execute("PRAGMA synchronous = OFF")
        con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        for version in range(1, schema + 1):
            _apply(con, version)
        # house_rules holds only what the GM changed; defaults come from options.py
        con.execute("INSERT INTO campaign (id, name, house_rules) VALUES (1, ?, '{}')",
                    (name,))
        con.execute("PRAGMA journal_mode = WAL")
    except sqlite3.Error as e:
        raise StoreError(f"cannot create the campaign: {e}") from None
    finally:
        con.close()


def _apply(con: sqlite3.Connection, version: int) -> None:
    """Run migration ``version`` and record it, all in one transaction.

    The version is re-read under the write lock, so a second ka-tui opening
    the same old file at the same moment skips what the first one did.
    """
    con.execute("BEGIN IMMEDIATE")
    try:
        if con.execute("PRAGMA user_version").fetchone()[0] >= version:
            con.execute("ROLLBACK")
            return
        for statement in _statements(MIGRATIONS[version - 1]):
            con.execute(statement)
        con.execute(f"PRAGMA user_version = {version}")
        con.execute("INSERT OR REPLACE INTO ka_meta (key, value) VALUES ('app', 'ka-tui')")
        con.execute("INSERT OR REPLACE INTO ka_meta (key, value) VALUES ('schema_version', ?)",
                    (str(version),))
        con.execute("COMMIT")
    except BaseException:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise


def _statements(script: str) -> list[str]:
    """Split SQL into complete statements (a trigger's BEGIN … END stays whole)."""
    out: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            out.append(pending.strip())
            pending = ""
    if pending.strip():
        raise ValueError(f"incomplete SQL at the end of a migration: {pending.strip()[:60]}")
    return out


def _publish(tmp: Path, path: Path) -> None:
    """Move the finished file into place without replacing one that appeared."""
    _fsync(tmp)
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise StoreError(f"{path} already exists; it was not changed.") from None
    except OSError:
        if path.exists():
            raise StoreError(f"{path} already exists; it was not changed.") from None
        os.replace(tmp, path)
    else:
        tmp.unlink()
    _fsync(path.parent)


def _fsync(path: Path) -> None:
    fsync_path(path)  # some folders/filesystems refuse; best effort


def _remove_with_side_files(path: Path) -> None:
    for p in (path, *(Path(f"{path}{s}") for s in _SIDE_FILES)):
        with contextlib.suppress(OSError):
            p.unlink()


# ----------------------------------------------------------------- opening

def open_campaign(path: Path, *, daily_backup: bool = False,
                  read_only: bool = False) -> CampaignDB:
    """Check ``path``, migrate it to the current schema if needed, and open it
    (read-only when it cannot be written, or asked: ``read_only``).
    Once a day (when the day's backup is due) its pages are checked
    (``backups.check_pages_if_due``): a damaged file opens read-only.
    ``daily_backup``: take the day's automatic backup first
    (``backups.daily_backup``; at most one a day). Opened for writing, what a
    killed backup or restore left is cleared (``backups.clear_leftovers``)."""
    from ka_tui.store import backups

    path = Path(path)
    found = check_file(path)
    if not read_only:
        backups.check_pages_if_due(path)
    reason = read_only_reason(path, asked=read_only)
    if found.version < SCHEMA_VERSION:
        if reason is not None:
            raise StoreError(f"{path} comes from an older ka-tui and must be upgraded, "
                             f"which needs write access ({reason}); it was not changed.")
        migrate(path, found.version)
    if reason is None:
        protect(path)
        backups.clear_leftovers(path)
        if daily_backup:
            backups.daily_backup(path)
    return CampaignDB(path, read_only=reason)


def migrate(path: Path, current: int) -> Path:
    """Back the file up, then run each missing migration; returns the backup path."""
    backup = backup_file(path, f"before-upgrade-from-v{current}")
    con = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        con.execute("PRAGMA foreign_keys = OFF")  # table rebuilds in later migrations
        for version in range(current + 1, SCHEMA_VERSION + 1):
            _apply(con, version)
        bad = con.execute("PRAGMA foreign_key_check").fetchall()
        if bad:
            raise StoreError(f"migration left broken references in {path}: {bad[:3]}; "
                             f"the backup is {backup}")
    except sqlite3.Error as e:
        raise StoreError(f"could not upgrade {path} ({e}); the backup is {backup}") from None
    finally:
        con.close()
    return backup


def backup_file(path: Path, tag: str) -> Path:
    """Back the live database up (SQLite online backup API, checked) before a
    risky step; ``tag`` says why (``before-import``…). See ``backups.py``."""
    from ka_tui.store.backups import take_backup

    return take_backup(path, tag).path


# ------------------------------------------------------------------ handle

class CampaignDB:
    """An open campaign file. Thread-safe: each transaction takes a pooled connection."""

    def __init__(self, path: Path, *, read_only: str | None = None) -> None:
        """``read_only``: why the file cannot be written (None: read-write)."""
        self.path = Path(path)
        self.read_only = read_only
        self._engine: Engine | None = None
        self._local = threading.local()  # the batch session of this thread, if any
        self._engine_lock = threading.Lock()

    @property
    def engine(self) -> Engine:
        with self._engine_lock:
            if self._engine is None:
                self._engine = _make_engine(self.path, self.read_only is not None,
                                            lenient=self.read_only == DAMAGED)
            return self._engine

    def connect(self) -> sqlite3.Connection:
        """A plain ``sqlite3`` connection (no SQLModel) for fast reads; read-only
        URI when the campaign is. The caller closes it."""
        if self.read_only is not None:
            con = sqlite3.connect(read_uri(self.path), uri=True,
                                  timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                                  check_same_thread=False)
            if self.read_only == DAMAGED:
                con.text_factory = lenient_text
            return con
        return sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000,
                               isolation_level=None, check_same_thread=False)

    def refuse_if_read_only(self) -> None:
        if self.read_only is not None:
            raise ReadOnlyCampaign(self.path, self.read_only)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Session]:
        """One user action: ``BEGIN IMMEDIATE``, commit on success, else roll back.

        Database failures become ``StoreError`` (or ``ValidationError`` naming
        the field for a CHECK/UNIQUE failure) and nothing of the action is kept.
        """
        with self._session(write=True) as s:
            yield s

    @contextlib.contextmanager
    def read(self) -> Iterator[Session]:
        """A read-only snapshot (deferred transaction); never blocks writers."""
        with self._session(write=False) as s:
            yield s

    @contextlib.contextmanager
    def plain_read(self) -> Iterator[PlainRead]:
        """The store's one read by plain SQL, without SQLModel (``plain_read.py``):
        a snapshot whose ``execute(sql, params)`` answers like ``sqlite3``'s.
        Inside this thread's ``batch()`` it reads the batch's own transaction
        (its writes included); else one read transaction on a plain ``sqlite3``
        connection. Failures are ``StoreError("cannot read PATH: …")``."""
        outer = getattr(self._local, "session", None)
        if outer is not None:
            yield PlainRead.on_session(outer, self.path)
            return
        try:
            con = self.connect()
        except sqlite3.Error as e:
            raise read_failure(self.path, e) from None
        try:
            con.execute("BEGIN")
            yield PlainRead.on_connection(con, self.path)
        except sqlite3.Error as e:
            raise read_failure(self.path, e) from None
        finally:
            con.close()  # ends the read transaction

    @contextlib.contextmanager
    def batch(self) -> Iterator[Session]:
        """Many service calls as ONE transaction (demo, import): every
        ``transaction()``/``read()`` inside, on this thread, joins it; any
        failure rolls all of it back."""
        if getattr(self._local, "session", None) is not None:
            yield self._local.session
            return
        self.refuse_if_read_only()
        with self._session(write=True) as s:
            self._local.session = s
            try:
                yield s
            finally:
                self._local.session = None

    @contextlib.contextmanager
    def _session(self, *, write: bool) -> Iterator[Session]:
        from sqlalchemy.exc import DBAPIError
        from sqlmodel import Session

        outer = getattr(self._local, "session", None)
        if write and outer is None:
            self.refuse_if_read_only()
        if outer is not None:
            try:
                yield outer
                outer.flush()
            except DBAPIError as e:
                raise translate_error(e.orig if e.orig is not None else e,
                                      path=self.path) from None
            return
        bind = self.engine.execution_options(ka_write=write)
        session = Session(bind, expire_on_commit=False, autoflush=True)
        try:
            yield session
            session.commit()
        except DBAPIError as e:
            session.rollback()
            raise translate_error(e.orig if e.orig is not None else e,
                                  path=self.path, reading=not write) from None
        except BaseException:
            session.rollback()
            raise
        finally:
            session.close()

    def close(self) -> None:
        with self._engine_lock:
            if self._engine is not None:
                self._engine.dispose()
                self._engine = None

    def __enter__(self) -> CampaignDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def lenient_text(raw: bytes) -> str:
    """Text as a file found damaged holds it: bytes that are not UTF-8 shown
    as U+FFFD, so the rows around them can still be read (and exported)."""
    return raw.decode("utf-8", errors="replace")


def _make_engine(path: Path, read_only: bool = False, *, lenient: bool = False) -> Engine:
    from sqlalchemy import create_engine, event

    if read_only:
        uri = read_uri(path)

        def ro() -> sqlite3.Connection:
            con = sqlite3.connect(uri, uri=True, check_same_thread=False,
                                  timeout=BUSY_TIMEOUT_MS / 1000)
            if lenient:
                con.text_factory = lenient_text
            return con

        engine = create_engine("sqlite://", creator=ro)
    else:
        engine = create_engine(f"sqlite:///{path}",
                               connect_args={"check_same_thread": False,
                                             "timeout": BUSY_TIMEOUT_MS / 1000})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_con: sqlite3.Connection, _record: object) -> None:
        dbapi_con.isolation_level = None  # we issue BEGIN ourselves
        pragmas = ["foreign_keys = ON", f"busy_timeout = {BUSY_TIMEOUT_MS}"]
        if not read_only:
            pragmas += ["journal_mode = WAL", "synchronous = FULL"]
        for pragma in pragmas:
            dbapi_con.execute(f"PRAGMA {pragma}")

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        write = conn.get_execution_options().get("ka_write", True)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


_CHECK = re.compile(r"CHECK constraint failed: ([A-Za-z_]+)")
_UNIQUE = re.compile(r"UNIQUE constraint failed: [a-z_]+\.([a-z_]+)(?:, [a-z_]+\.([a-z_]+))?")


def translate_error(e: BaseException, *, path: Path | None = None,
                    reading: bool = False) -> StoreError:
    """A database failure as a message for the GM (field-level where possible);
    ``reading``: it happened in a read (nothing was being written)."""
    text = str(e)
    damaged = damage_of(e)
    if damaged is not None:
        return StoreError(f"cannot read {path or 'the campaign file'}: {damaged}"
                          + ("" if reading else "; nothing was saved."))
    room = _no_room_of(e, path)
    if room is not None:
        return NoRoom(f"{room[0].upper()}{room[1:]}: the last action was not saved."
                      if not reading else f"cannot read {path}: {room}; free some "
                      "space and try again.")
    if reading:
        return read_failure(path, e)
    if "database or disk is full" in text:
        return NoRoom("The disk is full (or the campaign file reached its size "
                      "limit): the last action was not saved.")
    if "database is locked" in text or "database is busy" in text:
        return StoreError("The campaign file is busy in another ka-tui window; "
                          "the last action was not saved — try again.")
    if "readonly" in text or "read-only" in text:
        return StoreError("The campaign file is read-only: the last action was not saved.")
    if m := _UNIQUE.search(text):
        field = m.group(2) or m.group(1)
        if field == "character_id" and m.group(2):
            field = m.group(2)
        return ValidationError(field, "already used; choose another")
    if m := _CHECK.search(text):
        return ValidationError(m.group(1), f"value not allowed ({text.split(': ', 1)[1]})")
    if "FOREIGN KEY constraint failed" in text:
        return StoreError("That refers to something that no longer exists; nothing was saved.")
    if "NOT NULL constraint failed" in text:
        return ValidationError(text.rsplit(".", 1)[-1], "a value is required")
    return StoreError(f"The campaign file could not be written ({text}); nothing was saved.")


def _no_room_of(e: BaseException, path: Path | None) -> str | None:
    """Why there was no room, when a failure is for want of it."""
    name = getattr(e, "sqlite_errorname", "")
    text = str(e)
    if path is None or not (name.startswith(("SQLITE_IOERR", "SQLITE_FULL", "SQLITE_CANTOPEN"))
                            or "disk I/O error" in text or "disk is full" in text):
        return None
    return no_room(path)
