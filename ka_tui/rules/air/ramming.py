"""Ramming and ramming damage (R-7; damage per RULES-NOTES D).

Both units in the same hex (and at the same level), both having moved this
turn. Target number ``6 + (target's Piloting − attacker's Piloting)`` plus the
R-7 table. A ram is the attacker's attack for the turn. On a success each side
takes ``|speed difference| + ram_damage_extra`` hits, the rammer at least
``ram_rammer_min`` (RULES-NOTES D: the seed names the damage, gives none).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ka_tui.rules.air.check_roll import CheckRoll, roll_check
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.air.aircraft import AircraftClass
from ka_tui.rules.air.damage import (
    DamageReport,
    apply_hits,
    engine_disabled,
    out_of_battle,
    under_control,
)
from ka_tui.rules.core.dice import Dice
from ka_tui.rules.air.evasive import attack_refusal
from ka_tui.rules.core.options import AirOptions, RamSkillReading
from ka_tui.rules.core.target import Finalizer, TargetNumber

# R-7 table, by class of the target and of the attacker.
TARGET_CLASS_MODS: dict[AircraftClass, int] = {
    AircraftClass.FIGHTER: 4, AircraftClass.BOMBER: 2, AircraftClass.LARGE: -3}
ATTACKER_CLASS_MODS: dict[AircraftClass, int] = {
    AircraftClass.FIGHTER: -2, AircraftClass.BOMBER: -1, AircraftClass.LARGE: 4}
TARGET_NO_THRUST_MOD = -2


def cannot_spend_thrust(unit: AirUnit, options: AirOptions) -> bool:
    """R-7 "target cannot spend Thrust Points": out of control (R-3.2, R-5) or
    engine disabled by damage or empty tanks."""
    return not under_control(unit, options) or engine_disabled(unit)


def ram_problems(attacker: AirUnit, target: AirUnit, options: AirOptions) -> tuple[str, ...]:
    """Every reason this ram cannot be made (empty = it can): R-7 same hex and
    level, both having moved; R-8 / R-1.2 one attack, none while evading."""
    out: list[str] = []
    if attacker.id == target.id:
        out.append("an aircraft cannot ram itself")
    if attacker.side == target.side:
        out.append(f"{target.id} is on the same side")
    if out_of_battle(attacker) or out_of_battle(target):
        out.append("both aircraft must still be in the battle")
    if attacker.hex != target.hex or attacker.altitude != target.altitude:
        out.append(f"{attacker.id} and {target.id} must be in the same hex at the same level (R-7)")
    if not attacker.moved:
        out.append(f"{attacker.id} must have moved this turn (R-7)")
    if not target.moved:
        out.append(f"{target.id} must already have moved this turn (R-7)")
    refusal = attack_refusal(attacker)
    if refusal:
        out.append(refusal)
    if not under_control(attacker, options):
        out.append(f"{attacker.id} is out of control")
    if attacker.landed or target.landed:
        out.append("both aircraft must be in the air")
    return tuple(out)


def ram_target(attacker: AirUnit, target: AirUnit, options: AirOptions) -> TargetNumber:
    """R-7: 6 + piloting difference, plus every modifier of the R-7 table."""
    t = TargetNumber(6, "ramming", "R-7")
    a, b = attacker.pilot.piloting, target.pilot.piloting
    if options.ram_skill_reading is RamSkillReading.RATINGS:
        t = t.plus(a - b, f"piloting ratings: attacker {a} − target {b}",
                   "R-7, house rule ram_skill_reading")
    else:
        t = t.plus(b - a, f"piloting: target {b} − attacker {a}", "R-7")
    tc, ac = target.profile.aircraft_class, attacker.profile.aircraft_class
    t = t.plus(TARGET_CLASS_MODS.get(tc, 0), f"target is a {tc.label.lower()}", "R-7")
    if cannot_spend_thrust(target, options):
        t = t.plus(TARGET_NO_THRUST_MOD, "target cannot spend thrust points", "R-7")
    t = t.plus(ATTACKER_CLASS_MODS.get(ac, 0), f"attacker is a {ac.label.lower()}", "R-7")
    w = attacker.pilot.wounds
    t = t.plus(w, f"attacker's pilot wounded ×{w}", "R-7")
    cs = attacker.damage.at("control_surfaces")
    t = t.plus(cs, f"attacker's control surfaces damaged ×{cs}", "R-7")
    problems = ram_problems(attacker, target, options)
    if problems:
        t = t.finalized(Finalizer.IMPOSSIBLE, problems[0])
    return t


def ram_damage(attacker: AirUnit, target: AirUnit, options: AirOptions) -> tuple[int, int]:
    """RULES-NOTES D: (hits to the rammer, hits to the target)."""
    base = abs(attacker.speed - target.speed) + options.ram_damage_extra
    return max(options.ram_rammer_min, base), max(0, base)


@dataclass(frozen=True)
class RamResult:
    attacker_id: str
    target_id: str
    legal: bool
    problems: tuple[str, ...]
    check: CheckRoll | None
    success: bool
    attacker_damage: DamageReport | None
    target_damage: DamageReport | None
    log: tuple[str, ...]


def ram(attacker: AirUnit, target: AirUnit, dice: Dice,
        options: AirOptions) -> tuple[AirUnit, AirUnit, RamResult]:
    """R-7: roll 2d6 against ``ram_target``; on a success both take ram damage."""
    problems = ram_problems(attacker, target, options)
    if problems:
        line = f"{attacker.id} cannot ram {target.id}: {problems[0]}"
        return attacker, target, RamResult(attacker.id, target.id, False, problems, None,
                                           False, None, None, (line,))
    check = roll_check(f"{attacker.id} rams {target.id} (R-7)",
                       ram_target(attacker, target, options), dice)
    lines = [check.render()]
    attacker = replace(attacker, shot=True)
    if not check.success:
        lines.append(f"{attacker.id} misses the ram (R-7)")
        return attacker, target, RamResult(attacker.id, target.id, True, (), check, False,
                                           None, None, tuple(lines))
    to_attacker, to_target = ram_damage(attacker, target, options)
    lines.append(f"Ram: speeds {attacker.speed} and {target.speed}: {target.id} takes "
                 f"{to_target} hit(s), {attacker.id} {to_attacker} (RULES-NOTES D)")
    target, t_rep = apply_hits(target, [False] * to_target, dice, options,
                               source=f"rammed by {attacker.id}")
    attacker, a_rep = apply_hits(attacker, [False] * to_attacker, dice, options,
                                 source=f"ramming {target.id}")
    lines.extend((*t_rep.log, *a_rep.log))
    return attacker, target, RamResult(attacker.id, target.id, True, (), check, True, a_rep,
                                       t_rep, tuple(lines))
