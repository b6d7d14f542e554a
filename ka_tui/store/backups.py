"""Backups a GM can use: taken with SQLite's online backup API, checked, kept
in rotation, listed and restored.

Where: ``<campaign folder>/backups/<file stem>/<UTC time>-<why>.db``, private
(folder 0700, files 0600; group-shared when the campaign is). Why: ``daily``
(the first open of a UTC day, ``daily_backup``), ``before-import``,
``before-upgrade-from-vN``, ``before-demo-reset``, ``before-restore``, ``manual``.

The campaign's own pages are ``PRAGMA integrity_check``ed first
(``check_pages``, remembered for the file as it is): a damaged campaign is
never backed up (it would push a good backup out of the rotation) and
nothing is created for it. Each backup is written under a temporary name,
checked again, fsynced and only then renamed into place, so a crash (even
SIGKILL) leaves either no backup or a whole one, and never touches the
campaign. The partial copy is locked (``flock``) while it is written; one
left by a killed backup or restore is removed when the campaign is next
opened (``clear_leftovers``).

Rotation (``rotate``) keeps, per campaign: for the newest ``daily`` days that
have backups, the newest backup of each day and every one that is not a
``daily`` (those before a risky step, and ``manual`` ones); for
the ``weekly`` ISO weeks before those, the newest backup of each week. The
rest is deleted. Defaults 7 and 4; a campaign's own numbers live in its
``ka_meta`` table (``backups.daily``/``backups.weekly``, set with
``ka-tui backups --keep DAILY,WEEKLY``).

``restore`` checks the backup's pages, backs the current file up first (a
damaged one as it is, ``damaged-before-restore``), then puts a checked copy
of the backup in place with one atomic rename; the backup file is only ever
read. ``newest_good`` is the backup a damaged campaign's message names.
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

from collections.abc import Iterator

from ka_tui.store.errors import DamagedPages, NoRoom, StoreError
from ka_tui.store.files import (
    cannot_write,
    create_private,
    fsync_path,
    is_shared,
    no_room,
    private_dir,
    protect,
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
                rotate_after: bool = True, damaged_ok: bool = False) -> Backup:
    """Copy the live campaign with the online backup API, check it, keep it.

    Raises ``DamagedPages`` (nothing created) when the campaign's own pages
    are damaged, unless ``damaged_ok`` (a restore keeps the file it replaces
    as it is); ``StoreError`` (nothing left behind) when the copy cannot be
    made or fails its integrity check.
    """
    campaign = Path(campaign)
    now = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    if not damaged_ok:
        refuse_damaged(campaign, "no backup was taken")
    room = no_room(campaign)
    if room is not None:  # the copy cannot be made; nothing is tried (nor created)
        raise NoRoom(f"could not back up {campaign} ({room}); it was not changed.")
    folder = folder_for(campaign)
    shared = is_shared(campaign)
    made = [f for f in (folder.parent, folder) if not f.is_dir()]
    try:
        private_dir(folder.parent, shared=shared)
        private_dir(folder, shared=shared)
    except OSError as e:
        _remove_empty(made)
        raise StoreError(f"cannot make the backups folder {folder}: "
                         f"{_os_detail(campaign, e)}") from None
    clear_leftovers(campaign)
    stamp = now.strftime(_STAMP)
    partial = folder / f".{stamp}-{reason}.{os.getpid()}.{secrets.token_hex(4)}{_PARTIAL}"
    try:
        with _claimed(partial, shared=shared):
            _copy(campaign, partial)
            if not damaged_ok:
                _integrity(partial)
            fsync_path(partial)
            final = _publish(partial, folder, stamp, reason)
        fsync_path(folder)
    except (OSError, sqlite3.Error, StoreError) as e:
        _unlink_all(partial)
        _remove_empty(made)
        if isinstance(e, OSError):
            detail = _os_detail(campaign, e)
        elif isinstance(e, sqlite3.Error):
            detail = no_room(campaign) or str(e)
        else:
            detail = str(e)
        raise StoreError(f"could not back up {campaign} ({detail}); it was not changed.") \
            from None
    backup = Backup(final, now.replace(microsecond=0), reason, final.stat().st_size)
    if rotate_after:
        rotate(campaign, now=now)
    return backup


def _os_detail(near: Path, error: OSError) -> str:
    """An ``OSError`` said for the GM: a full disk as such."""
    import errno

    if error.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return no_room(near) or "the disk is full"
    return error.strerror or str(error)


def _remove_empty(folders: list[Path]) -> None:
    """The folders this backup made, when it leaves nothing in them."""
    for f in reversed(folders):
        with contextlib.suppress(OSError):
            f.rmdir()


@contextlib.contextmanager
def _claimed(partial: Path, *, shared: bool) -> Iterator[None]:
    """Create ``partial`` and hold a lock on it while it is written: a partial
    file nobody holds is what a killed backup or restore left
    (``clear_leftovers``). The lock is ``flock``'s, apart from SQLite's own."""
    create_private(partial, shared=shared)
    fd = os.open(partial, os.O_RDONLY)
    try:
        with contextlib.suppress(ImportError, OSError):
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield
    finally:
        os.close(fd)


def _abandoned(partial: Path) -> bool:
    """No live backup or restore is writing ``partial`` (its lock is free);
    where there is no ``flock``, one older than a minute."""
    try:
        import fcntl
    except ImportError:
        with contextlib.suppress(OSError):
            return time.time() - partial.stat().st_mtime > 60
        return False
    try:
        fd = os.open(partial, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(fd)  # the lock goes with it
    return True


def clear_leftovers(campaign: Path) -> list[Path]:
    """Remove what a killed backup (its partial copy in the backups folder) or
    a killed restore (``.NAME.restore.partial`` beside the campaign) left, with
    their side files; a copy still being written by a live one stays. Returns
    what was removed."""
    campaign = Path(campaign)
    found = [restore_staging(campaign)]
    folder = folder_for(campaign)
    with contextlib.suppress(OSError):
        found += [p for p in folder.iterdir() if p.name.endswith(_PARTIAL)]
    gone: list[Path] = []
    for p in found:
        if p.is_file() and _abandoned(p):
            _unlink_all(p)
            gone.append(p)
    with contextlib.suppress(OSError):  # a side file whose partial copy is gone
        for p in folder.iterdir():
            base = p.name.rsplit("-", 1)[0]
            if p.name.endswith(("-journal", "-wal", "-shm")) and base.endswith(_PARTIAL) \
                    and not (folder / base).exists():
                p.unlink()
    return gone


def restore_staging(campaign: Path) -> Path:
    """Where a restore builds the copy it then renames over ``campaign``."""
    return campaign.with_name(f".{campaign.name}.restore{_PARTIAL}")


# ------------------------------------------------------- damaged pages

def check_pages(campaign: Path) -> str | None:
    """``PRAGMA integrity_check`` of the campaign's pages (``file_check.page_problem``:
    remembered for the file as it is, so a file found damaged opens read-only
    afterwards); None when whole."""
    from ka_tui.store.file_check import page_problem

    return page_problem(campaign)


def daily_due(campaign: Path, *, now: datetime | None = None) -> bool:
    """No backup of the campaign from this UTC day yet: the day's backup, and
    the integrity check that goes with it, are due."""
    now = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    existing = list_backups(campaign)
    return not (existing and existing[0].taken.date() == now.date())


def check_pages_if_due(campaign: Path, *, now: datetime | None = None) -> str | None:
    """On open: the integrity check once a day (with the day's backup), and
    always for a file already found damaged (it gets no backup)."""
    from ka_tui.store.files import page_damage

    known = page_damage(Path(campaign))
    if known is not None:
        return known
    return check_pages(campaign) if daily_due(campaign, now=now) else None


def newest_good(campaign: Path) -> Backup | None:
    """The newest backup of ``campaign`` whose pages are whole (and which is a
    campaign this ka-tui reads)."""
    from ka_tui.store.file_check import check_file

    for b in list_backups(campaign):
        try:
            check_file(b.path)
        except StoreError:
            continue
        if check_pages(b.path) is None:
            return b
    return None


def damage_text(campaign: Path, problem: str, done: str = "") -> str:
    """One line: the file is damaged, what was found, ``done`` (what ka-tui
    does or did not do about it), what the GM can do."""
    good = newest_good(campaign)
    todo = (f"restore the newest good backup: ka-tui restore {good.path}" if good is not None
            else "it has no good backup to restore (ka-tui backups lists them)")
    return (f"{campaign} is damaged inside (integrity check: {problem[:200]}); "
            f"{done + '; ' if done else ''}{todo}")


def refuse_damaged(campaign: Path, what: str) -> None:
    """``DamagedPages`` when the campaign's pages are damaged; ``what``: what
    is not done (``no backup was taken``)."""
    problem = check_pages(campaign)
    if problem is not None:
        raise DamagedPages(damage_text(campaign, problem, what))


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
    another ka-tui writes) into the empty file ``target``. A campaign that
    cannot be written is read without creating anything beside it."""
    from ka_tui.store.file_check import read_uri

    if cannot_write(source) is not None:
        src = sqlite3.connect(read_uri(source, for_check=True), uri=True, timeout=_TIMEOUT_S)
    else:
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


def daily_backup(campaign: Path, *, now: datetime | None = None) -> Backup | None:
    """The day's automatic backup when a campaign is opened: taken unless the
    campaign already has a backup from this UTC day. Returns it, or None.
    A backup that cannot be made does not stop the campaign from opening
    (the error is returned to nobody: the GM sees the list in ``ka-tui backups``);
    nor is a campaign whose pages are damaged backed up (``check_pages``)."""
    now = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    if not daily_due(campaign, now=now) or check_pages(campaign) is not None:
        return None  # a damaged campaign gets no backup: it opens read-only
    try:
        return take_backup(campaign, "daily", now=now)
    except StoreError:
        return None


# --------------------------------------------------------------- rotation

def keep_setting(campaign: Path) -> tuple[int, int]:
    """(daily, weekly) to keep for this campaign: its ``ka_meta`` or the defaults."""
    from ka_tui.store.file_check import read_uri

    daily, weekly = KEEP_DAILY, KEEP_WEEKLY
    with contextlib.suppress(sqlite3.Error, ValueError):
        # creates nothing beside the campaign (its -wal/-shm exist only while open)
        con = sqlite3.connect(read_uri(Path(campaign), for_check=True), uri=True,
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
    problem = check_pages(backup)
    if problem is not None:
        raise DamagedPages(f"{backup} is damaged inside (integrity check: {problem[:200]}); "
                           f"choose another backup (ka-tui backups); {target} was not "
                           "changed.")
    if not target.parent.is_dir():
        raise StoreError(f"no such folder: {target.parent}")
    previous: Backup | None = None
    if target.exists():
        check_file(target)  # never replace a file that is not a campaign
        reason = cannot_write(target)
        if reason is not None:
            raise StoreError(f"{target} cannot be written ({reason}); it was not changed.")
        _release(target)
        damaged = check_pages(target) is not None
        previous = take_backup(target, "damaged-before-restore" if damaged else
                               "before-restore", rotate_after=False, damaged_ok=damaged)
    shared = is_shared(target)
    staging = restore_staging(target)
    if staging.exists() and not _abandoned(staging):
        raise StoreError(f"{target} is being restored by another ka-tui; it was not changed.")
    _unlink_all(staging)
    try:
        with _claimed(staging, shared=shared):
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
        if isinstance(e, OSError):
            detail = _os_detail(target, e)
        else:
            detail = no_room(target) or str(e)
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
