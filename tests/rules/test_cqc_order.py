"""The order of combat after round 1 (S0 §Close combat 1 and 6).

S0 §Close combat lists the parts of close combat as steps 1-6: "1. Determine
order of combat by passing Combat Initiative test, if not available take
Active Agility test" ... "6. Resolve damage, and determine next step". When a
new round rolls the order again is house rule ``cqc.initiative_reroll``
(once / every_round / gm_asks). The fight's log replays: a log recorded
before the option existed is read as played then (the order rolled once).

The replay and its checks are the rules' fight log (``rules/cqc/log.py``:
``progress_of``, ``accept``; pure, no database).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from ka_tui.rules.cqc import CqcCard, Fight, Fighter, initiative_order, reroll_order, resolve_round
from ka_tui.rules.core.options import (
    CQC_LEGACY, AgilityTest, HouseRules, InitiativeReroll, recorded_rules,
)
from ka_tui.rules.cqc.log import (
    FightEventKind, FightLogError, RefusalReason, accept, card_order, progress_of, undo_from,
)


def fighter(fid: str, **kw: Any) -> Fighter:
    f = Fighter.new(fid, fid.title(), strength=2, agility=5, cc_number=5, cc_pool=(10, 10))
    return replace(f, **kw)


START = Fight.start([fighter("ann"), fighter("bob")], [("ann", "bob")])
ANN_FIRST = [9, 3]   # S0 §1 Agility d12 @5 against 13: 9 passes, 3 fails (D12 below)
BOB_FIRST = [3, 9]
ROUND = [8, 8, 2, 2]  # S0 §4: Ann's 2d10 pass, Bob's fail


# The order of combat on one d12 against Agility (house rule cqc.agility_test
# = characteristic), as a log from before that option is read (CQC_LEGACY).
D12 = HouseRules().with_changes("cqc", agility_test=AgilityTest.CHARACTERISTIC)


def rules(mode: InitiativeReroll) -> HouseRules:
    return D12.with_changes("cqc", initiative_reroll=mode)


def log(mode: InitiativeReroll | None, *rest: tuple[str, dict[str, Any]]
        ) -> list[tuple[str, dict[str, Any]]]:
    """A fight log: started (under ``mode``; None: a log from before the
    option, which lacks it), the order, one resolved round, then ``rest``."""
    recorded = HouseRules().to_dict() if mode is None else rules(mode).to_dict()
    if mode is None:
        for key in CQC_LEGACY:
            del recorded["cqc"][key]
    cards = [CqcCard.build("ann", "bob", feint="b"), CqcCard.build("bob", "ann", defence="b")]
    head = {"fight": START.to_dict(), "rules": recorded,
            "characters": {"ann": 1, "bob": 2}, "weapon_rows": {}}
    return [("fight_started", head),
            ("initiative", {"faces": [[12, f] for f in ANN_FIRST]}),
            *(("card_entered", {"round": 1, "owner": c.owner, "cards": [c.to_dict()]})
              for c in cards),
            ("cards_revealed", {"round": 1}),
            ("dice_rolled", {"round": 1, "faces": [[10, f] for f in ROUND]}),
            ("round_resolved", {"round": 1}),
            *rest]


def reorder(faces: list[int], round_no: int = 2) -> tuple[str, dict[str, Any]]:
    return ("order_rerolled", {"round": round_no, "faces": [[12, f] for f in faces]})


def test_s0_close_combat_1_the_default_is_rolled_at_the_start_and_when_the_gm_asks() -> None:
    """S0 §Close combat 1 and 6: the default a GM expects -- the order of
    step 1 stands until he re-rolls it (gm_asks)."""
    assert HouseRules().cqc.initiative_reroll is InitiativeReroll.GM_ASKS
    p = progress_of(1, "f", log(InitiativeReroll.GM_ASKS))
    assert p.step == 6 and not p.needs_order and p.fight.order == ("ann", "bob")


def test_s0_close_combat_1_every_round_opens_the_next_round_with_the_order() -> None:
    """S0 §Close combat 1 ... 6 "determine next step" under every_round:
    round 2 starts with step 1; once it is rolled, the new order holds."""
    p = progress_of(1, "f", log(InitiativeReroll.EVERY_ROUND))
    assert p.step == 6 and p.needs_order and p.fight.round == 2
    p = progress_of(1, "f", log(InitiativeReroll.EVERY_ROUND, reorder(BOB_FIRST)))
    assert not p.needs_order and p.step == 2 and p.order_round == 2
    assert p.fight.order == ("bob", "ann") and card_order(p.fight) == ("bob", "ann")
    assert p.initiative is not None and "round 2" in p.initiative.lines[0]
    assert "initiative_reroll=every_round" in p.initiative.lines[0]


@pytest.mark.parametrize("mode", [InitiativeReroll.GM_ASKS, InitiativeReroll.ONCE])
def test_s0_close_combat_1_once_and_gm_asks_never_ask_by_themselves(mode: InitiativeReroll
                                                                      ) -> None:
    """S0 §Close combat 1: under once and gm_asks round 2 goes on to the cards."""
    assert not progress_of(1, "f", log(mode)).needs_order


def test_s0_close_combat_1_a_reroll_uses_the_step_1_test() -> None:
    """S0 §Close combat 1: Combat Initiative, or Agility without it; those
    already out of every pairing roll nothing and come last."""
    three = Fight.start([fighter("ann"), fighter("bob", ci_pool=(10,), ci_number=6),
                         fighter("cid")], [("ann", "bob"), ("ann", "cid")])
    three = replace(three, pairings=(three.pairings[0], replace(three.pairings[1],
                                                                ended="Cid disengaged")))
    res = reroll_order(three.with_order(("cid", "ann", "bob")), [4, 9], D12)
    assert [r.skill for r in res.rolls] == ["Agility", "Combat Initiative"]
    assert res.order == ("bob", "ann", "cid")  # 9 + 6 passes; 4 + 5 fails
    assert reroll_order(three.with_order(("cid", "ann", "bob")),
                        [f for _, f in res.faces], D12) == res


def test_s0_close_combat_1_the_order_changes_who_reveals_first_in_round_2() -> None:
    """S0 §Close combat 3: cards are revealed in the order of combat, so the
    re-rolled order of round 2 sets the report's order."""
    p = progress_of(1, "f", log(InitiativeReroll.EVERY_ROUND, reorder(BOB_FIRST)))
    cards = [CqcCard.build("ann", "bob", attack="b"), CqcCard.build("bob", "ann", attack="b")]
    _, report = resolve_round(p.fight, cards, ROUND, p.rules)
    assert report.pairings[0].fates[0].unit.owner == "bob"


