"""An opposed test and round decision written from the seed text (no tests here).

S0 §Skills, S0 §Close combat 4 and RULES-NOTES A, read die by die. This module
imports nothing from ``ka_tui.rules.core.skill_tests`` or ``ka_tui.rules.core.odds``: it is
the reference those are checked against, so a rules bug cannot move
both sides together. Only the option *values* (``SkillOptions``) are shared.

Readings the seed leaves open follow the named options (RULES-NOTES A):
``crit_cancel``, ``crit_fail_rule``, ``spent_crit_wins``. Which of several
criticals an opponent's larger success cancels only matters with
``crit_cancel = crit_only``; there the larger critical goes first (the
engine's documented reading, ``core/skill_tests.py`` step 2).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ka_tui.rules.core.options import CritCancel, CritFailRule, SkillOptions


@dataclass(frozen=True)
class Side:
    """One contestant as the seed describes it."""

    pool: tuple[int, ...]
    number: int
    legendary: bool = False
    bonus: int = 0
    close_combat: int | None = None   # S0 §Close combat 4 tie-breaks
    agility: int | None = None


def need(own: Side, opp: Side) -> int:
    """RULES-NOTES A: ``opposed`` face ≥ 7 + (opponent − own), never below 2;
    against a Legendary skill ``challenging`` 9 − (own − opponent), never below
    2; a Passive bonus lowers the face (S0 §Skills)."""
    if opp.legendary:
        base = max(2, 9 - (own.number - opp.number))
    else:
        base = max(2, 7 + (opp.number - own.number))
    return base - own.bonus


@dataclass(frozen=True)
class Outcome:
    successes: int
    crit_fail: bool      # an unnegated 1 (or, all_ones: every die a 1)
    live_crit: bool      # a critical that still wins automatically

    @property
    def passed(self) -> bool:
        return self.successes >= 1 and not self.crit_fail


def _succeeds(sides: int, face: int, needed: int) -> bool:
    """S0 §Skills: a 1 never succeeds; the die's maximum always does."""
    return face != 1 and (face == sides or face >= needed)


def side_outcome(pool: Sequence[int], faces: Sequence[int], needed: int,
                 opp_pool: Sequence[int], opp_faces: Sequence[int], opp_needed: int,
                 options: SkillOptions) -> Outcome:
    """One side, die by die, after the opponent's larger dice have had their say."""
    crit = [f == s for s, f in zip(pool, faces)]
    # "Critical successes of smaller dice are canceled by normal and Critical
    # successes of larger dice": each opponent success (as rolled) on a larger
    # die cancels one of our criticals. Try the larger criticals first.
    opp_success = [j for j, (s, f) in enumerate(zip(opp_pool, opp_faces))
                   if _succeeds(s, f, opp_needed)]
    cancelled: set[int] = set()
    for i in sorted((i for i in range(len(pool)) if crit[i]), key=lambda i: -pool[i]):
        for j in opp_success:
            if opp_pool[j] > pool[i]:
                cancelled.add(i)
                opp_success.remove(j)
                break
    successes = 0
    for i, (s, f) in enumerate(zip(pool, faces)):
        if i in cancelled:
            if options.crit_cancel is CritCancel.CRIT_ONLY and f >= needed:
                successes += 1       # no longer critical, a plain success if it reached
        elif _succeeds(s, f, needed):
            successes += 1
    live = sum(1 for i in range(len(pool)) if crit[i] and i not in cancelled)
    ones = sum(1 for f in faces if f == 1)
    if options.crit_fail_rule is CritFailRule.ALL_ONES:
        return Outcome(successes, ones == len(pool), live > 0)
    # "Critical Fail may be negated by players Critical Success on other dice":
    # one critical per 1; a critical so spent no longer wins automatically.
    spent = min(live, ones)
    still_live = live > 0 if options.spent_crit_wins else live - spent > 0
    return Outcome(successes, ones > spent, still_live)


@dataclass(frozen=True)
class Decision:
    """``winner`` 0 / 1 / None; ``how`` one of the seed's branches;
    ``rolloff`` when only a d12 roll-off can decide."""

    winner: int | None
    how: str
    rolloff: bool = False


