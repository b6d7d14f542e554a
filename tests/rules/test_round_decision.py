"""Who wins the round: S0 §Close combat 4, branch by branch, as a table.

Every row is worked by hand from the seed (S0 §Skills, §Close combat 4) and
RULES-NOTES A (``opposed`` 7 + difference, ``challenging`` 9 − difference) and
checked twice: against the engine (``opposed_test`` with the faces given) and
against ``seed_reference`` (written from the seed, sharing no rule step with
the engine). Equal skills of 5 need 7+ on each die.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from ka_tui.rules.core.skill_tests import Contestant, opposed_test
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.core.options import CritCancel, CritFailRule, SkillOptions

from . import seed_reference as ref

SEED = SkillOptions()
SPENT_WINS = SkillOptions(spent_crit_wins=True)
CRIT_ONLY = SkillOptions(crit_cancel=CritCancel.CRIT_ONLY)
ALL_ONES = SkillOptions(crit_fail_rule=CritFailRule.ALL_ONES)
D10x2 = (10, 10)


@dataclass(frozen=True)
class Row:
    id: str
    a: ref.Side
    b: ref.Side
    faces_a: tuple[int, ...]
    faces_b: tuple[int, ...]
    winner: int | None
    how: str
    options: SkillOptions = SEED
    rolloff: tuple[int, ...] = field(default=())


def side(pool: tuple[int, ...] = D10x2, number: int = 5, **kw: object) -> ref.Side:
    return ref.Side(pool, number, **kw)  # type: ignore[arg-type]


ROWS = [
    # both pass: "highest number of successes"; draws: Close Combat, Agility, d12
    Row("both_pass_more_successes", side(), side(), (7, 8), (7, 2), 0, "more successes"),
    Row("draw_close_combat", side(close_combat=6, agility=1), side(close_combat=4, agility=9),
        (7, 2), (8, 3), 0, "tie-break"),
    Row("draw_agility", side(close_combat=5, agility=3), side(close_combat=5, agility=4),
        (7, 2), (8, 3), 1, "tie-break"),
    Row("draw_roll_off_ties_rerolled", side(close_combat=5, agility=4),
        side(close_combat=5, agility=4), (7, 2), (8, 3), 1, "d12 roll-off",
        rolloff=(5, 5, 3, 9)),
    # "If Opposed test is failed": the side that passed wins; both failed: stand-off
    Row("only_a_passed", side(), side(), (7, 2), (2, 3), 0, "only one side passed"),
    Row("only_b_passed", side(), side(), (6, 2), (2, 7), 1, "only one side passed"),
    Row("both_failed_stand_off", side(), side(), (2, 3), (4, 6), None, "both failed"),
    # "Don't roll 1": an unnegated 1 loses, whatever the successes
    Row("unnegated_one_loses_to_no_success", side(), side(), (1, 9), (2, 3), 1,
        "critical fail"),
    Row("both_unnegated_ones_stand_off", side(), side(), (1, 8), (9, 1), None,
        "both critical fails"),
    Row("crit_fail_beats_a_live_critical", side(), side(), (10, 3), (1, 9), 0, "critical fail"),
    # "Critical Fail may be negated by ... Critical Success on other dice": spent
    Row("negated_one_spent_crit_no_auto_win", side(), side(), (1, 10), (8, 9), 1,
        "more successes"),
    Row("spent_crit_wins_option", side(), side(), (1, 10), (8, 9), 0, "critical success",
        SPENT_WINS),
    Row("spent_crit_with_an_unnegated_one", side((10, 10, 10)), side((10, 10, 10)),
        (1, 1, 10), (2, 3, 4), 1, "critical fail"),
    Row("spent_crit_with_an_unnegated_one_even_if_spent_wins", side((10, 10, 10)),
        side((10, 10, 10)), (1, 10, 1), (2, 3, 4), 1, "critical fail", SPENT_WINS),
    Row("two_crits_spent_on_two_ones_count_as_successes", side((10, 10, 10, 10)),
        side((10, 10)), (1, 10, 1, 10), (8, 2), 0, "more successes"),
    Row("three_crits_two_ones_one_live_wins", side((10,) * 5), side((10, 10)),
        (1, 10, 1, 10, 10), (8, 9), 0, "critical success"),
    # "Do roll 12 or Critical Success automatically wins round"
    Row("live_crit_beats_more_successes", side(), side(), (10, 2), (8, 9), 0,
        "critical success"),
    Row("both_crit_more_successes", side(), side(), (10, 8), (10, 2), 0, "more successes"),
    Row("both_crit_draw_higher_skill", side(number=6), side(number=5), (10, 2), (10, 3), 0,
        "higher skill"),
    Row("both_crit_draw_skill_not_close_combat", side(number=5, close_combat=1),
        side(number=6, close_combat=9), (10, 2), (10, 3), 1, "higher skill"),
    Row("both_crit_all_equal_roll_off", side(), side(), (10, 2), (10, 3), 0, "d12 roll-off",
        rolloff=(12, 4)),
    # "crits of smaller dice are cancelled by ... successes of larger dice"
    Row("d8_crit_cancelled_by_d10_success", side((8,)), side((10,)), (8,), (7,), 1,
        "only one side passed"),
    Row("d8_crit_cancelled_crit_only_stays_a_success", side((8,)), side((10,)), (8,), (7,),
        0, "d12 roll-off", CRIT_ONLY, rolloff=(2, 1)),
    Row("d10_crit_not_cancelled_by_a_d10", side((10,)), side((10,)), (10,), (9,), 0,
        "critical success"),
    Row("d8_crit_survives_a_failed_d10", side((8,)), side((10,)), (8,), (6,), 0,
        "critical success"),
    # simultaneous: B's d10 cancels A's d8 critical while A's d12 cancels B's d10 one
    Row("cancelling_die_is_itself_cancelled", side((8, 12)), side((10,)), (8, 9), (10,), 0,
        "only one side passed"),
    # options and tables
    Row("all_ones_option_a_single_one_does_not_fail", side(), side(), (1, 9), (2, 3), 0,
        "only one side passed", ALL_ONES),
    Row("all_ones_option_every_die_one", side(), side(), (1, 1), (2, 3), 1, "critical fail",
        ALL_ONES),
    Row("higher_opponent_skill_raises_the_need", side(number=5), side(number=7), (8, 2),
        (5, 2), 1, "only one side passed"),  # A needs 9+, B needs 5+
    Row("legendary_opponent_challenging_table", side((12,), 6), side((12,), 8, legendary=True),
        (10,), (5,), 1, "only one side passed"),  # A: 9 − (6 − 8) = 11+; B: 7 + (6 − 8) = 5+
    Row("passive_bonus_lowers_the_need", side(bonus=2), side(), (5, 2), (6, 2), 0,
        "only one side passed"),
]


def contestant(name: str, s: ref.Side) -> Contestant:
    tb = tuple((n, v) for n, v in (("Close Combat", s.close_combat), ("Agility", s.agility))
               if v is not None)
    return Contestant(name, s.pool, s.number, s.legendary, s.bonus, tb)


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_s0_close_combat_4_round_decision_table(row: Row) -> None:
    dice = ScriptedDice.of([*row.faces_a, *row.faces_b, *row.rolloff])
    r = opposed_test(contestant("A", row.a), contestant("B", row.b), dice, row.options)
    assert (r.winner, r.decided_by.value) == (row.winner, row.how), r.explanation
    assert dice.exhausted
    _, _, d = ref.round_of(row.a, row.b, row.faces_a, row.faces_b, row.options)
    assert d.how == row.how
    assert d.winner == (None if d.rolloff else row.winner)


def test_every_decision_branch_has_a_row() -> None:
    """Every way S0 §Close combat 4 decides a round appears above."""
    from ka_tui.rules.core.skill_tests import Decision
    assert {r.how for r in ROWS} == {d.value for d in Decision}
