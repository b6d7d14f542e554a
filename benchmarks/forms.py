"""Opening the forms and dialogs: key to a usable form (headless) and the bytes
the terminal receives when one opens (a real pseudo-terminal).

Usage: ``.venv/bin/python benchmarks/forms.py [--runs 5] [--quiet 150] [--headless]``
(``--headless``: only the headless part, a few seconds).

Headless: the real app on the demo campaign under Textual's Pilot (80x24). The
time runs from the key (posted as the driver posts it) to the end of the first
frame drawn with the form mounted and its first field focused (a
``call_after_refresh`` callback; not Pilot's idle waits, which add 40-60 ms
the user never waits), wall clock and CPU of this process.

Pseudo-terminal: a fresh ``python -m ka_tui --db demo.db`` on an 80x24 pty
(``TERM=xterm-256color``). This process writes the key and counts what the app
writes back until no byte has come for ``--quiet`` ms; escape (or ``n``) closes
the dialog between runs; "key to last byte" is what the GM waits for on a real
terminal. Budgets: 150 ms both ways, 12 KB per opening. Prints
figure / measured / budget / ok|MISS.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import os
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.hexmap import _read_until_quiet  # noqa: E402

OPEN_MS = 150.0
OPEN_BYTES = 12 * 1024
SIZE = (80, 24)
ESC = b"\x1b"
ROSTER_MARK = b"other tab"  # the roster's header hint: it has been drawn again

# name, keys before (setup), key that opens, key that closes, text the dialog shows
CASES: list[tuple[str, bytes, bytes, bytes, bytes]] = [
    ("character form (e)", b"", b"e", ESC, b"Edit "),
    ("new character form (a)", b"", b"a", ESC, b"New character"),
    ("delete confirm (d)", b"", b"d", b"n", b"Delete"),
    ("aircraft form (t, e)", b"t", b"e", ESC, b"Edit "),
    ("profile library (l)", b"t", b"l", ESC, b"Ready profiles"),
    ("pilot and crew (p)", b"t", b"p", ESC, b"Pilot and crew"),
]


# ---------------------------------------------------------------- headless


async def _open_headless(db: Path, setup: str, key: str, runs: int) -> tuple[float, float]:
    """Median wall and CPU ms from ``key`` to the first frame drawn with the
    opened form mounted and its first field focused.

    The key goes in as the driver would send it, and the end is taken by a
    callback that runs after that frame (``call_after_refresh``), not by
    Pilot's ``press``/``pause``: those wait for 20 ms windows of idleness
    after the work is done, which the user does not wait for."""
    from textual import events

    from ka_tui.app import KaApp

    app = KaApp(db)
    walls, cpus = [], []
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(200):
            await pilot.pause()
            if type(app.screen).__name__ == "RosterScreen" and app.screen.query("FastTable"):
                break
        await pilot.pause(1.5)  # the roster's warm-up (1 s after its first frame)
        if setup:
            await pilot.press(setup)
            await pilot.pause(0.1)
        roster = app.screen
        for _ in range(runs):
            drawn = asyncio.Event()
            w0, c0 = time.perf_counter(), time.process_time()
            app.post_message(events.Key(key, key))
            deadline = w0 + 5
            while (app.screen is roster or not app.screen.is_mounted
                   or app.focused is None) and time.perf_counter() < deadline:
                await asyncio.sleep(0.001)
            app.screen.call_after_refresh(drawn.set)
            await asyncio.wait_for(drawn.wait(), 5)
            walls.append((time.perf_counter() - w0) * 1000)
            cpus.append((time.process_time() - c0) * 1000)
            await pilot.pause(0.1)
            await pilot.press("escape")
            await pilot.pause(0.1)
            if app.screen is not roster:  # a form that asks before closing
                await pilot.press("y")
                await pilot.pause(0.1)
    return statistics.median(walls), statistics.median(cpus)


# ---------------------------------------------------------------- pseudo-terminal


def _pty_bytes(db: Path, runs: int, quiet_ms: float) -> dict[str, tuple[float, float]]:
    """Per case: median bytes written and median ms to the last byte."""
    quiet = quiet_ms / 1000
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "TEXTUAL_ANIMATIONS": "none",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    env.pop("NO_COLOR", None)
    child = subprocess.Popen([sys.executable, "-m", "ka_tui", "--db", str(db)],
                             stdin=slave, stdout=slave, stderr=slave, env=env,
                             close_fds=True)
    os.close(slave)
    out: dict[str, tuple[float, float]] = {}
    try:
        _read_until_quiet(master, 3.0, limit=60)   # the first frame, settled
        for name, setup, key, close, marker in CASES:
            if setup:
                os.write(master, setup)
                _read_until_quiet(master, quiet)
            sizes, times = [], []
            for _ in range(runs):
                t0 = time.perf_counter()
                os.write(master, key)
                size, last = _read_opening(master, marker, quiet)
                sizes.append(size)
                times.append((last - t0) * 1000)
                os.write(master, close)
                _read_opening(master, ROSTER_MARK, quiet)  # the roster drawn again
            if setup == b"t":
                os.write(master, b"t")
                _read_until_quiet(master, quiet)
            out[name] = (statistics.median(sizes), statistics.median(times))
        os.write(master, b"\x11")  # ctrl+q
        _read_until_quiet(master, 0.3)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(timeout=10)
        os.close(master)
    return out


def _read_opening(fd: int, marker: bytes, quiet: float) -> tuple[int, float]:
    """What a dialog writes when it opens: read until ``marker`` (its title)
    has come (up to 10 s: an edit form loads its row in a worker first, and a
    loaded machine is slow), then until ``quiet`` seconds pass without a byte."""
    seen = b""
    total, last = 0, time.perf_counter()
    deadline = last + 10
    while marker not in seen and time.perf_counter() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        data = os.read(fd, 65536)
        total += len(data)
        last = time.perf_counter()
        seen = seen[-200:] + data
    size, end = _read_until_quiet(fd, quiet)
    return total + size, end if size else last


def _row(figure: str, measured: str, budget: str, ok: bool | None) -> str:
    verdict = "" if ok is None else ("ok" if ok else "MISS")
    return f"{figure:<46} {measured:>10} {budget:>9}  {verdict}"


def run(runs: int = 5, quiet_ms: float = 300.0,
        headless_only: bool = False) -> list[tuple[str, str, str, bool | None]]:
    """The rows: (figure, measured, budget, ok)."""
    from ka_tui.store.demo import create_demo

    rows: list[tuple[str, str, str, bool | None]] = []
    with tempfile.TemporaryDirectory() as folder:
        demo = Path(folder) / "demo.db"
        create_demo(demo).close()
        for label, setup, key in (("character form", "", "e"),
                                  ("aircraft form", "t", "e")):
            wall, cpu = asyncio.run(_open_headless(demo, setup, key, runs))
            rows.append((f"headless: open {label}, key to usable", f"{wall:.0f} ms",
                         f"{OPEN_MS:.0f} ms", wall <= OPEN_MS))
            rows.append((f"headless: open {label}, CPU", f"{cpu:.0f} ms", "-", None))
        pty = {} if headless_only else _pty_bytes(demo, runs, quiet_ms)
        for name, (size, ms) in pty.items():
            rows.append((f"pty: bytes when {name} opens", f"{size / 1024:.1f} KB",
                         f"{OPEN_BYTES // 1024} KB", size <= OPEN_BYTES))
            rows.append((f"pty: {name}, key to last byte", f"{ms:.0f} ms",
                         f"{OPEN_MS:.0f} ms", ms <= OPEN_MS))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quiet", type=float, default=300.0,
                        help="ms without output that ends a frame (pty)")
    parser.add_argument("--headless", action="store_true",
                        help="only the headless part (no pseudo-terminal)")
    args = parser.parse_args()
    rows = run(args.runs, args.quiet, args.headless)
    print(f"forms and dialogs: demo campaign, 80x24, median of {args.runs}; "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    print(_row("figure", "measured", "budget", None))
    for row in rows:
        print(_row(*row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
