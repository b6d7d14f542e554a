"""Files on disk: atomic whole-file writes and who may read a campaign (light
module: no SQLModel).

DESIGN.md: an export never leaves a half-written file; a reader sees the old
file or the new one. Used by the campaign export and the profile export.

Privacy: campaign files, their ``-wal``/``-shm``, backups and the
data folder are the user's alone (files 0600, folders 0700) whatever the
umask. A campaign is *group-shared* (players reading it over SSH) when its
file is group read-write (0660); the command line's ``--shared-group`` makes
the campaign it creates or opens so (``shared=True``). Once shared, a campaign
stays shared when opened without the option: the mode of the file itself is
the setting, and its side files and backups follow it.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700
SHARED_FILE = 0o660
SHARED_DIR = 0o770  # plus setgid, so files made inside keep the folder's group
SIDE_FILES = ("-wal", "-shm", "-journal")


def is_shared(path: Path) -> bool:
    """A campaign whose file is group read-write is shared with its group."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return mode & 0o060 == 0o060


def file_mode(shared: bool) -> int:
    return SHARED_FILE if shared else PRIVATE_FILE


def protect(path: Path, *, shared: bool | None = None) -> None:
    """Set ``path`` (and its side files, if any) to 0600, or 0660 when shared.

    ``shared=None``: keep the sharing the file already has.
    Best effort: a file we may not chmod (not ours, read-only mount) is left.
    """
    if shared is None:
        shared = is_shared(path)
    mode = file_mode(shared)
    for p in (path, *(Path(f"{path}{s}") for s in SIDE_FILES)):
        with contextlib.suppress(OSError):
            if stat.S_IMODE(p.stat().st_mode) != mode:
                os.chmod(p, mode)


def private_dir(folder: Path, *, shared: bool | None = None, create: bool = True) -> None:
    """Create ``folder`` (and missing parents) 0700 (0770 + setgid when shared),
    whatever the umask; an existing one is tightened (a group-shared one stays
    shared). Only for ka-tui's own folders (data folder, backups)."""
    if shared is None:
        try:
            was_shared = folder.stat().st_mode & 0o070 == 0o070
        except OSError:
            was_shared = False
        shared = was_shared
    mode = SHARED_DIR if shared else PRIVATE_DIR
    if create and not folder.is_dir():
        old = os.umask(0o077 if not shared else 0o007)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        finally:
            os.umask(old)
    with contextlib.suppress(OSError):
        current = stat.S_IMODE(folder.stat().st_mode)
        wanted = mode | (stat.S_ISGID if shared else 0)
        if current & 0o7777 != wanted:
            os.chmod(folder, wanted)


def create_private(path: Path, *, shared: bool = False) -> None:
    """Create an empty file with the private (or shared) mode from the start
    (O_EXCL: never an existing one), so no other user sees it even briefly."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, file_mode(shared))
    os.close(fd)
    os.chmod(path, file_mode(shared))  # the umask may have taken group bits away


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to a temporary file beside ``path``, fsync it and
    rename it over ``path``. On ``OSError`` the temporary file is removed and
    the error raised again, for the caller to word. The file is 0600 (mkstemp)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".new", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def fsync_path(path: Path) -> None:
    """fsync a file or folder; best effort (some filesystems refuse)."""
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


ASKED_READ_ONLY = "opened with --read-only"
DAMAGED = "the file is damaged inside"
DISK_FULL = "the disk is full"
# Room SQLite needs beside a campaign to open it for writing: its -shm (32 KiB)
# and the first pages of its -wal. With less, nothing is created beside it.
ROOM_NEEDED = 64 * 1024


def read_only_reason(path: Path, *, asked: bool = False) -> str | None:
    """Why ``path`` cannot be written, or None: asked, the mount, the file, the
    folder, its pages found damaged (``page_damage``), a full disk (``no_room``).

    ``asked`` (``--read-only``) opens it read-only anyway; it is also how the
    read-only path is tested as root, who ignores modes.
    """
    if asked:
        return ASKED_READ_ONLY
    reason = cannot_write(path)
    if reason is not None:
        return reason
    if page_damage(path) is not None:
        return DAMAGED
    return no_room(path)


def cannot_write(path: Path) -> str | None:
    """Why the file's modes or mount refuse a write, or None."""
    try:
        if os.statvfs(path).f_flag & os.ST_RDONLY:
            return "read-only filesystem"
    except OSError:
        pass
    if not os.access(path, os.W_OK):
        return "the file is read-only"
    if not os.access(path.parent, os.W_OK | os.X_OK):
        return "its folder is read-only"
    return None


def no_room(path: Path) -> str | None:
    """Why there is no room to write beside ``path``, or None: less room on its
    filesystem, for this user, than SQLite needs to open it for writing
    (``ROOM_NEEDED``: ``DISK_FULL``), or a file-size limit (``ulimit -f``)
    below that."""
    try:
        st = os.statvfs(path if path.exists() else path.parent)
    except OSError:
        return None
    if st.f_bavail * st.f_frsize < ROOM_NEEDED:
        return DISK_FULL
    try:
        import resource

        limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    except (ImportError, OSError, ValueError):
        return None
    if limit != resource.RLIM_INFINITY and limit < ROOM_NEEDED:
        return f"files are limited to {limit} bytes here (ulimit -f)"
    return None


# ------------------------------------------------- pages found damaged
# A campaign's integrity check (``file_check.page_problem``) is remembered by
# the file's identity (device, inode, size, modification time, and its
# -wal's): a file found damaged opens read-only, so it stays so until it is
# replaced (a restore) or changed; a forked child (the startup read) knows it.

_PAGES: dict[tuple[int, ...], str | None] = {}


def identity(path: Path) -> tuple[int, ...] | None:
    """What changes when the file's content may have: None if it is missing."""
    try:
        st = path.stat()
    except OSError:
        return None
    try:
        wal = Path(f"{path}-wal").stat()
        wal_key = (wal.st_size, wal.st_mtime_ns)
    except OSError:
        wal_key = (0, 0)
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, *wal_key)


def pages_known(key: tuple[int, ...] | None) -> tuple[bool, str | None]:
    """(checked, problem) for a file of identity ``key``."""
    if key is None or key not in _PAGES:
        return False, None
    return True, _PAGES[key]


def note_pages(key: tuple[int, ...] | None, problem: str | None) -> None:
    if key is not None:
        _PAGES[key] = problem


def page_damage(path: Path) -> str | None:
    """What the integrity check found in ``path`` as it is now, if it found
    anything (None: not checked, or whole)."""
    return pages_known(identity(path))[1]
