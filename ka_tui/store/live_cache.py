"""The live state of an open fight or battle as the roster shows it, and
the first character's service line, kept from one start to the next.

The roster shows, for everyone in an open fight or battle, the state there
(K-points, out, wounds, conscious, the hull): a replay of the log through
the rules (``roster_reads``), which means importing the rules engine, about
0.1 s of CPU on the way to the first frame. The replay is a function of the
log, the campaign's house rules and the code, so its answer is kept in the
user's cache folder (``~/.cache/ka-tui/live``, private), one small JSON file
per answer, named by a digest of all three: the log's rows as stored (seq,
kind and payload text), the house rules' text, and the size and time of
every file of ``ka_tui/rules`` and of the store modules that replay. A log
that moved on, other house rules or other code give another name: the
replay runs again and its answer is kept. The service line of the
roster's first character (``roster_reads.load_character_extra``, for the
startup read) is kept the same way, named by a digest of the rows it is
derived from (``campaign_state`` and the campaign rules: about 40 ms to
import). A cache file that cannot be read
(or written: a read-only home) is no answer; the replay runs.

    key = answer_key("battle", battle_id, digest_of_rows, rules_json)
    found = read_answer(key)      # the JSON kept, or None
    keep_answer(key, value)       # best effort
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path
from typing import Any

from ka_tui.store.paths import APP_NAME

VERSION = 1
KEEP = 64  # answers kept; the oldest go when there are more

_PACKAGE = Path(__file__).resolve().parent.parent
# what a replay's answer depends on besides its log and house rules
_CODE = ("rules", "store/rows_to_rules.py", "store/roster_reads.py", "store/live_cache.py",
         "store/campaign_state.py", "store/campaign.py", "store/debriefs.py")
_code_print: str | None = None
_lock = threading.Lock()


def cache_dir() -> Path:
    """platformdirs' user cache dir for ka-tui, ``live`` in it."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir(APP_NAME, appauthor=False)) / "live"


def code_print() -> str:
    """Size and modification time of every file the replay runs (once a process)."""
    global _code_print
    with _lock:
        if _code_print is None:
            parts: list[str] = []
            for name in _CODE:
                path = _PACKAGE / name
                files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
                for file in files:
                    try:
                        st = file.stat()
                    except OSError:
                        continue
                    parts.append(f"{file.relative_to(_PACKAGE)}:{st.st_size}:{st.st_mtime_ns}")
            _code_print = hashlib.sha256("\n".join(parts).encode()).hexdigest()
        return _code_print


def rows_digest(rows: list[tuple[int, str, str]]) -> str:
    """A digest of a log's rows as stored: (seq, kind, payload text)."""
    h = hashlib.sha256()
    for seq, kind, payload in rows:
        h.update(f"{seq}\x00{kind}\x00{payload}\x01".encode())
    return h.hexdigest()


def answer_key(kind: str, log_id: int, digest: str, *extra: str) -> str:
    parts = [str(VERSION), code_print(), kind, str(log_id), digest, *extra]
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:40]


def read_answer(key: str) -> Any | None:
    """The answer kept under ``key``, or None (none kept, or unreadable)."""
    try:
        text = (cache_dir() / f"{key}.json").read_text(encoding="utf-8")
        found = json.loads(text)
    except (OSError, ValueError):
        return None
    if not isinstance(found, dict) or found.get("key") != key:
        return None
    return found.get("value")


def keep_answer(key: str, value: Any) -> None:
    """Keep ``value`` (plain JSON) under ``key``; best effort, never raises."""
    folder = cache_dir()
    tmp = folder / f".{key}.{os.getpid()}.{threading.get_ident()}.new"
    try:
        if not folder.is_dir():
            from ka_tui.store.files import private_dir

            private_dir(folder)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"key": key, "value": value}, f)
        os.replace(tmp, folder / f"{key}.json")
        _prune(folder)
    except (OSError, TypeError, ValueError):
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass


def _prune(folder: Path) -> None:
    files = list(folder.glob("*.json"))
    if len(files) <= KEEP:
        return

    def age(p: Path) -> float:
        try:
            return p.stat().st_mtime
        except OSError:
            return 0.0

    for old in sorted(files, key=age)[:len(files) - KEEP]:
        try:
            old.unlink()
        except OSError:
            pass
