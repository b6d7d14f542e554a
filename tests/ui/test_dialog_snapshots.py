"""Snapshots at 80x24 of the issue-2 dialogs the roster and app snapshots left out:
the new-campaign form (campaign picker, n), the JSON export and import dialogs
(command palette), the pilot/crew seats (roster Aircraft tab, p; R-5 airmen,
S0 §Flight card crew) and the aircraft form opened for editing, free of errors
(S0 §Flight card fields). Each run_before waits for its screen by polling, then
checks what the screen holds so a snapshot cannot silently show something else."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot
from textual.widgets import Input

from ka_tui.app import KaApp
from ka_tui.screens.aircraft.form import AircraftForm
from ka_tui.screens.campaign_picker import CampaignPickerScreen
from ka_tui.screens.new_campaign import NewCampaignForm
from ka_tui.screens.roster.crew import CrewScreen
from ka_tui.screens.roster.screen import RosterScreen
from ka_tui.screens.transfer_dialogs import ExportScreen, ImportScreen
from ka_tui.widgets.fast_table import FastTable
from tests.ui.pilot_helpers import SIZE, settle, steady_cursors, wait_for


async def steady(pilot: Pilot[None]) -> None:
    await settle(pilot)
    pilot.app.clear_notifications()
    steady_cursors(pilot.app)
    await pilot.pause()


async def roster_ready(pilot: Pilot[None]) -> RosterScreen:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, RosterScreen)
                   and pilot.app.screen.loaded)
    screen = pilot.app.screen
    assert isinstance(screen, RosterScreen)
    return screen


async def aircraft_tab(pilot: Pilot[None]) -> RosterScreen:
    screen = await roster_ready(pilot)
    await pilot.press("t")
    await wait_for(pilot, lambda: screen.active_tab == "aircraft"
                   and screen.query_one("#aircraft-table", FastTable).row_count > 0)
    return screen


async def from_palette(pilot: Pilot[None], title: str) -> None:
    """Run a command by typing its title in the command palette (ctrl+p)."""
    await roster_ready(pilot)
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, CommandPalette))
    await pilot.press(*title)

    def first_is_title() -> bool:
        commands = pilot.app.screen.query_one(CommandList)
        return (commands.option_count > 0 and commands.highlighted == 0
                and title in str(commands.get_option_at_index(0).prompt))
    await wait_for(pilot, first_is_title)
    await pilot.press("enter")


def field(pilot: Pilot[None], key: str) -> str:
    return pilot.app.screen.query_one(f"#input-{key}", Input).value


async def new_campaign_form(pilot: Pilot[None]) -> None:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, CampaignPickerScreen))
    await settle(pilot)
    await pilot.press("n")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, NewCampaignForm))
    await pilot.press(*"Winter Ops")
    await wait_for(pilot, lambda: field(pilot, "name") == "Winter Ops")
    await steady(pilot)


def test_snapshot_new_campaign_form(snap_compare: Any) -> None:
    assert snap_compare(KaApp(None, campaigns=[]), terminal_size=SIZE,
                        run_before=new_campaign_form)


async def export_dialog(pilot: Pilot[None]) -> None:
    await from_palette(pilot, "Export campaign to JSON")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ExportScreen))
    assert field(pilot, "file") == "/demo.json"  # cwd / <campaign file stem>.json
    await steady(pilot)


def test_snapshot_export_dialog(snap_compare: Any, demo_db: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir("/")  # the suggested file is in the working folder: pin it
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=export_dialog)


async def import_dialog(pilot: Pilot[None]) -> None:
    await from_palette(pilot, "Import campaign from JSON")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ImportScreen))
    assert field(pilot, "file") == "" and field(pilot, "target") == ""
    await steady(pilot)


def test_snapshot_import_dialog(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=import_dialog)


async def crew_seats(pilot: Pilot[None]) -> None:
    roster = await aircraft_tab(pilot)
    aircraft = roster.current_row()
    assert aircraft is not None
    await pilot.press("p")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, CrewScreen))
    screen = pilot.app.screen
    assert isinstance(screen, CrewScreen)
    assert screen.aircraft["id"] == aircraft["id"]
    assert screen.query_one(FastTable).row_count == len(roster.tables["characters"].rows)
    await steady(pilot)


def test_snapshot_crew_seats(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=crew_seats)


async def aircraft_form_edit(pilot: Pilot[None]) -> None:
    await aircraft_tab(pilot)
    await pilot.press("e")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, AircraftForm))
    await settle(pilot)
    form = pilot.app.screen
    assert isinstance(form, AircraftForm)
    assert form.query_one("#input-name", Input).value == "Beaufighter KA-C"
    _, errors = form.values()
    assert errors == {}
    assert not form.query(".-invalid")  # no field marked in error
    await steady(pilot)


def test_snapshot_aircraft_form_edit_without_errors(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=aircraft_form_edit)
