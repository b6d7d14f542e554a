"""Skill tests: unopposed (against 13) and opposed (S0 §Skills, §Close combat 4).

How the seed's critical rules combine here (S0 §Skills, RULES-NOTES A); every
step is named in the result's explanation lines:

1. Each die is read on its own. A face equal to the die's maximum is a
   **critical success** and a success whatever it needs. A **1** is a
   **critical fail** and never a success, whatever the skill number or a
   Passive bonus ("Critical Fail is not improved by passive skill"). Any other
   face succeeds when it reaches the face the die needs: ``13 − number −
   bonus`` unopposed, or the ``opposed`` / ``challenging`` table value minus
   the bonus in an opposed test.
2. Opposed only — **smaller dice's criticals** ("Critical successes of smaller
   dice are canceled by normal and Critical successes of larger dice"): each
   critical on a die of size s is cancelled by one opponent success on a die
   of size > s, one for one, as many as possible, judged on both pools as
   rolled (simultaneously: a die that cancels may itself be cancelled). With
   ``crit_cancel = negate_die`` (default, "beaten and negated") the cancelled
   die counts for nothing: no success, no critical. With ``crit_only`` it only
   loses its critical status and is a success if its face reached the need.
3. **Critical fails** (``crit_fail_rule = seed``): each remaining critical
   success negates one critical fail on another die of the same pool and still
   counts as a success, but is spent: it no longer wins automatically (unless
   ``spent_crit_wins``). An unnegated critical fail fails the test.
   ``all_ones``: the test critically fails only when every die shows 1.
4. The test **passes** with at least one success and no critical fail.
5. Opposed round (S0 §Close combat 4): a critical fail loses automatically
   (both: stand-off); otherwise a live critical wins automatically (both:
   more successes, then higher skill, then a d12 roll-off); otherwise the
   side that passed wins; both passed: more successes, then the tie-breaks
   in order (Close Combat, Agility), then a d12 roll-off (ties re-rolled);
   both failed: stand-off, nobody wins.

Opposed tests against a Legendary skill use the ``challenging`` table
(S0 §Skills level L). When both skills are Legendary, both sides use it: each
is an opposed test against a Legendary skill.

Dice are drawn in order: side A's pool, side B's pool, then roll-off pairs
(A's d12, B's d12) until they differ.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from ka_tui.rules.core.dice import Dice, DiceError
from ka_tui.rules.core.options import CritCancel, CritFailRule, SkillOptions, table_lookup
from ka_tui.rules.core.skills import MAGIC_13, Pool, pool_text

SRC_SKILLS = "S0 §Skills"
SRC_ROUND = "S0 §Close combat 4"
SRC_NOTES = "RULES-NOTES A"
ROLLOFF_DIE = 12
_MAX_ROLLOFFS = 1000


class DieClass(str, Enum):
    """What a single die shows before any cancellation (step 1)."""

    CRIT_FAIL = "crit_fail"
    FAIL = "fail"
    SUCCESS = "success"
    CRIT_SUCCESS = "crit_success"


def classify(sides: int, face: int, needed: int) -> DieClass:
    """Step 1: a die's class from its face (S0 §Skills)."""
    if face == 1:
        return DieClass.CRIT_FAIL
    if face == sides:
        return DieClass.CRIT_SUCCESS
    return DieClass.SUCCESS if face >= needed else DieClass.FAIL


def reach_note(pool: Pool, needed: int) -> str:
    """A note for the GM when some dice can only succeed on a critical, or
    when every face but a 1 succeeds (S0 §Skills)."""
    out_of_reach = sorted({s for s in pool if needed >= s})
    if out_of_reach:
        sizes = ", ".join(f"d{s} on a {s}" for s in out_of_reach)
        return f"; only a critical can succeed ({sizes})"
    if needed <= 2:
        return "; every face but a 1 succeeds"
    return ""


