"""The layering, checked by the suite, not by prose.

- import-linter (``[tool.importlinter]`` in pyproject.toml): the layers
  cli > app > screens > widgets > store > rules, the rules pure (no Textual,
  database or Rich), no import circles among siblings;
- a screen reaches the app only through ``ka_tui.screens.door``;
- the store modules screens import at module level load no SQLModel or
  SQLAlchemy, and neither does the roster's first frame.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCREENS = ROOT / "ka_tui" / "screens"


def test_import_linter_contracts_are_kept() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    assert lint.exists(), f"import-linter is in the test extra: {lint}"
    done = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": str(lint.parent)},
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 kept, 0 broken" in done.stdout


def _screen_files() -> list[Path]:
    return sorted(SCREENS.rglob("*.py"))


def test_screens_reach_the_app_only_through_the_door() -> None:
    """No ``getattr(self.app, …)``, no ``app._screen_stacks``, no import of ka_tui.app."""
    offences = []
    for path in _screen_files():
        text = path.read_text(encoding="utf-8")
        for needle in ("getattr(self.app", "getattr(screen.app", "_screen_stacks",
                       "campaign_db_of"):
            if needle in text:
                offences.append(f"{path.relative_to(ROOT)}: {needle}")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.module == "ka_tui.app":
                offences.append(f"{path.relative_to(ROOT)}:{node.lineno} imports ka_tui.app")
    assert offences == []


def _store_modules_screens_import() -> set[str]:
    """Store modules a screen module imports at its top level (not in a function)."""
    found: set[str] = set()
    for path in _screen_files():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.ImportFrom) or not node.module:
                continue
            if node.module == "ka_tui.store":
                found |= {f"ka_tui.store.{a.name}" for a in node.names}
            elif node.module.startswith("ka_tui.store."):
                found.add(node.module)
    return found


def _loaded_after(*modules: str) -> dict[str, bool]:
    code = (f"import importlib, json, sys\n"
            f"for m in {list(modules)!r}: importlib.import_module(m)\n"
            f"print(json.dumps({{k: k in sys.modules for k in ('sqlmodel', 'sqlalchemy')}}))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT)}, timeout=120, check=True)
    loaded: dict[str, bool] = json.loads(done.stdout)
    return loaded


def test_store_modules_screens_import_at_the_top_are_light() -> None:
    modules = _store_modules_screens_import()
    assert {"ka_tui.store.errors", "ka_tui.store.campaign", "ka_tui.store.roller_reads",
            "ka_tui.store.aircraft_view", "ka_tui.store.fights"} <= modules
    assert _loaded_after(*sorted(modules)) == {"sqlmodel": False, "sqlalchemy": False}


def test_the_roster_first_frame_imports_no_sqlmodel() -> None:
    assert _loaded_after("ka_tui.app", "ka_tui.screens.roster.screen",
                         "ka_tui.store.roster_reads") == {"sqlmodel": False,
                                                           "sqlalchemy": False}
