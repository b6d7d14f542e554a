"""A read-only table that opens instantly with thousands of rows.

Textual's ``DataTable`` measures every cell of every new row (Rich markup and
width), which costs about a second for a 1,000-character roster on a slow
machine. Here rows are plain strings and only the visible lines are drawn
(``render_line`` on a ``ScrollView``), so ``set_rows`` of any size is a list
assignment plus one pass over the string lengths.

Widths: a column has a width range
(``min_width`` .. ``max_width``, both default ``width``). It takes the width of
its longest cell within that range; when the table is narrower than that, the
columns with the most room to give shrink first, down to their minimum;
``optional`` columns (a level, 1, 2, …) are left out before anything is cut,
the highest level first, all columns of a level together. A cut
cell ends in ``~``; ``full_cells`` gives the row's cells whole, for a screen
to show where there is room. ``set_sort`` marks the sort column with an arrow
(``▲``/``▼``, ``^``/``v`` under ``--ascii``) that is never cut off: a column is
at least its title plus one wide.

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
    min_width: int = 0
    max_width: int = 0
    optional: int = 0  # > 0: shown only when every cell fits whole; the highest go first
    cut: str = "end"   # "middle": a long cell keeps its start and its end (names)

    def bounds(self) -> tuple[int, int]:
        """(narrowest, widest): room for the title and a sort arrow at least."""
        low = max(self.min_width or self.width, len(self.title) + 1)
        return low, max(low, self.max_width or self.width)


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
        self._longest: list[int] = []       # per column: the longest cell
        self._widths: list[int] = []        # per column: the width drawn (0: left out)
        self._sort: tuple[int, bool] | None = None

    # -- data -----------------------------------------------------------------

    def add_column(self, title: str, width: int, *, min_width: int = 0, max_width: int = 0,
                   optional: int = 0, cut: str = "end") -> None:
        """A column ``width`` wide; with ``min_width``/``max_width`` it may shrink
        or grow to its longest cell within that range. ``cut="middle"`` shortens
        a long cell in its middle (``Messers~G-10 (2)``), so names that differ
        only at the end stay apart."""
        self.columns.append(TableColumn(title, width, min_width=min_width,
                                        max_width=max_width, optional=optional, cut=cut))
        self._longest.append(0)
        self._resize()

    def set_labels(self, labels: Sequence[str]) -> None:
        for column, label in zip(self.columns, labels):
            column.label = label
        self.refresh()

    def set_sort(self, index: int | None, reverse: bool = False) -> None:
        """Mark column ``index`` as the sort column (None: no mark)."""
        self._sort = None if index is None else (index, reverse)
        self.refresh()

    def full_cells(self, index: int | None = None) -> list[tuple[str, str, bool]]:
        """The cells of row ``index`` (default: the cursor's) whole, as
        ``(title, text, cut)``; ``cut`` says the table shows it shortened or not at all."""
        row = self.cursor_row if index is None else index
        if not 0 <= row < len(self._cells):
            return []
        widths = self._widths or [c.width for c in self.columns]
        return [(c.title, cell, len(cell) > w) for c, cell, w
                in zip(self.columns, self._cells[row], widths)]

    def column_shown(self, index: int) -> bool:
        """Whether column ``index`` is drawn at the table's present width."""
        return not self._widths or bool(self._widths[index])

    def natural_width(self, within: int | None = None) -> int:
        """The width (scrollbar included) that shows every cell whole within
        the columns' maximums; ``within``: the most there is, optional columns
        left out and cells cut as they would be in a table that wide."""
        if within is None:
            widths = [self._want(i) for i in range(len(self.columns))]
        else:
            widths = self._layout(within - 1)
        return 1 + sum(w + 1 for w in widths if w) + 1

    def set_rows(self, rows: Sequence[tuple[str, Sequence[str]]], *,
                 keep_key: str | None = None, longest: Sequence[int] | None = None) -> None:
        """Replace every row (``(key, cells)``); the cursor goes to ``keep_key`` if
        it is still there, else stays at its index (clamped). ``longest``: each
        column's longest cell to size by (a filter's rows keep the widths of all
        rows, so the table and the pane beside it do not jump as one types)."""
        self._keys = [key for key, _ in rows]
        self._cells = [tuple(cells) for _, cells in rows]
        self._index = {key: i for i, key in enumerate(self._keys)}
        self._longest = list(longest) if longest is not None else [
            max((len(cells[i]) for cells in self._cells if i < len(cells)), default=0)
            for i in range(len(self.columns))]
        self._resize()
        target = self._index.get(keep_key, self.cursor_row) if keep_key else self.cursor_row
        self.cursor_row = max(0, min(target, len(self._keys) - 1))
        self.refresh()

    @property
    def longest(self) -> list[int]:
        """Each column's longest cell among the rows set (see ``set_rows``)."""
        return list(self._longest)

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

    def _want(self, i: int) -> int:
        low, high = self.columns[i].bounds()
        return max(low, min(high, self._longest[i] if i < len(self._longest) else 0))

    def _layout(self, available: int) -> list[int]:
        """Each column's width for a table ``available`` cells wide (a leading
        cursor-mark cell, then each column and one space)."""
        widths = [self._want(i) for i in range(len(self.columns))]
        lows = [c.bounds()[0] for c in self.columns]

        def total() -> int:
            return 1 + sum(w + 1 for w in widths if w)

        levels = sorted({c.optional for c in self.columns if c.optional}, reverse=True)
        for level in levels:  # optional columns go first, the highest level first
            if total() <= available:
                break
            widths = [0 if c.optional == level else w for c, w in zip(self.columns, widths)]
        excess = total() - available
        while excess > 0:
            room = [(w - lows[i], w, -i) for i, w in enumerate(widths) if w and w > lows[i]]
            if not room:
                break
            _, _, neg = max(room)
            widths[-neg] -= 1
            excess -= 1
        return widths

    def _resize(self) -> None:
        scrollbar = 1 if self.size.height and len(self._keys) + 1 > self.size.height else 0
        available = self.size.width - scrollbar if self.size.width else 10_000
        self._widths = self._layout(available)
        width = 1 + sum(w + 1 for w in self._widths if w)
        self.virtual_size = Size(width, len(self._keys) + 1)
        self.refresh()

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
        self._resize()
        self._scroll_to_cursor()

    # -- drawing ----------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        if y == 0:
            style = base + self.get_component_rich_style("fast-table--header")
            return self._strip(self._header_cells(), style, width, header=True)
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

    def _header_cells(self) -> list[str]:
        cells = [c.label or c.title for c in self.columns]
        if self._sort is not None and 0 <= self._sort[0] < len(cells):
            index, reverse = self._sort
            cells[index] = self.columns[index].title + ("▼" if reverse else "▲")
        return cells

    def _strip(self, cells: Sequence[str], style: Style, width: int, mark: str = " ",
               header: bool = False) -> Strip:
        """One line: ``mark`` in the first cell (the cursor row shows ``>`` so it
        reads without colour, e.g. NO_COLOR), then each column and a space."""
        widths = self._widths or [c.width for c in self.columns]
        parts = [mark]
        for column, cell, w in zip(self.columns, cells, widths):
            if not w:
                continue
            parts.append(f"{shorten(cell, w, 'end' if header else column.cut):<{w}} ")
        full = "".join(parts)
        line = full[:width].ljust(width)
        if full[width:].strip() and width > 1:
            line = line[:-1] + "~"  # a cell cut by the pane's edge says so
        return Strip([Segment(line, style)], width)


def shorten(text: str, width: int, cut: str = "end") -> str:
    """``text`` in ``width`` cells, a cut marked ``~``: at the end, or in the
    middle (start and end kept, the end getting the smaller half)."""
    if len(text) <= width:
        return text
    if width < 2:
        return text[:width]
    if cut != "middle" or width < 7:
        return text[:width - 1] + "~"
    tail = (width - 1) // 2
    return text[:width - 1 - tail] + "~" + text[-tail:]
