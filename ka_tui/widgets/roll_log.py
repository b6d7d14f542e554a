"""The roll-log pane: past rolls in a table, newest first, with a text filter.

The pane shows what it is given (``store.roll_log.LoggedRoll`` rows) and asks
its screen for more through messages: ``FilterChanged`` when the GM types in
the filter (the screen queries the store, which holds every roll, not just
the rows on screen) and ``Picked`` when he opens a row. Times are shown in
the local time zone; the date is shown only when the rows span several days.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Input

if TYPE_CHECKING:
    from ka_tui.store.roll_log import LoggedRoll

# title, width (None: the rest). Cells carry their own one-space gap
# (cell_padding 0) so six columns fit 80 columns.
COLUMNS: tuple[tuple[str, int | None], ...] = (
    ("When", 6), ("Who", 12), ("What", 14), ("Result", 24), ("Pool", 13), ("Faces", None))


def local_time(moment: datetime) -> datetime:
    return moment.astimezone()


def time_cells(rolls: Sequence[LoggedRoll]) -> list[str]:
    """``20:15`` per roll, or ``03-01 20:15`` when the rows span several days."""
    local = [local_time(r.time) for r in rolls]
    several_days = len({t.date() for t in local}) > 1
    fmt = "%m-%d %H:%M" if several_days else "%H:%M"
    return [t.strftime(fmt) for t in local]


class RollLogTable(DataTable[Text]):
    """The table of rolls (focusable; enter opens the row)."""


class RollLogPane(Vertical):
    """Filter field (shown by ``open_filter``) above the table of rolls."""

    DEFAULT_CSS = """
    RollLogPane {
        height: 1fr;
        border-top: solid $primary;
        border-title-color: $text-muted;
    }
    RollLogPane:focus-within {
        border-top: solid $accent;
    }
    RollLogPane > #log-filter {
        display: none;
        height: 1;
    }
    RollLogPane.-filtering > #log-filter {
        display: block;
    }
    RollLogPane > RollLogTable {
        height: 1fr;
        scrollbar-size-vertical: 1;
    }
    """

    BINDINGS = [
        Binding("escape", "close_filter", "Clear filter", show=False, id="roll_log.clear_filter"),
    ]

    class FilterChanged(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Picked(Message):
        def __init__(self, roll: LoggedRoll) -> None:
            super().__init__()
            self.roll = roll

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rolls: list[LoggedRoll] = []
        self.total = 0
        self.border_title = "Roll log"

    def compose(self) -> ComposeResult:
        yield Input(placeholder="filter: words in who, what, pool or result (esc clears)",
                    id="log-filter", compact=True)
        yield RollLogTable(id="log-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.table
        table.cell_padding = 0
        for title, width in COLUMNS:
            table.add_column(f" {title}", width=width, key=title.lower())
        self._resize_last_column()

    def on_resize(self) -> None:
        self._resize_last_column()

    def _resize_last_column(self) -> None:
        table = self.table
        fixed = sum(w or 0 for _, w in COLUMNS)
        rest = max(8, self.size.width - fixed - 1)
        column = table.columns.get(table.ordered_columns[-1].key) if table.ordered_columns else None
        if column is not None and column.width != rest:
            column.width = rest
            column.auto_width = False
            table.refresh()

    @property
    def table(self) -> RollLogTable:
        return self.query_one(RollLogTable)

    @property
    def filter_text(self) -> str:
        return self.query_one("#log-filter", Input).value.strip()

    # -- content ---------------------------------------------------------

    def set_rolls(self, rolls: Sequence[LoggedRoll], total: int | None = None) -> None:
        """Show ``rolls`` (newest first); ``total`` is how many match in the store."""
        self.rolls = list(rolls)
        self.total = len(rolls) if total is None else total
        table = self.table
        row = table.cursor_row
        table.clear()
        for roll, when in zip(self.rolls, time_cells(self.rolls)):
            cells = (when, roll.who, roll.what, roll.result, roll.pool, roll.faces_text)
            table.add_row(*(Text(f" {c}", no_wrap=True, overflow="ellipsis") for c in cells),
                          key=str(roll.id))
        if self.rolls:
            table.move_cursor(row=min(row, len(self.rolls) - 1), animate=False)
        self._update_title()

    def add_roll(self, roll: LoggedRoll) -> None:
        """A new roll on top (if it matches the filter, the screen decides)."""
        self.set_rolls([roll, *self.rolls], self.total + 1)
        self.table.move_cursor(row=0, animate=False)

    def _update_title(self) -> None:
        shown = len(self.rolls)
        text = self.filter_text
        if text:
            self.border_title = f"Roll log: {self.total} matching \u201c{text}\u201d"
        elif self.total > shown:
            self.border_title = f"Roll log ({shown} newest of {self.total})"
        else:
            self.border_title = f"Roll log ({self.total})"

    def current(self) -> LoggedRoll | None:
        table = self.table
        if not self.rolls or table.cursor_row < 0:
            return None
        return self.rolls[min(table.cursor_row, len(self.rolls) - 1)]

    # -- filter ------------------------------------------------------------

    def open_filter(self) -> None:
        self.add_class("-filtering")
        self.query_one("#log-filter", Input).focus()

    def action_close_filter(self) -> None:
        field = self.query_one("#log-filter", Input)
        had_text = bool(field.value)
        field.value = ""
        self.remove_class("-filtering")
        self.table.focus()
        if had_text:
            self.post_message(self.FilterChanged(""))

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "log-filter":
            event.stop()
            self.post_message(self.FilterChanged(event.value.strip()))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "log-filter":
            event.stop()
            self.table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected[Any]) -> None:
        event.stop()
        roll = self.current()
        if roll is not None:
            self.post_message(self.Picked(roll))
