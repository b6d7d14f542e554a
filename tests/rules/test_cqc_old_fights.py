"""Fights already in a campaign replay as they were played when a default
changes (S0 §Close combat; the fight log of ``rules/cqc/log.py``).

A fight's start event records every house rule it is played under
(``HouseRules.to_dict``): a fight started while ``cqc.attack_hits`` defaulted
to 1, 2, 3 holds 1, 2, 3 and keeps it; options a log predates are read as the
engine played then (``CQC_LEGACY``): one d12 on Agility for the order of
combat, 1, 2, 3 hits per Attack.
"""

from __future__ import annotations

from typing import Any

from ka_tui.rules.core.options import CQC_LEGACY, AgilityTest, HouseRules, recorded_rules
from ka_tui.rules.cqc import CqcCard, Fight, Fighter
from ka_tui.rules.cqc.log import progress_of

ANN = Fighter.new("ann", "Ann", strength=2, agility=5, cc_number=5, cc_pool=(10, 10))
BOB = Fighter.new("bob", "Bob", strength=2, agility=5, cc_number=5, cc_pool=(10, 10))
START = Fight.start([ANN, BOB], [("ann", "bob")])
ROUND = [8, 8, 2, 2]   # S0 §4: Ann's 2d10 pass, Bob's fail: Ann wins


def fight_log(rules: dict[str, Any], order: list[list[int]]) -> list[tuple[str, dict[str, Any]]]:
    """Started under ``rules``, the order, and a round of Ann's Deliberate Attack."""
    cards = [CqcCard.build("ann", "bob", attack="d"), CqcCard.build("bob", "ann", feint="b")]
    return [("fight_started", {"fight": START.to_dict(), "rules": rules,
                               "characters": {"ann": 1, "bob": 2}, "weapon_rows": {}}),
            ("initiative", {"faces": order}),
            *(("card_entered", {"round": 1, "owner": c.owner, "cards": [c.to_dict()]})
              for c in cards),
            ("cards_revealed", {"round": 1}),
            ("dice_rolled", {"round": 1, "faces": [[10, f] for f in ROUND]}),
            ("round_resolved", {"round": 1})]


def old_default_rules() -> dict[str, Any]:
    """What a fight recorded before this change: every option of the time,
    ``attack_hits`` at its old default 1, 2, 3, no ``agility_test``."""
    data = HouseRules().with_changes("cqc", attack_hits=(1, 2, 3)).to_dict()
    del data["cqc"]["agility_test"]
    return data


def test_s0_2_2_a_fight_recorded_with_the_old_default_keeps_two_hits_a_deliberate() -> None:
    p = progress_of(1, "old", fight_log(old_default_rules(), [[12, 9], [12, 3]]))
    assert p.rules.cqc.attack_hits == (1, 2, 3)
    assert p.rules.cqc.agility_test is AgilityTest.CHARACTERISTIC   # one d12 each
    assert p.fight.fighter("bob").ap == 6 - 2 * 2                    # two hits of Strength 2


def test_s0_2_2_a_fight_started_now_lands_a_deliberate_attack_once() -> None:
    rules = HouseRules().to_dict()
    p = progress_of(1, "new", fight_log(rules, [[8, 8], [8, 1], [8, 2], [8, 2]]))
    assert p.rules.cqc.attack_hits == (1, 1, 1)
    assert p.rules.cqc.agility_test is AgilityTest.ACTIVE              # 2d8 each
    assert p.fight.fighter("bob").ap == 6 - 2                          # S0 §2.2: once


def test_a_log_that_predates_the_options_reads_them_as_played_then() -> None:
    bare = HouseRules().to_dict()
    for key in ("attack_hits", "agility_test"):
        del bare["cqc"][key]
    p = progress_of(1, "older", fight_log(bare, [[12, 9], [12, 3]]))
    assert p.rules.cqc.attack_hits == (1, 2, 3) and p.fight.fighter("bob").ap == 2
    assert recorded_rules(bare).cqc.agility_test is AgilityTest.CHARACTERISTIC
    assert {"attack_hits", "agility_test"} <= set(CQC_LEGACY)
    # a value the log recorded always wins over the legacy reading
    assert recorded_rules(HouseRules().to_dict()).cqc.attack_hits == (1, 1, 1)
