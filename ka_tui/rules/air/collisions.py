"""Collisions (R-6) and crashing into terrain (R-6.1).

R-6: where several objects share a hex and one is out of control, one 2d6 roll
for the hex however many objects: 11+ (10+ with a large object) and a collision
with a random object happens. Objects collide only at the same level. A hex is
shared not only where a move ends (``turn.end_movement``) but also where it
passes (``check_path_collisions``: each hex and level of the path, once). The
colliding pair take ram damage (house rule ``collision_damage_extra``: the seed
gives none). R-6.1: ending at a terrain feature's height (not landing) is a
crash of 2d6 × 10 × speed points, in blocks of 10 to random locations. The
same level, the path, "any large object" and who hits whom are listed
readings (docs/rules/READINGS.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ka_tui.rules.air.check_roll import CheckRoll, roll_check
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.air.aircraft import AircraftClass
from ka_tui.rules.air.damage import DamageReport, apply_hits, apply_points, out_of_battle, \
    under_control
from ka_tui.rules.core.dice import Dice, roll_2d6
from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.air.move_plan import PathPoint
from ka_tui.rules.core.options import AirOptions
from ka_tui.rules.core.target import TargetNumber

COLLISION_ON = 11
COLLISION_ON_LARGE = 10


def collision_target(objects: Sequence[AirUnit]) -> TargetNumber:
    """R-6: 11+, or 10+ when a large object shares the hex."""
    if any(u.profile.aircraft_class is AircraftClass.LARGE for u in objects):
        return TargetNumber(COLLISION_ON_LARGE, "collision with a large object in the hex", "R-6")
    return TargetNumber(COLLISION_ON, "collision", "R-6")


def crowded_places(units: Sequence[AirUnit]) -> dict[tuple[Hex, int], tuple[AirUnit, ...]]:
    """R-6: (hex, level) → the flying objects there, where there are two or more."""
    groups: dict[tuple[Hex, int], list[AirUnit]] = {}
    for u in units:
        if not out_of_battle(u) and not u.landed:
            groups.setdefault((u.hex, u.altitude), []).append(u)
    return {k: tuple(v) for k, v in groups.items() if len(v) >= 2}


def needs_collision_roll(objects: Sequence[AirUnit], options: AirOptions) -> bool:
    """R-6: several objects in one hex and one of them out of control."""
    return len(objects) >= 2 and any(not under_control(u, options) for u in objects)


@dataclass(frozen=True)
class CollisionResult:
    hex: Hex
    altitude: int
    check: CheckRoll
    collided: tuple[str, str] | None
    damage: tuple[DamageReport, ...]
    log: tuple[str, ...]


def collision_damage(a: AirUnit, b: AirUnit, options: AirOptions) -> int:
    """House rule collision_damage_extra (R-6 gives no damage): as a ram, RULES-NOTES D."""
    return abs(a.speed - b.speed) + options.collision_damage_extra


def check_collision(objects: Sequence[AirUnit], dice: Dice,
                    options: AirOptions) -> tuple[tuple[AirUnit, ...], CollisionResult]:
    """R-6: one roll for the hex. On a collision, the out-of-control object
    (chosen by a die if several) hits a random other object (chosen by a die).

    ``objects`` must share a hex and level and need the roll
    (``needs_collision_roll``). Returns the objects in the same order.
    """
    here, level = objects[0].hex, objects[0].altitude
    check = roll_check(f"collision at {here.q},{here.r} level {level} (R-6)",
                       collision_target(objects), dice)
    lines = [check.render()]
    if not check.success:
        lines.append("no collision (R-6)")
        return tuple(objects), CollisionResult(here, level, check, None, (), tuple(lines))
    wild = [i for i, u in enumerate(objects) if not under_control(u, options)]
    i = wild[dice.roll(len(wild)) - 1] if len(wild) > 1 else wild[0]
    others = [j for j in range(len(objects)) if j != i]
    j = others[dice.roll(len(others)) - 1] if len(others) > 1 else others[0]
    a, b = objects[i], objects[j]
    hits = collision_damage(a, b, options)
    lines.append(f"{a.id} collides with {b.id}: {hits} hit(s) each "
                 "(R-6; house rule collision_damage_extra)")
    a2, rep_a = apply_hits(a, [False] * hits, dice, options, source=f"collision with {b.id}")
    b2, rep_b = apply_hits(b, [False] * hits, dice, options, source=f"collision with {a.id}")
    lines.extend((*rep_a.log, *rep_b.log))
    out = list(objects)
    out[i], out[j] = a2, b2
    return tuple(out), CollisionResult(here, level, check, (a.id, b.id), (rep_a, rep_b),
                                       tuple(lines))


@dataclass(frozen=True)
class CrashResult:
    unit_id: str
    faces: tuple[int, int]
    speed: int
    points: int
    damage: DamageReport
    log: tuple[str, ...]


def terrain_crash(unit: AirUnit, dice: Dice, options: AirOptions) -> tuple[AirUnit, CrashResult]:
    """R-6.1: 2d6 × 10 × current speed points, in blocks of 10 to random
    locations (nose table); the aircraft is down for the rest of the battle."""
    faces = roll_2d6(dice)
    speed = max(unit.speed, options.crash_min_speed)
    points = sum(faces) * 10 * speed
    floor = "" if speed == unit.speed else f" (speed {unit.speed} counted as {speed}, " \
        "house rule crash_min_speed)"
    head = (f"{unit.id} crashes into the terrain: 2d6 {faces[0]}+{faces[1]} = {sum(faces)}"
            f" × 10 × speed {speed} = {points} points (R-6.1){floor}")
    hurt, report = apply_points(unit, points, dice, options, source="terrain crash, R-6.1")
    down = replace(hurt, crashed=True, speed=0)
    return down, CrashResult(unit.id, faces, speed, points, report,
                             (head, *report.log, f"{unit.id} is down (R-6.1)"))


# ------------------------------------------------------------ along the path

@dataclass(frozen=True)
class PathPlace:
    """A hex and level a move passes through where other flying objects are."""

    step: int                      # the plan step that reached it (PathPoint.step)
    hex: Hex
    altitude: int
    speed: int
    others: tuple[AirUnit, ...]

    def objects(self, mover: AirUnit) -> tuple[AirUnit, ...]:
        """The mover (placed here) and the others: the objects R-6 rolls for."""
        return (replace(mover, hex=self.hex, altitude=self.altitude, speed=self.speed),
                *self.others)


def _flying(u: AirUnit) -> bool:
    return not (out_of_battle(u) or u.landed)


def path_places(before: AirUnit, path: Sequence[PathPoint],
                others: Sequence[AirUnit]) -> tuple[PathPlace, ...]:
    """R-6 along the path: every (hex, level) the move passes through where
    another flying object is, in path order, each once. Not the start (the
    aircraft was already there) nor the end (``end_movement`` rolls there)."""
    if not path:
        return ()
    start = (before.hex, before.altitude)
    end = (path[-1].hex, path[-1].altitude)
    seen = {start, end}
    out: list[PathPlace] = []
    for point in path:
        here = (point.hex, point.altitude)
        if here in seen:
            continue
        seen.add(here)
        there = tuple(u for u in others if u.id != before.id and _flying(u)
                      and (u.hex, u.altitude) == here)
        if there:
            out.append(PathPlace(point.step, point.hex, point.altitude, point.speed, there))
    return tuple(out)


def _mover_state(before: AirUnit, after: AirUnit) -> AirUnit:
    """The mover as R-6 sees it on the way: out of control if it was at the start
    of the move or is at its end (the path does not say when it changed)."""
    return replace(after, out_of_control=after.out_of_control or before.out_of_control)


def path_collision_checks(before: AirUnit, after: AirUnit, path: Sequence[PathPoint],
                          others: Sequence[AirUnit], options: AirOptions,
                          ) -> tuple[tuple[PathPlace, TargetNumber], ...]:
    """Preview (no dice): each place on the path that will need the R-6 roll,
    with its target (the chance of a collision is ``target.probability()``)."""
    mover = _mover_state(before, after)
    out = []
    for place in path_places(before, path, others):
        objs = place.objects(mover)
        if needs_collision_roll(objs, options):
            out.append((place, collision_target(objs)))
    return tuple(out)


def check_path_collisions(before: AirUnit, after: AirUnit, path: Sequence[PathPoint],
                          others: Sequence[AirUnit], dice: Dice, options: AirOptions
                          ) -> tuple[AirUnit, tuple[AirUnit, ...], tuple[CollisionResult, ...]]:
    """R-6 for each place the move passed through with an out-of-control object
    there (the mover or another): one roll per place, in path order. Returns the
    mover (at its end position, with any damage), the other objects it changed,
    and the results. A mover destroyed on the way stops rolling."""
    mover = after
    changed: dict[str, AirUnit] = {}
    results: list[CollisionResult] = []
    for place in path_places(before, path, others):
        if mover.destroyed:
            break
        there = tuple(changed.get(u.id, u) for u in place.others)
        objs = PathPlace(place.step, place.hex, place.altitude, place.speed,
                         there).objects(_mover_state(before, mover))
        if not needs_collision_roll(objs, options):
            continue
        outs, res = check_collision(objs, dice, options)
        if res.collided is not None:
            mover = replace(outs[0], hex=mover.hex, altitude=mover.altitude, speed=mover.speed,
                            out_of_control=mover.out_of_control)
            changed.update((u.id, u) for u, was in zip(outs[1:], objs[1:]) if u != was)
        results.append(replace(res, log=(f"{before.id} passes through {place.hex.q},"
                                         f"{place.hex.r} level {place.altitude} (R-6)",
                                         *res.log)))
    return mover, tuple(changed.values()), tuple(results)
