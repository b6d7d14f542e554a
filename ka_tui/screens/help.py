"""``?``: the keys of the current screen, then the global ones.

The app builds the rows from the live bindings (``key_rows``) so the list is
always what the keys really do, including bindings added by later modes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Static


@dataclass(frozen=True)
class KeyRow:
    section: str
    key: str
    description: str


def key_rows(app: App[object], screen: Screen[object]) -> list[KeyRow]:
    """Rows for every active binding of ``screen``: focused widget, screen, then app."""
    seen: set[tuple[str, str]] = set()
    here: list[KeyRow] = []
    glob: list[KeyRow] = []
    for key, active in screen.active_bindings.items():
        binding = active.binding
        description = binding.description or binding.action
        if not binding.description and not binding.show:
            continue
        marker = (binding.action, description)
        key_text = app.get_key_display(binding)
        if active.node is app:
            target, section = glob, "Global"
        else:
            target, section = here, _section_name(active.node, screen)
        if marker in seen:
            # Several keys for one action: one row listing them all.
            for i, row in enumerate(target):
                if row.description == description and row.section == section:
                    target[i] = KeyRow(section, f"{row.key} {key_text}", description)
            continue
        seen.add(marker)
        target.append(KeyRow(section, key_text, description))
    palette = app.COMMAND_PALETTE_BINDING if app.ENABLE_COMMAND_PALETTE else ""
    if palette and not any(r.description == "Command palette" for r in glob):
        glob.append(KeyRow("Global", app.get_key_display(Binding(palette, "")),
                           "Command palette"))
    return here + glob


def _section_name(node: object, screen: Screen[object]) -> str:
    if node is screen:
        return getattr(screen, "HELP_TITLE", None) or type(screen).__name__.removesuffix("Screen")
    return getattr(node, "HELP_TITLE", None) or type(node).__name__


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
    }
    HelpScreen > Vertical {
        width: 70;
        max-width: 100%;
        height: 90%;
        border: round $accent;
        background: $panel;
    }
    HelpScreen DataTable {
        height: 1fr;
    }
    HelpScreen .help-hint {
        color: $text-muted;
        height: 1;
    }
    """

    BINDINGS = [
        Binding("escape,q,question_mark", "close", "Close", id="help.close"),
    ]

    def __init__(self, rows: Iterable[KeyRow], title: str = "Keys") -> None:
        super().__init__()
        self.rows = list(rows)
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = self.title_text
            table: DataTable[str] = DataTable(cursor_type="row", zebra_stripes=True)
            table.add_columns("Where", "Key", "Does")
            for row in self.rows:
                table.add_row(row.section, row.key, row.description)
            yield table
            yield Static("Esc closes. Ctrl+P: every action by name.", classes="help-hint")

    def action_close(self) -> None:
        self.dismiss(None)