def unopposed_needed(number: int, bonus: int = 0) -> int:
    """Face each die needs against magic 13 (S0 §Skills, RULES-NOTES A)."""
    return MAGIC_13 - number - bonus


@dataclass(frozen=True)
class Need:
    """The face one side's dice need in an opposed test, and why."""

    face: int
    table: str  # "opposed" or "challenging"
    key: int    # the difference looked up
    table_value: int

    def render(self, bonus: int) -> str:
        if self.table == "challenging":
            how = f"challenging table, own − opponent's skill = {self.key:+d} → {self.table_value}"
            src = f"{SRC_SKILLS} Legendary; {SRC_NOTES} table `challenging`"
        else:
            how = f"opposed table, opponent's − own skill = {self.key:+d} → {self.table_value}"
            src = f"{SRC_ROUND}; {SRC_NOTES} table `opposed`"
        if bonus:
            how += f", bonus {bonus:+d}"
        return f"needs {self.face}+ on each die ({how}; {src})"


@dataclass(frozen=True)
class Contestant:
    """One side of an opposed test.

    ``bonus`` is added to each die (a Passive skill, S0 §Skills). ``tiebreaks``
    are (name, value) pairs compared in order when both sides pass with equal
    successes (S0 §Close combat 4: Close Combat skill, then Agility); only
    names both sides list are compared.
    """

    name: str
    pool: Pool
    number: int
    legendary: bool = False
    bonus: int = 0
    tiebreaks: tuple[tuple[str, int], ...] = ()


def opposed_need(own: Contestant, opponent: Contestant, options: SkillOptions) -> Need:
    """Face ``own``'s dice need against ``opponent`` (S0 §Skills, RULES-NOTES A).

    Against a Legendary skill: ``challenging`` table keyed by own − opponent's
    number. Otherwise: ``opposed`` table keyed by opponent's − own number.
    """
    if opponent.legendary:
        key = own.number - opponent.number
        value = table_lookup(options.challenging_table, key)
        return Need(value - own.bonus, "challenging", key, value)
    key = opponent.number - own.number
    value = table_lookup(options.opposed_table, key)
    return Need(value - own.bonus, "opposed", key, value)


# --- the rule steps on counts, shared with odds.py ------------------------


def cancel_counts(crits: Mapping[int, int], opponent_successes: Mapping[int, int]
                  ) -> dict[int, int]:
    """Step 2: how many criticals of each die size the opponent cancels.

    Each critical on a d(s) is cancelled by one opponent success on a die
    larger than s (S0 §Skills; RULES-NOTES A), as many as possible: larger
    criticals are matched first, each with any unused larger success.
    """
    larger_first = sorted(opponent_successes, reverse=True)
    available = 0
    nxt = 0
    out: dict[int, int] = {}
    for size in sorted(crits, reverse=True):
        while nxt < len(larger_first) and larger_first[nxt] > size:
            available += opponent_successes[larger_first[nxt]]
            nxt += 1
        k = min(crits[size], available)
        available -= k
        if k:
            out[size] = k
    return out


@dataclass(frozen=True)
class PoolStanding:
    """A side's test after steps 2–4: all the opposed round looks at."""

    successes: int
    crit_fail: bool
    crit_success: bool  # a live critical: wins an opposed round automatically
    negated: int        # critical fails negated (= criticals spent)

    @property
    def passed(self) -> bool:
        return self.successes >= 1 and not self.crit_fail


def settle(crits: int, successes: int, ones: int, dice: int, options: SkillOptions
           ) -> PoolStanding:
    """Steps 3–4 (S0 §Skills, RULES-NOTES A) on counts: ``crits`` live criticals, ``successes`` in all
    (criticals included), ``ones`` faces of 1, out of ``dice`` dice."""
    if options.crit_fail_rule is CritFailRule.ALL_ONES:
        return PoolStanding(successes, dice > 0 and ones == dice, crits > 0, 0)
    negated = min(crits, ones)
    live = crits > 0 if options.spent_crit_wins else crits > negated
    return PoolStanding(successes, ones > negated, live, negated)


