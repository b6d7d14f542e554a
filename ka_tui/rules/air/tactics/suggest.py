"""The suggestion: a move (and evasive) for one aircraft the GM flies, and its
shot, each with a reason in words. Pure and deterministic: the same battle
state and tactic give the same plan (candidates in a fixed order, ties broken
by the plan's text).

The choice (``suggest_move``):

1. candidates (``candidates.py``), all legal plans of the engine;
2. safe ones: no terrain crash (R-6.1), no stall now or at the next turn's
   start (R-3.2), no check whose failure would end the aircraft (R-4, R-6.1),
   every check passing at least the tactic's risk limit
   (``tactic.LIMITS``). When one is safe, only safe ones are chosen from;
   when none is, the plan with the best chance that every check passes;
3. the score (``scoring.py``): aggressive and cautious weigh the best shot,
   the shots left open and the checks, and close on the nearest enemy; break
   off weighs the distance gained from every enemy, a level apart, landing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from ka_tui.rules.air import turn as t
from ka_tui.rules.air.battle_map import BattleMap
from ka_tui.rules.air.damage import out_of_battle, under_control
from ka_tui.rules.air.evasive import evasive_target, may_evade
from ka_tui.rules.air.hexgrid import distance
from ka_tui.rules.air.move_plan import Plan, PlanCheck, TakeOff, format_plan
from ka_tui.rules.air.movement import validate_plan
from ka_tui.rules.air.reach import EndState, readout
from ka_tui.rules.air.shooting import in_fire_arc
from ka_tui.rules.air.tactics.candidates import Candidate, candidates
from ka_tui.rules.air.tactics.scoring import (
    Exposure, Risk, Shot, best_shot, plan_risk, terrain_margin,
)
from ka_tui.rules.air.tactics.tactic import LIMITS, Tactic, effective_tactic
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.core.options import AirOptions

LANDING_BONUS = 3.0      # break off: down on a strip is out of the enemy's reach
ALL_AWAY_BONUS = 2.0     # break off: farther from every enemy, not only most
LOW_TERRAIN = 0.3        # one level above the terrain


@dataclass(frozen=True)
class MoveSuggestion:
    unit_id: str
    plan: Plan
    evasive: bool
    tactic: Tactic             # the tactic flown (break off when hurt)
    reason: str
    check: PlanCheck
    risk: Risk
    safe: bool
    target: str | None = None  # the enemy its best shot is at, if any

    @property
    def text(self) -> str:
        return (format_plan(self.plan) or "(stay)") + (" + evasive" if self.evasive else "")


@dataclass(frozen=True)
class ShotSuggestion:
    unit_id: str
    target: str | None
    reason: str


@dataclass(frozen=True)
class _Scored:
    score: float
    candidate: Candidate
    risk: Risk
    safe: bool
    shot: Shot | None


def enemies_of(state: t.BattleState, unit: AirUnit) -> tuple[AirUnit, ...]:
    return tuple(u for u in state.units if u.side != unit.side and not out_of_battle(u))


def _pct(p: Fraction | float) -> str:
    v = float(p) * 100
    return "<1 %" if 0 < v < 1 else f"{v:.0f} %"


def _name(u: AirUnit) -> str:
    p = u.profile.name
    return u.id if p in u.id or u.id in p else f"{p} {u.id}"


def _where(me: AirUnit, target: AirUnit) -> str:
    """Behind / beside / ahead of the target, by the clock from its nose."""
    clock = readout(target, me.hex, AirOptions()).clock if me.hex != target.hex else 12
    if me.hex == target.hex:
        return "in its hex"
    if clock in (5, 6, 7):
        return "behind it"
    if clock in (3, 4, 8, 9):
        return "beside it"
    return "ahead of it"


def _hexes(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"


def _checks_text(risk: Risk) -> str:
    parts = [f"{c.what} {_pct(c.probability)}" for c in risk.checks]
    parts += [f"{c.what} next turn {_pct(c.probability)}" for c in risk.next_turn]
    parts += [f"collision risk {_pct(q)} (R-6)" for q in risk.collisions]
    if not parts:
        return "no check"
    return "checks: " + ", ".join(parts) + (f" (all pass {_pct(risk.all_pass)})"
                                           if len(parts) > 1 else "")


class _Chooser:
    def __init__(self, state: t.BattleState, unit: AirUnit, battle_map: BattleMap,
                 options: AirOptions, tactic: Tactic) -> None:
        self.state, self.unit, self.map, self.options = state, unit, battle_map, options
        self.tactic = tactic
        self.limits = LIMITS[tactic]
        self.enemies = tuple(e for e in enemies_of(state, unit) if not e.landed)
        self.others = tuple(u for u in state.units if u.id != unit.id)
        self.exposure = Exposure(self.enemies, options)
        self.start_dist = {e.id: distance(unit.hex, e.hex) for e in self.enemies}
        self.near = sorted(self.enemies, key=lambda e: (distance(unit.hex, e.hex), e.id))
        self.frames: dict[int, bool] = {}

    # -- the cheap first look at end states -----------------------------------

    def rank(self, end: EndState) -> float:
        if not self.enemies:
            return -end.sides
        if self.tactic is Tactic.BREAK_OFF:
            gains = [distance(end.hex, e.hex) - self.start_dist[e.id] for e in self.enemies]
            return sum(gains) + ALL_AWAY_BONUS * min(gains) - 0.1 * end.sides
        me = replace(self.unit, hex=end.hex, facing=end.facing)
        best = 0.0
        for e in self.near[:6]:
            d = distance(end.hex, e.hex)
            if d <= self.options.range_band_hexes * len(self.options.range_band_mods) \
                    and in_fire_arc(me, e.hex, self.options):
                best = max(best, 1.0 - 0.15 * d)
        nearest = min(distance(end.hex, e.hex) for e in self.near[:6])
        return best - 0.05 * nearest - 0.02 * end.sides

    def levels(self) -> list[int]:
        alt = self.unit.altitude
        if self.tactic is Tactic.BREAK_OFF:
            taken = {e.altitude for e in self.enemies}
            return [0] + [d for d in (1, -1, -2) if alt + d not in taken]
        out = [0]
        for e in self.near[:2]:
            gap = e.altitude - alt
            if gap:
                out.append(max(-2, min(1, gap)))
        return out

    # -- the exact score -------------------------------------------------------

    def score(self, c: Candidate) -> _Scored:
        end = c.check.end
        risk = plan_risk(self.unit, c.check, self.others, self.map, self.options,
                         self.frames)
        safe = c.check.terrain_crash is None and not risk.stalls and not risk.lethal \
            and risk.all_pass >= self.limits.risk_limit
        shot = best_shot(end, self.enemies, self.options) if not end.landed else None
        exposed, _who = self.exposure.of(end)
        lim = self.limits
        s = -lim.check * risk.cost - lim.exposure * exposed
        if shot is not None:
            s += lim.shot * shot.value
        if self.enemies:
            if self.tactic is Tactic.BREAK_OFF:
                gains = [distance(end.hex, e.hex) - self.start_dist[e.id]
                         for e in self.enemies]
                s += lim.distance * (sum(gains) + ALL_AWAY_BONUS * min(gains))
                if min(gains) > 0:
                    s += ALL_AWAY_BONUS * lim.distance
                if end.landed:
                    s += LANDING_BONUS
            else:
                e = min(self.near[:4], key=lambda x: (distance(end.hex, x.hex)
                                                      + 2 * abs(x.altitude - end.altitude), x.id))
                s -= lim.close * (distance(end.hex, e.hex) + 2 * abs(e.altitude - end.altitude))
                if not in_fire_arc(e, end.hex, self.options) and \
                        in_fire_arc(end, e.hex, self.options):
                    s += 0.1           # on its tail, for the next turn too
        if c.check.terrain_crash is not None:
            s -= 100.0
        elif not end.landed and terrain_margin(end, self.map) <= 1:
            s -= LOW_TERRAIN
        if self.options.fuel_per_turn and self.unit.fuel < 5 * self.options.fuel_per_turn:
            s -= 0.05 * c.check.thrust_used
        return _Scored(round(s, 9), c, risk, safe, shot)

    def choose(self, cands: Sequence[Candidate]) -> _Scored | None:
        scored = [self.score(c) for c in cands]
        if not scored:
            return None
        pool = [x for x in scored if x.safe]
        if not pool:
            no_crash = [x for x in scored if x.candidate.check.terrain_crash is None]
            pool = no_crash or scored
            top = max(x.risk.all_pass for x in pool)
            pool = [x for x in pool if x.risk.all_pass == top]
        return min(pool, key=lambda x: (-x.score, x.candidate.text))

    # -- the reason ------------------------------------------------------------

    def reason(self, got: _Scored, why_break: str) -> str:
        end = got.candidate.check.end
        checks = _checks_text(got.risk)
        unsafe = "" if got.safe else "; no safe plan: the likeliest to pass"
        if end.landed:
            return f"break off ({why_break or 'told to'}): lands (R-10); {checks}{unsafe}"
        if not self.enemies:
            return f"no enemy in the air: holds its course; {checks}{unsafe}"
        if self.tactic is Tactic.BREAK_OFF:
            near = min(self.enemies, key=lambda e: (distance(end.hex, e.hex), e.id))
            gains = [distance(end.hex, e.hex) - self.start_dist[e.id] for e in self.enemies]
            away = "farther from every enemy" if min(gains) > 0 else \
                f"farther from {sum(g > 0 for g in gains)} of {len(gains)} enemies"
            level = "" if any(e.altitude == end.altitude for e in self.enemies) else \
                ", at a level no enemy flies"
            return (f"break off ({why_break or 'told to'}): ends "
                    f"{_hexes(distance(end.hex, near.hex))} from {_name(near)}, "
                    f"{away}{level}; {checks}{unsafe}")
        word = "pursue" if self.tactic is Tactic.AGGRESSIVE else "stalk"
        if got.shot is not None:
            tgt = got.shot.target
            return (f"{word} {_name(tgt)}: ends {_hexes(distance(end.hex, tgt.hex))} "
                    f"{_where(end, tgt)}, in arc, same level — to-hit "
                    f"{_pct(got.shot.odds.hit)} next phase; {checks}{unsafe}")
        e = min(self.near[:4], key=lambda x: (distance(end.hex, x.hex)
                                              + 2 * abs(x.altitude - end.altitude), x.id))
        arc = "in arc" if in_fire_arc(end, e.hex, self.options) else "not in arc"
        level = "same level" if e.altitude == end.altitude else \
            f"level {end.altitude} vs {e.altitude}"
        exposed, who = self.exposure.of(end)
        open_to = f", open to {who}" if who and exposed >= 0.2 else ", no shot open to it"
        return (f"close on {_name(e)}: ends {_hexes(distance(end.hex, e.hex))} {_where(end, e)}, "
                f"{arc}, {level} — no shot this turn{open_to}; {checks}{unsafe}")


def _may_plan(state: t.BattleState, unit: AirUnit) -> str:
    if out_of_battle(unit):
        return f"{unit.id} is out of the battle"
    if unit.moved:
        return f"{unit.id} has already moved this turn (R-1.2)"
    return ""


def suggest_move(state: t.BattleState, unit_id: str, battle_map: BattleMap,
                 options: AirOptions, tactic: Tactic = Tactic.AGGRESSIVE
                 ) -> MoveSuggestion | None:
    """The suggested plan for ``unit_id`` under ``tactic`` (module docstring);
    None when it cannot move now."""
    unit = state.unit(unit_id)
    if _may_plan(state, unit):
        return None
    flown, why = effective_tactic(unit, tactic, options)
    chooser = _Chooser(state, unit, battle_map, options, flown)
    if unit.landed:
        return _on_ground(chooser, flown, why)
    cands = candidates(unit, battle_map, options, chooser.rank, chooser.levels(),
                       landing=flown is Tactic.BREAK_OFF)
    got = chooser.choose(cands)
    if got is None:
        return None
    evasive = _evasive(chooser, got)
    reason = chooser.reason(got, why)
    if evasive:
        reason += "; evasive (R-8): harder to hit, no attack this turn"
    return MoveSuggestion(unit.id, got.candidate.plan, evasive, flown, reason,
                          got.candidate.check, got.risk, got.safe,
                          got.shot.target.id if got.shot is not None else None)


def _evasive(chooser: _Chooser, got: _Scored) -> bool:
    """R-8 when it breaks off, is open to a shot, has none of its own, and
    the check passes within the tactic's risk limit."""
    end = got.candidate.check.end
    if chooser.tactic is not Tactic.BREAK_OFF or got.shot is not None or end.landed:
        return False
    if not may_evade(end) or not under_control(end, chooser.options):
        return False
    if chooser.exposure.of(end)[0] <= 0:
        return False
    p = evasive_target(end).probability() * got.risk.all_pass
    return p >= chooser.limits.risk_limit


