"""Every roll a step of the air battle will ask for, known before its dice
fall: for the plan preview (every check a move rolls, with its odds) and for
the table's dice (``table_dice.py``: the rolls still to come).

- ``move_checks``: a move's checks in the order it rolls them — the plan's
  own (``movement.validate_plan``: R-3.2 stall, R-3.3 steep descent, S0
  echelon test, R-9 figures, R-10 landing, R-4 G-load), then the R-8 evasive
  manoeuvre's piloting check when it is flown;
- ``expected_rolls``: every roll a step asks for on the way where each
  check passes (the turn's start: R-1.1 initiative and R-3.2 stall checks;
  a move: its checks and R-6 collision rolls; a shot: to hit, Firepower,
  Evasion, the hit locations, RULES-NOTES D; a ram: R-7; the phases' R-6
  collisions, R-1.4 heat checks and R-5 recovery rolls).

Pure: no Textual, no database.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ka_tui.rules.air import turn as t
from ka_tui.rules.air.battle_map import BattleMap
from ka_tui.rules.air.codec import CodecError, plan_from_json
from ka_tui.rules.air.collisions import (
    collision_target, crowded_places, needs_collision_roll, path_collision_checks,
)
from ka_tui.rules.air.damage import location_what, out_of_battle, under_control
from ka_tui.rules.air.evasive import evasive_target, may_evade
from ka_tui.rules.air.heat import heat_target, next_overheat
from ka_tui.rules.air.move_plan import Plan, PlanCheck, RequiredCheck
from ka_tui.rules.air.movement import preview_start, validate_plan
from ka_tui.rules.air.ramming import ram_damage, ram_problems, ram_target
from ka_tui.rules.air.shooting import evasion_ask, firepower_ask, preview_shot
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.air.wounds import consciousness_target
from ka_tui.rules.core.dice import RollAsk
from ka_tui.rules.core.options import AirOptions

EVASIVE_ON_FAIL = "no evasion this turn, and the attack is given up (R-8)"


def evasive_check(end: AirUnit, options: AirOptions) -> RequiredCheck | None:
    """R-8: the piloting check an evasive manoeuvre rolls after the move (the
    aircraft where the move leaves it), or None when it would roll none
    (out of the battle, on the ground or out of control)."""
    if not may_evade(end) or out_of_battle(end) or end.landed or not under_control(end, options):
        return None
    return RequiredCheck(f"{end.id} evasive manoeuvre (R-8)", evasive_target(end), -1,
                         EVASIVE_ON_FAIL)


def move_checks(check: PlanCheck, evasive: bool,
                options: AirOptions) -> tuple[RequiredCheck, ...]:
    """Every check a legal plan's move rolls, in order: the plan's own, then
    R-8's when the aircraft flies evasive."""
    extra = evasive_check(check.end, options) if evasive and check.legal else None
    return check.checks + ((extra,) if extra is not None else ())


def _asks(checks: tuple[RequiredCheck, ...]) -> tuple[RollAsk, ...]:
    return tuple(RollAsk(c.what, 2, 6, c.target) for c in checks)


def _turn_start(state: t.BattleState, options: AirOptions) -> tuple[RollAsk, ...]:
    flying = [u for u in state.units if not out_of_battle(u)]
    sides = list(dict.fromkeys(u.side for u in flying))
    out = [RollAsk(t.initiative_what(side), 2, 6, note="the higher total moves first")
           for side in (sides if len(sides) > 1 else ())]
    for u in flying:
        out.extend(_asks(preview_start(u, options).checks))
    return tuple(out)


