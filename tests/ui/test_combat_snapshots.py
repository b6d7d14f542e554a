"""Snapshots of the close-combat screen at 80x24: card entry with
the live budget and an invalid card (S0 §2), masked cards (S0 §3), the
reveal with exact odds (S0 §4) and the round report and damage (S0 §5-6).
Scripted dice keep them deterministic (faces as in combat_pilot.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.ui.combat_pilot import INIT, MIKE_WINS, SIZE, keys, make_app, mike_vs


def snap(demo_db: Path, snap_compare: Any, faces: list[int], *presses: str) -> bool:
    async def run_before(pilot: Pilot[Any]) -> None:
        await mike_vs(pilot, "Olga Petrova")
        await keys(pilot, *presses)
        pilot.app.clear_notifications()
        await pilot.pause()

    return bool(snap_compare(make_app(demo_db, faces), terminal_size=SIZE,
                             run_before=run_before))


def test_s0_2_card_entry_with_budget_and_an_invalid_card(demo_db: Path,
                                                         snap_compare: Any) -> None:
    """Mike (8 AP): a Deliberate Attack with the Sten gun, three Basic
    Defences and a Deliberate Evade: 9 AP, one over -- the reason is on screen."""
    assert snap(demo_db, snap_compare, INIT, "a", "D", "w", "d", "b", "b", "b", "e", "D")


def test_s0_3_cards_masked_until_the_reveal(demo_db: Path, snap_compare: Any) -> None:
    assert snap(demo_db, snap_compare, INIT, "a", "D", "w", "s", "b", "enter",
                "f", "b", "enter")


def test_s0_4_reveal_with_odds(demo_db: Path, snap_compare: Any) -> None:
    assert snap(demo_db, snap_compare, INIT, "a", "D", "w", "s", "b", "enter",
                "f", "b", "enter", "v")


def test_s0_5_round_report(demo_db: Path, snap_compare: Any) -> None:
    assert snap(demo_db, snap_compare, INIT + MIKE_WINS + [2, 12], "a", "D", "w", "s", "b",
                "enter", "f", "b", "enter", "v", "r")


def test_s0_6_damage_and_next_step(demo_db: Path, snap_compare: Any) -> None:
    assert snap(demo_db, snap_compare, INIT + MIKE_WINS + [2, 12], "a", "D", "w", "s", "b",
                "enter", "f", "b", "enter", "v", "r", "enter")
