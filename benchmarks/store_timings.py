"""Print how long the campaign store takes for the things a GM waits on.

Run: .venv/bin/python benchmarks/store_timings.py  (not part of the test run)
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def _time(label: str, fn: Callable[[], object], runs: int = 5) -> None:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    print(f"{label:<44} median {statistics.median(samples):7.1f} ms  "
          f"(min {min(samples):.1f}, max {max(samples):.1f}, n={runs})")


def main() -> None:
    start = time.perf_counter()
    import ka_tui.cli  # noqa: F401
    import ka_tui.store.db  # noqa: F401
    print(f"{'import ka_tui.cli + store.db (no SQLModel)':<44} {(time.perf_counter() - start) * 1000:7.1f} ms")
    start = time.perf_counter()
    from ka_tui.store import roster
    from ka_tui.store.db import check_file, create_campaign, open_campaign
    from ka_tui.store.demo import create_demo
    from ka_tui.store.transfer import export_campaign, import_campaign
    print(f"{'import roster/demo/transfer (SQLModel)':<44} {(time.perf_counter() - start) * 1000:7.1f} ms")

    folder = Path(tempfile.mkdtemp(prefix="ka-bench-"))
    n = iter(range(10_000))
    _time("create an empty campaign", lambda: create_campaign(folder / f"e{next(n)}.db", "X").close())
    _time("create the demo campaign", lambda: create_demo(folder / f"d{next(n)}.db").close())
    demo = sorted(folder.glob("d*.db"))[0]
    _time("check a campaign file (header + quick_check)", lambda: check_file(demo), runs=20)
    db = open_campaign(demo)
    _time("list characters (first call warms SQLAlchemy)", lambda: roster.list_characters(db), 20)
    people = roster.list_characters(db)
    _time("update one character (one transaction)",
          lambda: roster.update_character(db, people[0].id or 0, notes=str(time.time())), 20)
    _time("export the demo to JSON",
          lambda: export_campaign(db, folder / "demo.json", force=True))
    _time("import the demo JSON into a new file",
          lambda: import_campaign(folder / "demo.json", folder / f"i{next(n)}.db").db.close())
    db.close()
    print(f"demo file size: {demo.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
