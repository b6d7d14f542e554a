"""Each mode's screen modules load while the GM reads the roster, not on the
first frame and not on the mode's first key.

A fresh process runs the real app headless at 80x24 on the demo: at the
roster's first frame no other mode's screen module is loaded; once the app
has been idle a few seconds, every mode's is (``KaApp._import_next_mode``),
so pressing 3 or 4 the first time does not wait for imports (on one core:
close combat's 95 ms, the air battle's 72 ms).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from ka_tui.app import MODE_SPECS
from ka_tui.store.demo import create_demo

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys
from pathlib import Path
from ka_tui.app import KaApp, MODE_SPECS

modes = [s.screen.partition(":")[0] for s in MODE_SPECS[1:]]
seen = {}
app = KaApp(Path(sys.argv[1]))

def later(tries=[0]):
    seen["idle"] = [m for m in modes if m in sys.modules]
    tries[0] += 1
    if len(seen["idle"]) < len(modes) and tries[0] < 300:   # a loaded machine: up to 60 s
        app.set_timer(0.2, later)
    else:
        app.exit()

def ready():
    seen["frame"] = [m for m in modes if m in sys.modules]
    app.set_timer(0.2, later)

app.on_roster_ready = ready
app.run(headless=True, size=(80, 24))
print("RESULT " + json.dumps(seen))
"""


def _modules(db: Path) -> dict[str, list[str]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(db)], env=env,
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    result: dict[str, list[str]] = json.loads(lines[-1][len("RESULT "):])
    return result


def test_mode_screens_load_after_the_first_frame_while_the_app_is_idle(
        tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    create_demo(db).close()
    every = [s.screen.partition(":")[0] for s in MODE_SPECS[1:]]
    result = _modules(db)
    assert result["frame"] == []
    assert result["idle"] == every
