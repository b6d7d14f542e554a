"""Campaign mode (``5``/``F5``): the campaign between battles.

Views (one key each): ``o`` overview (date, next mission, readiness of every
person and aircraft, each with why), ``m`` missions (filter, plan, open),
``v`` service records, ``p`` repairs (queue, write off), ``j`` journal
(search / filter by character, aircraft, mission; GM notes); ``t`` advances
time after a preview. Every read and write is a ``store_work`` job
(``data.py``: plain sqlite3 reads, one store call per write, one
transaction), announced as ``Change.CAMPAIGN`` (and ``ROSTER`` when it
changes what the roster shows: the date's wounds and K-points, a write-off);
the views read again on another window's or process's change.
"""

from __future__ import annotations

from pathlib import Path
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Header, Input, Static

from ka_tui.rules.campaign.missions import MissionStatus
from ka_tui.screens.campaign import view
from ka_tui.screens.campaign.data import (
    JOURNAL_ROWS,
    MissionRead,
    ViewRead,
    read_mission,
    read_view,
    write_markdown,
)
from ka_tui.screens.door import AirPreset, CampaignChanged, Change, door
from ka_tui.screens.store_work import store_work
from ka_tui.store import campaign_state, missions
from ka_tui.store.campaign_state import RepairSummary
from ka_tui.store.errors import StoreError
from ka_tui.widgets.fast_table import FastTable
from ka_tui.widgets.quiet_footer import QuietFooter

if TYPE_CHECKING:
    from ka_tui.rules.campaign.journal import Entry
    from ka_tui.store.db import CampaignDB

VIEWS = ("overview", "missions", "records", "repairs", "journal")

# What the campaign's views show, so what they read again on: everything
# but the roll log (a mission's battles and fights, its people, the house
# rules' campaign options).
SHOWN = frozenset(Change) - {Change.ROLLS}


def _table(id: str, columns: list[tuple[str, int]]) -> FastTable:
    t = FastTable(id=id)
    for title, width in columns:
        t.add_column(title, width)
    return t


def markdown_file(node: DOMNode, mission_id: int | None = None) -> None:
    """Write the journal (or one mission's debrief) as Markdown beside the
    campaign file, in a worker; a notification says where (or why not)."""
    if door(node).db_path is None:
        return
    said = "Journal" if mission_id is None else "Debrief"
    app = node.app
    store_work(node, lambda db: write_markdown(db, mission_id), group="campaign-markdown",
               done=lambda path: app.notify(f"{said} written to {path}."),
               failed=lambda error: app.notify(str(error), severity="error"))


