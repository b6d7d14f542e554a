"""Take-off and landing (R-10): size classes, strips, every landing modifier,
go-around and crash-landing damage (the approach height, Bulky's rough
strips, a declined go-around: listed readings, docs/rules/READINGS.md).

The movement engine calls these for a ``Land()`` or ``TakeOff()`` step; the
target number is built here so a preview and the roll read the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from ka_tui.rules.air.check_roll import CheckRoll
from ka_tui.rules.air.battle_map import LandingSite, Surface
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.air.aircraft import (
    R10_LANDING_SPEED,
    r10_row,
    AircraftClass,
    AircraftProfile,
    EngineKind,
)
from ka_tui.rules.air.piloting_target import piloting_target, thrust_capacity
from ka_tui.rules.core.options import AirOptions
from ka_tui.rules.core.target import Finalizer, TargetNumber
from ka_tui.rules.air.traits import ignores


@dataclass(frozen=True)
class SizeClass:
    """One row of the R-10 table."""

    label: str
    max_landing_speed: int
    min_length: int
    min_width: int


SIZE_CLASSES: dict[int, SizeClass] = {
    1: SizeClass("single-engine", R10_LANDING_SPEED[1], 5, 1),
    2: SizeClass("twin-engine", R10_LANDING_SPEED[2], 8, 3),
    4: SizeClass("four-engine", R10_LANDING_SPEED[4], 12, 4),
}

# the take-off run by class; other classes use their profile's number.
SEED_TAKEOFF_RUN: dict[AircraftClass, int] = {
    AircraftClass.FIGHTER: 4, AircraftClass.HEAVY_FIGHTER: 6, AircraftClass.ATTACK: 6,
}

GO_AROUND_MAX_MARGIN = 3      # go around if missed by no more than 3
POINTS_PER_MARGIN = 10        # 10 damage per point of failure margin
OUT_OF_CONTROL_MARGIN = 10    # "automatic failure (count the margin as 10)"


def size_class(profile: AircraftProfile) -> SizeClass:
    """R-10 row by engine count (``aircraft.r10_row``)."""
    return SIZE_CLASSES[r10_row(profile.engines)]


def takeoff_run(profile: AircraftProfile) -> int:
    """R-10: strip hexes needed to reach take-off speed (the profile's figure,
    which the shipped profiles set from ``SEED_TAKEOFF_RUN``)."""
    return profile.takeoff_run


# S0 §Traits Bulky "may ignore effects of ... rough landing strips": the rough
# surfaces of R-10's table (rough ground, an unprepared strip, open ground).
ROUGH_STRIPS = frozenset({Surface.ROUGH, Surface.UNPREPARED, Surface.OPEN})


def surface_modifier(surface: Surface, options: AirOptions) -> tuple[int, str]:
    """R-10 modifier for what the aircraft lands on."""
    table: dict[Surface, int] = {
        Surface.PREPARED: -2, Surface.UNPREPARED: 2, Surface.WATER: 3, Surface.ROUGH: 3,
        Surface.FOREST: 5, Surface.CARRIER: 4, Surface.OPEN: options.open_ground_landing_mod,
    }
    label = {Surface.CARRIER: "landing on a carrier"}.get(surface, f"landing on {surface.label}")
    return table[surface], label


def carrier_refusal(unit: AirUnit, site: LandingSite) -> str | None:
    """R-10: four-engine craft cannot land on carriers unless fitted with special
    equipment and eternium engines."""
    if not site.carrier or r10_row(unit.profile.engines) < 4:
        return None
    if unit.carrier_equipped and unit.profile.engine_kind is EngineKind.ETERNIUM:
        return None
    return ("four-engine craft cannot land on a carrier without special equipment "
            "and eternium engines (R-10)")


def landing_target(unit: AirUnit, site: LandingSite, speed: int, options: AirOptions, *,
                   in_control: bool = True) -> TargetNumber:
    """R-10: piloting with every landing modifier that applies."""
    p = unit.profile
    cls = size_class(p)
    t = piloting_target(unit, "landing", "R-10")
    refusal = carrier_refusal(unit, site)
    if refusal is not None:
        return t.finalized(Finalizer.IMPOSSIBLE, refusal)
    t = t.plus(max(0, speed - p.landing_speed),
               f"speed {speed} over landing speed {p.landing_speed}", "R-10")
    t = t.plus(3 * unit.damage.at("landing_gear"), "damaged landing-gear legs", "R-10")
    capacity = thrust_capacity(unit, options)
    if capacity <= 0:
        t = t.plus(4, "no thrust points available", "R-10")
    elif 2 * capacity <= p.thrust:
        t = t.plus(2, f"maximum thrust reduced to {capacity} of {p.thrust}", "R-10")
    if site.length < cls.min_length:
        t = t.plus(2, f"{site.length}-hex strip, {cls.label} needs {cls.min_length}", "R-10")
    if site.width is not None and site.width < cls.min_width:
        t = t.plus(options.narrow_strip_mod,
                   f"{site.width}-hex wide, {cls.label} needs {cls.min_width}",
                   "R-10, house rule narrow_strip_mod")
    mod, label = surface_modifier(site.surface, options)
    if not (site.surface in ROUGH_STRIPS and ignores(p, "rough landing strips")):
        t = t.plus(mod, label, "R-10")
    if not in_control:
        t = t.finalized(Finalizer.AUTO_FAIL, "aircraft out of control, margin counts as 10 (R-10)")
    return t


@dataclass(frozen=True)
class LandingOutcome:
    landed: bool
    went_around: bool
    crash_points: int
    margin: int          # how far the roll missed (0 on a success)
    line: str


def landing_outcome(check: CheckRoll, go_around: bool) -> LandingOutcome:
    """R-10: success lands; a miss by ≤3 may go around; else 10 damage per point."""
    if check.success:
        return LandingOutcome(True, False, 0, 0, "lands and rolls to the end of the strip (R-10)")
    missed = OUT_OF_CONTROL_MARGIN if not check.rolled else -check.margin
    if missed <= GO_AROUND_MAX_MARGIN and go_around:
        return LandingOutcome(False, True, 0, missed,
                              f"missed by {missed}: goes around (R-10)")
    points = POINTS_PER_MARGIN * missed
    return LandingOutcome(True, False, points, missed,
                          f"missed by {missed}: crash-lands, {points} points of damage (R-10)")
