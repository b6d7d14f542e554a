"""The negation order of S0 §Close combat 2.1, and its invariants."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ka_tui.rules.cqc.card import ActionKind, Grade
from ka_tui.rules.cqc.negation import (
    RULE_3B_D, RULE_B_B, RULE_D_3B, RULE_D_D, RULE_SPECIAL, ActionUnit, negate,
)

B, D, S = Grade.BASIC, Grade.DELIBERATE, Grade.SPECIAL


def units(owner: str, kind: ActionKind, *grades: Grade) -> list[ActionUnit]:
    seen: dict[Grade, int] = {}
    out = []
    for g in grades:
        seen[g] = seen.get(g, 0) + 1
        out.append(ActionUnit(owner, kind, g, seen[g]))
    return out


def defend(*grades: Grade) -> list[ActionUnit]:
    return units("w", ActionKind.DEFENCE, *grades)


def attack(*grades: Grade) -> list[ActionUnit]:
    return units("l", ActionKind.ATTACK, *grades)


def cancelled(cs: object) -> list[ActionUnit]:
    return [t for c in cs for t in c.cancelled]  # type: ignore[attr-defined]


def test_s0_2_1_special_beats_all_when_its_side_wins() -> None:
    cs = negate(defend(S), attack(D, D, B, S), cancellers_won=True)
    assert len(cancelled(cs)) == 4 and cs[0].rule == RULE_SPECIAL


def test_s0_2_1_special_does_not_beat_all_when_its_side_loses() -> None:
    """'... if you win': a losing Special counts as a Deliberate (house rule)."""
    cs = negate(defend(S), attack(D, D), cancellers_won=False)
    assert len(cancelled(cs)) == 1
    off = negate(defend(S), attack(B), cancellers_won=False,
                 losing_special_as_deliberate=False)
    assert off == ()


def test_s0_2_1_deliberate_cancels_one_deliberate() -> None:
    cs = negate(defend(D), attack(D, D), cancellers_won=True)
    assert len(cancelled(cs)) == 1 and cs[0].rule == RULE_D_D


def test_s0_2_1_deliberate_cancels_three_basic() -> None:
    cs = negate(defend(D), attack(B, B, B, B), cancellers_won=True)
    assert len(cancelled(cs)) == 3 and cs[0].rule == RULE_D_3B


def test_s0_2_1_basic_cancels_one_basic() -> None:
    cs = negate(defend(B), attack(B, B), cancellers_won=True)
    assert len(cancelled(cs)) == 1 and cs[0].rule == RULE_B_B


def test_s0_2_1_three_basic_are_required_to_cancel_one_deliberate() -> None:
    assert negate(defend(B, B), attack(D), cancellers_won=True) == ()
    cs = negate(defend(B, B, B), attack(D), cancellers_won=True)
    assert len(cs) == 1 and len(cs[0].by) == 3 and cs[0].rule == RULE_3B_D


def test_rules_notes_b_best_use_first() -> None:
    """A Deliberate facing a Deliberate and two Basics takes the Deliberate
    (worth more); spare Basics take the Basics."""
    cs = negate(defend(D, B, B), attack(D, B, B), cancellers_won=True)
    assert len(cancelled(cs)) == 3
    assert {c.rule for c in cs} == {RULE_D_D, RULE_B_B}


def test_winning_special_cannot_be_cancelled_by_the_loser() -> None:
    """S0 §Close combat 2.1: a Special beats all other actions if you win the round."""
    cs = negate(units("l", ActionKind.DEFENCE, D, D, D), units("w", ActionKind.ATTACK, S),
                cancellers_won=False)
    assert cs == ()


def test_losing_special_is_cancelled_as_a_deliberate() -> None:
    """S0 §Close combat 2.1, option cqc.losing_special_as_deliberate: a loser's Special counts as a Deliberate."""
    cs = negate(defend(D), attack(S), cancellers_won=True)
    assert len(cancelled(cs)) == 1 and "losing Special" in cs[0].rule


grades = st.lists(st.sampled_from([B, D, S]), max_size=8)


@settings(max_examples=200, deadline=None)
@given(grades, grades, st.booleans(), st.booleans())
def test_cancellations_never_exceed_the_negation_order(
        cg: list[Grade], tg: list[Grade], won: bool, lsd: bool) -> None:
    """S0 §2.1 invariants: no target twice, no canceller twice; a Basic never
    cancels a Deliberate alone; a Special beats all only for the winner; the
    best use leaves no cancellable pair unused."""
    cancellers, targets = defend(*cg), attack(*tg)
    cs = negate(cancellers, targets, cancellers_won=won, losing_special_as_deliberate=lsd)
    hit = cancelled(cs)
    assert len(hit) == len(set(hit))
    used = [u for c in cs for u in c.by]
    assert len(used) == len(set(used))
    for c in cs:
        by = {u.grade for u in c.by}
        if c.rule == RULE_SPECIAL:
            assert won and by == {S}
            continue
        tgt = [t.grade for t in c.cancelled]
        eff_t = [D if g is S else g for g in tgt]
        if S in tgt:
            assert not won or lsd  # a winner's Special is never cancelled by the loser
        if by == {B}:
            assert (len(c.by), eff_t) in ((1, [B]), (3, [D]))
        else:
            assert len(c.by) == 1 and (eff_t == [D] or (set(eff_t) == {B} and len(eff_t) <= 3))
    free_b = [u for u in cancellers if u not in used and u.grade is B]
    left_b = [t for t in targets if t not in hit and t.grade is B]
    assert not (free_b and left_b), "a free Basic could have cancelled a Basic"
    free_d = [u for u in cancellers if u not in used
              and (u.grade is D or (u.grade is S and not won and lsd))]
    left_any = [t for t in targets if t not in hit and (t.grade is not S or (won and lsd))]
    assert not (free_d and left_any), "a free Deliberate could have cancelled something"