class Decision(str, Enum):
    """How an opposed round was decided (S0 §Close combat 4)."""

    CRIT_FAIL = "critical fail"
    BOTH_CRIT_FAIL = "both critical fails"
    CRITICAL = "critical success"
    SUCCESSES = "more successes"
    SKILL = "higher skill"
    TIEBREAK = "tie-break"
    ONLY_PASSED = "only one side passed"
    BOTH_FAILED = "both failed"
    ROLLOFF = "d12 roll-off"


@dataclass(frozen=True)
class Verdict:
    """Winner 0 (side A) or 1 (side B); None with ROLLOFF means a roll-off
    decides, None otherwise means a stand-off. ``detail`` names what decided."""

    winner: int | None
    decision: Decision
    detail: str = ""


def _compare(a: int, b: int) -> int | None:
    return None if a == b else (0 if a > b else 1)


def _tiebreak(a: Contestant, b: Contestant) -> Verdict | None:
    theirs = dict(b.tiebreaks)
    for name, value in a.tiebreaks:
        if name in theirs:
            w = _compare(value, theirs[name])
            if w is not None:
                return Verdict(w, Decision.TIEBREAK, f"higher {name} ({value} vs {theirs[name]})")
    return None


def decide(sa: PoolStanding, sb: PoolStanding, a: Contestant, b: Contestant) -> Verdict:
    """Step 5: who wins the opposed round (S0 §Close combat 4)."""
    if sa.crit_fail and sb.crit_fail:
        return Verdict(None, Decision.BOTH_CRIT_FAIL)
    if sa.crit_fail or sb.crit_fail:
        return Verdict(1 if sa.crit_fail else 0, Decision.CRIT_FAIL)
    if sa.crit_success != sb.crit_success:
        return Verdict(0 if sa.crit_success else 1, Decision.CRITICAL)
    if sa.crit_success:
        w = _compare(sa.successes, sb.successes)
        if w is not None:
            return Verdict(w, Decision.SUCCESSES, "both critical")
        w = _compare(a.number, b.number)
        if w is not None:
            return Verdict(w, Decision.SKILL, f"{a.number} vs {b.number}")
        return Verdict(None, Decision.ROLLOFF)
    if sa.passed != sb.passed:
        return Verdict(0 if sa.passed else 1, Decision.ONLY_PASSED)
    if not sa.passed:
        return Verdict(None, Decision.BOTH_FAILED)
    w = _compare(sa.successes, sb.successes)
    if w is not None:
        return Verdict(w, Decision.SUCCESSES)
    return _tiebreak(a, b) or Verdict(None, Decision.ROLLOFF)


# --- result objects ---------------------------------------------------------


@dataclass(frozen=True)
class DieResult:
    """One die of a test. ``crit_success``/``crit_fail`` are as rolled (max
    face / a 1); ``negated_by`` (a 1's) and ``cancelled_by`` (a critical's)
    tell what undid them; ``spent`` marks a critical that negated a 1."""

    sides: int
    face: int
    needed: int
    success: bool
    crit_success: bool
    crit_fail: bool
    negated_by: int | None = None   # index of the own die whose critical negated this 1
    cancelled_by: int | None = None  # index of the opponent's die that cancelled this critical
    spent: bool = False

    @property
    def live_crit(self) -> bool:
        return self.crit_success and self.cancelled_by is None and not self.spent

    def render(self) -> str:
        """E.g. ``d10: 7 success (needs 6+)``."""
        head = f"d{self.sides}: {self.face}"
        if self.crit_fail:
            if self.negated_by is not None:
                return f"{head} critical fail, negated by die {self.negated_by + 1}"
            return f"{head} critical fail"
        if self.crit_success:
            if self.cancelled_by is not None:
                tail = "success" if self.success else "no success"
                return f"{head} critical cancelled ({tail})"
            if self.spent:
                return f"{head} critical success, spent negating a 1"
            return f"{head} critical success"
        verdict = "success" if self.success else "fail"
        return f"{head} {verdict} (needs {self.needed}+)"


