"""Show dice: the odds before a roll and the result after it.

Both widgets only render result objects from the rules core (``odds.PoolOdds``
/ ``OpposedOdds``, ``checks.TestResult`` / ``OpposedResult``); they compute
no rule. Every die is drawn as its face and a mark that reads without colour
(16 colours, ``NO_COLOR``):

``7+`` success · ``3-`` fail · ``10!`` critical success · ``12*`` critical
spent negating a 1 · ``8~`` critical cancelled by a larger die · ``1X``
critical fail · ``1x`` critical fail negated.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from ka_tui.rules.core.any_dice import DiceExpr, DiceOdds
from ka_tui.rules.core.skill_tests import DieResult, OpposedResult, TestResult
from ka_tui.rules.core.target import TargetNumber
from ka_tui.rules.core.odds import OpposedOdds, PoolOdds, percent, render_histogram

LEGEND = ("+ success  - fail  ! critical  * critical spent on a 1  "
          "~ critical cancelled  X critical fail  x negated 1")


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


def dice_content(dice: Sequence[DieResult]) -> Content:
    """``d10 7+  d10 3-  d12 12!`` with a style per die."""
    parts: list[Content | str] = []
    for i, die in enumerate(dice):
        mark, style = die_mark(die)
        if i:
            parts.append("  ")
        parts.append(Content(f"d{die.sides} ").stylize("$text-muted"))
        parts.append(Content(f"{die.face}{mark}").stylize(style))
    return Content.assemble(*parts)


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


class DicePanel(VerticalScroll):
    """The last roll: dice line(s), verdict, and the rules' explanation lines."""

    DEFAULT_CSS = """
    DicePanel {
        height: 1fr;
        border-top: solid $primary;
        border-title-color: $text-muted;
        scrollbar-size-vertical: 1;
    }
    DicePanel:focus {
        border-top: solid $accent;
    }
    DicePanel > Static {
        width: 1fr;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Result"
        self.summary = ""

    def compose(self):  # type: ignore[no-untyped-def]
        yield Static("", id="dice-head", markup=False)
        yield Static("", id="dice-lines", markup=False)

    def _set(self, head: Content, lines: Sequence[str], title: str) -> None:
        self.border_title = title
        self.query_one("#dice-head", Static).update(head)
        body = Content("\n".join(lines)).stylize("$text-muted") if lines else Content("")
        self.query_one("#dice-lines", Static).update(body)
        self.scroll_home(animate=False)

    def show_message(self, text: str, title: str = "Result") -> None:
        self.summary = ""
        self._set(Content(text), (), title)

    def show_test(self, title: str, who: str, result: TestResult) -> None:
        """An unopposed test (S0 §Skills): one dice line and its verdict."""
        text, style = verdict_text(result)
        self.summary = text
        head = Content.assemble(Content(who).stylize("bold"), "  ",
                                dice_content(result.dice), "  ",
                                Content(text).stylize(style))
        self._set(head, result.explanation, title)

    def show_opposed(self, title: str, names: tuple[str, str], result: OpposedResult) -> None:
        """An opposed test (S0 §Close combat 4): both sides and who won."""
        width = max(len(n) for n in names)
        rows: list[Content | str] = []
        for name, side in zip(names, (result.a, result.b)):
            text, style = verdict_text(side)
            rows += [Content(name.ljust(width)).stylize("bold"), "  ",
                     dice_content(side.dice), "  ", Content(text).stylize(style), "\n"]
        if result.rolloff:
            pairs = ", ".join(f"{x}–{y}" for x, y in result.rolloff)
            rows.append(Content(f"d12 roll-off {pairs}\n").stylize("$text-muted"))
        self.summary = opposed_summary(result, names)
        style = "bold $warning" if result.winner is None else "bold reverse $accent"
        rows.append(Content(f" {self.summary} ").stylize(style))
        self._set(Content.assemble(*rows), result.explanation, title)

    def show_lines(self, title: str, head: str, lines: Sequence[str]) -> None:
        """A logged roll: its result line and stored explanation."""
        self.summary = head
        self._set(Content(head).stylize("bold"), lines, title)


# --------------------------------------------------------------------- odds


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
    """Odds of any dice (issue 12 item 24): the chance to reach an ``@`` total
    (R-2), the count at a face, or the spread of a plain total; a histogram
    (totals beyond 13 rows are grouped at the ends to fit the box)."""
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


class OddsView(Static):
    """Exact odds before the roll (rules core ``odds``), or why there are none."""

    DEFAULT_CSS = """
    OddsView {
        width: 1fr;
        height: auto;
        padding: 0 0 0 1;
    }
    OddsView.-error {
        color: $text-error;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.lines: list[str] = []

    def show_lines(self, lines: list[str], *, first_style: str = "bold") -> None:
        self.lines = lines
        self.remove_class("-error")
        if not lines:
            self.update("")
            return
        rest = Content("\n" + "\n".join(lines[1:])) if len(lines) > 1 else Content("")
        self.update(Content.assemble(Content(lines[0]).stylize(first_style), rest))

    def show_problem(self, text: str) -> None:
        self.lines = [text]
        self.add_class("-error")
        self.update(text)
