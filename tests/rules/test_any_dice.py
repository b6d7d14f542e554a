"""Any dice: 2d6 checks against a target (R-2), d6 pools
counted against a face (S0 §Firepower/§Evasion, RULES-NOTES D), plain totals."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from ka_tui.rules.core.any_dice import (
    DiceExpr, DiceNotationError, check_expr, count_distribution, dice_odds, parse_dice,
    parse_modifiers, rating_check, roll_dice, total_distribution,
)
from ka_tui.rules.core.dice import RandomDice, ScriptedDice
from ka_tui.rules.core.target import prob_2d6_at_least


@pytest.mark.parametrize("text, expr", [
    ("2d6 @7", DiceExpr(((2, 6),), 0, 7)),
    ("2d6+1 @8", DiceExpr(((2, 6),), 1, 8)),
    ("4d6 ≥4", DiceExpr(((4, 6),), 0, None, 4)),
    ("4d6 >=4", DiceExpr(((4, 6),), 0, None, 4)),
    ("3d10+1d12 @7", DiceExpr(((3, 10), (1, 12)), 0, 7)),
    ("d20-2", DiceExpr(((1, 20),), -2)),
])
def test_parse(text: str, expr: DiceExpr) -> None:
    assert parse_dice(text) == expr


@pytest.mark.parametrize("text, part", [
    ("", "empty"), ("2x6", "not part"), ("2d6 @", "needs a total"), ("2d1", "not a die"), ("2d7", "d7 is not a die"),
    ("+3", "no dice"), ("2d6 @7 @8", "one check"), ("31d6", "at most 30"),
    ("2d6 3", "join terms"), ("3", "a modifier needs a sign"), ("2d6+1 >=4", "does nothing"),
    ("2d6 >=7", "no die"),
])
def test_bad_text_names_the_problem(text: str, part: str) -> None:
    with pytest.raises(DiceNotationError) as err:
        parse_dice(text)
    assert part in str(err.value)


def test_r2_2d6_check_odds_match_the_engine() -> None:
    """R-2: a 2d6 total equal to or greater than the target succeeds; the odds
    agree with ``TargetNumber.probability`` for every target."""
    for target in range(0, 15):
        assert dice_odds(parse_dice(f"2d6 @{target}")).p_pass == prob_2d6_at_least(target)
    assert dice_odds(parse_dice("2d6+1 @8")).p_pass == Fraction(21, 36)  # 2d6 ≥ 7


def test_firepower_pool_counts_dice_at_the_face() -> None:
    """S0 §Firepower: d6 showing 4+ hit (RULES-NOTES D firepower_hit_on)."""
    odds = dice_odds(parse_dice("4d6 >=4"))
    assert odds.counting and odds.dist[4] == Fraction(1, 16) and odds.mean == 2
    rolled = roll_dice(parse_dice("4d6 >=4"), ScriptedDice.of([1, 4, 6, 3]))
    assert rolled.counted == 2 and rolled.passed is None
    assert "2 dice at 4+" in rolled.summary()


def test_roll_with_typed_faces_and_margin() -> None:
    rolled = roll_dice(parse_dice("2d6+1 @8"), ScriptedDice.of([3, 4]))
    assert (rolled.total, rolled.passed) == (8, True)
    assert rolled.summary() == "3+4+1 = 8 vs 8 → success (margin +0)"
    assert rolled.short() == "PASS 8 vs 8 (+0)"


def test_r2_rating_check_names_every_modifier() -> None:
    target = rating_check(5, "Piloting", parse_modifiers("+2 long range, -1 tailing"))
    assert target.value == 6 and check_expr(target) == DiceExpr(((2, 6),), 0, 6)
    assert target.render() == "5 (piloting, R-2) + 2 (long range, GM) - 1 (tailing, GM) = 6"
    with pytest.raises(DiceNotationError):
        parse_modifiers("two, +1 x")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([4, 6, 8, 10, 12, 20]), min_size=1, max_size=5),
       st.integers(-5, 5), st.integers(1, 6))
def test_distributions_sum_to_one_and_rolls_land_inside(dice: list[int], mod: int,
                                                        face: int) -> None:
    dist = total_distribution(tuple(dice), mod)
    assert sum(dist.values()) == 1
    assert min(dist) == len(dice) + mod and max(dist) == sum(dice) + mod
    assert sum(count_distribution(tuple(dice), face).values()) == 1
    expr = DiceExpr(tuple((1, s) for s in dice), mod)
    assert roll_dice(expr, RandomDice(7)).total in dist
