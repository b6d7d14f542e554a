"""``?``: the keys of the current screen, then the global ones.

The app builds the rows from the live bindings (``key_rows``) so the list is
always what the keys really do, including bindings added by later modes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from textual.app import App, ComposeResult
from textual.binding import Binding
from rich.table import Table
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static


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
        glob = [r for r in glob if r.description.lower() != "palette"]
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


_WIDGET_NAMES = {"DataTable": "Table", "RollLogTable": "Roll log", "FastTable": "Table",
                 "OptionList": "List", "Select": "Dropdown", "SelectOverlay": "Dropdown", "Input": "Text field", "TabbedContent": "Tabs",
                 "Tabs": "Tabs", "_Toggle": "Field", "ScrollableContainer": "Scrolling"}


def _section_name(node: object) -> str:
    title = getattr(node, "HELP_TITLE", None)
    if title:
        return str(title)
    for cls in type(node).__mro__:  # RollKeyInput reads as "Text field", a
        # VerticalScroll as "Scrolling": never a class name for the reader
        if cls.__name__ in _WIDGET_NAMES:
            return _WIDGET_NAMES[cls.__name__]
    return type(node).__name__.removesuffix("Screen")


class HelpScreen(ModalScreen[None]):
    """The key list, wrapped to the window (nothing cut off at 80 columns)."""

    CSS_PATH = "help.tcss"

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
            with VerticalScroll(id="help-body"):
                yield Static(key_table(self.rows), id="help-keys")
            yield Static(KEYS_RULE, classes="help-hint")

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)


KEYS_RULE = "Esc closes · ↑↓ PgUp PgDn scroll · Ctrl+P: every action by name"

# Shown under the global keys: the rule the bindings follow (app.py).
RULE_LINES = (
    ("Global", "digits", "A digit switches mode unless a text field or a dropdown has "
     "the focus; the F-key of the same number switches from anywhere."),
    ("Global", "esc", "Leaves a text field or dropdown (a form cancels; the roster "
     "filter clears), so the other keys work again."),
)


def key_table(rows: Iterable[KeyRow]) -> Table:
    """Rows grouped by section (named once), descriptions wrapped."""
    table = Table(box=None, show_header=True, header_style="bold", expand=True,
                  padding=(0, 1), show_edge=False)
    table.add_column("Where", no_wrap=True, style="bold", max_width=14)
    table.add_column("Key", no_wrap=True, max_width=12)
    table.add_column("Does", ratio=1, overflow="fold")
    last = ""
    for row in [*rows, *(KeyRow(*line) for line in RULE_LINES)]:
        table.add_row("" if row.section == last else row.section, row.key, row.description)
        last = row.section
    return table
