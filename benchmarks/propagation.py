"""Live views across processes: how fast a change shows, and what
watching for changes costs when nothing happens.

Usage: ``.venv/bin/python benchmarks/propagation.py [--runs 50] [--idle 60]``

1. Propagation: a player's view (``PlayerApp``, headless, in this process)
   on a copy of the demo campaign; a *separate writer process* commits a
   change to the player's character (its notes) on each request and reports
   the wall-clock time of its commit. The figure is from that commit to the
   end of the player's first repaint that shows the new notes (timed in
   ``call_after_refresh`` once the sheet holds them). Median, p90 and max of
   ``--runs``.
2. Idle cost: a real ``ka-tui play --as …`` process on an 80x24
   pseudo-terminal (the real driver), left alone for ``--idle`` seconds after
   a 5 s warm-up; its user+system CPU time from ``/proc/PID/stat`` over that
   window, as a percentage of one core (budget: under 1 %).
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PLAYER = "Kasia Nowak"

WRITER = """
import sqlite3, sys, time
con = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=5)
con.execute("PRAGMA busy_timeout = 5000")
for line in sys.stdin:
    n = line.strip()
    con.execute("BEGIN IMMEDIATE")
    con.execute("UPDATE character SET notes = ? WHERE name = ?", (f"mark-{n}", sys.argv[2]))
    con.execute("COMMIT")
    print(time.time(), flush=True)
"""


def make_demo(folder: Path) -> Path:
    from ka_tui.store.demo import create_demo

    path = folder / "bench.db"
    create_demo(path).close()
    return path


async def propagation(db: Path, runs: int) -> list[float]:
    from textual.widgets import Static

    from ka_tui.player_app import PlayerApp
    from ka_tui.screens.player.screen import PlayerScreen

    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(db), PLAYER],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert writer.stdin is not None and writer.stdout is not None
    app = PlayerApp(db, PLAYER)
    delays: list[float] = []
    async with app.run_test(size=(80, 24)) as pilot:
        while not (isinstance(app.screen, PlayerScreen) and app.screen.player is not None):
            await pilot.pause(0.02)
        sheet = app.screen.query_one("#sheet", Static)
        await asyncio.sleep(1.0)  # the watch starts once the first frame is out
        for n in range(runs):
            writer.stdin.write(f"{n}\n")
            writer.stdin.flush()
            committed = float(writer.stdout.readline())
            painted: list[float] = []
            while f"mark-{n}" not in str(sheet.render()):
                await asyncio.sleep(0.002)
            app.call_after_refresh(lambda: painted.append(time.time()))
            while not painted:
                await asyncio.sleep(0.002)
            delays.append(painted[0] - committed)
            await asyncio.sleep(0.05)  # the next change comes a little later
    writer.stdin.close()
    writer.wait(timeout=10)
    return delays


def _ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime (fields 14, 15)


def idle_cpu(db: Path, seconds: float) -> float:
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    proc = subprocess.Popen([sys.executable, "-m", "ka_tui", "play", "--as", PLAYER,
                             "--db", str(db)], stdin=slave, stdout=slave, stderr=slave,
                            env=env, start_new_session=True)
    os.close(slave)
    stop = threading.Event()

    def drain() -> None:
        while not stop.is_set():
            try:
                if not os.read(master, 65536):
                    return
            except OSError:
                return

    threading.Thread(target=drain, daemon=True).start()
    try:
        time.sleep(5)  # start-up and first frame
        if proc.poll() is not None:
            raise SystemExit(f"the player view exited early ({proc.returncode})")
        hz = os.sysconf("SC_CLK_TCK")
        t0, c0 = time.monotonic(), _ticks(proc.pid)
        time.sleep(seconds)
        t1, c1 = time.monotonic(), _ticks(proc.pid)
        return 100.0 * (c1 - c0) / hz / (t1 - t0)
    finally:
        stop.set()
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
        os.close(master)


def rows(quick: bool = False) -> list[Any]:
    """Rows for ``python -m benchmarks``: propagation (median, p90) and idle CPU."""
    from benchmarks.common import row, section

    folder = Path(tempfile.mkdtemp(prefix="ka-prop-"))
    try:
        db = make_demo(folder)
        runs, idle = (10, 5.0) if quick else (30, 15.0)
        ms = sorted(d * 1000 for d in asyncio.run(propagation(db, runs)))
        p90 = ms[int(0.9 * (len(ms) - 1))]
        cpu = idle_cpu(db, idle)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return [section(f"Live views across processes ({runs} changes, "
                    f"{idle:.0f} s idle)"),
            row("another process's commit -> player's repaint (median)",
                statistics.median(ms), "ms", "< 1000 ms", statistics.median(ms) < 1000),
            row("another process's commit -> player's repaint (p90)", p90, "ms",
                "< 1000 ms", p90 < 1000),
            row("idle player view (pty): CPU, % of one core", cpu, "%", "< 1 %", cpu < 1.0)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--idle", type=float, default=60.0)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="ka-prop-"))
    try:
        db = make_demo(folder)
        delays = sorted(asyncio.run(propagation(db, args.runs)))
        ms = [d * 1000 for d in delays]
        print(f"commit -> other process's repaint, {len(ms)} runs: "
              f"median {statistics.median(ms):.0f} ms, "
              f"p90 {ms[int(0.9 * (len(ms) - 1))]:.0f} ms, max {ms[-1]:.0f} ms "
              f"(watch interval 250 ms; budget 1000 ms)")
        if args.idle > 0:
            cpu = idle_cpu(db, args.idle)
            verdict = "within" if cpu < 1.0 else "OVER"
            print(f"idle player view over {args.idle:.0f} s: {cpu:.2f} % of one core "
                  f"({verdict} the 1 % budget)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
