"""The roster: characters and aircraft in sortable tables, a detail pane, and
keyboard add / edit / duplicate / delete through modal forms.

Everything that touches the database runs in a thread worker (the write half
of the store, with SQLModel, is imported there after the first frame; the
forms and dialogs this screen opens are imported when first opened, to keep
the first frame light); results come back with ``call_from_thread`` and only
then touch widgets. Each user action is one store call, i.e. one transaction.
The app is reached through the door (``screens/door.py``); after a write the
roster publishes ``Change.ROSTER``, and a roster change from another mode (a
fight's end, the flight card) reloads it.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, ClassVar

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static

from ka_tui.screens.door import CampaignChanged, Change, door, when_read
from ka_tui.screens.roster import view
from ka_tui.store import roster_reads
from ka_tui.store.load_failure import load_failure
from ka_tui.store.errors import StoreError
from ka_tui.widgets.fast_table import FastTable
from ka_tui.widgets.quiet_footer import QuietFooter

Row = dict[str, Any]


@dataclass
class TableState:
    """What a roster table shows: all rows, the filter, the sort column."""

    columns: tuple[view.Column, ...]
    rows: list[Row] = field(default_factory=list)
    filter: str = ""
    sort: int = 0
    reverse: bool = False
    # what the filter reads of a row; ``search`` holds it by row id, made when
    # a filter is first typed (not for the first frame: issue 13)
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


class RosterScreen(Screen[None]):
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

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, TableState] = {
            "characters": TableState(view.CHARACTER_COLUMNS),
            "aircraft": TableState(view.AIRCRAFT_COLUMNS),
        }
        self.loaded = False
        self.campaign_name = ""
        self.default_ap = 6
        self._select_after_load: tuple[str, int] | None = None
        self._detail_cache: dict[int, Row] = {}
        self._footer_added = False
        self.in_progress: list[roster_reads.InProgress] = []
        self._filter_opening = False
        self._detail_pending: int | None = None
        self._left = False  # the roster was left for another mode or a dialog
        self._warming = False  # the write half is imported once (later loads skip it)
        self._reads = 0  # reads begun since mount (a startup read older than one is dropped)

    # -- layout -------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # One line for title and tabs (no Header/TabbedContent: fewer widgets,
        # a faster first frame, two more rows for the table at 80x24).
        yield Static("", id="title-bar")
        yield Static("", id="in-progress", markup=True)
        with Horizontal(id="roster-body"):
            with Vertical(id="roster-tables"):
                yield FastTable(id="characters-table")
                yield FastTable(id="aircraft-table")
            with VerticalScroll(id="detail"):
                yield Static("Loading the campaign…", id="detail-text", markup=True)

    def on_mount(self) -> None:
        for name, state in self.tables.items():
            table = self.query_one(f"#{name}-table", FastTable)
            for column in state.columns:
                table.add_column(column.title, column.width or 8,
                                 min_width=column.min_width, max_width=column.max_width,
                                 optional=column.optional, cut=column.cut)
        self.query_one("#aircraft-table").display = False
        self.query_one("#in-progress").display = False
        self.query_one("#characters-table").focus()
        self._update_titles()
        door(self).on_campaign_changed(self, self._campaign_changed)
        preloaded = door(self).take_startup_read()
        if preloaded is None:
            self.load()
            return
        when_read(self, preloaded, self._preloaded)

    def _preloaded(self, future: Future[Any]) -> None:
        if self._reads:
            return  # a read begun since (ctrl+r, another's change, another file) is newer
        try:
            data: view.RosterData = future.result()
        except Exception as error:  # noqa: BLE001 - same handling as a worker's failure
            self._preload_failed(error)
            return
        self._loaded(data)  # with the live state of open fights and battles

    def _preload_failed(self, error: Exception) -> None:
        if isinstance(error, StoreError):
            self._load_failed(error)
        else:
            self.load()  # try again the normal way; a bug shows there

    # -- loading ------------------------------------------------------------

    def load(self) -> None:
        """Read the roster again (in a worker)."""
        self._reads += 1
        self._read_roster()

    @work(thread=True, exclusive=True, group="roster-load", exit_on_error=False)
    def _read_roster(self) -> None:
        try:
            db = door(self).campaign_db()
            data = roster_reads.load_roster(db, live=True)
        except Exception as error:  # noqa: BLE001 — any failure: one message (issue 11)
            self.app.call_from_thread(self._load_failed, load_failure("the roster", error,
                                                                      door(self)))
            return
        self.app.call_from_thread(self._loaded, data)

    def _load_failed(self, error: Exception) -> None:
        door(self).show_store_error("Cannot open this campaign", error)

    def _loaded(self, data: view.RosterData) -> None:
        self.loaded = True
        self.campaign_name = data.campaign_name
        self.default_ap = data.default_ap
        self.sub_title = data.campaign_name
        self.tables["characters"].rows = data.characters
        self.tables["aircraft"].rows = data.aircraft
        aircraft = data.aircraft
        self.tables["characters"].search_of = (
            lambda r: view.search_text(r, "characters", aircraft))
        self.tables["aircraft"].search_of = lambda r: view.search_text(r, "aircraft")
        for state in self.tables.values():
            state.search = None
        self.in_progress = data.in_progress
        self._show_in_progress()
        self._detail_cache.clear()
        self._detail_pending = None
        if data.first_detail is not None:
            self._detail_cache[data.first_detail[0]] = data.first_detail[1]
        for tab in self.tables:  # the hidden tab's table is filled when shown
            if tab == self.active_tab:
                self.refill(tab)
            else:
                self.tables[tab].stale = True
        self._update_titles()
        if self._select_after_load is not None:
            tab, row_id = self._select_after_load
            self._select_after_load = None
            self.select(tab, row_id)
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
            self.set_timer(1.0, self._warm_up)

    async def _add_footer(self) -> None:
        # Rebuilt only when its keys change: not when a form opens over the roster.
        await self.mount(QuietFooter(compact=True))
        self.refresh_bindings()
        self.set_timer(0.4, self._mount_filter_box)

    async def _mount_filter_box(self) -> None:
        """The filter line, hidden, once the first frame is out (an Input's
        widgets and CSS cost the first frame; ``/`` finds it ready)."""
        if self._filter_box() is None:
            box = self._new_filter_box()
            box.display = False
            await self.mount(box, before="#roster-body")

    @work(thread=True, exclusive=True, group="roster-warm", exit_on_error=False)
    def _warm_up(self) -> None:
        """Import the write half (SQLModel) after the first frame, before the first edit.

        Then the objects alive now (modules, classes, the app and this screen:
        120,000 or so) move out of the garbage collector's scans (``gc.freeze``).
        A full collection walked all of them, 30-50 ms, and opening a form
        creates enough objects to set one off about every other time (issue 13)."""
        roster_reads.warm_up()
        gc.collect()  # nothing already dead is kept for good
        gc.freeze()

    def refill(self, tab: str) -> None:
        state = self.tables[tab]
        state.stale = False
        table = self.query_one(f"#{tab}-table", FastTable)
        table.set_sort(state.sort, state.reverse)
        # sized by all rows (kept from the last unfiltered fill): typing a filter
        # does not move the columns nor the detail pane (issue 13: bytes per key)
        table.set_rows([(str(row["id"]), [column.cell(row) for column in state.columns])
                        for row in state.visible()], keep_key=table.cursor_key,
                       longest=state.longest if state.filter.strip() else None)
        if not state.filter.strip():
            state.longest = table.longest
        if tab == self.active_tab:
            self._fit_panes()

    def _show_in_progress(self) -> None:
        """Issue 12, item 22: the app opens on the roster; this line says which
        fight or battle is still open and how to get back to it."""
        line = self.query_one("#in-progress", Static)
        text = view.in_progress_line(self.in_progress)
        line.update(text)
        line.display = bool(text)

    # -- layout (issue 12, item 19) -------------------------------------------

    NARROW = 72      # below this many columns the detail pane goes under the table
    DETAIL_MIN: ClassVar[dict[str, int]] = {"characters": 36, "aircraft": 31}  # least width

    def _fit_panes(self) -> None:
        """Side by side, the table takes the width that shows its cells whole
        (``FastTable.natural_width``; optional columns only where they fit) but
        leaves the detail pane ``DETAIL_MIN``;
        in a narrow window the detail pane goes under the table."""
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

    def _update_titles(self) -> None:
        """``Campaign  [Characters (11)]  Aircraft (6)``; the active tab in reverse."""
        parts = [f"[b]{view.escape(self.campaign_name or 'ka-tui')}[/b] "]
        for tab, label in (("characters", "Characters"), ("aircraft", "Aircraft")):
            state = self.tables[tab]
            if not self.loaded:
                count = "…"
            elif state.filter:
                count = f"{len(state.visible())}/{len(state.rows)}"
            else:
                count = str(len(state.rows))
            text = f" {label} ({count}) "
            parts.append(f"[reverse]{text}[/reverse]" if tab == self.active_tab else text)
        read_only = "READ-ONLY" in str(self.app.title)  # issue 11: the header says so
        parts.append("  [b reverse] READ-ONLY [/]" if read_only else "  [dim]t: other tab[/dim]")
        self.query_one("#title-bar", Static).update(" ".join(parts))

    # -- selection and detail -------------------------------------------------

    active_tab: reactive[str] = reactive("characters", init=False)

    def watch_active_tab(self, tab: str) -> None:
        if self.tables[tab].stale:
            self.refill(tab)
        for name in self.tables:
            self.query_one(f"#{name}-table").display = name == tab
        filter_box = self._filter_box()
        if filter_box is not None:
            filter_box.value = self.tables[tab].filter
            filter_box.display = bool(self.tables[tab].filter)
        self.query_one(f"#{tab}-table", FastTable).focus()
        self._fit_panes()
        self._update_titles()
        self.call_after_refresh(self.show_detail)
        self.refresh_bindings()

    def active_table(self) -> FastTable:
        return self.query_one(f"#{self.active_tab}-table", FastTable)

    def _current_id(self, tab: str | None = None) -> int | None:
        key = self.query_one(f"#{tab or self.active_tab}-table", FastTable).cursor_key
        return int(key) if key is not None else None

    def current_row(self) -> Row | None:
        row_id = self._current_id()
        if row_id is None:
            return None
        return next((r for r in self.tables[self.active_tab].rows if r["id"] == row_id), None)

    def select(self, tab: str, row_id: int, *, focus: bool = True) -> None:
        if self.tables[tab].stale:
            self.refill(tab)
        table = self.query_one(f"#{tab}-table", FastTable)
        try:
            table.move_cursor(row=table.get_row_index(str(row_id)))
        except KeyError:  # row filtered out: leave the cursor
            return
        if focus:
            self.active_tab = tab
            table.focus()

    def on_resize(self) -> None:
        self._fit_panes()
        self.call_after_refresh(self.show_detail)

    def on_fast_table_highlighted(self, event: FastTable.Highlighted) -> None:
        if event.table.id == f"{self.active_tab}-table":
            self.show_detail()

    def on_fast_table_selected(self, event: FastTable.Selected) -> None:
        event.stop()
        self.action_edit()

    def show_detail(self) -> None:
        text = self.query_one("#detail-text", Static)
        if not self.loaded:
            return
        row = self.current_row()
        if row is None:
            text.update(self._empty_detail())
            return
        if self.active_tab == "aircraft":
            text.update(view.aircraft_detail(row, self.tables["characters"].rows))
            return
        cached = self._detail_cache.get(row["id"])
        width = self.query_one("#detail").content_size.width - 2  # room for a scrollbar
        if cached is not None:
            text.update(view.character_detail(row, cached, width))
        else:
            text.update(view.character_detail(row, None, width))
            if self._detail_pending != row["id"]:  # one read per row, not one per repaint
                self._detail_pending = row["id"]
                self.load_detail(row["id"])

    def _empty_detail(self) -> Content:
        """What the detail pane says when no row is selected."""
        wanted = self.tables[self.active_tab].filter
        if wanted:
            return Content.assemble(f'Nothing matches "{wanted}".\nPress ',
                                    ("escape", "bold"), " to clear the filter.")
        empty = "No characters yet." if self.active_tab == "characters" else "No aircraft yet."
        return Content.assemble(f"{empty}\nPress ", ("a", "bold"), " to add one.")

    @work(thread=True, exclusive=True, group="roster-detail", exit_on_error=False)
    def load_detail(self, character_id: int) -> None:
        try:
            extra = roster_reads.load_character_extra(door(self).campaign_db(), character_id)
        except Exception:  # noqa: BLE001 — the row's own text stays (issue 11: no crash)
            self.app.call_from_thread(self._detail_loaded, character_id, None)
            return
        self.app.call_from_thread(self._detail_loaded, character_id, extra)

    def _detail_loaded(self, character_id: int, extra: Row | None) -> None:
        if self._detail_pending == character_id:
            self._detail_pending = None
        if extra is None:
            return
        self._detail_cache[character_id] = extra
        if self._current_id() == character_id and self.active_tab == "characters":
            self.show_detail()

    # -- actions --------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("add", "edit", "duplicate", "delete", "sort", "reverse_sort",
                      "flight_card", "seats", "library") and not self.loaded:
            return None
        if action in ("flight_card", "seats"):
            return self.active_tab == "aircraft"
        if action in ("edit", "duplicate", "delete") and self._current_id() is None:
            return None
        if action == "clear_filter":
            box = self._filter_box()
            return bool(self.tables[self.active_tab].filter) or (box is not None and box.display)
        return True

    def action_switch_tab(self) -> None:
        self.active_tab = "aircraft" if self.active_tab == "characters" else "characters"

    def _filter_box(self) -> Input | None:
        """The filter line, mounted on first use (one widget less at startup)."""
        found = self.query("#filter")
        return found.first(Input) if found else None

    def _new_filter_box(self) -> Input:
        return Input(placeholder="filter: name, role, wounded, fight, unseated, "
                                 "aircraft… (esc clears)", id="filter", compact=True)

    async def action_filter(self) -> None:
        box = self._filter_box()
        if box is None:  # not mounted yet: the letters typed after "/" wait for it
            box = self._new_filter_box()
            await self.mount(box, before="#roster-body")
        box.display = True
        box.value = self.tables[self.active_tab].filter
        box.focus()
        self._filter_opening = True  # until the box has the focus: see on_key

    async def on_key(self, event: events.Key) -> None:
        """``/`` and the letters typed right after it, before the filter box
        has the focus, go into the box (not to the roster's one-letter keys:
        ``/unseated`` typed fast must not open the settings with its ``s``).
        Keys reach this handler before the app's bindings run, so ``/`` is
        taken here too."""
        box = self._filter_box()
        if event.key == "slash" and isinstance(self.focused, FastTable) and (
                not self._filter_opening or box is None or not box.display):
            event.stop()
            event.prevent_default()
            await self.action_filter()
            return
        # A letter that reaches the screen was not taken by the box (the box
        # stops what it types), even if the box has the focus by now.
        if not self._filter_opening or box is None:
            return
        if event.is_printable and event.character:
            event.stop()
            event.prevent_default()
            box.insert_text_at_cursor(event.character)
        elif event.key == "enter":  # as if submitted: the filter stays, the table has the keys
            event.stop()
            event.prevent_default()
            self._filter_opening = False
            self.call_after_refresh(self.active_table().focus)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if event.widget is not self.query_one("#characters-table") and \
                event.widget is not self.query_one("#aircraft-table"):
            self._filter_opening = False

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "filter":
            return
        self.tables[self.active_tab].filter = event.value
        self.refill(self.active_tab)
        self._update_titles()
        self.show_detail()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "filter":
            self.active_table().focus()
            if not event.value:
                event.input.display = False

    def action_clear_filter(self) -> None:
        box = self._filter_box()
        self.tables[self.active_tab].filter = ""
        if box is not None:
            box.value = ""
            box.display = False
        self.refill(self.active_tab)
        self._update_titles()
        self.active_table().focus()
        self.show_detail()

    def action_sort(self) -> None:
        """The next column the table shows (a column left out for room is skipped)."""
        state = self.tables[self.active_tab]
        table = self.active_table()
        for _ in state.columns:
            state.sort = (state.sort + 1) % len(state.columns)
            if table.column_shown(state.sort):
                break
        state.reverse = False
        self.refill(self.active_tab)
        self.notify(f"Sorted by {state.columns[state.sort].title}", timeout=1.5)

    def action_reverse_sort(self) -> None:
        state = self.tables[self.active_tab]
        state.reverse = not state.reverse
        self.refill(self.active_tab)

    def action_reload(self) -> None:
        self.load()

    def reload_and_select(self, tab: str, row_id: int | None) -> None:
        """After a write from the roster: read it again, select ``row_id``,
        and tell the other modes."""
        self._select_after_load = (tab, row_id) if row_id is not None else None
        self.load()
        door(self).campaign_changed(CampaignChanged(Change.ROSTER, self))

    def on_screen_suspend(self) -> None:
        # another mode (not a dialog of the roster's own, which reloads after it)
        self._left = not isinstance(self.app.screen, ModalScreen)

    def on_screen_resume(self) -> None:
        """Back on the roster from another mode: an open fight or battle may have
        moved on without a roster change (issue 12, item 18): read it again."""
        if self._left and self.loaded and self.in_progress:
            self.load()
        self._left = False

    def _campaign_changed(self, changed: CampaignChanged) -> None:
        """Another mode changed the roster (a fight's end writes K-points and
        taken weapons back) or a fight or battle moved on (issue 12, item 18:
        the live K-points, wounds, conscious): show it."""
        if changed.source is self:
            return
        if changed.change in (Change.ROSTER, Change.FIGHT) or "battle" in str(
                changed.change.value):
            self.load()

    def _names(self, tab: str, except_id: int | None = None) -> list[str]:
        return [r["name"] for r in self.tables[tab].rows if r["id"] != except_id]

    def action_add(self) -> None:
        if self.active_tab == "characters":
            self._open_character_form(None)
        else:
            self._open_aircraft_form(None)

    def action_edit(self) -> None:
        row = self.current_row()
        if row is None:
            return
        if self.active_tab == "characters":
            self._edit_character(row["id"])
        else:
            self._open_aircraft_form(row)

    @work(thread=True, exclusive=True, group="roster-edit", exit_on_error=False)
    def _edit_character(self, character_id: int) -> None:
        try:
            full = roster_reads.load_character_full(door(self).campaign_db(), character_id)
        except Exception as error:  # noqa: BLE001 — any failure: one message (issue 11)
            self.app.call_from_thread(self.notify, str(load_failure(
                f"character {character_id}", error, door(self))), severity="error")
            return
        self.app.call_from_thread(self._open_character_form, full)

    def _open_character_form(self, character: Row | None) -> None:
        from ka_tui.screens.roster.character_form import CharacterForm

        except_id = None if character is None else character["id"]
        db_app = door(self)

        def write(values: Row) -> int:
            # issue 14: merged over what another window saved meanwhile
            return int(roster_reads.save_character(db_app.campaign_db(), values,
                                                   loaded=character))

        form = CharacterForm(character, taken_names=self._names("characters", except_id),
                             write=write, default_ap=self.default_ap)
        self.app.push_screen(form, self._character_saved)

    def _character_saved(self, character_id: int | None) -> None:
        if character_id is None:
            return
        self.notify("Character saved.", timeout=2)
        self.reload_and_select("characters", character_id)

    def _open_aircraft_form(self, aircraft: Row | None) -> None:
        from ka_tui.screens.aircraft.form import open_aircraft_form

        # The names are in the roster already: no query for them (issue 13).
        open_aircraft_form(self, aircraft, self._aircraft_saved,
                           taken_names=self._names("aircraft"))

    def _aircraft_saved(self, aircraft_id: int | None) -> None:
        if aircraft_id is None:
            return
        self.notify("Aircraft saved.", timeout=2)
        self.reload_and_select("aircraft", aircraft_id)

    def action_flight_card(self) -> None:
        row = self.current_row()
        if row is None or self.active_tab != "aircraft":
            return
        from ka_tui.screens.aircraft.card_screen import open_flight_card

        open_flight_card(self, row["id"])

    def action_library(self) -> None:
        from ka_tui.screens.aircraft.library import ProfileLibraryScreen

        self.app.push_screen(ProfileLibraryScreen(), self._aircraft_copied)

    def _aircraft_copied(self, aircraft_id: int | None) -> None:
        if aircraft_id is not None:
            self.reload_and_select("aircraft", aircraft_id)

    def action_seats(self) -> None:
        from ka_tui.screens.roster.crew import CrewScreen

        row = self.current_row()
        if row is None or self.active_tab != "aircraft":
            return
        db_app = door(self)

        def write(pilot: int | None, crew: list[int]) -> None:
            roster_reads.set_seats(db_app.campaign_db(), row["id"], pilot, crew)

        def done(saved: bool | None) -> None:
            if saved:
                self.notify("Seats saved.", timeout=2)
                self.reload_and_select("aircraft", row["id"])

        self.app.push_screen(CrewScreen(row, self.tables["characters"].rows,
                                        self.tables["aircraft"].rows, write), done)

    def action_duplicate(self) -> None:
        row = self.current_row()
        if row is not None:
            self._duplicate(self.active_tab, row["id"])

    @work(thread=True, exclusive=True, group="roster-write", exit_on_error=False)
    def _duplicate(self, tab: str, row_id: int) -> None:
        try:
            new_id, name = roster_reads.duplicate(door(self).campaign_db(), tab, row_id)
        except StoreError as error:
            self.app.call_from_thread(self.notify, str(error), title="Not copied",
                                      severity="error")
            return
        self.app.call_from_thread(self.notify, f"Copied as {name}.", timeout=2)
        self.app.call_from_thread(self.reload_and_select, tab, new_id)

    def action_delete(self) -> None:
        from ka_tui.screens.confirm import ConfirmScreen

        row = self.current_row()
        if row is None:
            return
        tab = self.active_tab
        what = "character" if tab == "characters" else "aircraft"
        extra = (" with its skills and weapons" if tab == "characters" else "")
        notes = ""
        if tab == "characters":  # his seat and open fights (issue 12 #5)
            from ka_tui.store import roster

            warnings = roster.delete_warnings(door(self).campaign_db(), row["id"])
            notes = "".join(f"\n- {w}" for w in warnings)

        def answered(yes: bool | None) -> None:
            if yes:
                self._delete(tab, row["id"], row["name"])

        self.app.push_screen(
            ConfirmScreen(f"Delete the {what} {row['name']}{extra}? This cannot be undone."
                          f"{notes}",
                          yes="Delete", title=f"Delete {what}"),
            answered)

    @work(thread=True, exclusive=True, group="roster-write", exit_on_error=False)
    def _delete(self, tab: str, row_id: int, name: str) -> None:
        try:
            roster_reads.delete(door(self).campaign_db(), tab, row_id)
        except StoreError as error:
            self.app.call_from_thread(self.notify, str(error), title="Not deleted",
                                      severity="error")
            return
        self.app.call_from_thread(self.notify, f"Deleted {name}.", timeout=2)
        self.app.call_from_thread(self.reload_and_select, tab, None)


OpenCallback = Callable[[int | None], None]
