"""The CQC card on the close-combat screen, through the real app, a real
campaign file and Pilot (80x24): no digit reaches a hidden card (the app's
keys rule holds: a digit switches mode), and each fighter's next card starts
with the Attack weapon of his last one unless it was taken (S0 §2.2 Disarm:
a taken weapon is gone from his quick slots)."""

from __future__ import annotations

from pathlib import Path

from ka_tui.widgets.cqc_card import CqcCardEditor
from tests.ui.combat_pilot import (
    INIT, ROUND1, SIZE, footer_keys, keys, kinds, make_app, mike_vs,
)


async def test_a_digit_on_the_card_switches_mode_and_adds_nothing(demo_db: Path) -> None:
    """On main ``1`` added a Basic action to the hidden card; now it goes to
    the roster (the app's keys rule) and the card is as it was."""
    app = make_app(demo_db, INIT)
    async with app.run_test(size=SIZE) as pilot:
        screen = await mike_vs(pilot, "Olga Petrova")
        editor = screen.query_one(CqcCardEditor)
        await keys(pilot, "a")
        assert editor.has_focus and editor.card.lines == ()
        await keys(pilot, "1")
        assert pilot.app.current_mode == "roster"
        await keys(pilot, "3")
        assert pilot.app.screen is screen
        assert editor.card.lines == () and editor.budget_text() == "spent 0 / 8, left 8"
        await keys(pilot, "2")
        assert pilot.app.current_mode == "roller"
        await keys(pilot, "f3")                     # F3 from anywhere (the roller's field)
        assert pilot.app.screen is screen and editor.has_focus
        await keys(pilot, "b", "plus", "D")         # the card's own keys: Basic x2, Deliberate
        assert editor.card.render() == "2x Basic Attack, Deliberate Attack"
        await keys(pilot, "delete")
        assert editor.card.lines == ()
        assert {"cqc_card.basic", "cqc_card.deliberate", "cqc_card.special"} <= \
            footer_keys(screen)
    assert kinds(demo_db) == ["fight_started", "initiative"]


async def test_each_fighter_keeps_his_weapon_unless_it_was_taken(demo_db: Path) -> None:
    """Round 1: Mike attacks with the Sten gun and his Disarm takes Olga's TT
    pistol (S0 §2.2 Disarm). Round 2: Mike's card starts with the Sten gun;
    Olga's with no weapon (hers is gone), not with a pistol she lost."""
    app = make_app(demo_db, INIT + ROUND1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await mike_vs(pilot, "Olga Petrova")
        editor = screen.query_one(CqcCardEditor)
        await keys(pilot, "a", "D", "s", "b", "w", "enter")
        await keys(pilot, "w", "f", "b")
        assert editor.card.weapon is None                  # no Attack: no weapon on it
        await keys(pilot, "a", "b")
        assert editor.card.weapon == "TT pistol"
        await keys(pilot, "enter", "v", "r", "enter", "enter")
        assert screen.view_step == 2 and "round 2" in screen.sub_title
        assert editor.fighter.name == "Mike Dunn" and editor.weapon_choice == "Sten gun"
        await keys(pilot, "a", "b")
        assert editor.card.weapon == "Sten gun"
        await keys(pilot, "enter")
        assert editor.fighter.name == "Olga Petrova" and editor.weapon_choice is None
        assert "unarmed" in str(editor.render())
