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
    """Rows for every active binding of ``screen``: the screen's own keys first,
    then the focused widget's, then the global ones (app and Textual's own)."""
    own: list[KeyRow] = []
    widget: list[KeyRow] = []
    glob: list[KeyRow] = []
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if not binding.description:
            continue
        key_text = app.get_key_display(binding)
        helps: dict[str, str] = getattr(active.node, "PALETTE_HELP", {})
        description = helps.get(binding.id or "", binding.description)
        if active.node is app or (active.node is screen and binding.id is None):
            target, section = glob, "Global"
        elif active.node is screen:
            target, section = own, _section_name(screen)
        else:
            target, section = widget, _section_name(active.node)
        _add(target, KeyRow(section, key_text, description))
    palette = app.COMMAND_PALETTE_BINDING if app.ENABLE_COMMAND_PALETTE else ""
    if palette:
        _add(glob, KeyRow("Global", app.get_key_display(Binding(palette, "")),
                          "Command palette: every action by name"))
    return own + widget + glob


def _add(rows: list[KeyRow], row: KeyRow) -> None:
    """Append ``row``, or add its key to the row that already does the same."""
    for i, old in enumerate(rows):
        if old.description == row.description and old.section == row.section:
            if row.key not in old.key.split(" "):
                rows[i] = KeyRow(old.section, f"{old.key} {row.key}", old.description)
            return
    rows.append(row)


_WIDGET_NAMES = {"DataTable": "Table", "Input": "Text field", "TabbedContent": "Tabs",
                 "Tabs": "Tabs", "_Toggle": "Field"}


def _section_name(node: object) -> str:
    title = getattr(node, "HELP_TITLE", None)
    if title:
        return str(title)
    name = type(node).__name__
    return _WIDGET_NAMES.get(name, name.removesuffix("Screen"))


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
    }
    HelpScreen > Vertical {
        width: 78;
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
