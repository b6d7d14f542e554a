"""The turn (R-1): initiative, move and shoot by side, heat phase, end phase.

A battle's state is a ``BattleState`` (frozen); every step below is a pure
function ``(state, …, dice, options) -> (state, report)`` that refuses a step
out of order with ``TurnError``. The order of a turn (RULES-NOTES E):

    begin_turn      R-1.1 initiative per side (2d6, ties re-rolled); R-3.2 speed
                    decay and stalls for every aircraft; per-turn flags cleared
    for each side, initiative order (R-1.2):
      move_unit     each of its aircraft once (plan, optional R-8 evasive)
      end_movement  R-6 collision rolls where its aircraft share a hex; pending
                    damage of its aircraft takes effect (R-1.3)
      shoot / ram   each of its aircraft at most one attack
      end_shooting
    heat_phase      R-1.4, R-3.5 (RULES-NOTES D)
    end_phase       R-1.4 report per aircraft, fuel, R-5 recovery rolls

``resolve_turn`` runs a whole turn from orders (the benchmark and the tests).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from ka_tui.rules.air import movement
from ka_tui.rules.air.battle_map import BattleMap
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.air.collisions import (
    CollisionResult,
    CrashResult,
    check_collision,
    check_path_collisions,
    crowded_places,
    needs_collision_roll,
    terrain_crash,
)
from ka_tui.rules.air.damage import (
    LOCATION_EFFECTS,
    bring_into_effect,
    engine_disabled,
    location_label,
    out_of_battle,
    thrust_lost,
    under_control,
)
from ka_tui.rules.core.dice import Dice, roll_2d6
from ka_tui.rules.air.evasive import EvasiveResult, WeaponKind, declare_evasive, may_evade
from ka_tui.rules.air.heat import HeatResult, heat_phase as unit_heat_phase
from ka_tui.rules.air.hexgrid import FACING_NAMES
from ka_tui.rules.air.move_plan import (
    Forward,
    IllegalPlan,
    MoveReport,
    Plan,
    StartReport,
    format_plan,
)
from ka_tui.rules.core.options import AirOptions
from ka_tui.rules.air.ramming import RamResult, ram
from ka_tui.rules.air.shooting import ShotResult, shoot
from ka_tui.rules.air.wounds import RecoveryResult, recovery_roll


class TurnError(ValueError):
    """A step asked for out of turn order, or by a unit that may not act."""


class Phase(str, Enum):
    BETWEEN_TURNS = "between_turns"
    MOVEMENT = "movement"
    SHOOTING = "shooting"
    HEAT = "heat"
    END = "end"


@dataclass(frozen=True)
class BattleState:
    units: tuple[AirUnit, ...]
    turn: int = 0
    phase: Phase = Phase.BETWEEN_TURNS
    order: tuple[str, ...] = ()     # sides, initiative winner first
    side_index: int = 0

    def unit(self, unit_id: str) -> AirUnit:
        for u in self.units:
            if u.id == unit_id:
                return u
        raise TurnError(f"no aircraft {unit_id!r} in this battle")

    def with_units(self, *changed: AirUnit) -> BattleState:
        by_id = {u.id: u for u in changed}
        return replace(self, units=tuple(by_id.get(u.id, u) for u in self.units))

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(u.side for u in self.units))

    @property
    def active_side(self) -> str | None:
        if self.phase in (Phase.MOVEMENT, Phase.SHOOTING) and self.side_index < len(self.order):
            return self.order[self.side_index]
        return None

    def side_units(self, side: str) -> tuple[AirUnit, ...]:
        return tuple(u for u in self.units if u.side == side)


# ------------------------------------------------------------------ initiative

@dataclass(frozen=True)
class SideInitiative:
    rolls: tuple[tuple[str, tuple[int, int]], ...]   # every roll in order, re-rolls included
    order: tuple[str, ...]
    log: tuple[str, ...]


def roll_initiative(sides: Sequence[str], dice: Dice) -> SideInitiative:
    """R-1.1: each side rolls 2d6, the higher total wins; ties are re-rolled
    (RULES-NOTES D) among the tied sides until they are ordered."""
    rolls: list[tuple[str, tuple[int, int]]] = []
    lines: list[str] = []
    order = _order(list(sides), dice, rolls, lines)
    lines.append("initiative order: " + ", ".join(order) + " (R-1.1, R-1.2)")
    return SideInitiative(tuple(rolls), tuple(order), tuple(lines))


def _order(sides: list[str], dice: Dice, rolls: list[tuple[str, tuple[int, int]]],
           lines: list[str]) -> list[str]:
    if len(sides) <= 1:
        return sides
    totals: dict[str, int] = {}
    for side in sides:
        faces = roll_2d6(dice)
        rolls.append((side, faces))
        totals[side] = sum(faces)
        lines.append(f"initiative {side}: 2d6 {faces[0]}+{faces[1]} = {totals[side]} (R-1.1)")
    out: list[str] = []
    for total in sorted(set(totals.values()), reverse=True):
        tied = [s for s in sides if totals[s] == total]
        if len(tied) > 1:
            lines.append(f"tie at {total} between {', '.join(tied)}: re-roll (R-1.1)")
        out.extend(_order(tied, dice, rolls, lines) if len(tied) > 1 else tied)
    return out


# ------------------------------------------------------------------ turn start

@dataclass(frozen=True)
class TurnStart:
    turn: int
    initiative: SideInitiative
    starts: tuple[tuple[str, StartReport], ...]
    crashes: tuple[CrashResult, ...]
    log: tuple[str, ...]


def begin_turn(state: BattleState, battle_map: BattleMap, dice: Dice,
               options: AirOptions) -> tuple[BattleState, TurnStart]:
    """R-1.1 initiative, then R-3.2 for every aircraft still in the battle; a
    stall that drops it to the terrain's height is a crash (R-6.1)."""
    if state.phase is not Phase.BETWEEN_TURNS:
        raise TurnError(f"turn {state.turn} is still in its {state.phase.value} phase")
    sides = tuple(dict.fromkeys(u.side for u in state.units if not out_of_battle(u)))
    ini = roll_initiative(sides, dice)
    lines = [f"— turn {state.turn + 1} —", *ini.log]
    units: list[AirUnit] = []
    starts: list[tuple[str, StartReport]] = []
    crashes: list[CrashResult] = []
    for u in state.units:
        fresh = replace(u, shot=False, evading=False, moved=False, attack_forfeit="")
        if out_of_battle(u):
            units.append(fresh)
            continue
        fresh, rep = movement.start_turn(fresh, dice, options)
        starts.append((u.id, rep))
        lines.extend(rep.log)
        if rep.terrain_crash is not None or _at_terrain(fresh, battle_map):
            if rep.terrain_crash is None:
                lines.append(f"{u.id} falls to the terrain's height "
                             f"({battle_map.height(fresh.hex)}) at {_where(fresh)}: crash (R-6.1)")
            fresh, crash = terrain_crash(fresh, dice, options)
            crashes.append(crash)
            lines.extend(crash.log)
        units.append(fresh)
    out = BattleState(tuple(units), state.turn + 1, Phase.MOVEMENT, ini.order, 0)
    out = _skip_empty_sides(out)
    return out, TurnStart(out.turn, ini, tuple(starts), tuple(crashes), tuple(lines))