def decide(a: Side, b: Side, oa: Outcome, ob: Outcome) -> Decision:
    """S0 §Close combat 4, bullet by bullet."""
    # "Don't roll 1 ... opponent(s) automatically wins the round."
    if oa.crit_fail and ob.crit_fail:
        return Decision(None, "both critical fails")
    if oa.crit_fail:
        return Decision(1, "critical fail")
    if ob.crit_fail:
        return Decision(0, "critical fail")
    # "Do roll 12 or Critical Success automatically wins round. In case of
    # Critical Successes on both sides highest number of successes wins. In
    # case of a draw - highest skill wins. ... roll off d12."
    if oa.live_crit and ob.live_crit:
        if oa.successes != ob.successes:
            return Decision(0 if oa.successes > ob.successes else 1, "more successes")
        if a.number != b.number:
            return Decision(0 if a.number > b.number else 1, "higher skill")
        return Decision(None, "d12 roll-off", rolloff=True)
    if oa.live_crit:
        return Decision(0, "critical success")
    if ob.live_crit:
        return Decision(1, "critical success")
    # "If Opposed test is failed ..." — a side that failed loses to one that passed.
    if oa.passed and not ob.passed:
        return Decision(0, "only one side passed")
    if ob.passed and not oa.passed:
        return Decision(1, "only one side passed")
    if not oa.passed:
        return Decision(None, "both failed")     # RULES-NOTES B: a stand-off
    # "If all combatants successfully pass ... highest number of successes. In
    # case of draw highest Close Combat skill wins. ... Agility ... roll off d12."
    if oa.successes != ob.successes:
        return Decision(0 if oa.successes > ob.successes else 1, "more successes")
    for x, y in ((a.close_combat, b.close_combat), (a.agility, b.agility)):
        if x is not None and y is not None and x != y:
            return Decision(0 if x > y else 1, "tie-break")
    return Decision(None, "d12 roll-off", rolloff=True)


def round_of(a: Side, b: Side, faces_a: Sequence[int], faces_b: Sequence[int],
             options: SkillOptions) -> tuple[Outcome, Outcome, Decision]:
    na, nb = need(a, b), need(b, a)
    oa = side_outcome(a.pool, faces_a, na, b.pool, faces_b, nb, options)
    ob = side_outcome(b.pool, faces_b, nb, a.pool, faces_a, na, options)
    return oa, ob, decide(a, b, oa, ob)


@dataclass(frozen=True)
class Odds:
    p_a_wins: Fraction        # a roll-off counted as even
    p_b_wins: Fraction
    p_standoff: Fraction
    p_rolloff: Fraction
    successes: tuple[dict[int, Fraction], dict[int, Fraction]]
    p_pass: tuple[Fraction, Fraction]
    p_crit_fail: tuple[Fraction, Fraction]
    p_crit_success: tuple[Fraction, Fraction]
    how: dict[str, Fraction]


def enumerate_odds(a: Side, b: Side, options: SkillOptions) -> Odds:
    """Every face of every die, one round each, counted."""
    total = 0
    wins = [Fraction(0), Fraction(0)]
    standoff = rolloff = Fraction(0)
    succ: list[dict[int, Fraction]] = [{n: Fraction(0) for n in range(len(a.pool) + 1)},
                                       {n: Fraction(0) for n in range(len(b.pool) + 1)}]
    passed = [0, 0]
    crit_fail = [0, 0]
    crit = [0, 0]
    how: dict[str, Fraction] = {}
    faces_of = [list(itertools.product(*(range(1, s + 1) for s in p))) for p in (a.pool, b.pool)]
    for fa in faces_of[0]:
        for fb in faces_of[1]:
            total += 1
            oa, ob, d = round_of(a, b, fa, fb, options)
            how[d.how] = how.get(d.how, Fraction(0)) + 1
            if d.rolloff:
                rolloff += 1
            elif d.winner is None:
                standoff += 1
            else:
                wins[d.winner] += 1
            for i, o in enumerate((oa, ob)):
                succ[i][o.successes] += 1
                passed[i] += o.passed
                crit_fail[i] += o.crit_fail
                crit[i] += o.live_crit
    t = Fraction(total)
    return Odds((wins[0] + rolloff / 2) / t, (wins[1] + rolloff / 2) / t, standoff / t,
                rolloff / t, ({n: c / t for n, c in succ[0].items()},
                              {n: c / t for n, c in succ[1].items()}),
                (passed[0] / t, passed[1] / t), (crit_fail[0] / t, crit_fail[1] / t),
                (crit[0] / t, crit[1] / t), {k: v / t for k, v in how.items()})
