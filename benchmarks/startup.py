"""Startup time: process start to the roster's first frame with its rows.

Usage: ``.venv/bin/python benchmarks/startup.py [--runs N]``

Each run is a fresh ``python`` process on an 80x24 pseudo-terminal (the real
Textual driver, not headless). The child reports the wall-clock time when the
roster has drawn its data (``KaApp.on_roster_ready``, called after the refresh
that shows the rows) and exits; the figure is that time minus the moment just
before the process was spawned. Compared with a bare Textual app (one Static,
timed at its first refresh) on the same machine, in the same way.

Campaigns: the demo, and a large one made here (1,000 characters with three
skills and a weapon each, 300 aircraft). Prints the median of N runs of each.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

BARE = """
import os, sys, time
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        yield Static("hello")
    def on_mount(self):
        self.call_after_refresh(self.done)
    def done(self):
        os.write(int(sys.argv[1]), f"{time.time()}\\n".encode())
        self.exit()

Bare().run()
"""

KA = """
import os, sys, time
from pathlib import Path
from ka_tui.app import KaApp

app = KaApp(Path(sys.argv[2]))
def ready():
    os.write(int(sys.argv[1]), f"{time.time()}\\n".encode())
    app.exit()
app.on_roster_ready = ready
app.run()
"""


def run_once(code: str, *args: str) -> float:
    """Seconds from spawn to the child's reported first frame."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    read_end, write_end = os.pipe()
    env = {**os.environ, "TERM": "xterm-256color", "TEXTUAL_ANIMATIONS": "none"}
    drain = threading.Thread(target=_drain, args=(master,), daemon=True)
    drain.start()
    start = time.time()
    child = subprocess.Popen(
        [sys.executable, "-c", code, str(write_end), *args],
        stdin=slave, stdout=slave, stderr=slave, pass_fds=(write_end,), env=env,
        close_fds=True)
    os.close(write_end)
    os.close(slave)
    with os.fdopen(read_end) as report:
        line = report.readline()
    child.wait(timeout=60)
    os.close(master)
    if not line:
        raise RuntimeError(f"child exited ({child.returncode}) without reporting a frame")
    return float(line) - start


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 65536):
            pass
    except OSError:
        pass


def make_large(path: Path, characters: int = 1000, aircraft: int = 300) -> None:
    from ka_tui.store.db import create_campaign
    from ka_tui.store.models import Aircraft, Character, Skill, Weapon

    levels = ("B", "T", "E", "M", "L")
    classes = ("fighter", "heavy_fighter", "attack", "bomber")

    def populate(db) -> None:  # type: ignore[no-untyped-def]
        with db.batch() as s:
            for i in range(characters):
                c = Character(name=f"Airman {i:04d}", role=("pilot", "crew", "ground")[i % 3],
                              strength=i % 10, agility=(i * 7) % 10)
                s.add(c)
                s.flush()
                for j, level in enumerate((levels[i % 5], levels[(i + 1) % 5], "B")):
                    s.add(Skill(character_id=c.id, name=f"Skill {j}", number=(i + j) % 12,
                                level=level, legendary=level == "L"))
                s.add(Weapon(character_id=c.id, name="Pistol", damage=3, is_firearm=True,
                             quick_slot=1))
            for k in range(aircraft):
                s.add(Aircraft(name=f"Aircraft {k:03d}", aircraft_class=classes[k % 4],
                               engines=(1, 2, 1, 2)[k % 4], pilot_id=(k % characters) + 1))

    create_campaign(path, "Large campaign", populate=populate).close()


def interleaved(runs: int, cases: list[tuple[str, ...]]) -> list[list[float]]:
    """Run the cases in turn, ``runs`` rounds, so a change in machine load
    affects every case alike; one warm-up round first (file cache, .pyc)."""
    for case in cases:
        run_once(*case)
    times: list[list[float]] = [[] for _ in cases]
    for _ in range(runs):
        for i, case in enumerate(cases):
            times[i].append(run_once(*case))
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    from ka_tui.store.demo import create_demo

    with tempfile.TemporaryDirectory() as folder:
        demo = Path(folder) / "demo.db"
        create_demo(demo).close()
        large = Path(folder) / "large.db"
        made = time.perf_counter()
        make_large(large)
        print(f"(large campaign built in {time.perf_counter() - made:.1f} s)")
        bare_all, small_all, big_all = interleaved(
            args.runs, [(BARE,), (KA, str(demo)), (KA, str(large))])
        bare, small, big = (statistics.median(t) for t in (bare_all, small_all, big_all))
    print(f"runs per figure: {args.runs} (median), 80x24 pty, {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"bare Textual app, first frame:        {bare * 1000:7.0f} ms")
    print(f"ka-tui demo roster, first data frame: {small * 1000:7.0f} ms "
          f"({small / bare:.2f}x bare; budget 1.50x)")
    print(f"ka-tui 1,000 chars + 300 aircraft:     {big * 1000:7.0f} ms "
          f"(+{(big - small) * 1000:.0f} ms over the demo; budget +300 ms)")
    print("all runs (ms): bare " + " ".join(f"{t * 1000:.0f}" for t in bare_all))
    print("               demo " + " ".join(f"{t * 1000:.0f}" for t in small_all))
    print("               large " + " ".join(f"{t * 1000:.0f}" for t in big_all))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
