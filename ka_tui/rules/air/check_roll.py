"""One 2d6 roll against a target number (R-2), as a record a GM can read.

Every 2d6 roll of the air rules goes through ``roll_check`` so its faces, its
``TargetNumber.render()`` and its outcome travel together into the result
objects, the battle log and the screens.
"""

from __future__ import annotations

from dataclasses import dataclass

from ka_tui.rules.core.dice import Dice, RollAsk, announce, roll_2d6
from ka_tui.rules.core.target import Finalizer, TargetNumber


@dataclass(frozen=True)
class CheckRoll:
    """A 2d6 roll (R-2): ``faces`` is empty when a finalizer decided it unrolled."""

    what: str
    target: TargetNumber
    faces: tuple[int, ...]
    success: bool

    @property
    def rolled(self) -> bool:
        return bool(self.faces)

    @property
    def total(self) -> int:
        return sum(self.faces)

    @property
    def margin(self) -> int:
        """Beat (positive) or missed (negative) by; 0 when not rolled."""
        return self.target.margin(self.total) if self.faces else 0

    def render(self) -> str:
        outcome = "success" if self.success else "failure"
        if not self.faces:
            return f"{self.what}: no roll, {self.target.render()} → {outcome}"
        dice = "+".join(str(f) for f in self.faces)
        return (f"{self.what}: 2d6 {dice} = {self.total} vs {self.target.render()}"
                f" → {outcome} (margin {self.margin:+d})")


def roll_check(what: str, target: TargetNumber, dice: Dice) -> CheckRoll:
    """R-2: roll 2d6, succeed on a total equal to or greater than the target.

    A target with a finalizer (automatic success/failure, impossible) is not
    rolled, so no die is consumed.
    """
    if target.finalizer is not Finalizer.NONE:
        return CheckRoll(what, target, (), target.succeeds(0))
    announce(dice, RollAsk(what, 2, 6, target))
    faces = roll_2d6(dice)
    return CheckRoll(what, target, faces, target.succeeds(sum(faces)))
