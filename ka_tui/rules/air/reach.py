"""The reach overlay: every hex an aircraft can end its move in this turn (R-3).

For the tactical view: each hex within the aircraft's reach is
marked by what getting there needs — no check, a check (with the worst odds
of the easiest route), or out of reach. Computed from the aircraft's speed,
thrust at the start of the move (R-3.1), turn mode (R-3.4), altitude and the
terrain (R-6.1), and the G-load checks its turns bring (R-4).

What is searched (named, so the GM knows what the marks mean): level flight
— thrust at the start (R-3.1, every amount the thrust left allows), then
straight hexes and hex-side turns (R-3.4) — the moves a GM plans most. Climbs,
dives, aerobatic figures (R-9), boosts (R-3.5, R-3.6) and landing (R-10) are not
searched; the plan preview shows their costs and checks when they are keyed.

The engine decides everything it can: ``movement.validate_plan`` gives, for
each thrust amount, the hexes to fly, the altitude after every hex and the
checks of the thrust itself (a stall at speed 0, R-3.2); ``gload.gload_checks``
gives the R-4 checks for the sides turned. The search only chains ``Forward``
and ``TurnLeft``/``TurnRight`` steps with the turn-mode rule, keeping for every
(hex, facing, straight run) the route with the fewest sides turned — fewer
sides never need a harder G-load check (R-4), so nothing better is dropped.
Every route found is a plan ``validate_plan`` accepts (tests/rules/test_reach.py).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from ka_tui.rules.air import gload
from ka_tui.rules.air.battle_map import BattleMap
from ka_tui.rules.air.damage import out_of_battle, under_control
from ka_tui.rules.air.hexgrid import FACINGS, Hex, distance, ring
from ka_tui.rules.air.move_plan import (
    Forward,
    Plan,
    RequiredCheck,
    Step,
    Thrust,
    TurnLeft,
    TurnRight,
)
from ka_tui.rules.air.movement import validate_plan
from ka_tui.rules.air.piloting_target import thrust_capacity
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.core.options import AirOptions

ReachKind = Literal["free", "check", "out"]

_DIRS: tuple[tuple[int, int], ...] = tuple(
    (Hex(0, 0).neighbour(f).q, Hex(0, 0).neighbour(f).r) for f in range(FACINGS))

_FORWARD, _LEFT, _RIGHT = Forward(), TurnLeft(), TurnRight()

# A search state: q, r, facing, straight run (capped at the turn mode's need).
_State = tuple[int, int, int, int]


@dataclass(frozen=True)
class ReachHex:
    """One hex of the overlay."""

    hex: Hex
    kind: ReachKind
    plan: Plan = ()                                # the easiest route found (empty: out)
    checks: tuple[RequiredCheck, ...] = ()
    all_pass: Fraction = Fraction(1)               # every check of the route passes
    worst: Fraction | None = None                  # the route's hardest check

    @property
    def odds_label(self) -> str:
        """The worst odds as a short label (``72%``); empty without a check."""
        if self.worst is None:
            return ""
        pct = float(self.worst) * 100
        return "<1%" if 0 < pct < 1 else f"{pct:.0f}%"


@dataclass(frozen=True)
class Reach:
    unit_id: str
    hexes: Mapping[Hex, ReachHex]
    note: str = ""
    speeds: tuple[int, ...] = ()                   # hexes to fly, per thrust amount searched

    def kind_at(self, h: Hex) -> ReachKind | None:
        got = self.hexes.get(h)
        return None if got is None else got.kind

    def count(self, kind: ReachKind) -> int:
        return sum(1 for x in self.hexes.values() if x.kind == kind)


@dataclass
class _Option:
    """One thrust amount at the start: what the engine says about flying it."""

    prefix: Plan
    speed: int
    need: int
    base_checks: tuple[RequiredCheck, ...]
    altitudes: tuple[int, ...]                     # level after hex k (index k - 1)


@dataclass
class _Layer:
    best: dict[_State, int] = field(default_factory=dict)          # state -> fewest sides
    parent: dict[_State, tuple[_State | None, Step | None]] = field(default_factory=dict)


def _options(unit: AirUnit, battle_map: BattleMap, options: AirOptions) -> list[_Option]:
    cap = thrust_capacity(unit, options) if under_control(unit, options) else 0
    found: dict[int, _Option] = {}
    for n in sorted(range(-cap, cap + 1), key=abs):
        prefix: Plan = (Thrust(n),) if n else ()
        first = validate_plan(unit, prefix, battle_map, options)
        speed = first.hexes_to_fly
        if not first.legal and "the plan flies" not in first.reason:
            continue
        if speed in found:
            continue
        straight = validate_plan(unit, prefix + (Forward(),) * speed, battle_map, options)
        if not straight.legal:
            continue
        flown = [p.altitude for p in straight.path[1 + len(prefix):]]
        last = flown[-1] if flown else straight.end.altitude
        alts = tuple(flown + [last] * (speed - len(flown)))
        basis = speed  # basis: the speed after start thrust (start or current alike)
        found[speed] = _Option(prefix, speed, unit.profile.hexes_per_facing(basis),
                               tuple(c for c in straight.checks if c.step >= 0), alts)
    return sorted(found.values(), key=lambda o: o.speed)


def reach(unit: AirUnit, battle_map: BattleMap, options: AirOptions) -> Reach:
    """Every hex ``unit`` can end its move in this turn, level flight (see the
    module docstring), each with the easiest route and its checks (R-3, R-4)."""
    if out_of_battle(unit):
        return Reach(unit.id, {}, f"{unit.id} is out of the battle")
    if unit.moved:
        return Reach(unit.id, {}, f"{unit.id} has already moved this turn (R-1.2)")
    if unit.landed:
        return Reach(unit.id, {}, f"{unit.id} is on the ground: take off first (R-10)")
    opts = _options(unit, battle_map, options)
    if not opts:
        return Reach(unit.id, {}, f"{unit.id} has no legal level move")
    turns = under_control(unit, options)
    gcache: dict[int, tuple[RequiredCheck, ...]] = {}
    odds: dict[tuple[int, int],
               tuple[tuple[RequiredCheck, ...], Fraction, Fraction | None, float]] = {}

    def route_odds(o: _Option, sides: int) -> tuple[tuple[RequiredCheck, ...], Fraction,
                                                    Fraction | None, float]:
        key = (o.speed, sides)
        if key not in odds:
            if sides not in gcache:
                gcache[sides] = tuple(RequiredCheck(g.what, g.target, -1, g.on_fail)
                                      for g in gload.gload_checks(unit, sides, options))
            checks = o.base_checks + gcache[sides]
            probs = [c.probability for c in checks]
            p = Fraction(1)
            for x in probs:
                p *= x
            odds[key] = (checks, p, min(probs, default=None), float(p))
        return odds[key]

    # per hex (q, r): (all-pass odds, -sides) to rank routes (as floats, quick to
    # compare), and where the route is
    rank: dict[tuple[int, int], tuple[float, int]] = {}
    where: dict[tuple[int, int], tuple[_Option, dict[int, _Layer], _State]] = {}
    by_need: dict[int, list[_Option]] = {}
    for o in opts:
        by_need.setdefault(o.need, []).append(o)
    for need, group in by_need.items():
        ends = {o.speed: o for o in group}
        layers = _search(unit, battle_map, need, max(ends), _longest(group), turns)
        for speed, o in ends.items():
            per_hex: dict[tuple[int, int], tuple[int, _State]] = {}
            for st, sides in layers[speed].best.items():
                cell = (st[0], st[1])
                got = per_hex.get(cell)
                if got is None or sides < got[0]:
                    per_hex[cell] = (sides, st)
            for cell, (sides, st) in per_hex.items():
                key = (route_odds(o, sides)[3], -sides)
                old = rank.get(cell)
                if old is not None and old >= key:
                    continue
                rank[cell] = key
                where[cell] = (o, layers, st)
    best: dict[Hex, ReachHex] = {}
    for cell, (o, layers, st) in where.items():
        checks, p, worst, _ = route_odds(o, -rank[cell][1])
        h = Hex(*cell)
        best[h] = ReachHex(h, "check" if checks else "free", o.prefix + _route(layers, o.speed, st),
                           checks, p, worst)
    radius = max(o.speed for o in opts)
    for k in range(radius + 1):
        for h in ring(unit.hex, k):
            if h not in best and (not battle_map.cols or battle_map.in_bounds(h)):
                best[h] = ReachHex(h, "out")
    note = ("level flight: thrust at the start, straight hexes and turns (R-3.1, R-3.4); "
            "climbs, dives and figures are not searched")
    return Reach(unit.id, best, note, tuple(o.speed for o in opts))


def _longest(group: list[_Option]) -> tuple[int, ...]:
    """Altitude after each hex: the same for every speed of a group in level flight
    (S0 climbs in progress follow the hexes flown, not the speed)."""
    return max((o.altitudes for o in group), key=len)


def _search(unit: AirUnit, battle_map: BattleMap, need: int, hexes: int,
            altitudes: tuple[int, ...], turns: bool) -> dict[int, _Layer]:
    """Layer k: every (hex, facing, run) after k hexes, with the fewest sides."""
    bounded = bool(battle_map.cols)
    start: _State = (unit.hex.q, unit.hex.r, unit.facing, min(unit.straight_run, need))
    layer = _Layer({start: 0}, {start: (None, None)})
    if turns:
        _turn_closure(layer, need)
    layers = {0: layer}
    heights: dict[tuple[int, int], int] = {}
    for k in range(1, hexes + 1):
        alt = altitudes[k - 1]
        nxt = _Layer()
        for st, sides in layer.best.items():
            q, r, f, run = st
            dq, dr = _DIRS[f]
            cell = (q + dq, r + dr)
            if cell not in heights:
                h = Hex(*cell)
                heights[cell] = -1 if bounded and not battle_map.in_bounds(h) \
                    else battle_map.height(h)
            height = heights[cell]
            if height < 0 or alt <= height:
                continue  # off the map, or into the terrain
            ns: _State = (cell[0], cell[1], f, min(run + 1, need))
            old = nxt.best.get(ns)
            if old is None or sides < old:
                nxt.best[ns] = sides
                nxt.parent[ns] = (st, _FORWARD)
        if turns:
            _turn_closure(nxt, need)
        layer = nxt
        layers[k] = layer
    return layers


def _turn_closure(layer: _Layer, need: int) -> None:
    """Add the turns (R-3.4) possible in this hex: one side per ``need`` straight
    hexes; with a need of 0 (never in the tables) up to three sides."""
    frontier = [st for st in layer.best if st[3] >= need]
    rounds = 0
    while frontier and rounds < 3:
        rounds += 1
        out: list[_State] = []
        for st in frontier:
            q, r, f, _run = st
            sides = layer.best[st] + 1
            for step, nf in ((_LEFT, (f - 1) % FACINGS), (_RIGHT, (f + 1) % FACINGS)):
                ns: _State = (q, r, nf, 0)
                old = layer.best.get(ns)
                if old is None or sides < old:
                    layer.best[ns] = sides
                    layer.parent[ns] = (st, step)
                    if need <= 0:
                        out.append(ns)
        frontier = out


def _route(layers: dict[int, _Layer], k: int, st: _State) -> Plan:
    steps: list[Step] = []
    cur: _State | None = st
    while cur is not None:
        parent, step = layers[k].parent[cur]
        if step is None:
            break
        steps.append(step)
        if isinstance(step, Forward):
            k -= 1
        cur = parent
    return tuple(reversed(steps))



# ------------------------------------------------------------------ cursor readout

@dataclass(frozen=True)
class Readout:
    """What the tactical view reads between the selected aircraft and a hex:
    range in hexes and band (RULES-NOTES D), bearing from the nose (degrees
    clockwise and as a clock position), same altitude as the aircraft there
    (S0 §Altitude and combat; None: nothing there) and the fire arc."""

    hexes: int
    band: int
    bearing: int          # degrees clockwise from the facing, 0..359
    clock: int            # 12 = dead ahead, 3 = right, 6 = behind
    same_altitude: bool | None
    in_arc: bool


def _xy(h: Hex) -> tuple[float, float]:
    return 1.5 * h.q, math.sqrt(3) * (h.r + h.q / 2)


def readout(unit: AirUnit, h: Hex, options: AirOptions,
            there: AirUnit | None = None) -> Readout:
    """The cursor readout for ``unit`` and hex ``h`` (``there``: an aircraft in it)."""
    from ka_tui.rules.air.shooting import in_fire_arc, range_band

    hexes = distance(unit.hex, h)
    bearing = 0
    if h != unit.hex:
        x0, y0 = _xy(unit.hex)
        x1, y1 = _xy(h)
        absolute = math.degrees(math.atan2(x1 - x0, -(y1 - y0)))  # 0 = N, clockwise
        bearing = round(absolute - 60 * unit.facing) % 360
    clock = round(bearing / 30) % 12 or 12
    same = None if there is None else there.altitude == unit.altitude
    return Readout(hexes, range_band(hexes, options), bearing, clock, same,
                   in_fire_arc(unit, h, options))
