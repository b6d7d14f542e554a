"""The roster's state and steps, without Textual: the rows of both tabs as
read, each tab's filter and sort, the tab shown, the detail pane's skills
read so far, and whether each key is offered now.

Light on purpose (the roster's first frame imports it): the rows come from
``store.roster_reads`` (plain sqlite3) and are worded by ``view.py``; the
store's write half (SQLModel) is imported inside the jobs that need it,
which run in a worker thread (``store_work``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ka_tui.screens.roster import view
from ka_tui.store.roster_reads import InProgress, RosterData

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

Row = dict[str, Any]
TABS = ("characters", "aircraft")
LABELS = {"characters": "Characters", "aircraft": "Aircraft"}

# What a key needs (``allows``): the roster read, the Aircraft tab, a row.
NEEDS_DATA = frozenset({"add", "edit", "duplicate", "delete", "sort", "reverse_sort",
                        "flight_card", "seats", "library"})
AIRCRAFT_ONLY = frozenset({"flight_card", "seats"})
NEEDS_ROW = frozenset({"edit", "duplicate", "delete"})


@dataclass
class TableState:
    """What a roster table shows: all rows, the filter, the sort column."""

    columns: tuple[view.Column, ...]
    rows: list[Row] = field(default_factory=list)
    filter: str = ""
    sort: int = 0
    reverse: bool = False
    # what the filter reads of a row; ``search`` holds it by row id, made when
    # a filter is first typed (not for the first frame, which must be quick)
    search_of: Callable[[Row], str] = field(default=lambda _r: "")
    search: dict[int, str] | None = None
    longest: list[int] | None = None  # each column's longest cell over all rows
    stale: bool = False  # rows changed while the table was hidden: refill when shown

    def visible(self) -> list[Row]:
        """The rows the filter lets through (name, role, status, seat, aircraft
        type: ``view.matches``), sorted."""
        needle = self.filter.strip()
        if needle and self.search is None:
            self.search = {r["id"]: self.search_of(r) for r in self.rows}
        search = self.search or {}
        rows = [r for r in self.rows
                if not needle or view.matches(r, search.get(r["id"], ""), needle)]
        column = self.columns[self.sort]
        return sorted(rows, key=column.sort_key, reverse=self.reverse)

    def cells(self) -> list[tuple[str, list[str]]]:
        """The visible rows as the table shows them: (row id, cells)."""
        return [(str(row["id"]), [column.cell(row) for column in self.columns])
                for row in self.visible()]


@dataclass(frozen=True)
class RowDetail:
    """The detail pane for a row: a character with his skills and weapons
    (``extra``, ``None`` while they are read), or an aircraft with the
    characters who sit in it."""

    tab: str
    row: Row
    extra: Row | None = None
    characters: tuple[Row, ...] = ()


@dataclass(frozen=True)
class NoRowDetail:
    """No row under the cursor: an empty tab, or a filter that matches nothing."""

    tab: str
    filter: str


class RosterModel:
    """The roster as the screen shows it."""

    def __init__(self) -> None:
        self.tables: dict[str, TableState] = {
            "characters": TableState(view.CHARACTER_COLUMNS),
            "aircraft": TableState(view.AIRCRAFT_COLUMNS),
        }
        self.tab = "characters"
        self.loaded = False
        self.campaign_name = ""
        self.default_ap = 6
        self.in_progress: list[InProgress] = []
        self.select_after_load: tuple[str, int] | None = None
        self.detail_cache: dict[int, Row] = {}
        self.detail_pending: int | None = None
        self.reads = 0  # reads begun since the screen was shown (the startup read is older)

    # -- what is offered -----------------------------------------------------

    def allows(self, action: str, *, row_id: Callable[[], int | None],
               filter_shown: Callable[[], bool]) -> bool | None:
        """Whether ``action`` runs now: ``None`` greys it out, ``False`` hides it."""
        if action in NEEDS_DATA and not self.loaded:
            return None
        if action in AIRCRAFT_ONLY:
            return self.tab == "aircraft"
        if action in NEEDS_ROW and row_id() is None:
            return None
        if action == "clear_filter":
            return bool(self.tables[self.tab].filter) or filter_shown()
        return True

    # -- the campaign read ----------------------------------------------------

    def take_read(self, data: RosterData) -> tuple[str, int] | None:
        """The roster as read (live: open fights and battles replayed). The
        hidden tab's table is filled when shown; returns the row to select
        after a write (``select_after_load``)."""
        self.loaded = True
        self.campaign_name = data.campaign_name
        self.default_ap = data.default_ap
        self.tables["characters"].rows = data.characters
        self.tables["aircraft"].rows = data.aircraft
        aircraft = data.aircraft
        self.tables["characters"].search_of = (
            lambda r: view.search_text(r, "characters", aircraft))
        self.tables["aircraft"].search_of = lambda r: view.search_text(r, "aircraft")
        for tab, state in self.tables.items():
            state.search = None
            state.stale = tab != self.tab
        self.in_progress = data.in_progress
        self.detail_cache.clear()
        self.detail_pending = None
        if data.first_detail is not None:
            self.detail_cache[data.first_detail[0]] = data.first_detail[1]
        select, self.select_after_load = self.select_after_load, None
        return select

    def other_tab(self) -> str:
        return "aircraft" if self.tab == "characters" else "characters"

    # -- what the panes show ----------------------------------------------------

    def title_line(self, *, read_only: bool) -> str:
        """``Campaign  [Characters (11)]  Aircraft (6)``; the tab shown in reverse."""
        parts = [f"[b]{view.escape(self.campaign_name or 'ka-tui')}[/b] "]
        for tab in TABS:
            state = self.tables[tab]
            if not self.loaded:
                count = "…"
            elif state.filter:
                count = f"{len(state.visible())}/{len(state.rows)}"
            else:
                count = str(len(state.rows))
            text = f" {LABELS[tab]} ({count}) "
            parts.append(f"[reverse]{text}[/reverse]" if tab == self.tab else text)
        parts.append("  [b reverse] READ-ONLY [/]" if read_only else "  [dim]t: other tab[/dim]")
        return " ".join(parts)

    def in_progress_line(self) -> str:
        """Which fight or battle is still open and the key that resumes it."""
        return view.in_progress_line(self.in_progress)

    def row(self, tab: str, row_id: int | None) -> Row | None:
        if row_id is None:
            return None
        return next((r for r in self.tables[tab].rows if r["id"] == row_id), None)

    def names(self, tab: str, except_id: int | None = None) -> list[str]:
        """The names taken on ``tab`` (a form refuses them), but ``except_id``'s."""
        return [r["name"] for r in self.tables[tab].rows if r["id"] != except_id]

    def detail(self, row: Row | None) -> RowDetail | NoRowDetail:
        if row is None:
            return NoRowDetail(self.tab, self.tables[self.tab].filter)
        if self.tab == "aircraft":
            return RowDetail("aircraft", row, characters=tuple(self.tables["characters"].rows))
        return RowDetail("characters", row, self.detail_cache.get(row["id"]))

    def detail_wanted(self, row: Row | None) -> int | None:
        """The character whose skills and weapons to read now: one read per
        row, not one per repaint."""
        if row is None or self.tab != "characters" or row["id"] in self.detail_cache \
                or self.detail_pending == row["id"]:
            return None
        self.detail_pending = row["id"]
        return int(row["id"])

    def detail_read(self, character_id: int, extra: Row | None) -> None:
        if self.detail_pending == character_id:
            self.detail_pending = None
        if extra is not None:
            self.detail_cache[character_id] = extra

    # -- filter and sort ------------------------------------------------------------

    def set_filter(self, text: str) -> None:
        self.tables[self.tab].filter = text

    def next_sort(self, shown: Callable[[int], bool]) -> str:
        """Sort by the next column the table shows (a column left out for room
        is skipped); its title."""
        state = self.tables[self.tab]
        for _ in state.columns:
            state.sort = (state.sort + 1) % len(state.columns)
            if shown(state.sort):
                break
        state.reverse = False
        return state.columns[state.sort].title

    def reverse_sort(self) -> None:
        state = self.tables[self.tab]
        state.reverse = not state.reverse

    # -- keys that change the campaign ----------------------------------------------

    def delete_question(self, row: Row) -> tuple[str, str]:
        """(question, title) of the delete prompt for ``row`` on the tab shown."""
        what = "character" if self.tab == "characters" else "aircraft"
        extra = " with its skills and weapons" if self.tab == "characters" else ""
        return (f"Delete the {what} {row['name']}{extra}? This cannot be undone.",
                f"Delete {what}")

    def reads_on(self, change: str) -> bool:
        """Another mode's change the roster reads again for: the roster itself
        (a fight's end writes K-points back), a fight or a battle that moved on
        (the live K-points, wounds, conscious)."""
        return change in ("roster", "fight") or "battle" in change


# ------------------------------------------------------------ the store work
#
# Jobs for ``store_work``; the write half (SQLModel) is imported inside them.


def delete_notes(db: CampaignDB, character_id: int) -> list[str]:
    """What deleting a character also touches: his seat, his open fights."""
    from ka_tui.store import roster

    return roster.delete_warnings(db, character_id)
