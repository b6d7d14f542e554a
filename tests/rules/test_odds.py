"""Exact odds of skill tests (S0 §Skills, §Close combat 4, RULES-NOTES A).

The odds are checked three ways: against ``seed_reference`` (every face,
read die by die from the seed text, importing none of the rule steps that
``core.skill_tests`` and ``core.odds`` share, so a rules bug cannot move both sides
together); against a brute-force enumeration of every face through
``skill_tests.opposed_test`` (the resolution the table uses, so odds and rolls
agree); and against a seeded simulation.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ka_tui.rules.core.skill_tests import Contestant, Decision, opposed_test, unopposed_test
from ka_tui.rules.core.dice import RandomDice, ScriptedDice
from ka_tui.rules.core.odds import (
    OpposedOdds, opposed_odds, percent, render_histogram, unopposed_odds,
)
from ka_tui.rules.core.options import CritCancel, CritFailRule, SkillOptions
from ka_tui.rules.core.skills import Level, level_pool
from tests.rules.hypothesis_counts import scaled

from . import seed_reference as ref

SEED = SkillOptions()
MODES = [SkillOptions(), SkillOptions(crit_cancel=CritCancel.CRIT_ONLY),
         SkillOptions(crit_fail_rule=CritFailRule.ALL_ONES),
         SkillOptions(spent_crit_wins=True)]
MODE_IDS = ["seed", "crit_only", "all_ones", "spent_wins"]


def faces_of(pool: tuple[int, ...]):  # type: ignore[no-untyped-def]
    return itertools.product(*(range(1, s + 1) for s in pool))


def brute_opposed(a: Contestant, b: Contestant, options: SkillOptions) -> OpposedOdds:
    """Every face combination through ``opposed_test``; a roll-off counts half."""
    wins = [Fraction(0), Fraction(0)]
    standoff = rolloff = Fraction(0)
    succ: list[Counter[int]] = [Counter(), Counter()]
    crit_fail = [0, 0]
    crit = [0, 0]
    passed = [0, 0]
    decisions: Counter[Decision] = Counter()
    total = math.prod(a.pool) * math.prod(b.pool)
    for fa in faces_of(a.pool):
        for fb in faces_of(b.pool):
            r = opposed_test(a, b, ScriptedDice.of([*fa, *fb, 2, 1]), options)
            decisions[r.decided_by] += 1
            if r.decided_by is Decision.ROLLOFF:
                rolloff += 1
            elif r.winner is None:
                standoff += 1
            else:
                wins[r.winner] += 1
            for i, side in enumerate((r.a, r.b)):
                succ[i][side.successes] += 1
                crit_fail[i] += side.crit_fail
                crit[i] += side.crit_success
                passed[i] += side.passed
    odds = opposed_odds(a, b, options)
    for i, side_odds in enumerate((odds.a, odds.b)):
        assert side_odds.successes == {n: Fraction(succ[i][n], total)
                                       for n in side_odds.successes}
        assert side_odds.p_crit_fail == Fraction(crit_fail[i], total)
        assert side_odds.p_crit_success == Fraction(crit[i], total)
        assert side_odds.p_pass == Fraction(passed[i], total)
    assert odds.decisions == {d: Fraction(n, total) for d, n in decisions.items()}
    assert odds.p_standoff == standoff / total
    assert odds.p_rolloff == rolloff / total
    assert odds.p_a_wins == (wins[0] + rolloff / 2) / total
    assert odds.p_b_wins == (wins[1] + rolloff / 2) / total
    return odds


# --- worked values -----------------------------------------------------------


def test_s0_skills_base_d12_odds() -> None:
    """One d12 @6 against 13 needs 7+: six faces of twelve; a 1 is a critical fail."""
    o = unopposed_odds((12,), 6, SEED)
    assert o.successes == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert o.p_pass == Fraction(1, 2)
    assert o.p_crit_fail == Fraction(1, 12)
    assert o.p_crit_success == Fraction(1, 12)


def test_s0_skills_only_criticals_succeed_when_13_is_out_of_reach() -> None:
    """2d8 @0: only an 8 succeeds; an 8 negates a 1 (spent); a lone 1 fails."""
    o = unopposed_odds((8, 8), 0, SEED)
    assert o.p_pass == Fraction(15, 64)             # at least one 8
    assert o.p_crit_fail == Fraction(13, 64)        # (1,1) and a 1 with 2–7
    assert o.p_crit_success == Fraction(13, 64)     # (8,8) and an 8 with 2–7
    assert o.successes[2] == Fraction(1, 64)


def test_pool_odds_at_least_and_mean() -> None:
    o = unopposed_odds((8, 8), 0, SEED)  # only 8s succeed: 1/8 each
    assert o.p_at_least(0) == 1
    assert o.p_at_least(1) == Fraction(15, 64)
    assert o.p_at_least(2) == Fraction(1, 64)
    assert o.mean == Fraction(1, 4)


def test_s0_skills_more_successes_than_dice_is_an_exact_nil_chance() -> None:
    """S0 §Skills: each die gives at most one success, so 2d8 never score 3;
    the chance is an exact Fraction 0 like every other chance here."""
    o = unopposed_odds((8, 8), 0, SEED)
    nil = o.p_at_least(3)
    assert nil == 0 and isinstance(nil, Fraction)


def test_opposed_odds_accept_lists_from_callers() -> None:
    a = Contestant("A", [10, 10], 5, tiebreaks=[["CC", 3]])  # type: ignore[arg-type]
    b = Contestant("B", (10, 10), 5, tiebreaks=(("CC", 3),))
    assert opposed_odds(a, b, SEED) == opposed_odds(
        Contestant("A", (10, 10), 5, tiebreaks=(("CC", 3),)), b, SEED)


def test_s0_skills_passive_bonus_odds() -> None:
    """d12 + 6 + Brawl 4 needs 3+: faces 3–12 succeed, a 1 still critically fails."""
    o = unopposed_odds((12,), 6, SEED, bonus=4)
    assert o.p_pass == Fraction(10, 12) and o.p_crit_fail == Fraction(1, 12)


def test_s0_skills_8_on_d8_vs_d10_odds() -> None:
    """d8 vs d10, equal skills: the d8's 8 is cancelled whenever the d10 succeeds (7+)."""
    odds = brute_opposed(Contestant("A", (8,), 5), Contestant("B", (10,), 5), SEED)
    # A's critical survives only when B's d10 fails (faces 1–6): 1/8 × 6/10
    assert odds.a.p_crit_success == Fraction(1, 8) * Fraction(6, 10)


