"""The aircraft form: snapshots with errors, and Pilot tests through the
real app that edit a card and check the database (S0 §Flight card, §Traits,
§Altitude explained; R-3.4 turn mode)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import Input, TabbedContent

from ka_tui.app import KaApp
from ka_tui.rules.air.aircraft import Trait
from ka_tui.rules.air.flight_status import FlightStatus
from ka_tui.rules.air.profiles import BF109, LANCASTER, TEMPEST
from ka_tui.screens.aircraft.form import (
    AircraftForm,
    EchelonsField,
    TraitsField,
    form_errors,
    open_aircraft_form,
)
from ka_tui.screens.aircraft.card_screen import FlightCardScreen
from ka_tui.store import roster
from ka_tui.store.aircraft_view import AircraftView
from ka_tui.store.db import open_campaign
from ka_tui.widgets.flight_card import FlightCard
from tests.ui.pilot_helpers import settle


# ------------------------------------------------------------------ helpers

async def retype(pilot, input_id: str, text: str) -> None:
    field = pilot.app.screen.query_one(f"#{input_id}", Input)
    field.focus()
    field.value = text  # one edit (Input.Changed once), as a paste would be
    await pilot.pause()


def row_dict(db_path: Path, aircraft_id: int) -> dict:
    with open_campaign(db_path) as db:
        return roster.get_aircraft(db, aircraft_id).model_dump()


@pytest.fixture
def campaign(db_path: Path) -> tuple[Path, int]:
    with open_campaign(db_path) as db:
        tempest = roster.add_aircraft(db, TEMPEST)
        roster.add_aircraft(db, LANCASTER)
    assert tempest.id is not None
    return db_path, tempest.id


async def open_form(pilot, aircraft_id: int) -> AircraftForm:
    pilot.app.push_screen(FlightCardScreen(aircraft_id))
    await settle(pilot)
    await pilot.press("e")
    await settle(pilot)
    form = pilot.app.screen
    assert isinstance(form, AircraftForm)
    return form


# --------------------------------------------------------------- snapshots

class FormApp(App[None]):
    def on_mount(self) -> None:
        view = AircraftView(1, TEMPEST, FlightStatus())
        self.push_screen(AircraftForm(view, taken_names=[TEMPEST.name, "Spitfire"]))


async def _no_blink(pilot) -> None:
    """A blinking cursor would make the shot depend on timing."""
    await pilot.pause()
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False


async def _bad_values(pilot) -> None:
    await _no_blink(pilot)
    await retype(pilot, "input-move", "15")
    await retype(pilot, "input-manoeuvres", "A1 A2 X3")


def test_snapshot_form_with_errors_80x24(snap_compare):
    """Refused at the field: Move out of range, a dial token that is not a manoeuvre."""
    assert snap_compare(FormApp(), terminal_size=(80, 24), run_before=_bad_values)


async def _traits_tab(pilot) -> None:
    await _no_blink(pilot)
    await pilot.press("ctrl+t", "ctrl+t")
    await pilot.pause()
    await pilot.press("down", "3")  # Bulky takes no dice count → error
    await pilot.pause()


def test_snapshot_traits_checklist_with_error_80x24(snap_compare):
    assert snap_compare(FormApp(), terminal_size=(80, 24), run_before=_traits_tab)


async def _hex_tab_error(pilot) -> None:
    await _no_blink(pilot)
    await retype(pilot, "input-move", "8")  # the 10:4 band now starts above Move
    await pilot.press("ctrl+s")
    await pilot.pause()
    await pilot.pause()
    await _no_blink(pilot)  # the hex tab's Inputs mount when it is first shown


def test_snapshot_save_refused_shows_the_tab_in_error_80x24(snap_compare):
    assert snap_compare(FormApp(), terminal_size=(80, 24), run_before=_hex_tab_error)


# ------------------------------------------------------------ pure checks

def test_form_errors_come_from_validate_profile_by_field():
    from ka_tui.rules.air.flight_notation import format_dial, format_turn_mode

    values = {"move": 8, "dive_max": 12, "manoeuvres": format_dial(TEMPEST.manoeuvres),
              "turn_mode": format_turn_mode(TEMPEST.turn_mode), "hull": 4, "hull_hits": 5}
    errors = form_errors(values, TEMPEST)
    assert "band starts above the aircraft's move (8)" in errors["turn_mode"]
    assert errors["hull_hits"] == "cannot exceed hull (4)"


# ------------------------------------------------------ Pilot + database

async def test_s0_edit_move_through_the_card_is_written(campaign):
    db_path, aid = campaign
    app = KaApp(db_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await open_form(pilot, aid)
        await retype(pilot, "input-move", "11")
        await pilot.press("ctrl+s")
        for _ in range(40):  # save worker, then the card's reload worker
            await settle(pilot)
            if isinstance(app.screen, FlightCardScreen) and \
                    app.screen.query_one(FlightCard).profile.move == 11:
                break
        assert app.screen.query_one(FlightCard).profile.move == 11
    assert row_dict(db_path, aid)["move"] == 11


@pytest.mark.parametrize(("field", "text", "error"), [
    # S0 §Flight card Move; store limits: move 1..12 (R-3.3 caps speed at 12)
    ("move", "15", "must be 1..12"),
    # S0 §Flight card manoeuvres: a dial speed above Move is refused
    ("manoeuvres", "A1 A2 !H11", "speed must be 1–10"),
], ids=["move_out_of_range", "s0_dial_speed_above_move"])
async def test_invalid_field_is_refused_and_nothing_is_written(campaign, field, text, error):
    db_path, aid = campaign
    before = row_dict(db_path, aid)
    app = KaApp(db_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        form = await open_form(pilot, aid)
        await retype(pilot, f"input-{field}", text)
        shown = form.query_one(f"#field-{field}").error
        assert shown == error if field == "move" else error in shown
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form
    assert row_dict(db_path, aid) == before


async def test_r3_4_turn_mode_not_monotonic_is_refused_on_its_tab(campaign):
    db_path, aid = campaign
    before = row_dict(db_path, aid)
    app = KaApp(db_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        form = await open_form(pilot, aid)
        await pilot.press("ctrl+t")
        await pilot.pause()
        await retype(pilot, "input-turn_mode", "1:2 4:1")
        assert "may not fall" in form.query_one("#field-turn_mode").error
        await retype(pilot, "input-turn_mode", "1:1 4:2 7:3 10:5")
        await pilot.press("ctrl+s")
        await settle(pilot)
    assert before["turn_mode"] != row_dict(db_path, aid)["turn_mode"]
    assert row_dict(db_path, aid)["turn_mode"] == "[[1, 1], [4, 2], [7, 3], [10, 5]]"


async def test_s0_traits_checklist_edit_is_written(campaign):
    db_path, aid = campaign
    app = KaApp(db_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        form = await open_form(pilot, aid)
        await pilot.press("ctrl+t", "ctrl+t")
        await pilot.pause()
        assert form.query_one(TabbedContent).active == "tab-traits"
        await pilot.press("space", "3")          # Accuracy on, 3 dice
        await pilot.press("down", "down", "down", "space")  # Critical off
        await pilot.press("down", "down", "space")          # Long range on
        await pilot.pause()
        assert form.query_one(TraitsField).value == (
            (Trait.ACCURACY, 3), (Trait.ROBUST, 1), (Trait.LONG_RANGE, None))
        await pilot.press("ctrl+s")
        await settle(pilot)
    with open_campaign(db_path) as db:
        assert roster.aircraft_profile(db, aid).traits == (
            (Trait.ACCURACY, 3), (Trait.ROBUST, 1), (Trait.LONG_RANGE, None))


async def test_s0_test_echelon_above_ceiling_is_refused(campaign):
    """S0 §Altitude explained: test boxes only up to the aircraft's top altitude."""
    db_path, aid = campaign
    before = row_dict(db_path, aid)
    app = KaApp(db_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        form = await open_form(pilot, aid)
        form.query_one(EchelonsField).focus_control()
        await pilot.press("right", "right", "right", "right", "right", "space")
        await pilot.pause()
        assert "at or below the ceiling" in form.query_one("#field-test_echelons").error
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form
    assert row_dict(db_path, aid) == before


async def test_status_tab_edits_live_fuel_and_refuses_more_than_the_tank(campaign):
    db_path, aid = campaign
    app = KaApp(db_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        form = await open_form(pilot, aid)
        for _ in range(3):
            await pilot.press("ctrl+t")
        await pilot.pause()
        await retype(pilot, "input-fuel_left", "25")
        assert form.query_one("#field-fuel_left").error == "must be 0..20" or \
            "cannot exceed" in form.query_one("#field-fuel_left").error
        await retype(pilot, "input-fuel_left", "7")
        await retype(pilot, "input-hull_hits", "1")
        await pilot.press("ctrl+s")
        await settle(pilot)
    row = row_dict(db_path, aid)
    assert (row["fuel_left"], row["hull_hits"]) == (7, 1)


async def test_add_from_library_template_copies_the_profile(campaign):
    db_path, _ = campaign
    app = KaApp(db_path)
    saved: list[int | None] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        open_aircraft_form(app.screen, None, saved.append)
        await settle(pilot)
        form = app.screen
        assert isinstance(form, AircraftForm)
        form.query_one("#field-template").focus_control()
        await pilot.press("right", "right", "right")  # Tempest, Spitfire, Bf 109
        await pilot.pause()
        assert form.query_one("#input-name", Input).value == BF109.name
        await pilot.press("ctrl+s")
        await settle(pilot)
    assert saved and saved[0] is not None
    with open_campaign(db_path) as db:
        assert roster.aircraft_profile(db, saved[0]) == BF109
        assert roster.get_aircraft(db, saved[0]).fuel_left == BF109.fuel


async def test_template_of_a_taken_name_gets_a_free_one(campaign):
    db_path, _ = campaign
    app = KaApp(db_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        open_aircraft_form(app.screen, None, lambda _: None)
        await settle(pilot)
        form = app.screen
        form.query_one("#field-template").focus_control()
        await pilot.press("right")  # the Tempest, already in the campaign
        await pilot.pause()
        assert form.query_one("#input-name", Input).value == f"{TEMPEST.name} (2)"


async def test_start_from_a_library_profile_keeps_the_name_typed(campaign):
    """The GM names the aircraft first, then starts it from the Bf 109: the
    profile fills the card, the name he typed stays, and is saved."""
    db_path, _ = campaign
    app = KaApp(db_path)
    saved: list[int | None] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        open_aircraft_form(app.screen, None, saved.append)
        await settle(pilot)
        form = app.screen
        assert isinstance(form, AircraftForm)
        await retype(pilot, "input-name", "Yellow 4")
        form.query_one("#field-template").focus_control()
        await pilot.press("right", "right", "right")  # Tempest, Spitfire, Bf 109
        await pilot.pause()
        assert form.query_one("#input-name", Input).value == "Yellow 4"
        assert form.query_one("#input-move", Input).value == str(BF109.move)
        await pilot.press("ctrl+s")
        await settle(pilot)
    assert saved and saved[0] is not None
    with open_campaign(db_path) as db:
        assert roster.aircraft_profile(db, saved[0]) == replace(BF109, name="Yellow 4")


async def test_roster_e_and_a_on_the_aircraft_tab_open_this_form(campaign):
    """The ONE aircraft form: the roster's edit and add both land here."""
    db_path, _ = campaign
    app = KaApp(db_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("t")  # Aircraft tab
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert isinstance(app.screen, AircraftForm)
        assert app.screen.aircraft is not None
        assert app.screen.aircraft.profile.name in (TEMPEST.name, LANCASTER.name)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, AircraftForm) and app.screen.aircraft is None
