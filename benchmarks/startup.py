"""First frame for each way of starting ka-tui, against a bare Textual app.

Usage: ``.venv/bin/python benchmarks/startup.py [--quick]``

Each run is a fresh process on an 80x24 pseudo-terminal (TERM=xterm-256color,
the real Linux driver; a new user's environment: no TEXTUAL_ANIMATIONS). The
figure is the time from spawning it to the last byte of its settled first
screen (nothing more for 250 ms), taken the same way for the reference: a bare
Textual app with Header, one Static and Footer (``common.BARE_APP``). Cases run
in turn, round after round, so a change in the machine's load hits them alike;
one warm-up round first (file cache, .pyc, the day's backup). Budget: the
median within 1.3x the bare app's median from the same run.

Ways of starting: ``ka-tui`` with one campaign in the data folder, ``--demo``
on an existing demo, ``--db PATH``, the picker (three campaigns), a player's
``play --as NAME``, and ``--db`` on a large campaign (1,000 characters, 300 aircraft).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (  # noqa: E402
    BARE_APP, PYTHON, PtySession, Row, median, print_table, row, section, user_env)

RATIO = 1.3


def make_large(path: Path, characters: int = 1000, aircraft: int = 300) -> None:
    """A large campaign: ``characters`` with three skills and a weapon each."""
    from ka_tui.store.db import create_campaign
    from ka_tui.store.models import AircraftRow, CharacterRow, SkillRow, WeaponRow

    levels = ("B", "T", "E", "M", "L")
    classes = ("fighter", "heavy_fighter", "attack", "bomber")

    def populate(db) -> None:  # type: ignore[no-untyped-def]
        with db.batch() as s:
            for i in range(characters):
                c = CharacterRow(name=f"Airman {i:04d}", role=("pilot", "crew", "ground")[i % 3],
                                 strength=i % 10, agility=(i * 7) % 10)
                s.add(c)
                s.flush()
                for j, level in enumerate((levels[i % 5], levels[(i + 1) % 5], "B")):
                    s.add(SkillRow(character_id=c.id, name=f"Skill {j}", number=(i + j) % 12,
                                   level=level, legendary=level == "L"))
                s.add(WeaponRow(character_id=c.id, name="Pistol", damage=3, is_firearm=True,
                                quick_slot=1))
            for k in range(aircraft):
                s.add(AircraftRow(name=f"Aircraft {k:03d}", aircraft_class=classes[k % 4],
                                  engines=(1, 2, 1, 2)[k % 4], pilot_id=(k % characters) + 1))

    create_campaign(path, "Large campaign", populate=populate).close()


class Campaigns:
    """The files every benchmark drives: the demo, a large campaign, data
    folders with one and with three campaigns. Made once per run."""

    def __init__(self, folder: Path, large: bool = True) -> None:
        from ka_tui.store.db import create_campaign
        from ka_tui.store.demo import create_demo

        self.folder = folder
        self.demo = folder / "demo.db"
        create_demo(self.demo).close()
        self.large = folder / "large.db"
        if large:
            make_large(self.large)
        self.one = folder / "one"                       # XDG_DATA_HOME with one campaign
        (self.one / "ka-tui").mkdir(parents=True)
        shutil.copy(self.demo, self.one / "ka-tui" / "demo.db")
        self.several = folder / "several"               # ... and with three
        (self.several / "ka-tui").mkdir(parents=True)
        shutil.copy(self.demo, self.several / "ka-tui" / "demo.db")
        for name in ("Normandy 1944", "Malta 1942"):
            create_campaign(self.several / "ka-tui" / f"{name.split()[0].lower()}.db",
                            name).close()
        self.empty = folder / "empty"                   # for --db runs: no data folder
        self.empty.mkdir()

    def env(self, data: Path | None = None) -> dict[str, str]:
        return user_env(XDG_DATA_HOME=str(data or self.empty))


def cases(c: Campaigns) -> list[tuple[str, list[str], dict[str, str]]]:
    ka = [PYTHON, "-m", "ka_tui"]
    found = [
        ("ka-tui (one campaign in the data folder)", ka, c.env(c.one)),
        ("ka-tui --demo (existing demo)", ka + ["--demo"], c.env(c.one)),
        ("ka-tui --db PATH (the demo)", ka + ["--db", str(c.demo)], c.env()),
        ("ka-tui, picker (three campaigns)", ka, c.env(c.several)),
        ("ka-tui play --as Arthur --db PATH (a player)",
         ka + ["play", "--as", "Arthur", "--db", str(c.demo)], c.env()),
    ]
    if c.large.exists():
        found.append(("ka-tui --db PATH (1,000 characters)", ka + ["--db", str(c.large)],
                      c.env()))
    return found


def first_frame(argv: list[str], env: dict[str, str]) -> float:
    s = PtySession(argv, env=env)
    took = s.first_frame()
    s.close()
    return took


def measure(c: Campaigns, runs: int) -> tuple[list[float], dict[str, list[float]]]:
    """(bare times, {case: times}), interleaved, after one warm-up round."""
    todo = [("bare", [PYTHON, "-c", BARE_APP], user_env())] + cases(c)
    for _, argv, env in todo:
        first_frame(argv, env)
    times: dict[str, list[float]] = {name: [] for name, _, _ in todo}
    for _ in range(runs):
        for name, argv, env in todo:
            times[name].append(first_frame(argv, env))
    return times.pop("bare"), times


def rows(c: Campaigns, runs: int) -> tuple[float, list[Row]]:
    """(bare median in seconds, rows)."""
    bare_times, times = measure(c, runs)
    bare = median(bare_times)
    out = [section(f"First frame (80x24 pty, spawn to settled screen, median of {runs})"),
           row("bare Textual (Header, Static, Footer) - reference", bare * 1000, "ms")]
    for name, t in times.items():
        ms = median(t) * 1000
        out.append(row(f"{name}: first frame", ms, "ms"))
        out.append(row(f"{name}: / bare", median(t) / bare, "x", f"<= {RATIO}x bare",
                       median(t) / bare <= RATIO))
    return bare, out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 runs instead of 5")
    parser.add_argument("--runs", type=int, default=None)
    args = parser.parse_args()
    runs = args.runs or (2 if args.quick else 5)
    with tempfile.TemporaryDirectory() as folder:
        _, table = rows(Campaigns(Path(folder)), runs)
    return 1 if print_table(table) else 0


if __name__ == "__main__":
    raise SystemExit(main())
