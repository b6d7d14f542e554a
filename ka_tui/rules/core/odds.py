"""Exact odds of skill tests, as ``Fraction``s (S0 §Skills, §Close combat 4).

The rules are those of ``checks.py``; the same step functions (``classify``'s
classes, ``cancel_counts``, ``settle``, ``decide``) are applied to counts
instead of faces, so odds and resolution cannot drift apart.

How it stays fast: a die of size s falls into one of four classes (1, fail,
success, maximum), so a side's roll is a multiset of class counts per die
size, weighted by the number of face combinations giving it (integers; the
fractions come at the end). Only the opponent's successes on dice larger than
one's own smallest die can cancel one's criticals, so each side's states are
grouped by that "canceller profile"; a side's standing depends on the other
side only through it. The joint standings are cached per (pools, needs, mode).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import factorial, prod
from typing import NamedTuple

from ka_tui.rules.core.skill_tests import (
    Contestant, Decision, PoolStanding, cancel_counts, decide, opposed_need, settle,
    unopposed_needed,
)
from ka_tui.rules.core.options import CritCancel, CritFailRule, SkillOptions
from ka_tui.rules.core.skills import Pool

SizeCounts = tuple[tuple[int, int], ...]  # ((die size, count), ...) ascending, counts > 0
# A PoolStanding as a plain tuple (successes, crit_fail, crit_success): hashed a lot.
Key = tuple[int, bool, bool]


@dataclass(frozen=True)
class PoolOdds:
    """One side's exact odds. ``successes`` maps every count 0..dice to its
    probability (after cancellation, in an opposed test)."""

    successes: dict[int, Fraction]
    p_pass: Fraction
    p_crit_fail: Fraction
    p_crit_success: Fraction

    @property
    def mean(self) -> Fraction:
        return sum((n * p for n, p in self.successes.items()), Fraction(0))

    def p_at_least(self, k: int) -> Fraction:
        """Chance of ``k`` or more successes (whatever the critical fails)."""
        return sum((p for n, p in self.successes.items() if n >= k), Fraction(0))


@dataclass(frozen=True)
class OpposedOdds:
    """Exact odds of an opposed test. ``p_a_wins``/``p_b_wins`` include the
    d12 roll-off (an even chance, ties re-rolled); ``p_rolloff`` is the chance
    it comes to one; ``decisions`` the chance of each way the round ends."""

    a: PoolOdds
    b: PoolOdds
    p_a_wins: Fraction
    p_b_wins: Fraction
    p_standoff: Fraction
    p_rolloff: Fraction
    decisions: dict[Decision, Fraction]


@dataclass(frozen=True)
class _Mode:
    crit_fail_rule: CritFailRule
    crit_cancel: CritCancel
    spent_crit_wins: bool

    @staticmethod
    def of(options: SkillOptions) -> _Mode:
        return _Mode(options.crit_fail_rule, options.crit_cancel, options.spent_crit_wins)

    def options(self) -> SkillOptions:
        return SkillOptions(crit_fail_rule=self.crit_fail_rule, crit_cancel=self.crit_cancel,
                            spent_crit_wins=self.spent_crit_wins)


class _State(NamedTuple):
    """A side's roll as class counts (before cancellation)."""

    crits: SizeCounts
    successes: SizeCounts  # criticals included
    ones: int


def _class_faces(sides: int, needed: int) -> tuple[int, int]:
    """(faces that succeed, faces that fail) among 2..sides−1 (S0 §Skills)."""
    middle = sides - 2
    succeed = max(0, sides - 1 - max(2, needed) + 1)
    succeed = min(succeed, middle)
    return succeed, middle - succeed


def _compositions(k: int) -> Iterator[tuple[int, int, int, int]]:
    for ones in range(k + 1):
        for crits in range(k - ones + 1):
            for succ in range(k - ones - crits + 1):
                yield ones, crits, succ, k - ones - crits - succ


def _size_outcomes(sides: int, k: int, needed: int) -> list[tuple[int, int, int, int]]:
    """(ones, crits, plain successes, weight) for k dice of one size."""
    s_faces, f_faces = _class_faces(sides, needed)
    out = []
    for ones, crits, succ, fail in _compositions(k):
        ways = factorial(k) // (factorial(ones) * factorial(crits) * factorial(succ)
                                * factorial(fail))
        weight = ways * s_faces ** succ * f_faces ** fail
        if weight:
            out.append((ones, crits, succ, weight))
    return out


@lru_cache(maxsize=256)
def _side_states(pool: Pool, needed: int) -> tuple[tuple[_State, int], ...]:
    """Every distinct class-count state of ``pool`` with its face-combination count."""
    sizes = sorted(set(pool))
    per_size = [_size_outcomes(s, pool.count(s), needed) for s in sizes]
    states: dict[_State, int] = defaultdict(int)
    for combo in product(*per_size):
        crits = tuple((s, c[1]) for s, c in zip(sizes, combo) if c[1])
        succ = tuple((s, c[1] + c[2]) for s, c in zip(sizes, combo) if c[1] + c[2])
        ones = sum(c[0] for c in combo)
        states[_State(crits, succ, ones)] += prod(c[3] for c in combo)
    return tuple(states.items())