def _move(state: t.BattleState, data: Mapping[str, Any], battle_map: BattleMap,
          options: AirOptions) -> tuple[RollAsk, ...]:
    unit = state.unit(str(data.get("unit")))
    try:
        plan: Plan = plan_from_json(list(data.get("plan", [])))
    except (CodecError, TypeError, ValueError):
        return ()
    check = validate_plan(unit, plan, battle_map, options)
    if not check.legal:
        return ()
    out = list(_asks(check.checks))
    others = [u for u in state.units if u.id != unit.id]
    for place, target in path_collision_checks(unit, check.end, check.path, others, options):
        out.append(RollAsk(f"collision at {place.hex.q},{place.hex.r} level "
                           f"{place.altitude} (R-6)", 2, 6, target))
    extra = evasive_check(check.end, options) if data.get("evasive") else None
    if extra is not None:
        out.append(RollAsk(extra.what, 2, 6, extra.target))
    return tuple(out)


def _shot(state: t.BattleState, data: Mapping[str, Any],
          options: AirOptions) -> tuple[RollAsk, ...]:
    shooter, target = state.unit(str(data.get("shooter"))), state.unit(str(data.get("target")))
    pre = preview_shot(shooter, target, options)
    if not pre.legal:
        return ()
    out = [RollAsk(f"{shooter.id} to hit {target.id} (R-2)", 2, 6, pre.target),
           firepower_ask(shooter, options)]
    if under_control(target, options):
        out.append(evasion_ask(target, options))
    out.append(RollAsk(location_what(target.id, 1), 2, 6,
                       note="the hit-location table; one such roll per hit left"))
    return tuple(out)


def _ram(state: t.BattleState, data: Mapping[str, Any],
         options: AirOptions) -> tuple[RollAsk, ...]:
    attacker, target = state.unit(str(data.get("attacker"))), state.unit(str(data.get("target")))
    if ram_problems(attacker, target, options):
        return ()
    out = [RollAsk(f"{attacker.id} rams {target.id} (R-7)", 2, 6,
                   ram_target(attacker, target, options))]
    to_attacker, to_target = ram_damage(attacker, target, options)
    for who, hits in ((target, to_target), (attacker, to_attacker)):
        out.extend(RollAsk(location_what(who.id, n), 2, 6, note="the hit-location table")
                   for n in range(1, min(hits, who.hull_left) + 1))
    return tuple(out)


def _phase(state: t.BattleState, phase: str, options: AirOptions) -> tuple[RollAsk, ...]:
    if phase == t.Phase.MOVEMENT and state.phase is t.Phase.MOVEMENT:
        side = state.active_side
        return tuple(
            RollAsk(f"collision at {h.q},{h.r} level {level} (R-6)", 2, 6,
                    collision_target(objects))
            for (h, level), objects in crowded_places(state.units).items()
            if any(u.side == side for u in objects) and needs_collision_roll(objects, options))
    if phase == t.Phase.HEAT and options.heat_enabled:
        return tuple(RollAsk(f"{u.id} engine heat (R-1.4)", 2, 6,
                             heat_target(next_overheat(u), options))
                     for u in state.units
                     if not out_of_battle(u) and next_overheat(u) >= options.heat_threshold)
    if phase == t.Phase.END:
        return tuple(RollAsk(f"{a.name} comes round (R-5)", 2, 6,
                             consciousness_target(a.wounds))
                     for u in state.units if not out_of_battle(u)
                     for a in u.everyone if not a.conscious and not a.dead)
    return ()


def expected_rolls(state: t.BattleState, kind: str, data: Mapping[str, Any],
                   battle_map: BattleMap, options: AirOptions) -> tuple[RollAsk, ...]:
    """The rolls step ``kind`` asks for, in order, where every check passes
    and every shot hits (a failure asks for fewer, or others: a tie re-roll,
    a random move). Nothing for a step the turn refuses now."""
    try:
        if kind == "turn_started":
            return _turn_start(state, options)
        if kind == "move_committed":
            return _move(state, data, battle_map, options)
        if kind == "shot_resolved":
            return _shot(state, data, options)
        if kind == "ram_resolved":
            return _ram(state, data, options)
        if kind == "phase_ended":
            return _phase(state, str(data.get("phase")), options)
    except t.TurnError:
        return ()
    return ()


__all__ = ["EVASIVE_ON_FAIL", "evasive_check", "expected_rolls", "move_checks"]
