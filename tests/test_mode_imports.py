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

import pytest

from ka_tui.app import MODE_SPECS, ModeSpec
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


VISIT = r"""
import json, sys
from pathlib import Path
from ka_tui.app import KaApp
from ka_tui.screens.roster.screen import RosterScreen

# the roster's own warm-up imports the write half ahead of an edit: not a visit's
RosterScreen._warm_up = lambda self: None
mode = sys.argv[2]
app = KaApp(Path(sys.argv[1]))
seen = {}

def done(tries=[0]):
    tries[0] += 1
    busy = any(w.is_running for w in app.workers)
    if (busy or tries[0] < 5) and tries[0] < 300:   # a loaded machine: up to 60 s
        app.set_timer(0.2, done)
        return
    seen["screen"] = type(app.screen).__name__
    seen["sqlmodel"] = sorted(m for m in sys.modules if m.split(".")[0] in
                              ("sqlmodel", "sqlalchemy", "pydantic"))[:3]
    app.exit()

def ready():
    app.call_later(app.run_action, f"switch_mode({mode!r})")
    app.set_timer(0.2, done)

app.on_roster_ready = ready
app.run(headless=True, size=(80, 24))
print("RESULT " + json.dumps(seen))
"""


@pytest.mark.parametrize("spec", MODE_SPECS[1:], ids=[s.name for s in MODE_SPECS[1:]])
def test_a_modes_first_visit_right_after_the_start_loads_no_sqlmodel(
        spec: ModeSpec, tmp_path: Path) -> None:
    """Each mode reads its first screen by plain SQL (``db.plain_read``): a
    GM who opens it right after the start does not wait for SQLModel (with
    SQLAlchemy and pydantic, 0.2-0.3 s of one core) to import."""
    db = tmp_path / "demo.db"
    create_demo(db).close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", VISIT, str(db), spec.name], env=env,
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    result = json.loads(lines[-1][len("RESULT "):])
    assert result["screen"] == spec.screen.partition(":")[2]
    assert result["sqlmodel"] == []
