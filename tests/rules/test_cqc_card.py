"""The CQC card, S0 §Close combat step 2: actions, grades, AP budget, reasons."""

from __future__ import annotations

import json

import pytest

from ka_tui.rules.cqc.card import (
    ActionKind, CardLine, CqcCard, Grade, card_budget, card_cost, validate_card,
    validate_split,
)
from ka_tui.rules.core.options import CqcOptions


def test_s0_2_card_holds_the_six_actions_in_card_order() -> None:
    """S0 §2: Attack, Defence, Feint, Disarm, Evade and Control."""
    assert [k.label for k in ActionKind] == [
        "Attack", "Defence", "Feint", "Disarm", "Evade", "Control"]


def test_s0_2_basic_costs_1_deliberate_3() -> None:
    card = CqcCard.build("ann", "bob", attack="2b 1d", defence="b")
    assert card_cost(card, 6) == 2 * 1 + 3 + 1


def test_s0_2_special_costs_all_ap() -> None:
    card = CqcCard.build("ann", "bob", attack="s")
    assert card_cost(card, 6) == 6
    assert card_cost(card, 9) == 9


def test_s0_2_unspent_ap_is_shown_as_left_and_lost() -> None:
    b = card_budget(CqcCard.build("ann", "bob", feint="b"), 6)
    assert (b.spent, b.left, b.over) == (1, 5, 0)
    assert "lost if unspent" in b.render()


def test_s0_2_card_spending_more_than_the_pool_is_invalid_with_reason() -> None:
    card = CqcCard.build("ann", "bob", attack="2d", defence="b")
    errors = validate_card(card, 6)
    assert len(errors) == 1
    assert "spends 7 AP but the pool holds 6" in errors[0].message
    assert card_budget(card, 6).over == 1


def test_s0_2_card_spending_exactly_the_pool_is_valid() -> None:
    assert validate_card(CqcCard.build("ann", "bob", attack="2d"), 6) == ()


def test_s0_2_special_must_stand_alone_on_the_card() -> None:
    errors = validate_card(CqcCard.build("ann", "bob", attack="s", defence="b"), 6)
    assert any("only action on the card" in e.message for e in errors)


def test_s0_2_two_specials_are_refused() -> None:
    errors = validate_card(CqcCard.build("ann", "bob", attack="2s"), 6)
    assert any("only one Special" in e.message for e in errors)


def test_house_rule_special_min_ap_refuses_a_special_from_an_empty_pool() -> None:
    card = CqcCard.build("ann", "bob", attack="s")
    assert validate_card(card, 0)
    assert validate_card(card, 1) == ()
    assert validate_card(card, 2, CqcOptions(special_min_ap=3))


def test_rules_notes_b_empty_card_is_valid_from_zero_ap() -> None:
    assert validate_card(CqcCard("ann", "bob"), 0) == ()


def test_weapon_must_be_in_quick_slots_and_used_by_an_attack() -> None:
    card = CqcCard.build("ann", "bob", attack="b", weapon="rifle")
    assert validate_card(card, 6, weapons=["knife"])[0].field == "weapon"
    assert validate_card(card, 6, weapons=["rifle"]) == ()
    no_attack = CqcCard.build("ann", "bob", defence="b", weapon="rifle")
    assert validate_card(no_attack, 6, weapons=["rifle"])


def test_s0_2_2_disengage_needs_an_evade() -> None:
    card = CqcCard.build("ann", "bob", attack="b", disengage=True)
    assert validate_card(card, 6)[0].field == "disengage"


def test_build_rejects_unknown_actions_and_grades() -> None:
    with pytest.raises(ValueError, match="not a CQC action"):
        CqcCard.build("ann", "bob", kick="b")
    with pytest.raises(ValueError, match="like 2b"):
        CqcCard.build("ann", "bob", attack="2x")


def test_build_merges_lines_per_kind_and_grade() -> None:
    card = CqcCard.build("ann", "bob", attack="b 2b d")
    assert card.lines == (CardLine(ActionKind.ATTACK, Grade.BASIC, 3),
                          CardLine(ActionKind.ATTACK, Grade.DELIBERATE, 1))
    assert card.render() == "3x Basic Attack, Deliberate Attack"


def test_card_round_trips_through_json() -> None:
    card = CqcCard.build("ann", "bob", attack="2b", evade="d", weapon="knife",
                         disengage=True)
    assert CqcCard.from_dict(json.loads(json.dumps(card.to_dict()))) == card


def test_split_cards_share_one_pool() -> None:
    """House rule multi_opponent=split: cards against two opponents share the pool."""
    a = CqcCard.build("ann", "bob", attack="d")
    b = CqcCard.build("ann", "cid", defence="d", feint="b")
    assert card_budget([a, b], 6).over == 1
    assert "spend 7 AP together" in validate_split([a, b], 6)[0].message
    assert validate_split([a, b], 7) == ()


def test_split_special_leaves_the_other_cards_empty() -> None:
    a = CqcCard.build("ann", "bob", attack="s")
    assert validate_split([a, CqcCard("ann", "cid")], 6) == ()
    assert validate_split([a, CqcCard.build("ann", "cid", defence="b")], 6)