@dataclass(frozen=True)
class TestResult:
    """A side's test: every die, the counts, and lines explaining it."""

    __test__: ClassVar[bool] = False  # not a pytest class

    dice: tuple[DieResult, ...]
    successes: int
    passed: bool
    crit_fail: bool
    crit_success: bool
    explanation: tuple[str, ...]

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(d.face for d in self.dice)

    @property
    def pool(self) -> Pool:
        return tuple(d.sides for d in self.dice)


@dataclass(frozen=True)
class OpposedResult:
    """An opposed test. ``winner`` is 0 (a), 1 (b) or None (stand-off)."""

    a: TestResult
    b: TestResult
    winner: int | None
    decided_by: Decision
    rolloff: tuple[tuple[int, int], ...]
    explanation: tuple[str, ...]

    def winner_name(self, a: Contestant, b: Contestant) -> str | None:
        return None if self.winner is None else (a.name, b.name)[self.winner]


# --- resolution -------------------------------------------------------------


def roll_pool(pool: Pool, dice: Dice) -> tuple[int, ...]:
    """One face per die of ``pool``, in order."""
    return tuple(dice.roll(sides) for sides in pool)


def _validate(pool: Pool, faces: Sequence[int]) -> None:
    if len(faces) != len(pool):
        raise DiceError(f"{len(pool)} faces expected for {pool_text(pool)}, got {len(faces)}")
    for sides, face in zip(pool, faces):
        if not 1 <= face <= sides:
            raise DiceError(f"{face} is not a face of a d{sides}")


def _pair_cancellations(own: Sequence[DieClass], own_pool: Pool,
                        opp: Sequence[DieClass], opp_pool: Pool) -> dict[int, int]:
    """Step 2 on dice: own critical index → opponent die index cancelling it.

    Same matching as ``cancel_counts``: larger criticals first, each taking
    the smallest unused opponent success on a larger die.
    """
    crits = sorted((i for i, c in enumerate(own) if c is DieClass.CRIT_SUCCESS),
                   key=lambda i: (-own_pool[i], i))
    free = sorted((j for j, c in enumerate(opp)
                   if c in (DieClass.SUCCESS, DieClass.CRIT_SUCCESS)),
                  key=lambda j: (opp_pool[j], j))
    out: dict[int, int] = {}
    for i in crits:
        for j in free:
            if opp_pool[j] > own_pool[i]:
                out[i] = j
                free.remove(j)
                break
    return out


def _side_result(label: str, pool: Pool, faces: Sequence[int], needed: int,
                 classes: Sequence[DieClass], cancelled: Mapping[int, int],
                 options: SkillOptions, head: str, opp_pool: Pool = ()) -> TestResult:
    crit_only = options.crit_cancel is CritCancel.CRIT_ONLY
    success = []
    for i, c in enumerate(classes):
        if i in cancelled:
            success.append(crit_only and faces[i] >= needed)
        else:
            success.append(c in (DieClass.SUCCESS, DieClass.CRIT_SUCCESS))
    live = [i for i, c in enumerate(classes)
            if c is DieClass.CRIT_SUCCESS and i not in cancelled]
    ones = [i for i, c in enumerate(classes) if c is DieClass.CRIT_FAIL]
    standing = settle(len(live), sum(success), len(ones), len(pool), options)
    seed_rule = options.crit_fail_rule is CritFailRule.SEED
    negated_by = dict(zip(ones, live)) if seed_rule else {}
    spent = set(negated_by.values())
    dice = tuple(
        DieResult(sides, face, needed, success[i], classes[i] is DieClass.CRIT_SUCCESS,
                  classes[i] is DieClass.CRIT_FAIL, negated_by.get(i), cancelled.get(i),
                  i in spent)
        for i, (sides, face) in enumerate(zip(pool, faces)))
    lines = [f"{label}: {head}"]
    lines += [f"  {d.render()}" for d in dice]
    lines += _crit_lines(label, dice, opp_pool, options)
    lines.append(_summary_line(label, standing, options))
    return TestResult(dice, standing.successes, standing.passed, standing.crit_fail,
                      standing.crit_success, tuple(lines))


