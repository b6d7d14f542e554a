"""Snapshots of the character form and its sub-forms at 80x24, including
validation errors beside the field (S0 §Skills, RULES-NOTES A upgrades, R-5 wounds)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Input

from ka_tui.app import KaApp
from tests.ui.pilot_helpers import SIZE, settle, steady_cursors


def prepared(*keys: str, values: dict[str, str] | None = None) -> Any:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        for selector, text in (values or {}).items():
            pilot.app.screen.query_one(selector, Input).value = text
            await pilot.pause()
        pilot.app.clear_notifications()
        steady_cursors(pilot.app)
        await pilot.pause()
    return run_before


def test_snapshot_edit_character(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=prepared("e"))


def test_snapshot_new_character_with_errors(snap_compare: Any, demo_db: Path) -> None:
    """An empty name, wounds past 6 (R-5) and K-points above the maximum."""
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=prepared(
        "a", values={"#input-wounds": "7", "#input-k_points": "12"}))


def test_snapshot_new_character_save_refused(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=prepared(
        "a", "ctrl+s"))


def test_snapshot_character_skills_tab(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=prepared("e", "ctrl+t"))


def test_snapshot_character_weapons_tab(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE,
                        run_before=prepared("e", "ctrl+t", "ctrl+t"))


def test_snapshot_skill_form_upgrade_error(snap_compare: Any, demo_db: Path) -> None:
    """RULES-NOTES A: a Basic skill allows at most 1 upgrade."""
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=prepared(
        "e", "ctrl+t", "a", values={"#input-name": "Knots", "#input-upgrades": "2"}))


def test_snapshot_weapon_form(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=prepared(
        "e", "ctrl+t", "ctrl+t", "a"))
