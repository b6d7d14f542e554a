"""Dice-free preview of a pairing under each S0 §4 outcome (RULES-NOTES B)."""

from __future__ import annotations

import json

from ka_tui.rules.cqc import CqcCard, Fight, Fighter, Weapon, resolve_round
from ka_tui.rules.cqc.preview import preview_pairing

ANN = Fighter.new("ann", "Ann", strength=2, agility=5, cc_number=5, cc_pool=(10, 10),
                  weapons=(Weapon("knife", 3),))
BOB = Fighter.new("bob", "Bob", strength=3, agility=4, cc_number=5, cc_pool=(10, 10), armour=2)
FIGHT = Fight.start([ANN, BOB], [("ann", "bob")])
CARDS = (CqcCard.build("ann", "bob", attack="2b", defence="b", feint="b", weapon="knife"),
         CqcCard.build("bob", "ann", attack="d", defence="b", evade="b"))


def test_preview_covers_every_way_the_round_can_end() -> None:
    scenarios = preview_pairing(FIGHT, CARDS, "ann", "bob")
    assert len(scenarios) == 7
    assert {s.standings.winner for s in scenarios} == {0, 1, None}
    json.dumps([s.to_dict() for s in scenarios])


def test_s0_2_1_preview_a_basic_defence_cannot_stop_a_deliberate_attack() -> None:
    """S0 §2.1: a Basic Defence cannot cancel Bob's Deliberate Attack, which
    lands once (S0 §2.2: Strength 3)."""
    s = preview_pairing(FIGHT, CARDS, "ann", "bob")[0]  # Ann wins, Bob passed
    assert s.summary.startswith("Ann -3 AP; 1 knife hit on Bob (saves)")


def test_preview_agrees_with_the_round_it_previews() -> None:
    """Ann wins, Bob passed: the round with those dice does what the preview said."""
    s = preview_pairing(FIGHT, CARDS, "ann", "bob")[0]
    _, rep = resolve_round(FIGHT, CARDS, [8, 9, 8, 3, 11])  # Bob's save 11 + 2 = 13
    assert rep.pairings[0].fates == tuple(
        sorted(s.resolution.fates, key=lambda f: f.unit.owner != "ann"))


def test_preview_of_empty_cards_says_nothing_happens() -> None:
    assert {s.summary for s in preview_pairing(FIGHT, (), "ann", "bob")} == {"nothing happens"}
