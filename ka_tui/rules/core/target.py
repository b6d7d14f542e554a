"""Target numbers for 2d6 rolls (R-2), as data a GM can read.

A target number is a base plus named modifiers, each with its source, and an
optional finalizer: impossible, automatic success or automatic failure.
Rendered as ``5 (piloting) + 2 (over landing speed, R-10) = 7``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction


class Finalizer(Enum):
    NONE = "none"
    IMPOSSIBLE = "impossible"
    AUTO_SUCCESS = "automatic success"
    AUTO_FAIL = "automatic failure"


@dataclass(frozen=True)
class Modifier:
    value: int
    description: str
    source: str

    def render(self) -> str:
        sign = "+" if self.value >= 0 else "-"
        return f"{sign} {abs(self.value)} ({self.description}, {self.source})"


@dataclass(frozen=True)
class TargetNumber:
    base: int
    base_description: str
    base_source: str
    modifiers: tuple[Modifier, ...] = ()
    finalizer: Finalizer = Finalizer.NONE
    finalizer_reason: str = ""

    def plus(self, value: int, description: str, source: str) -> TargetNumber:
        """A copy with one more modifier (a zero modifier is kept out)."""
        if value == 0:
            return self
        mods = (*self.modifiers, Modifier(value, description, source))
        return TargetNumber(self.base, self.base_description, self.base_source, mods,
                            self.finalizer, self.finalizer_reason)

    def finalized(self, finalizer: Finalizer, reason: str) -> TargetNumber:
        return TargetNumber(self.base, self.base_description, self.base_source,
                            self.modifiers, finalizer, reason)

    @property
    def value(self) -> int:
        return self.base + sum(m.value for m in self.modifiers)

    def succeeds(self, total: int) -> bool:
        """R-2: the 2d6 total must be equal to or greater than the target."""
        if self.finalizer is Finalizer.AUTO_SUCCESS:
            return True
        if self.finalizer in (Finalizer.AUTO_FAIL, Finalizer.IMPOSSIBLE):
            return False
        return total >= self.value

    def margin(self, total: int) -> int:
        """How far the roll beat (positive) or missed (negative) the target."""
        return total - self.value

    def probability(self) -> Fraction:
        """Exact chance that 2d6 meets this target."""
        if self.finalizer is Finalizer.AUTO_SUCCESS:
            return Fraction(1)
        if self.finalizer in (Finalizer.AUTO_FAIL, Finalizer.IMPOSSIBLE):
            return Fraction(0)
        return prob_2d6_at_least(self.value)

    def render(self) -> str:
        text = f"{self.base} ({self.base_description}, {self.base_source})"
        for m in self.modifiers:
            text += f" {m.render()}"
        if self.modifiers:
            text += f" = {self.value}"
        if self.finalizer is not Finalizer.NONE:
            text += f" [{self.finalizer.value}: {self.finalizer_reason}]"
        return text


_WAYS_2D6 = {total: 6 - abs(total - 7) for total in range(2, 13)}


def prob_2d6_at_least(target: int) -> Fraction:
    ways = sum(n for total, n in _WAYS_2D6.items() if total >= target)
    return Fraction(ways, 36)