def test_odds_match_unopposed_test_for_every_face() -> None:
    for options in MODES:
        pool, number = (10, 10, 12), 6
        counts: Counter[int] = Counter()
        passed = 0
        for faces in faces_of(pool):
            r = unopposed_test(pool, number, ScriptedDice.of(faces), options)
            counts[r.successes] += 1
            passed += r.passed
        total = math.prod(pool)
        o = unopposed_odds(pool, number, options)
        assert o.successes == {n: Fraction(counts[n], total) for n in range(4)}
        assert o.p_pass == Fraction(passed, total)


# --- brute force -------------------------------------------------------------


PAIRS = [
    (Contestant("A", (8, 8), 6, tiebreaks=(("CC", 3),)),
     Contestant("B", (10,), 5, tiebreaks=(("CC", 3),))),
    (Contestant("A", (10,), 5), Contestant("B", (12, 20), 7, legendary=True)),
    (Contestant("A", (8, 12), 4, bonus=2), Contestant("B", (10,), 6)),
]


@pytest.mark.parametrize("options", MODES, ids=MODE_IDS)
@pytest.mark.parametrize(("a", "b"), PAIRS, ids=["d8s_vs_d10_d12", "vs_legendary", "bonus"])
def test_opposed_odds_equal_brute_force(a: Contestant, b: Contestant,
                                        options: SkillOptions) -> None:
    brute_opposed(a, b, options)


@pytest.mark.parametrize("options", MODES[:2], ids=MODE_IDS[:2])
def test_opposed_odds_equal_brute_force_two_sizes_each(options: SkillOptions) -> None:
    """d8s against a d10 and a d12: criticals matched to several larger sizes."""
    brute_opposed(Contestant("A", (8, 8), 6, tiebreaks=(("CC", 3),)),
                  Contestant("B", (10, 12), 5, tiebreaks=(("CC", 3),)), options)


def test_opposed_odds_equal_brute_force_three_sizes_against_one() -> None:
    """A Legendary d12 against d8, d10, d10: every critical of B is at risk."""
    brute_opposed(Contestant("A", (12,), 9, legendary=True),
                  Contestant("B", (8, 10, 10), 3), SEED)


