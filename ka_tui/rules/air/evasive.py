"""Evasive manoeuvres (R-8).

An aircraft no larger than an attack aircraft may fly an evasive manoeuvre
(a successful piloting check): shots at it get harder by its class's number.
An evading aircraft may not attack that turn, but may fly aerobatic figures.
Large ships fly anti-torpedo / anti-artillery manoeuvres instead, which count
only against torpedoes and artillery.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from ka_tui.rules.air.check_roll import CheckRoll, roll_check
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.air.aircraft import AircraftClass
from ka_tui.rules.core.dice import Dice
from ka_tui.rules.air.movement import piloting_target
from ka_tui.rules.core.options import AirOptions
from ka_tui.rules.core.target import Finalizer, TargetNumber


class WeaponKind(str, Enum):
    """What is shooting: R-8 separates aircraft guns from torpedoes and artillery."""

    GUNS = "guns"
    TORPEDO = "torpedo"
    ARTILLERY = "artillery"


# R-8 table: to-hit difficulty of an evading aircraft, by class.
EVASIVE_MODS: dict[AircraftClass, int] = {
    AircraftClass.FIGHTER: 3,
    AircraftClass.HEAVY_FIGHTER: 2,
    AircraftClass.ATTACK: 1,
}


def may_evade(unit: AirUnit) -> bool:
    """R-8: no larger than an attack aircraft, or a large ship (its own manoeuvre)."""
    return unit.profile.aircraft_class in EVASIVE_MODS or \
        unit.profile.aircraft_class is AircraftClass.LARGE


def attack_refusal(unit: AirUnit) -> str | None:
    """Why ``unit`` may not attack (shoot or ram) this turn, or None.

    R-8: an evading aircraft may not attack (or ``attack_forfeit`` says why
    not); R-1.2: one attack per aircraft per turn.
    """
    if unit.attack_forfeit or unit.evading:
        why = unit.attack_forfeit or "it is flying an evasive manoeuvre (R-8)"
        return f"{unit.id} may not attack this turn: {why}"
    if unit.shot:
        return f"{unit.id} has already attacked this turn (R-1.2)"
    return None


def evasive_modifier(target: AirUnit, weapon: WeaponKind, options: AirOptions) -> int:
    """R-8: what an evading target adds to a shot of this kind at it (0 if none)."""
    if not target.evading:
        return 0
    cls = target.profile.aircraft_class
    if cls is AircraftClass.LARGE:
        return options.anti_torpedo_mod if weapon is not WeaponKind.GUNS else 0
    return EVASIVE_MODS.get(cls, 0) if weapon is WeaponKind.GUNS else 0


def evasive_target(unit: AirUnit) -> TargetNumber:
    """R-8: the piloting check, with the shared piloting modifiers (R-2)."""
    target = piloting_target(unit, "evasive manoeuvre", "R-8")
    if not may_evade(unit):
        return target.finalized(Finalizer.IMPOSSIBLE,
                                f"a {unit.profile.aircraft_class.label} may not evade (R-8)")
    return target


@dataclass(frozen=True)
class EvasiveResult:
    unit_id: str
    check: CheckRoll
    evading: bool
    may_attack: bool
    log: tuple[str, ...]


def declare_evasive(unit: AirUnit, dice: Dice,
                    options: AirOptions) -> tuple[AirUnit, EvasiveResult]:
    """R-8: the piloting check; on a success the unit is evading this turn.

    Declaring costs the unit its attack this turn (R-8, ``attack_forfeit``);
    whether a failed check also costs it is ``AirOptions.failed_evasive_may_shoot``.
    """
    check = roll_check(f"{unit.id} evasive manoeuvre (R-8)", evasive_target(unit), dice)
    lines = [check.render()]
    may_attack = not check.success and options.failed_evasive_may_shoot
    if check.success:
        what = ("anti-torpedo/anti-artillery manoeuvre"
                if unit.profile.aircraft_class is AircraftClass.LARGE else "evasive manoeuvre")
        lines.append(f"{unit.id} flies an {what}: it may not attack this turn (R-8)")
    else:
        lines.append(f"{unit.id} fails to evade" +
                     ("" if may_attack else "; it has given up its attack this turn (R-8)"))
    forfeit = "" if may_attack else (
        "it is flying an evasive manoeuvre (R-8)" if check.success
        else "it tried an evasive manoeuvre (R-8, house rule failed_evasive_may_shoot)")
    out = replace(unit, evading=check.success, attack_forfeit=forfeit or unit.attack_forfeit)
    return out, EvasiveResult(unit.id, check, check.success, may_attack, tuple(lines))
