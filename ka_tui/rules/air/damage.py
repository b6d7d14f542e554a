"""Damage: points → hits → hit locations, pending vs in effect, destruction.

RULES-NOTES C: damage given in points (R-6.1 crash, R-10 landing) converts at
``AirOptions.points_per_hit`` (10) points per hit. RULES-NOTES D: each hit costs
1 Hull and rolls a location on the 2d6 hit-location table; a critical hit also
applies that location's effect. R-1.3: damage is recorded at once (in
``AirUnit.pending_damage``) but its effects count from the unit's own next
shooting phase (``bring_into_effect``). Destruction is at once: Hull (S0 §Flight
card) is "number of hits plane may take before being destroyed".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ka_tui.rules.air.units import AirUnit, Damage
from ka_tui.rules.air.aircraft import Trait
from ka_tui.rules.core.dice import Dice, roll_2d6
from ka_tui.rules.core.options import AirOptions, EngineOut
from ka_tui.rules.air.wounds import WoundResult, in_control, take_wound

# RULES-NOTES D: what a critical hit (or point damage) does at each location.
LOCATION_EFFECTS: dict[str, str] = {
    "cockpit": "pilot wounded",
    "engine": "−1 thrust",
    "left_wing": "no further effect",
    "right_wing": "no further effect",
    "fuselage": "no further effect",
    "control_surfaces": "+1 to piloting rolls",
    "landing_gear": "one landing-gear leg damaged",
    "fuel_tank": "fuel tank leaking",
}
HARMLESS_LOCATIONS = frozenset({"left_wing", "right_wing", "fuselage"})


def location_label(location: str) -> str:
    return location.replace("_", " ")


def points_to_hits(points: int, options: AirOptions) -> int:
    """RULES-NOTES C: every full block of ``points_per_hit`` points is one hit.

    The seed sources (R-6.1: 2d6 × 10 × speed; R-10: 10 per point of margin)
    always give whole blocks, so a part block is dropped.
    """
    return max(0, points) // max(1, options.points_per_hit)


def roll_location(dice: Dice, options: AirOptions) -> tuple[str, tuple[int, int]]:
    """RULES-NOTES D: 2d6 on the hit-location table (from the nose)."""
    faces = roll_2d6(dice)
    table = options.hit_locations
    total = sum(faces)
    loc = table.get(total) or table[min(table, key=lambda k: abs(k - total))]
    return loc, faces


@dataclass(frozen=True)
class HitOutcome:
    """One hit taken: where it landed and whether its location effect applies."""

    location: str
    faces: tuple[int, ...]
    critical: bool
    rerolled_from: str | None = None

    def render(self) -> str:
        kind = "critical hit" if self.critical else "hit"
        dice = "+".join(str(f) for f in self.faces)
        text = f"{kind} → {location_label(self.location)} (2d6 {dice})"
        if self.rerolled_from is not None:
            text += f", re-rolled from {location_label(self.rerolled_from)} (S0 §Traits Robust)"
        if self.critical:
            text += f": {LOCATION_EFFECTS.get(self.location, 'no further effect')}"
        return text


@dataclass(frozen=True)
class DamageReport:
    unit_id: str
    source: str
    hits: tuple[HitOutcome, ...]
    unrolled_hits: int            # hits on a wreck: counted, no location rolled
    added: Damage                 # what went into pending damage
    wounds: tuple[WoundResult, ...]
    destroyed_now: bool
    hull_left: int
    log: tuple[str, ...]

    @property
    def hull_hits(self) -> int:
        return self.added.hull_hits


def destroyed_by_hull(unit: AirUnit, hull_hits: int, options: AirOptions) -> bool:
    """S0 §Flight card Hull; S0 §Traits Glider glides on at 0 hull (option)."""
    if unit.profile.has_trait(Trait.GLIDER) and options.glider_survives_zero_hull:
        return hull_hits > unit.profile.hull
    return hull_hits >= unit.profile.hull


def apply_hits(unit: AirUnit, criticals: Sequence[bool], dice: Dice, options: AirOptions,
               *, source: str, critical_location_rerolls: int = 0) -> tuple[AirUnit, DamageReport]:
    """RULES-NOTES D: each hit costs 1 Hull and rolls a location; a critical
    applies that location's effect. Recorded as pending damage (R-1.3).

    ``critical_location_rerolls`` (S0 §Traits Robust, location reading): that
    many criticals whose location has an effect roll their location again and
    keep the second. A cockpit critical wounds the pilot at once (R-5). Once
    the unit is destroyed the rest of the hits are counted without rolls.
    """
    hull_so_far = unit.total_damage.hull_hits
    outcomes: list[HitOutcome] = []
    effects: dict[str, int] = {}
    located: dict[str, int] = {}
    lines: list[str] = []
    pilot = unit.pilot
    wounds: list[WoundResult] = []
    rerolls_left = critical_location_rerolls
    unrolled = 0
    was_destroyed = unit.destroyed
    for critical in criticals:
        if unit.destroyed or destroyed_by_hull(unit, hull_so_far, options):
            unrolled += 1
            hull_so_far += 1
            continue
        loc, faces = roll_location(dice, options)
        first: str | None = None
        if critical and rerolls_left > 0 and loc not in HARMLESS_LOCATIONS:
            rerolls_left -= 1
            first = loc
            loc, faces = roll_location(dice, options)
        hit = HitOutcome(loc, faces, critical, first)
        outcomes.append(hit)
        lines.append(f"{unit.id}: {hit.render()} ({source}, RULES-NOTES D)")
        hull_so_far += 1
        located[loc] = located.get(loc, 0) + 1
        if critical:
            effects[loc] = effects.get(loc, 0) + 1
            if loc == "cockpit":
                pilot, wound = take_wound(pilot, dice, cause=f"cockpit hit ({source})")
                wounds.append(wound)
                lines.extend(wound.log)
    if unrolled:
        lines.append(f"{unit.id}: {unrolled} more hit(s) on the wreck, no location rolled")
    added = Damage(len(outcomes) + unrolled, tuple(sorted(effects.items())),
                   tuple(sorted(located.items())))
    destroyed = was_destroyed or destroyed_by_hull(unit, hull_so_far, options)
    out = replace(unit, pilot=pilot, pending_damage=unit.pending_damage.plus(added),
                  destroyed=destroyed)
    if destroyed and not was_destroyed:
        lines.append(f"{unit.id} is destroyed: {hull_so_far} hits on Hull {unit.profile.hull}"
                     " (S0 §Flight card Hull)")
    elif unit.profile.has_trait(Trait.GLIDER) and out.hull_left == 0 and not destroyed:
        lines.append(f"{unit.id} has no hull left but glides on under control (S0 §Traits Glider)")
    report = DamageReport(unit.id, source, tuple(outcomes), unrolled, added, tuple(wounds),
                          destroyed and not was_destroyed, out.hull_left, tuple(lines))
    return out, report


def apply_points(unit: AirUnit, points: int, dice: Dice, options: AirOptions,
                 *, source: str) -> tuple[AirUnit, DamageReport]:
    """RULES-NOTES C: points → hits (10 per hit), each to a rolled location (R-6.1)."""
    hits = points_to_hits(points, options)
    out, report = apply_hits(unit, [options.point_damage_effects] * hits, dice, options,
                             source=source)
    head = (f"{unit.id}: {points} points of damage = {hits} hit(s) "
            f"({options.points_per_hit} points per hit, RULES-NOTES C; {source})")
    return out, replace(report, log=(head, *report.log))


def apply_effect(unit: AirUnit, location: str, source: str) -> tuple[AirUnit, str]:
    """A location effect without a hull hit (the heat phase's engine damage,
    R-3.5 / RULES-NOTES D), pending until it takes effect (R-1.3)."""
    added = Damage(0, ((location, 1),), ())
    line = f"{unit.id}: {location_label(location)} damaged: {LOCATION_EFFECTS[location]} ({source})"
    return replace(unit, pending_damage=unit.pending_damage.plus(added)), line


def bring_into_effect(unit: AirUnit) -> AirUnit:
    """R-1.3: pending damage takes effect in the unit's own shooting phase."""
    if unit.pending_damage.empty:
        return unit
    return replace(unit, damage=unit.damage.plus(unit.pending_damage), pending_damage=Damage())


