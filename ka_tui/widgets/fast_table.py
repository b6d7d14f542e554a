"""A read-only table with fixed column widths that opens instantly with thousands of rows.

Textual's ``DataTable`` measures every cell of every new row (Rich markup and
width), which costs about a second for a 1,000-character roster on a slow
machine. Here columns have fixed widths, rows are plain strings, and only the
visible lines are drawn (``render_line`` on a ``ScrollView``), so
``set_rows`` of any size is a list assignment.

Keys: up/down, page up/down, home/end move the cursor; enter posts
``FastTable.Selected``. Each cursor move posts ``FastTable.Highlighted``. The
header line stays on top. Colours come from component classes (theme-aware).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.events import Click
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip


@dataclass
class TableColumn:
    title: str
    width: int
    label: str = ""  # header text shown (title plus a sort mark); defaults to title


class FastTable(ScrollView, can_focus=True):
    HELP_TITLE = "Table"

    DEFAULT_CSS = """
    FastTable {
        height: 1fr;
        background: $surface;
        scrollbar-size-vertical: 1;
        scrollbar-size-horizontal: 0;
    }
    FastTable > .fast-table--header {
        text-style: bold;
        color: $text-accent;
        background: $panel;
    }
    FastTable > .fast-table--odd {
        background: $surface-lighten-1;
    }
    FastTable > .fast-table--cursor {
        background: $block-cursor-blurred-background;
        color: $block-cursor-blurred-foreground;
    }
    FastTable:focus > .fast-table--cursor {
        background: $block-cursor-background;
        color: $block-cursor-foreground;
        text-style: $block-cursor-text-style;
    }
    """

    COMPONENT_CLASSES = {"fast-table--header", "fast-table--odd", "fast-table--cursor"}

    BINDINGS = [
        Binding("up", "cursor(-1)", "Up", show=False, id="table.up"),
        Binding("down", "cursor(1)", "Down", show=False, id="table.down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="table.page_up"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="table.page_down"),
        Binding("home", "edge(0)", "First row", show=False, id="table.first"),
        Binding("end", "edge(1)", "Last row", show=False, id="table.last"),
        Binding("enter", "select", "Open", show=False, id="table.select"),
    ]

    class Highlighted(Message):
        def __init__(self, table: FastTable, index: int, key: str | None) -> None:
            super().__init__()
            self.table = table
            self.index = index
            self.key = key

        @property
        def control(self) -> FastTable:
            return self.table

    class Selected(Highlighted):
        pass

    cursor_row: reactive[int] = reactive(0, always_update=True, init=False)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.columns: list[TableColumn] = []
        self._keys: list[str] = []
        self._cells: list[tuple[str, ...]] = []
        self._index: dict[str, int] = {}

    # -- data -----------------------------------------------------------------

    def add_column(self, title: str, width: int) -> None:
        self.columns.append(TableColumn(title, width))
        self._resize()

    def set_labels(self, labels: Sequence[str]) -> None:
        for column, label in zip(self.columns, labels):
            column.label = label
        self.refresh()

    def set_rows(self, rows: Sequence[tuple[str, Sequence[str]]], *,
                 keep_key: str | None = None) -> None:
        """Replace every row (``(key, cells)``); the cursor goes to ``keep_key`` if
        it is still there, else stays at its index (clamped)."""
        self._keys = [key for key, _ in rows]
        self._cells = [tuple(cells) for _, cells in rows]
        self._index = {key: i for i, key in enumerate(self._keys)}
        self._resize()
        target = self._index.get(keep_key, self.cursor_row) if keep_key else self.cursor_row
        self.cursor_row = max(0, min(target, len(self._keys) - 1))
        self.refresh()

    @property
    def row_count(self) -> int:
        return len(self._keys)

    def get_row_at(self, index: int) -> tuple[str, ...]:
        return self._cells[index]

    def get_row_index(self, key: str) -> int:
        return self._index[key]

    @property
    def cursor_key(self) -> str | None:
        return self._keys[self.cursor_row] if self._keys else None

    def move_cursor(self, *, row: int) -> None:
        self.cursor_row = max(0, min(row, len(self._keys) - 1))

    def _resize(self) -> None:
        width = sum(c.width + 2 for c in self.columns)
        self.virtual_size = Size(width, len(self._keys) + 1)

    # -- cursor -----------------------------------------------------------------

    def watch_cursor_row(self, old: int, new: int) -> None:
        self.refresh_line_of(old)
        self.refresh_line_of(new)
        self._scroll_to_cursor()
        self.post_message(self.Highlighted(self, new, self.cursor_key))

    def refresh_line_of(self, index: int) -> None:
        y = index - int(self.scroll_y) + 1
        if 0 < y < self.size.height:
            self.refresh(Region(0, y, self.size.width, 1))

    def _scroll_to_cursor(self) -> None:
        visible = max(1, self.size.height - 1)
        top = int(self.scroll_y)
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False)
        elif self.cursor_row >= top + visible:
            self.scroll_to(y=self.cursor_row - visible + 1, animate=False)

    def action_cursor(self, delta: int) -> None:
        if self._keys:
            self.move_cursor(row=self.cursor_row + delta)

    def action_page(self, direction: int) -> None:
        self.action_cursor(direction * max(1, self.size.height - 2))

    def action_edge(self, end: int) -> None:
        if self._keys:
            self.move_cursor(row=len(self._keys) - 1 if end else 0)

    def action_select(self) -> None:
        if self._keys:
            self.post_message(self.Selected(self, self.cursor_row, self.cursor_key))

    def on_click(self, event: Click) -> None:
        row = int(self.scroll_y) + event.y - 1
        if 0 <= row < len(self._keys):
            self.move_cursor(row=row)

    def on_resize(self) -> None:
        self._scroll_to_cursor()

    # -- drawing ----------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        if y == 0:
            style = base + self.get_component_rich_style("fast-table--header")
            return self._strip([c.label or c.title for c in self.columns], style, width)
        index = int(self.scroll_y) + y - 1
        if index >= len(self._keys):
            return Strip.blank(width, base)
        if index == self.cursor_row:
            style = base + self.get_component_rich_style("fast-table--cursor")
        elif index % 2:
            style = base + self.get_component_rich_style("fast-table--odd")
        else:
            style = base
        return self._strip(self._cells[index], style, width,
                           mark=">" if index == self.cursor_row else " ")

    def _strip(self, cells: Sequence[str], style: Style, width: int, mark: str = " ") -> Strip:
        """One line; ``mark`` replaces the first padding space (the cursor row
        shows ``>`` so it reads without colour, e.g. NO_COLOR)."""
        parts = []
        for column, cell in zip(self.columns, cells):
            value = cell if len(cell) <= column.width else cell[:column.width - 1] + "~"
            parts.append(f" {value:<{column.width}} ")
        full = mark + "".join(parts)[1:]
        line = full[:width].ljust(width)
        if full[width:].strip() and width > 1:
            line = line[:-1] + "~"  # a cell cut by the pane's edge says so
        return Strip([Segment(line, style)], width)
