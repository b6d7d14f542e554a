"""Without a terminal (stdin or stdout not a TTY: ka-tui </dev/null, ssh host
ka-tui without -t) the app says so in one line and exits 2, instead of spinning
a core waiting for keys."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_without_a_terminal_says_so_and_exits_2(tmp_path: Path) -> None:
    """``ka-tui --demo </dev/null`` (or ``ssh host ka-tui`` without -t) used to
    spin a core forever; now one line naming ``ssh -t`` and exit code 2."""
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"),
           "PYTHONPATH": str(ROOT)}
    started = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "ka_tui", "--demo"], stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 2, run.stderr
    assert "needs a terminal" in run.stderr and "ssh -t" in run.stderr
    assert "Traceback" not in run.stderr
    assert time.monotonic() - started < 60

