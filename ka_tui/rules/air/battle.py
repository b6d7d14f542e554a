"""An air battle as an append-only list of JSON-friendly events (DESIGN.md
"Fights and battles as a log of events"), and its replay through the rules.

Each event is ``{"seq", "kind", "data", "faces", "log"}``: ``faces`` are the dice
the step used, as ``[sides, face]`` pairs, so a replay never re-rolls; ``log``
is what the GM read when it happened. Kinds:

- ``battle_started`` ``{"units": [AirUnit…], "map": text or null, "rules": {air
  house rules}}`` (the air options the battle is played under; a replay uses
  them, not the campaign's current ones; older logs without them replay under
  the options given)
- ``turn_started`` ``{}`` (R-1.1 initiative, R-3.2 start of turn)
- ``move_committed`` ``{"unit", "plan": [step…], "evasive"}`` (R-3 … R-10, R-8)
- ``shot_resolved`` ``{"shooter", "target", "weapon"}`` (RULES-NOTES D)
- ``ram_resolved`` ``{"attacker", "target"}`` (R-7)
- ``phase_ended`` ``{"phase": "movement"|"shooting"|"heat"|"end"}`` (R-6, R-1.3, R-1.4, R-5)
- ``plan_sent`` ``{"unit", "plan": [step…], "evasive", "by"}`` (a player's
  secret move plan for the GM to execute; changes nothing in the replay;
  ``rules/air/plans.py`` reads, checks and hides them)
- ``battle_ended`` ``{outcome}`` (the write-back to the campaign; no step follows)

``replay(events, battle_map, options)`` rebuilds the state; the store writes
each event in its own transaction and undoes by dropping the last one.
``Battle`` keeps the state at each turn start, so an undo replays one turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ka_tui.rules.air import turn as t
from ka_tui.rules.air.codec import decode, encode, plan_from_json, plan_to_json
from ka_tui.rules.air.battle_map import BattleMap
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.core.dice import (
    Dice, DiceError, DiceFault, RecordingDice, ScriptedDice, bad_face,
)
from ka_tui.rules.air.evasive import WeaponKind
from ka_tui.rules.air.move_plan import Plan
from ka_tui.rules.core.options import AirOptions, HouseRules, recorded_air_rules

Event = dict[str, Any]


class BattleEventKind(StrEnum):
    """The kinds of event in a battle's log (their values are what is stored)."""

    STARTED = "battle_started"
    TURN = "turn_started"
    MOVE = "move_committed"
    SHOT = "shot_resolved"
    RAM = "ram_resolved"
    PHASE_ENDED = "phase_ended"
    # a player sent his aircraft's move plan (secret until the GM
    # executes it as a ``move_committed``). No step of the turn: the replay
    # passes over it; ``rules/air/plans.py`` reads the plans in.
    PLAN = "plan_sent"
    # the GM ended the battle; its data is the outcome written back to the
    # campaign (store/battles.py). Changes nothing in the replay; nothing follows.
    ENDED = "battle_ended"


def accept_kind(done: Sequence[str], kind: str) -> str | None:
    """The structure of a battle log (R-1): it begins with ``battle_started``,
    which comes only once, and holds only known kinds. None, or why not."""
    try:
        k = BattleEventKind(kind)
    except ValueError:
        return f"unknown battle event {kind!r}"
    if not done and k is not BattleEventKind.STARTED:
        return "a battle log starts with battle_started"
    if done and k is BattleEventKind.STARTED:
        return "the battle has already started"
    if done and done[-1] == BattleEventKind.ENDED:
        return "the battle has ended"
    return None


def undone_at(kinds: Sequence[str]) -> int | None:
    """The index of the event an undo drops: the newest that is not a sent
    plan nor the start; None when there is none."""
    for i in range(len(kinds) - 1, 0, -1):
        if kinds[i] != BattleEventKind.PLAN:
            return i
    return None


