"""Unopposed and opposed skill tests (S0 §Skills, S0 §Close combat 4, RULES-NOTES A).

Default tables (RULES-NOTES A): opposed — each die needs 7 + (opponent's −
own skill); challenging — 9 − (own − opponent's); never below 2.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ka_tui.rules.core.skill_tests import (
    Contestant, Decision, lore_bonus, opposed_test, unopposed_test,
)
from ka_tui.rules.core.dice import DiceError, RandomDice, ScriptedDice
from ka_tui.rules.core.options import CritCancel, CritFailRule, HouseRules, SkillOptions
from tests.rules.hypothesis_counts import scaled

SEED = SkillOptions()
CC = (("Close Combat", 5), ("Agility", 4))


def unopposed(pool: tuple[int, ...], number: int, faces: list[int], *, bonus: int = 0,
              options: SkillOptions = SEED):  # type: ignore[no-untyped-def]
    return unopposed_test(pool, number, ScriptedDice.of(faces), options, bonus=bonus)


def opposed(a: Contestant, b: Contestant, faces: list[int], options: SkillOptions = SEED
            ):  # type: ignore[no-untyped-def]
    dice = ScriptedDice.of(faces)
    result = opposed_test(a, b, dice, options)
    assert dice.exhausted, "the test must use exactly the faces given"
    return result


# --- unopposed (S0 §Skills "against magic 13") ------------------------------


def test_s0_skills_unopposed_die_succeeds_at_face_plus_number_13() -> None:
    r = unopposed((10, 10), 5, [8, 7])
    assert [d.success for d in r.dice] == [True, False]
    assert [d.needed for d in r.dice] == [8, 8]
    assert r.successes == 1 and r.passed
    assert "13 − 5" in r.explanation[0]


def test_rules_notes_a_unopposed_passes_with_one_success_reports_count() -> None:
    r = unopposed((10, 10, 10, 12), 7, [6, 9, 2, 11])
    assert r.successes == 3 and r.passed
    assert "3 successes" in r.explanation[-1]
    miss = unopposed((10, 10, 10), 7, [5, 2, 4])
    assert miss.successes == 0 and not miss.passed and not miss.crit_fail


def test_s0_skills_critical_success_on_max_counts_whatever_the_sum() -> None:
    """S0 §Skills: "12" on a d12, "8" on a d8 is a critical success."""
    r = unopposed((8, 8), 0, [8, 7])  # needs 13: only the 8 can succeed
    assert r.dice[0].crit_success and r.dice[0].success
    assert not r.dice[1].success
    assert r.successes == 1 and r.passed and r.crit_success


def test_s0_skills_header_says_when_only_a_critical_can_succeed() -> None:
    r = unopposed((8, 8, 12), 2, [3, 4, 5])  # needs 11+: a d8 only on its 8
    assert "only a critical can succeed (d8 on a 8)" in r.explanation[0]
    easy = unopposed((10,), 11, [5])
    assert "every face but a 1 succeeds" in easy.explanation[0]


def test_rules_notes_a_lore_successes_become_an_allys_bonus() -> None:
    siege = unopposed((10, 10, 10), 6, [7, 9, 2])
    assert lore_bonus(siege, SEED) == 2
    assert lore_bonus(siege, SkillOptions(lore_share_bonus=False)) == 0
    assert lore_bonus(unopposed((10, 10, 10), 6, [3, 4, 2]), SEED) == 0


def test_s0_skills_a_one_is_a_critical_fail_even_with_a_high_number() -> None:
    r = unopposed((10,), 12, [1])  # 1 + 12 = 13, still a critical fail
    assert r.dice[0].crit_fail and not r.dice[0].success
    assert r.crit_fail and not r.passed


def test_s0_skills_passive_bonus_does_not_improve_a_critical_fail() -> None:
    """S0 §Skills Brawl: "Note that Critical Fail is not improved by passive skill"."""
    one = unopposed((12,), 6, [1], bonus=4)
    assert one.crit_fail and not one.passed
    three = unopposed((12,), 6, [3], bonus=4)  # 3 + 6 + 4 = 13
    assert three.dice[0].needed == 3 and three.passed


def test_rules_notes_a_unnegated_critical_fail_fails_despite_successes() -> None:
    r = unopposed((10, 10), 7, [1, 9])
    assert r.successes == 1
    assert r.crit_fail and not r.passed
    assert "CRITICAL FAIL" in r.explanation[-1]


def test_s0_close_combat_4_critical_success_negates_critical_fail_one_for_one() -> None:
    """S0 §Close combat 4: "Critical Fail may be negated by players Critical
    Success on other dice"; RULES-NOTES A: one for one, still a success."""
    r = unopposed((10, 10, 10, 12), 7, [1, 6, 3, 12])
    assert not r.crit_fail and r.passed and r.successes == 2
    assert r.dice[0].negated_by == 3 and r.dice[3].spent
    assert not r.crit_success  # spent: no longer wins automatically (spent_crit_wins off)
    two_ones = unopposed((10, 10, 10, 12), 7, [1, 1, 3, 12])
    assert two_ones.crit_fail and not two_ones.passed