def _cancel_loss(crits: SizeCounts, opponent: SizeCounts, needed: int,
                 options: SkillOptions) -> tuple[int, int]:
    """Step 2 on counts: (criticals cancelled, successes lost with them)."""
    if not crits or not opponent:
        return 0, 0
    cancelled = cancel_counts(dict(crits), dict(opponent))
    keeps_success = options.crit_cancel is CritCancel.CRIT_ONLY
    lost = sum(n for size, n in cancelled.items() if not (keeps_success and size >= needed))
    return sum(cancelled.values()), lost


def _key(s: PoolStanding) -> Key:
    return s.successes, s.crit_fail, s.crit_success


def _profile(state: _State, opponent_pool: Pool) -> SizeCounts:
    """The successes of ``state`` that could cancel an opponent's critical."""
    smallest = min(opponent_pool, default=0)
    return tuple((s, n) for s, n in state.successes if s > smallest)


def _conditional(pool: Pool, needed: int, opp_pool: Pool, opp_profiles: list[SizeCounts],
                 options: SkillOptions) -> dict[SizeCounts, dict[SizeCounts, dict[Key, int]]]:
    """own profile → opponent profile → own standing → weight (steps 2–4)."""
    # Only criticals, the canceller profile, the success total and the 1s
    # matter from here on: merge states that agree on them.
    merged: dict[tuple[SizeCounts, SizeCounts, int, int], int] = defaultdict(int)
    for state, weight in _side_states(pool, needed):
        total = sum(n for _, n in state.successes)
        merged[state.crits, _profile(state, opp_pool), total, state.ones] += weight
    dice = len(pool)
    out: dict[SizeCounts, dict[SizeCounts, dict[Key, int]]] = {}
    losses: dict[tuple[SizeCounts, SizeCounts], tuple[int, int]] = {}
    settled: dict[tuple[int, int, int], Key] = {}
    for (crits, mine, total, ones), weight in merged.items():
        by_opp = out.setdefault(mine, {})
        n_crits = sum(n for _, n in crits)
        for opp in opp_profiles:
            loss = losses.get((crits, opp))
            if loss is None:
                loss = losses[crits, opp] = _cancel_loss(crits, opp, needed, options)
            args = (n_crits - loss[0], total - loss[1], ones)
            key = settled.get(args)
            if key is None:
                key = settled[args] = _key(settle(*args, dice, options))
            table = by_opp.setdefault(opp, {})
            table[key] = table.get(key, 0) + weight
    return out


def _profiles(pool: Pool, needed: int, opp_pool: Pool) -> list[SizeCounts]:
    return sorted({_profile(s, opp_pool) for s, _ in _side_states(pool, needed)})


@lru_cache(maxsize=512)
def _joint(pool_a: Pool, need_a: int, pool_b: Pool, need_b: int, mode: _Mode
           ) -> tuple[tuple[Key, Key, int], ...]:
    """Joint standings of both sides with their face-combination counts."""
    options = mode.options()
    prof_a = _profiles(pool_a, need_a, pool_b)
    prof_b = _profiles(pool_b, need_b, pool_a)
    cond_a = _conditional(pool_a, need_a, pool_b, prof_b, options)
    cond_b = _conditional(pool_b, need_b, pool_a, prof_a, options)
    joint: dict[tuple[Key, Key], int] = defaultdict(int)
    for pa, by_b in cond_a.items():
        for pb, table_a in by_b.items():
            table_b = cond_b[pb][pa]
            for sa, wa in table_a.items():
                for sb, wb in table_b.items():
                    joint[sa, sb] += wa * wb
    return tuple((sa, sb, w) for (sa, sb), w in joint.items())


def _pool_odds(weights: Mapping[Key, int], dice: int, total: int) -> PoolOdds:
    counts = dict.fromkeys(range(dice + 1), 0)
    passed = failed = crit = 0
    for (successes, crit_fail, crit_success), w in weights.items():
        counts[successes] += w
        passed += w if successes >= 1 and not crit_fail else 0
        failed += w if crit_fail else 0
        crit += w if crit_success else 0
    return PoolOdds({n: Fraction(w, total) for n, w in counts.items()},
                    Fraction(passed, total), Fraction(failed, total), Fraction(crit, total))


def unopposed_odds(pool: Pool, number: int, options: SkillOptions, *, bonus: int = 0
                   ) -> PoolOdds:
    """Exact odds of ``unopposed_test`` (S0 §Skills: against magic 13)."""
    return _unopposed(pool, unopposed_needed(number, bonus), _Mode.of(options))


@lru_cache(maxsize=512)
def _unopposed(pool: Pool, needed: int, mode: _Mode) -> PoolOdds:
    options = mode.options()
    weights: dict[Key, int] = defaultdict(int)
    for state, w in _side_states(pool, needed):
        crits = sum(n for _, n in state.crits)
        total = sum(n for _, n in state.successes)
        weights[_key(settle(crits, total, state.ones, len(pool), options))] += w
    return _pool_odds(weights, len(pool), prod(pool))


