"""The readings of the seeds (``rules/readings.py``, docs/rules/READINGS.md),
shown from the settings screen: every place where the rules decide what the
seeds do not say, with the seed's words, what the code does and why."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ka_tui.rules.readings import text_lines


class ReadingsScreen(ModalScreen[None]):
    """The table of readings, one block per row, scrolled with the keys."""

    HELP_TITLE = "Readings"

    DEFAULT_CSS = """
    ReadingsScreen {
        align: center middle;
    }
    ReadingsScreen > Vertical {
        width: 78;
        max-width: 100%;
        height: 90%;
        border: round $accent;
        background: $panel;
    }
    ReadingsScreen VerticalScroll {
        height: 1fr;
        scrollbar-size-vertical: 1;
    }
    ReadingsScreen .readings-hint {
        color: $text-muted;
        height: 1;
    }
    """

    BINDINGS = [
        Binding("escape,q,g", "close", "Close", id="readings.close"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Readings of the seeds (docs/rules/READINGS.md)"
            with VerticalScroll(id="readings-body"):
                yield Static("\n".join(text_lines()), id="readings-text", markup=False)
            yield Static("Esc closes · ↑↓ PgUp PgDn scroll", classes="readings-hint")

    def on_mount(self) -> None:
        self.query_one("#readings-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)