def test_option_spent_crit_wins_keeps_the_critical() -> None:
    options = SkillOptions(spent_crit_wins=True)
    r = unopposed((10, 10, 10, 12), 7, [1, 6, 3, 12], options=options)
    assert r.crit_success and r.passed


def test_option_crit_fail_rule_all_ones() -> None:
    """RULES-NOTES A crit_fail_rule = all_ones: a 1 is just a failed die unless
    every die shows 1."""
    options = SkillOptions(crit_fail_rule=CritFailRule.ALL_ONES)
    r = unopposed((10, 10, 10), 7, [1, 6, 3], options=options)
    assert not r.crit_fail and r.passed
    r = unopposed((8, 8), 7, [1, 1], options=options)
    assert r.crit_fail and not r.passed


# --- opposed tables (RULES-NOTES A) -----------------------------------------


def test_rules_notes_a_opposed_table_equal_skills_need_7() -> None:
    a, b = Contestant("Ann", (10, 10), 5), Contestant("Bob", (10, 10), 5)
    r = opposed(a, b, [7, 6, 6, 2])
    assert [d.needed for d in r.a.dice] == [7, 7]
    assert r.a.successes == 1 and r.b.successes == 0
    assert r.winner == 0 and r.decided_by is Decision.ONLY_PASSED


def test_rules_notes_a_opposed_table_shifts_by_skill_difference() -> None:
    a, b = Contestant("Ann", (10,), 4), Contestant("Bob", (10,), 6)
    r = opposed(a, b, [5, 5])
    assert r.a.dice[0].needed == 9   # 7 + (6 − 4)
    assert r.b.dice[0].needed == 5   # 7 + (4 − 6)
    assert "opposed table" in r.a.explanation[0] and "RULES-NOTES A" in r.a.explanation[0]


def test_rules_notes_a_opposed_table_never_below_2() -> None:
    a, b = Contestant("Ann", (10,), 15), Contestant("Bob", (10,), 0)
    r = opposed(a, b, [2, 5])
    assert r.a.dice[0].needed == 2 and r.a.dice[0].success


def test_opposed_bonus_lowers_the_face_needed() -> None:
    """S0 §Skills (Passive adds its level to the roll), RULES-NOTES A opposed table."""
    a = Contestant("Ann", (12,), 5, bonus=2)
    b = Contestant("Bob", (12,), 5)
    r = opposed(a, b, [5, 6])
    assert r.a.dice[0].needed == 5 and r.a.dice[0].success


def test_s0_skills_legendary_opponent_makes_the_test_challenging() -> None:
    """S0 §Skills [L]: "any Opposed test against this skill becomes Challenging.
    Subtract opponents skill number from yours, result is required level on
    Challenging test table"."""
    a = Contestant("Ann", (10, 10), 6)
    b = Contestant("Bob", (12, 12, 12, 12), 8, legendary=True)
    r = opposed(a, b, [3, 3, 3, 3, 3, 3])
    assert r.a.dice[0].needed == 11   # challenging: 9 − (6 − 8)
    assert r.b.dice[0].needed == 5    # Bob, facing a non-Legendary: opposed 7 + (6 − 8)
    assert "challenging" in r.a.explanation[0]


def test_s0_skills_both_legendary_both_use_challenging() -> None:
    a = Contestant("Ann", (20, 20, 20, 20), 8, legendary=True)
    b = Contestant("Bob", (12, 12, 12, 20), 8, legendary=True)
    r = opposed(a, b, [3] * 8)
    assert {d.needed for d in r.a.dice} == {9} and {d.needed for d in r.b.dice} == {9}