class CampaignScreen(Screen[None]):
    HELP_TITLE = "Campaign"

    BINDINGS = [
        Binding("o", "show('overview')", "Overview", id="campaign.overview"),
        Binding("m", "show('missions')", "Missions", id="campaign.missions"),
        Binding("v", "show('records')", "Records", id="campaign.records"),
        Binding("p", "show('repairs')", "Repairs", id="campaign.repairs"),
        Binding("j", "show('journal')", "Journal", id="campaign.journal"),
        Binding("t", "advance", "Time", id="campaign.time"),
        Binding("n", "new", "New", id="campaign.new"),
        Binding("slash", "filter", "Filter", show=False, id="campaign.filter"),
        Binding("w", "write_off", "Write off", show=False, id="campaign.write_off"),
        Binding("x", "markdown", "Markdown", show=False, id="campaign.markdown"),
    ]

    CSS_PATH = "campaign.tcss"

    def __init__(self) -> None:
        super().__init__()
        self.current = "overview"
        self._journal: list[Entry] = []
        self._repairs: list[RepairSummary] = []
        self.day: str | None = None  # the campaign's date as last read
        self.loaded = 0          # loads done (tests and benchmarks wait on it)

    def compose(self) -> ComposeResult:
        yield Header()
        with ContentSwitcher(initial="overview"):
            yield Vertical(*self._view("overview"), id="overview")
        yield QuietFooter(compact=True)

    @staticmethod
    def _view(name: str) -> list[Any]:
        """A view's widgets; only the overview is made with the screen, the
        others on their first visit (a lighter first frame)."""
        if name == "overview":
            return [Static("Loading…", id="overview-head", classes="head", markup=False),
                    _table("overview-table", [("State", 8), ("Role", 8), ("Why", 58)])]
        if name == "missions":
            return [Input(placeholder="filter: name, kind or status (planned, flown…)",
                          id="missions-filter"),
                    _table("missions-table", [("Date", 10), ("Status", 7), ("Kind", 14),
                                              ("Name", 30), ("Ppl", 3), ("Lnk", 3)])]
        if name == "records":
            return [Static("Service records, from the missions flown: enter opens one",
                           classes="head", markup=False),
                    _table("records-table", [("Name", 16), ("Sort", 4), ("Kills", 5),
                                             ("Wnds", 4), ("Out", 4), ("Status", 40)])]
        if name == "repairs":
            return [Static("Repairs: enter queues a damaged aircraft, w writes it off",
                           classes="head", markup=False),
                    _table("repairs-table", [("Aircraft", 17), ("State", 8),
                                             ("Work", 32), ("Cost", 8)]),
                    Static("", id="repairs-detail", classes="detail", markup=False)]
        return [Input(placeholder="search; @name character or aircraft; #id mission "
                                  f"(newest {JOURNAL_ROWS} shown)", id="journal-filter"),
                _table("journal-table", [("Day", 10), ("Kind", 7), ("Entry", 58)]),
                Static("", id="journal-detail", classes="detail", markup=False)]

    def on_mount(self) -> None:
        self.sub_title = "Campaign"
        door(self).on_campaign_changed(self, self._changed)
        self.query_one("#overview-table", FastTable).focus()
        self.load()

    def _changed(self, change: CampaignChanged) -> None:
        if change.source is not self and change.change in SHOWN:
            self.load()

    # -- loading ---------------------------------------------------------------

    def load(self) -> None:
        """Read the view shown (its filter as typed now), in a worker."""
        name = self.current
        text = self.query_one(f"#{name}-filter", Input).value \
            if name in ("missions", "journal") else ""
        store_work(self, lambda db: read_view(db, name, text), group="campaign-load",
                   exclusive=True, done=self._show, failed=self._failed,
                   diagnose="the campaign")

    def _failed(self, error: Exception) -> None:
        """Said where the GM looks: the view shown (its table emptied)."""
        if self.current == "overview":
            self.query_one("#overview-head", Static).update(str(error))
            return
        self.query_one(f"#{self.current}-table", FastTable).set_rows([])
        self.notify(str(error), title="Cannot load the view", severity="error", timeout=10)

    def _show(self, got: ViewRead) -> None:
        self.day = got.day
        if got.name == "overview":
            self.query_one("#overview-head", Static).update(view.overview_head(got.data))
            self.query_one("#overview-table", FastTable).set_rows(view.overview_rows(got.data))
        elif got.name == "missions":
            self.query_one("#missions-table", FastTable).set_rows(view.mission_rows(got.data))
        elif got.name == "records":
            self.query_one("#records-table", FastTable).set_rows(view.record_rows(got.data))
        elif got.name == "repairs":
            self._repairs = got.data
            self.query_one("#repairs-table", FastTable).set_rows(view.repair_rows(got.data))
            self._detail_repair()
        else:
            self._journal = got.data
            self.query_one("#journal-table", FastTable).set_rows(view.journal_rows(got.data))
            self._detail_journal()
        self.loaded += 1

    # -- views -----------------------------------------------------------------

    async def action_show(self, name: str) -> None:
        switcher = self.query_one(ContentSwitcher)
        if not switcher.query(f"#{name}"):
            await switcher.mount(Vertical(*self._view(name), id=name))
        self.current = name
        switcher.current = name
        self.query_one(f"#{name}-table", FastTable).focus()
        self.load()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The key of the view shown is left out of the footer (the keys fit 80
        columns) and does nothing there."""
        if action == "show" and parameters and parameters[0] == self.current:
            return False
        return True

    def action_filter(self) -> None:
        if self.current in ("missions", "journal"):
            self.query_one(f"#{self.current}-filter", Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.load()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one(f"#{self.current}-table", FastTable).focus()

    def on_fast_table_highlighted(self, event: FastTable.Highlighted) -> None:
        if event.control.id == "journal-table":
            self._detail_journal()
        elif event.control.id == "repairs-table":
            self._detail_repair()

    def _detail_journal(self) -> None:
        table = self.query_one("#journal-table", FastTable)
        key = table.cursor_key
        entry = next((e for e in self._journal if str(e.seq) == key), None)
        text = "" if entry is None else f"{entry.day} {entry.kind.value}\n{entry.text}"
        self.query_one("#journal-detail", Static).update(text)

    def _detail_repair(self) -> None:
        row = self._repair_row()
        self.query_one("#repairs-detail", Static).update(
            view.repair_text(row) if row else "Nothing damaged.")

    def _repair_row(self) -> RepairSummary | None:
        key = self.query_one("#repairs-table", FastTable).cursor_key
        return next((r for r in self._repairs if str(r.plane.id) == key), None)

    def on_fast_table_selected(self, event: FastTable.Selected) -> None:
        key = event.key
        if key is None:
            return
        tid = event.control.id
        if tid == "missions-table":
            self.open_mission(int(key))
        elif tid == "records-table":
            self.app.push_screen(RecordScreen(int(key)))
        elif tid == "overview-table" and key.startswith("c"):
            self.app.push_screen(RecordScreen(int(key[1:])))
        elif tid == "repairs-table":
            aid = int(key)
            self._write(lambda db: campaign_state.queue_repair(db, aid), "Queued for repair",
                        Change.CAMPAIGN)

    def open_mission(self, mission_id: int) -> None:
        def back(_: None) -> None:
            self.load()

        self.app.push_screen(MissionScreen(mission_id), back)

    # -- writes ------------------------------------------------------------------

    def _write(self, job: Callable[[CampaignDB], object], said: str,
               *changes: Change) -> None:
        def done(_: object) -> None:
            self.notify(said)
            self.load()

        store_work(self, job, group="campaign-write", done=done, publish=changes,
                   failed=lambda e: self.notify(str(e), title="Not done", severity="warning"))

    def action_write_off(self) -> None:
        row = self._repair_row() if self.current == "repairs" else None
        if row is None:
            return
        from ka_tui.screens.confirm import ConfirmScreen

        plane = row.plane

        def answered(yes: bool | None) -> None:
            if yes:
                # the aircraft's damage says lost: the roster shows it too
                self._write(lambda db: campaign_state.write_off(db, plane.id),
                            f"{plane.name} written off", Change.CAMPAIGN, Change.ROSTER)

        self.app.push_screen(ConfirmScreen(f"Write {plane.name} off? It can no longer "
                                           "fly.", yes="Write off"), answered)

    def action_new(self) -> None:
        from ka_tui.screens.campaign.dialogs import MissionForm, NoteScreen

        if self.current == "journal":
            self.app.push_screen(NoteScreen(), self._after_write)
            return
        if self.day is not None:   # every view's read brings the date
            self.app.push_screen(MissionForm(self.day), self._after_mission)
            return
        store_work(self, lambda db: campaign_state.campaign_day(db).isoformat(),
                   group="campaign-load",
                   done=lambda day: self.app.push_screen(MissionForm(day),
                                                         self._after_mission))

    def _after_mission(self, mission_id: int | None) -> None:
        if isinstance(mission_id, int):
            self.open_mission(mission_id)

    def _after_write(self, result: object) -> None:
        if result is not None:
            self.load()

    def action_advance(self) -> None:
        from ka_tui.screens.campaign.dialogs import TimeForm

        self.app.push_screen(TimeForm(), self._after_write)

    def action_markdown(self) -> None:
        markdown_file(self)


class MissionScreen(Screen[None]):
    """One mission: briefing, people and aircraft, what was played in it, the
    debrief (computed until confirmed)."""

    HELP_TITLE = "Mission"

    BINDINGS = [
        Binding("escape", "close", "Back", id="mission.close"),
        Binding("e", "edit", "Edit", id="mission.edit"),
        Binding("d", "debrief", "Debrief", id="mission.debrief"),
        Binding("s", "fly", "Battle", id="mission.battle"),
        Binding("b", "link('battle')", "Link", id="mission.link"),
        Binding("f", "link('fight')", "Link fight", show=False, id="mission.link_fight"),
        Binding("a", "abort", "Abort", show=False, id="mission.abort"),
        Binding("n", "note", "Note", id="mission.note"),
        Binding("x", "markdown", "Markdown", show=False, id="mission.markdown"),
    ]

    PALETTE_HELP = {
        "mission.battle": "Start the mission's air battle: the air mode's setup opens with "
                          "its aircraft on side Blue; the battle is linked to the mission",
    }

    CSS_PATH = "campaign.tcss"

    def __init__(self, mission_id: int) -> None:
        super().__init__()
        self.mission_id = mission_id
        self.mission: missions.Mission | None = None
        self.lines: list[str] = []       # the debrief lines shown
        self.debrief: list[str] = []     # the debrief a confirmation is based on

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static("Loading…", id="mission-text", markup=False)
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        self.sub_title = "Mission"
        door(self).on_campaign_changed(self, self._changed)
        self.load()

    def _changed(self, change: CampaignChanged) -> None:
        if change.source is not self and change.change in SHOWN:
            self.load()

    def load(self) -> None:
        mission_id = self.mission_id
        store_work(self, lambda db: read_mission(db, mission_id), group="mission-load",
                   exclusive=True, done=self._show, failed=self._failed,
                   diagnose=f"mission {mission_id}")

    def _failed(self, error: Exception) -> None:
        self.query_one("#mission-text", Static).update(str(error))

    def _show(self, got: MissionRead) -> None:
        self.mission, self.lines, self.debrief = got.mission, got.shown, got.debrief
        self.query_one("#mission-text", Static).update(view.mission_text(got.mission,
                                                                         got.shown))

    def action_close(self) -> None:
        self.dismiss(None)

    def _planned(self) -> bool:
        if self.mission is None or self.mission.status is not MissionStatus.PLANNED:
            self.notify("The mission is no longer planned.", severity="warning")
            return False
        return True

    def _done(self, result: object) -> None:
        self.load()

    def _write(self, job: Callable[[CampaignDB], object]) -> None:
        store_work(self, job, group="mission-write", done=self._done, publish=Change.CAMPAIGN,
                   failed=lambda e: self.notify(str(e), severity="warning"))

    def action_edit(self) -> None:
        from ka_tui.screens.campaign.dialogs import MissionForm

        if self._planned() and self.mission is not None:
            self.app.push_screen(MissionForm(self.mission.day, self.mission), self._done)

    def action_debrief(self) -> None:
        from ka_tui.screens.campaign.dialogs import DebriefForm

        if self._planned() and self.mission is not None:
            self.app.push_screen(DebriefForm(self.mission, self.debrief), self._done)

    def action_fly(self) -> None:
        """The mission's battle: mode 4's setup with its aircraft on Blue (the
        GM adds the other side); once started, the battle is in the mission."""
        if not self._planned() or self.mission is None:
            return
        door(self).open_air_setup(AirPreset(
            self.mission_id, tuple((a, "Blue") for a in self.mission.aircraft_ids)))

    def action_link(self, what: str) -> None:
        """Link the newest battle (or close-combat fight) not yet in a mission
        (the battle screen's hand-off opens one pre-filled; this links one
        played already)."""
        if not self._planned():
            return
        mission_id = self.mission_id

        def job(db: CampaignDB) -> bool:
            found = missions.unlinked(db, what)
            if found is None:
                return False
            if what == "battle":
                missions.link(db, mission_id, battle_id=found)
            else:
                missions.link(db, mission_id, fight_id=found)
            return True

        def done(linked: bool) -> None:
            if not linked:
                self.notify(f"No {what} to link: every {what} is in a mission.",
                            severity="warning")
            self.load()

        store_work(self, job, group="mission-write", done=done, publish=Change.CAMPAIGN,
                   wrote=bool, failed=lambda e: self.notify(str(e), severity="warning"))

    def action_abort(self) -> None:
        from ka_tui.screens.confirm import ConfirmScreen

        if not self._planned():
            return
        mission_id = self.mission_id

        def answered(yes: bool | None) -> None:
            if yes:
                self._write(lambda db: missions.abort_mission(db, mission_id))

        self.app.push_screen(ConfirmScreen("Abort this mission?", yes="Abort"), answered)

    def action_note(self) -> None:
        from ka_tui.screens.campaign.dialogs import NoteScreen

        self.app.push_screen(NoteScreen(self.mission_id), self._done)

    def action_markdown(self) -> None:
        markdown_file(self, self.mission_id)


class RecordScreen(Screen[None]):
    """A character's service record, derived from the missions flown."""

    HELP_TITLE = "Service record"

    BINDINGS = [Binding("escape", "close", "Back", id="record.close")]

    CSS_PATH = "campaign.tcss"

    def __init__(self, character_id: int) -> None:
        super().__init__()
        self.character_id = character_id

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static("Loading…", id="record-text", markup=False)
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        self.sub_title = "Service record"
        door(self).on_campaign_changed(self, self._changed)
        self.load()

    def _changed(self, change: CampaignChanged) -> None:
        if change.source is not self and change.change in SHOWN:
            self.load()

    def load(self) -> None:
        cid = self.character_id

        def job(db: CampaignDB) -> str:
            [rec] = campaign_state.service_records(db, cid)
            return view.record_text(rec)

        text = self.query_one("#record-text", Static)
        store_work(self, job, group="record-load", exclusive=True, done=text.update,
                   failed=lambda e: text.update(str(e)), diagnose="the service record")

    def action_close(self) -> None:
        self.dismiss(None)