def _at_terrain(u: AirUnit, battle_map: BattleMap) -> bool:
    """R-6.1: at (or below) the terrain's height while flying."""
    return not (u.landed or out_of_battle(u)) and u.altitude <= battle_map.height(u.hex)


# ------------------------------------------------------------------ movement

@dataclass(frozen=True)
class MoveOutcome:
    unit_id: str
    report: MoveReport | None
    crash: CrashResult | None
    evasive: EvasiveResult | None
    log: tuple[str, ...]
    # R-6 rolls where the move passed through a hex shared with an out-of-control object
    collisions: tuple[CollisionResult, ...] = ()


def _require(state: BattleState, phase: Phase, unit: AirUnit) -> None:
    if state.phase is not phase:
        raise TurnError(f"not the {phase.value} phase (now {state.phase.value})")
    if unit.side != state.active_side:
        raise TurnError(f"{unit.id} ({unit.side}) must wait: it is {state.active_side}'s "
                        f"{phase.value} (R-1.2)")
    if out_of_battle(unit):
        raise TurnError(f"{unit.id} is out of the battle")


def straight_plan(unit: AirUnit) -> Plan:
    """The move an aircraft flies when no plan is given: straight ahead at its speed."""
    return () if unit.landed else tuple(Forward() for _ in range(unit.speed))


