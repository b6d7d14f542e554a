"""What a candidate plan is worth to a pilot: the pieces of the score.

- the best shot it gets in its own shooting phase: the enemy stays where it
  is until then (R-1.2: a side moves, then shoots; the other side has moved
  already or moves after), so the odds are exact (``shot_odds``: to-hit times
  the expected hull hits, RULES-NOTES D; a kill counts two hits more);
- the shots it leaves open to the enemy at its end position: each enemy's
  best shot at it from close range, times how likely the enemy is to get there
  (a reading, ``exposure``): nothing beyond the enemy's next move plus its
  range, or two levels and more apart (S0 §Altitude and combat: shots only at
  the same altitude; R-3.3 a climb costs two thrust a level); less when it is
  outside the enemy's arc and less again behind it;
- the checks: this move's (R-3 ... R-10, with their exact odds), the stall the
  next turn starts with when the plan leaves the speed at 5 or less (R-3.2),
  and collision rolls with out-of-control objects on the path (R-6); each
  failure costs hull-hit equivalents (a stall 1.5: out of control and a level
  lost; a collision 2; any other 1); a check whose failure would end the
  aircraft (R-4 airframe hits it has not the hull for; a stall next turn down
  to the terrain, R-6.1) makes the plan unsafe whatever its odds;
- fuel, terrain: a plan that burns thrust with little fuel left, or ends one
  level above the terrain (a stall there is a crash, R-6.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from ka_tui.rules.air import gload
from ka_tui.rules.air.battle_map import BattleMap
from ka_tui.rules.air.collisions import collision_target, path_collision_checks
from ka_tui.rules.air.damage import out_of_battle, under_control
from ka_tui.rules.air.hexgrid import distance
from ka_tui.rules.air.move_plan import PlanCheck, RequiredCheck
from ka_tui.rules.air.movement import preview_start
from ka_tui.rules.air.piloting_target import thrust_capacity
from ka_tui.rules.air.reach import readout
from ka_tui.rules.air.shooting import in_fire_arc, is_ground_attack
from ka_tui.rules.air.shot_odds import ShotOdds, shot_odds
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.core.options import AirOptions

KILL_BONUS = 2.0            # a kill is worth two hull hits more than its hits
STALL_COST = 1.5
COLLISION_COST = 2.0
CHECK_COST = 1.0
OUT_OF_ARC = 0.5            # exposure outside the enemy's arc (it must turn)
BEHIND = 0.2                # ... and in its rear third (clock 5 to 7)
LEVEL_GAP = {0: 1.0, 1: 0.3}


@dataclass(frozen=True)
class Shot:
    target: AirUnit
    odds: ShotOdds

    @property
    def value(self) -> float:
        return float(self.odds.expected_hits) + KILL_BONUS * float(self.odds.destroy)


@dataclass(frozen=True)
class Risk:
    """The checks a plan brings: this move's, the next turn's stall, collisions."""

    checks: tuple[RequiredCheck, ...]
    next_turn: tuple[RequiredCheck, ...]
    collisions: tuple[Fraction, ...]      # chance of a collision at each place
    cost: float
    stalls: bool
    # a failed check could end the aircraft: R-4 airframe hits it has not the
    # hull for, or the next turn's stall dropping it to the terrain
    lethal: bool = False

    @property
    def all_pass(self) -> Fraction:
        p = Fraction(1)
        for c in (*self.checks, *self.next_turn):
            p *= c.probability
        for q in self.collisions:
            p *= 1 - q
        return p


def best_shot(shooter: AirUnit, enemies: Sequence[AirUnit], options: AirOptions) -> Shot | None:
    """The enemy worth shooting most (value, then to-hit, then id: fixed order)."""
    best: Shot | None = None
    longest = options.range_band_hexes * max(len(options.range_band_mods),
                                             options.long_range_max_band)
    for e in enemies:
        if distance(shooter.hex, e.hex) > longest or (
                options.same_altitude_only and e.altitude != shooter.altitude
                and not is_ground_attack(shooter, e)):
            continue            # shot_problems would refuse it: skip the odds
        odds = shot_odds(shooter, e, options)
        if not odds.legal:
            continue
        shot = Shot(e, odds)
        if best is None or (shot.value, odds.hit) > (best.value, best.odds.hit):
            best = shot
    return best


def enemy_reach(enemy: AirUnit, options: AirOptions) -> int:
    """Hexes the enemy may fly before it shoots next (its move, R-3.1) plus its
    longest range band (RULES-NOTES D)."""
    cap = thrust_capacity(enemy, options) if under_control(enemy, options) else 0
    speed = max(0, enemy.speed - (5 if enemy.moved else 0)) + cap
    return min(speed, enemy.profile.move) + options.range_band_hexes * len(options.range_band_mods)


class Exposure:
    """The shots an end position leaves open (see the module docstring), with
    each enemy's close-range shot at this aircraft kept per level."""

    def __init__(self, enemies: Sequence[AirUnit], options: AirOptions) -> None:
        self.enemies = tuple(e for e in enemies if not out_of_battle(e) and not e.landed
                             and under_control(e, options))
        self.options = options
        self._close: dict[tuple[str, int, bool], float] = {}
        self._reach = {e.id: enemy_reach(e, options) for e in self.enemies}

    def close_shot(self, enemy: AirUnit, me: AirUnit) -> float:
        key = (enemy.id, me.altitude, me.evading)
        if key not in self._close:
            near = replace(enemy, hex=me.hex, altitude=me.altitude, shot=False,
                           evading=False, attack_forfeit="")
            odds = shot_odds(near, me, self.options)
            self._close[key] = float(odds.expected_hits) + KILL_BONUS * float(odds.destroy) \
                if odds.legal else 0.0
        return self._close[key]

    def of(self, me: AirUnit) -> tuple[float, str]:
        """Total exposure and the enemy that threatens most ("" when none)."""
        if me.landed:
            return 0.0, ""
        total, worst, who = 0.0, 0.0, ""
        for e in self.enemies:
            d = distance(e.hex, me.hex)
            if d > self._reach[e.id]:
                continue
            gap = LEVEL_GAP.get(abs(e.altitude - me.altitude), 0.0)
            if not gap:
                continue
            if in_fire_arc(e, me.hex, self.options):
                geo = 1.0
            else:
                clock = readout(e, me.hex, self.options).clock
                geo = BEHIND if clock in (5, 6, 7) else OUT_OF_ARC
            threat = gap * geo * self.close_shot(e, me)
            total += threat
            if threat > worst:
                worst, who = threat, e.id
        return total, who