def test_campaign_house_rules_tables_reach_the_test() -> None:
    """A campaign stores its tables as JSON (RULES-NOTES: tables are data)."""
    rules = HouseRules.from_dict({"skills": {"challenging_table": {"0": 6}}})
    a = Contestant("Ann", (10,), 5)
    b = Contestant("Bob", (12,), 5, legendary=True)
    r = opposed(a, b, [6, 2], rules.skills)
    assert r.a.dice[0].needed == 6 and r.a.passed


def test_house_tables_are_used() -> None:
    options = SkillOptions(opposed_table={0: 4})
    a, b = Contestant("Ann", (10,), 5), Contestant("Bob", (10,), 5)
    r = opposed(a, b, [4, 3], options)
    assert r.a.dice[0].needed == 4 and r.a.passed and not r.b.passed


# --- smaller dice's criticals (S0 §Skills) ----------------------------------


def test_s0_skills_8_on_d8_is_beaten_and_negated_by_8_on_d10() -> None:
    """S0 §Skills: "roll of "8" on d8 will be beaten and negated by roll of 8 on d10"."""
    a, b = Contestant("Ann", (8,), 5), Contestant("Bob", (10,), 5)
    r = opposed(a, b, [8, 8])
    die = r.a.dice[0]
    assert die.crit_success and die.cancelled_by == 0 and not die.success
    assert r.a.successes == 0 and not r.a.crit_success
    assert r.winner == 1 and r.decided_by is Decision.ONLY_PASSED
    assert any("cancelled by the opponent's success on a larger d10" in line
               and "S0 §Skills" in line for line in r.explanation)


def test_s0_skills_critical_of_larger_die_also_cancels() -> None:
    """S0 §Skills: cancelled "by normal and Critical successes of larger dice"."""
    a, b = Contestant("Ann", (8,), 5), Contestant("Bob", (10,), 5)
    r = opposed(a, b, [8, 10])
    assert r.a.dice[0].cancelled_by == 0 and not r.a.crit_success
    assert r.b.crit_success and r.winner == 1 and r.decided_by is Decision.CRITICAL


def test_option_crit_cancel_crit_only_keeps_the_success() -> None:
    options = SkillOptions(crit_cancel=CritCancel.CRIT_ONLY)
    a, b = Contestant("Ann", (8,), 5), Contestant("Bob", (10,), 5)
    r = opposed(a, b, [8, 8, 5, 9], options)  # equal successes, no tie-breaks: roll-off
    assert r.a.dice[0].success and not r.a.crit_success
    assert r.a.successes == 1 == r.b.successes
    assert r.decided_by is Decision.ROLLOFF and r.rolloff == ((5, 9),) and r.winner == 1


def test_s0_skills_larger_critical_not_cancelled_by_smaller_or_equal_die() -> None:
    a, b = Contestant("Ann", (10,), 5), Contestant("Bob", (8,), 5)
    r = opposed(a, b, [10, 7])
    assert r.a.crit_success and r.winner == 0 and r.decided_by is Decision.CRITICAL
    same = opposed(Contestant("Ann", (10,), 5), Contestant("Bob", (10,), 5), [10, 9])
    assert same.a.crit_success and same.winner == 0


def test_rules_notes_a_each_larger_success_cancels_one_critical() -> None:
    a, b = Contestant("Ann", (8, 8), 5), Contestant("Bob", (10,), 5)
    r = opposed(a, b, [8, 8, 9])
    assert [d.cancelled_by for d in r.a.dice].count(0) == 1
    assert r.a.successes == 1 and r.a.crit_success
    assert r.winner == 0 and r.decided_by is Decision.CRITICAL


def test_rules_notes_a_cancellation_is_simultaneous() -> None:
    """Ann's d8 critical is cancelled by Bob's d10 critical, which is itself
    cancelled by Ann's d12 success: both as rolled."""
    a, b = Contestant("Ann", (8, 12), 5), Contestant("Bob", (10,), 5)
    r = opposed(a, b, [8, 9, 10])
    assert r.a.dice[0].cancelled_by == 0
    assert r.b.dice[0].cancelled_by == 1
    assert (r.a.successes, r.b.successes) == (1, 0)
    assert r.winner == 0 and r.decided_by is Decision.ONLY_PASSED