def move_unit(state: BattleState, unit_id: str, plan: Plan, battle_map: BattleMap, dice: Dice,
              options: AirOptions, *, evasive: bool = False) -> tuple[BattleState, MoveOutcome]:
    """R-1.2 movement of one aircraft (R-3 … R-10 via ``movement.execute_plan``),
    then R-6 for each hex it passed through with an out-of-control object there
    (``collisions.check_path_collisions``; where it ends, ``end_movement``
    rolls), R-6.1 if it hit the terrain, then the R-8 evasive check if asked."""
    unit = state.unit(unit_id)
    _require(state, Phase.MOVEMENT, unit)
    if unit.moved:
        raise TurnError(f"{unit_id} has already moved this turn")
    lines: list[str] = []
    report: MoveReport | None = None
    crash: CrashResult | None = None
    passes: tuple[CollisionResult, ...] = ()
    if unit.landed and not plan:
        moved = replace(unit, moved=True)
        lines.append(f"{unit_id} stays on the ground")
    else:
        try:
            moved, report = movement.execute_plan(unit, plan, battle_map, dice, options)
        except IllegalPlan as err:
            raise TurnError(f"{unit_id}: {err}") from None
        lines.append(_move_line(unit, moved, plan))
        lines.extend(report.log)
        others = tuple(u for u in state.units if u.id != unit_id)
        moved, hit, passes = check_path_collisions(unit, moved, report.path, others, dice,
                                                   options)
        state = state.with_units(*hit)
        lines.extend(line for res in passes for line in res.log)
        if report.terrain_crash is not None and not moved.destroyed:
            moved, crash = terrain_crash(replace(moved, speed=report.terrain_crash.speed),
                                         dice, options)
            lines.extend(crash.log)
    ev: EvasiveResult | None = None
    if evasive:
        if not may_evade(moved):
            raise TurnError(f"{unit_id}: a {moved.profile.aircraft_class.label} may not evade (R-8)")
        if out_of_battle(moved) or moved.landed or not under_control(moved, options):
            lines.append(f"{unit_id} cannot fly an evasive manoeuvre now (R-8)")
        else:
            moved, ev = declare_evasive(moved, dice, options)
            lines.extend(ev.log)
    moved = replace(moved, moved=True)
    return state.with_units(moved), MoveOutcome(unit_id, report, crash, ev, tuple(lines),
                                                passes)


def _move_line(before: AirUnit, after: AirUnit, plan: Plan) -> str:
    steps = format_plan(plan) or "(no steps)"
    return (f"{before.id} flies {steps}: {_where(before)} → {_where(after)} (R-3)")


def _where(u: AirUnit) -> str:
    col, row = u.hex.to_offset()
    return f"{col},{row} {FACING_NAMES[u.facing]} level {u.altitude} speed {u.speed}"


@dataclass(frozen=True)
class MovementEnd:
    side: str
    collisions: tuple[CollisionResult, ...]
    log: tuple[str, ...]


def unmoved(state: BattleState) -> tuple[str, ...]:
    side = state.active_side
    return tuple(u.id for u in state.units
                 if u.side == side and not u.moved and not out_of_battle(u))


