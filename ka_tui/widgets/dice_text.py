"""What the dice widgets show, as plain values and text (no Textual).

The roller's model (``screens/roller/model.py``) says *what* to show with
these values, built from the rules core's result objects (``odds.PoolOdds`` /
``OpposedOdds``, ``any_dice.DiceOdds``, ``skill_tests.TestResult`` /
``OpposedResult``); ``dice_panel.OddsView`` and ``DicePanel`` draw them. The
text functions compute no rule: they word what the rules decided.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ka_tui.rules.core.any_dice import DiceExpr, DiceOdds
from ka_tui.rules.core.odds import OpposedOdds, PoolOdds, percent, render_histogram
from ka_tui.rules.core.skill_tests import DieResult, OpposedResult, TestResult
from ka_tui.rules.core.target import TargetNumber

# ------------------------------------------------------------------ the odds


@dataclass(frozen=True)
class OddsNote:
    """Lines that are not odds yet (loading, nothing typed), the first in bold."""

    lines: tuple[str, ...]


@dataclass(frozen=True)
class OddsProblem:
    """Why there are no odds (a pool that cannot be read, a failed load)."""

    text: str


@dataclass(frozen=True)
class SkillOdds:
    """An unopposed skill test (S0 §Skills): each die's need and the odds."""

    needed: int
    pool: tuple[int, ...]
    odds: PoolOdds


@dataclass(frozen=True)
class ContestOdds:
    """An opposed test (S0 §Close combat 4): each side's need and who wins."""

    names: tuple[str, str]
    needs: tuple[int, int]
    pools: tuple[tuple[int, ...], tuple[int, ...]]
    odds: OpposedOdds


@dataclass(frozen=True)
class AnyOdds:
    """Any dice (a total against a target, R-2; a count at a face)."""

    expr: DiceExpr
    odds: DiceOdds
    target: TargetNumber | None = None


OddsShown = OddsNote | OddsProblem | SkillOdds | ContestOdds | AnyOdds


def odds_text(shown: OddsShown, *, ascii: bool = False) -> tuple[list[str], str]:
    """(lines, style of the first line) for ``shown`` (a problem: one line, no style)."""
    if isinstance(shown, OddsNote):
        return list(shown.lines), "bold"
    if isinstance(shown, OddsProblem):
        return [shown.text], ""
    if isinstance(shown, SkillOdds):
        return (unopposed_lines(shown.needed, shown.pool, shown.odds, ascii=ascii),
                f"bold {pass_style(shown.odds.p_pass)}")
    if isinstance(shown, ContestOdds):
        return (opposed_lines(shown.names, shown.needs, shown.pools, shown.odds, ascii=ascii),
                f"bold {pass_style(shown.odds.p_a_wins)}")
    return any_dice_lines(shown.expr, shown.odds, shown.target, ascii=ascii), "bold"


def need_text(needed: int, pool: Sequence[int]) -> str:
    """``needs 8+``; a 1 never succeeds and a maximum always does (S0 §Skills)."""
    if needed <= 2:
        return "needs 2+"
    if pool and needed >= max(pool):
        return "only criticals succeed"
    return f"needs {needed}+"


def unopposed_lines(needed: int, pool: Sequence[int], odds: PoolOdds, *,
                    width: int = 14, ascii: bool = False) -> list[str]:
    """Odds of an unopposed test: target per die, P(pass), crits, histogram."""
    head = f"each die {need_text(needed, pool)} · pass {percent(odds.p_pass)}"
    crits = (f"crit {percent(odds.p_crit_success)} · crit fail {percent(odds.p_crit_fail)}")
    hist = render_histogram(odds.successes, width=width, ascii=ascii).splitlines()
    return [head, crits, *hist]


def _side_by_side(left: list[str], right: list[str], gap: int = 2) -> list[str]:
    w = max((len(x) for x in left), default=0)
    rows = max(len(left), len(right))
    left = left + [""] * (rows - len(left))
    right = right + [""] * (rows - len(right))
    return [f"{a.ljust(w)}{' ' * gap}{b}".rstrip() for a, b in zip(left, right)]


def short_name(name: str, width: int = 10) -> str:
    """``Arthur Hale`` → ``Arthur`` (the odds column is narrow)."""
    first = name.split()[0] if name.split() else name
    return first[:width]