def test_opposed_odds_equal_brute_force_crit_only_when_the_top_face_is_just_enough() -> None:
    """House rule crit_cancel=crit_only: a cancelled critical keeps its success
    when its face still meets the need -- a d8 needing 8+ (RULES-NOTES A
    opposed table: 7 + 5 - 4) keeps the success of its cancelled 8."""
    odds = brute_opposed(Contestant("A", (8,), 4), Contestant("B", (10,), 5),
                         SkillOptions(crit_cancel=CritCancel.CRIT_ONLY))
    assert odds.a.successes[1] == Fraction(1, 8)


def test_opposed_odds_of_a_side_with_no_dice() -> None:
    """S0 §Close combat 4: a side rolling no dice never passes; it wins only
    when the other critically fails (a 1 on his d10)."""
    odds = brute_opposed(Contestant("A", (), 5), Contestant("B", (10,), 5), SEED)
    assert odds.a.successes == {0: 1} and odds.p_a_wins == Fraction(1, 10)
    assert odds.p_b_wins == Fraction(4, 10)


def test_opposed_odds_equal_brute_force_tie_breaks_in_order_by_name() -> None:
    """S0 §Close combat 4: on equal successes Close Combat, then Agility, each
    compared by name: equal Close Combat, so Agility 5 against 4 decides; a
    higher Close Combat wins though the Agility goes the other way."""
    for tb_a, tb_b, a_wins in ((5, 5), (5, 4), True), ((5, 3), (4, 6), True), \
            ((4, 6), (5, 3), False):
        odds = brute_opposed(
            Contestant("A", (10,), 5, tiebreaks=(("Close Combat", tb_a[0]), ("Agility", tb_a[1]))),
            Contestant("B", (10,), 5, tiebreaks=(("Close Combat", tb_b[0]), ("Agility", tb_b[1]))),
            SEED)
        assert odds.decisions[Decision.TIEBREAK] == Fraction(3 * 3, 100)  # a 7, 8 or 9 each
        assert (odds.p_a_wins > odds.p_b_wins) is a_wins


def test_opposed_odds_are_shared_by_contestants_alike_but_for_the_name() -> None:
    """The odds of S0 §Close combat 4 read no name: two fighters of the same
    dice, skill and tie-breaks share one cached result."""
    b = Contestant("B", (10,), 5)
    assert opposed_odds(Contestant("Ann", (10, 8), 6), b, SEED) is opposed_odds(
        Contestant("Kasia", (10, 8), 6), b, SEED)


SMALL_POOL = st.lists(st.sampled_from((8, 10, 12)), min_size=1, max_size=2).map(tuple)


@settings(max_examples=scaled(12), deadline=None)
@given(pa=SMALL_POOL, pb=SMALL_POOL, na=st.integers(0, 12), nb=st.integers(0, 12),
       la=st.booleans(), lb=st.booleans(), ba=st.integers(-2, 3),
       options=st.sampled_from(MODES))
def test_opposed_odds_equal_brute_force_property(pa: tuple[int, ...], pb: tuple[int, ...],
                                                 na: int, nb: int, la: bool, lb: bool,
                                                 ba: int, options: SkillOptions) -> None:
    assume(math.prod(pa) * math.prod(pb) <= 1500)
    brute_opposed(Contestant("A", pa, na, la, ba), Contestant("B", pb, nb, lb), options)


# --- an independent reference ----------------------------------------------


def side_of(c: Contestant) -> ref.Side:
    tb = dict(c.tiebreaks)
    return ref.Side(tuple(c.pool), c.number, c.legendary, c.bonus,
                    tb.get("CC", tb.get("Close Combat")), tb.get("Agility"))


def assert_matches_reference(a: Contestant, b: Contestant, options: SkillOptions) -> None:
    odds = opposed_odds(a, b, options)
    want = ref.enumerate_odds(side_of(a), side_of(b), options)
    assert (odds.p_a_wins, odds.p_b_wins, odds.p_standoff, odds.p_rolloff) == (
        want.p_a_wins, want.p_b_wins, want.p_standoff, want.p_rolloff)
    assert {d.value: p for d, p in odds.decisions.items() if p} == {
        k: p for k, p in want.how.items() if p}
    for i, side_odds in enumerate((odds.a, odds.b)):
        assert side_odds.successes == want.successes[i]
        assert (side_odds.p_pass, side_odds.p_crit_fail, side_odds.p_crit_success) == (
            want.p_pass[i], want.p_crit_fail[i], want.p_crit_success[i])


REF_PAIRS = [*PAIRS,
             (Contestant("A", (8, 10, 12), 6), Contestant("B", (10,), 6)),
             (Contestant("A", (8, 8, 8), 3), Contestant("B", (20,), 9, legendary=True)),
             (Contestant("A", (12, 12), 7, legendary=True),
              Contestant("B", (20,), 7, legendary=True))]


