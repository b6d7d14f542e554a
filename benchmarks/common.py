"""Shared parts of the benchmarks: a row of the one table, the pseudo-terminal
session every "what the terminal receives" figure uses, and the bare-Textual
reference app.

A row is ``(figure, value, unit, budget, ok)``: ``budget`` is a short text
(``"< 1.5 KB"``, ``"<= 1.3x bare"``, ``"-"`` for a figure shown for context)
and ``ok`` is True, False (MISS) or None (no budget). ``python -m benchmarks``
prints every module's rows in one table; each module also runs alone.
"""

from __future__ import annotations

import fcntl
import os
import resource
import select
import statistics
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
SIZE = (80, 24)
# A frame is over when the terminal has received nothing for this long.
QUIET_S = 0.25


class Row(NamedTuple):
    figure: str
    value: float | str
    unit: str
    budget: str
    ok: bool | None


def row(figure: str, value: float | str, unit: str, budget: str = "-",
        ok: bool | None = None) -> Row:
    return Row(figure, value, unit, budget, ok)


def verdict(ok: bool | None) -> str:
    return "" if ok is None else ("ok" if ok else "MISS")


def format_value(value: float | str, unit: str) -> str:
    if isinstance(value, str):
        return value
    if unit == "B":
        return f"{value / 1024:.2f} KB" if value >= 1024 else f"{value:.0f} B"
    if unit == "x":
        return f"{value:.2f}x"
    digits = 0 if abs(value) >= 100 else (1 if abs(value) >= 10 else 2)
    return f"{value:.{digits}f} {unit}"


def print_table(rows: Iterable[Row], out: Callable[[str], None] = print) -> int:
    """The one table; returns how many rows MISS their budget."""
    rows = list(rows)
    width = max([len("figure")] + [len(r.figure) for r in rows])
    out(f"{'figure':<{width}}  {'measured':>11}  {'budget':<16} verdict")
    out("-" * (width + 40))
    misses = 0
    for r in rows:
        if r.figure.startswith("## "):
            out(r.figure[3:])
            continue
        out(f"{r.figure:<{width}}  {format_value(r.value, r.unit):>11}  {r.budget:<16} "
            f"{verdict(r.ok)}")
        misses += r.ok is False
    return misses


def typed_and_burst(session: Callable[[str], tuple[PtySession, Path]], keys: Sequence[str]
                    ) -> tuple[list[float], float, Path, Path]:
    """``keys`` on one fresh session key by key (each key's seconds to its last
    byte), then on another in one write (milliseconds to the last byte); with
    the two sessions' campaign files, to compare what each left."""
    s, slow_db = session("key-by-key")
    try:
        times = [s.key(k)[1] for k in keys]
    finally:
        s.close(("escape", "ctrl+q"))
    s, fast_db = session("burst")
    try:
        began = time.perf_counter()
        os.write(s.master, b"".join(key_bytes(k) for k in keys))
        _, last = s.settle(0.5, first_wait=2.0)
        burst_ms = (last - began) * 1000
    finally:
        s.close(("escape", "ctrl+q"))
    return times, burst_ms, slow_db, fast_db


def run_on_demo(rows: Callable[[Path, Path, bool], list[Row]], doc: str | None,
                quick_help: str) -> int:
    """A benchmark module run alone: its rows on a fresh demo campaign, printed
    as ``python -m benchmarks`` prints them; exit status 1 on a miss."""
    import argparse
    import tempfile

    from ka_tui.store.demo import create_demo

    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=quick_help)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        demo = Path(folder) / "demo.db"
        create_demo(demo).close()
        table = rows(demo, Path(folder), args.quick)
    return 1 if print_table(table) else 0


def section(title: str) -> Row:
    return Row(f"## {title}", "", "", "", None)


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def peak_rss_self_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ------------------------------------------------------------ pseudo-terminal

KEYS = {"up": b"\x1b[A", "down": b"\x1b[B", "right": b"\x1b[C", "left": b"\x1b[D",
        "tab": b"\t", "enter": b"\r", "escape": b"\x1b", "backspace": b"\x7f",
        "ctrl+q": b"\x11"}


def key_bytes(key: str) -> bytes:
    return KEYS.get(key, key.encode())


def user_env(**extra: str) -> dict[str, str]:
    """The environment of a new user's terminal: no test switches. Python
    writes its bytecode as it does for a user (pip compiles an installed
    package; an editable checkout writes ``__pycache__`` on its first run):
    with ``PYTHONDONTWRITEBYTECODE`` left set, every start compiled each of
    ka-tui's modules again, 0.1 s the bare-Textual reference never paid."""
    env = {**os.environ, "TERM": "xterm-256color", **extra}
    for name in ("TEXTUAL_ANIMATIONS", "NO_COLOR", "TEXTUAL", "TEXTUAL_DEBUG",
                 "PYTHONDONTWRITEBYTECODE"):
        if name not in extra:
            env.pop(name, None)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return env


