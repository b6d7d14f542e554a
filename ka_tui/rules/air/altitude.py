"""Altitude levels and the S0 echelons, the ceiling, and the S0 altitude model.

RULES-NOTES D: altitude is an integer level, 0 the ground; the S0 echelons
(Deck, Hill, Mountain, Top, Ceiling, Edge) name bands of levels through the
campaign's ``AirOptions.echelon_of_level`` table (one level each by default).
S0 §Altitude explained: an aircraft cannot climb above the top echelon on its
flight card; echelons in a red/grey box need a test to fly at.
"""

from __future__ import annotations

from ka_tui.rules.air.aircraft import AircraftProfile, Echelon
from ka_tui.rules.core.options import AirOptions


def echelon_of(level: int, options: AirOptions) -> Echelon | None:
    """S0 echelon of an altitude level; None on the ground (level 0 or below)."""
    if level <= 0:
        return None
    table = options.echelon_of_level
    if level in table:
        return Echelon(table[level])
    return Echelon(table[max(table)]) if level > max(table) else Echelon(table[min(table)])


def top_level(options: AirOptions) -> int:
    """The highest level the map knows (the top of Edge by default)."""
    return max(options.echelon_of_level)


def ceiling_level(profile: AircraftProfile, options: AirOptions) -> int:
    """S0: the highest level whose echelon the flight card allows."""
    allowed = [lv for lv, e in options.echelon_of_level.items() if e <= profile.ceiling]
    return max(allowed, default=0)


def levels_of(echelon: Echelon, options: AirOptions) -> tuple[int, ...]:
    return tuple(sorted(lv for lv, e in options.echelon_of_level.items() if e == echelon))


def needs_echelon_test(profile: AircraftProfile, level: int, options: AirOptions) -> bool:
    """S0 §Altitude explained: the echelon is in a red/grey box on the flight card."""
    e = echelon_of(level, options)
    return e is not None and e in profile.test_echelons


def describe_level(level: int, options: AirOptions) -> str:
    e = echelon_of(level, options)
    return "ground" if e is None else f"level {level} ({e.label})"


def s0_step(altitude: int, goal: int | None, progress: int, hexes: int,
            options: AirOptions) -> tuple[int, int]:
    """S0 §Changing altitude (option ``altitude_model = s0``).

    While a change is noted (``goal``), every hex flown counts toward a "move
    of 6" (``options.s0_hexes_per_level``), which may be split over rounds; each
    completed move changes altitude one level toward the goal. Returns the new
    altitude and the hexes counted toward the next level.
    """
    if goal is None or goal == altitude:
        return altitude, 0
    progress += hexes
    need = max(1, options.s0_hexes_per_level)
    while progress >= need and altitude != goal:
        altitude += 1 if goal > altitude else -1
        progress -= need
    if altitude == goal:
        progress = 0
    return altitude, progress
