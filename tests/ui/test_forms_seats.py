"""Seats from the profile, deleting a character seated or in an open fight,
and a name asked when a library profile is copied.

Seats: a seed gap (neither S0 §Flight card nor R-3…R-10 counts them); the house
default in ``store.field_checks.CREW_SEATS`` gives crew seats by the profile's
class. Real SQLite file (the demo campaign), the real app under Pilot."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Static

from ka_tui.app import KaApp
from ka_tui.screens.aircraft.library import CopyNameDialog, ProfileLibraryScreen
from ka_tui.screens.confirm import ConfirmScreen
from ka_tui.screens.roster.crew import CrewScreen
from ka_tui.screens.roster.screen import RosterScreen
from ka_tui.store import fights, roster
from ka_tui.store.db import open_campaign
from ka_tui.store.errors import ValidationError
from ka_tui.store.field_checks import crew_error, crew_seats
from ka_tui.widgets.fast_table import FastTable
from tests.ui.pilot_helpers import SIZE, rows, settle, wait_for


def _id(db_path: Path, table: str, name: str) -> int:
    return int(rows(db_path, f"SELECT id FROM {table} WHERE name = ?", name)[0][0])


# ----------------------------------------------------------------- seats


def test_seats_come_from_the_profile_class() -> None:
    assert crew_seats("fighter") == 0
    assert crew_seats("heavy_fighter") == 1
    assert crew_error("Tempest", "fighter", 0) is None
    assert "single-seat fighter" in (crew_error("Tempest", "fighter", 1) or "")
    assert "full" in (crew_error("Beaufighter", "heavy_fighter", 2) or "")


def test_the_store_refuses_crew_on_a_single_seat_fighter_and_a_full_aircraft(
        demo_db: Path) -> None:
    tempest = _id(demo_db, "aircraft", "Tempest KA-A")
    beau = _id(demo_db, "aircraft", "Beaufighter KA-C")
    okoro = _id(demo_db, "character", "Sam Okoro")
    baker = _id(demo_db, "character", "Eddie Baker")
    with open_campaign(demo_db) as db:
        with pytest.raises(ValidationError) as single:
            roster.set_crew(db, tempest, [baker], move=True)
        assert single.value.field == "crew" and "single-seat" in single.value.message
        with pytest.raises(ValidationError) as full:
            roster.set_crew(db, beau, [okoro, baker], move=True)
        assert "full" in full.value.message
    assert rows(demo_db, "SELECT character_id FROM aircraft_crew WHERE aircraft_id = ?",
                tempest) == []


async def _aircraft_row(pilot, screen: RosterScreen, name: str) -> None:
    await pilot.press("t")
    await settle(pilot)
    table = screen.query_one("#aircraft-table", FastTable)
    names = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
    table.move_cursor(row=next(i for i, n in enumerate(names) if n.startswith(name)))
    await pilot.pause()


async def test_crew_screen_refuses_crew_on_a_fighter_with_the_reason(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RosterScreen)
        await _aircraft_row(pilot, screen, "Tempest")
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, CrewScreen))
        crew = app.screen
        assert isinstance(crew, CrewScreen)
        table = crew.query_one(FastTable)
        table.move_cursor(row=table.get_row_index(str(_id(demo_db, "character",
                                                           "Eddie Baker"))))
        await pilot.press("space")
        await pilot.pause()
        assert crew.crew == []
        status = str(crew.query_one(".form-status", Static).render())
        assert "single-seat fighter" in status


# ------------------------------------------------------- delete warnings


def test_delete_warns_of_the_seat_and_the_store_refuses_during_a_fight(
        demo_db: Path) -> None:
    hale = _id(demo_db, "character", "Arthur Hale")
    dunn = _id(demo_db, "character", "Mike Dunn")
    with open_campaign(demo_db) as db:
        assert roster.delete_warnings(db, hale) == ["pilot of Tempest KA-A: the seat is freed"]
        fights.start_fight(db, [(hale, dunn)], name="Bar brawl")
        warnings = roster.delete_warnings(db, hale)
        assert any('open fight "Bar brawl"' in w for w in warnings)
        with pytest.raises(ValidationError) as refused:
            roster.delete_character(db, hale)
        assert refused.value.field == "fight"
    assert rows(demo_db, "SELECT name FROM character WHERE id = ?", hale) == [("Arthur Hale",)]


async def test_delete_prompt_names_the_seat_and_the_open_fight(demo_db: Path) -> None:
    hale = _id(demo_db, "character", "Arthur Hale")
    dunn = _id(demo_db, "character", "Mike Dunn")
    with open_campaign(demo_db) as db:
        fights.start_fight(db, [(hale, dunn)], name="Bar brawl")
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RosterScreen)
        table = screen.query_one("#characters-table", FastTable)
        names = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        table.move_cursor(row=names.index("Arthur Hale"))
        await pilot.pause()
        await pilot.press("d")
        await settle(pilot)
        confirm = app.screen
        assert isinstance(confirm, ConfirmScreen)
        assert "pilot of Tempest KA-A" in confirm.question
        assert 'open fight "Bar brawl"' in confirm.question
        await pilot.press("y")
        await settle(pilot)
    assert rows(demo_db, "SELECT name FROM character WHERE id = ?", hale) == [("Arthur Hale",)]


# ------------------------------------------------------ library copy name


async def test_copying_a_library_profile_asks_for_the_name(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, ProfileLibraryScreen))
        library = app.screen
        assert isinstance(library, ProfileLibraryScreen)
        profile = library.current
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, CopyNameDialog))
        dialog = app.screen
        assert isinstance(dialog, CopyNameDialog)
        name = dialog.query_one("#input-name", Input)
        assert name.value == dialog.suggested
        name.value = "Tempest KA-A"  # taken: refused at the field
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is dialog
        assert dialog.query_one("#field-name").error == "another aircraft has this name"
        name.value = "Red Leader"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RosterScreen))
    assert rows(demo_db, "SELECT aircraft_class FROM aircraft WHERE name = 'Red Leader'") == [
        (profile.aircraft_class.value,)]