def opposed_lines(names: tuple[str, str], needs: tuple[int, int],
                  pools: tuple[Sequence[int], Sequence[int]], odds: OpposedOdds, *,
                  width: int = 6, ascii: bool = False) -> list[str]:
    """Odds of an opposed test: each side's need, who wins, both histograms."""
    a, b = short_name(names[0]), short_name(names[1])
    if a == b:
        a, b = f"{a[:8]} A", f"{b[:8]} B"
    lines = [f"{a} {need_text(needs[0], pools[0])} · {b} {need_text(needs[1], pools[1])}",
             f"{a} wins {percent(odds.p_a_wins)} · {b} {percent(odds.p_b_wins)}",
             f"stand-off {percent(odds.p_standoff)} · roll-off {percent(odds.p_rolloff)}"]
    cols = []
    for name, side in zip((a, b), (odds.a, odds.b)):
        hist = render_histogram(side.successes, width=width, ascii=ascii).splitlines()
        cols.append([name, *hist])
    return lines + _side_by_side(cols[0], cols[1])


def any_dice_lines(expr: DiceExpr, odds: DiceOdds, target: TargetNumber | None = None, *,
                   width: int = 12, ascii: bool = False) -> list[str]:
    """Odds of any dice: the chance to reach an ``@`` total (R-2), the count
    at a face, or the spread of a plain total; a histogram (totals beyond 13
    rows are grouped at the ends to fit the box)."""
    mean = f"{float(odds.mean):.1f}"
    if odds.counting:
        head = f"{expr.render()} · dice at {expr.face_at_least}+ · mean {mean}"
    elif odds.p_pass is not None:
        head = f"{expr.render()} · pass {percent(odds.p_pass)} · mean {mean}"
    else:
        head = f"{expr.render()} · total {min(odds.dist)}–{max(odds.dist)} · mean {mean}"
    lines = [head]
    if target is not None:
        lines.append(f"target {target.render()}")
    dist = odds.dist
    if len(dist) > 13:  # keep the box readable: the middle 13 rows
        keys = sorted(dist)
        mid = min(range(len(keys)), key=lambda i: -dist[keys[i]])
        lo = max(0, min(mid - 6, len(keys) - 13))
        shown = keys[lo:lo + 13]
        dist = {k: dist[k] for k in shown}
    lines += render_histogram(dist, width=width, ascii=ascii).splitlines()
    return lines


def pass_style(p: Fraction) -> str:
    """A colour for a chance: likely, even-ish, unlikely."""
    if p >= Fraction(2, 3):
        return "$success"
    return "$warning" if p >= Fraction(1, 3) else "$error"


# ---------------------------------------------------------------- the result
#
# ``eq=False``: each value is one showing (a roll, a message), so showing a
# new one repaints the panel even when it reads the same as the last.


@dataclass(frozen=True, eq=False)
class ResultNote:
    """A message in the result panel (what to do, why nothing rolled)."""

    text: str
    title: str = "Result"


@dataclass(frozen=True, eq=False)
class SkillShown:
    """An unopposed test's result (S0 §Skills)."""

    title: str
    who: str
    result: TestResult


@dataclass(frozen=True, eq=False)
class ContestShown:
    """An opposed test's result (S0 §Close combat 4)."""

    title: str
    names: tuple[str, str]
    result: OpposedResult


@dataclass(frozen=True, eq=False)
class LinesShown:
    """A result as words: any dice rolled, a logged roll read back."""

    title: str
    head: str
    lines: tuple[str, ...]


ResultShown = ResultNote | SkillShown | ContestShown | LinesShown


def die_mark(die: DieResult) -> tuple[str, str]:
    """(mark, style) for one die, from what the rules decided about it."""
    if die.crit_fail:
        return ("x", "$text-muted") if die.negated_by is not None else ("X", "bold reverse $error")
    if die.crit_success:
        if die.cancelled_by is not None:
            return "~", "strike $text-muted"
        if die.spent:
            return "*", "bold $success"
        return "!", "bold reverse $success"
    return ("+", "bold $success") if die.success else ("-", "$text-muted")


def verdict_text(result: TestResult) -> tuple[str, str]:
    """(text, style) summing up one side's test."""
    count = f"{result.successes} success{'es' if result.successes != 1 else ''}"
    if result.crit_fail:
        return f"{count}, CRIT FAIL", "bold $error"
    crit = ", critical" if result.crit_success else ""
    if result.passed:
        return f"{count}{crit}: passed", "bold $success"
    return f"{count}: failed", "bold $warning"


def log_summary(result: TestResult) -> str:
    """The log's short result: ``PASS: 2 successes, crit``, ``FAIL: 0 successes``,
    ``CRIT FAIL: 1 success``."""
    n = result.successes
    count = f"{n} success{'es' if n != 1 else ''}"
    if result.crit_fail:
        return f"CRIT FAIL: {count}"
    if result.passed:
        return f"PASS: {count}{', crit' if result.crit_success else ''}"
    return f"FAIL: {count}"


def opposed_summary(result: OpposedResult, names: tuple[str, str]) -> str:
    """``Kay wins (more successes)`` or ``Stand-off (both failed)``."""
    if result.winner is None:
        return f"Stand-off ({result.decided_by.value})"
    return f"{names[result.winner]} wins ({result.decided_by.value})"