def rules_of(start: Event, fallback: AirOptions) -> AirOptions:
    """The air house rules a battle was started under (its start event), or
    ``fallback`` for a log written before they were recorded; options added
    since read as the engine played then (``options.recorded_air_rules``)."""
    recorded = start.get("data", {}).get("rules")
    try:
        return recorded_air_rules(recorded, fallback)
    except (ValueError, TypeError) as e:
        raise ReplayError(f"the battle's house rules do not read: {e}") from None


class ReplayError(ValueError):
    """An event log that does not replay: wrong order, or faces that do not fit."""


class _ReplayDice:
    """The faces an event recorded, checked die by die."""

    def __init__(self, faces: Sequence[Sequence[int]], where: str) -> None:
        self._faces = [(int(s), int(f)) for s, f in faces]
        self._where = where

    def roll(self, sides: int) -> int:
        if not self._faces:
            raise ReplayError(f"{self._where}: the log has no die left for a d{sides}")
        s, f = self._faces.pop(0)
        if s != sides or not 1 <= f <= sides:
            raise ReplayError(f"{self._where}: the log has a d{s} showing {f} "
                              f"where a d{sides} is rolled")
        return f

    def finish(self) -> None:
        if self._faces:
            raise ReplayError(f"{self._where}: {len(self._faces)} logged die/dice not used")


class _NeedBattleDie(Exception):
    def __init__(self, sides: int) -> None:
        super().__init__(f"a d{sides} is needed")
        self.sides = sides


class _AskDice:
    """The faces typed so far; asks (raises) for the next die when they run out."""

    def __init__(self, faces: Sequence[int]) -> None:
        self._faces = list(faces)

    def roll(self, sides: int) -> int:
        if not self._faces:
            raise _NeedBattleDie(sides)
        face = self._faces.pop(0)
        if not 1 <= face <= sides:
            raise bad_face(face, sides)
        return face


def next_die(state: t.BattleState, kind: str, data: dict[str, Any], battle_map: BattleMap,
             options: AirOptions, faces: Sequence[int]) -> int | None:
    """Physical dice at the table (RULES-NOTES 3): the sides of the next die this
    step needs after ``faces``, or None when ``faces`` are enough. A step that is
    not allowed raises ``TurnError`` before any die is asked for."""
    try:
        apply_action(state, kind, data, battle_map, _AskDice(faces), options)
    except _NeedBattleDie as need:
        return need.sides
    return None


def start_event(units: Iterable[AirUnit], map_text: str | None = None,
                options: AirOptions | None = None) -> Event:
    """The first event; records the air house rules when given (a battle
    replays under the rules it was started with)."""
    us = tuple(units)
    ids = [u.id for u in us]
    if len(set(ids)) != len(ids):
        raise ValueError("aircraft ids must be unique in a battle")
    data: dict[str, Any] = {"units": [encode(u) for u in us], "map": map_text}
    if options is not None:
        data["rules"] = HouseRules(air=options).to_dict()["air"]
    return {"seq": 0, "kind": BattleEventKind.STARTED.value, "data": data,
            "faces": [], "log": [f"battle started with {len(us)} aircraft"]}


def initial_state(event: Event) -> t.BattleState:
    if event.get("kind") != BattleEventKind.STARTED:
        raise ReplayError("a battle log starts with battle_started")
    return t.BattleState(tuple(decode(AirUnit, u) for u in event["data"]["units"]))


def apply_action(state: t.BattleState, kind: str, data: dict[str, Any], battle_map: BattleMap,
                 dice: Dice, options: AirOptions) -> tuple[t.BattleState, tuple[str, ...], object]:
    """One step of the turn through the rules: (new state, log lines, result)."""
    if kind == BattleEventKind.TURN:
        s, start = t.begin_turn(state, battle_map, dice, options)
        return s, start.log, start
    if kind == BattleEventKind.MOVE:
        plan = plan_from_json(data["plan"])
        s, mv = t.move_unit(state, data["unit"], plan, battle_map, dice, options,
                            evasive=bool(data.get("evasive", False)))
        return s, mv.log, mv
    if kind == BattleEventKind.SHOT:
        weapon = WeaponKind(data.get("weapon", WeaponKind.GUNS.value))
        s, shot = t.shoot_unit(state, data["shooter"], data["target"], dice, options, weapon)
        return s, shot.log, shot
    if kind == BattleEventKind.RAM:
        s, rr = t.ram_unit(state, data["attacker"], data["target"], dice, options)
        return s, rr.log, rr
    if kind == BattleEventKind.PHASE_ENDED:
        return _end_phase(state, str(data.get("phase")), dice, options)
    if kind == BattleEventKind.ENDED:
        return state, ("the battle is over",), None
    if kind == BattleEventKind.PLAN:
        return state, (), None
    raise ReplayError(f"unknown event kind {kind!r}")


