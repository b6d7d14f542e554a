"""The negation order of S0 §Close combat 2.1, and its invariants."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from ka_tui.rules.cqc.card import ActionKind, Grade
from ka_tui.rules.cqc.negation import (
    RULE_3B_D, RULE_B_B, RULE_D_3B, RULE_D_D, RULE_SPECIAL, ActionUnit, negate,
)
from tests.rules.hypothesis_counts import scaled

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


@settings(max_examples=scaled(200), deadline=None)
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
            # The targets' side lost (the cancellers won) and the option makes
            # its Special a Deliberate: the only way a Special is cancelled
            # other than by a winning Special. A winner's Special never is.
            assert won and lsd, "a Special was cancelled outside S0 §2.1 / the house rule"
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


# --- an independent reference: every assignment (S0 §2.1, RULES-NOTES B) ----
#
# Written from the seed, not from the engine: each target the cancellers can
# reach is left alone, cancelled by a Deliberate, or cancelled by Basics; an
# assignment is possible when "a Deliberate cancels three Basic or one
# Deliberate", "a Basic cancels one Basic" and "three Basic ... cancel one
# Deliberate" leave enough cancellers. RULES-NOTES B: "a Deliberate = three
# Basics; a Special = all, best use first", read as the most value cancelled
# (a Basic is worth 1, a Deliberate 3), then the fewest actions used.


def _worth(g: Grade) -> int:
    return 1 if g is B else 3


def reference_best(cg: list[Grade], tg: list[Grade], won: bool, lsd: bool
                   ) -> tuple[int, int]:
    """(value cancelled, cancelling actions used) of the best assignment."""
    if not cg or not tg:
        return 0, 0
    if won and S in cg:          # "Special action beats all other actions ... if you win"
        return sum(_worth(g) for g in tg), 1
    as_d = D if lsd else None    # house rule losing_special_as_deliberate
    # A canceller's Special here belongs to the loser; a target's Special to
    # the winner when the cancellers lost (never cancellable), else the loser.
    eff_c = [as_d if g is S else g for g in cg]
    eff_t = [(as_d if won else None) if g is S else g for g in tg]
    n_d, n_b = eff_c.count(D), eff_c.count(B)
    reachable = [(g, _worth(t)) for g, t in zip(eff_t, tg, strict=True) if g is not None]
    best = (0, 0)
    for fates in itertools.product(("none", "by_d", "by_b"), repeat=len(reachable)):
        d_on_d = sum(1 for (g, _), f in zip(reachable, fates) if g is D and f == "by_d")
        b_by_d = sum(1 for (g, _), f in zip(reachable, fates) if g is B and f == "by_d")
        b_on_b = sum(1 for (g, _), f in zip(reachable, fates) if g is B and f == "by_b")
        trios = sum(1 for (g, _), f in zip(reachable, fates) if g is D and f == "by_b")
        deliberates = d_on_d + -(-b_by_d // 3)    # each Deliberate: one D or up to 3 B
        basics = b_on_b + 3 * trios
        if deliberates > n_d or basics > n_b:
            continue
        value = sum(w for (_, w), f in zip(reachable, fates) if f != "none")
        used = deliberates + basics
        if (value, -used) > (best[0], -best[1]):
            best = (value, used)
    return best


def engine_best(cg: list[Grade], tg: list[Grade], won: bool, lsd: bool) -> tuple[int, int]:
    cs = negate(defend(*cg), attack(*tg), cancellers_won=won, losing_special_as_deliberate=lsd)
    return (sum(_worth(t.grade) for t in cancelled(cs)),
            len({u for c in cs for u in c.by}))


def test_rules_notes_b_fewest_actions_when_the_value_ties() -> None:
    """RULES-NOTES B best use: a Deliberate alone cancels the Deliberate; the
    three Basics that could have done it stay unused (S0 §2.1)."""
    cs = negate(defend(B, B, B, D), attack(D), cancellers_won=True)
    assert [(c.rule, [u.grade for u in c.by]) for c in cs] == [(RULE_D_D, [D])]
    assert engine_best([B, B, B, D], [D], True, True) == reference_best([B, B, B, D], [D],
                                                                       True, True) == (3, 1)


def test_rules_notes_b_deliberate_takes_three_basics_not_one() -> None:
    """S0 §2.1: one Deliberate on three Basics uses fewer actions than three Basics."""
    cs = negate(defend(B, B, B, D), attack(B, B, B), cancellers_won=True)
    assert [c.rule for c in cs] == [RULE_D_3B]


def _multisets(max_size: int) -> list[list[Grade]]:
    return [list(c) for n in range(max_size + 1)
            for c in itertools.combinations_with_replacement((B, D, S), n)]


def test_s0_2_1_best_negation_equals_the_exhaustive_reference_up_to_four_each() -> None:
    """Every card of up to four actions against every other, both outcomes,
    the option on and off: the engine's choice is the reference's best."""
    for cg in _multisets(4):
        for tg in _multisets(4):
            for won in (True, False):
                for lsd in (True, False):
                    assert engine_best(cg, tg, won, lsd) == reference_best(cg, tg, won, lsd), (
                        cg, tg, won, lsd)


@settings(max_examples=scaled(150), deadline=None)
@given(st.lists(st.sampled_from([B, D, S]), min_size=3, max_size=8),
       st.lists(st.sampled_from([B, D, S]), min_size=5, max_size=7),
       st.booleans(), st.booleans())
def test_s0_2_1_best_negation_equals_the_reference_on_larger_cards(
        cg: list[Grade], tg: list[Grade], won: bool, lsd: bool) -> None:
    """Larger cards than the exhaustive sweep (S0 §2.1, RULES-NOTES B)."""
    assert engine_best(cg, tg, won, lsd) == reference_best(cg, tg, won, lsd)