def _crit_lines(label: str, dice: Sequence[DieResult], opp_pool: Pool,
                options: SkillOptions) -> list[str]:
    lines = []
    for i, d in enumerate(dice):
        if d.cancelled_by is not None:
            j = d.cancelled_by
            effect = ("it counts for nothing" if options.crit_cancel is CritCancel.NEGATE_DIE
                      else "it is no longer critical")
            lines.append(
                f"{label}: critical {d.face} on d{d.sides} (die {i + 1}) is cancelled by the "
                f"opponent's success on a larger d{opp_pool[j]} (die {j + 1}); {effect} "
                f"({SRC_SKILLS}; house rule crit_cancel={options.crit_cancel.value})")
        if d.negated_by is not None:
            k = d.negated_by
            win = ("and still wins automatically" if options.spent_crit_wins
                   else "and no longer wins automatically")
            lines.append(
                f"{label}: the 1 on die {i + 1} is negated by the critical on die {k + 1}, "
                f"which stays a success {win} ({SRC_ROUND}; {SRC_NOTES} crit_fail_rule=seed, "
                f"spent_crit_wins={'on' if options.spent_crit_wins else 'off'})")
    return lines


def _summary_line(label: str, s: PoolStanding, options: SkillOptions) -> str:
    count = f"{s.successes} success{'es' if s.successes != 1 else ''}"
    if s.crit_fail:
        why = ("every die shows 1" if options.crit_fail_rule is CritFailRule.ALL_ONES
               else "a 1 no critical success negated")
        return (f"{label}: {count}, CRITICAL FAIL ({why}) — the test fails "
                f"({SRC_SKILLS}; {SRC_NOTES} crit_fail_rule={options.crit_fail_rule.value})")
    verdict = "passed" if s.passed else "failed (no success)"
    crit = ", critical success" if s.crit_success else ""
    return f"{label}: {count}{crit} — {verdict} ({SRC_NOTES}: passes with 1+ success)"


def unopposed_test(pool: Pool, number: int, dice: Dice, options: SkillOptions, *,
                   bonus: int = 0, label: str = "Test") -> TestResult:
    """An unopposed test against magic 13 (S0 §Skills; RULES-NOTES A).

    Each die succeeds when ``face + number + bonus ≥ 13``; criticals and 1s
    as in the module docstring (no cancellation: nobody opposes).
    """
    faces = roll_pool(pool, dice)
    _validate(pool, faces)
    needed = unopposed_needed(number, bonus)
    classes = [classify(s, f, needed) for s, f in zip(pool, faces)]
    bonus_text = f" + bonus {bonus}" if bonus else ""
    head = (f"{pool_text(pool)} @{number}{bonus_text} against 13: needs {needed}+ on each die "
            f"(13 − {number}{' − ' + str(bonus) if bonus else ''}; {SRC_SKILLS}, {SRC_NOTES})"
            f"{reach_note(pool, needed)}")
    return _side_result(label, pool, faces, needed, classes, {}, options, head)


