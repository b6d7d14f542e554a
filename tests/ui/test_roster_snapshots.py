"""Snapshots of the roster at 80x24 on the deterministic demo campaign:
the character table with its detail pane (S0 §Skills pools), the aircraft tab
with its summary (S0 §Flight card), the filter, the delete confirmation, help."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ka_tui.app import KaApp
from tests.ui.pilot_helpers import SIZE, settle, steady_cursors


def prepared(*keys: str) -> Any:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        pilot.app.clear_notifications()
        steady_cursors(pilot.app)
        await pilot.pause()
    return run_before


def test_snapshot_roster_characters(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=prepared())


def test_snapshot_roster_second_character_detail(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=prepared("down", "down"))


def test_snapshot_roster_aircraft(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=prepared("t"))


def test_snapshot_roster_filtered(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE,
                        run_before=prepared("slash", "a", "r"))


def test_snapshot_delete_confirmation(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=prepared("d"))


def test_snapshot_help(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=prepared("question_mark"))


# The layout where the window size is the point.

def test_snapshot_roster_60x20_detail_under_the_table(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=(60, 20), run_before=prepared())


def test_snapshot_roster_160x50_wide_table_and_detail(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=(160, 50), run_before=prepared())


def test_snapshot_roster_aircraft_160x50(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=(160, 50), run_before=prepared("t"))
