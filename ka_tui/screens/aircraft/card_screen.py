"""The flight-card screen: one campaign aircraft's card.

Opened from the roster (``f``) with ``open_flight_card(screen, aircraft_id)``
and later by a key from the tactical view. Keys: ``e`` edit (the aircraft
form), ``n``/``p`` next / previous aircraft, ``t`` trait rule text, ``l`` the
profile library, ``x``/``i`` export / import a profile file (also in the
command palette), ``escape`` back. Database reads are ``store_work`` jobs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Static

from ka_tui.screens.aircraft.form import open_aircraft_form
from ka_tui.screens.aircraft.library import ProfileLibraryScreen, export_dialog, import_dialog
from ka_tui.screens.door import CampaignChanged, Change, door
from ka_tui.screens.store_work import store_work
from ka_tui.store.aircraft_view import AircraftView, aircraft_ids, load_aircraft_view
from ka_tui.widgets.flight_card import FlightCard
from ka_tui.widgets.quiet_footer import QuietFooter

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB


class FlightCardScreen(Screen[None]):
    """A campaign aircraft's flight card with its live status."""

    CSS_PATH = "card_screen.tcss"
    HELP_TITLE = "Flight card"

    BINDINGS = [
        Binding("escape", "back", "Back", id="flight_card.back"),
        Binding("e", "edit", "Edit", id="flight_card.edit"),
        Binding("n", "step(1)", "Next", id="flight_card.next"),
        Binding("p", "step(-1)", "Prev", id="flight_card.prev"),
        Binding("l", "library", "Library", id="flight_card.library"),
        Binding("x", "export_profile", "Export profile", show=False,
                id="flight_card.export"),
        Binding("i", "import_profiles", "Import profiles", show=False,
                id="flight_card.import"),
    ]

    PALETTE_HELP: ClassVar[dict[str, str]] = {
        "flight_card.edit": "Edit this aircraft's profile and status",
        "flight_card.next": "Show the next aircraft's card",
        "flight_card.prev": "Show the previous aircraft's card",
        "flight_card.library": "Ready aircraft profiles to copy into the campaign",
        "flight_card.export": "Write this aircraft's profile to a file",
        "flight_card.import": "Add aircraft from a profile file to the campaign",
    }

    def __init__(self, aircraft_id: int) -> None:
        super().__init__()
        self.aircraft_id = aircraft_id
        self.view: AircraftView | None = None
        self._ids: list[int] = []

    def compose(self) -> ComposeResult:
        yield Static("Loading the flight card…", id="card-loading")
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        self.load()

    def load(self) -> None:
        aircraft_id = self.aircraft_id

        def job(db: CampaignDB) -> tuple[AircraftView, list[int]]:
            return load_aircraft_view(db, aircraft_id), [i for i, _ in aircraft_ids(db)]

        store_work(self, job, group="flight-card", exclusive=True,
                   done=lambda got: self._show(*got), failed=lambda e: self._failed(str(e)),
                   diagnose=f"aircraft {aircraft_id}")

    def _failed(self, message: str) -> None:
        self.query_one("#card-loading", Static).update(message)
        self.notify(message, title="Flight card", severity="error")

    def _show(self, view: AircraftView, ids: list[int]) -> None:
        self.view = view
        self._ids = ids
        self.sub_title = view.profile.name
        cards = self.query(FlightCard)
        if cards:
            cards.first().show(view.profile, view.status)
        else:
            self.query_one("#card-loading").display = False
            card = FlightCard(view.profile, view.status, id="flight-card")
            self.mount(card, before=self.query_one(Footer))
            card.focus()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("edit", "export_profile") and self.view is None:
            return None
        if action == "step" and len(self._ids) < 2:
            return None
        return True

    def action_back(self) -> None:
        self.dismiss(None)

    def action_step(self, delta: int) -> None:
        if self.aircraft_id not in self._ids or len(self._ids) < 2:
            return
        i = (self._ids.index(self.aircraft_id) + delta) % len(self._ids)
        self.aircraft_id = self._ids[i]
        self.load()

    def action_edit(self) -> None:
        open_aircraft_form(self, {"id": self.aircraft_id}, self._edited)

    def _edited(self, aircraft_id: int | None) -> None:
        if aircraft_id is not None:
            self.notify("Aircraft saved.", timeout=2)
            self.load()
            door(self).campaign_changed(CampaignChanged(Change.ROSTER, self))

    def action_library(self) -> None:
        self.app.push_screen(ProfileLibraryScreen(), self._copied)

    def _copied(self, aircraft_id: int | None) -> None:
        if aircraft_id is not None:
            self.aircraft_id = aircraft_id
            self.load()
            door(self).campaign_changed(CampaignChanged(Change.ROSTER, self))

    def action_export_profile(self) -> None:
        if self.view is not None:
            export_dialog(self, (self.view.profile,))

    def action_import_profiles(self) -> None:
        import_dialog(self, self._copied)


def open_flight_card(screen: Screen[Any], aircraft_id: int) -> None:
    """Show aircraft ``aircraft_id``'s card on top of ``screen`` (the roster's
    entry point; the card's writes reach the roster as a campaign change)."""
    screen.app.push_screen(FlightCardScreen(aircraft_id))
