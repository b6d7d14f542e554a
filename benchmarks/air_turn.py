"""Time the air-combat engine (budget: validating one plan under 1 ms).

Run: ``.venv/bin/python benchmarks/air_turn.py``. Prints:

- the time to validate 1,000 candidate move plans (``movement.validate_plan``,
  no dice) for aircraft in mid-battle, and the time per plan;
- the time to resolve a full turn (R-1: initiative, 40 moves, collisions,
  shots, heat, end phase) for 40 aircraft, recorded as a battle log;
- the time for exact shot odds over every pair of 40 aircraft;
- the time to replay that log (DESIGN.md: state is rebuilt from the events).
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ka_tui.rules.air.battle_map import parse_map
from ka_tui.rules.air.units import Airman, AirUnit
from ka_tui.rules.air.aircraft import AircraftClass
from ka_tui.rules.air.battle import Battle, replay
from ka_tui.rules.air.damage import out_of_battle
from ka_tui.rules.core.dice import RandomDice
from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.air.move_plan import Climb, Descend, Forward, Plan, Thrust, TurnLeft, TurnRight
from ka_tui.rules.air.movement import validate_plan
from ka_tui.rules.core.options import AirOptions
from ka_tui.rules.air.profiles import LIBRARY
from ka_tui.rules.air.shooting import preview_shot
from ka_tui.rules.air.shot_odds import shot_odds
from ka_tui.rules.air.turn import BattleState, Orders, Phase, resolve_turn

from benchmarks.common import Row, row, section

BUDGET_PLAN_MS = 1.0
OPT = AirOptions()
SIZE = 30
MAP = parse_map("\n".join(" ".join("3" if (c * 7 + r * 3) % 41 == 0 else "."
                                   for c in range(SIZE)) for r in range(SIZE)))


def fleet(n: int, rng: random.Random) -> list[AirUnit]:
    profiles = [p for p in LIBRARY.values()
                if p.aircraft_class is not AircraftClass.LARGE] if isinstance(LIBRARY, dict) \
        else list(LIBRARY)
    units = []
    for i in range(n):
        p = profiles[i % len(profiles)]
        col, row = rng.randrange(4, SIZE - 4), rng.randrange(4, SIZE - 4)
        h = Hex.from_offset(col, row)
        units.append(AirUnit(f"U{i}", "blue" if i % 2 == 0 else "red", p,
                             Airman(f"P{i}", piloting=rng.randint(3, 7), gunnery=rng.randint(3, 7)),
                             hex=h, facing=rng.randrange(6), altitude=rng.randint(1, 3),
                             speed=rng.randint(4, min(8, p.move)), fuel=p.fuel, ammo=p.ammo))
    return units


def candidate_plans(u: AirUnit) -> list[Plan]:
    """Plans a tactical view would preview as the cursor moves."""
    out: list[Plan] = []
    for t in range(-2, u.profile.thrust + 1):
        speed = u.speed + t
        if speed < 0:
            continue
        head: Plan = (Thrust(t),) if t else ()
        fwd = tuple(Forward() for _ in range(speed))
        out += [head + fwd, head + fwd + (TurnRight(),), head + fwd + (TurnLeft(),),
                head + (Climb(1, "thrust"),) + fwd, head + (Descend(2),) + fwd,
                head + fwd[:speed // 2] + (TurnRight(),) + fwd[speed // 2:]]
    return out


def bench_validate(n: int = 1000) -> tuple[float, int]:
    rng = random.Random(1)
    units = fleet(40, rng)
    plans = [(u, p) for u in units for p in candidate_plans(u)]
    plans = (plans * (n // len(plans) + 1))[:n]
    start = time.perf_counter()
    legal = sum(validate_plan(u, p, MAP, OPT).legal for u, p in plans)
    return time.perf_counter() - start, legal


def cruise(u: AirUnit) -> Plan:
    legal = [p for p in candidate_plans(u) if validate_plan(u, p, MAP, OPT).legal]
    return legal[len(legal) // 2] if legal else tuple(Forward() for _ in range(u.speed))


def orders_for(state: BattleState) -> dict[str, Orders]:
    """Plans chosen before the clock starts: each flies a middle legal candidate
    and shoots the first enemy its current position would allow."""
    out = {}
    for u in state.units:
        foe = next((f.id for f in state.units if f.side != u.side
                    and preview_shot(u, f, OPT).legal), None)
        out[u.id] = Orders(cruise(u), shoot=foe)
    return out


def timed(fn: Callable[[], object]) -> object:
    start = time.perf_counter()
    try:
        return fn()
    finally:
        PLAY_TIME[0] += time.perf_counter() - start


def play_turn(battle: Battle, dice: RandomDice) -> int:
    """One turn through the recorded battle log; only the battle's own steps
    are timed (choosing plans and targets is the GM's, previewed elsewhere)."""
    timed(lambda: battle.begin_turn(dice))
    shots = 0
    while battle.state.phase in (Phase.MOVEMENT, Phase.SHOOTING):
        side = battle.state.active_side or ""
        for u in battle.state.side_units(side):
            if not out_of_battle(u):
                plan = cruise(u)
                timed(lambda: battle.move(u.id, plan, dice))
        timed(lambda: battle.end_movement(dice))
        for u in battle.state.side_units(side):
            me = battle.state.unit(u.id)
            foe = next((f for f in battle.state.units if preview_shot(me, f, OPT).legal), None)
            if foe is not None:
                timed(lambda: battle.shoot(u.id, foe.id, dice))
                shots += 1
        timed(lambda: battle.end_shooting(dice))
    timed(lambda: battle.heat(dice))
    timed(lambda: battle.end(dice))
    return shots


PLAY_TIME = [0.0]


def rows(quick: bool = False) -> list[Row]:
    """Plan validation against its budget; a whole turn for context."""
    elapsed, legal = bench_validate(300 if quick else 1000)
    per_plan_ms = elapsed * 1000 / (300 if quick else 1000)
    state = BattleState(tuple(fleet(40, random.Random(0))))
    orders = orders_for(replace(state, units=tuple(replace(u, speed=max(0, u.speed - 5))
                                                   for u in state.units)))
    start = time.perf_counter()
    resolve_turn(state, orders, MAP, RandomDice(0), OPT)
    turn_ms = (time.perf_counter() - start) * 1000
    return [section("Air combat engine (headless compute)"),
            row("plan validation: one move plan", per_plan_ms, "ms",
                f"< {BUDGET_PLAN_MS:.0f} ms", per_plan_ms < BUDGET_PLAN_MS),
            row("resolve_turn: 40 aircraft, one turn", turn_ms, "ms")]


def main() -> int:
    elapsed, legal = bench_validate()
    per_plan_ms = elapsed * 1000 / 1000
    print(f"validate 1,000 candidate plans: {elapsed * 1000:.1f} ms "
          f"({per_plan_ms:.3f} ms per plan, {legal} legal; budget {BUDGET_PLAN_MS} ms per plan)")

    units = fleet(40, random.Random(4))
    start = time.perf_counter()
    pairs = sum(shot_odds(a, b, OPT).legal for a in units for b in units)
    took = time.perf_counter() - start
    print(f"exact shot odds for all 1,600 pairs of 40 aircraft: {took * 1000:.1f} ms "
          f"({took * 1e6 / 1600:.0f} µs per pair, {pairs} legal shots)")

    best = float("inf")
    for seed in range(3):
        state = BattleState(tuple(fleet(40, random.Random(seed))))
        orders = orders_for(replace(state, units=tuple(replace(u, speed=max(0, u.speed - 5))
                                                       for u in state.units)))
        start = time.perf_counter()
        state, report = resolve_turn(state, orders, MAP, RandomDice(seed), OPT)
        best = min(best, time.perf_counter() - start)
    print(f"resolve_turn, 40 aircraft from orders (initiative, R-3.2, 40 moves, R-6, "
          f"shots, heat, end phase): {best * 1000:.1f} ms best of 3")

    battle = Battle.start(fleet(40, random.Random(2)), MAP, OPT)
    dice = RandomDice(3)
    shots = sum(play_turn(battle, dice) for _ in range(3))
    print(f"3 turns of 40 aircraft recorded as a battle log: {PLAY_TIME[0] * 1000 / 3:.1f} ms "
          f"per turn ({shots} shots, {len(battle.events)} events)")
    text = json.dumps(battle.events)
    start = time.perf_counter()
    state = replay(json.loads(text), MAP, OPT)
    took = time.perf_counter() - start
    assert state == battle.state
    print(f"replay of that 3-turn log ({len(text) // 1024} KiB JSON): {took * 1000:.1f} ms")
    return 0 if per_plan_ms < BUDGET_PLAN_MS else 1


if __name__ == "__main__":
    sys.exit(main())
