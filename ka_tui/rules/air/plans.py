"""Move plans sent by players: read, checked and hidden.

The flight model is plan, reveal, execute (S0 §Altitude explained: after X-wing, "planning the move, revealing and executing"): each
player plans his own aircraft's move in secret and the GM executes the
plans in the R-1.2 order. A sent plan is a ``plan_sent`` event in the
battle's log (``rules/air/battle.py``): ``{"unit", "plan": [step…],
"evasive", "by"}``. It changes nothing in the replay; the GM's
``move_committed`` is what moves the aircraft (R-3 … R-10).

- ``sent_plans(events)``: the plans in now (the newest per aircraft, since
  the turn began, for an aircraft that has not moved since);
- ``plan_refusal(state, unit, plan, evasive, map, options)``: why this plan
  cannot be sent now (the engine's own reason for an illegal plan), or None;
- ``accept_plan(done, data)``: the same on the log as stored (the store asks
  it inside the write transaction);
- ``visible_to(events, units)``: the log as the player of ``units`` may see
  it: another aircraft's plan keeps only "a plan is in", never its steps;
- ``plans_in_text(state, sent, names)``: ``1 of 2 plans in: Kay; waiting
  for Olga`` for the GM.

Pure: no Textual, no database.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ka_tui.rules.air import turn as t
from ka_tui.rules.air.battle import (
    Battle,
    BattleEventKind,
    Event,
    ReplayError,
    initial_state,
    rules_of,
)
from ka_tui.rules.air.battle_map import BattleMap, parse_map
from ka_tui.rules.air.codec import CodecError, plan_from_json, plan_to_json
from ka_tui.rules.air.damage import out_of_battle
from ka_tui.rules.air.evasive import may_evade
from ka_tui.rules.air.move_plan import Plan, format_plan
from ka_tui.rules.air.movement import validate_plan
from ka_tui.rules.core.options import AirOptions

PLAN = BattleEventKind.PLAN.value


@dataclass(frozen=True)
class SentPlan:
    """A plan in: the aircraft, its steps, evasive (R-8), who sent it and the
    event's position in the log."""

    unit: str
    plan: Plan
    evasive: bool
    by: str
    seq: int

    @property
    def text(self) -> str:
        return (format_plan(self.plan) or "(stay)") + (" + evasive" if self.evasive else "")


def plan_event(unit: str, plan: Plan, evasive: bool, by: str) -> Event:
    """The ``plan_sent`` event's data and log line (its ``seq`` is the store's)."""
    text = (format_plan(plan) or "(stay)") + (" + evasive (R-8)" if evasive else "")
    return {"kind": PLAN, "data": {"unit": unit, "plan": plan_to_json(plan),
                                   "evasive": bool(evasive), "by": by},
            "faces": [], "log": [f"{unit}: {by or 'the player'} sends a plan: {text}"]}


def sent_plans(events: Sequence[Event]) -> dict[str, SentPlan]:
    """The plans in: for each aircraft the newest ``plan_sent``
    since the turn began (R-1.1) and after its last move (R-1.2: one move a
    turn). An undone move brings its plan back; an executed plan is gone."""
    out: dict[str, SentPlan] = {}
    for ev in events:
        kind = ev.get("kind")
        data = ev.get("data", {}) or {}
        if kind == BattleEventKind.TURN:
            out.clear()
        elif kind == BattleEventKind.MOVE:
            out.pop(str(data.get("unit")), None)
        elif kind == PLAN and "plan" in data:
            try:
                plan = plan_from_json(list(data["plan"]))
            except (CodecError, TypeError, ValueError):
                continue
            uid = str(data.get("unit"))
            out[uid] = SentPlan(uid, plan, bool(data.get("evasive", False)),
                                str(data.get("by", "")), int(ev.get("seq", 0)))
    return out


