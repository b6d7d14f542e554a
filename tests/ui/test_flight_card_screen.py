"""The flight-card screen through the real app: opened from the roster,
live status from the database (R-1.4), stepping between aircraft, the profile
library's copy into the campaign, and profile export / import files."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from textual.widgets import Input

from ka_tui.app import KaApp
from ka_tui.rules.air.profiles import LANCASTER, METEOR, SPITFIRE, TEMPEST
from ka_tui.screens.aircraft.card_screen import FlightCardScreen
from ka_tui.screens.aircraft.library import (
    CopyNameDialog,
    ProfileFileDialog,
    ProfileLibraryScreen,
)
from ka_tui.store import roster
from ka_tui.store.db import open_campaign
from ka_tui.store.profiles_io import read_profiles
from ka_tui.widgets.flight_card import FlightCard
from tests.ui.pilot_helpers import settle


@pytest.fixture
def campaign(db_path: Path) -> tuple[Path, int, int]:
    """A damaged Tempest with a wounded pilot and a crewman out cold, and a Lancaster."""
    with open_campaign(db_path) as db:
        tempest = roster.add_aircraft(db, TEMPEST, hull_hits=2, fuel_left=9, ammo_left=3,
                                      overheat=2,
                                      damage=json.dumps({"effects": {"engine": 1},
                                                         "hits": {"engine": 1,
                                                                  "left_wing": 1}}))
        lanc = roster.add_aircraft(db, LANCASTER)
        ann = roster.add_character(db, name="Ann Jones", role="pilot", wounds=2)
        bob = roster.add_character(db, name="Bob Hale", role="crew", wounds=4,
                                   conscious=False)
        roster.assign_pilot(db, tempest.id, ann.id)
    # A campaign from before seats came from the profile: a crewman
    # on a single-seat fighter, which the store now refuses; the card still shows him.
    con = sqlite3.connect(db_path)
    with con:
        con.execute("INSERT INTO aircraft_crew (aircraft_id, character_id) VALUES (?, ?)",
                    (tempest.id, bob.id))
    con.close()
    return db_path, tempest.id, lanc.id


async def until(pilot, condition, tries: int = 40) -> None:
    """Settle until ``condition()`` holds: a worker may start another on finishing."""
    for _ in range(tries):
        await settle(pilot)
        if condition():
            return
    assert condition()


def _card(app) -> FlightCard:
    return app.screen.query_one(FlightCard)


async def test_r1_4_card_shows_live_status_from_the_database(campaign):
    db_path, tempest, _ = campaign
    app = KaApp(db_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(FlightCardScreen(tempest))
        await settle(pilot)
        card = _card(app)
        assert card.profile == TEMPEST
        s = card.status
        assert (s.damage.hull_hits, s.fuel_left, s.ammo_left, s.overheat) == (2, 9, 3, 2)
        assert s.damage.locations == (("engine", 1),)
        assert s.pilot is not None and (s.pilot.name, s.pilot.wounds) == ("Ann Jones", 2)
        assert [(c.name, c.conscious) for c in s.crew] == [("Bob Hale", False)]


def test_snapshot_damaged_card_from_the_database_80x24(snap_compare, campaign):
    db_path, tempest, _ = campaign

    async def open_card(pilot) -> None:
        await settle(pilot)
        pilot.app.push_screen(FlightCardScreen(tempest))
        await settle(pilot)

    assert snap_compare(KaApp(db_path), terminal_size=(80, 24), run_before=open_card)


async def test_roster_f_opens_the_card_and_n_steps_to_the_next(campaign):
    db_path, tempest, lanc = campaign
    app = KaApp(db_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("t")  # roster: the Aircraft tab
        await settle(pilot)
        await pilot.press("f")
        await settle(pilot)
        assert isinstance(app.screen, FlightCardScreen)
        first = app.screen.aircraft_id
        assert first in (tempest, lanc)
        await pilot.press("n")
        other = ({tempest, lanc} - {first}).pop()
        names = {tempest: TEMPEST.name, lanc: LANCASTER.name}
        await until(pilot, lambda: _card(app).profile.name == names[other])
        assert app.screen.aircraft_id == other
        await pilot.press("p")
        await until(pilot, lambda: _card(app).profile.name == names[first])
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, FlightCardScreen)


async def test_library_copies_a_profile_into_the_campaign(campaign):
    db_path, tempest, _ = campaign
    app = KaApp(db_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(FlightCardScreen(tempest))
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        assert isinstance(app.screen, ProfileLibraryScreen)
        await pilot.press("down")  # Spitfire
        await until(pilot, lambda: _card(app).profile == SPITFIRE)  # the preview follows
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CopyNameDialog))
        await pilot.press("enter")  # the name offered (a free one)
        await until(pilot, lambda: isinstance(app.screen, FlightCardScreen)
                    and _card(app).profile == SPITFIRE)
        new_id = app.screen.aircraft_id
    with open_campaign(db_path) as db:
        assert roster.aircraft_profile(db, new_id) == SPITFIRE
        assert len(roster.list_aircraft(db)) == 3


async def test_export_then_import_a_profile_file(campaign, tmp_path: Path):
    db_path, _, lanc = campaign
    target = tmp_path / "out" / "lanc.json"
    app = KaApp(db_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(FlightCardScreen(lanc))
        await settle(pilot)
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ProfileFileDialog)
        app.screen.query_one("#input-path", Input).value = str(target)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, FlightCardScreen))
        assert read_profiles(target) == [LANCASTER]

        # exporting again to the same file is refused beside the path field
        await pilot.press("x")
        await pilot.pause()
        app.screen.query_one("#input-path", Input).value = str(target)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ProfileFileDialog)
        assert "already exists" in app.screen.query_one("#field-path").error
        await pilot.press("escape")
        await pilot.pause()

        await pilot.press("i")
        await pilot.pause()
        app.screen.query_one("#input-path", Input).value = str(target)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, FlightCardScreen)
                    and _card(app).profile.name == f"{LANCASTER.name} (2)")
    with open_campaign(db_path) as db:
        assert len(roster.list_aircraft(db)) == 3


async def test_import_of_a_bad_file_shows_why_and_adds_nothing(campaign, tmp_path: Path):
    db_path, tempest, _ = campaign
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "ka-tui aircraft profiles", "version": 1, '
                   '"profiles": [{"name": "X", "move": 99}]}')
    app = KaApp(db_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(FlightCardScreen(tempest))
        await settle(pilot)
        await pilot.press("i")
        await pilot.pause()
        app.screen.query_one("#input-path", Input).value = str(bad)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ProfileFileDialog)
        assert "profile 1 (X): move" in app.screen.query_one("#field-path").error
    with open_campaign(db_path) as db:
        assert len(roster.list_aircraft(db)) == 2


async def test_card_actions_are_in_the_command_palette(campaign):
    """Export / import are reachable from the palette."""
    from ka_tui.host import binding_commands

    db_path, tempest, _ = campaign
    app = KaApp(db_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(FlightCardScreen(tempest))
        await settle(pilot)
        titles = {c.title for c in binding_commands(app.screen)}
        assert {"Export profile", "Import profiles", "Library", "Edit"} <= titles


def test_meteor_turbine_card_says_no_stall():
    """R-3.2: turbines do not stall at speed 0."""
    from ka_tui.widgets.flight_card import hex_block

    assert "no stall" in hex_block(METEOR).plain
    assert "stalls at 0" in hex_block(TEMPEST).plain
