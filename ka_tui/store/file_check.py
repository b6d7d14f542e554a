"""Checking a campaign file without writing a byte (light: plain sqlite3).

``check_file`` reads the SQLite header, then looks through a read-only
connection (``read_uri``: ``immutable=1`` where nothing is to be recovered, so
no ``-wal``/``-shm`` is created beside a refused file): ``PRAGMA quick_check``,
every time. Both the campaign handle (``db.py``) and the backups
(``backups.py``) check files with it.

``page_problem`` is the deeper ``PRAGMA integrity_check`` (an index that lost a
row, a page reached twice: what ``quick_check`` passes), run where it counts
(``backups.check_pages``: on open once a day, before a backup or a restore)
and remembered for the file as it is (``files.note_pages``), so a file found
damaged opens read-only (``files.read_only_reason``) until it is replaced.
"""

from __future__ import annotations

import sqlite3
import struct
from dataclasses import dataclass
from pathlib import Path

from ka_tui.store.errors import NewerSchema, NoRoom, NotACampaign
from ka_tui.store.files import identity, no_room, note_pages, pages_known, read_only_reason
from ka_tui.store.migrations import APPLICATION_ID, SCHEMA_VERSION

BUSY_TIMEOUT_MS = 5000
_HEADER = b"SQLite format 3\x00"


@dataclass(frozen=True)
class FileCheck:
    """What the header and a read-only look found; ``version`` is the schema."""

    path: Path
    version: int
    name: str


def check_file(path: Path) -> FileCheck:
    """Refuse anything that is not a ka-tui campaign, writing nothing.

    Raises ``NotACampaign`` or ``NewerSchema``; returns the schema version and
    campaign name otherwise.
    """
    path = Path(path)
    _check_header(path)
    try:
        con = sqlite3.connect(read_uri(path, for_check=True), uri=True,
                              timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as e:
        _no_room(path, e)
        raise NotACampaign(f"{path} cannot be opened as a campaign: {e}") from None
    try:
        con.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        version = con.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise NewerSchema(path, version, SCHEMA_VERSION)
        ok = con.execute("PRAGMA quick_check").fetchone()[0]
        if ok != "ok":
            raise NotACampaign(f"{path} is a damaged campaign file ({ok}); it was not changed.")
        meta = dict(con.execute("SELECT key, value FROM ka_meta").fetchall())
        if meta.get("app") != "ka-tui" or version < 1:
            raise NotACampaign(f"{path} is not a ka-tui campaign (no campaign data); "
                               "it was not changed.")
        row = con.execute("SELECT name FROM campaign WHERE id = 1").fetchone()
    except sqlite3.DatabaseError as e:
        _no_room(path, e)
        raise NotACampaign(f"{path} is not a readable ka-tui campaign ({e}); "
                           "it was not changed.") from None
    finally:
        con.close()
    return FileCheck(path, version, row[0] if row else "")


def _no_room(path: Path, error: sqlite3.Error) -> None:
    """An I/O failure for want of room (SQLite could not make or grow the file's
    ``-shm``) is said as such, not as a file that is not a campaign."""
    if getattr(error, "sqlite_errorname", "").startswith(("SQLITE_IOERR", "SQLITE_FULL",
                                                           "SQLITE_CANTOPEN")):
        why = no_room(path)
        if why is not None:
            raise NoRoom(f"cannot open {path}: {why}; free some space and try again "
                         "(the campaign was not changed).") from None


def page_problem(path: Path) -> str | None:
    """What ``PRAGMA integrity_check`` finds wrong in the pages of ``path`` (its
    first three findings, on one line), or None when they are whole. Remembered
    for the file as it is now (``files.identity``); writes nothing."""
    path = Path(path)
    key = identity(path)
    known, problem = pages_known(key)
    if known:
        return problem
    try:
        con = sqlite3.connect(read_uri(path, for_check=True), uri=True,
                              timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            rows = con.execute("PRAGMA integrity_check(3)").fetchall()
        finally:
            con.close()
    except sqlite3.DatabaseError as e:
        if not getattr(e, "sqlite_errorname", "").startswith(("SQLITE_CORRUPT",
                                                               "SQLITE_NOTADB")):
            return None  # not an answer about the pages (busy, no room): not remembered
        rows = [(str(e),)]
    found = [str(r[0]) for r in rows if r and r[0] != "ok"]
    problem = "; ".join(found) or None
    note_pages(key, problem)
    return problem


def read_uri(path: Path, *, for_check: bool = False) -> str:
    """A read-only SQLite URI for ``path`` that creates nothing beside it.

    ``immutable=1`` when no ``-wal`` exists (nobody has the file open in WAL
    mode, and nothing is to be recovered) and we are checking, or the file's
    folder/mount cannot be written anyway; else ``mode=ro`` (which needs, and may
    create, the ``-shm``: only where side files already exist or may be made).
    """
    uri = Path(path).resolve().as_uri()
    if not Path(f"{path}-wal").exists():
        if for_check or read_only_reason(Path(path)) is not None:
            return f"{uri}?immutable=1"
    return f"{uri}?mode=ro"


def _check_header(path: Path) -> None:
    """The SQLite header: magic, our application_id, size a whole number of pages."""
    try:
        with open(path, "rb") as f:
            head = f.read(100)
        size = path.stat().st_size
    except FileNotFoundError:
        raise NotACampaign(f"{path} does not exist.") from None
    except IsADirectoryError:
        raise NotACampaign(f"{path} is a folder, not a campaign file.") from None
    except OSError as e:
        raise NotACampaign(f"{path} cannot be read: {e.strerror}.") from None
    if size == 0:
        raise NotACampaign(f"{path} is an empty file, not a campaign; it was not changed.")
    if len(head) < 100 or not head.startswith(_HEADER):
        raise NotACampaign(f"{path} is not a ka-tui campaign (not an SQLite database); "
                           "it was not changed.")
    app_id = struct.unpack(">I", head[68:72])[0]
    if app_id != APPLICATION_ID:
        raise NotACampaign(f"{path} is an SQLite database of another application "
                           f"(application_id {app_id:#x}), not a ka-tui campaign; "
                           "it was not changed.")
    page_size = struct.unpack(">H", head[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise NotACampaign(f"{path} is damaged (bad page size {page_size}); it was not changed.")
    pages, = struct.unpack(">I", head[28:32])
    counter, valid_for = struct.unpack(">I", head[24:28])[0], struct.unpack(">I", head[92:96])[0]
    short = size % page_size != 0 or (counter == valid_for and pages and size < pages * page_size)
    if short and _has_wal(path):
        short = False  # a checkpoint cut short: the WAL still holds the pages (quick_check decides)
    if short:
        raise NotACampaign(f"{path} is truncated or damaged ({size} bytes); it was not changed.")


def _has_wal(path: Path) -> bool:
    wal = Path(f"{path}-wal")
    try:
        return wal.stat().st_size > 0
    except OSError:
        return False
