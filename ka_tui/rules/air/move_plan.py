"""A move as a list of steps, and the objects that describe a checked or flown move.

A plan is a tuple of steps, applied in order by ``movement.validate_plan``
(preview, no dice) and ``movement.execute_plan`` (rolls). Steps:

- ``Thrust(n, at)``: change speed by n (±) for |n| thrust points, at the start
  or the end of the movement (R-3.1).
- ``Afterburner()`` / ``WaterMethanol()``: raise this turn's thrust (R-3.5, R-3.6);
  before any thrust is spent.
- ``Forward()``: one hex straight ahead. ``SlideSlip(side)``: the R-9 figure,
  one hex into the front-left or front-right hex, facing unchanged.
- ``TurnLeft()`` / ``TurnRight()``: one hex side, in the hex, after flying the
  turn-mode number of straight hexes (R-3.4). No hex is used.
- ``Climb(levels, pay)`` (R-3.3, pay "speed" or "thrust") / ``Descend(levels)``.
- ``Figure(kind)``: an R-9 figure other than the slide-slip, at the start.
- ``Land()`` (R-10, ends the move) / ``TakeOff()`` (R-10, the whole move).

The text form (``parse_plan``/``format_plan``) is what a GM types in the
tactical view: ``+2 F F R F C F`` (see ``parse_plan``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from enum import StrEnum
from collections.abc import Iterable
from typing import Literal, Union

from ka_tui.rules.air.aerobatics import FIGURES, FigureKind
from ka_tui.rules.air.check_roll import CheckRoll
from ka_tui.rules.air.units import AirUnit, Damage
from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.core.target import TargetNumber
from ka_tui.rules.air.wounds import WoundResult

Side = Literal["left", "right"]
When = Literal["start", "end"]
Payment = Literal["speed", "thrust"]


@dataclass(frozen=True)
class Forward:
    pass


@dataclass(frozen=True)
class TurnLeft:
    pass


@dataclass(frozen=True)
class TurnRight:
    pass


@dataclass(frozen=True)
class SlideSlip:
    side: Side = "right"


@dataclass(frozen=True)
class Climb:
    levels: int = 1
    pay: Payment = "speed"


@dataclass(frozen=True)
class Descend:
    levels: int = 1


@dataclass(frozen=True)
class Thrust:
    points: int
    at: When = "start"


@dataclass(frozen=True)
class Afterburner:
    pass


@dataclass(frozen=True)
class WaterMethanol:
    pass


@dataclass(frozen=True)
class Figure:
    kind: FigureKind


@dataclass(frozen=True)
class Land:
    # on a failure by no more than 3 the pilot may go around instead of
    # crashing; False means he puts it down anyway and takes the damage.
    go_around: bool = True


@dataclass(frozen=True)
class TakeOff:
    pass


Step = Union[Forward, TurnLeft, TurnRight, SlideSlip, Climb, Descend, Thrust, Afterburner,
             WaterMethanol, Figure, Land, TakeOff]
Plan = tuple[Step, ...]


@dataclass(frozen=True)
class PathPoint:
    """Where the aircraft is after one step (``step`` indexes the plan; -1 = before)."""

    step: int
    hex: Hex
    facing: int
    altitude: int
    speed: int
    note: str = ""


@dataclass(frozen=True)
class RequiredCheck:
    """A check the plan will need (preview), with its target and exact odds."""

    what: str
    target: TargetNumber
    step: int          # index into the plan; -1 = end of the movement
    on_fail: str

    @property
    def probability(self) -> Fraction:
        return self.target.probability()

    def render(self) -> str:
        p = self.probability
        return (f"{self.what}: {self.target.render()} — {float(p) * 100:.0f}% "
                f"({p.numerator}/{p.denominator}); on failure {self.on_fail}")


@dataclass(frozen=True)
class TerrainCrash:
    """R-6.1: the aircraft ended at the height of the terrain (not landing).

    The damage (2d6 × 10 × speed) is rolled by ``collisions.py``.
    """

    hex: Hex
    altitude: int
    terrain_height: int
    speed: int


class PlanProblem(StrEnum):
    """What kind of problem makes a plan illegal (``PlanCheck.problem``), so
    code never reads the reason text: ``SHORT`` = every step is allowed but the
    plan flies fewer hexes than its speed (R-3.1), ``STEP`` = a step is not
    allowed, ``CANNOT_MOVE`` = the aircraft may not move at all (R-1.2)."""

    SHORT = "short"
    STEP = "step"
    CANNOT_MOVE = "cannot_move"


@dataclass(frozen=True)
class PlanCheck:
    """``validate_plan``'s answer: legal or the reason, and every check it needs."""

    legal: bool
    errors: tuple[str, ...]
    checks: tuple[RequiredCheck, ...]
    path: tuple[PathPoint, ...]
    end: AirUnit                 # the aircraft after the plan if every check passes
    hexes_to_fly: int            # speed after the plan's speed changes
    hexes_planned: int
    thrust_available: int
    thrust_used: int
    sides_turned: int            # hex sides turned plus figures' G (R-4)
    terrain_crash: TerrainCrash | None = None
    notes: tuple[str, ...] = ()
    problem: PlanProblem | None = None  # None when legal

    @property
    def reason(self) -> str:
        return self.errors[0] if self.errors else ""

    def summary(self) -> str:
        """One line for the tactical view's status bar."""
        if not self.legal:
            return f"illegal: {self.reason}"
        parts = [f"{self.hexes_planned}/{self.hexes_to_fly} hexes",
                 f"thrust {self.thrust_used}/{self.thrust_available}"]
        if self.sides_turned:
            parts.append(f"G {self.sides_turned}")
        if self.checks:
            p = self.all_pass_probability
            parts.append(f"{len(self.checks)} check(s), all pass {float(p) * 100:.0f}%")
        else:
            parts.append("no checks")
        if self.terrain_crash is not None:
            parts.append("CRASH (R-6.1)")
        return "legal: " + " · ".join(parts + list(self.notes))

    @property
    def all_pass_probability(self) -> Fraction:
        """Chance that every listed check passes (they are independent rolls)."""
        p = Fraction(1)
        for c in self.checks:
            p *= c.probability
        return p