def _on_ground(chooser: _Chooser, flown: Tactic, why: str) -> MoveSuggestion | None:
    """On the ground: stay when breaking off, else take off if it can (R-10)."""
    unit = chooser.unit
    if flown is not Tactic.BREAK_OFF:
        check = validate_plan(unit, (TakeOff(),), chooser.map, chooser.options)
        if check.legal:
            risk = plan_risk(unit, check, chooser.others, chooser.map, chooser.options)
            return MoveSuggestion(unit.id, (TakeOff(),), False, flown,
                                  f"takes off (R-10); {_checks_text(risk)}", check, risk, True)
    check = validate_plan(unit, (), chooser.map, chooser.options)
    risk = plan_risk(unit, check, chooser.others, chooser.map, chooser.options)
    return MoveSuggestion(unit.id, (), False, flown,
                          f"stays on the ground ({why or 'no take-off'})", check, risk, True)


def suggest_shot(state: t.BattleState, unit_id: str, options: AirOptions,
                 tactic: Tactic = Tactic.AGGRESSIVE) -> ShotSuggestion:
    """The target for ``unit_id`` in its shooting phase, or none, with why:
    the legal shot worth most (expected hull hits plus a kill, RULES-NOTES D),
    then the better to-hit, then the id."""
    unit = state.unit(unit_id)
    enemies = enemies_of(state, unit)
    shot = best_shot(unit, enemies, options)
    if shot is None:
        why = "no enemy at its level, in arc and in range (S0 §Altitude and combat)"
        if unit.ammo < options.ammo_per_shot:
            why = "out of ammunition (R-1.4)"
        elif unit.shot or unit.attack_forfeit or unit.evading:
            why = "it may not attack again this turn (R-1.2, R-8)"
        return ShotSuggestion(unit.id, None, f"no shot: {why}")
    o = shot.odds
    kill = f", destroys it {_pct(o.destroy)}" if o.destroy else ""
    return ShotSuggestion(unit.id, shot.target.id,
                          f"shoot {_name(shot.target)}: "
                          f"{_hexes(distance(unit.hex, shot.target.hex))}, to-hit "
                          f"{_pct(o.hit)}, {float(o.expected_hits):.2f} hull hits expected"
                          f"{kill}")


def suggest_side(state: t.BattleState, side: str, battle_map: BattleMap, options: AirOptions,
                 tactics: dict[str, Tactic] | None = None,
                 skip: frozenset[str] = frozenset()) -> dict[str, MoveSuggestion]:
    """A suggestion for every aircraft of ``side`` that may move now and is
    not in ``skip`` (those a player flies), in the side's order."""
    tactics = tactics or {}
    out: dict[str, MoveSuggestion] = {}
    for u in state.side_units(side):
        if u.id in skip or _may_plan(state, u):
            continue
        got = suggest_move(state, u.id, battle_map, options,
                           tactics.get(u.id, Tactic.AGGRESSIVE))
        if got is not None:
            out[u.id] = got
    return out
