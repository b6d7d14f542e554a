"""The campaign mode's dialogs: mission form, debrief, time advance, GM note.

Each writes through the store in its worker (one transaction per save: the
form's save worker runs ``write``; the note is a ``store_work`` job) and
announces ``Change.CAMPAIGN`` (and ``ROSTER`` when the roster shows it); a
refusal shows beside its field (``ValidationError.field``). Each write is
refused when another window changed what it is based on since the dialog
opened: the mission as the form read it, the debrief as shown, the preview.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from ka_tui.rules.campaign.missions import Debrief, MissionKind
from ka_tui.screens.door import Change, door
from ka_tui.screens.store_work import announce, store_work
from ka_tui.store import campaign_state, journal, missions
from ka_tui.widgets.form_fields import ChoiceField, FormScreen, IntField, TextField
from ka_tui.widgets.quiet_footer import QuietFooter

if TYPE_CHECKING:
    from ka_tui.rules.campaign.journal import Entry
    from ka_tui.rules.campaign.timeline import TimePreview
    from ka_tui.store.db import CampaignDB


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
            mission_id = missions.create_mission(db, values["name"], values["day"],
                                                 values["kind"], values["briefing"], members)
        else:
            mission_id = self.mission.id
            missions.update_mission(db, mission_id, values["name"], values["day"],
                                    values["kind"], values["briefing"], members,
                                    expect=self.mission)
        announce(self, Change.CAMPAIGN)
        return mission_id


class DebriefForm(FormScreen[Any]):
    """The debrief computed from the mission's battles and fights; ctrl+s
    confirms it (one transaction) with the GM's notes."""

    HELP_TITLE = "Debrief"

    CSS_PATH = "dialogs.tcss"

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

    def write(self, values: dict[str, Any]) -> Debrief:
        done = missions.confirm_debrief(door(self).campaign_db(), self.mission.id,
                                        values["notes"], seen=self.lines)
        # the roster's sortie and kill counts come from the flown missions
        announce(self, Change.CAMPAIGN, Change.ROSTER)
        return done


class TimeForm(FormScreen[Any]):
    """Advance the campaign N days: the preview lists what will change; ctrl+s
    confirms (one transaction)."""

    HELP_TITLE = "Advance time"

    CSS_PATH = "dialogs.tcss"

    def __init__(self, days: int = 1) -> None:
        super().__init__()
        self.days = days
        self.preview: TimePreview | None = None  # the last preview shown
        self._asked: int | None = None  # the days the preview is for (None: none valid)

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
        field = event.field
        if not isinstance(field, IntField):
            return
        value = field.value
        if isinstance(value, int) and 1 <= value <= 365:
            self._preview(value)
            return
        # no stale figure shown as if it would be applied
        self._asked, self.preview = None, None
        self.query_one("#time-preview", Static).update(
            f"Days {field.own_error() or 'must be 1..365'}: nothing to preview")

    def _preview(self, days: int) -> None:
        """What ``days`` days change, read in a worker (the newest wins)."""
        self._asked = days
        store_work(self, lambda db: campaign_state.preview_days(db, days),
                   group="time-preview", exclusive=True, done=self._show_preview,
                   failed=lambda e: self.query_one("#time-preview", Static).update(str(e)))

    def _show_preview(self, p: TimePreview) -> None:
        if p.days != self._asked:  # typed on meanwhile
            return
        self.preview = p
        lines = [p.summary, *(f"  {c.text}" for c in p.changes)] if p.changes else \
            [p.summary, "  nothing heals or finishes in that time"]
        self.query_one("#time-preview", Static).update("\n".join(lines))

    def write(self, values: dict[str, Any]) -> TimePreview:
        done = campaign_state.advance(door(self).campaign_db(), int(values["days"]),
                                      seen=self.preview)
        # wounds, K-points and the aircraft's damage, fuel and ammo: the roster's too
        announce(self, Change.CAMPAIGN, Change.ROSTER)
        return done

    def _failed(self, message: str, field: str | None) -> None:
        """Refused (the campaign moved on in another window): the preview is
        read again, so the GM sees what confirming now does."""
        super()._failed(message, field)
        days = self.query_one(IntField).value
        if isinstance(days, int) and 1 <= days <= 365:
            self._preview(days)


class NoteScreen(ModalScreen[Any]):
    """The GM's note for the journal (multi-line): ctrl+s writes it."""

    HELP_TITLE = "Journal note"

    CSS_PATH = "dialogs.tcss"

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
        text, mission = self.query_one(TextArea).text, self.mission

        def job(db: CampaignDB) -> Entry:
            return journal.note(db, text, mission=mission)

        store_work(self, job, group="note-save", done=self.dismiss, failed=self._refused,
                   publish=Change.CAMPAIGN)

    def _refused(self, error: Exception) -> None:
        status = self.query_one("#note-status", Static)
        status.update(str(error))
        status.add_class("-error")