def end_movement(state: BattleState, dice: Dice, options: AirOptions) -> tuple[BattleState,
                                                                                 MovementEnd]:
    """R-6 where this side's aircraft share a hex with an out-of-control object
    (one roll per hex), then R-1.3: the side's pending damage takes effect."""
    if state.phase is not Phase.MOVEMENT:
        raise TurnError(f"not the movement phase (now {state.phase.value})")
    waiting = unmoved(state)
    if waiting:
        raise TurnError("still to move: " + ", ".join(waiting))
    side = state.active_side
    assert side is not None
    results: list[CollisionResult] = []
    lines: list[str] = []
    for _place, objects in crowded_places(state.units).items():
        if not any(u.side == side for u in objects) or not needs_collision_roll(objects, options):
            continue
        objs = tuple(state.unit(u.id) for u in objects)
        after, res = check_collision(objs, dice, options)
        state = state.with_units(*after)
        results.append(res)
        lines.extend(res.log)
    state = _into_effect(state, side)
    state = replace(state, phase=Phase.SHOOTING)
    lines.append(f"{side}: movement ends; shooting (R-1.2)")
    return state, MovementEnd(side, tuple(results), tuple(lines))


def _into_effect(state: BattleState, side: str) -> BattleState:
    """R-1.3: damage recorded so far takes effect in the side's shooting phase."""
    return state.with_units(*(bring_into_effect(u) for u in state.side_units(side)))


# ------------------------------------------------------------------ shooting

def shoot_unit(state: BattleState, shooter_id: str, target_id: str, dice: Dice,
               options: AirOptions, weapon: WeaponKind = WeaponKind.GUNS) -> tuple[BattleState,
                                                                                   ShotResult]:
    """One shot (RULES-NOTES D) by the active side in its shooting phase (R-1.2)."""
    shooter, target = state.unit(shooter_id), state.unit(target_id)
    _require(state, Phase.SHOOTING, shooter)
    s2, t2, res = shoot(shooter, target, dice, options, weapon)
    if not res.legal:
        raise TurnError(res.log[0])
    return state.with_units(s2, t2), res


def ram_unit(state: BattleState, attacker_id: str, target_id: str, dice: Dice,
             options: AirOptions) -> tuple[BattleState, RamResult]:
    """A ram (R-7) by the active side in its shooting phase (R-1.2)."""
    attacker, target = state.unit(attacker_id), state.unit(target_id)
    _require(state, Phase.SHOOTING, attacker)
    a2, t2, res = ram(attacker, target, dice, options)
    if not res.legal:
        raise TurnError(res.log[0])
    return state.with_units(a2, t2), res


def end_shooting(state: BattleState) -> BattleState:
    """R-1.2: the next side moves and shoots; after the last, the heat phase."""
    if state.phase is not Phase.SHOOTING:
        raise TurnError(f"not the shooting phase (now {state.phase.value})")
    nxt = replace(state, phase=Phase.MOVEMENT, side_index=state.side_index + 1)
    return _skip_empty_sides(nxt)


def _skip_empty_sides(state: BattleState) -> BattleState:
    """A side with nothing left in the battle has no movement or shooting."""
    while state.phase is Phase.MOVEMENT and state.side_index < len(state.order):
        side = state.order[state.side_index]
        if any(not out_of_battle(u) for u in state.side_units(side)):
            return state
        state = replace(state, side_index=state.side_index + 1)
    if state.phase is Phase.MOVEMENT:
        return replace(state, phase=Phase.HEAT)
    return state


# ------------------------------------------------------------------ heat and end

@dataclass(frozen=True)
class HeatPhase:
    results: tuple[HeatResult, ...]
    log: tuple[str, ...]


def heat_phase(state: BattleState, dice: Dice, options: AirOptions) -> tuple[BattleState,
                                                                               HeatPhase]:
    """R-1.4 heat phase for every aircraft (RULES-NOTES D)."""
    if state.phase is not Phase.HEAT:
        raise TurnError(f"not the heat phase (now {state.phase.value})")
    units: list[AirUnit] = []
    results: list[HeatResult] = []
    for u in state.units:
        u2, res = unit_heat_phase(u, dice, options)
        units.append(u2)
        if res.log:
            results.append(res)
    lines = ["heat phase (R-1.4)", *(line for r in results for line in r.log)]
    return replace(state, units=tuple(units), phase=Phase.END), HeatPhase(tuple(results),
                                                                          tuple(lines))


@dataclass(frozen=True)
class StatusReport:
    """R-1.4: what the GM tells each player at the end of the turn."""

    unit_id: str
    engine: str
    fuel: int
    ammo: int
    hull_left: int
    hull: int
    damage: tuple[str, ...]
    crew: tuple[str, ...]
    weather: str
    line: str


