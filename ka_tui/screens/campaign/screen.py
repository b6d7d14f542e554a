"""Campaign mode (``5``/``F5``, issue 15): the campaign between battles.

Views (one key each): ``o`` overview (date, next mission, readiness of every
person and aircraft, each with why), ``m`` missions (filter, plan, open),
``v`` service records, ``p`` repairs (queue, write off), ``j`` journal
(search / filter by character, aircraft, mission; GM notes); ``t`` advances
time after a preview. Reads run in a worker (plain sqlite3, no SQLModel);
every write is one store call (one transaction), then ``CampaignChanged``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Header, Input, Static

from ka_tui.rules.campaign.missions import MissionKind
from ka_tui.screens.campaign import view
from ka_tui.screens.door import AirPreset, CampaignChanged, Change, door
from ka_tui.store import campaign_state, journal, missions
from ka_tui.store.load_failure import load_failure
from ka_tui.store.errors import StoreError
from ka_tui.widgets.fast_table import FastTable
from ka_tui.widgets.quiet_footer import QuietFooter

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

VIEWS = ("overview", "missions", "records", "repairs", "journal")
JOURNAL_ROWS = 500   # the newest entries shown; the filter reaches every entry


def _table(id: str, columns: list[tuple[str, int]]) -> FastTable:
    t = FastTable(id=id)
    for title, width in columns:
        t.add_column(title, width)
    return t


def parse_filter(text: str, names: missions.RosterNames) -> dict[str, Any]:
    """Journal filter text: ``@name`` a character or aircraft, ``#n`` a
    mission id, the rest searched in the entries' text."""
    out: dict[str, Any] = {}
    words = []
    for word in text.split():
        if word.startswith("#") and word[1:].isdigit():
            out["mission"] = int(word[1:])
        elif word.startswith("@") and len(word) > 1:
            key = word[1:].replace("_", " ")
            cid = names.person(key)
            if cid is not None:
                out["character"] = cid
            else:
                aid = names.plane(key)
                out["aircraft"] = aid if aid is not None else -1
        else:
            words.append(word)
    out["search"] = " ".join(words)
    return out


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

    DEFAULT_CSS = """
    CampaignScreen .head { height: auto; padding: 0 1; color: $text; }
    CampaignScreen .detail { height: auto; max-height: 8; padding: 0 1;
                             border-top: solid $panel-lighten-2; }
    CampaignScreen Input { height: 3; }
    CampaignScreen ContentSwitcher { height: 1fr; }
    CampaignScreen ContentSwitcher > Vertical { height: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.current = "overview"
        self._journal: list[Any] = []
        self._repairs: list[Any] = []
        self._names: missions.RosterNames | None = None
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
        if change.source is not self:
            self.load()

    # -- loading ---------------------------------------------------------------

    @work(thread=True, exclusive=True, group="campaign-load", exit_on_error=False)
    def load(self) -> None:
        view_name = self.current
        try:
            db = door(self).campaign_db()
            if self._names is None:
                self._names = missions.roster_names(db)
            data = self._read(db, view_name)
        except StoreError as error:
            self.app.call_from_thread(self._failed, error)
            return
        self.app.call_from_thread(self._show, view_name, data)

    def _read(self, db: CampaignDB, name: str) -> Any:
        if name == "overview":
            return campaign_state.overview(db)
        if name == "missions":
            text = self.query_one("#missions-filter", Input).value.strip().casefold()
            status = next((s for s in ("planned", "flown", "aborted") if s == text), None)
            kind = next((k.value for k in MissionKind if k.value == text), None)
            return missions.list_missions(db, status=status, kind=kind,
                                          search="" if status or kind else text)
        if name == "records":
            return campaign_state.service_records(db)
        if name == "repairs":
            return campaign_state.repairs(db)
        text = self.query_one("#journal-filter", Input).value
        assert self._names is not None
        return journal.entries(db, newest_first=True, limit=JOURNAL_ROWS,
                               **parse_filter(text, self._names))

    def _failed(self, error: Exception) -> None:
        self.query_one("#overview-head", Static).update(str(load_failure("the campaign", error)))

    def _show(self, name: str, data: Any) -> None:
        if name == "overview":
            self.query_one("#overview-head", Static).update(view.overview_head(data))
            self.query_one("#overview-table", FastTable).set_rows(view.overview_rows(data))
        elif name == "missions":
            self.query_one("#missions-table", FastTable).set_rows(view.mission_rows(data))
        elif name == "records":
            self.query_one("#records-table", FastTable).set_rows(view.record_rows(data))
        elif name == "repairs":
            self._repairs = data
            self.query_one("#repairs-table", FastTable).set_rows(view.repair_rows(data))
            self._detail_repair()
        else:
            self._journal = data
            self.query_one("#journal-table", FastTable).set_rows(view.journal_rows(data))
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

    def _repair_row(self) -> Any:
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
            self._write(lambda db: campaign_state.queue_repair(db, int(key)), "Queued for repair")

    def open_mission(self, mission_id: int) -> None:
        def back(_: None) -> None:
            self.load()

        self.app.push_screen(MissionScreen(mission_id), back)

    # -- writes ------------------------------------------------------------------

    def _write(self, action: Any, done: str) -> None:
        try:
            action(door(self).campaign_db())
        except StoreError as e:
            self.notify(str(e), title="Not done", severity="warning")
            return
        self.notify(done)
        door(self).campaign_changed(CampaignChanged(Change.ROSTER, self))
        self.load()

    def action_write_off(self) -> None:
        row = self._repair_row() if self.current == "repairs" else None
        if row is None:
            return
        from ka_tui.screens.confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                self._write(lambda db: campaign_state.write_off(db, row.plane.id),
                            f"{row.plane.name} written off")

        self.app.push_screen(ConfirmScreen(f"Write {row.plane.name} off? It can no longer "
                                           "fly.", yes="Write off"), answered)

    def action_new(self) -> None:
        from ka_tui.screens.campaign.dialogs import MissionForm, NoteScreen

        if self.current == "journal":
            self.app.push_screen(NoteScreen(), self._after_write)
            return
        day = campaign_state.campaign_day(door(self).campaign_db()).isoformat()
        self.app.push_screen(MissionForm(day), self._after_mission)

    def _after_mission(self, mission_id: Any) -> None:
        if isinstance(mission_id, int):
            door(self).campaign_changed(CampaignChanged(Change.ROSTER, self))
            self.open_mission(mission_id)

    def _after_write(self, result: Any) -> None:
        if result is not None:
            door(self).campaign_changed(CampaignChanged(Change.ROSTER, self))
            self.load()

    def action_advance(self) -> None:
        from ka_tui.screens.campaign.dialogs import TimeForm

        self.app.push_screen(TimeForm(), self._after_write)

    def action_markdown(self) -> None:
        path = write_markdown(self)
        if path is not None:
            self.notify(f"Journal written to {path}.")


def write_markdown(node: Any, mission_id: int | None = None) -> Path | None:
    """Write the journal (or one mission's debrief) as Markdown beside the
    campaign file; returns the path."""
    d = door(node)
    if d.db_path is None:
        return None
    db = d.campaign_db()
    if mission_id is None:
        text = journal.journal_markdown(db, f"Journal: {d.db_path.stem}")
        path = d.db_path.with_name(f"{d.db_path.stem}-journal.md")
    else:
        text = missions.debrief_markdown(db, mission_id)
        path = d.db_path.with_name(f"{d.db_path.stem}-mission-{mission_id}.md")
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        node.notify(f"cannot write {path}: {e.strerror}", severity="error")
        return None
    return path


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

    DEFAULT_CSS = """
    MissionScreen VerticalScroll { padding: 0 1; }
    """

    def __init__(self, mission_id: int) -> None:
        super().__init__()
        self.mission_id = mission_id
        self.mission: missions.Mission | None = None
        self.lines: list[str] = []

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static("Loading…", id="mission-text", markup=False)
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        self.sub_title = "Mission"
        door(self).on_campaign_changed(
            self, lambda change: None if change.source is self else self.load())
        self.load()

    def load(self) -> None:
        db = door(self).campaign_db()
        try:
            self.mission = missions.get_mission(db, self.mission_id)
            if self.mission.status.value == "planned":
                self.lines = missions.debrief_of(db, self.mission_id).lines \
                    if self.mission.links else []
            else:
                self.lines = missions._stored_lines(self.mission.debrief)
        except StoreError as e:
            self.query_one("#mission-text", Static).update(str(e))
            return
        self.query_one("#mission-text", Static).update(
            view.mission_text(self.mission, self.lines))

    def action_close(self) -> None:
        self.dismiss(None)

    def _planned(self) -> bool:
        if self.mission is None or self.mission.status.value != "planned":
            self.notify("The mission is no longer planned.", severity="warning")
            return False
        return True

    def _done(self, result: Any) -> None:
        if result is not None:
            door(self).campaign_changed(CampaignChanged(Change.ROSTER, self))
        self.load()

    def action_edit(self) -> None:
        from ka_tui.screens.campaign.dialogs import MissionForm

        if self._planned() and self.mission is not None:
            self.app.push_screen(MissionForm(self.mission.day, self.mission), self._done)

    def action_debrief(self) -> None:
        from ka_tui.screens.campaign.dialogs import DebriefForm

        if self._planned() and self.mission is not None:
            lines = missions.debrief_of(door(self).campaign_db(), self.mission_id).lines
            self.app.push_screen(DebriefForm(self.mission, lines), self._done)

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
        db = door(self).campaign_db()
        found = missions.unlinked(db, what)
        if found is None:
            self.notify(f"No {what} to link: every {what} is in a mission.",
                        severity="warning")
            return
        try:
            if what == "battle":
                missions.link(db, self.mission_id, battle_id=found)
            else:
                missions.link(db, self.mission_id, fight_id=found)
        except StoreError as e:
            self.notify(str(e), severity="warning")
            return
        self._done(True)

    def action_abort(self) -> None:
        from ka_tui.screens.confirm import ConfirmScreen

        if not self._planned():
            return

        def answered(yes: bool | None) -> None:
            if yes:
                missions.abort_mission(door(self).campaign_db(), self.mission_id)
                self._done(True)

        self.app.push_screen(ConfirmScreen("Abort this mission?", yes="Abort"), answered)

    def action_note(self) -> None:
        from ka_tui.screens.campaign.dialogs import NoteScreen

        self.app.push_screen(NoteScreen(self.mission_id), self._done)

    def action_markdown(self) -> None:
        path = write_markdown(self, self.mission_id)
        if path is not None:
            self.notify(f"Debrief written to {path}.")


class RecordScreen(Screen[None]):
    """A character's service record, derived from the missions flown."""

    HELP_TITLE = "Service record"

    BINDINGS = [Binding("escape", "close", "Back", id="record.close")]

    DEFAULT_CSS = """
    RecordScreen VerticalScroll { padding: 0 1; }
    """

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
        try:
            [rec] = campaign_state.service_records(door(self).campaign_db(), self.character_id)
        except (StoreError, ValueError) as e:
            self.query_one("#record-text", Static).update(str(e))
            return
        self.query_one("#record-text", Static).update(view.record_text(rec))

    def action_close(self) -> None:
        self.dismiss(None)
