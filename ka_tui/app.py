"""The ka-tui application: modes, global bindings and command palette entries.

Screens live in ``ka_tui/screens`` (one module each); this module only wires
them together. Heavy imports (SQLModel) wait until a screen needs them so the
first frame comes quickly.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.binding import Binding


class KaApp(App[None]):
    TITLE = "ka-tui"
    SUB_TITLE = "King's Angels campaign manager"

    BINDINGS = [
        Binding("question_mark", "help", "Help", id="help"),
        Binding("q", "quit", "Quit", id="quit"),
    ]

    def __init__(self, db_path: Path) -> None:
        super().__init__()
        self.db_path = db_path
