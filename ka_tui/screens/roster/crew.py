"""Seat an aircraft's pilot and crew from the roster (``p`` on the Aircraft tab).

Lists every character with where he sits now; ``p`` makes the highlighted one
the pilot (again: no pilot), ``space``/``c`` toggles him as crew, ctrl+s saves
both in one transaction (a character seated elsewhere moves here; the list
shows where he was). Pilots are listed first. The seats come from the profile's
class (``store.field_checks.CREW_SEATS``): a single-seat fighter refuses crew and
a full aircraft another one, with the reason; the store checks the same on
save (``roster_reads.set_seats``, through ``store_work``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from ka_tui.screens.store_work import store_work
from ka_tui.store import roster_reads
from ka_tui.store.field_checks import crew_error, seats_text
from ka_tui.widgets.fast_table import FastTable
from ka_tui.widgets.form_fields import LightModal
from ka_tui.widgets.quiet_footer import QuietFooter

Row = Mapping[str, Any]


class CrewScreen(LightModal[bool]):
    HELP_TITLE = "Pilot and crew"

    BINDINGS = [
        Binding("p", "pilot", "Pilot", id="crew.pilot"),
        Binding("space,c", "crew", "Crew", id="crew.toggle"),
        Binding("ctrl+s", "save", "Save", id="crew.save"),
        Binding("escape", "cancel", "Cancel", id="crew.cancel"),
    ]

    CSS_PATH = "crew.tcss"

    def __init__(self, aircraft: Row, characters: Sequence[Row], others: Sequence[Row]) -> None:
        super().__init__()
        self.aircraft = aircraft
        self.pilot: int | None = aircraft.get("pilot_id")
        self.crew: list[int] = list(aircraft.get("crew_ids", ()))
        self.characters = sorted(characters, key=lambda c: (c["role"] != "pilot",
                                                            c["name"].casefold()))
        self.seat_elsewhere = _seats(others, exclude=aircraft["id"])

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"Pilot and crew of {self.aircraft['name']}"
            box.border_subtitle = f"Seats: {self._seats_text()}"
            yield FastTable(id="crew-table")
            yield Static("p pilot  space crew  ctrl+s save", classes="form-status")
        yield QuietFooter()

    def on_mount(self) -> None:
        table = self.query_one(FastTable)
        table.add_column("Seat", 5)
        table.add_column("Name", 22)
        table.add_column("Role", 6)
        table.add_column("Now", 34)
        self._fill()
        table.focus()

    def _fill(self) -> None:
        table = self.query_one(FastTable)
        rows = []
        for c in self.characters:
            seat = "PILOT" if c["id"] == self.pilot else ("crew" if c["id"] in self.crew else "")
            rows.append((str(c["id"]), (seat, c["name"], c["role"],
                                        self.seat_elsewhere.get(c["id"], ""))))
        table.set_rows(rows, keep_key=table.cursor_key)

    def _current(self) -> int | None:
        key = self.query_one(FastTable).cursor_key
        return None if key is None else int(key)

    def action_pilot(self) -> None:
        who = self._current()
        if who is None:
            return
        self.pilot = None if self.pilot == who else who
        if who in self.crew:
            self.crew.remove(who)
        self._fill()

    def _seats_text(self) -> str:
        return seats_text(str(self.aircraft.get("aircraft_class") or "fighter"))

    def _status(self, message: str, *, error: bool = False) -> None:
        status = self.query_one(".form-status", Static)
        status.update(message)
        status.set_class(error, "-error")

    def action_crew(self) -> None:
        who = self._current()
        if who is None:
            return
        if who in self.crew:
            self.crew.remove(who)
        else:
            refused = crew_error(str(self.aircraft["name"]),
                                 str(self.aircraft.get("aircraft_class") or "fighter"),
                                 len(self.crew) + 1)
            if refused:
                self._status(f"Not seated: {refused}.", error=True)
                return
            self.crew.append(who)
            if self.pilot == who:
                self.pilot = None
        self._fill()

    def action_cancel(self) -> None:
        self.dismiss(False)

    def action_save(self) -> None:
        """Pilot and crew in one transaction; the roster reads them again."""
        aircraft_id, pilot, crew = int(self.aircraft["id"]), self.pilot, list(self.crew)
        store_work(self, lambda db: roster_reads.set_seats(db, aircraft_id, pilot, crew),
                   group="crew-save", exclusive=True, done=lambda _: self.dismiss(True),
                   failed=lambda error: self._status(f"Not saved: {error}", error=True))


def _seats(aircraft: Sequence[Row], *, exclude: int) -> dict[int, str]:
    """Where each character sits in the other aircraft: ``pilot of X``/``crew of X``."""
    out: dict[int, str] = {}
    for a in aircraft:
        if a["id"] == exclude:
            continue
        if a.get("pilot_id"):
            out[a["pilot_id"]] = f"pilot of {a['name']}"
        for cid in a.get("crew_ids", ()):
            out.setdefault(cid, f"crew of {a['name']}")
    return out