def opposed_odds(a: Contestant, b: Contestant, options: SkillOptions) -> OpposedOdds:
    """Exact odds of ``opposed_test(a, b)`` (S0 §Skills, §Close combat 4).

    The result is cached and shared: treat it as read-only."""
    need_a = opposed_need(a, b, options).face
    need_b = opposed_need(b, a, options).face
    return _opposed(_cache_key(a), _cache_key(b), need_a, need_b, _Mode.of(options))


# (winner 0/1/None, a passed, a critically failed, b passed, b critically failed)
Outcome = tuple[int | None, bool, bool, bool, bool]


def opposed_outcomes(a: Contestant, b: Contestant, options: SkillOptions
                     ) -> dict[Outcome, Fraction]:
    """Exact chance of each way ``opposed_test(a, b)`` ends, by winner and each
    side's pass / critical fail (S0 §Close combat 4); a d12 roll-off counts as
    an even chance. For a preview of the round under each outcome."""
    need_a = opposed_need(a, b, options).face
    need_b = opposed_need(b, a, options).face
    ka, kb = _cache_key(a), _cache_key(b)
    total = prod(a.pool) * prod(b.pool)
    out: dict[Outcome, Fraction] = defaultdict(Fraction)
    for sa, sb, w in _joint(ka.pool, need_a, kb.pool, need_b, _Mode.of(options)):
        st_a, st_b = PoolStanding(*sa, 0), PoolStanding(*sb, 0)
        verdict = decide(st_a, st_b, ka, kb)
        sides = (st_a.passed, st_a.crit_fail, st_b.passed, st_b.crit_fail)
        if verdict.decision is Decision.ROLLOFF:
            for winner in (0, 1):
                out[(winner, *sides)] += Fraction(w, 2 * total)
        else:
            out[(verdict.winner, *sides)] += Fraction(w, total)
    return dict(out)


def _cache_key(c: Contestant) -> Contestant:
    """``c`` without its name, with tuples where a caller may have put lists."""
    return replace(c, name="", pool=tuple(c.pool),
                   tiebreaks=tuple((str(n), int(v)) for n, v in c.tiebreaks))


@lru_cache(maxsize=512)
def _opposed(a: Contestant, b: Contestant, need_a: int, need_b: int, mode: _Mode
             ) -> OpposedOdds:
    joint = _joint(a.pool, need_a, b.pool, need_b, mode)
    total = prod(a.pool) * prod(b.pool)
    side_a: dict[Key, int] = defaultdict(int)
    side_b: dict[Key, int] = defaultdict(int)
    wins = [0, 0]
    decisions: dict[Decision, int] = defaultdict(int)
    for sa, sb, w in joint:
        side_a[sa] += w
        side_b[sb] += w
        verdict = decide(PoolStanding(*sa, 0), PoolStanding(*sb, 0), a, b)
        decisions[verdict.decision] += w
        if verdict.winner is not None:
            wins[verdict.winner] += w
    p_rolloff = Fraction(decisions.get(Decision.ROLLOFF, 0), total)
    standoff = decisions.get(Decision.BOTH_FAILED, 0) + decisions.get(Decision.BOTH_CRIT_FAIL, 0)
    return OpposedOdds(
        a=_pool_odds(side_a, len(a.pool), total),
        b=_pool_odds(side_b, len(b.pool), total),
        p_a_wins=Fraction(wins[0], total) + p_rolloff / 2,
        p_b_wins=Fraction(wins[1], total) + p_rolloff / 2,
        p_standoff=Fraction(standoff, total),
        p_rolloff=p_rolloff,
        decisions={d: Fraction(w, total) for d, w in decisions.items()},
    )


def clear_cache() -> None:
    """Forget cached odds (benchmarks measure cold computation)."""
    _side_states.cache_clear()
    _joint.cache_clear()
    _opposed.cache_clear()
    _unopposed.cache_clear()


def percent(p: Fraction) -> str:
    """``41.3%``, one decimal. A chance that is neither nil nor certain never
    reads as either: what would round to ``0.0%`` shows as ``<0.1%`` and what
    would round to ``100.0%`` (99.95% and up) as ``>99.9%``."""
    text = f"{float(p) * 100:.1f}%"
    if 0 < p and text == "0.0%":
        return "<0.1%"
    if p < 1 and text == "100.0%":
        return ">99.9%"
    return text


def render_histogram(dist: Mapping[int, Fraction], *, width: int = 20, ascii: bool = False
                     ) -> str:
    """A small text histogram of a success-count distribution, one line per
    count: ``2 ████████ 41.3%``. Bars scale to the likeliest count; ``ascii``
    draws them with '#' for terminals without block characters."""
    if not dist:
        return ""
    block = "#" if ascii else "█"
    top = max(dist.values())
    label_w = max(len(str(k)) for k in dist)
    lines = []
    for n in sorted(dist):
        p = dist[n]
        cells = 0 if top == 0 else round(p / top * width)
        if p > 0 and cells == 0:
            cells = 1
        bar = (block * cells).ljust(width)
        lines.append(f"{n:>{label_w}} {bar} {percent(p):>6}")
    return "\n".join(lines)