def _end_phase(state: t.BattleState, phase: str, dice: Dice,
               options: AirOptions) -> tuple[t.BattleState, tuple[str, ...], object]:
    if phase == t.Phase.MOVEMENT:
        s, me = t.end_movement(state, dice, options)
        return s, me.log, me
    if phase == t.Phase.SHOOTING:
        s = t.end_shooting(state)
        nxt = s.active_side or s.phase.value
        return s, (f"{state.active_side}: shooting ends; next: {nxt} (R-1.2)",), None
    if phase == t.Phase.HEAT:
        s, hp = t.heat_phase(state, dice, options)
        return s, hp.log, hp
    if phase == t.Phase.END:
        s, ep = t.end_phase(state, dice, options)
        return s, ep.log, ep
    raise ReplayError(f"unknown phase {phase!r}")


def replay(events: Sequence[Event], battle_map: BattleMap, options: AirOptions) -> t.BattleState:
    """Rebuild the battle from its log; the logged faces are the only dice and
    the house rules recorded at its start the only options (``options`` for a
    log that has none)."""
    if not events:
        raise ReplayError("an empty log has no battle")
    return replay_from(initial_state(events[0]), events[1:], battle_map,
                       rules_of(events[0], options))


def replay_from(state: t.BattleState, events: Iterable[Event], battle_map: BattleMap,
                options: AirOptions) -> t.BattleState:
    """Apply logged events to a state (a cached snapshot, DESIGN.md)."""
    for ev in events:
        state = _replay_one(state, ev, battle_map, options)
    return state


def _replay_one(state: t.BattleState, ev: Event, battle_map: BattleMap,
                options: AirOptions) -> t.BattleState:
    where = f"event {ev.get('seq')} ({ev.get('kind')})"
    dice = _ReplayDice(ev.get("faces", []), where)
    try:
        state, _, _ = apply_action(state, ev["kind"], ev.get("data", {}), battle_map, dice,
                                   options)
    except t.TurnError as err:
        raise ReplayError(f"{where}: {err}") from None
    dice.finish()
    return state


