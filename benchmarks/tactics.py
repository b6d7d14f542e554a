"""Time and test the suggested plans (``ka_tui/rules/air/tactics``).

Run: ``.venv/bin/python benchmarks/tactics.py [--quick]``. Prints:

- the time to suggest one aircraft's plan at speed 12 on a 100x100 map with
  40 aircraft (budget 200 ms per aircraft, CPU time; median and slowest of a
  side, and the slowest by the wall clock);
- a tournament of seeded 2-against-2 engagements on a 30x30 map with a few
  hills: one side flown by the suggestions (aggressive; a hurt aircraft breaks
  off), the other by a baseline that flies at the nearest enemy (the reach
  overlay's hex nearest to it, R-3) and shoots the likeliest hit. The same
  aircraft and pilots on both sides, sides swapped every other engagement.
  Reported: hits landed, aircraft lost to their own checks (a stall, the
  terrain, a G-load, a collision, a landing: anything but an enemy's shot),
  and wins (the other side has no aircraft left flying; a draw after the last
  turn). A loss "to own checks" is any loss not at an enemy's shot, so it
  counts an aircraft whose pilot a shot knocked out before (shown apart), and
  the suggested side's are also counted where its last plan was safe.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ka_tui.rules.air import turn as t
from ka_tui.rules.air.aircraft import AircraftClass
from ka_tui.rules.air.battle_map import BattleMap, parse_map
from ka_tui.rules.air.damage import out_of_battle
from ka_tui.rules.air.hexgrid import Hex, distance
from ka_tui.rules.air.move_plan import Plan
from ka_tui.rules.air.profiles import LIBRARY
from ka_tui.rules.air.reach import reach
from ka_tui.rules.air.shot_odds import shot_odds
from ka_tui.rules.air.tactics import Tactic, suggest_move, suggest_shot
from ka_tui.rules.air.units import Airman, AirUnit
from ka_tui.rules.core.dice import RandomDice
from ka_tui.rules.core.options import AirOptions

from benchmarks.common import Row, row, section

BUDGET_MS = 200.0
OPT = AirOptions()
ENGAGEMENTS = 200
TURNS = 10
SUGGESTED, BASELINE = "suggested", "baseline"


def _map(size: int, seed: int) -> BattleMap:
    rng = random.Random(seed)
    return parse_map("\n".join(" ".join("3" if rng.random() < 0.03 else "."
                                        for _ in range(size)) for _ in range(size)))


# ------------------------------------------------------------------ time per aircraft

def crowd(seed: int = 1) -> tuple[t.BattleState, BattleMap]:
    """40 aircraft at speed 12 (Move raised to 12) over a 100x100 map."""
    rng = random.Random(seed)
    fighters = [p for p in LIBRARY if p.aircraft_class is not AircraftClass.LARGE]
    units = []
    for i in range(40):
        p = replace(fighters[i % len(fighters)], move=12)
        h = Hex.from_offset(rng.randrange(25, 75), rng.randrange(25, 75))
        units.append(AirUnit(f"U{i}", "red" if i % 2 == 0 else "blue", p,
                             Airman(f"P{i}", piloting=rng.randint(4, 7),
                                    gunnery=rng.randint(3, 6)),
                             hex=h, facing=rng.randrange(6), altitude=rng.randint(3, 6),
                             speed=12, fuel=p.fuel, ammo=p.ammo))
    state = t.BattleState(tuple(units), 1, t.Phase.MOVEMENT, ("red", "blue"), 0)
    return state, _map(100, seed)


def time_per_aircraft() -> tuple[list[float], list[float]]:
    """Milliseconds per aircraft of one side: wall clock and this process's
    CPU time (the budget's figure: on a machine shared with other work the
    wall clock also counts the time the process waited for a core)."""
    state, battle_map = crowd()
    wall, cpu = [], []
    for u in state.side_units("red"):
        start, started = time.perf_counter(), time.process_time()
        suggest_move(state, u.id, battle_map, OPT, Tactic.AGGRESSIVE)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - started) * 1000)
    return wall, cpu


# ------------------------------------------------------------------ the tournament

def baseline_plan(state: t.BattleState, unit: AirUnit, battle_map: BattleMap) -> Plan:
    """Fly at the nearest enemy: the reachable hex nearest to it (fewest sides on a tie)."""
    foes = [e for e in state.units if e.side != unit.side and not out_of_battle(e)]
    r = reach(unit, battle_map, OPT)
    spots = [h for h in r.hexes.values() if h.kind != "out"]
    if not foes or not spots:
        return tuple(r.hexes[unit.hex].plan) if unit.hex in r.hexes else ()
    target = min(foes, key=lambda e: (distance(unit.hex, e.hex), e.id))
    best = min(spots, key=lambda h: (distance(h.hex, target.hex), len(h.plan), h.hex.q, h.hex.r))
    return best.plan


def baseline_shot(state: t.BattleState, unit: AirUnit) -> str | None:
    best: tuple[float, str] | None = None
    for e in state.units:
        if e.side == unit.side:
            continue
        odds = shot_odds(unit, e, OPT)
        if odds.legal and (best is None or float(odds.hit) > best[0]):
            best = (float(odds.hit), e.id)
    return None if best is None else best[1]


@dataclass
class Tally:
    hits: dict[str, int] = field(default_factory=lambda: {SUGGESTED: 0, BASELINE: 0})
    own_losses: dict[str, int] = field(default_factory=lambda: {SUGGESTED: 0, BASELINE: 0})
    own_with_safe: int = 0          # suggested aircraft lost to own checks after a safe plan
    own_after_hit: dict[str, int] = field(default_factory=lambda: {SUGGESTED: 0, BASELINE: 0})
    shot_down: dict[str, int] = field(default_factory=lambda: {SUGGESTED: 0, BASELINE: 0})
    wins: dict[str, int] = field(default_factory=lambda: {SUGGESTED: 0, BASELINE: 0})
    draws: int = 0
    engagements: int = 0


def _two_against_two(seed: int) -> tuple[t.BattleState, BattleMap, dict[str, str]]:
    rng = random.Random(seed)
    fighters = [p for p in LIBRARY if p.aircraft_class in (AircraftClass.FIGHTER,
                                                           AircraftClass.HEAVY_FIGHTER)]
    pair = [fighters[rng.randrange(len(fighters))] for _ in range(2)]
    pilots = [Airman(f"P{i}", piloting=rng.randint(4, 7), gunnery=rng.randint(3, 6))
              for i in range(2)]
    swap = seed % 2 == 1
    who = {"red": BASELINE if swap else SUGGESTED, "blue": SUGGESTED if swap else BASELINE}
    units = []
    for side, col, facing in (("red", 5, 1), ("blue", 24, 4)):
        for i in range(2):
            p = pair[i]
            units.append(AirUnit(f"{side[0].upper()}{i}", side, p,
                                 replace(pilots[i], name=f"{side}-{i}"),
                                 hex=Hex.from_offset(col, 10 + 8 * i + rng.randrange(3)),
                                 facing=facing, altitude=3 + rng.randrange(2), speed=7,
                                 fuel=p.fuel, ammo=p.ammo))
    return t.BattleState(tuple(units)), _map(30, seed), who


def engagement(seed: int, tally: Tally) -> None:
    state, battle_map, who = _two_against_two(seed)
    dice = RandomDice(seed)
    safe: dict[str, bool] = {}
    lost: set[str] = set()
    hit: set[str] = set()           # hit by enemy fire before (wounds, damage)

    def losses(kind_of_loss: str) -> None:
        for u in state.units:
            if out_of_battle(u) and u.id not in lost:
                lost.add(u.id)
                if kind_of_loss == "shot":
                    tally.shot_down[who[u.side]] += 1
                else:
                    tally.own_losses[who[u.side]] += 1
                    if u.id in hit:
                        tally.own_after_hit[who[u.side]] += 1
                    if who[u.side] == SUGGESTED and safe.get(u.id, False):
                        tally.own_with_safe += 1

    for _turn in range(TURNS):
        state, _ = t.begin_turn(state, battle_map, dice, OPT)
        losses("own")
        while state.phase in (t.Phase.MOVEMENT, t.Phase.SHOOTING):
            side = state.active_side
            assert side is not None
            for u in state.side_units(side):
                u = state.unit(u.id)
                if out_of_battle(u):
                    continue
                evasive = False
                if who[side] == SUGGESTED:
                    got = suggest_move(state, u.id, battle_map, OPT, Tactic.AGGRESSIVE)
                    plan = got.plan if got is not None else t.straight_plan(u)
                    evasive = got.evasive if got is not None else False
                    safe[u.id] = got.safe if got is not None else False
                else:
                    plan = baseline_plan(state, u, battle_map)
                try:
                    state, _ = t.move_unit(state, u.id, plan, battle_map, dice, OPT,
                                           evasive=evasive)
                except t.TurnError:
                    state, _ = t.move_unit(state, u.id, t.straight_plan(u), battle_map, dice,
                                           OPT)
                losses("own")
            state, _ = t.end_movement(state, dice, OPT)
            losses("own")
            for u in state.side_units(side):
                u = state.unit(u.id)
                if out_of_battle(u):
                    continue
                target = (suggest_shot(state, u.id, OPT).target if who[side] == SUGGESTED
                          else baseline_shot(state, u))
                if target is None:
                    continue
                state, res = t.shoot_unit(state, u.id, target, dice, OPT)
                tally.hits[who[side]] += res.normal_hits + res.critical_hits
                if res.normal_hits + res.critical_hits:
                    hit.add(target)
                losses("shot")
            state = t.end_shooting(state)
        state, _ = t.heat_phase(state, dice, OPT)
        losses("own")
        state, _ = t.end_phase(state, dice, OPT)
        losses("own")
        flying = {s: [u for u in state.units if u.side == s and not out_of_battle(u)
                      and not u.landed] for s in ("red", "blue")}
        if not flying["red"] or not flying["blue"]:
            break
    tally.engagements += 1
    flying = {s: [u for u in state.units if u.side == s and not out_of_battle(u)
                  and not u.landed] for s in ("red", "blue")}
    if flying["red"] and not flying["blue"]:
        tally.wins[who["red"]] += 1
    elif flying["blue"] and not flying["red"]:
        tally.wins[who["blue"]] += 1
    else:
        tally.draws += 1


def tournament(n: int = ENGAGEMENTS) -> tuple[Tally, float]:
    tally = Tally()
    start = time.perf_counter()
    for seed in range(n):
        engagement(seed, tally)
    return tally, time.perf_counter() - start


def rows(quick: bool = False) -> list[Row]:
    wall, cpu = time_per_aircraft()
    slowest, mid = max(cpu), statistics.median(cpu)
    tally, spent = tournament(ENGAGEMENTS)
    s, b = SUGGESTED, BASELINE
    won_clearly = tally.wins[s] > 2 * max(1, tally.wins[b])
    return [section("Air tactics: suggested plans (benchmarks/tactics.py)"),
            row("suggest a plan, speed 12, 100x100, 40 aircraft: median CPU", mid, "ms"),
            row("suggest a plan, speed 12, 100x100, 40 aircraft: slowest CPU", slowest, "ms",
                f"< {BUDGET_MS:.0f} ms", slowest < BUDGET_MS),
            row("suggest a plan: slowest wall clock (machine load counts)", max(wall), "ms"),
            row(f"tournament 2v2 x{tally.engagements}: wins suggested / baseline / draws",
                f"{tally.wins[s]} / {tally.wins[b]} / {tally.draws}", "",
                "suggested > 2x baseline", won_clearly),
            row("tournament: hull hits landed, suggested / baseline",
                f"{tally.hits[s]} / {tally.hits[b]}", ""),
            row("tournament: shot down, suggested / baseline",
                f"{tally.shot_down[s]} / {tally.shot_down[b]}", ""),
            row("tournament: lost to own checks, suggested / baseline",
                f"{tally.own_losses[s]} / {tally.own_losses[b]}", ""),
            row("tournament: of those, hit by enemy fire before, suggested / baseline",
                f"{tally.own_after_hit[s]} / {tally.own_after_hit[b]}", ""),
            row("tournament: suggested lost to own checks after a safe plan",
                str(tally.own_with_safe), "", "0", tally.own_with_safe == 0),
            row("tournament: time", spent, "s")]


def main() -> int:
    from benchmarks.common import print_table

    misses = print_table(rows("--quick" in sys.argv))
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