@dataclass(frozen=True)
class EndPhase:
    turn: int
    reports: tuple[StatusReport, ...]
    recoveries: tuple[RecoveryResult, ...]
    log: tuple[str, ...]


def engine_condition(unit: AirUnit) -> str:
    if unit.fuel <= 0:
        return "stopped: no fuel"
    if engine_disabled(unit):
        return "disabled"
    lost = thrust_lost(unit)
    text = f"damaged (−{lost} thrust)" if lost else "sound"
    if unit.overheat:
        text += f", overheat {unit.overheat}"
    return text


def burn_fuel(unit: AirUnit, options: AirOptions) -> tuple[AirUnit, str | None]:
    """R-1.4 fuel: a turn's flying plus leaks from fuel-tank criticals in effect."""
    if out_of_battle(unit) or unit.landed:
        return unit, None
    leaks = unit.damage.at("fuel_tank")
    burn = options.fuel_per_turn + leaks * options.fuel_leak_per_turn
    if burn <= 0:
        return unit, None
    after = max(0, unit.fuel - burn)
    why = f"{options.fuel_per_turn} per turn" + (f" + leak ×{leaks}" if leaks else "")
    return replace(unit, fuel=after), f"{unit.id}: fuel {unit.fuel} → {after} ({why}, R-1.4)"


def status_report(unit: AirUnit, options: AirOptions) -> StatusReport:
    """R-1.4: engine condition, fuel and ammunition left, airframe integrity, weather."""
    effects = tuple(f"{location_label(loc)} ×{n}: {LOCATION_EFFECTS.get(loc, '')}"
                    for loc, n in unit.total_damage.locations)
    crew = tuple(f"{a.name}: " + ("dead" if a.dead else
                                  f"{a.wounds} wound(s), "
                                  + ("conscious" if a.conscious else "unconscious"))
                 for a in unit.everyone)
    state = ("destroyed" if unit.destroyed else "crashed" if unit.crashed
             else "landed" if unit.landed else f"level {unit.altitude}, speed {unit.speed}")
    engine = engine_condition(unit)
    line = (f"{unit.id}: {state}; engine {engine}; fuel {unit.fuel}; ammo {unit.ammo}; "
            f"hull {unit.hull_left}/{unit.profile.hull}; weather {options.weather} (R-1.4)")
    return StatusReport(unit.id, engine, unit.fuel, unit.ammo, unit.hull_left, unit.profile.hull,
                        effects, crew, options.weather, line)


def end_phase(state: BattleState, dice: Dice, options: AirOptions) -> tuple[BattleState,
                                                                             EndPhase]:
    """R-1.4 end phase: fuel, the status report per aircraft, then R-5 recovery
    rolls for every unconscious airman still alive."""
    if state.phase is not Phase.END:
        raise TurnError(f"not the end phase (now {state.phase.value})")
    units: list[AirUnit] = []
    lines: list[str] = [f"end phase of turn {state.turn} (R-1.4)"]
    reports: list[StatusReport] = []
    recoveries: list[RecoveryResult] = []
    for u in state.units:
        u, fuel_line = burn_fuel(u, options)
        if fuel_line:
            lines.append(fuel_line)
        crew = []
        for airman in u.everyone:
            if not airman.conscious and not airman.dead and not out_of_battle(u):
                airman, rec = recovery_roll(airman, dice)
                recoveries.append(rec)
                lines.extend(rec.log)
            crew.append(airman)
        u = replace(u, pilot=crew[0], crew=tuple(crew[1:]))
        rep = status_report(u, options)
        reports.append(rep)
        lines.append(rep.line)
        units.append(u)
    out = replace(state, units=tuple(units), phase=Phase.BETWEEN_TURNS, order=(), side_index=0)
    return out, EndPhase(state.turn, tuple(reports), tuple(recoveries), tuple(lines))


# ------------------------------------------------------------------ what next

@dataclass(frozen=True)
class NextStep:
    """What the turn waits for (R-1), for the tactical view's status line."""

    phase: Phase
    side: str | None
    units: tuple[str, ...]      # aircraft that may still act in this step
    text: str


