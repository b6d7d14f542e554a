"""The named tactics a GM sets for the aircraft he flies, and when a pilot
breaks off whatever he was told.

R-1.1: "the GM rolls for every aircraft and ship he controls" -- the seeds
leave his side's choices to him; these tactics are the suggestion's reading
(docs/rules/READINGS.md, "Tactics"). Each tactic is a risk limit and a set of
weights, named and fixed here:

- ``aggressive``: the best shot this turn counts most; checks are taken while
  every check of the plan passes at least 58 % (2d6 >= 7 at the table's odds),
  the shots left open to the enemy count half.
- ``cautious``: a shot still counts, but the shots left open count one and a
  half times as much and a plan's checks must all pass at least 83 % (2d6 >= 5).
- ``break off``: distance from every enemy and a level none of them flies at
  (S0 §Altitude and combat: shots only at the same altitude), home to a strip
  when one is in reach (R-10); checks must all pass at least 72 % (2d6 >= 6).

A hurt aircraft or a wounded pilot breaks off whatever its tactic
(``effective_tactic``): half its hull gone or less than two hull left (RULES-NOTES
D hull), two wounds (R-5: the second wound's consciousness roll is 5+), no
ammunition for a shot (R-1.4), fuel for less than three turns (R-1.4), or the
pilot unconscious (R-5; then the aircraft flies itself straight, R-3.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.core.options import AirOptions


class Tactic(StrEnum):
    AGGRESSIVE = "aggressive"
    CAUTIOUS = "cautious"
    BREAK_OFF = "break_off"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")


DEFAULT_TACTIC = Tactic.AGGRESSIVE


@dataclass(frozen=True)
class TacticLimits:
    """``risk_limit``: the least chance that every check of a plan passes
    (this turn's and the next turn's stall, R-3.2) for the plan to count as
    safe. ``shot``, ``exposure``, ``check``: how much the best shot, the shots
    left open to the enemy and a failed check (in expected hull hits) weigh.
    ``distance``: what a hex farther from the enemy is worth (break off)."""

    risk_limit: Fraction
    shot: float
    exposure: float
    check: float
    distance: float
    close: float


LIMITS: dict[Tactic, TacticLimits] = {
    Tactic.AGGRESSIVE: TacticLimits(Fraction(21, 36), shot=1.0, exposure=0.5, check=1.5,
                                    distance=0.0, close=0.04),
    Tactic.CAUTIOUS: TacticLimits(Fraction(30, 36), shot=1.0, exposure=1.5, check=3.0,
                                  distance=0.0, close=0.02),
    Tactic.BREAK_OFF: TacticLimits(Fraction(26, 36), shot=0.0, exposure=3.0, check=2.0,
                                   distance=0.15, close=0.0),
}

# fuel for fewer turns than this and the aircraft goes home (R-1.4 fuel left)
LOW_FUEL_TURNS = 3


def break_off_reason(unit: AirUnit, options: AirOptions) -> str:
    """Why this aircraft breaks off whatever its tactic, or "" (see the module)."""
    p = unit.profile
    if not unit.pilot.conscious:
        return f"{unit.pilot.name} is unconscious (R-5)"
    if unit.pilot.wounds >= 2:
        return f"{unit.pilot.name} has {unit.pilot.wounds} wounds (R-5)"
    if unit.hull_left * 2 <= p.hull or unit.hull_left < 2:
        return f"hull {unit.hull_left}/{p.hull} left"
    if unit.ammo < options.ammo_per_shot:
        return "out of ammunition (R-1.4)"
    if options.fuel_per_turn > 0 and unit.fuel < LOW_FUEL_TURNS * options.fuel_per_turn:
        return f"fuel {unit.fuel} left (R-1.4)"
    return ""


def effective_tactic(unit: AirUnit, tactic: Tactic, options: AirOptions) -> tuple[Tactic, str]:
    """The tactic flown and why, when it is not the one set."""
    why = break_off_reason(unit, options)
    if why and tactic is not Tactic.BREAK_OFF:
        return Tactic.BREAK_OFF, why
    return tactic, why
