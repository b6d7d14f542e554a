"""Backups a GM can use: taken with SQLite's online backup API, checked, kept
in rotation, listed and restored.

Where: ``<campaign folder>/backups/<file stem>/<UTC time>-<why>.db``, private
(folder 0700, files 0600; group-shared when the campaign is). Why: ``daily``
(the first open of a UTC day, ``daily_backup``), ``before-import``,
``before-upgrade-from-vN``, ``before-demo-reset``, ``before-restore``, ``manual``.

Each backup is written under a temporary name, ``PRAGMA integrity_check``ed,
fsynced and only then renamed into place, so a crash (even SIGKILL) leaves
either no backup or a whole one, and never touches the campaign.

Rotation (``rotate``) keeps, per campaign: for the newest ``daily`` days that
have backups, the newest backup of each day and every one that is not a
``daily`` (those before a risky step, and ``manual`` ones); for
the ``weekly`` ISO weeks before those, the newest backup of each week. The
rest is deleted. Defaults 7 and 4; a campaign's own numbers live in its
``ka_meta`` table (``backups.daily``/``backups.weekly``, set with
``ka-tui backups --keep DAILY,WEEKLY``).

``restore`` backs the current file up first, then puts a checked copy of the
backup in place with one atomic rename; the backup file is only ever read.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import sqlite3
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from ka_tui.store.errors import StoreError
from ka_tui.store.files import (
    create_private,
    fsync_path,
    is_shared,
    private_dir,
    protect,
    read_only_reason,
)

FOLDER = "backups"
KEEP_DAILY = 7
KEEP_WEEKLY = 4
_STAMP = "%Y-%m-%dT%H%M%SZ"
_NAME = re.compile(r"^(\d{4}-\d\d-\d\dT\d{6}Z)(?:-(\d+))?-([a-z0-9-]+)\.db$")
_PARTIAL = ".partial"
_TIMEOUT_S = 5.0


@dataclass(frozen=True)
class Backup:
    path: Path
    taken: datetime  # UTC
    reason: str
    size: int

    def line(self) -> str:
        """One line for ``ka-tui backups`` and the palette's list."""
        when = self.taken.strftime("%Y-%m-%d %H:%M:%S UTC")
        return f"{when}  {self.reason:<24} {_size(self.size):>8}  {self.path}"


def _size(n: int) -> str:
    return f"{n / 1024:.0f} KB" if n < 1024 * 1024 else f"{n / 1024 / 1024:.1f} MB"


def folder_for(campaign: Path) -> Path:
    campaign = Path(campaign)
    return campaign.parent / FOLDER / campaign.stem


def campaign_for(backup: Path) -> Path:
    """The campaign a backup belongs to: ``…/backups/<stem>/x.db`` -> ``…/<stem>.db``."""
    backup = Path(backup)
    if backup.parent.parent.name != FOLDER:
        raise StoreError(f"{backup} is not in a ka-tui backups folder; "
                         "name the campaign with --db PATH")
    return backup.parent.parent.parent / f"{backup.parent.name}.db"


def list_backups(campaign: Path) -> list[Backup]:
    """The campaign's backups, newest first (unfinished ones are not listed)."""
    folder = folder_for(campaign)
    out: list[Backup] = []
    if not folder.is_dir():
        return out
    for p in folder.iterdir():
        m = _NAME.match(p.name)
        if not m or not p.is_file():
            continue
        taken = datetime.strptime(m.group(1), _STAMP).replace(tzinfo=timezone.utc)
        with contextlib.suppress(OSError):
            out.append(Backup(p, taken, m.group(3), p.stat().st_size))
    out.sort(key=lambda b: (b.taken, b.path.name), reverse=True)
    return out


# ----------------------------------------------------------------- taking

def take_backup(campaign: Path, reason: str, *, now: datetime | None = None,
                rotate_after: bool = True) -> Backup:
    """Copy the live campaign with the online backup API, check it, keep it.

    Raises ``StoreError`` (nothing left behind) when the copy cannot be made
    or fails its integrity check.
    """
    campaign = Path(campaign)
    now = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    folder = folder_for(campaign)
    shared = is_shared(campaign)
    try:
        private_dir(folder.parent, shared=shared)
        private_dir(folder, shared=shared)
    except OSError as e:
        raise StoreError(f"cannot make the backups folder {folder}: {e.strerror}") from None
    _clear_partials(folder)
    stamp = now.strftime(_STAMP)
    partial = folder / f".{stamp}-{reason}.{os.getpid()}.{secrets.token_hex(4)}{_PARTIAL}"
    try:
        create_private(partial, shared=shared)
        _copy(campaign, partial)
        _integrity(partial)
        fsync_path(partial)
        final = _publish(partial, folder, stamp, reason)
        fsync_path(folder)
    except (OSError, sqlite3.Error, StoreError) as e:
        _unlink_all(partial)
        detail = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise StoreError(f"could not back up {campaign} ({detail}); it was not changed.") \
            from None
    backup = Backup(final, now.replace(microsecond=0), reason, final.stat().st_size)
    if rotate_after:
        rotate(campaign, now=now)
    return backup


