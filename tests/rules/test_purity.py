"""The rules package stays pure (DEVELOPERS.md: no Textual, no SQLModel, no I/O)
and passes ``mypy --strict``."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import ka_tui.rules

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("textual", "sqlmodel", "sqlalchemy", "sqlite3", "ka_tui.store",
             "ka_tui.screens", "ka_tui.widgets", "ka_tui.app")


def test_rules_import_nothing_from_ui_or_storage() -> None:
    modules = [m.name for m in pkgutil.walk_packages(ka_tui.rules.__path__, "ka_tui.rules.")]
    assert modules, "no rules modules found"
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"bad = sorted(n for n in sys.modules if n.split('.')[0] in {FORBIDDEN!r} "
        f"or any(n == f or n.startswith(f + '.') for f in {FORBIDDEN!r}))\n"
        "print('\\n'.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == ""


def test_rules_pass_mypy_strict() -> None:
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                          "ka_tui/rules"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
