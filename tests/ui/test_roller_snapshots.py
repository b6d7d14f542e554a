"""Snapshots of the dice roller at 80x24: before a roll (pool, target
per die, exact odds and histogram, S0 §Skills) and after rolls typed from the
table's dice (each die, successes, crits, explanation; the log row). Typed
faces and a fixed clock in UTC keep them deterministic."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Select

from ka_tui.app import KaApp
from ka_tui.screens.roller.screen import RollerScreen
from tests.ui.pilot_helpers import settle

SIZE = (80, 24)
CLOCK = datetime(2026, 3, 1, 20, 15, tzinfo=timezone.utc)


@pytest.fixture(autouse=True)
def _utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def make_app(db: Path) -> KaApp:
    app = KaApp(db)
    app.roller_clock = lambda: CLOCK  # type: ignore[attr-defined]
    return app


async def open_roller(pilot: Pilot[Any]) -> RollerScreen:
    await settle(pilot)
    await pilot.press("2")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, RollerScreen)
    return screen


async def type_faces(pilot: Pilot[Any], screen: RollerScreen, faces: str) -> None:
    screen.query_one("#input-faces", Input).focus()
    await pilot.press(*faces, "enter")
    await settle(pilot)


def test_roller_before_a_roll_s0_skills(demo_db: Path, snap_compare: Any) -> None:
    """Arthur Hale's Fighter Piloting [L2]: 2d12+2d20 @7, needs 6+, the odds."""
    async def run_before(pilot: Pilot[Any]) -> None:
        await open_roller(pilot)

    assert snap_compare(make_app(demo_db), terminal_size=SIZE, run_before=run_before)


def test_roller_after_a_typed_roll_s0_skills(demo_db: Path, snap_compare: Any) -> None:
    """A 1 negated by a d20's 20 (S0 §Skills), in the result and the log."""
    async def run_before(pilot: Pilot[Any]) -> None:
        screen = await open_roller(pilot)
        await type_faces(pilot, screen, "1 5 20 12")

    assert snap_compare(make_app(demo_db), terminal_size=SIZE, run_before=run_before)


def test_roller_opposed_after_a_roll_s0_close_combat_4(demo_db: Path,
                                                       snap_compare: Any) -> None:
    """Arthur vs Mike Dunn's Close Combat [L1]: both Legendary (challenging
    table); Mike's 12 on a d12 is cancelled by Arthur's success on a d20."""
    async def run_before(pilot: Pilot[Any]) -> None:
        screen = await open_roller(pilot)
        mike = next(c.id for c in screen.data.characters if c.name == "Mike Dunn")
        screen.query_one("#select-versus", Select).value = mike
        await settle(pilot)
        await type_faces(pilot, screen, "9 2 2 16 12 5 12 1")

    assert snap_compare(make_app(demo_db), terminal_size=SIZE, run_before=run_before)