def opposed_test(a: Contestant, b: Contestant, dice: Dice, options: SkillOptions
                 ) -> OpposedResult:
    """An opposed test between ``a`` and ``b`` (S0 §Skills, §Close combat 4;
    RULES-NOTES A tables). See the module docstring for the order of steps."""
    faces_a = roll_pool(a.pool, dice)
    faces_b = roll_pool(b.pool, dice)
    _validate(a.pool, faces_a)
    _validate(b.pool, faces_b)
    need_a, need_b = opposed_need(a, b, options), opposed_need(b, a, options)
    cls_a = [classify(s, f, need_a.face) for s, f in zip(a.pool, faces_a)]
    cls_b = [classify(s, f, need_b.face) for s, f in zip(b.pool, faces_b)]
    cancel_a = _pair_cancellations(cls_a, a.pool, cls_b, b.pool)
    cancel_b = _pair_cancellations(cls_b, b.pool, cls_a, a.pool)
    ra = _side_result(a.name, a.pool, faces_a, need_a.face, cls_a, cancel_a, options,
                      f"{pool_text(a.pool)} @{a.number} {need_a.render(a.bonus)}"
                      f"{reach_note(a.pool, need_a.face)}", b.pool)
    rb = _side_result(b.name, b.pool, faces_b, need_b.face, cls_b, cancel_b, options,
                      f"{pool_text(b.pool)} @{b.number} {need_b.render(b.bonus)}"
                      f"{reach_note(b.pool, need_b.face)}", a.pool)
    sa = PoolStanding(ra.successes, ra.crit_fail, ra.crit_success, 0)
    sb = PoolStanding(rb.successes, rb.crit_fail, rb.crit_success, 0)
    verdict = decide(sa, sb, a, b)
    rolloff: list[tuple[int, int]] = []
    winner = verdict.winner
    if verdict.decision is Decision.ROLLOFF:
        winner = _roll_off(dice, rolloff)
    lines = [*ra.explanation, *rb.explanation,
             _verdict_line(verdict, winner, a, b, rolloff, sa, sb)]
    return OpposedResult(ra, rb, winner, verdict.decision, tuple(rolloff), tuple(lines))


def _roll_off(dice: Dice, record: list[tuple[int, int]]) -> int:
    """S0 §Close combat 4: "roll off d12. Highest result wins" (ties re-rolled)."""
    for _ in range(_MAX_ROLLOFFS):
        pair = (dice.roll(ROLLOFF_DIE), dice.roll(ROLLOFF_DIE))
        record.append(pair)
        if pair[0] != pair[1]:
            return 0 if pair[0] > pair[1] else 1
    raise DiceError("the d12 roll-off never broke the tie")


def _verdict_line(v: Verdict, winner: int | None, a: Contestant, b: Contestant,
                  rolloff: Sequence[tuple[int, int]], sa: PoolStanding, sb: PoolStanding) -> str:
    names = (a.name, b.name)
    if winner is None:
        why = ("both critically failed" if v.decision is Decision.BOTH_CRIT_FAIL
               else "neither side scored a success")
        return f"Stand-off: {why}; nobody wins the round ({SRC_ROUND})"
    w, l = names[winner], names[1 - winner]
    if v.decision is Decision.CRIT_FAIL:
        why = f"{l} critically failed, so {w} wins automatically"
    elif v.decision is Decision.CRITICAL:
        why = f"{w}'s critical success wins automatically"
    elif v.decision is Decision.ONLY_PASSED:
        why = f"only {w} passed"
    elif v.decision is Decision.SUCCESSES:
        extra = ", both critical" if v.detail else ""
        why = f"more successes ({sa.successes} vs {sb.successes}{extra})"
    elif v.decision is Decision.SKILL:
        why = f"both critical, equal successes; higher skill ({v.detail})"
    elif v.decision is Decision.TIEBREAK:
        why = f"equal successes ({sa.successes}); {v.detail}"
    else:
        rolls = ", ".join(f"{x}–{y}" for x, y in rolloff)
        why = f"a tie all the way; d12 roll-off {rolls}"
    return f"{w} wins: {why} ({SRC_ROUND})"


def lore_bonus(result: TestResult, options: SkillOptions) -> int:
    """The bonus a passed Lore test gives an ally's next related test: +1 per
    success (S0 §Skills: Lore's "effects usually benefit others"; RULES-NOTES A
    option ``lore_share_bonus``). 0 when the option is off or the test failed."""
    if not options.lore_share_bonus or not result.passed:
        return 0
    return result.successes
