"""The table's physical dice for a step of the air battle (RULES-NOTES 3):
which roll each typed face belongs to, and which die comes next.

``dice_due(state, kind, data, map, options, faces)`` runs the step through
the rules (``battle.apply_action``) on the faces typed so far; every rule
names its roll before it rolls (``core.dice.announce``), so the answer is the
list of rolls the faces filled, in the order the rules roll them, each with
its name, whose it is, its target and its odds — the last one the roll being
typed — then the rolls still to come as far as the rules can tell before the
faces fall (``step_checks.expected_rolls``). A step the turn refuses raises
``TurnError`` before any die is asked for; a face a die cannot show raises
``DiceError``.

Pure: no Textual, no database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ka_tui.rules.air import turn as t
from ka_tui.rules.air.battle import apply_action
from ka_tui.rules.air.battle_map import BattleMap
from ka_tui.rules.air.step_checks import expected_rolls
from ka_tui.rules.core.dice import RollAsk, bad_face
from ka_tui.rules.core.options import AirOptions


@dataclass(frozen=True)
class DueRoll:
    """One roll of the step and the faces typed for it so far."""

    ask: RollAsk
    faces: tuple[int, ...] = ()

    @property
    def done(self) -> bool:
        return len(self.faces) >= self.ask.count

    @property
    def odds(self) -> Fraction | None:
        """The chance a 2d6 roll with a target succeeds (R-2), else None."""
        return None if self.ask.target is None else self.ask.target.probability()


@dataclass(frozen=True)
class DiceDue:
    """The step's rolls as far as the faces go: ``rolls`` in the order rolled
    (the last is being typed unless ``sides`` is None), ``sides`` the next
    die's (None: the faces are enough), ``later`` the rolls expected after
    the one being typed (where every check passes)."""

    rolls: tuple[DueRoll, ...]
    sides: int | None
    later: tuple[RollAsk, ...] = ()

    @property
    def enough(self) -> bool:
        return self.sides is None

    @property
    def current(self) -> DueRoll | None:
        """The roll the next face goes to, None when the faces are enough."""
        return None if self.sides is None or not self.rolls else self.rolls[-1]


class _Enough(Exception):
    def __init__(self, sides: int) -> None:
        super().__init__(f"a d{sides} is needed")
        self.sides = sides


@dataclass
class _Trace:
    """Hands out the typed faces and keeps which roll each one went to."""

    faces: list[int]
    rolls: list[tuple[RollAsk, list[int]]] = field(default_factory=list)

    def hear(self, ask: RollAsk) -> None:
        self.rolls.append((ask, []))

    def roll(self, sides: int) -> int:
        if not self.rolls or len(self.rolls[-1][1]) >= self.rolls[-1][0].count \
                or self.rolls[-1][0].sides != sides:
            self.rolls.append((RollAsk(f"a d{sides}", 1, sides), []))   # a roll no rule named
        if not self.faces:
            raise _Enough(sides)
        face = self.faces.pop(0)
        if not 1 <= face <= sides:
            raise bad_face(face, sides)
        self.rolls[-1][1].append(face)
        return face


def _later(expected: Sequence[RollAsk], rolled: Sequence[RollAsk]) -> tuple[RollAsk, ...]:
    """The expected rolls after the last one already reached."""
    names = {a.what for a in rolled}
    reached = [i for i, a in enumerate(expected) if a.what in names]
    start = reached[-1] + 1 if reached else 0
    return tuple(a for a in expected[start:] if a.what not in names)


def dice_due(state: t.BattleState, kind: str, data: Mapping[str, Any], battle_map: BattleMap,
             options: AirOptions, faces: Sequence[int]) -> DiceDue:
    """The rolls the step asks for with ``faces`` typed (see the module doc)."""
    trace = _Trace(list(faces))
    sides: int | None = None
    try:
        apply_action(state, kind, dict(data), battle_map, trace, options)
    except _Enough as need:
        sides = need.sides
    rolls = tuple(DueRoll(ask, tuple(got)) for ask, got in trace.rolls)
    rolled = [r.ask for r in rolls]
    later = _later(expected_rolls(state, kind, data, battle_map, options), rolled) \
        if sides is not None else ()
    return DiceDue(rolls, sides, later)


__all__ = ["DiceDue", "DueRoll", "dice_due"]
