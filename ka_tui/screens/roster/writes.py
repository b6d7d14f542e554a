"""The roster's keys that change the campaign: add and edit (in a form),
copy, delete (asks first), seat a pilot and crew, copy from the profile
library. Each is one store call (one transaction) off the app's thread:
copy and delete here through ``store_work``, the seats in ``CrewScreen``
through it too, a form's save in the form's own worker (``FormScreen``,
with the job given here). From a write's start until the roster is read
again after it, the keys typed meanwhile wait (the app's key gate,
``widgets/key_gate.py``: the write and the read its ``done`` begins hold
them), so they act on the rows as they are after it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from ka_tui.screens.door import CampaignChanged, Change, door
from ka_tui.screens.roster.base import RosterBase
from ka_tui.screens.roster.model import Row, delete_notes
from ka_tui.screens.store_work import store_work
from ka_tui.store import roster_reads

if TYPE_CHECKING:
    from ka_tui.screens.confirm import ConfirmScreen
    from ka_tui.store.db import CampaignDB

T = TypeVar("T")


class RosterWrites(RosterBase):
    def reload_and_select(self, tab: str, row_id: int | None) -> None:
        """After a write from the roster: read it again, select ``row_id``,
        and tell the other modes (the keys typed meanwhile wait for the read)."""
        self.model.select_after_load = (tab, row_id) if row_id is not None else None
        self.load()
        door(self).campaign_changed(CampaignChanged(Change.ROSTER, self))

    def _write(self, job: Callable[[CampaignDB], T], done: Callable[[T], None],
               refused: str) -> None:
        """One store call for a key of the roster (the keys wait for it and
        the read after it); ``refused``: the notice's title when the store says no."""
        store_work(self, job, group="roster-write", done=done,
                   failed=lambda error: self.notify(str(error), title=refused,
                                                    severity="error"))

    def _saved(self, tab: str, message: str) -> Callable[[int | None], None]:
        """A form's or dialog's result: the row written (``None``: nothing was)."""
        def done(row_id: int | None) -> None:
            if row_id is not None:
                if message:
                    self.notify(message, timeout=2)
                self.reload_and_select(tab, row_id)
        return done

    def action_add(self) -> None:
        if self.active_tab == "characters":
            self._open_character_form(None)
        else:
            self._open_aircraft_form(None)

    def action_edit(self) -> None:
        row = self.current_row()
        if row is None:
            return
        if self.active_tab == "aircraft":
            self._open_aircraft_form(row)
            return
        cid = int(row["id"])
        store_work(self, lambda db: roster_reads.load_character_full(db, cid),
                   group="roster-edit", exclusive=True, done=self._open_character_form,
                   failed=lambda error: self.notify(str(error), severity="error"),
                   diagnose=f"character {cid}")

    def _open_character_form(self, character: Row | None) -> None:
        from ka_tui.screens.roster.character_form import CharacterForm

        except_id = None if character is None else character["id"]
        the_door = door(self)

        def write(values: Row) -> int:
            # merged over what another window saved meanwhile
            return int(roster_reads.save_character(the_door.campaign_db(), values,
                                                   loaded=character))

        form = CharacterForm(character, taken_names=self.model.names("characters", except_id),
                             write=write, default_ap=self.model.default_ap)
        self.app.push_screen(form, self._saved("characters", "Character saved."))

    def _open_aircraft_form(self, aircraft: Row | None) -> None:
        from ka_tui.screens.aircraft.form import open_aircraft_form

        # The names are in the roster already: no query for them.
        open_aircraft_form(self, aircraft, self._saved("aircraft", "Aircraft saved."),
                           taken_names=self.model.names("aircraft"))

    def action_flight_card(self) -> None:
        row = self.current_row()
        if row is None or self.active_tab != "aircraft":
            return
        from ka_tui.screens.aircraft.card_screen import open_flight_card

        open_flight_card(self, row["id"])

    def action_library(self) -> None:
        from ka_tui.screens.aircraft.library import ProfileLibraryScreen

        self.app.push_screen(ProfileLibraryScreen(), self._saved("aircraft", ""))

    def action_seats(self) -> None:
        from ka_tui.screens.roster.crew import CrewScreen

        row = self.current_row()
        if row is None or self.active_tab != "aircraft":
            return
        seated = self._saved("aircraft", "Seats saved.")

        def done(saved: bool | None) -> None:
            seated(row["id"] if saved else None)

        self.app.push_screen(CrewScreen(row, self.model.tables["characters"].rows,
                                        self.model.tables["aircraft"].rows), done)

    def action_duplicate(self) -> None:
        row = self.current_row()
        if row is None:
            return
        tab, row_id = self.active_tab, int(row["id"])

        def copied(got: tuple[int, str]) -> None:
            self.notify(f"Copied as {got[1]}.", timeout=2)
            self.reload_and_select(tab, got[0])

        self._write(lambda db: roster_reads.duplicate(db, tab, row_id), copied, "Not copied")

    def action_delete(self) -> None:
        """Asks first; for a character, his seat and open fights are read (off
        this thread) and added to the question as soon as they are in."""
        from ka_tui.screens.confirm import ConfirmScreen

        row = self.current_row()
        if row is None:
            return
        tab, row_id, name = self.active_tab, int(row["id"]), str(row["name"])
        question, title = self.model.delete_question(row)
        dialog = ConfirmScreen(question, yes="Delete", title=title)

        def deleted(_: None) -> None:
            self.notify(f"Deleted {name}.", timeout=2)
            self.reload_and_select(tab, None)

        def answered(yes: bool | None) -> None:
            if yes:
                self._write(lambda db: roster_reads.delete(db, tab, row_id), deleted,
                            "Not deleted")

        self.app.push_screen(dialog, answered)
        if tab == "characters":
            store_work(self, lambda db: delete_notes(db, row_id), group="roster-delete-notes",
                       done=lambda notes: _add_notes(dialog, question, notes),
                       failed=lambda _error: None, errors=(Exception,))


def _add_notes(dialog: ConfirmScreen, question: str, notes: list[str]) -> None:
    """The delete prompt's question with what the delete also touches."""
    if not notes:
        return
    from textual.widgets import Static

    dialog.question = question + "".join(f"\n- {note}" for note in notes)
    shown = dialog.query(".confirm-question")
    if shown:
        shown.first(Static).update(dialog.question)
