"""The campaign mode's dialogs: mission form, debrief, time advance, GM note.

Each writes through the store in its worker (one transaction per save); a
refusal shows beside its field (``ValidationError.field``)."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from ka_tui.rules.campaign.missions import MissionKind
from ka_tui.screens.door import door
from ka_tui.store import campaign_state, journal, missions
from ka_tui.store.errors import StoreError, ValidationError
from ka_tui.widgets.form_fields import ChoiceField, FormScreen, IntField, TextField
from ka_tui.widgets.quiet_footer import QuietFooter


class MissionForm(FormScreen[Any]):
    """Plan or edit a mission; people as names, each in the aircraft he is
    seated in (``Name@Aircraft`` to choose another). The ready-check refuses
    with the reason beside the people field."""

    HELP_TITLE = "Mission"

    def __init__(self, day: str, mission: missions.Mission | None = None) -> None:
        super().__init__()
        self.mission = mission
        self.day = day

    def compose(self) -> ComposeResult:
        m = self.mission
        with Vertical(classes="form-box") as box:
            box.border_title = "Edit mission" if m else "Plan a mission"
            yield TextField("Name", m.name if m else "", key="name", max_length=60)
            yield TextField("Date", m.day if m else self.day, key="day", max_length=10)
            yield ChoiceField("Kind", [(k.value, k.value) for k in MissionKind],
                              m.kind.value if m else MissionKind.PATROL.value, key="kind")
            yield TextField("Briefing", m.briefing if m else "", key="briefing",
                            max_length=4000)
            yield TextField("People", missions.members_text(m) if m else "", key="pilots",
                            placeholder="Hale, Moreau, Reilly@Mitchell KA-E")
            yield Static("ctrl+s: save (ready-check)   escape: cancel", classes="form-status")
        yield QuietFooter()

    def write(self, values: dict[str, Any]) -> int:
        db = door(self).campaign_db()
        members = missions.parse_members(missions.roster_names(db), values["pilots"])
        if self.mission is None:
            return missions.create_mission(db, values["name"], values["day"], values["kind"],
                                           values["briefing"], members)
        missions.update_mission(db, self.mission.id, values["name"], values["day"],
                                values["kind"], values["briefing"], members)
        return self.mission.id


class DebriefForm(FormScreen[Any]):
    """The debrief computed from the mission's battles and fights; ctrl+s
    confirms it (one transaction) with the GM's notes."""

    HELP_TITLE = "Debrief"

    DEFAULT_CSS = """
    DebriefForm .debrief-lines { height: auto; max-height: 14; }
    """

    def __init__(self, mission: missions.Mission, lines: list[str]) -> None:
        super().__init__()
        self.mission = mission
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(classes="form-box") as box:
            box.border_title = f"Debrief: {self.mission.name}"
            yield Static("\n".join(self.lines), classes="debrief-lines", markup=False)
            yield TextField("GM notes", "", key="notes", max_length=4000)
            yield Static("ctrl+s: confirm and write   escape: back", classes="form-status")
        yield QuietFooter()

    def write(self, values: dict[str, Any]) -> Any:
        return missions.confirm_debrief(door(self).campaign_db(), self.mission.id,
                                        values["notes"])


class TimeForm(FormScreen[Any]):
    """Advance the campaign N days: the preview lists what will change; ctrl+s
    confirms (one transaction)."""

    HELP_TITLE = "Advance time"

    DEFAULT_CSS = """
    TimeForm .time-preview { height: auto; max-height: 14; }
    """

    def __init__(self, days: int = 1) -> None:
        super().__init__()
        self.days = days
        self.start: Any = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="form-box") as box:
            box.border_title = "Advance time"
            yield IntField("Days", self.days, key="days", lo=1, hi=365)
            yield Static("", id="time-preview", classes="time-preview", markup=False)
            yield Static("ctrl+s: advance   escape: cancel", classes="form-status")
        yield QuietFooter()

    def on_mount(self) -> None:
        self._preview(self.days)

    def on_form_field_changed(self, event: Any) -> None:
        super().on_form_field_changed(event)
        value = getattr(event.field, "value", None)
        if isinstance(value, int) and 1 <= value <= 365:
            self._preview(value)

    def _preview(self, days: int) -> None:
        try:
            p = campaign_state.preview_days(door(self).campaign_db(), days)
        except StoreError as e:
            self.query_one("#time-preview", Static).update(str(e))
            return
        self.start = p.start
        lines = [p.summary, *(f"  {c.text}" for c in p.changes)] if p.changes else \
            [p.summary, "  nothing heals or finishes in that time"]
        self.query_one("#time-preview", Static).update("\n".join(lines))

    def write(self, values: dict[str, Any]) -> Any:
        return campaign_state.advance(door(self).campaign_db(), int(values["days"]),
                                      expect=self.start)


class NoteScreen(ModalScreen[Any]):
    """The GM's note for the journal (multi-line): ctrl+s writes it."""

    HELP_TITLE = "Journal note"

    DEFAULT_CSS = """
    NoteScreen { align: center middle; }
    NoteScreen > Vertical { width: 78; max-width: 100%; height: 16; border: round $accent;
                            background: $panel; padding: 0 1; }
    NoteScreen TextArea { height: 1fr; }
    NoteScreen .note-status { height: 1; color: $text-muted; }
    NoteScreen .note-status.-error { color: $text-error; }
    """

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="note.save"),
        Binding("escape", "cancel", "Cancel", id="note.cancel"),
    ]

    def __init__(self, mission: int | None = None) -> None:
        super().__init__()
        self.mission = mission

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "GM note"
            yield TextArea(id="note-text")
            yield Static("ctrl+s: write to the journal   escape: cancel",
                         classes="note-status", id="note-status")
        yield QuietFooter()

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_save(self) -> None:
        text = self.query_one(TextArea).text
        status = self.query_one("#note-status", Static)
        try:
            entry = journal.note(door(self).campaign_db(), text, mission=self.mission)
        except (ValidationError, StoreError) as e:
            status.update(str(e))
            status.add_class("-error")
            return
        self.dismiss(entry)
