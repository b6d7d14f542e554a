"""The roster: characters and aircraft in sortable tables, a detail pane, and
keyboard add / edit / duplicate / delete through modal forms.

The state and what each key does to it are the model's (``model.py``, no
Textual); the title line, the in-progress line and the detail pane are panes
(``panes.py``) that draw what is set on their reactive attributes; the keys
that write are in ``writes.py``, the filter line in ``filter_keys.py``. Every
read of the campaign runs with ``store_work`` in a worker (the write half of
the store, with SQLModel, is imported after the first frame; the forms and
dialogs this screen opens are imported when first opened, to keep the first
frame light). After a write the roster publishes ``Change.ROSTER``, and a
roster change from another mode (a fight's end, the flight card) reloads it.
"""

from __future__ import annotations

import gc
from concurrent.futures import Future
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen

from ka_tui.screens.door import CampaignChanged, door, when_read
from ka_tui.screens.roster import view
from ka_tui.screens.roster.model import Row
from ka_tui.screens.roster.panes import DetailPane, InProgressLine, RosterTitle
from ka_tui.screens.roster.writes import RosterWrites
from ka_tui.screens.store_work import store_work
from ka_tui.store import roster_reads
from ka_tui.store.errors import StoreError
from ka_tui.widgets.fast_table import FastTable
from ka_tui.widgets.key_gate import hold_keys, when_quiet
from ka_tui.widgets.quiet_footer import QuietFooter

STARTUP_HOLD = 1.0  # seconds keys wait at most for the startup read