def test_s0_close_combat_1_undo_drops_the_reroll_with_its_round() -> None:
    """The re-roll is the first event of round 2: undo takes it (and any
    round-2 card) away, back to the order of round 1."""
    events = log(InitiativeReroll.GM_ASKS, reorder(BOB_FIRST),
                 ("card_entered", {"round": 2, "owner": "bob", "cards": []}))
    seqs = [(i + 1, kind, data) for i, (kind, data) in enumerate(events)]
    first = undo_from(seqs)
    assert first is not None and events[first - 1][0] == "order_rerolled"
    back = progress_of(1, "f", events[:first - 1])
    assert back.fight.order == ("ann", "bob") and back.step == 6


def test_s0_close_combat_1_an_old_log_replays_as_played() -> None:
    """A log recorded before the option (its rules lack it) reads as the
    order rolled once, whatever today's default, and replays unchanged."""
    old = log(None)
    assert "initiative_reroll" not in old[0][1]["rules"]["cqc"]
    p = progress_of(1, "f", old)
    assert p.rules.cqc.initiative_reroll is InitiativeReroll.ONCE
    assert not p.needs_order and p.step == 6
    played = resolve_round(START.with_order(initiative_order(START.fighters, ANN_FIRST,
                                                             D12).order),
                           [CqcCard.build("ann", "bob", feint="b"),
                            CqcCard.build("bob", "ann", defence="b")], ROUND)[0]
    assert p.fight == played
    assert recorded_rules(rules(InitiativeReroll.EVERY_ROUND).to_dict()).cqc.initiative_reroll \
        is InitiativeReroll.EVERY_ROUND  # a recorded value always wins


def test_a_reroll_that_does_not_replay_is_reported() -> None:
    """A damaged re-roll event gives a FightLogError, never a wrong order."""
    with pytest.raises(FightLogError, match="round 2"):
        progress_of(1, "f", log(InitiativeReroll.EVERY_ROUND, reorder([9])))


def test_s0_close_combat_1_accept_takes_one_reroll_at_the_start_of_a_later_round() -> None:
    """S0 §Close combat 1 and 6, house rule cqc.initiative_reroll: the log
    takes a re-roll where the screen offers it -- the start of round 2 or
    later, before any card -- and only once a round; never under once."""
    gm = progress_of(1, "f", log(InitiativeReroll.GM_ASKS))
    payload = reorder(BOB_FIRST)[1]
    assert accept(gm, FightEventKind.REORDER, payload) is None
    # under once: refused, and the replay refuses such a log too
    once = progress_of(1, "f", log(InitiativeReroll.ONCE))
    refusal = accept(once, FightEventKind.REORDER, payload)
    assert refusal is not None and refusal.reason is RefusalReason.NO_REORDER
    assert "once" in refusal.message
    with pytest.raises(FightLogError, match="once"):
        progress_of(1, "f", log(InitiativeReroll.ONCE, reorder(BOB_FIRST)))
    # a second one for the same round
    again = progress_of(1, "f", log(InitiativeReroll.GM_ASKS, reorder(BOB_FIRST)))
    refusal = accept(again, FightEventKind.REORDER, payload)
    assert refusal is not None and refusal.reason is RefusalReason.ORDER_ALREADY_IN
    # after a card of the round
    carded = progress_of(1, "f", log(InitiativeReroll.EVERY_ROUND, (
        "card_entered", {"round": 2, "owner": "bob", "cards": []})))
    refusal = accept(carded, FightEventKind.REORDER, payload)
    assert refusal is not None and refusal.reason is RefusalReason.OUT_OF_STEP
    # round 1 keeps the order just rolled; another round's number is refused
    first = progress_of(1, "f", log(InitiativeReroll.GM_ASKS)[:2])
    refusal = accept(first, FightEventKind.REORDER, reorder(BOB_FIRST, 1)[1])
    assert refusal is not None and refusal.reason is RefusalReason.WRONG_ROUND
    refusal = accept(gm, FightEventKind.REORDER, reorder(BOB_FIRST, 3)[1])
    assert refusal is not None and refusal.reason is RefusalReason.WRONG_ROUND
