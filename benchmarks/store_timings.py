"""How long the campaign store takes for the things a GM waits on.

Run: ``.venv/bin/python benchmarks/store_timings.py [--quick]`` (not part of the
test run). Headless compute, medians of several runs.

Budgets (decisions: no figure was asked for store timings):
what a GM waits for at a key (check a file, list the roster, save one
character) under 100 ms; one-off jobs (create a campaign, build the demo,
export, import) under 2 s.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Row, print_table, row, section  # noqa: E402

KEY_MS = 100.0
JOB_MS = 2000.0


def _median_ms(fn: Callable[[], object], runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def rows(quick: bool = False) -> list[Row]:
    few, many = (2, 5) if quick else (5, 20)
    out = [section("Store (headless, median)")]
    start = time.perf_counter()
    import ka_tui.cli  # noqa: F401
    import ka_tui.store.db  # noqa: F401
    out.append(row("import ka_tui.cli + store.db (no SQLModel)",
                   (time.perf_counter() - start) * 1000, "ms"))
    start = time.perf_counter()
    from ka_tui.store import roster
    from ka_tui.store.db import check_file, create_campaign, open_campaign
    from ka_tui.store.demo import create_demo
    from ka_tui.store.transfer import export_campaign, import_campaign
    out.append(row("import roster/demo/transfer (SQLModel)",
                   (time.perf_counter() - start) * 1000, "ms"))

    def job(name: str, fn: Callable[[], object], runs: int = few) -> None:
        ms = _median_ms(fn, runs)
        out.append(row(f"store: {name}", ms, "ms", f"< {JOB_MS / 1000:.0f} s", ms < JOB_MS))

    def key(name: str, fn: Callable[[], object], runs: int = many) -> None:
        ms = _median_ms(fn, runs)
        out.append(row(f"store: {name}", ms, "ms", f"< {KEY_MS:.0f} ms", ms < KEY_MS))

    with tempfile.TemporaryDirectory(prefix="ka-bench-") as name:
        folder = Path(name)
        n = iter(range(10_000))
        job("create an empty campaign",
            lambda: create_campaign(folder / f"e{next(n)}.db", "X").close())
        job("create the demo campaign", lambda: create_demo(folder / f"d{next(n)}.db").close())
        demo = sorted(folder.glob("d*.db"))[0]
        key("check a campaign file (header + quick_check)", lambda: check_file(demo))
        db = open_campaign(demo)
        roster.list_characters(db)  # the first call warms SQLAlchemy
        key("list characters", lambda: roster.list_characters(db))
        people = roster.list_characters(db)
        key("update one character (one transaction)",
            lambda: roster.update_character(db, people[0].id or 0, notes=str(time.time())))
        job("export the demo to JSON",
            lambda: export_campaign(db, folder / "demo.json", force=True))
        job("import the demo JSON into a new file",
            lambda: import_campaign(folder / "demo.json", folder / f"i{next(n)}.db").db.close())
        db.close()
    return out


def main() -> None:
    print_table(rows("--quick" in sys.argv))


if __name__ == "__main__":
    main()
