"""Dice sources: every rule takes its dice from one of these.

Play passes ``RandomDice``; tests, replays and the table's physical dice pass
``ScriptedDice`` with the faces. A rule never calls ``random`` itself.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from ka_tui.rules.core.target import TargetNumber


class DiceFault(StrEnum):
    """Why given faces do not fit (``DiceError.reason``), so callers never read
    the message: ``EXHAUSTED`` = more dice are needed (``sides`` says which),
    ``BAD_FACE`` = ``face`` cannot show on a d``sides``, ``LEFT_OVER`` = more
    faces than the step uses, ``OTHER`` = anything else."""

    EXHAUSTED = "exhausted"
    BAD_FACE = "bad_face"
    LEFT_OVER = "left_over"
    OTHER = "other"


class DiceError(ValueError):
    """Scripted faces that do not fit the dice asked for; ``str(e)`` is for the
    GM, ``reason`` / ``sides`` / ``face`` are for code."""

    def __init__(self, message: str, *, reason: DiceFault = DiceFault.OTHER,
                 sides: int | None = None, face: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.sides = sides
        self.face = face


def exhausted(sides: int) -> DiceError:
    """No face left for the next d``sides``."""
    return DiceError(f"no scripted face left for a d{sides}", reason=DiceFault.EXHAUSTED,
                     sides=sides)


def bad_face(face: int, sides: int) -> DiceError:
    """``face`` is not a face of a d``sides``."""
    return DiceError(f"{face} is not a face of a d{sides} (1–{sides})",
                     reason=DiceFault.BAD_FACE, sides=sides, face=face)


class Dice(Protocol):
    def roll(self, sides: int) -> int:
        """One die with ``sides`` faces: a value in 1..sides."""
        ...


@dataclass(frozen=True)
class RollAsk:
    """What the next ``count`` dice are for, said by a rule before it rolls
    them, so a GM rolling at the table knows which roll each face he types
    belongs to: ``what`` names the roll and whose it is (``Spitfire KA-B stall
    (R-3.2)``), ``target`` is the 2d6 number it must meet (its odds follow
    from it), ``note`` says how the faces count (``4+ a hit, 6 a critical``)."""

    what: str
    count: int = 2
    sides: int = 6
    target: TargetNumber | None = None
    note: str = ""


def announce(dice: Dice, ask: RollAsk) -> None:
    """Tell ``dice`` what its next dice are for; a source that does not listen
    (``hear``) rolls the same without it."""
    hear = getattr(dice, "hear", None)
    if hear is not None:
        hear(ask)


class RandomDice:
    def __init__(self, seed: int | None = None, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random(seed)

    def roll(self, sides: int) -> int:
        return self._rng.randint(1, sides)


@dataclass
class ScriptedDice:
    """Hands out given faces in order; refuses a face the die cannot show."""

    faces: list[int]
    used: list[tuple[int, int]] = field(default_factory=list)

    @classmethod
    def of(cls, faces: Iterable[int]) -> ScriptedDice:
        return cls(list(faces))

    def roll(self, sides: int) -> int:
        if not self.faces:
            raise exhausted(sides)
        face = self.faces.pop(0)
        if not 1 <= face <= sides:
            raise bad_face(face, sides)
        self.used.append((sides, face))
        return face

    @property
    def exhausted(self) -> bool:
        return not self.faces


@dataclass
class RecordingDice:
    """Wraps another source and records every (sides, face) it gave."""

    inner: Dice
    used: list[tuple[int, int]] = field(default_factory=list)

    def roll(self, sides: int) -> int:
        face = self.inner.roll(sides)
        self.used.append((sides, face))
        return face

    def hear(self, ask: RollAsk) -> None:
        announce(self.inner, ask)


def roll_2d6(dice: Dice) -> tuple[int, int]:
    """The 2d6 roll of R-2."""
    return dice.roll(6), dice.roll(6)