def plan_window(state: t.BattleState, unit_id: str) -> str | None:
    """Why ``unit_id`` cannot take a plan now, or None. A plan may be sent
    once the turn has begun (R-1.1 initiative, R-3.2 start of the turn: its
    speed is known) until the aircraft moves (R-1.2; so the side moving
    second plans while the first moves and shoots: a listed reading,
    docs/rules/READINGS.md); not between turns, nor in the heat and end
    phases (R-1.4)."""
    try:
        unit = state.unit(unit_id)
    except t.TurnError as e:
        return str(e)
    if out_of_battle(unit):
        return f"{unit_id} is out of the battle"
    if state.phase not in (t.Phase.MOVEMENT, t.Phase.SHOOTING):
        return ("the GM has not begun the turn yet (R-1.1)"
                if state.phase is t.Phase.BETWEEN_TURNS
                else f"the turn is in its {state.phase.value} phase (R-1.4): no move is left")
    if unit.moved:
        return f"{unit_id} has moved this turn (R-1.2)"
    return None


def plan_refusal(state: t.BattleState, unit_id: str, plan: Plan, evasive: bool,
                 battle_map: BattleMap, options: AirOptions) -> str | None:
    """Why this plan cannot be sent now, or None: ``plan_window``, then the
    engine's own check of the plan (``movement.validate_plan``, R-3 … R-10)
    and R-8 for evasive."""
    why = plan_window(state, unit_id)
    if why is not None:
        return why
    unit = state.unit(unit_id)
    check = validate_plan(unit, plan, battle_map, options)
    if not check.legal:
        return check.reason
    if evasive and not may_evade(unit):
        return f"a {unit.profile.aircraft_class.label} may not evade (R-8)"
    return None


def accept_plan(done: Sequence[Event], data: Mapping[str, Any],
                fallback: AirOptions | None = None) -> str | None:
    """``plan_refusal`` on the log as stored (replayed from its start event:
    its map text and its recorded rules), for the store's write transaction."""
    if not done:
        return "a battle log starts with battle_started"
    if done[-1].get("kind") == BattleEventKind.ENDED:
        return "the battle has ended"
    try:
        plan = plan_from_json(list(data.get("plan", [])))
    except (CodecError, TypeError, ValueError) as e:
        return f"the plan does not read ({e})"
    start = done[0]
    try:
        battle_map = parse_map(str(start.get("data", {}).get("map") or ""))
        options = rules_of(start, fallback or AirOptions())
        initial_state(start)
        state = Battle.from_events(list(done), battle_map, options).state
    except (ReplayError, ValueError) as e:
        return f"the battle's log does not replay ({e})"
    return plan_refusal(state, str(data.get("unit", "")), plan,
                        bool(data.get("evasive", False)), battle_map, options)


def visible_to(events: Sequence[Event], units: Iterable[str]) -> list[Event]:
    """The log as the player of ``units`` may see it (DESIGN.md:
    secrets are filtered by who is looking): another aircraft's sent plan
    keeps its aircraft and "a plan is in", never its steps, evasive or
    sender, before or after it is executed (the ``move_committed`` shows the
    move flown). Every other event is as stored, so the replay is the same."""
    own = frozenset(units)
    out: list[Event] = []
    for ev in events:
        if ev.get("kind") == PLAN:
            uid = str((ev.get("data") or {}).get("unit", ""))
            if uid not in own:
                ev = {"seq": ev.get("seq", 0), "kind": PLAN, "data": {"unit": uid},
                      "faces": [], "log": [f"{uid}: a plan is in"]}
        out.append(ev)
    return out


def plans_in_text(state: t.BattleState, sent: Mapping[str, SentPlan],
                  names: Mapping[str, str] | None = None) -> str:
    """``1 of 2 plans in: Kay; waiting for Olga`` over the aircraft that may
    still take a plan this turn (``plan_window``), each named by its pilot's
    first name (or ``names``: unit id -> name). Names only, never a plan."""
    names = names or {}
    open_units = [u for u in state.units if plan_window(state, u.id) is None]
    if not open_units:
        return ""
    name = {u.id: names.get(u.id) or (u.pilot.name.split() or [u.id])[0] for u in open_units}
    open_ids = [u.id for u in open_units]
    got = [uid for uid in open_ids if uid in sent]
    text = f"{len(got)} of {len(open_ids)} plans in"
    if got:
        text += ": " + ", ".join(name[u] for u in got)
    waiting = [name[u] for u in open_ids if u not in sent]
    if waiting:
        text += "; waiting for " + ", ".join(waiting)
    return text


__all__ = ["PLAN", "SentPlan", "accept_plan", "plan_event", "plan_refusal", "plan_window",
           "plans_in_text", "sent_plans", "visible_to"]
