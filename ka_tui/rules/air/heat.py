"""The heat phase (R-1.4, R-3.5; scale per RULES-NOTES D, the seeds give none).

The Engine Overheat modifier rises by 1 when afterburner is engaged (R-3.5;
``movement.execute_plan`` adds it and sets ``afterburner_on``) and falls by 1
for a turn without (RULES-NOTES D, here). At ``heat_threshold`` (3) or more the
engine must pass 2d6 ≥ ``heat_base`` + modifier in the heat phase or be damaged
(one engine effect: −1 thrust, recorded as pending damage, R-1.3).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ka_tui.rules.air.check_roll import CheckRoll, roll_check
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.air.damage import apply_effect, out_of_battle
from ka_tui.rules.core.dice import Dice
from ka_tui.rules.core.options import AirOptions
from ka_tui.rules.core.target import TargetNumber


def heat_target(overheat: int, options: AirOptions) -> TargetNumber:
    """RULES-NOTES D: 2d6 ≥ heat_base + the Engine Overheat modifier."""
    return TargetNumber(options.heat_base, "engine heat", "RULES-NOTES D").plus(
        overheat, "Engine Overheat modifier", "R-3.5")


def next_overheat(unit: AirUnit) -> int:
    """RULES-NOTES D: −1 for a turn without afterburner; a turn with it was
    already counted when it was engaged (R-3.5, in movement)."""
    return unit.overheat if unit.afterburner_on else max(0, unit.overheat - 1)


@dataclass(frozen=True)
class HeatResult:
    unit_id: str
    overheat_before: int
    overheat_after: int
    check: CheckRoll | None
    engine_damaged: bool
    log: tuple[str, ...]


def heat_phase(unit: AirUnit, dice: Dice, options: AirOptions) -> tuple[AirUnit, HeatResult]:
    """R-1.4 heat phase for one aircraft. Clears the turn's afterburner flag."""
    before = unit.overheat
    if out_of_battle(unit):
        return unit, HeatResult(unit.id, before, before, None, False, ())
    after = next_overheat(unit)
    if before == after == 0 and not unit.afterburner_on:
        return unit, HeatResult(unit.id, 0, 0, None, False, ())
    why = ("afterburner this turn, counted when engaged" if unit.afterburner_on
           else "no afterburner this turn")
    lines = [f"{unit.id}: Engine Overheat {before} → {after} ({why}; R-3.5, RULES-NOTES D)"]
    out = replace(unit, overheat=after, afterburner_on=False)
    check: CheckRoll | None = None
    damaged = False
    if options.heat_enabled and after >= options.heat_threshold:
        check = roll_check(f"{unit.id} engine heat (R-1.4)", heat_target(after, options), dice)
        lines.append(check.render())
        if not check.success:
            damaged = True
            out, line = apply_effect(out, "engine", "overheated, RULES-NOTES D")
            lines.append(line)
    return out, HeatResult(unit.id, before, after, check, damaged, tuple(lines))
