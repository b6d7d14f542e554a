"""Show dice: the odds before a roll and the result after it.

Both widgets draw a value from ``dice_text`` (set their reactive ``shown``),
made from the rules core's result objects; they compute no rule. Every die
is drawn as its face and a mark that reads without colour (16 colours,
``NO_COLOR``):

``7+`` success · ``3-`` fail · ``10!`` critical success · ``12*`` critical
spent negating a 1 · ``8~`` critical cancelled by a larger die · ``1X``
critical fail · ``1x`` critical fail negated.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from ka_tui.rules.core.skill_tests import DieResult, OpposedResult, TestResult
from ka_tui.widgets.dice_text import (
    ContestShown, LinesShown, OddsProblem, OddsShown, ResultNote, ResultShown, SkillShown,
    die_mark, odds_text, opposed_summary, verdict_text,
)

LEGEND = ("+ success  - fail  ! critical  * critical spent on a 1  "
          "~ critical cancelled  X critical fail  x negated 1")


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


class DicePanel(VerticalScroll):
    """The last roll: dice line(s), verdict, and the rules' explanation lines.

    Set ``shown`` (a ``dice_text`` result value) and it draws it."""

    HELP_TITLE = "Result"

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

    shown: reactive[ResultShown | None] = reactive(None, init=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Result"
        self.summary = ""

    def compose(self) -> ComposeResult:
        yield Static("", id="dice-head", markup=False)
        yield Static("", id="dice-lines", markup=False)

    def watch_shown(self, shown: ResultShown | None) -> None:
        if isinstance(shown, ResultNote):
            self.summary = ""
            self._set(Content(shown.text), (), shown.title)
        elif isinstance(shown, SkillShown):
            self._show_test(shown.title, shown.who, shown.result)
        elif isinstance(shown, ContestShown):
            self._show_opposed(shown.title, shown.names, shown.result)
        elif isinstance(shown, LinesShown):
            self.summary = shown.head
            self._set(Content(shown.head).stylize("bold"), shown.lines, shown.title)

    def _set(self, head: Content, lines: Sequence[str], title: str) -> None:
        self.border_title = title
        self.query_one("#dice-head", Static).update(head)
        body = Content("\n".join(lines)).stylize("$text-muted") if lines else Content("")
        self.query_one("#dice-lines", Static).update(body)
        self.scroll_home(animate=False)

    def _show_test(self, title: str, who: str, result: TestResult) -> None:
        """An unopposed test (S0 §Skills): one dice line and its verdict."""
        text, style = verdict_text(result)
        self.summary = text
        head = Content.assemble(Content(who).stylize("bold"), "  ",
                                dice_content(result.dice), "  ",
                                Content(text).stylize(style))
        self._set(head, result.explanation, title)

    def _show_opposed(self, title: str, names: tuple[str, str], result: OpposedResult) -> None:
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


class OddsView(Static):
    """Exact odds before the roll (rules core ``odds``), or why there are none.

    Set ``shown`` (a ``dice_text`` odds value) and it draws it; ``lines`` is
    what it shows."""

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

    shown: reactive[OddsShown | None] = reactive(None, init=False)

    def __init__(self, *, ascii: bool = False, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.ascii = ascii
        self.lines: list[str] = []

    def watch_shown(self, shown: OddsShown | None) -> None:
        if shown is None:
            return
        lines, first_style = odds_text(shown, ascii=self.ascii)
        self.lines = lines
        problem = isinstance(shown, OddsProblem)
        self.set_class(problem, "-error")
        if problem:
            self.update(lines[0])
        elif not lines:
            self.update("")
        else:
            rest = Content("\n" + "\n".join(lines[1:])) if len(lines) > 1 else Content("")
            self.update(Content.assemble(Content(lines[0]).stylize(first_style), rest))