def test_failed_die_does_not_cancel_a_critical() -> None:
    """S0 §Skills (criticals of smaller dice cancelled by successes of larger dice), RULES-NOTES A: a failed die cancels nothing."""
    a, b = Contestant("Ann", (8,), 5), Contestant("Bob", (10,), 5)
    r = opposed(a, b, [8, 6])  # Bob's 6 misses 7+
    assert r.a.dice[0].cancelled_by is None and r.a.crit_success and r.winner == 0


def test_cancelled_critical_cannot_negate_a_one() -> None:
    """S0 §Skills and §Close combat 4 (a critical fail negated by a critical success), RULES-NOTES A: a critical already cancelled by a larger die negates no 1."""
    a, b = Contestant("Ann", (8, 8), 5), Contestant("Bob", (10,), 5)
    r = opposed(a, b, [8, 1, 9])
    assert r.a.crit_fail and r.winner == 1 and r.decided_by is Decision.CRIT_FAIL


# --- the opposed round (S0 §Close combat 4) ----------------------------------


def test_s0_close_combat_4_critical_fail_loses_automatically() -> None:
    a, b = Contestant("Ann", (10,), 5), Contestant("Bob", (10,), 5)
    r = opposed(a, b, [1, 2])  # Bob fails too, but Ann's 1 hands him the round
    assert r.winner == 1 and r.decided_by is Decision.CRIT_FAIL
    assert "critically failed" in r.explanation[-1]


def test_both_critical_fails_is_a_stand_off() -> None:
    """S0 §Close combat 4 (critical fail: the opponent wins automatically) with both sides failing so: nobody wins (RULES-NOTES B, both fail)."""
    a, b = Contestant("Ann", (10,), 5), Contestant("Bob", (10,), 5)
    r = opposed(a, b, [1, 1])
    assert r.winner is None and r.decided_by is Decision.BOTH_CRIT_FAIL


def test_s0_close_combat_4_critical_success_wins_automatically() -> None:
    a, b = Contestant("Ann", (10, 10), 5), Contestant("Bob", (10, 10), 5)
    r = opposed(a, b, [10, 2, 8, 9])  # Bob has more successes; Ann's critical wins
    assert r.winner == 0 and r.decided_by is Decision.CRITICAL


def test_s0_close_combat_4_both_critical_more_successes_wins() -> None:
    a, b = Contestant("Ann", (10, 10), 5), Contestant("Bob", (10, 10), 5)
    r = opposed(a, b, [10, 8, 10, 3])
    assert r.winner == 0 and r.decided_by is Decision.SUCCESSES


def test_s0_close_combat_4_both_critical_draw_higher_skill_wins() -> None:
    a, b = Contestant("Ann", (10,), 6), Contestant("Bob", (10,), 5)
    r = opposed(a, b, [10, 10])
    assert r.winner == 0 and r.decided_by is Decision.SKILL


def test_s0_close_combat_4_roll_off_d12_ties_rerolled() -> None:
    a, b = Contestant("Ann", (10,), 5), Contestant("Bob", (10,), 5)
    r = opposed(a, b, [10, 10, 4, 4, 3, 9])
    assert r.rolloff == ((4, 4), (3, 9))
    assert r.winner == 1 and r.decided_by is Decision.ROLLOFF
    assert "4–4, 3–9" in r.explanation[-1]


def test_s0_close_combat_4_both_pass_more_successes_wins() -> None:
    a, b = Contestant("Ann", (10, 10), 5), Contestant("Bob", (10, 10), 5)
    r = opposed(a, b, [8, 2, 8, 9])
    assert r.winner == 1 and r.decided_by is Decision.SUCCESSES


def test_s0_close_combat_4_draw_close_combat_then_agility() -> None:
    a = Contestant("Ann", (10,), 5, tiebreaks=CC)
    b = Contestant("Bob", (10,), 5, tiebreaks=(("Close Combat", 5), ("Agility", 6)))
    r = opposed(a, b, [8, 8])
    assert r.winner == 1 and r.decided_by is Decision.TIEBREAK
    assert "Agility" in r.explanation[-1]
    c = Contestant("Cid", (10,), 5, tiebreaks=(("Close Combat", 6), ("Agility", 1)))
    r = opposed(a, c, [8, 8])
    assert r.winner == 1 and "Close Combat" in r.explanation[-1]


