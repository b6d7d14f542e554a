"""Snapshots of the air-battle screen at 80x24: setup with a refusal,
a move with its path preview and the checks' odds (R-9), shooting with the
target's odds (RULES-NOTES D), the reach overlay (R-3.1, R-3.4), the end-phase
report (R-1.4), the map's legend and the figure menu with each figure's cost
(R-9); and at 60x20, the side column below the map and folded away. Faces come from the test's queue (default 6), so they are
deterministic; the battle is the one of test_air_battle.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import OptionList

from tests.ui.pilot_helpers import SIZE, settle, steady_cursors, wait_for
from tests.ui.test_air_battle import (
    blue_flies_straight,
    BEAU, SPIT, TEMP, end_demo_battle, goto, make_app, open_air, seed_battle, select,
)


def snap(db: Path, snap_compare: Any, play: Any, size: tuple[int, int] = SIZE) -> bool:
    app, dice = make_app(db)

    async def run_before(pilot: Pilot[Any]) -> None:
        await play(pilot, dice)
        steady_cursors(pilot.app)
        pilot.app.clear_notifications()
        await settle(pilot)

    return bool(snap_compare(app, terminal_size=size, run_before=run_before))


async def _started(pilot: Pilot[Any], dice: Any) -> Any:
    screen = await open_air(pilot)
    await wait_for(pilot, lambda: screen.runner is not None)
    dice.queue = [6, 6, 1, 1]
    await pilot.press("g")
    await settle(pilot)
    return screen


def test_setup_with_sides_and_a_refusal(demo_db: Path, snap_compare: Any) -> None:
    async def play(pilot: Pilot[Any], dice: Any) -> None:
        await end_demo_battle(pilot, await open_air(pilot))
        await pilot.press("n")
        await settle(pilot)
        options = pilot.app.screen.query_one(OptionList)
        await pilot.press("m")
        for i, key in ((0, "2"), (1, "2"), (4, "1"), (5, "1"), (2, "1")):
            options.highlighted = i
            await pilot.press(key)

    assert snap(demo_db, snap_compare, play)


def test_the_demo_battle_opens_on_a_live_map(demo_db: Path, snap_compare: Any) -> None:
    """ka-tui --demo, then 4: the demo's battle in progress, Blue to move (R-1.2)."""
    async def play(pilot: Pilot[Any], dice: Any) -> None:
        screen = await open_air(pilot)
        await wait_for(pilot, lambda: screen.runner is not None)

    assert snap(demo_db, snap_compare, play)


def test_the_demo_battle_at_60x20_with_the_side_column_below(demo_db: Path,
                                                              snap_compare: Any) -> None:
    async def play(pilot: Pilot[Any], dice: Any) -> None:
        screen = await open_air(pilot)
        await wait_for(pilot, lambda: screen.runner is not None)
        await pilot.press("d", "f", "f")

    assert snap(demo_db, snap_compare, play, (60, 20))


def test_the_demo_battle_at_60x20_with_the_side_column_folded(demo_db: Path,
                                                               snap_compare: Any) -> None:
    async def play(pilot: Pilot[Any], dice: Any) -> None:
        screen = await open_air(pilot)
        await wait_for(pilot, lambda: screen.runner is not None)
        await pilot.press("b")

    assert snap(demo_db, snap_compare, play, (60, 20))


def test_the_map_legend(demo_db: Path, snap_compare: Any) -> None:
    async def play(pilot: Pilot[Any], dice: Any) -> None:
        screen = await open_air(pilot)
        await wait_for(pilot, lambda: screen.runner is not None)
        await pilot.press("i")
        await settle(pilot)

    assert snap(demo_db, snap_compare, play)


def test_r9_figure_menu_with_cost_difficulty_and_g(demo_db: Path, snap_compare: Any) -> None:
    """The Tempest at level 3 (ceiling 4): the Immelmann greyed with its reason."""
    async def play(pilot: Pilot[Any], dice: Any) -> None:
        screen = await open_air(pilot)
        await wait_for(pilot, lambda: screen.runner is not None)
        await pilot.press("m")
        await settle(pilot)

    assert snap(demo_db, snap_compare, play)


def test_r9_move_with_path_preview_and_odds(demo_db: Path, snap_compare: Any) -> None:
    """The Beaufighter's half-roll then two hexes: path on the map, the check
    with its target-number breakdown and exact odds, nothing rolled."""
    seed_battle(demo_db)

    async def play(pilot: Pilot[Any], dice: Any) -> None:
        await _started(pilot, dice)
        await select(pilot, BEAU)
        await pilot.press("m")
        await settle(pilot)
        figures = pilot.app.screen.query_one(OptionList)
        figures.highlighted = 4
        await pilot.press("enter", "f", "f", "f")

    assert snap(demo_db, snap_compare, play)


def test_r3_reach_overlay(demo_db: Path, snap_compare: Any) -> None:
    seed_battle(demo_db)

    async def play(pilot: Pilot[Any], dice: Any) -> None:
        await _started(pilot, dice)
        await select(pilot, BEAU)
        await pilot.press("v")

    assert snap(demo_db, snap_compare, play)


async def _blue_shooting(pilot: Pilot[Any], dice: Any) -> Any:
    screen = await _started(pilot, dice)
    for uid in (BEAU, "Il-2 KA-D"):
        await select(pilot, uid)
        await pilot.press("space", "g")
        await settle(pilot)
    await pilot.press("g")
    await settle(pilot)
    await pilot.press("x")
    await settle(pilot)
    await blue_flies_straight(pilot)
    return screen


def test_shooting_with_odds(demo_db: Path, snap_compare: Any) -> None:
    """RULES-NOTES D: the Tempest's targets marked; the cursor on the
    Beaufighter shows the to-hit number and the odds of hit, critical, kill."""
    seed_battle(demo_db)

    async def play(pilot: Pilot[Any], dice: Any) -> None:
        screen = await _blue_shooting(pilot, dice)
        await select(pilot, TEMP)
        await goto(pilot, *screen.runner.unit(BEAU).hex.to_offset())

    assert snap(demo_db, snap_compare, play)


def test_r1_4_end_phase_report(demo_db: Path, snap_compare: Any) -> None:
    seed_battle(demo_db)

    async def play(pilot: Pilot[Any], dice: Any) -> None:
        await _blue_shooting(pilot, dice)
        await pilot.press("x")
        await settle(pilot)
        dice.default = 3
        await pilot.press("g")
        await settle(pilot)
        await pilot.press("g")

    assert snap(demo_db, snap_compare, play)


def test_shot_result_with_dice_and_damage_by_location(demo_db: Path,
                                                     snap_compare: Any) -> None:
    """RULES-NOTES D: the to-hit roll, Firepower and Evasion dice, the critical
    and where the hits land, shown after g."""
    seed_battle(demo_db)

    async def play(pilot: Pilot[Any], dice: Any) -> None:
        screen = await _blue_shooting(pilot, dice)
        await select(pilot, TEMP)
        await goto(pilot, *screen.runner.unit(BEAU).hex.to_offset())
        dice.queue = [6, 6, 6, 1, 1, 1, 1]
        dice.default = 3
        await pilot.press("g")

    assert snap(demo_db, snap_compare, play)