@dataclass(frozen=True)
class MoveReport:
    """``execute_plan``'s answer: what happened, every roll and a log citing R-…."""

    path: tuple[PathPoint, ...]
    rolls: tuple[CheckRoll, ...]
    log: tuple[str, ...]
    damage: Damage = field(default_factory=Damage)
    wounds: tuple[WoundResult, ...] = ()   # R-5, one per wound taken (G-load, crash landing)
    terrain_crash: TerrainCrash | None = None
    landed: bool = False
    went_around: bool = False
    crash_landing_points: int = 0     # R-10 points of damage (10 per point of margin)
    figure_failed: bool = False
    random_move: int = 0              # signed hex sides, + = right
    stalled: bool = False


@dataclass(frozen=True)
class StartReport:
    """``start_turn``'s answer: speed decay, stall and its check (R-3.2)."""

    speed_before: int
    speed_after: int
    stalled: bool
    rolls: tuple[CheckRoll, ...]
    log: tuple[str, ...]
    random_move: int = 0
    terrain_crash: TerrainCrash | None = None


@dataclass(frozen=True)
class StartPreview:
    """What ``start_turn`` will do, without rolling."""

    speed_after: int
    stalls: bool
    checks: tuple[RequiredCheck, ...]
    log: tuple[str, ...]


class IllegalPlan(ValueError):
    """``execute_plan`` was given a plan ``validate_plan`` refuses."""


# ---------------------------------------------------------------- text form

_SIMPLE: dict[str, Step] = {
    "F": Forward(), "L": TurnLeft(), "R": TurnRight(),
    "<": SlideSlip("left"), ">": SlideSlip("right"),
    "AB": Afterburner(), "WM": WaterMethanol(), "LAND": Land(), "LAND!": Land(go_around=False),
    "TO": TakeOff(),
}
_FIGURE_CODES: dict[str, FigureKind] = {
    "LOOP": FigureKind.LOOP, "IMM": FigureKind.IMMELMANN, "SPLITS": FigureKind.SPLIT_S,
    "HAMMER": FigureKind.HAMMERHEAD, "HALFROLL": FigureKind.HALF_ROLL,
    "BARREL": FigureKind.BARREL_ROLL,
}

_SIMPLE_TEXT: dict[Step, str] = {v: k for k, v in _SIMPLE.items()}
_FIGURE_TEXT: dict[FigureKind, str] = {v: k for k, v in _FIGURE_CODES.items()}