def test_s0_close_combat_4_full_draw_goes_to_roll_off() -> None:
    a = Contestant("Ann", (10,), 5, tiebreaks=CC)
    b = Contestant("Bob", (10,), 5, tiebreaks=CC)
    r = opposed(a, b, [8, 8, 12, 2])
    assert r.winner == 0 and r.decided_by is Decision.ROLLOFF


def test_both_fail_is_a_stand_off() -> None:
    """RULES-NOTES B (both fail: a stand-off) for S0 §Close combat 4."""
    a, b = Contestant("Ann", (10,), 5), Contestant("Bob", (10,), 5)
    r = opposed(a, b, [3, 4])
    assert r.winner is None and r.decided_by is Decision.BOTH_FAILED
    assert r.winner_name(a, b) is None


# --- dice sources and explanations ------------------------------------------


def test_scripted_faces_that_do_not_fit_raise() -> None:
    with pytest.raises(DiceError, match="not a face of a d8"):
        unopposed((8, 8), 5, [9, 1])
    with pytest.raises(DiceError, match="no scripted face left"):
        unopposed((8, 8), 5, [3])


def test_random_dice_are_reproducible_by_seed() -> None:
    a, b = Contestant("Ann", (10, 10, 10, 12), 7), Contestant("Bob", (8, 8), 5)
    first = opposed_test(a, b, RandomDice(7), SEED)
    again = opposed_test(a, b, RandomDice(7), SEED)
    assert first == again


def test_every_explanation_line_cites_its_source() -> None:
    a, b = Contestant("Ann", (8, 8, 12), 5), Contestant("Bob", (10, 12), 6)
    r = opposed(a, b, [8, 1, 5, 10, 6])
    assert r.decided_by is Decision.CRIT_FAIL  # the d8 critical was cancelled, the 1 stands
    for line in r.explanation:
        if line.startswith("  "):  # one die's reading, under its side's header
            continue
        assert "S0 §" in line or "RULES-NOTES" in line, line


# --- invariants (hypothesis) -------------------------------------------------

POOLS = st.lists(st.sampled_from((8, 10, 12, 20)), min_size=1, max_size=5).map(tuple)
MODES = st.sampled_from([
    SkillOptions(), SkillOptions(crit_cancel=CritCancel.CRIT_ONLY),
    SkillOptions(crit_fail_rule=CritFailRule.ALL_ONES), SkillOptions(spent_crit_wins=True)])


@settings(max_examples=scaled(200), deadline=None)
@given(pa=POOLS, pb=POOLS, na=st.integers(0, 12), nb=st.integers(0, 12),
       la=st.booleans(), lb=st.booleans(), seed=st.integers(0, 2**32), options=MODES)
def test_opposed_result_invariants(pa: tuple[int, ...], pb: tuple[int, ...], na: int,
                                   nb: int, la: bool, lb: bool, seed: int,
                                   options: SkillOptions) -> None:
    a, b = Contestant("A", pa, na, la), Contestant("B", pb, nb, lb)
    r = opposed_test(a, b, RandomDice(seed), options)
    for side in (r.a, r.b):
        assert side.successes == sum(d.success for d in side.dice)
        assert side.passed == (side.successes >= 1 and not side.crit_fail)
        assert all(not d.success for d in side.dice if d.face == 1)
        if options.crit_fail_rule is CritFailRule.SEED:
            live = sum(d.crit_success and d.cancelled_by is None for d in side.dice)
            ones = sum(d.face == 1 for d in side.dice)
            assert side.crit_fail == (ones > live)
    for mine, theirs in ((r.a, r.b), (r.b, r.a)):
        for d in mine.dice:
            if d.cancelled_by is not None:
                canceller = theirs.dice[d.cancelled_by]
                assert d.crit_success and canceller.sides > d.sides
                assert canceller.crit_success or canceller.face >= canceller.needed
    if r.winner is None:
        assert r.decided_by in (Decision.BOTH_FAILED, Decision.BOTH_CRIT_FAIL)
    else:
        loser = (r.a, r.b)[1 - r.winner]
        assert not (loser.crit_success and not loser.crit_fail
                    and not (r.a, r.b)[r.winner].crit_success)
