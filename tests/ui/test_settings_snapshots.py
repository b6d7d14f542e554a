"""Snapshots of the house-rule settings screen and its option form (80x24)."""

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


def test_snapshot_settings(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=prepared("s"))


def test_snapshot_settings_changed_and_option_form(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE,
                        run_before=prepared("s", "space", "down", "e"))