@dataclass
class Battle:
    """A battle being played: the state, its event log, and one method per step.

    Each method rolls with the given dice, appends one event (with the faces)
    and returns the rule's result object. A refused step (``TurnError``)
    appends nothing.
    """

    battle_map: BattleMap
    options: AirOptions
    events: list[Event] = field(default_factory=list)
    state: t.BattleState = field(default_factory=lambda: t.BattleState(()))
    # state before events[n], kept at every turn start so undo replays one turn at most
    checkpoints: dict[int, t.BattleState] = field(default_factory=dict)

    @classmethod
    def start(cls, units: Iterable[AirUnit], battle_map: BattleMap, options: AirOptions,
              map_text: str | None = None) -> Battle:
        ev = start_event(units, map_text, options)
        state = initial_state(ev)
        return cls(battle_map, options, [ev], state, {1: state})

    @classmethod
    def from_events(cls, events: Sequence[Event], battle_map: BattleMap,
                    options: AirOptions) -> Battle:
        if not events:
            raise ReplayError("an empty log has no battle")
        state = initial_state(events[0])
        options = rules_of(events[0], options)
        checkpoints = {1: state}
        for i, ev in enumerate(events[1:], start=1):
            if ev.get("kind") == BattleEventKind.TURN:
                checkpoints[i] = state
            state = _replay_one(state, ev, battle_map, options)
        return cls(battle_map, options, list(events), state, checkpoints)

    def _do(self, kind: str, data: dict[str, Any], dice: Dice) -> object:
        rec = RecordingDice(dice)
        state, log, result = apply_action(self.state, kind, data, self.battle_map, rec,
                                          self.options)
        if kind == BattleEventKind.TURN:
            self.checkpoints[len(self.events)] = self.state
        self.state = state
        self.events.append({"seq": len(self.events), "kind": str(kind), "data": data,
                            "faces": [[s, f] for s, f in rec.used], "log": list(log)})
        return result

    def needs(self, kind: str, data: dict[str, Any], faces: Sequence[int]) -> int | None:
        """The next die (its sides) a step needs after the faces typed so far."""
        return next_die(self.state, kind, data, self.battle_map, self.options, faces)

    def apply_faces(self, kind: str, data: dict[str, Any], faces: Sequence[int]) -> object:
        """Record a step with the faces the GM rolled at the table (all of them used)."""
        trial = ScriptedDice.of(faces)
        apply_action(self.state, kind, data, self.battle_map, trial, self.options)
        if not trial.exhausted:
            raise DiceError(f"{len(trial.faces)} face(s) more than the step needs",
                            reason=DiceFault.LEFT_OVER)
        return self._do(kind, data, ScriptedDice.of(faces))

    def begin_turn(self, dice: Dice) -> t.TurnStart:
        res = self._do(BattleEventKind.TURN, {}, dice)
        assert isinstance(res, t.TurnStart)
        return res

    def move(self, unit_id: str, plan: Plan, dice: Dice, *, evasive: bool = False) -> t.MoveOutcome:
        res = self._do(BattleEventKind.MOVE, {"unit": unit_id, "plan": plan_to_json(plan),
                                          "evasive": evasive}, dice)
        assert isinstance(res, t.MoveOutcome)
        return res

    def end_movement(self, dice: Dice) -> t.MovementEnd:
        res = self._do(BattleEventKind.PHASE_ENDED, {"phase": t.Phase.MOVEMENT.value}, dice)
        assert isinstance(res, t.MovementEnd)
        return res

    def shoot(self, shooter: str, target: str, dice: Dice,
              weapon: WeaponKind = WeaponKind.GUNS) -> object:
        return self._do(BattleEventKind.SHOT, {"shooter": shooter, "target": target,
                                          "weapon": weapon.value}, dice)

    def ram(self, attacker: str, target: str, dice: Dice) -> object:
        return self._do(BattleEventKind.RAM, {"attacker": attacker, "target": target}, dice)

    def end_shooting(self, dice: Dice) -> None:
        self._do(BattleEventKind.PHASE_ENDED, {"phase": t.Phase.SHOOTING.value}, dice)

    def heat(self, dice: Dice) -> t.HeatPhase:
        res = self._do(BattleEventKind.PHASE_ENDED, {"phase": t.Phase.HEAT.value}, dice)
        assert isinstance(res, t.HeatPhase)
        return res

    def end(self, dice: Dice) -> t.EndPhase:
        res = self._do(BattleEventKind.PHASE_ENDED, {"phase": t.Phase.END.value}, dice)
        assert isinstance(res, t.EndPhase)
        return res

    def undo(self) -> Event:
        """Drop the last step (never the start) and replay. Plans sent after
        it (``plan_sent``) are the players', not the GM's step: they
        stay, moved up one place (``undone_at`` says which event goes)."""
        at_step = undone_at([str(e.get("kind")) for e in self.events])
        if at_step is None:
            raise ReplayError("nothing to undo")
        last = self.events.pop(at_step)
        for i in range(at_step, len(self.events)):
            self.events[i] = {**self.events[i], "seq": i}
        n = at_step
        self.checkpoints = {k: v for k, v in self.checkpoints.items() if k <= n}
        at = max(self.checkpoints)
        self.state = replay_from(self.checkpoints[at], self.events[at:], self.battle_map,
                                 self.options)
        return last

    @property
    def log(self) -> list[str]:
        return [line for ev in self.events for line in ev.get("log", [])]