@pytest.mark.parametrize("options", MODES, ids=MODE_IDS)
@pytest.mark.parametrize(("a", "b"), REF_PAIRS,
                         ids=["d8s_vs_d10", "vs_legendary", "bonus", "three_sizes",
                              "d8s_vs_legendary_d20", "both_legendary"])
def test_opposed_odds_equal_the_seed_reference(a: Contestant, b: Contestant,
                                               options: SkillOptions) -> None:
    """S0 §Skills, §Close combat 4, RULES-NOTES A: every face, read from the seed."""
    assert_matches_reference(a, b, options)


@settings(max_examples=scaled(10), deadline=None)
@given(pa=SMALL_POOL, pb=SMALL_POOL, na=st.integers(0, 12), nb=st.integers(0, 12),
       la=st.booleans(), lb=st.booleans(), ba=st.integers(-2, 3),
       options=st.sampled_from(MODES))
def test_opposed_odds_equal_the_seed_reference_property(
        pa: tuple[int, ...], pb: tuple[int, ...], na: int, nb: int, la: bool, lb: bool,
        ba: int, options: SkillOptions) -> None:
    """S0 §Skills, §Close combat 4, RULES-NOTES A over random small pools."""
    assert_matches_reference(Contestant("A", pa, na, la, ba), Contestant("B", pb, nb, lb),
                             options)


# --- invariants --------------------------------------------------------------

POOLS = st.lists(st.sampled_from((8, 10, 12, 20)), min_size=1, max_size=5).map(tuple)


@settings(max_examples=scaled(100), deadline=None)
@given(pa=POOLS, pb=POOLS, na=st.integers(0, 12), nb=st.integers(0, 12),
       la=st.booleans(), lb=st.booleans(), options=st.sampled_from(MODES))
def test_opposed_distributions_sum_to_one(pa: tuple[int, ...], pb: tuple[int, ...], na: int,
                                          nb: int, la: bool, lb: bool,
                                          options: SkillOptions) -> None:
    a, b = Contestant("A", pa, na, la), Contestant("B", pb, nb, lb)
    odds = opposed_odds(a, b, options)
    assert sum(odds.a.successes.values()) == 1 == sum(odds.b.successes.values())
    assert odds.p_a_wins + odds.p_b_wins + odds.p_standoff == 1
    assert sum(odds.decisions.values()) == 1
    mirror = opposed_odds(b, a, options)
    assert (mirror.p_a_wins, mirror.p_b_wins) == (odds.p_b_wins, odds.p_a_wins)


@settings(max_examples=scaled(60), deadline=None)
@given(pa=POOLS, pb=POOLS, na=st.integers(0, 11), nb=st.integers(0, 12))
def test_a_higher_skill_never_lowers_the_chance_to_win(pa: tuple[int, ...],
                                                      pb: tuple[int, ...], na: int,
                                                      nb: int) -> None:
    """S0 §Skills (the skill number against the opponent's), RULES-NOTES A opposed table: monotone in skill."""
    b = Contestant("B", pb, nb)
    lower = opposed_odds(Contestant("A", pa, na), b, SEED)
    higher = opposed_odds(Contestant("A", pa, na + 1), b, SEED)
    assert higher.p_a_wins >= lower.p_a_wins


@settings(max_examples=scaled(100), deadline=None)
@given(pool=POOLS, number=st.integers(-2, 14), bonus=st.integers(-2, 4),
       options=st.sampled_from(MODES))
def test_unopposed_distribution_sums_to_one(pool: tuple[int, ...], number: int, bonus: int,
                                            options: SkillOptions) -> None:
    o = unopposed_odds(pool, number, options, bonus=bonus)
    assert sum(o.successes.values()) == 1
    assert set(o.successes) == set(range(len(pool) + 1))
    assert o.p_pass + o.p_crit_fail <= 1


# --- simulation --------------------------------------------------------------


def _simulate(a: Contestant, b: Contestant, options: SkillOptions, n: int, seed: int
              ) -> tuple[float, float, float]:
    dice = RandomDice(rng=random.Random(seed))
    wins = [0, 0]
    crit_a = 0
    for _ in range(n):
        r = opposed_test(a, b, dice, options)
        if r.winner is not None:
            wins[r.winner] += 1
        crit_a += r.a.crit_success
    return wins[0] / n, wins[1] / n, crit_a / n