# -------------------------------------------------------------- effects in force

def thrust_lost(unit: AirUnit) -> int:
    """RULES-NOTES D engine: −1 thrust per engine effect in force."""
    return unit.damage.at("engine")


def engine_disabled(unit: AirUnit) -> bool:
    """No thrust left from damage, or no fuel (R-1.4 reports "engine
    condition, fuel"; reading: an empty tank is a disabled engine)."""
    return thrust_lost(unit) >= unit.profile.thrust or unit.fuel <= 0


def uncontrolled_by_damage(unit: AirUnit, options: AirOptions) -> bool:
    """S0 §Traits Glider: a Glider will "remain under control after engine is
    disabled and no hull points left". Any other aircraft: house rule
    ``engine_out_control`` -- seed_and, out of control only with both (no hull
    left is destroyed for it, S0 §Flight card Hull, so never in play); either,
    with one of them."""
    if unit.profile.has_trait(Trait.GLIDER):
        return False
    if options.engine_out_control is EngineOut.EITHER:
        return engine_disabled(unit) or unit.hull_left == 0
    return engine_disabled(unit) and unit.hull_left == 0


def under_control(unit: AirUnit, options: AirOptions) -> bool:
    """R-3.2 stall flag, R-5 pilot, S0 §Traits Glider damage — all in one answer."""
    return in_control(unit) and not uncontrolled_by_damage(unit, options)


def stall_locked(unit: AirUnit) -> bool:
    """R-3.2: after a failed stall check the aircraft "cannot land or take off";
    the steep-descent failure of R-3.3 is read as the same consequence."""
    return unit.out_of_control


def out_of_battle(unit: AirUnit) -> bool:
    """Destroyed (S0 §Flight card Hull) or crashed (R-6.1)."""
    return unit.destroyed or unit.crashed
