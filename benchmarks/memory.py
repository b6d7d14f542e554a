"""Peak memory of ka-tui: the demo with every mode visited, and the large
campaign (1,000 characters, 300 aircraft). Budget: 150 MB each.

Usage: ``.venv/bin/python benchmarks/memory.py``

A fresh ``python -m ka_tui --db FILE`` on an 80x24 pseudo-terminal: the GM
moves the roster's cursor, visits every mode (``MODE_SPECS``' keys), the
settings and the help, then quits; the figure is the process's peak resident
set (``ru_maxrss`` from ``os.wait4``).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import PYTHON, PtySession, Row, print_table, row, section, user_env  # noqa: E402

MEMORY_MB = 150.0


def visit_everything(db: Path, folder: Path) -> float:
    from ka_tui.app import MODE_SPECS

    copy = folder / f"mem-{db.name}"
    shutil.copy(db, copy)
    s = PtySession([PYTHON, "-m", "ka_tui", "--db", str(copy)],
                   env=user_env(XDG_DATA_HOME=str(folder)))
    try:
        s.first_frame()
        s.settle(1.5, first_wait=1.5)
        for k in ["down"] * 10 + ["t", "down", "t", "e"]:
            s.key(k)
        s.settle(1.0, first_wait=1.0)
        s.key("escape")
        for spec in MODE_SPECS:
            s.key(spec.key)
            s.settle(1.0, first_wait=1.0)
        for k in ("s", "escape", "?", "escape"):
            s.key(k)
        s.key("1")
    finally:
        s.close(("escape", "ctrl+q"))
    return s.rss_mb


def rows(demo: Path, large: Path | None, folder: Path) -> list[Row]:
    out = [section("Peak memory (80x24 pty, ru_maxrss of the app's process)")]
    mb = visit_everything(demo, folder)
    out.append(row("demo, every mode visited", mb, "MB", f"< {MEMORY_MB:.0f} MB",
                   mb < MEMORY_MB))
    if large is not None and large.exists():
        mb = visit_everything(large, folder)
        out.append(row("1,000-character campaign, every mode visited", mb, "MB",
                       f"< {MEMORY_MB:.0f} MB", mb < MEMORY_MB))
    return out


def main() -> int:
    from benchmarks.startup import Campaigns

    with tempfile.TemporaryDirectory() as folder:
        c = Campaigns(Path(folder))
        table = rows(c.demo, c.large, Path(folder))
    return 1 if print_table(table) else 0


if __name__ == "__main__":
    raise SystemExit(main())