class PtySession:
    """A fresh process on an 80x24 pseudo-terminal, driven as a user would."""

    def __init__(self, argv: Sequence[str], env: dict[str, str] | None = None,
                 cwd: Path | None = None) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
        self.started = time.perf_counter()
        self.child = subprocess.Popen(
            list(argv), stdin=slave, stdout=slave, stderr=slave, env=env or user_env(),
            cwd=cwd, close_fds=True, start_new_session=True)
        os.close(slave)
        self.rss_mb = float("nan")
        self.last_output = b""
        self.cpu_at_last = float("nan")  # ``cpu_s()`` when the last byte came

    def cpu_s(self) -> float:
        """CPU seconds the process has used so far, with its children (the
        startup read's child), waited for or still running; nan where
        ``/proc`` is missing."""
        return process_cpu_s(self.child.pid)

    def settle(self, quiet: float = QUIET_S, limit: float = 20.0,
               first_wait: float | None = None) -> tuple[int, float]:
        """Read until ``quiet`` seconds pass with no byte: (bytes, time of the last
        byte, perf_counter). The bytes are kept in ``last_output``."""
        chunks: list[bytes] = []
        last = time.perf_counter()
        deadline = last + limit
        while time.perf_counter() < deadline:
            # Wait as long as it takes for the first byte, then ``quiet`` at most.
            first = deadline - time.perf_counter() if first_wait is None else first_wait
            wait = quiet if chunks else max(quiet, first)
            ready, _, _ = select.select([self.master], [], [], wait)
            if not ready:
                break
            try:
                data = os.read(self.master, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
            last = time.perf_counter()
            self.cpu_at_last = self.cpu_s()
        self.last_output = b"".join(chunks)
        return len(self.last_output), last

    def first_frame(self, quiet: float = QUIET_S) -> float:
        """Seconds from spawn to the last byte of the settled first screen."""
        _, last = self.settle(quiet)
        return last - self.started

    def key(self, key: str, quiet: float = QUIET_S) -> tuple[int, float]:
        """Press ``key``; (bytes the terminal received, seconds to its last byte)."""
        t0 = time.perf_counter()
        os.write(self.master, key_bytes(key))
        size, last = self.settle(quiet, first_wait=2.0)
        return size, (last - t0 if size else 0.0)

    def close(self, quit_keys: Sequence[str] = ("ctrl+q",)) -> None:
        """Quit as a user would (else kill); ``rss_mb``: the child's peak RSS."""
        for k in quit_keys:
            try:
                os.write(self.master, key_bytes(k))
            except OSError:
                break
            self.settle(0.1, limit=2, first_wait=0.5)
        # os.wait4 (not Popen.poll) reaps the child, for its peak RSS.
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                pid, _, usage = os.wait4(self.child.pid, os.WNOHANG)
            except ChildProcessError:
                break
            if pid:
                self.rss_mb = usage.ru_maxrss / 1024
                self.child.returncode = 0
                break
            self.settle(0.05, limit=0.2, first_wait=0.05)
        if self.child.returncode is None:
            self.child.kill()
            try:
                _, _, usage = os.wait4(self.child.pid, 0)
                self.rss_mb = usage.ru_maxrss / 1024
            except ChildProcessError:
                pass
            self.child.returncode = -9
        os.close(self.master)


def process_cpu_s(pid: int) -> float:
    """CPU seconds of ``pid`` and of every process under it, waited for or
    still running (utime + stime + cutime + cstime of each, ``/proc/PID/stat``):
    a child still at work when the figure is taken (the player's startup read
    sends his view, then goes on with his battle) counts for what it has used
    so far, as a child already waited for does. nan where ``/proc`` is missing."""
    stats = _proc_stats()
    if pid not in stats:
        return float("nan")
    total, todo = 0, [pid]
    while todo:
        here = todo.pop()
        total += stats[here][1]
        todo.extend(p for p, (parent, _) in stats.items() if parent == here)
    return total / os.sysconf("SC_CLK_TCK")


def _proc_stats() -> dict[int, tuple[int, int]]:
    """{pid: (parent pid, CPU clock ticks with its waited-for children)} of
    every process in ``/proc``."""
    out: dict[int, tuple[int, int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        out[int(name)] = (int(fields[1]), sum(int(f) for f in fields[11:15]))
    return out


def per_key(session: PtySession, keys: Sequence[str], quiet: float = QUIET_S
            ) -> tuple[list[int], list[float]]:
    """Bytes and latency (to the last byte) for each key, in turn."""
    sizes, times = [], []
    for k in keys:
        size, took = session.key(k, quiet)
        sizes.append(size)
        times.append(took)
    return sizes, times


# ------------------------------------------------------------ bare Textual

BARE_APP = """
from textual.app import App
from textual.widgets import Footer, Header, Static

class Bare(App):
    def compose(self):
        yield Header()
        yield Static("hello")
        yield Footer()

Bare().run()
"""


def bare_first_frame(runs: int) -> list[float]:
    """The reference: a bare Textual app (Header, one Static, Footer) on the same
    pty, timed the same way (spawn to the settled first screen)."""
    times = []
    for _ in range(runs):
        s = PtySession([PYTHON, "-c", BARE_APP])
        times.append(s.first_frame())
        s.close()
    return times
