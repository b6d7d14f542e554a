"""A close-combat fight's log replayed and checked by the rules
(``rules/cqc/log.py``; DESIGN.md "Fights and battles as a log of events";
S0 §Close combat steps 1-6): pure, no database. Moved here from
tests/store/test_fights.py with the code, plus ``accept``.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ka_tui.rules.core.dice import RandomDice
from ka_tui.rules.core.options import HouseRules
from ka_tui.rules.cqc import (
    CqcCard, Fight, Fighter, Weapon, initiative_order, resolve_round, validate_round_cards,
)
from ka_tui.rules.cqc.log import (
    FightEventKind, FightLogError, FightStep, RefusalReason, accept, card_order, progress_of,
    replay, replay_prefix, undo_from,
)


def test_a_log_that_does_not_replay_is_reported() -> None:
    """A damaged log gives a FightLogError, never a wrong state."""
    with pytest.raises(FightLogError):
        progress_of(1, "x", [("initiative", {"faces": []})])


def test_undo_from_is_pure_and_stops_at_the_end() -> None:
    events = [(1, "fight_started", {}), (2, "initiative", {}),
              (3, "card_entered", {"round": 1}), (4, "fight_ended", {})]
    assert undo_from(events[:3]) == 3
    assert undo_from(events[:2]) == 2
    assert undo_from(events[:1]) is None
    assert undo_from(events) is None


# ------------------------------------------------------- replay invariants

_GRADES = st.sampled_from(["", "1b", "2b", "1d", "1b 1d", "s"])


def _fighters() -> list[Fighter]:
    return [Fighter.new("a", "Ann", strength=3, agility=5, cc_number=5, cc_pool=(10, 10),
                        k_points=6, weapons=[Weapon("Knife", 2)]),
            Fighter.new("b", "Bob", strength=4, agility=4, cc_number=4, cc_pool=(12,),
                        ap_max=5, k_points=5, weapons=[Weapon("Pistol", 3, True)])]


def _build(seed: int, plans: list[Any]) -> tuple[list[tuple[str, dict[str, Any]]], Fight]:
    """A fight played straight through the engine, and its log."""
    start = Fight.start(_fighters(), [("a", "b")])
    head = {"fight": start.to_dict(), "rules": HouseRules().to_dict(),
            "characters": {"a": 1, "b": 2}, "weapon_rows": {"a": [[1, "Knife"]],
                                                            "b": [[2, "Pistol"]]}}
    rules = HouseRules()
    dice = RandomDice(seed)
    init = initiative_order(start.fighters, dice, rules)
    events: list[tuple[str, dict[str, Any]]] = [
        ("fight_started", head),
        ("initiative", {"faces": [list(f) for f in init.faces]})]
    fight = start.with_order(init.order)
    for attack, defence, evade, armed in plans:
        if fight.over:
            break
        n = fight.round
        cards = []
        for fid in card_order(fight):
            opp = fight.opponents_of(fid)[0]
            me = fight.fighter(fid)
            kw = {k: v for k, v in (("attack", attack), ("defence", defence),
                                    ("evade", evade)) if v}
            weapon = me.weapons[0].name if armed and attack and me.weapons else None
            card = CqcCard.build(fid, opp, weapon=weapon, **kw)
            if validate_round_cards(fight, [card], rules.cqc):  # e.g. over his pool
                card = CqcCard(fid, opp)
            cards.append(card)
            events.append(("card_entered", {"round": n, "owner": fid, "cards": [card.to_dict()]}))
        events.append(("cards_revealed", {"round": n}))
        after, report = resolve_round(fight, cards, dice, rules)
        events.append(("dice_rolled", {"round": n, "faces": [list(f) for f in report.faces]}))
        events.append(("round_resolved", {"round": n}))
        fight = after
    return events, fight


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), plans=st.lists(
    st.tuples(_GRADES, _GRADES, _GRADES, st.booleans()), min_size=1, max_size=5))
def test_replayed_log_equals_the_engine_played_directly(seed: int, plans: list[Any]) -> None:
    """DESIGN.md: any prefix of a fight's log replays; the full log gives the
    same state as playing the rounds straight through the engine; undo
    (``undo_from``) always lands on the start of a round."""
    events, fight = _build(seed, plans)
    for k in range(1, len(events) + 1):
        p = progress_of(1, "t", events[:k])
        assert 1 <= p.step <= 6
    final = progress_of(1, "t", events)
    assert final.fight == fight and final.step == 6
    seqs = [(i + 1, kind, data) for i, (kind, data) in enumerate(events)]
    first = undo_from(seqs)
    assert first is not None and events[first - 1][0] == "card_entered"
    undone = progress_of(1, "t", events[:first - 1])
    assert undone.step in (2, 6) and undone.fight.round == fight.round - 1


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), plans=st.lists(
    st.tuples(_GRADES, _GRADES, _GRADES, st.booleans()), min_size=1, max_size=3),
    data=st.data())
def test_s0_any_step_taken_twice_is_refused_and_named(seed: int, plans: list[Any],
                                                      data: st.DataObject) -> None:
    """S0 §Close combat 1-6: a step written twice (two windows on the
    same state) is never replayed: the replay names the copy's position,
    ``replay_prefix`` stops just before it, and ``accept`` gives the reason."""
    events, _ = _build(seed, plans)
    i = data.draw(st.integers(0, len(events) - 1))
    damaged = events[:i + 1] + [events[i]] + events[i + 1:]
    with pytest.raises(FightLogError) as err:
        replay(damaged)
    assert err.value.index == i + 1 and err.value.kind == events[i][0]
    good, error = replay_prefix(damaged)
    assert error is not None and good == replay(events[:i + 1])
    assert accept(good, *events[i]) is not None


def _played_to_reveal() -> tuple[list[tuple[str, dict[str, Any]]], Any]:
    events, _ = _build(5, [("1b", "", "", False)])
    at = next(i for i, (k, _) in enumerate(events) if k == "cards_revealed")
    return events, replay(events[:at + 1])


def test_s0_2_a_card_after_the_reveal_is_refused() -> None:
    events, p = _played_to_reveal()
    assert p.step == FightStep.ROLL
    card = next(e for e in events if e[0] == "card_entered")
    refusal = accept(p, *card)
    assert refusal is not None and refusal.reason is RefusalReason.OUT_OF_STEP
    assert "already revealed" in refusal.message


def test_s0_4_6_dice_and_resolution_follow_their_order() -> None:
    """A round resolved before its dice, or dice for another round, are refused."""
    events, p = _played_to_reveal()
    resolved = next(e for e in events if e[0] == "round_resolved")
    refusal = accept(p, *resolved)
    assert refusal is not None and refusal.reason is RefusalReason.OUT_OF_STEP
    dice = next(e for e in events if e[0] == "dice_rolled")
    wrong = (dice[0], {**dice[1], "round": 2})
    refusal = accept(p, *wrong)
    assert refusal is not None and refusal.reason is RefusalReason.WRONG_ROUND
    assert accept(p, *dice) is None


def test_a_log_starts_once_and_kinds_are_known() -> None:
    events, _ = _build(1, [("1b", "", "", False)])
    p = replay(events[:2])
    assert accept(None, *events[0]) is None
    assert accept(p, *events[0]).reason is RefusalReason.ALREADY_STARTED  # type: ignore[union-attr]
    assert accept(p, "round", {}).reason is RefusalReason.UNKNOWN_KIND  # type: ignore[union-attr]
    assert accept(None, *events[1]).reason is RefusalReason.NOT_STARTED  # type: ignore[union-attr]
    assert [k.value for k in FightEventKind] == [
        "fight_started", "initiative", "order_rerolled", "card_entered", "card_changed",
        "cards_revealed",
        "dice_rolled", "round_resolved", "fight_ended"]
