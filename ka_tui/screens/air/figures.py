"""The figure menu (``m`` while planning): the R-9 figures this aircraft may
fly as the next step of its plan, each with its thrust cost, difficulty, G
and minimum speed and the odds of its piloting roll; the ones it may not fly
now are shown greyed with the engine's reason (R-9 class and speed, S0
§Flight card boxes, one figure a turn, at the start of the move, the thrust
left).

Each row is the engine's own answer: the plan with the figure added is
checked by ``movement.validate_plan`` (as the plan keys' preview is), so the
menu never offers what the move would refuse.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ka_tui.rules.air.aerobatics import FIGURES, FigureKind, FigureSpec
from ka_tui.rules.air.move_plan import Figure, PlanProblem, SlideSlip, Step
from ka_tui.rules.air.movement import validate_plan
from ka_tui.screens.air.runner import Runner
from ka_tui.screens.air.views import pct
from ka_tui.widgets.quiet_footer import QuietFooter

# (the menu's code, the step it adds, its R-9 row): the slide-slip both ways
CHOICES: tuple[tuple[str, Step, FigureSpec], ...] = (
    *((k.value, Figure(k), FIGURES[k]) for k in FigureKind if k is not FigureKind.SLIDE_SLIP),
    ("slide_left", SlideSlip("left"), FIGURES[FigureKind.SLIDE_SLIP]),
    ("slide_right", SlideSlip("right"), FIGURES[FigureKind.SLIDE_SLIP]),
)


@dataclass(frozen=True)
class FigureRow:
    code: str                # the menu's answer (a FigureKind value, slide_left/right)
    name: str
    effect: str
    thrust: int              # thrust points it costs now (R-9; hammerhead: the speed)
    difficulty: int          # R-9 piloting modifier
    g_rating: int            # hex sides toward the turn's G-load
    min_speed: int
    odds: str = ""           # the chance the piloting roll passes ("" if none)
    refusal: str = ""        # why it cannot be flown now ("" : it may)

    @property
    def allowed(self) -> bool:
        return not self.refusal


def figure_rows(runner: Runner, uid: str) -> list[FigureRow]:
    """Every R-9 figure for aircraft ``uid`` as the next step of its plan."""
    u = runner.unit(uid)
    plan = runner.plan(uid)
    rows: list[FigureRow] = []
    base = None if u is None else validate_plan(u, plan, runner.battle_map, runner.options)
    for code, step, spec in CHOICES:
        side = code.split("_")[1] if code.startswith("slide_") else ""
        name = f"{spec.name} {side}" if side else spec.name
        effect = (f"into the front-{side} hex instead of the one ahead, facing unchanged"
                  if side else spec.effect)
        cost = spec.thrust_cost(u.speed) if u is not None else 0
        if u is None or base is None:
            rows.append(FigureRow(code, name, effect, cost, spec.difficulty,
                                  spec.g_rating, spec.min_speed, refusal="no aircraft"))
            continue
        trial = validate_plan(u, (*plan, step), runner.battle_map, runner.options)
        refused = not trial.legal and trial.problem is not PlanProblem.SHORT
        roll = next((c for c in trial.checks if c.step == len(plan)), None)
        rows.append(FigureRow(
            code, name, effect, max(0, trial.thrust_used - base.thrust_used) or cost,
            spec.difficulty, spec.g_rating, spec.min_speed,
            "" if roll is None else pct(roll.probability),
            _STEP_PREFIX.sub("", trial.reason) if refused else ""))
    return rows


# the engine's reason names the plan step ("step 2 (LOOP): …"): the menu's row is it
_STEP_PREFIX = re.compile(r"^step \d+ \([^)]*\): ")
WIDTH = 76


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def row_text(r: FigureRow) -> str:
    head = (f"{r.name:<17} thrust {r.thrust:<2} diff {r.difficulty:+d}  G {r.g_rating}  "
            f"speed {r.min_speed}+  " + (f"roll {r.odds}" if r.odds else ""))
    return head.rstrip() + "\n  " + _cut(r.effect if r.allowed else f"not now: {r.refusal}",
                                         WIDTH - 2)


class FigureMenu(ModalScreen[str | None]):
    """The R-9 figures with their costs; enter flies the highlighted one as the
    plan's next step, escape cancels. A figure it may not fly is greyed."""

    HELP_TITLE = "Aerobatic figure"
    CSS_PATH = "figures.tcss"
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="air_figure.cancel")]
    PALETTE_HELP = {"air_figure.cancel": "Close the figure menu; the plan stays as it was"}

    def __init__(self, rows: Sequence[FigureRow], title: str = "Aerobatic figure (R-9)",
                 note: str = "") -> None:
        super().__init__()
        self.rows = list(rows)
        self.title_text = title
        self.note = note or "thrust: its cost now · diff: R-9 modifier · G: sides toward the " \
                            "G-load (R-4)"

    def compose(self) -> ComposeResult:
        with Vertical(id="figure-box"):
            yield OptionList(*[Option(Content(row_text(r)), id=r.code, disabled=not r.allowed)
                               for r in self.rows], id="figure-list", compact=True)
            yield Static(Content(self.note), id="figure-note")
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#figure-box").border_title = self.title_text
        options = self.query_one(OptionList)
        options.focus()
        first = next((i for i, r in enumerate(self.rows) if r.allowed), None)
        options.highlighted = first

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


def figure_menu(runner: Runner, uid: str) -> FigureMenu:
    u = runner.unit(uid)
    title = "Aerobatic figure (R-9)" if u is None else (
        f"{uid}: aerobatic figure (R-9) · speed {u.speed}")
    return FigureMenu(figure_rows(runner, uid), title)