def what_next(state: BattleState) -> NextStep:
    side = state.active_side
    if state.phase is Phase.BETWEEN_TURNS:
        return NextStep(state.phase, None, (), f"turn {state.turn + 1}: roll initiative (R-1.1)")
    if state.phase is Phase.MOVEMENT:
        todo = unmoved(state)
        text = (f"{side} moves: {', '.join(todo)} (R-1.2)" if todo
                else f"{side} has moved: end the movement (R-6 collision rolls)")
        return NextStep(state.phase, side, todo, text)
    if state.phase is Phase.SHOOTING:
        ready = tuple(u.id for u in state.side_units(side or "")
                      if not (out_of_battle(u) or u.shot or u.attack_forfeit or u.evading))
        text = (f"{side} shoots or rams: {', '.join(ready)}, or ends its shooting (R-1.2)"
                if ready else f"{side}: nothing left to shoot; end its shooting")
        return NextStep(state.phase, side, ready, text)
    if state.phase is Phase.HEAT:
        return NextStep(state.phase, None, (), "heat phase (R-1.4)")
    return NextStep(state.phase, None, (), "end phase: status and recovery rolls (R-1.4, R-5)")


# ------------------------------------------------------------------ a whole turn

@dataclass(frozen=True)
class Orders:
    """What one aircraft does this turn: its plan, evasive, and one attack."""

    plan: Plan | None = None          # None: straight ahead at its speed
    evasive: bool = False
    shoot: str | None = None
    ram: str | None = None


@dataclass(frozen=True)
class TurnReport:
    turn: int
    start: TurnStart
    moves: tuple[MoveOutcome, ...]
    movement_ends: tuple[MovementEnd, ...]
    attacks: tuple[ShotResult | RamResult, ...]
    heat: HeatPhase
    end: EndPhase
    log: tuple[str, ...] = field(default=())


def resolve_turn(state: BattleState, orders: Mapping[str, Orders], battle_map: BattleMap,
                 dice: Dice, options: AirOptions) -> tuple[BattleState, TurnReport]:
    """R-1 start to finish from orders. An illegal plan flies straight ahead
    instead (logged); an illegal attack is skipped (logged)."""
    state, start = begin_turn(state, battle_map, dice, options)
    lines = list(start.log)
    moves: list[MoveOutcome] = []
    ends: list[MovementEnd] = []
    attacks: list[ShotResult | RamResult] = []
    while state.phase in (Phase.MOVEMENT, Phase.SHOOTING):
        side = state.active_side
        assert side is not None
        for u in state.side_units(side):
            if out_of_battle(u):
                continue
            o = orders.get(u.id, Orders())
            plan = o.plan if o.plan is not None else straight_plan(u)
            try:
                state, mv = move_unit(state, u.id, plan, battle_map, dice, options,
                                      evasive=o.evasive)
            except TurnError as err:
                lines.append(f"{err}; flies straight ahead instead")
                state, mv = move_unit(state, u.id, straight_plan(u), battle_map, dice, options,
                                      evasive=o.evasive and may_evade(u))
            moves.append(mv)
            lines.extend(mv.log)
        state, me = end_movement(state, dice, options)
        ends.append(me)
        lines.extend(me.log)
        for u in state.side_units(side):
            o = orders.get(u.id, Orders())
            try:
                if o.ram is not None:
                    state, rr = ram_unit(state, u.id, o.ram, dice, options)
                    attacks.append(rr)
                    lines.extend(rr.log)
                elif o.shoot is not None:
                    state, sr = shoot_unit(state, u.id, o.shoot, dice, options)
                    attacks.append(sr)
                    lines.extend(sr.log)
            except TurnError as err:
                lines.append(str(err))
        state = end_shooting(state)
    state, heat = heat_phase(state, dice, options)
    lines.extend(heat.log)
    state, end = end_phase(state, dice, options)
    lines.extend(end.log)
    return state, TurnReport(state.turn, start, tuple(moves), tuple(ends), tuple(attacks), heat,
                             end, tuple(lines))