def plan_risk(unit: AirUnit, check: PlanCheck, others: Sequence[AirUnit],
              battle_map: BattleMap, options: AirOptions,
              frames: dict[int, bool] | None = None) -> Risk:
    """Every check a plan brings and what failing them costs (module docstring);
    ``frames`` keeps, per sides turned, whether R-4 checks the airframe."""
    end = check.end
    nxt = () if end.landed else preview_start(end, options).checks
    stalls = (not end.landed) and preview_start(end, options).stalls
    collisions = [t.probability() for _place, t in
                  path_collision_checks(unit, end, check.path, others, options)]
    if not end.landed:
        there = [o for o in others if o.hex == end.hex and o.altitude == end.altitude
                 and not out_of_battle(o) and not o.landed]
        if there and any(not under_control(o, options) for o in there):
            collisions.append(collision_target([end, *there]).probability())
    cost = sum(float(1 - c.probability) * CHECK_COST for c in check.checks)
    cost += sum(float(1 - c.probability) * STALL_COST for c in nxt)
    cost += sum(float(q) * COLLISION_COST for q in collisions)
    lethal = False
    if stalls and end.altitude - 1 <= battle_map.height(end.hex):
        cost += 10.0          # the stall would put it into the terrain
        lethal = True
    frames = {} if frames is None else frames
    sides = check.sides_turned
    if sides not in frames:
        frames[sides] = any(g.who < 0 for g in gload.gload_checks(unit, sides, options))
    if frames[sides] and options.gload_airframe_hits >= unit.hull_left:
        lethal = True         # the airframe hit would be the last of its hull
    return Risk(check.checks, tuple(nxt), tuple(collisions), cost, stalls, lethal)


def terrain_margin(end: AirUnit, battle_map: BattleMap) -> int:
    """Levels between the aircraft and the terrain under it (R-6.1)."""
    return end.altitude - battle_map.height(end.hex)
