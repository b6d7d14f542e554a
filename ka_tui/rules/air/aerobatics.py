"""Aerobatic figures (R-9) as data: minimum speed, thrust, difficulty, G-rating.

Who may fly them (R-9: no larger than an attack aircraft; S0 §Flight card: Loop
and Roll boxes), when (R-9: at the start of the movement, one per turn, the
slide-slip at any point) and what each does to position, facing, altitude and
speed. The movement engine (``movement.py``) applies the effect; this module
only holds the table and the eligibility rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ka_tui.rules.air.aircraft import AircraftClass, AircraftProfile


class FigureKind(str, Enum):
    """R-9: the seven aerobatic figures."""

    LOOP = "loop"
    IMMELMANN = "immelmann"
    SPLIT_S = "split_s"
    HAMMERHEAD = "hammerhead"
    HALF_ROLL = "half_roll"
    BARREL_ROLL = "barrel_roll"
    SLIDE_SLIP = "slide_slip"

    @property
    def label(self) -> str:
        return FIGURES[self].name


class Capability(str, Enum):
    """S0 §Flight card box an aircraft needs for a figure."""

    NONE = "none"
    LOOP = "loop"            # S0: "Loop: vertical climb, loop or immelman"
    IMMELMANN = "immelmann"
    ROLL = "roll"            # S0: "Roll: roll to the side or barrel roll"


@dataclass(frozen=True)
class FigureSpec:
    """One row of the R-9 table.

    ``thrust`` is None for the hammerhead, whose cost equals the current speed.
    ``g_rating`` is the number of hex sides the figure counts toward the turn's
    G-load (R-4); 0 where the table gives "—".
    """

    kind: FigureKind
    name: str
    effect: str
    min_speed: int
    thrust: int | None
    difficulty: int
    g_rating: int
    needs: Capability
    anytime: bool = False
    altitude_change: int = 0
    speed_change: int = 0
    reverses_facing: bool = False
    hexes_used: int = 0
    ends_move: bool = False

    def thrust_cost(self, speed: int) -> int:
        """R-9: thrust points the figure costs at this speed."""
        return speed if self.thrust is None else self.thrust


# R-9 table. ``hexes_used``: the loop "uses the first 4 points of speed";
# ``ends_move``: the hammerhead "stays in the same hex" (house reading: for the
# whole turn). Immelmann, split-S and the rolls use no hexes of the move.
FIGURES: dict[FigureKind, FigureSpec] = {
    FigureKind.LOOP: FigureSpec(
        FigureKind.LOOP, "Loop", "ends in the hex where it began; uses the first 4 points of speed",
        min_speed=4, thrust=4, difficulty=1, g_rating=3, needs=Capability.LOOP, hexes_used=4),
    FigureKind.IMMELMANN: FigureSpec(
        FigureKind.IMMELMANN, "Immelmann", "gains 2 altitude, same hex, facing reversed",
        min_speed=2, thrust=4, difficulty=1, g_rating=2, needs=Capability.IMMELMANN,
        altitude_change=2, reverses_facing=True),
    FigureKind.SPLIT_S: FigureSpec(
        FigureKind.SPLIT_S, "Split-S", "loses 2 altitude, facing reversed, speed +1",
        min_speed=0, thrust=2, difficulty=2, g_rating=2, needs=Capability.IMMELMANN,
        altitude_change=-2, speed_change=1, reverses_facing=True),
    FigureKind.HAMMERHEAD: FigureSpec(
        FigureKind.HAMMERHEAD, "Hammerhead", "stays in the same hex, facing reversed",
        min_speed=0, thrust=None, difficulty=3, g_rating=4, needs=Capability.LOOP,
        reverses_facing=True, ends_move=True),
    FigureKind.HALF_ROLL: FigureSpec(
        FigureKind.HALF_ROLL, "Half-roll", "swaps right and left, top and bottom",
        min_speed=0, thrust=1, difficulty=-1, g_rating=0, needs=Capability.ROLL),
    FigureKind.BARREL_ROLL: FigureSpec(
        FigureKind.BARREL_ROLL, "Barrel roll", "no change of facing; speed -1",
        min_speed=1, thrust=1, difficulty=0, g_rating=0, needs=Capability.ROLL, speed_change=-1),
    FigureKind.SLIDE_SLIP: FigureSpec(
        FigureKind.SLIDE_SLIP, "Slide-slip",
        "moves into the front-left or front-right hex instead of ahead, facing unchanged",
        min_speed=0, thrust=1, difficulty=0, g_rating=1, needs=Capability.NONE, anytime=True),
}

# "An aircraft no larger than an attack aircraft may fly aerobatic figures."
AEROBATIC_CLASSES = frozenset({AircraftClass.FIGHTER, AircraftClass.HEAVY_FIGHTER,
                               AircraftClass.ATTACK})


def figure_refusal(profile: AircraftProfile, kind: FigureKind, speed: int) -> str | None:
    """Why this aircraft cannot fly this figure at this speed (R-9, S0), or None."""
    spec = FIGURES[kind]
    if profile.aircraft_class not in AEROBATIC_CLASSES:
        return (f"{spec.name}: a {profile.aircraft_class.label.lower()} may not fly aerobatic "
                "figures (R-9: no larger than an attack aircraft)")
    box = {Capability.LOOP: profile.loop, Capability.IMMELMANN: profile.immelmann,
           Capability.ROLL: profile.roll, Capability.NONE: True}[spec.needs]
    if not box:
        return f"{spec.name}: the flight card has no {spec.needs.value} box (S0 §Flight card)"
    if speed < spec.min_speed:
        return f"{spec.name} needs speed {spec.min_speed}, speed is {speed} (R-9)"
    return None


def half_speed_fallback(speed: int) -> int:
    """R-9: a failed figure roll leaves the aircraft moving forward half its speed.

    Halves round down (house reading; the seed gives no rounding).
    """
    return max(0, speed) // 2
