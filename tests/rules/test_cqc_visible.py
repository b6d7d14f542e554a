"""What a player may see of a fight, and his card changed until the reveal
(S0 §Close combat 2-3: each fills in his CQC card in secret, then
all are revealed at once)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ka_tui.rules.core.dice import RandomDice
from ka_tui.rules.core.options import HouseRules
from ka_tui.rules.cqc import CqcCard, Fight, Fighter, initiative_order
from ka_tui.rules.cqc.log import (
    FightStep,
    RefusalReason,
    accept,
    card_order,
    cards_in_text,
    replay,
    undo_from,
    visible_to,
)

IDS = ("a", "b", "c", "d")


def _fighters() -> list[Fighter]:
    names = {"a": "Ann Lee", "b": "Bob Ray", "c": "Cy Dee", "d": "Di Fox"}
    return [Fighter.new(i, names[i], strength=3, agility=3 + n, cc_number=5, cc_pool=(10, 10),
                        ap_max=6, resistance=3, armour=0, k_points=10)
            for n, i in enumerate(IDS)]


def _start() -> tuple[list[tuple[str, dict[str, Any]]], Fight]:
    start = Fight.start(_fighters(), [("a", "b"), ("c", "d")])
    head = {"fight": start.to_dict(), "rules": HouseRules().to_dict(),
            "characters": {i: n for n, i in enumerate(IDS, 1)}, "weapon_rows": {}}
    init = initiative_order(start.fighters, RandomDice(5), HouseRules())
    events = [("fight_started", head), ("initiative", {"faces": [list(f) for f in init.faces]})]
    return events, start.with_order(init.order)


def _card(fight: Fight, fid: str, attack: str = "2b", defence: str = "4b") -> dict[str, Any]:
    opp = fight.opponents_of(fid)[0]
    card = CqcCard.build(fid, opp, attack=attack, defence=defence)
    return {"round": 1, "owner": fid, "cards": [card.to_dict()]}


def test_s0_cqc_2_another_sides_card_is_not_in_the_players_view() -> None:
    events, fight = _start()
    events += [("card_entered", _card(fight, "b", "1d", "3b")), ("card_entered", _card(fight, "a"))]
    p = replay(events)
    mine = visible_to(p, ["a"])
    assert set(mine.cards) == {"a"}          # his own card, as he sent it
    assert mine.hidden == ("b",)
    assert set(mine.sent) == {"a", "b"}      # he sees that b's card is in …
    assert "b" not in mine.cards             # … never what is on it
    assert set(mine.to_enter) == {"c", "d"}
    assert mine.step == p.step == FightStep.PLAN
    text = cards_in_text(mine)
    assert text.startswith("2 of 4 cards in") and "waiting for" in text


def test_s0_cqc_3_after_the_reveal_everyone_sees_every_card() -> None:
    events, fight = _start()
    for fid in card_order(fight):
        events.append(("card_entered", _card(fight, fid)))
    events.append(("cards_revealed", {"round": 1}))
    p = replay(events)
    assert visible_to(p, ["a"]).cards == p.cards and visible_to(p, ["a"]).hidden == ()


def test_s0_2_3_a_sent_card_changes_until_the_reveal_and_undo_drops_it() -> None:
    events, fight = _start()
    events.append(("card_entered", _card(fight, "a")))
    p = replay(events)
    change = ("card_changed", _card(fight, "a", "6b", ""))
    assert accept(p, *change) is None
    q = replay([*events, change])
    assert q.cards["a"] == (CqcCard.from_dict(change[1]["cards"][0]),)  # replaced
    assert q.cards["a"] != p.cards["a"] and len(q.cards) == 1
    # a change of a card never sent is refused
    refusal = accept(p, "card_changed", _card(fight, "c"))
    assert refusal is not None and refusal.reason is RefusalReason.NO_CARD_YET
    # after the reveal: no change
    for fid in card_order(fight):
        if fid != "a":
            events.append(("card_entered", _card(fight, fid)))
    events.append(("cards_revealed", {"round": 1}))
    refusal = accept(replay(events), *change)
    assert refusal is not None and refusal.reason is RefusalReason.OUT_OF_STEP
    seqs = [(i + 1, k, p) for i, (k, p) in enumerate([*events[:3], change])]
    assert undo_from(seqs) == 3  # the round's events go together, the change too


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(IDS), unique=True), st.sets(st.sampled_from(IDS)))
def test_s0_2_3_the_projection_never_holds_a_card_not_his_before_the_reveal(
        senders: list[str], own: set[str]) -> None:
    """Whoever has sent, a viewer's projection holds only his own cards; every
    sent card is either shown (his) or named hidden (another's)."""
    events, fight = _start()
    for fid in senders:
        events.append(("card_entered", _card(fight, fid)))
    p = replay(events)
    view = visible_to(p, own)
    assert set(view.cards) <= own
    assert set(view.cards) | set(view.hidden) == set(senders)
    assert not set(view.hidden) & own
    assert set(view.to_enter) == set(card_order(fight)) - set(senders)
