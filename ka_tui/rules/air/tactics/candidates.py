"""Candidate plans for a suggestion: a bounded search over the engine's own
moves, every one checked by ``movement.validate_plan``.

1. ``reach.end_routes``: every (hex, facing, speed) a level move can end in
   (R-3.1 thrust at the start, R-3.4 turns), each by the route with the fewest
   sides turned (R-4).
2. A cheap first look (``rank``, given by the caller) keeps the ``keep`` best
   end states, plus the straight route.
3. Each kept route gets variants: a change of level first (R-3.3: climb one
   level paying two thrust, descend one or two levels, no check), then thrust
   at the end (R-3.1) to keep the speed above the R-3.2 stall (speed 6 or
   more, as the next turn starts 5 lower) or to the most the thrust left
   allows; and, over a strip, a landing where the route crosses it (R-10).
4. ``validate_plan`` says which variants are legal and what they need.

The search is bounded: ``keep`` routes times at most three levels times three
throttles (and a few landings), so at speed 12 it stays within the
tactics benchmark's budget (benchmarks/tactics.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ka_tui.rules.air.battle_map import BattleMap
from ka_tui.rules.air.hexgrid import FACINGS
from ka_tui.rules.air.move_plan import (
    Climb, Descend, Forward, Land, Plan, PlanCheck, PlanProblem, Step, Thrust, TurnLeft,
    TurnRight, format_plan,
)
from ka_tui.rules.air.movement import complete_plan, validate_plan
from ka_tui.rules.air.reach import EndState, end_routes
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.core.options import AirOptions

# the next turn starts 5 lower; at 0 a piston engine stalls
STALL_FREE_SPEED = 6


@dataclass(frozen=True)
class Candidate:
    plan: Plan
    check: PlanCheck

    @property
    def text(self) -> str:
        return format_plan(self.plan)


def _level_steps(change: int) -> tuple[Step, ...]:
    if change > 0:
        return (Climb(change, "thrust"),)
    if change < 0:
        return (Descend(-change),)
    return ()


def _with_level(base: Plan, change: int) -> Plan:
    """The level change goes first, after any thrust at the start (R-3.1)."""
    head = 1 if base and isinstance(base[0], Thrust) else 0
    return base[:head] + _level_steps(change) + base[head:]


def _throttles(unit: AirUnit, check: PlanCheck) -> list[int]:
    """Thrust at the end worth trying: none, enough for speed 6, the most."""
    if not check.legal or check.end.landed:
        return []
    left = check.thrust_available - check.thrust_used
    speed = check.end.speed
    room = max(0, unit.profile.move - speed)
    out = [0]
    if unit.profile.stalls and speed < STALL_FREE_SPEED:
        out.append(min(left, room, STALL_FREE_SPEED - speed))
    out.append(min(left, room))
    return sorted({n for n in out if n >= 0})


def _landings(unit: AirUnit, plan: Plan, battle_map: BattleMap) -> list[Plan]:
    """R-10: the route cut where it is over a strip, with a landing there."""
    if not battle_map.strips and not battle_map.carriers:
        return []
    out: list[Plan] = []
    here, facing = unit.hex, unit.facing
    head = 1 if plan and isinstance(plan[0], Thrust) else 0
    if battle_map.strip_at(here) is not None:
        out.append(plan[:head] + (Land(),))
    for i, step in enumerate(plan):
        if isinstance(step, TurnLeft):
            facing = (facing - 1) % FACINGS
        elif isinstance(step, TurnRight):
            facing = (facing + 1) % FACINGS
        elif isinstance(step, Forward):
            here = here.neighbour(facing)
            if battle_map.strip_at(here) is not None:
                out.append(plan[:i + 1] + (Land(),))
    return out


def candidates(unit: AirUnit, battle_map: BattleMap, options: AirOptions,
               rank: Callable[[EndState], float], levels: Iterable[int],
               keep: int = 24, landing: bool = False) -> list[Candidate]:
    """Legal candidate plans for ``unit`` (see the module docstring); ``levels``
    are the level changes to try (0 = stay), ``landing`` adds landings."""
    routes = end_routes(unit, battle_map, options)
    ends = routes.ends
    if not ends:
        plan = complete_plan(unit, (), battle_map, options)
        check = validate_plan(unit, plan, battle_map, options)
        return [Candidate(plan, check)] if check.legal else []
    scored = sorted(ends, key=lambda e: (-rank(e), e.sides, e.speed, e.hex.q, e.hex.r,
                                         e.facing))
    kept = list(scored[:keep])
    straight = [e for e in ends if e.sides == 0 and e.speed == unit.speed]
    kept += [e for e in straight if e not in kept]
    seen: set[Plan] = set()
    out: list[Candidate] = []

    def add(plan: Plan) -> PlanCheck | None:
        if plan in seen:
            return None
        seen.add(plan)
        check = validate_plan(unit, plan, battle_map, options)
        if not check.legal and check.problem is PlanProblem.SHORT:
            plan = complete_plan(unit, plan, battle_map, options)
            if plan in seen:
                return None
            seen.add(plan)
            check = validate_plan(unit, plan, battle_map, options)
        if check.legal:
            out.append(Candidate(plan, check))
            return check
        return None

    level_list = list(dict.fromkeys(levels)) or [0]
    for end in kept:
        base = routes.plan(end)
        for change in level_list:
            got = add(_with_level(base, change))
            if got is None:
                continue
            plan = out[-1].plan
            for n in _throttles(unit, got):
                if n:
                    add(plan + (Thrust(n, "end"),))
        if landing:
            for plan in _landings(unit, base, battle_map):
                add(plan)
    return out
