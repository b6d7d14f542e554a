"""Wounds and consciousness (R-5).

Taking a wound: the wound count rises (clamped to 0..6 by ``Airman.with_wounds``,
the one place where death at 6 happens), then 2d6 against the R-5 table by the
wounds now carried; below the number the airman loses consciousness and his
machine goes out of control. In the end phase an unconscious airman rolls on the
same table to come round.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ka_tui.rules.air.check_roll import CheckRoll, roll_check
from ka_tui.rules.air.units import MAX_WOUNDS, Airman, AirUnit
from ka_tui.rules.core.dice import Dice
from ka_tui.rules.core.target import Finalizer, TargetNumber

# R-5 table: wounds carried → number needed on 2d6 to stay (or come round) conscious.
CONSCIOUSNESS_NEEDED: dict[int, int] = {1: 3, 2: 5, 3: 7, 4: 10, 5: 11}


def consciousness_target(wounds: int) -> TargetNumber:
    """R-5: the number needed for the wounds now carried; 6 is death."""
    if wounds >= MAX_WOUNDS:
        return TargetNumber(0, "six wounds", "R-5").finalized(Finalizer.IMPOSSIBLE, "dead (R-5)")
    if wounds <= 0:
        return TargetNumber(0, "no wounds", "R-5").finalized(
            Finalizer.AUTO_SUCCESS, "no wounds carried (R-5)")
    plural = "wound" if wounds == 1 else "wounds"
    return TargetNumber(CONSCIOUSNESS_NEEDED[wounds], f"{wounds} {plural} carried", "R-5")


@dataclass(frozen=True)
class WoundResult:
    """One wound taken (R-5) and the consciousness roll it caused."""

    name: str
    cause: str
    wounds_before: int
    wounds_after: int
    was_conscious: bool
    check: CheckRoll | None
    conscious: bool
    dead: bool
    log: tuple[str, ...]

    @property
    def knocked_out(self) -> bool:
        """Conscious before, not after (death included)."""
        return self.was_conscious and not self.conscious


@dataclass(frozen=True)
class RecoveryResult:
    """An end-phase attempt to come round (R-1.4, R-5)."""

    name: str
    check: CheckRoll | None
    was_conscious: bool
    conscious: bool
    log: tuple[str, ...]

    @property
    def came_round(self) -> bool:
        return not self.was_conscious and self.conscious


def take_wound(airman: Airman, dice: Dice, *, cause: str = "wound") -> tuple[Airman, WoundResult]:
    """R-5: one wound, then 2d6 against the table by the wounds now carried.

    A dead airman takes nothing more; an unconscious one takes the wound without
    a roll (he has no consciousness left to lose); six wounds is death, unrolled.
    """
    before = airman.wounds
    if airman.dead:
        line = f"{airman.name}: {cause} — already dead (R-5)"
        return airman, WoundResult(airman.name, cause, before, before, False, None, False,
                                   True, (line,))
    hurt = airman.with_wounds(before + 1)
    lines = [f"{airman.name}: {cause} — wounds {before} → {hurt.wounds} (R-5)"]
    if hurt.dead:
        lines.append(f"{airman.name} is dead: six wounds (R-5)")
        return hurt, WoundResult(airman.name, cause, before, hurt.wounds, airman.conscious,
                                 None, False, True, tuple(lines))
    if not airman.conscious:
        lines.append(f"{airman.name} stays unconscious (R-5)")
        return hurt, WoundResult(airman.name, cause, before, hurt.wounds, False, None, False,
                                 False, tuple(lines))
    check = roll_check(f"{airman.name} stays conscious (R-5)",
                       consciousness_target(hurt.wounds), dice)
    lines.append(check.render())
    if not check.success:
        hurt = replace(hurt, conscious=False)
        lines.append(f"{airman.name} loses consciousness: the machine is out of control (R-5)")
    return hurt, WoundResult(airman.name, cause, before, hurt.wounds, True, check,
                             hurt.conscious, False, tuple(lines))


def take_wounds(airman: Airman, count: int, dice: Dice, *,
                cause: str = "wound") -> tuple[Airman, tuple[WoundResult, ...]]:
    """R-5 applied once per wound, in order."""
    results: list[WoundResult] = []
    for _ in range(max(0, count)):
        airman, res = take_wound(airman, dice, cause=cause)
        results.append(res)
    return airman, tuple(results)


def recovery_roll(airman: Airman, dice: Dice) -> tuple[Airman, RecoveryResult]:
    """R-5 / R-1.4: in the end phase an unconscious airman rolls to come round."""
    if airman.conscious or airman.dead:
        state = "dead" if airman.dead else "conscious"
        return airman, RecoveryResult(airman.name, None, airman.conscious, airman.conscious,
                                      (f"{airman.name}: {state}, no recovery roll (R-5)",))
    check = roll_check(f"{airman.name} comes round (R-5)",
                       consciousness_target(airman.wounds), dice)
    woke = replace(airman, conscious=True) if check.success else airman
    verdict = "comes round" if check.success else "stays unconscious"
    return woke, RecoveryResult(airman.name, check, False, woke.conscious,
                                (check.render(), f"{airman.name} {verdict} (R-5)"))


def pilot_in_control(unit: AirUnit) -> bool:
    """R-5: an unconscious or dead pilot leaves his machine out of control."""
    return unit.pilot.conscious and not unit.pilot.dead


def in_control(unit: AirUnit) -> bool:
    """Neither a failed stall check (R-3.2) nor the pilot (R-5) has it out of control."""
    return not unit.out_of_control and pilot_in_control(unit)
