"""Bytes and latency per key, as the terminal receives them.

Usage: ``.venv/bin/python benchmarks/keys.py [--quick]``

A fresh ``python -m ka_tui --db COPY-OF-DEMO`` on an 80x24 pseudo-terminal
(``common.PtySession``). After each key this process reads what the app
writes until 250 ms pass with nothing: the bytes are that frame's, the latency
the time from writing the key to its last byte. Medians over the keys:

- roster: cursor down/up in the characters table; typing a filter (``/`` then
  letters and backspaces);
- roller: typing the table's faces (``f``, then digits and spaces);
- close combat: the cursor in the new-fight list, then typing faces in a fight;
- air battle screen (``4``, the demo's battle): the map cursor;
- air battle map widget: ``benchmarks/hexmap.py`` (100x100 map, 40 aircraft),
  its own pty and headless runs, wrapped here.

Budgets: a roster cursor move under 1.5 KB; typing the same (a
decision: a typed character changes less than a cursor move); 100 ms from key
to last byte (a decision: the issue names no latency; 0.1 s is where a key stops
feeling immediate); the map's own 1 KB and 16 ms.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (  # noqa: E402
    PYTHON, PtySession, Row, median, row, run_on_demo, section, user_env)

KEY_BYTES = 1536
KEY_MS = 100.0


def _rows(name: str, sizes: list[int], times: list[float]) -> list[Row]:
    b, ms = median(sizes), median(times) * 1000
    return [row(f"{name}: bytes per key (median of {len(sizes)})", b, "B",
                f"< {KEY_BYTES / 1024:.1f} KB", b < KEY_BYTES),
            row(f"{name}: bytes per key (largest)", max(sizes), "B"),
            row(f"{name}: key to last byte (median)", ms, "ms", f"< {KEY_MS:.0f} ms",
                ms < KEY_MS)]


def _measure(s: PtySession, keys: list[str]) -> tuple[list[int], list[float]]:
    sizes, times = [], []
    for k in keys:
        size, took = s.key(k)
        sizes.append(size)
        times.append(took)
    return sizes, times


def app_rows(demo: Path, folder: Path, quick: bool) -> list[Row]:
    copy = folder / "keys.db"
    shutil.copy(demo, copy)
    s = PtySession([PYTHON, "-m", "ka_tui", "--db", str(copy)],
                   env=user_env(XDG_DATA_HOME=str(folder)))
    out: list[Row] = []
    try:
        s.first_frame()
        s.settle(1.5, first_wait=1.5)       # footer, detail and warm-up settle
        n = 4 if quick else 8
        cursor = _measure(s, ["down"] * n + ["up"] * n)
        out += _rows("roster: cursor move", *cursor)
        s.key("/")
        typing = _measure(s, ["a", "r", "t", "backspace", "backspace", "backspace"])
        out += _rows("roster: typing in the filter", *typing)
        s.key("escape")
        s.key("2")
        s.settle(1.0, first_wait=1.0)
        s.key("f")
        faces = ["3", " ", "5", " ", "7", "backspace", "backspace", "backspace"]
        out += _rows("roller: typing the faces", *_measure(s, faces))
        s.key("escape")
        s.key("3")
        s.settle(1.0, first_wait=1.0)
        s.key("n")
        s.settle(1.0, first_wait=1.0)
        setup = _measure(s, ["down"] * n + ["up"] * (n // 2))
        out += _rows("close combat: cursor in the new-fight list", *setup)
        for k in ("enter", "down", "down", "enter", "ctrl+s"):
            s.key("\x13" if k == "ctrl+s" else k)
        s.settle(1.0, first_wait=1.0)
        s.key("f")
        out += _rows("close combat: typing the faces", *_measure(s, ["4", " ", "7", "backspace"]))
        from ka_tui.app import MODE_SPECS

        air = next((m for m in MODE_SPECS if m.name == "air"), None)
        if air is not None:                 # the air battle screen, when present
            s.key("escape")
            s.key(air.key)
            s.settle(1.5, first_wait=3.0)
            loop = ["right", "right", "down", "down", "left", "left", "up", "up"]
            out += _rows("air battle screen: map cursor", *_measure(s, loop * (1 if quick else 2)))
    finally:
        s.close(("escape", "ctrl+q"))
    return out


def hexmap_rows(quick: bool) -> list[Row]:
    """``benchmarks/hexmap.py``'s pty and headless figures, as rows."""
    from benchmarks import hexmap

    presses = 40 if quick else 200
    h = asyncio.run(hexmap.headless(presses, "compact"))
    p = hexmap.pty_run(presses, "compact", 40.0)
    return [
        row(f"air map: bytes per cursor move (pty, median of {p['frames']})", p["bytes"], "B",
            f"< {hexmap.BYTES / 1024:.0f} KB", p["bytes"] <= hexmap.BYTES),
        row("air map: key to last byte (pty, median)", p["key_ms"], "ms",
            f"< {hexmap.KEY_MS:.0f} ms", p["key_ms"] <= hexmap.KEY_MS),
        row("air map: key to frame (headless, median)", h["key_ms"], "ms",
            f"< {hexmap.KEY_MS:.0f} ms", h["key_ms"] <= hexmap.KEY_MS),
        row("air map: peak memory of its app (pty)", p["rss_mb"], "MB",
            f"< {hexmap.MEMORY_MB:.0f} MB", p["rss_mb"] <= hexmap.MEMORY_MB),
    ]


def rows(demo: Path, folder: Path, quick: bool) -> list[Row]:
    return ([section("Per key (80x24 pty: bytes the terminal receives, key to last byte)")]
            + app_rows(demo, folder, quick) + hexmap_rows(quick))


def main() -> int:
    return run_on_demo(rows, __doc__, "fewer keys")


if __name__ == "__main__":
    raise SystemExit(main())
