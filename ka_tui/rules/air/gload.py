"""G-load and endurance (R-4).

The hex sides turned in one turn (plus each R-9 figure's G-rating, option
``figures_count_toward_gload``) are compared with the aircraft's G-rating and
with every airman's Endurance:

- over the G-rating: a piloting check with a penalty of the excess; failure
  costs the airframe ``gload_airframe_hits`` hull hit(s) (R-4: "1 point of
  airframe integrity damage"; no location — the whole airframe was strained);
- over an airman's Endurance: 2d6 against 2 + 2 × wounds + excess; failure is
  a wound (R-5 ``take_wound``, which may knock him out).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ka_tui.rules.air.check_roll import CheckRoll, roll_check
from ka_tui.rules.air.units import Airman, AirUnit, Damage
from ka_tui.rules.air.piloting_target import piloting_target
from ka_tui.rules.core.dice import Dice
from ka_tui.rules.core.options import AirOptions
from ka_tui.rules.core.target import TargetNumber
from ka_tui.rules.air.wounds import WoundResult, take_wound


@dataclass(frozen=True)
class GLoadCheck:
    """One R-4 check a turn's sides require: ``who`` is -1 for the airframe,
    else the airman's index in ``unit.everyone`` (0 = the pilot)."""

    who: int
    what: str
    target: TargetNumber
    on_fail: str


def airframe_target(unit: AirUnit, sides: int) -> TargetNumber | None:
    """R-4: piloting with a penalty equal to the sides over the G-rating."""
    excess = sides - unit.profile.g_rating
    if excess <= 0:
        return None
    return piloting_target(unit, "G-load", "R-4").plus(
        excess, f"{sides} sides vs G-rating {unit.profile.g_rating}", "R-4")


def endurance_target(airman: Airman, sides: int) -> TargetNumber | None:
    """R-4: 2 + (2 × wounds) + endurance exceeded by."""
    excess = sides - airman.endurance
    if excess <= 0 or airman.dead:
        return None
    return (TargetNumber(2, f"{airman.name} endurance base", "R-4")
            .plus(2 * airman.wounds, f"2 × {airman.wounds} wounds", "R-4")
            .plus(excess, f"{sides} sides vs endurance {airman.endurance}", "R-4"))


def gload_checks(unit: AirUnit, sides: int, options: AirOptions) -> tuple[GLoadCheck, ...]:
    """Every check R-4 asks for after turning ``sides`` hex sides this turn."""
    out: list[GLoadCheck] = []
    frame = airframe_target(unit, sides)
    if frame is not None:
        hits = options.gload_airframe_hits
        out.append(GLoadCheck(-1, f"{unit.id} G-load on the airframe (R-4)", frame,
                              f"{hits} airframe hit(s) (R-4)"))
    for i, airman in enumerate(unit.everyone):
        t = endurance_target(airman, sides)
        if t is not None:
            out.append(GLoadCheck(i, f"{airman.name} endurance under G (R-4)", t,
                                  "a wound (R-4, R-5)"))
    return tuple(out)


@dataclass(frozen=True)
class GLoadResult:
    sides: int
    rolls: tuple[CheckRoll, ...]
    damage: Damage
    wounds: tuple[WoundResult, ...]
    log: tuple[str, ...]


def resolve_gload(unit: AirUnit, sides: int, dice: Dice,
                  options: AirOptions) -> tuple[AirUnit, GLoadResult]:
    """R-4: roll every check the sides turned require and apply the results.

    Airframe damage goes to ``pending_damage`` (R-1.3); wounds go through R-5.
    """
    rolls: list[CheckRoll] = []
    lines: list[str] = []
    wounds: list[WoundResult] = []
    damage = Damage()
    crew = list(unit.everyone)
    for chk in gload_checks(unit, sides, options):
        roll = roll_check(chk.what, chk.target, dice)
        rolls.append(roll)
        lines.append(roll.render())
        if roll.success:
            continue
        if chk.who < 0:
            damage = Damage(options.gload_airframe_hits)
            lines.append(f"{unit.id}: the airframe is overstressed: "
                         f"{options.gload_airframe_hits} hull hit(s) (R-4)")
        else:
            hurt, res = take_wound(crew[chk.who], dice, cause="G-load (R-4)")
            crew[chk.who] = hurt
            wounds.append(res)
            lines.extend(res.log)
    out = replace(unit, pilot=crew[0], crew=tuple(crew[1:]),
                  pending_damage=unit.pending_damage.plus(damage))
    return out, GLoadResult(sides, tuple(rolls), damage, tuple(wounds), tuple(lines))