def _publish(partial: Path, folder: Path, stamp: str, reason: str) -> Path:
    """Give the checked copy its name without replacing another backup (two
    in the same second get ``-2``, ``-3``…)."""
    n = 1
    while True:
        final = folder / (f"{stamp}-{reason}.db" if n == 1 else f"{stamp}-{n}-{reason}.db")
        try:
            os.link(partial, final)
        except FileExistsError:
            n += 1
            continue
        except OSError:  # no hard links on this filesystem
            if final.exists():
                n += 1
                continue
            os.replace(partial, final)
            return final
        partial.unlink()
        return final


def _copy(source: Path, target: Path) -> None:
    """SQLite online backup of ``source`` (a consistent snapshot, even while
    another ka-tui writes) into the empty file ``target``."""
    src = sqlite3.connect(source, timeout=_TIMEOUT_S)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode = DELETE")  # a backup is one file, no -wal
        finally:
            dst.close()
    finally:
        src.close()
    _unlink_all(target, main=False)


def _integrity(path: Path) -> None:
    con = sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True)
    try:
        result = con.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        con.close()
    if result != "ok":
        raise StoreError(f"the copy failed its integrity check: {result}")


def _unlink_all(path: Path, *, main: bool = True) -> None:
    for p in ((path,) if main else ()) + tuple(Path(f"{path}{s}") for s in
                                               ("-wal", "-shm", "-journal")):
        with contextlib.suppress(OSError):
            p.unlink()


def _clear_partials(folder: Path) -> None:
    """Remove what a killed backup or restore left (older than a minute)."""
    with contextlib.suppress(OSError):
        for p in folder.iterdir():
            if p.name.endswith(_PARTIAL) or p.name.endswith(f"{_PARTIAL}-journal"):
                with contextlib.suppress(OSError):
                    if time.time() - p.stat().st_mtime > 60:
                        p.unlink()


def daily_backup(campaign: Path, *, now: datetime | None = None) -> Backup | None:
    """The day's automatic backup when a campaign is opened: taken unless the
    campaign already has a backup from this UTC day. Returns it, or None.
    A backup that cannot be made does not stop the campaign from opening
    (the error is returned to nobody: the GM sees the list in ``ka-tui backups``)."""
    now = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    existing = list_backups(campaign)
    if existing and existing[0].taken.date() == now.date():
        return None
    try:
        return take_backup(campaign, "daily", now=now)
    except StoreError:
        return None


# --------------------------------------------------------------- rotation

def keep_setting(campaign: Path) -> tuple[int, int]:
    """(daily, weekly) to keep for this campaign: its ``ka_meta`` or the defaults."""
    daily, weekly = KEEP_DAILY, KEEP_WEEKLY
    with contextlib.suppress(sqlite3.Error, ValueError):
        con = sqlite3.connect(f"{Path(campaign).resolve().as_uri()}?mode=ro", uri=True,
                              timeout=_TIMEOUT_S)
        try:
            meta = dict(con.execute("SELECT key, value FROM ka_meta WHERE key IN "
                                    "('backups.daily', 'backups.weekly')").fetchall())
        finally:
            con.close()
        daily = max(1, int(meta.get("backups.daily", daily)))
        weekly = max(0, int(meta.get("backups.weekly", weekly)))
    return daily, weekly


def set_keep(campaign: Path, daily: int, weekly: int) -> None:
    """Store the campaign's rotation numbers (``ka_meta``; no schema change)."""
    if daily < 1 or weekly < 0 or daily > 366 or weekly > 520:
        raise StoreError("--keep wants DAILY,WEEKLY with DAILY 1–366 and WEEKLY 0–520")
    con = sqlite3.connect(campaign, timeout=_TIMEOUT_S, isolation_level=None)
    try:
        con.execute("BEGIN IMMEDIATE")
        con.executemany("INSERT OR REPLACE INTO ka_meta (key, value) VALUES (?, ?)",
                        [("backups.daily", str(daily)), ("backups.weekly", str(weekly))])
        con.execute("COMMIT")
    except sqlite3.Error as e:
        raise StoreError(f"cannot save the backup setting in {campaign}: {e}") from None
    finally:
        con.close()