class RosterScreen(RosterWrites):
    HELP_TITLE = "Roster"

    CSS_PATH = "roster.tcss"

    BINDINGS = [
        Binding("a", "add", "Add", id="roster.add"),
        Binding("e", "edit", "Edit", id="roster.edit"),
        Binding("c", "duplicate", "Copy", id="roster.duplicate"),
        Binding("d,delete", "delete", "Delete", id="roster.delete"),
        Binding("slash", "filter", "Filter", id="roster.filter"),
        Binding("escape", "clear_filter", "Clear filter", show=False,
                id="roster.clear_filter"),
        Binding("o", "sort", "Sort", show=False, id="roster.sort"),
        Binding("O", "reverse_sort", "Reverse sort", show=False, id="roster.reverse_sort"),
        Binding("t", "switch_tab", "Tab", id="roster.switch_tab"),
        Binding("f", "flight_card", "Card", id="roster.flight_card"),
        Binding("p", "seats", "Pilot/crew", show=False, id="roster.seats"),
        Binding("l", "library", "Library", show=False, id="roster.library"),
        Binding("ctrl+r", "reload", "Reload", show=False, id="roster.reload"),
    ]

    PALETTE_HELP = {
        "roster.add": "Add a character or aircraft (on the current tab)",
        "roster.edit": "Edit the selected row in a form",
        "roster.duplicate": "Copy the selected row under a new name",
        "roster.delete": "Delete the selected row (asks first)",
        "roster.filter": "Filter by name, role, status, seat or aircraft",
        "roster.sort": "Sort the table by the next column",
        "roster.reverse_sort": "Reverse the sort order",
        "roster.switch_tab": "Switch between Characters and Aircraft",
        "roster.flight_card": "Open the selected aircraft's flight card",
        "roster.reload": "Read the roster from the campaign file again",
        "roster.seats": "Seat the selected aircraft's pilot and crew",
        "roster.library": "Profile library: copy a ready aircraft into the campaign",
    }

    # -- layout -------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield RosterTitle(id="title-bar")
        yield InProgressLine(id="in-progress")
        with Horizontal(id="roster-body"):
            with Vertical(id="roster-tables"):
                yield FastTable(id="characters-table")
                yield FastTable(id="aircraft-table")
            yield DetailPane(id="detail")

    def on_mount(self) -> None:
        for name, state in self.model.tables.items():
            table = self.table(name)
            for column in state.columns:
                table.add_column(column.title, column.width or 8,
                                 min_width=column.min_width, max_width=column.max_width,
                                 optional=column.optional, cut=column.cut)
        self.table("aircraft").display = False
        self.table("characters").focus()
        self._show_title()
        door(self).on_campaign_changed(self, self._campaign_changed)
        preloaded = door(self).take_startup_read()
        if preloaded is None:
            self.load()
            return
        # keys typed before the first read is shown wait for it; a second at
        # most (a slow disk: ctrl+r reads again, q quits)
        hold = hold_keys(self, at_most=STARTUP_HOLD)

        def read(future: Future[Any]) -> None:
            self._preloaded(future)
            hold.release()

        when_read(self, preloaded, read)

    def _preloaded(self, future: Future[Any]) -> None:
        if self.model.reads:
            return  # a read begun since (ctrl+r, another's change, another file) is newer
        try:
            data: view.RosterData = future.result()
        except Exception as error:  # noqa: BLE001 - same handling as a worker's failure
            if isinstance(error, StoreError):
                self._load_failed(error)
            else:
                self.load()  # try again the normal way; a bug shows there
            return
        self._loaded(data)  # with the live state of open fights and battles

    # -- reading ------------------------------------------------------------

    def load(self) -> None:
        """Read the roster again (in a worker)."""
        self.model.reads += 1
        # the first read holds the keys typed before it is shown; later ones
        # when a key (or its write) began them (``store_work``)
        store_work(self, lambda db: roster_reads.load_roster(db, live=True),
                   group="roster-load", exclusive=True, done=self._loaded,
                   failed=self._load_failed, diagnose="the roster",
                   hold_keys=None if self.model.loaded else True)

    def _load_failed(self, error: Exception) -> None:
        door(self).show_store_error("Cannot open this campaign", error)

    def _loaded(self, data: view.RosterData) -> None:
        select = self.model.take_read(data)
        self.sub_title = data.campaign_name
        self.refill(self.active_tab)  # the hidden tab's table is filled when shown
        self._show_title()
        self.query_one(InProgressLine).line = self.model.in_progress_line()
        if select is not None:
            self.select(*select)
        self.show_detail()
        self.refresh_bindings()
        ready = door(self).on_roster_ready
        if ready is not None:
            self.call_after_refresh(ready)
        # The key footer follows the first frame (its widgets and CSS cost a
        # visible share of startup); it is there before a key can be read.
        if not self._footer_added:
            self._footer_added = True
            self.call_after_refresh(self._add_footer)
        # After the first frames: importing SQLModel holds the GIL for a while.
        if not self._warming:
            self._warming = True
            self.set_timer(1.0, lambda: when_quiet(self, self._warm_up))

    async def _add_footer(self) -> None:
        # Rebuilt only when its keys change: not when a form opens over the roster.
        await self.mount(QuietFooter(compact=True))
        self.refresh_bindings()
        self.set_timer(0.4, self._mount_filter_box)

    @work(thread=True, exclusive=True, group="roster-warm", exit_on_error=False)
    def _warm_up(self) -> None:
        """Import the write half (SQLModel) after the first frame, before the first edit.

        Then the objects alive now (modules, classes, the app and this screen:
        120,000 or so) move out of the garbage collector's scans (``gc.freeze``).
        A full collection walked all of them, 30-50 ms, and opening a form
        creates enough objects to set one off about every other time."""
        roster_reads.warm_up()
        gc.collect()  # nothing already dead is kept for good
        gc.freeze()

    # -- the tables and the panes ------------------------------------------------

    def _show_title(self) -> None:
        read_only = "READ-ONLY" in str(self.app.title)  # the header says so from the start
        self.query_one(RosterTitle).line = self.model.title_line(read_only=read_only)

    def watch_active_tab(self, tab: str) -> None:
        self.model.tab = tab
        if self.model.tables[tab].stale:
            self.refill(tab)
        for name in self.model.tables:
            self.table(name).display = name == tab
        self.show_filter_box(self.model.tables[tab].filter)
        self.table(tab).focus()
        self._fit_panes()
        self._show_title()
        self.show_detail()
        self.refresh_bindings()

    def on_resize(self) -> None:
        self._fit_panes()

    def on_fast_table_highlighted(self, event: FastTable.Highlighted) -> None:
        if event.table.id == f"{self.active_tab}-table":
            self.show_detail()

    def on_fast_table_selected(self, event: FastTable.Selected) -> None:
        event.stop()
        self.action_edit()

    def show_detail(self) -> None:
        if not self.model.loaded:
            return
        row = self.current_row()
        self.query_one(DetailPane).shown = self.model.detail(row)
        wanted = self.model.detail_wanted(row)
        if wanted is not None:
            store_work(self, lambda db: roster_reads.load_character_extra(db, wanted),
                       group="roster-detail", exclusive=True, errors=(Exception,),
                       done=lambda extra: self._detail_loaded(wanted, extra),
                       failed=lambda _error: self._detail_loaded(wanted, None),
                       hold_keys=False)  # only the pane shows it: no key waits for it

    def _detail_loaded(self, character_id: int, extra: Row | None) -> None:
        """His skills and weapons are in (or could not be read: the row's own text stays)."""
        self.model.detail_read(character_id, extra)
        if extra is not None and self._current_id() == character_id \
                and self.active_tab == "characters":
            self.show_detail()

    def filter_changed(self, text: str) -> None:
        self.model.set_filter(text)
        self.refill(self.active_tab)
        self._show_title()
        self.show_detail()

    # -- keys --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.model.allows(action, row_id=self._current_id,
                                 filter_shown=self.filter_box_shown)

    def action_switch_tab(self) -> None:
        self.active_tab = self.model.other_tab()

    def action_clear_filter(self) -> None:
        self.clear_filter()

    def action_sort(self) -> None:
        title = self.model.next_sort(self.active_table().column_shown)
        self.refill(self.active_tab)
        self.notify(f"Sorted by {title}", timeout=1.5)

    def action_reverse_sort(self) -> None:
        self.model.reverse_sort()
        self.refill(self.active_tab)

    def action_reload(self) -> None:
        self.load()

    def on_screen_suspend(self) -> None:
        # another mode (not a dialog of the roster's own, which reloads after it)
        self._left = not isinstance(self.app.screen, ModalScreen)

    def on_screen_resume(self) -> None:
        """Back on the roster from another mode: an open fight or battle may have
        moved on without a roster change: read it again."""
        if self._left and self.model.loaded and self.model.in_progress:
            self.load()
        self._left = False

    def _campaign_changed(self, changed: CampaignChanged) -> None:
        """Another mode changed the roster (a fight's end writes K-points and
        taken weapons back) or a fight or battle moved on: show it."""
        if changed.source is not self and self.model.reads_on(changed.change.value):
            self.load()
