"""One core: first frames, CPU to the first frame, each mode's first and later
visit, and the bytes an idle screen sends.

Usage: ``.venv/bin/python -m benchmarks.one_core [--quick] [--runs N] [--cpu N]
[--compare ROOT]``

Every process runs pinned to one CPU (``taskset -c CPU``, where ``taskset``
exists; the section title says whether it is pinned), as on a small server the
players SSH into, or a laptop that is busy: Textual's start, the campaign's
read and whatever the app begins before its first frame share that core.

- First frame: spawn to the last byte of the settled first screen (nothing
  more for 250 ms; ``common.PtySession``), for the bare-Textual reference
  (``common.BARE_APP``), ``ka-tui`` with one campaign in the data folder,
  ``ka-tui --db PATH`` and ``ka-tui play --as NAME``, rounds interleaved after
  a warm-up round. Budget: the median within 1.5x the bare app's.
- CPU to the first frame: user + system CPU of the process and its
  children (waited for or still running: the player's startup read goes on
  after his view is in) when that last byte came (``/proc/PID/stat``, in
  clock ticks of 10 ms). Budget: within 1.5x the bare app's.
- Modes: ``ka-tui --db`` on the demo; with the app idle (no CPU used for
  0.5 s), F2 ... F7 opens each mode for the first time, F1 goes back to the
  roster, then the same F-key opens it again (a later visit). The figure is
  the key to the last byte of its settled screen. Budgets: 300 ms for a first
  visit, 150 ms for a later one.
- Idle: in each mode, and on the roster with the character form open, the
  bytes the terminal receives in 10 s with no key pressed. Budget: none.

``--compare ROOT`` runs another checkout (its ``.venv``) in the same rounds,
interleaved with this one, and prints both (before / after a change) beside
the machine's load average.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (  # noqa: E402
    BARE_APP, PYTHON, QUIET_S, ROOT, PtySession, Row, median, print_table, row,
    section, user_env)

RATIO = 1.5
FIRST_VISIT_MS = 300.0
LATER_VISIT_MS = 150.0
IDLE_S = 10.0
# F-keys switch modes from anywhere (a digit types into a focused text field)
F_KEYS = {1: "\x1bOP", 2: "\x1bOQ", 3: "\x1bOR", 4: "\x1bOS", 5: "\x1b[15~",
          6: "\x1b[17~", 7: "\x1b[18~"}
MODES = ((2, "roller"), (3, "close combat"), (4, "air battle"), (5, "campaign"),
         (6, "scene order"), (7, "table"))


class Program(NamedTuple):
    """A checkout to run: its label, its Python and its folder."""

    label: str
    python: str
    root: Path

    def env(self, **extra: str) -> dict[str, str]:
        env = user_env(**extra)
        env["PYTHONPATH"] = str(self.root)
        return env


HERE = Program("", PYTHON, ROOT)


def compared(root: Path) -> Program:
    python = root / ".venv" / "bin" / "python"
    if not python.exists():
        raise SystemExit(f"no {python}: make that checkout's venv first")
    return Program("before", str(python), root.resolve())


def pin(cpu: int) -> list[str]:
    """The prefix that pins a command to ``cpu``, or nothing where it cannot."""
    if shutil.which("taskset") is None or not hasattr(os, "sched_getaffinity"):
        return []
    if cpu not in os.sched_getaffinity(0):
        return []
    return ["taskset", "-c", str(cpu)]


def wait_idle(session: PtySession, quiet: float = 0.5, limit: float = 15.0,
              most: float = 0.015) -> None:
    """Until the process uses (almost) no CPU for ``quiet`` seconds: after a
    first frame the roster imports the store's write half in a thread, and
    a mode's screen loads after it shows; a key pressed then would wait for
    that, which is not what a visit costs. Terminal output is drained meanwhile."""
    deadline = time.perf_counter() + limit
    used = session.cpu_s()
    since = time.perf_counter()
    while time.perf_counter() < deadline:
        session.settle(0.1, limit=0.1, first_wait=0.1)
        now = session.cpu_s()
        if now - used > most:
            used, since = now, time.perf_counter()
        elif time.perf_counter() - since >= quiet:
            return


def idle_bytes(session: PtySession, seconds: float = IDLE_S) -> int:
    """Bytes the terminal receives in ``seconds`` with no key pressed."""
    total = 0
    end = time.perf_counter() + seconds
    while (left := end - time.perf_counter()) > 0:
        size, _ = session.settle(quiet=left, limit=left, first_wait=left)
        total += size
    return total


def press(session: PtySession, key: str, limit: float = 15.0) -> float:
    """Seconds from ``key`` to the last byte of the settled screen after it
    (inf when nothing at all came within 5 s). Settled: no byte for a
    while *and* no CPU used meanwhile, as a screen may be written in parts
    with a pause between them (the pointer shape at once, the frame once
    the mode is built): the first part alone is not the visit."""
    t0 = time.perf_counter()
    os.write(session.master, key.encode())
    total, last = session.settle(first_wait=5.0)
    while total and time.perf_counter() - t0 < limit:
        used = session.cpu_s()
        size, at = session.settle(first_wait=QUIET_S)
        if size:
            total, last = total + size, at
        elif session.cpu_s() - used <= 0.015:
            break
    return last - t0 if total else float("inf")


# ---------------------------------------------------------------- first frames


class Case(NamedTuple):
    name: str
    args: list[str]
    data: str  # "one": XDG_DATA_HOME with the demo; "": an empty one


def cases(demo: Path) -> list[Case]:
    return [Case("bare Textual (Header, Static, Footer)", [], ""),
            Case("ka-tui (one campaign in the data folder)", [], "one"),
            Case("ka-tui --db PATH (the demo)", ["--db", str(demo)], ""),
            Case("ka-tui play --as Arthur --db PATH", ["play", "--as", "Arthur", "--db",
                                                        str(demo)], "")]


def _spawn(program: Program, case: Case, folder: Path, prefix: list[str]) -> PtySession:
    data = folder / ("one" if case.data else "empty")
    env = program.env(XDG_DATA_HOME=str(data))
    argv = ([program.python, "-c", BARE_APP] if case.name.startswith("bare")
            else [program.python, "-m", "ka_tui", *case.args])
    # in the checkout's folder: ``python -m`` puts the working folder first on
    # sys.path, so from another checkout's it would run that one's ka_tui
    return PtySession(prefix + argv, env=env, cwd=program.root)


def first_frames(programs: Sequence[Program], demo: Path, folder: Path, runs: int,
                 prefix: list[str]) -> dict[tuple[str, str], tuple[list[float], list[float]]]:
    """{(program, case): (seconds to the first frame, CPU seconds then)},
    every case of every program in turn each round, after a warm-up round."""
    found: dict[tuple[str, str], tuple[list[float], list[float]]] = {}
    todo = [(p, c) for c in cases(demo) for p in programs]
    for round_no in range(runs + 1):
        for program, case in todo:
            s = _spawn(program, case, folder, prefix)
            took = s.first_frame()
            cpu = s.cpu_at_last
            s.close()
            if round_no:  # round 0 warms the file cache, the bytecode, the day's backup
                walls, cpus = found.setdefault((program.label, case.name), ([], []))
                walls.append(took)
                cpus.append(cpu)
    return found


def first_frame_rows(found: dict[tuple[str, str], tuple[list[float], list[float]]],
                     label: str, demo: Path, runs: int, pinned: bool) -> list[Row]:
    where = "pinned to one CPU" if pinned else "NOT pinned: no taskset"
    out = [section(f"First frame on one core (80x24 pty, {where}, median of {runs})")]
    bare_wall = median(found[(label, cases(demo)[0].name)][0])
    bare_cpu = median(found[(label, cases(demo)[0].name)][1])
    for case in cases(demo):
        walls, cpus = found[(label, case.name)]
        wall, cpu = median(walls), median(cpus)
        if case.name.startswith("bare"):
            out.append(row(f"1 core: {case.name}: first frame", wall * 1000, "ms"))
            out.append(row(f"1 core: {case.name}: CPU to the first frame", cpu * 1000, "ms"))
            continue
        out.append(row(f"1 core: {case.name}: first frame", wall * 1000, "ms"))
        out.append(row(f"1 core: {case.name}: / bare", wall / bare_wall, "x",
                       f"<= {RATIO}x bare", wall / bare_wall <= RATIO))
        out.append(row(f"1 core: {case.name}: CPU to the first frame", cpu * 1000, "ms",
                       f"<= {RATIO}x bare ({bare_cpu * RATIO * 1000:.0f})",
                       cpu <= bare_cpu * RATIO))
    return out


# ---------------------------------------------------------------- modes


class Visits(NamedTuple):
    first: dict[str, list[float]]   # mode -> seconds, key to the last byte
    later: dict[str, list[float]]
    roster: list[float]             # back to the roster (a later visit of mode 1)
    idle: dict[str, int]            # bytes in IDLE_S seconds, first run only


def visit_modes(program: Program, demo: Path, folder: Path, prefix: list[str],
                visits: Visits, idle: bool) -> None:
    copy = folder / f"modes-{os.getpid()}-{program.label or 'this'}.db"
    shutil.copy(demo, copy)
    s = PtySession(prefix + [program.python, "-m", "ka_tui", "--db", str(copy)],
                   env=program.env(XDG_DATA_HOME=str(folder / "empty")), cwd=program.root)
    try:
        s.first_frame()
        wait_idle(s)
        if idle:
            visits.idle["roster"] = idle_bytes(s)
            s.key("e")                      # the character form (a text field focused)
            wait_idle(s)
            visits.idle["roster, character form open"] = idle_bytes(s)
            s.key("escape")
            wait_idle(s)
        for number, mode in MODES:
            visits.first.setdefault(mode, []).append(press(s, F_KEYS[number]))
            wait_idle(s)
            visits.roster.append(press(s, F_KEYS[1]))
            wait_idle(s)
            visits.later.setdefault(mode, []).append(press(s, F_KEYS[number]))
            wait_idle(s)
            if idle:
                visits.idle[mode] = idle_bytes(s)
            press(s, F_KEYS[1])
            wait_idle(s)
    finally:
        s.close(("escape", "ctrl+q"))
        for side in (copy, Path(f"{copy}-wal"), Path(f"{copy}-shm")):
            side.unlink(missing_ok=True)


def measure_modes(programs: Sequence[Program], demo: Path, folder: Path, runs: int,
                  prefix: list[str], idle: bool = True) -> dict[str, Visits]:
    found = {p.label: Visits({}, {}, [], {}) for p in programs}
    for round_no in range(runs):
        for program in programs:
            visit_modes(program, demo, folder, prefix, found[program.label],
                        idle=idle and round_no == 0)
    return found


def mode_rows(visits: Visits, runs: int, pinned: bool) -> list[Row]:
    where = "pinned to one CPU" if pinned else "NOT pinned: no taskset"
    out = [section(f"Modes on one core (80x24 pty, {where}, the app idle before each key, "
                   f"median of {runs})")]
    for _, mode in MODES:
        first = median(visits.first.get(mode, [])) * 1000
        later = median(visits.later.get(mode, [])) * 1000
        out.append(row(f"1 core: {mode}: first visit, key to settled screen", first, "ms",
                       f"< {FIRST_VISIT_MS:.0f} ms", first < FIRST_VISIT_MS))
        out.append(row(f"1 core: {mode}: later visit", later, "ms",
                       f"< {LATER_VISIT_MS:.0f} ms", later < LATER_VISIT_MS))
    back = median(visits.roster) * 1000
    out.append(row("1 core: roster: later visit (back from each mode)", back, "ms",
                   f"< {LATER_VISIT_MS:.0f} ms", back < LATER_VISIT_MS))
    if visits.idle:
        out.append(section(f"Idle screens ({IDLE_S:.0f} s, no key pressed: bytes sent)"))
        for where_, size in visits.idle.items():
            out.append(row(f"idle: {where_}", size, "B", "0 B", size == 0))
    return out


# ---------------------------------------------------------------- the table


def make_files(folder: Path) -> Path:
    from ka_tui.store.demo import create_demo

    demo = folder / "demo.db"
    create_demo(demo).close()
    (folder / "one" / "ka-tui").mkdir(parents=True)
    shutil.copy(demo, folder / "one" / "ka-tui" / "demo.db")
    (folder / "empty").mkdir()
    return demo


def rows(quick: bool, runs: int | None = None, cpu: int = 0,
         programs: Sequence[Program] = (HERE,)) -> dict[str, list[Row]]:
    """{program label: rows}, every program measured in the same rounds."""
    prefix = pin(cpu)
    runs = runs or (3 if quick else 7)
    with tempfile.TemporaryDirectory(prefix="ka-one-core-") as name:
        folder = Path(name)
        demo = make_files(folder)
        frames = first_frames(programs, demo, folder, runs, prefix)
        mode_runs = 1 if quick else 3
        visits = measure_modes(programs, demo, folder, mode_runs, prefix)
    return {p.label: first_frame_rows(frames, p.label, demo, runs, bool(prefix))
            + mode_rows(visits[p.label], mode_runs, bool(prefix)) for p in programs}


def print_compare(before: list[Row], after: list[Row]) -> int:
    """Both checkouts' rows side by side; returns how many of ``after`` MISS."""
    from benchmarks.common import format_value, verdict

    width = max(len(r.figure) for r in after)
    print(f"{'figure':<{width}}  {'before':>11}  {'after':>11}  {'budget':<16} verdict")
    print("-" * (width + 54))
    misses = 0
    for b, a in zip(before, after, strict=True):
        if a.figure.startswith("## "):
            print(a.figure[3:])
            continue
        print(f"{a.figure:<{width}}  {format_value(b.value, b.unit):>11}  "
              f"{format_value(a.value, a.unit):>11}  {a.budget:<16} {verdict(a.ok)}")
        misses += a.ok is False
    return misses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 runs, modes once")
    parser.add_argument("--runs", type=int, default=None, help="first-frame rounds")
    parser.add_argument("--cpu", type=int, default=0, help="the CPU to pin to (default 0)")
    parser.add_argument("--compare", type=Path, default=None, metavar="ROOT",
                        help="another checkout (with its .venv), measured in the same rounds")
    args = parser.parse_args()
    programs = [HERE] if args.compare is None else [compared(args.compare), HERE]
    load = os.getloadavg()
    began = time.perf_counter()
    found = rows(args.quick, args.runs, args.cpu, programs)
    print(f"ka-tui one-core benchmarks: {os.cpu_count()} CPUs, load average "
          f"{load[0]:.2f} at the start, {os.getloadavg()[0]:.2f} at the end, "
          f"{time.perf_counter() - began:.0f} s")
    if args.compare is None:
        return 1 if print_table(found[""]) else 0
    print(f"before: {args.compare.resolve()}   after: {ROOT}")
    return 1 if print_compare(found["before"], found[""]) else 0


if __name__ == "__main__":
    raise SystemExit(main())
