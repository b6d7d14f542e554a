"""No key is lost in close combat, however fast it is typed: each script is
played slowly (settled after every key) and at full speed (all its keys in
one burst) on copies of the demo campaign, and both must leave the same
fight log, roster and screen (``key_scripts.py``).

- a burst right after the order of combat (S0 §Close combat 1-3): two cards
  and the reveal typed while the first card is being saved;
- two whole rounds at the table (S0 §Close combat 1-6): the order of combat
  and every round's dice typed from the table's faces, a card each, the
  damage, the next round and the end of the fight written to the roster.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot

from ka_tui.screens.combat.screen import CombatScreen
from tests.ui.combat_pilot import INIT, make_app, mike_vs, new_fight, open_combat
from tests.ui.key_scripts import KeyScript, same_at_any_speed, typed

FIGHT_TABLES = (
    "SELECT fight_id, seq, kind, payload FROM fight_event ORDER BY fight_id, seq",
    "SELECT id, name, status FROM fight ORDER BY id",
    "SELECT id, name, k_points, ap FROM character ORDER BY id",
    "SELECT id, character_id, name, quick_slot FROM weapon ORDER BY id",
)


def combat_idle(app: App[Any]) -> bool:
    """Nothing left to do: no save on its way, no key waiting for one."""
    screen = app.screen
    return not isinstance(screen, CombatScreen) or screen.runner.settled


async def mike_and_jeanne_after_the_order(pilot: Pilot[Any]) -> None:
    await mike_vs(pilot, "Jeanne Moreau")


async def mike_and_jeanne(pilot: Pilot[Any]) -> None:
    await open_combat(pilot)
    await new_fight(pilot, ("Mike Dunn", "Jeanne Moreau"))


def fight_script(name: str, keys: tuple[str, ...], prepare: Any,
                 faces: list[int] | None = None) -> KeyScript:
    return KeyScript(name, keys, lambda db: make_app(db, faces), prepare, FIGHT_TABLES,
                     idle=combat_idle)


async def test_cards_and_the_reveal_typed_during_a_save_take_effect_in_order(
        demo_db: Path, tmp_path: Path) -> None:
    """S0 §Close combat 2-3: Mike's card (Deliberate Attack, Basic Disarm)
    handed in, Jeanne's (Basic Feint) and ``v`` typed while it is saved:
    both cards are in, in the order of combat, and the cards are revealed."""
    script = fight_script("cards-burst", ("a", "D", "s", "b", "enter", "f", "b", "enter", "v"),
                          mike_and_jeanne_after_the_order, INIT)
    slow = await same_at_any_speed(script, demo_db, tmp_path)
    log = slow.tables[FIGHT_TABLES[0]]
    assert [kind for _, _, kind, _ in log] == ["fight_started", "initiative", "card_entered",
                                               "card_entered", "cards_revealed"]
    assert "Cards revealed" in slow.screen and "Basic Feint" in slow.screen


# S0 §1 typed: Mike's 4d12 Combat Initiative (10s: 4 successes), Jeanne's
# Active Agility test 2d8 (house rule cqc.agility_test).
# Round 1, S0 §4 typed: Mike's 3d12+1d20 (8s) beat Jeanne's 2d10 (2s).
# Round 2: Mike's critical fail (a 1), Jeanne's 4 4 4 5 5: she wins, disengages.
TWO_ROUNDS = (
    *typed("10 10 10 10 2 2"), "enter",           # step 1, the table's faces
    "f", "b", "enter", "d", "b", "enter",         # Mike: Basic Feint; Jeanne: Basic Defence
    "v", *typed("8 8 8 8 2 2"), "enter",          # reveal, the round's faces
    "enter", "enter",                             # the damage; round 2
    "a", "b", "enter", "e", "D", "g", "enter",    # Mike: Attack; Jeanne: Evade, disengage
    "v", *typed("1 4 4 4 5 5"), "enter",
    "enter", "enter",                             # the damage; the fight ends (roster)
)


async def test_two_rounds_with_table_dice_typed_at_full_speed(demo_db: Path,
                                                             tmp_path: Path) -> None:
    """S0 §Close combat 1-6, twice, every die from the table: the same log,
    the same outcome on the roster, the same last screen."""
    script = fight_script("two-rounds", TWO_ROUNDS, mike_and_jeanne)
    slow = await same_at_any_speed(script, demo_db, tmp_path)
    kinds = [kind for _, _, kind, _ in slow.tables[FIGHT_TABLES[0]]]
    assert kinds == (["fight_started", "initiative"]
                     + ["card_entered", "card_entered", "cards_revealed", "dice_rolled",
                        "round_resolved"] * 2 + ["fight_ended"])
    assert slow.tables[FIGHT_TABLES[1]][-1][2] == "ended"
    assert "The fight has ended" in slow.screen


async def just_open(pilot: Pilot[Any]) -> None:
    await open_combat(pilot)


# the new-fight list is in name order, Arthur Hale highlighted first:
# five down is Mike Dunn, two up from there Jeanne Moreau
NEW_FIGHT_UNDO_REDO = (
    "n", *["down"] * 5, "enter", "up", "up", "enter", "ctrl+s",   # Mike vs Jeanne
    "r", "a", "b", "enter", "d", "b", "enter", "v", "r", "enter",  # round 1 to step 6
    "u", "y",                                                      # undo it (asked first)
    "y",                                                           # and redo it
)


async def test_a_new_fight_undo_and_redo_typed_in_one_go(demo_db: Path, tmp_path: Path) -> None:
    """The keys of the new-fight dialog, the undo question and the fight
    itself in one burst: each dialog takes its keys once it is up, and the
    fight's keys wait for each save (S0 §Close combat 1-6)."""
    script = fight_script("new-fight-undo-redo", NEW_FIGHT_UNDO_REDO, just_open,
                          INIT + [8, 8, 8, 8, 2, 2])
    slow = await same_at_any_speed(script, demo_db, tmp_path)
    kinds = [kind for _, _, kind, _ in slow.tables[FIGHT_TABLES[0]]]
    assert kinds == ["fight_started", "initiative", "card_entered", "card_entered",
                     "cards_revealed", "dice_rolled", "round_resolved"]
    assert slow.tables[FIGHT_TABLES[1]] == [(1, "Mike Dunn vs Jeanne Moreau", "open")]
    assert "Press enter for round 2." in slow.screen
