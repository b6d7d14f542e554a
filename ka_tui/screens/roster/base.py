"""What the roster's parts share: the model, the tab shown, and the tables.
``RosterScreen`` (screen.py) is built on ``RosterWrites`` (writes.py: the
keys that change the campaign), on this base, on ``FilterKeys``
(filter_keys.py: the filter line).
"""

from __future__ import annotations

from typing import ClassVar

from textual.reactive import reactive

from ka_tui.screens.roster.filter_keys import FilterKeys
from ka_tui.screens.roster.model import Row, RosterModel, TableState
from ka_tui.widgets.fast_table import FastTable

class RosterBase(FilterKeys):
    NARROW = 72      # below this many columns the detail pane goes under the table
    DETAIL_MIN: ClassVar[dict[str, int]] = {"characters": 36, "aircraft": 31}  # least width

    active_tab: reactive[str] = reactive("characters", init=False)

    def __init__(self) -> None:
        super().__init__()
        self.model = RosterModel()
        self._footer_added = False
        self._left = False  # the roster was left for another mode or a dialog
        self._warming = False  # the write half is imported once (later loads skip it)

    # -- the model, as the tests read it -------------------------------------

    @property
    def tables(self) -> dict[str, TableState]:
        return self.model.tables

    @property
    def loaded(self) -> bool:
        return self.model.loaded

    @property
    def campaign_name(self) -> str:
        return self.model.campaign_name

    def table(self, tab: str) -> FastTable:
        return self.query_one(f"#{tab}-table", FastTable)

    def active_table(self) -> FastTable:
        return self.table(self.active_tab)

    def refill(self, tab: str) -> None:
        state = self.model.tables[tab]
        state.stale = False
        table = self.table(tab)
        table.set_sort(state.sort, state.reverse)
        # sized by all rows (kept from the last unfiltered fill): typing a filter
        # does not move the columns nor the detail pane (fewer bytes per key)
        table.set_rows(state.cells(), keep_key=table.cursor_key,
                       longest=state.longest if state.filter.strip() else None)
        if not state.filter.strip():
            state.longest = table.longest
        if tab == self.active_tab:
            self._fit_panes()

    def _fit_panes(self) -> None:
        """Side by side, the table takes the width that shows its cells whole
        (``FastTable.natural_width``; optional columns only where they fit) but
        leaves the detail pane ``DETAIL_MIN``; in a narrow window the detail
        pane goes under the table."""
        width = self.size.width
        if not width:
            return
        narrow = width < self.NARROW
        self.set_class(narrow, "-narrow")
        tables = self.query_one("#roster-tables")
        if narrow:
            tables.styles.width = "1fr"
            return
        room = width - self.DETAIL_MIN[self.active_tab] - 1
        tables.styles.width = max(30, self.active_table().natural_width(within=room))

    def _current_id(self, tab: str | None = None) -> int | None:
        key = self.table(tab or self.active_tab).cursor_key
        return int(key) if key is not None else None

    def current_row(self) -> Row | None:
        return self.model.row(self.active_tab, self._current_id())

    def select(self, tab: str, row_id: int, *, focus: bool = True) -> None:
        if self.model.tables[tab].stale:
            self.refill(tab)
        table = self.table(tab)
        try:
            table.move_cursor(row=table.get_row_index(str(row_id)))
        except KeyError:  # row filtered out: leave the cursor
            return
        if focus:
            self.active_tab = tab
            table.focus()

    def tab_filter(self) -> str:
        return self.model.tables[self.active_tab].filter

    def load(self) -> None:
        """Read the roster again (in a worker)."""
        raise NotImplementedError