def _close(exact: Fraction, observed: float, n: int) -> bool:
    p = float(exact)
    sigma = math.sqrt(max(p * (1 - p), 1e-9) / n)
    return abs(observed - p) <= 4.5 * sigma + 1e-3


def test_opposed_odds_agree_with_large_seeded_simulation() -> None:
    """Master (upgraded) against Legendary with two d20s, 12 000 seeded rounds."""
    a = Contestant("A", level_pool(Level.MASTER, 1), 7, tiebreaks=(("CC", 4),))
    b = Contestant("B", level_pool(Level.LEGENDARY, 2), 6, legendary=True,
                   tiebreaks=(("CC", 4),))
    n = 12_000
    odds = opposed_odds(a, b, SEED)
    wa, wb, ca = _simulate(a, b, SEED, n, seed=1234)
    assert _close(odds.p_a_wins, wa, n)
    assert _close(odds.p_b_wins, wb, n)
    assert _close(odds.a.p_crit_success, ca, n)


@settings(max_examples=scaled(6), deadline=None)
@given(pa=POOLS, pb=POOLS, na=st.integers(0, 12), nb=st.integers(0, 12),
       lb=st.booleans(), options=st.sampled_from(MODES), seed=st.integers(0, 10**6))
def test_opposed_odds_agree_with_simulation_property(pa: tuple[int, ...], pb: tuple[int, ...],
                                                     na: int, nb: int, lb: bool,
                                                     options: SkillOptions, seed: int) -> None:
    a, b = Contestant("A", pa, na), Contestant("B", pb, nb, lb)
    n = 2000
    odds = opposed_odds(a, b, options)
    wa, wb, ca = _simulate(a, b, options, n, seed)
    assert _close(odds.p_a_wins, wa, n)
    assert _close(odds.p_b_wins, wb, n)
    assert _close(odds.a.p_crit_success, ca, n)


# --- histogram -----------------------------------------------------------------


def test_histogram_lines_scale_to_the_likeliest_count() -> None:
    dist = {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
    text = render_histogram(dist, width=8)
    assert text.splitlines() == [
        "0 ████      25.0%",
        "1 ████████  50.0%",
        "2 ████      25.0%",
    ]


def test_histogram_ascii_and_tiny_bars() -> None:
    dist = {0: Fraction(999, 1000), 1: Fraction(1, 1000), 10: Fraction(0)}
    lines = render_histogram(dist, width=10, ascii=True).splitlines()
    assert lines[0] == " 0 ##########  99.9%"
    assert lines[1] == " 1 #            0.1%"
    assert lines[2] == "10              0.0%"
    assert all(ch in "# .%0123456789" for line in lines for ch in line)


def test_percent_formats_extremes() -> None:
    assert percent(Fraction(1, 3)) == "33.3%"
    assert percent(Fraction(1, 100000)) == "<0.1%"
    assert percent(Fraction(99999, 100000)) == ">99.9%"
    assert percent(Fraction(0)) == "0.0%"
    assert percent(Fraction(1)) == "100.0%"


@pytest.mark.parametrize(("p", "shown"), [
    (Fraction(1, 2000), "0.1%"),        # 0.05%: rounds up to a real 0.1%
    (Fraction(1, 2001), "<0.1%"),       # just under: not "0.0%", it can happen
    (Fraction(1999, 2000), ">99.9%"),   # 99.95%: not "100.0%", it can fail
    (Fraction(1998, 2000), "99.9%"),
    (Fraction(2000, 2001), ">99.9%"),
])
def test_percent_never_shows_a_possible_outcome_as_nil_or_certain(p: Fraction,
                                                                  shown: str) -> None:
    """The odds shown before a roll (S0 §Skills): 0.0% and 100.0% only when so."""
    assert percent(p) == shown


def test_histogram_of_no_counts_is_empty() -> None:
    """The success-count histogram beside the odds (S0 §Skills): no counts, no lines."""
    assert render_histogram({}) == ""


def test_histogram_bars_scale_to_the_likeliest_count_twenty_cells_wide() -> None:
    """The success-count histogram beside the odds (S0 §Skills): the likeliest
    count fills the default 20 cells, the others in proportion; a distribution
    with nothing likely draws no bar at all."""
    lines = render_histogram({0: Fraction(1, 4), 1: Fraction(3, 4)}, ascii=True).splitlines()
    assert lines == ["0 #######               25.0%", "1 ####################  75.0%"]
    empty = render_histogram({0: Fraction(0), 1: Fraction(0)}, ascii=True)
    assert "#" not in empty and empty.splitlines()[0] == "0                        0.0%"
