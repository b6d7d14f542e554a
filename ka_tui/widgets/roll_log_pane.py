"""The roll-log pane: past rolls in a table, newest at the bottom, with a text filter.

The pane shows what it is given (``store.roll_log.LoggedRoll`` rows) and asks
its screen for more through messages: ``FilterChanged`` when the GM types in
the filter (the screen queries the store, which holds every roll, not just
the rows on screen) and ``Picked`` when he opens a row. Times are shown in
the local time zone; the date is shown only when the rows span several days.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

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


def spans_days(rolls: Sequence[LoggedRoll]) -> bool:
    return len({local_time(r.time).date() for r in rolls}) > 1


def time_cell(roll: LoggedRoll, with_date: bool) -> str:
    return local_time(roll.time).strftime("%m-%d %H:%M" if with_date else "%H:%M")


def time_cells(rolls: Sequence[LoggedRoll]) -> list[str]:
    """``20:15`` per roll, or ``03-01 20:15`` when the rows span several days."""
    with_date = spans_days(rolls)
    return [time_cell(r, with_date) for r in rolls]


class RollLogTable(DataTable[Text]):
    """The table of rolls (focusable; enter opens the row)."""


class RollLogPane(Vertical):
    """Filter field (shown by ``open_filter``) above the table of rolls."""

    HELP_TITLE = "Roll log"
    ALLOW_MAXIMIZE = True

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
        self.rolls: list[LoggedRoll] = []  # newest first
        self.total = 0
        self._with_date = False
        self.border_title = "Roll log"

    def compose(self) -> ComposeResult:
        field = Input(placeholder="filter: words in who, what, pool or result (esc clears)",
                      id="log-filter", compact=True)
        field.cursor_blink = False
        yield field
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
        """Show ``rolls`` (given newest first, shown oldest at the top like any
        log, the cursor on the newest); ``total`` is how many match in the store."""
        self.rolls = list(rolls)
        self.total = len(rolls) if total is None else total
        self._with_date = spans_days(self.rolls)
        table = self.table
        table.clear()
        for roll in reversed(self.rolls):
            self._add_row(roll)
        self._to_newest()
        self._update_title()

    def _cells(self, roll: LoggedRoll) -> list[Text]:
        """A row's cells; a struck roll (kept, marked struck) reads ``STRUCK`` in its
        result and is drawn struck through and dim (readable without colour)."""
        result = f"STRUCK {roll.result}" if roll.struck else roll.result
        cells = (time_cell(roll, self._with_date), roll.who, roll.what, result,
                 roll.pool, roll.faces_text)
        style = "strike dim" if roll.struck else ""
        return [Text(f" {c}", style=style, no_wrap=True, overflow="ellipsis") for c in cells]

    def _add_row(self, roll: LoggedRoll) -> None:
        self.table.add_row(*self._cells(roll), key=str(roll.id))

    def replace_roll(self, roll: LoggedRoll) -> None:
        """Show ``roll`` again in place (struck or standing again)."""
        for i, old in enumerate(self.rolls):
            if old.id == roll.id:
                self.rolls[i] = roll
                for (title, _), cell in zip(COLUMNS, self._cells(roll)):
                    self.table.update_cell(str(roll.id), title.lower(), cell)
                return

    def _to_newest(self) -> None:
        if self.rolls:
            self.table.move_cursor(row=len(self.rolls) - 1, animate=False)

    def add_roll(self, roll: LoggedRoll, limit: int | None = None) -> None:
        """A new roll at the bottom; the oldest row goes beyond ``limit`` rows."""
        self.rolls.insert(0, roll)
        self.total += 1
        if spans_days(self.rolls[:1] + self.rolls[-1:]) != self._with_date:
            self.set_rolls(self.rolls[:limit], self.total)  # the date column comes or goes
            return
        self._add_row(roll)
        if limit is not None and len(self.rolls) > limit:
            oldest = self.rolls.pop()
            self.table.remove_row(str(oldest.id))
        self._to_newest()
        self._update_title()

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
        row = min(table.cursor_row, len(self.rolls) - 1)
        return self.rolls[len(self.rolls) - 1 - row]

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

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        roll = self.current()
        if roll is not None:
            self.post_message(self.Picked(roll))