def parse_plan(text: str) -> tuple[Plan, list[str]]:
    """Read a plan typed as tokens separated by spaces or commas.

    ``F`` forward, ``L``/``R`` turn one side, ``<``/``>`` slide-slip, ``C``/``C2``
    climb paying speed, ``CT``/``CT2`` climb paying thrust, ``D``/``D3`` descend,
    ``+2``/``-1`` thrust (at the start before any hex or turn, else at the end),
    ``AB`` afterburner, ``WM`` water-methanol, ``LOOP IMM SPLITS HAMMER HALFROLL
    BARREL`` figures, ``LAND`` (``LAND!`` = no go-around), ``TO`` take-off.
    A count prefix repeats: ``3F`` = ``F F F``.
    """
    plan: Plan = ()
    errors: list[str] = []
    for raw in text.replace(",", " ").split():
        tok = raw.upper()
        count = 1
        digits = ""
        while tok and tok[0].isdigit():
            digits += tok[0]
            tok = tok[1:]
        if digits and tok:
            count = int(digits)
        elif digits:
            errors.append(f"'{raw}': a number needs a step after it (e.g. 3F)")
            continue
        step = _parse_token(tok)
        if step is None:
            errors.append(f"'{raw}' is not a step")
            continue
        for _ in range(count):
            plan = with_step(plan, step)
    return plan, errors


def _parse_token(tok: str) -> Step | None:
    if tok in _SIMPLE:
        return _SIMPLE[tok]
    if tok in _FIGURE_CODES:
        return Figure(_FIGURE_CODES[tok])
    if tok[:1] in "+-" and tok[1:].isdigit():
        return Thrust(int(tok))
    for prefix in ("CT", "C", "D"):
        if tok.startswith(prefix):
            rest = tok[len(prefix):]
            if rest and not (rest.isdigit() and int(rest) > 0):
                return None
            n = int(rest) if rest else 1
            if prefix == "D":
                return Descend(n)
            return Climb(n, "thrust" if prefix == "CT" else "speed")
    return None


# Steps that fly part of the move (R-3.1 "at the start of movement" is before
# any of them; afterburner and water-methanol are engaged before it, R-3.5, R-3.6).
FLYING_STEPS = (Forward, TurnLeft, TurnRight, SlideSlip, Climb, Descend, Figure, Land, TakeOff)


def thrust_when(plan: Plan) -> When:
    """R-3.1: thrust added to ``plan`` is spent at the start of the movement
    while nothing of the move has been flown, else at its end."""
    return "end" if any(isinstance(s, FLYING_STEPS) for s in plan) else "start"


def with_step(plan: Plan, step: Step) -> Plan:
    """``plan`` with ``step`` added, the one way a plan grows: the plan keys and
    the typed notation both build it so, so neither is a way round a check.

    - Thrust goes to the start or the end (``thrust_when``, R-3.1); presses at
      the same place add up (``+ +`` is ``+2``; ``+1 -1`` is no thrust).
    - A descent right after a descent is one descent of the levels together
      (R-3.3 "descends more than 2 levels at once": ``d d d`` and ``D D D``
      are ``D3``, with its piloting check).
    """
    if isinstance(step, Thrust):
        at = thrust_when(plan)
        if plan and isinstance(plan[-1], Thrust) and plan[-1].at == at:
            total = plan[-1].points + step.points
            return plan[:-1] + ((Thrust(total, at),) if total else ())
        return plan + ((Thrust(step.points, at),) if step.points else ())
    if isinstance(step, Descend) and plan and isinstance(plan[-1], Descend):
        return plan[:-1] + (Descend(plan[-1].levels + step.levels),)
    return plan + (step,)


def plan_of(steps: Iterable[Step]) -> Plan:
    """The plan the steps build one after the other (``with_step``)."""
    plan: Plan = ()
    for step in steps:
        plan = with_step(plan, step)
    return plan


def format_step(step: Step) -> str:
    """One step in the ``parse_plan`` notation."""
    if isinstance(step, Thrust):
        return f"{step.points:+d}"
    if isinstance(step, Climb):
        code = "CT" if step.pay == "thrust" else "C"
        return code if step.levels == 1 else f"{code}{step.levels}"
    if isinstance(step, Descend):
        return "D" if step.levels == 1 else f"D{step.levels}"
    if isinstance(step, Figure):   # the slide-slip has no figure code: it is ``<``/``>``
        return _FIGURE_TEXT.get(step.kind, step.kind.value)
    return _SIMPLE_TEXT[step]


def format_plan(plan: Plan) -> str:
    return " ".join(format_step(s) for s in plan)
