"""Issue 12, the table tools a GM missed on a real night: start-up without a
terminal (item 3), the roller (14, 21, 24, 25), settings (8, 17) and the
scene order tracker (26, S0 §Close combat 1)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------- item 3

def test_item3_without_a_terminal_says_so_and_exits_2(tmp_path: Path) -> None:
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