def to_keep(backups: list[Backup], daily: int, weekly: int) -> set[Path]:
    """Which backups rotation keeps (see the module docstring)."""
    days: dict[object, list[Backup]] = {}
    for b in backups:
        days.setdefault(b.taken.date(), []).append(b)
    ordered = sorted(days, reverse=True)  # type: ignore[type-var]
    keep: set[Path] = set()
    for day in ordered[:daily]:
        group = days[day]
        keep.add(max(group, key=lambda b: (b.taken, b.path.name)).path)
        keep.update(b.path for b in group if b.reason != "daily")
    weeks: dict[tuple[int, int], Backup] = {}
    for day in ordered[daily:]:
        for b in days[day]:
            week = b.taken.isocalendar()[:2]
            if week not in weeks or (b.taken, b.path.name) > (weeks[week].taken,
                                                               weeks[week].path.name):
                weeks[week] = b
    for week in sorted(weeks, reverse=True)[:weekly]:
        keep.add(weeks[week].path)
    return keep


def rotate(campaign: Path, *, now: datetime | None = None) -> list[Path]:
    """Delete the backups rotation does not keep; returns what was deleted."""
    del now  # the ages are the backups' own times
    backups = list_backups(campaign)
    daily, weekly = keep_setting(campaign)
    keep = to_keep(backups, daily, weekly)
    gone: list[Path] = []
    for b in backups:
        if b.path not in keep:
            with contextlib.suppress(OSError):
                b.path.unlink()
                gone.append(b.path)
    return gone


# ---------------------------------------------------------------- restore

@dataclass(frozen=True)
class Restored:
    campaign: Path
    backup: Path
    previous: Backup | None  # the campaign as it was, backed up first


def restore(backup: Path, campaign: Path | None = None) -> Restored:
    """Put ``backup`` back as ``campaign`` (default: the campaign it belongs to).

    The backup is checked first (a ka-tui campaign this ka-tui can read), the
    current file is backed up (``before-restore``), then a checked copy
    replaces it in one atomic rename. Refused while the campaign is open in
    another ka-tui. The backup file itself is never written.
    """
    from ka_tui.store.file_check import check_file

    backup = Path(backup)
    target = Path(campaign) if campaign is not None else campaign_for(backup)
    check_file(backup)
    if not target.parent.is_dir():
        raise StoreError(f"no such folder: {target.parent}")
    previous: Backup | None = None
    if target.exists():
        check_file(target)  # never replace a file that is not a campaign
        reason = read_only_reason(target)
        if reason is not None:
            raise StoreError(f"{target} cannot be written ({reason}); it was not changed.")
        _release(target)
        previous = take_backup(target, "before-restore", rotate_after=False)
    shared = is_shared(target)
    staging = target.with_name(f".{target.name}.restore{_PARTIAL}")
    _unlink_all(staging)
    try:
        create_private(staging, shared=shared)
        src = sqlite3.connect(f"{backup.resolve().as_uri()}?immutable=1", uri=True)
        try:
            dst = sqlite3.connect(staging)
            try:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode = WAL")
            finally:
                dst.close()
        finally:
            src.close()
        _integrity(staging)
        fsync_path(staging)
        if target.exists():
            _release(target)
        os.replace(staging, target)
        fsync_path(target.parent)
    except (OSError, sqlite3.Error) as e:
        _unlink_all(staging)
        detail = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise StoreError(f"could not restore {backup} ({detail}); {target} was not changed.") \
            from None
    except BaseException:
        _unlink_all(staging)
        raise
    protect(target, shared=shared)
    return Restored(target, backup, previous)


def release(target: Path) -> None:
    """Check that no other ka-tui has ``target`` open, and fold its WAL into the
    file (so no ``-wal`` outlives it when the file is replaced).

    Every open connection holds a lock that ``locking_mode=EXCLUSIVE`` with
    ``BEGIN EXCLUSIVE`` cannot pass, even an idle one; then a TRUNCATE checkpoint.
    """
    con = sqlite3.connect(target, isolation_level=None, timeout=0.1)
    try:
        con.execute("PRAGMA locking_mode = EXCLUSIVE")
        con.execute("BEGIN EXCLUSIVE")
        con.execute("COMMIT")
        busy = con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
    except sqlite3.Error:
        busy = 1
    finally:
        con.close()
    wal = Path(f"{target}-wal")
    if busy or (wal.exists() and wal.stat().st_size):
        raise StoreError(f"{target} is open in another ka-tui; close it and try again.")


_release = release


def age_text(backup: Backup, now: datetime | None = None) -> str:
    now = now or datetime.now(timezone.utc)
    delta = now - backup.taken
    if delta < timedelta(hours=1):
        return f"{max(0, int(delta.total_seconds() // 60))} min ago"
    if delta < timedelta(days=2):
        return f"{int(delta.total_seconds() // 3600)} h ago"
    return f"{delta.days} days ago"
