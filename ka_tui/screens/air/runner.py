"""The turn runner behind the air-battle screen: which step comes next, the
plans being built, the previews and the steps done — all through the engine
(``rules/air/turn.py``, ``battle.py``, ``movement.validate_plan``,
``shooting.preview_shot``, ``shot_odds``, ``reach``). No Textual here.

A step is ``(kind, data)`` as ``rules/air/battle.py`` logs it, so the same
step is rolled with the app's dice (``do``) or with the faces the table's
dice show (``needs`` / ``do_faces``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ka_tui.rules.air import turn as t
from ka_tui.rules.air.battle import Battle, Event
from ka_tui.rules.air.battle_map import BattleMap
from ka_tui.rules.air.codec import plan_to_json
from ka_tui.rules.air.damage import out_of_battle
from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.air.move_plan import (
    Forward, Plan, PlanCheck, Step, format_plan, parse_plan, with_step,
)
from ka_tui.rules.air.movement import complete_plan, validate_plan
from ka_tui.rules.air.plans import PLAN, SentPlan, plan_window, plans_in_text, sent_plans
from ka_tui.rules.air.ramming import ram_problems, ram_target
from ka_tui.rules.air.reach import Reach, reach
from ka_tui.rules.air.shooting import preview_shot
from ka_tui.rules.air.shot_odds import ShotOdds, shot_odds
from ka_tui.rules.air.step_checks import move_checks
from ka_tui.rules.air.table_dice import DiceDue, dice_due
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.core.dice import Dice
from ka_tui.rules.core.options import AirOptions

PHASES = (("initiative", "Initiative"), ("movement", "Movement"), ("shooting", "Shooting"),
          ("heat", "Heat"), ("end", "End"))


class Refused(ValueError):
    """The step asked for cannot be done now; str() is the reason to show."""


@dataclass(frozen=True)
class PendingStep:
    kind: str
    data: dict[str, Any]
    label: str


@dataclass
class Runner:
    battle: Battle
    plans: dict[str, Plan] = field(default_factory=dict)
    evasive: set[str] = field(default_factory=set)
    # a player's view: his aircraft plans ahead, while another side
    # moves (``rules/air/plans.plan_window``); the GM plans who moves now
    plan_ahead: bool = False
    # the plans players sent (``plan_sent``), and which one each plan being
    # built was filled from (unit -> the event's seq)
    sent: dict[str, SentPlan] = field(default_factory=dict)
    filled_from: dict[str, int] = field(default_factory=dict)
    _reach: tuple[t.BattleState, str, Reach | None] | None = None

    def __post_init__(self) -> None:
        self.take_sent()

    def take_sent(self) -> list[str]:
        """Read the plans in from the log and fill each aircraft's
        plan from its newest one not filled yet (a plan sent again replaces
        what was built from the older one). Returns the units filled now."""
        self.sent = sent_plans(self.battle.events)
        filled = []
        for uid, got in self.sent.items():
            if self.filled_from.get(uid) != got.seq:
                self.plans[uid] = got.plan
                self.evasive.discard(uid)
                if got.evasive:
                    self.evasive.add(uid)
                self.filled_from[uid] = got.seq
                filled.append(uid)
        return filled

    def keep_plans(self, older: Runner) -> None:
        """After a reload (another window wrote): what was being built stays
        for the aircraft still to move, unless its player sent a newer plan
        since (that one is shown)."""
        for uid in set(older.plans) | set(older.filled_from):
            u = self.unit(uid)
            got = self.sent.get(uid)
            if u is None or u.moved or (got is not None
                                        and older.filled_from.get(uid) != got.seq):
                continue
            if uid in older.plans:
                self.plans[uid] = older.plans[uid]
            else:
                self.plans.pop(uid, None)   # cleared by the GM: stays cleared
            self.evasive.discard(uid)
            if uid in older.evasive:
                self.evasive.add(uid)

    def plannable(self, uid: str) -> bool:
        """May ``uid``'s plan be built and previewed now: the GM's, when it
        moves now (R-1.2); a player's, from the turn's start to his move."""
        if self.plan_ahead:
            return plan_window(self.state, uid) is None
        return self.state.phase is t.Phase.MOVEMENT and uid in self.next().units

    def plans_in(self) -> str:
        """``1 of 2 plans in: Kay; waiting for Olga`` (names only); nothing in
        a battle where no player has sent a plan (the GM plays every aircraft)."""
        if not any(e.get("kind") == PLAN for e in self.battle.events):
            return ""
        return plans_in_text(self.state, self.sent)

    # -- reading ------------------------------------------------------------

    @property
    def state(self) -> t.BattleState:
        return self.battle.state

    @property
    def options(self) -> AirOptions:
        return self.battle.options

    @property
    def battle_map(self) -> BattleMap:
        return self.battle.battle_map

    def unit(self, uid: str | None) -> AirUnit | None:
        return next((u for u in self.state.units if u.id == uid), None)

    def units_at(self, h: Hex) -> list[AirUnit]:
        return [u for u in self.state.units if u.hex == h and not out_of_battle(u)]

    def next(self) -> t.NextStep:
        return t.what_next(self.state)

    def phase_key(self) -> str:
        phase = self.state.phase
        return "initiative" if phase is t.Phase.BETWEEN_TURNS else phase.value

    # -- plans -------------------------------------------------------------

    def plan(self, uid: str) -> Plan:
        return self.plans.get(uid, ())

    def add_step(self, uid: str, step: Step) -> None:
        """A plan key: the step added as the typed notation adds it
        (``move_plan.with_step``: thrust at the start or the end, R-3.1;
        descents in a row as one, R-3.3)."""
        self.plans[uid] = with_step(self.plan(uid), step)

    def drop_step(self, uid: str) -> None:
        self.plans[uid] = self.plan(uid)[:-1]

    def set_text(self, uid: str, text: str) -> list[str]:
        """The plan typed in the notation (``+1 F F R F``); errors name the token."""
        plan, errors = parse_plan(text)
        if not errors:
            self.plans[uid] = plan
        return errors

    def fill(self, uid: str) -> None:
        u = self.unit(uid)
        if u is not None:
            self.plans[uid] = complete_plan(u, self.plan(uid), self.battle_map, self.options)

    def check(self, uid: str) -> PlanCheck | None:
        """The plan checked (``movement.validate_plan``), its checks every one
        the move will roll: with evasive on, R-8's too (``step_checks``)."""
        u = self.unit(uid)
        if u is None:
            return None
        check = validate_plan(u, self.plan(uid), self.battle_map, self.options)
        if uid not in self.evasive:
            return check
        return replace(check, checks=move_checks(check, evasive=True, options=self.options))

    def collision_lines(self, uid: str, check: PlanCheck) -> list[str]:
        """R-6 along the path: each place the move passes with an out-of-control
        object, with the chance of a collision (no dice)."""
        from ka_tui.rules.air.collisions import path_collision_checks

        u = self.unit(uid)
        if u is None or not check.legal:
            return []
        others = [o for o in self.state.units if o.id != uid]
        out = []
        for place, target in path_collision_checks(u, check.end, check.path, others,
                                                     self.options):
            col, row = place.hex.to_offset()
            p = target.probability()
            out.append(f"- R-6 collision check at {col},{row} level {place.altitude}: "
                       f"{target.render()} = {float(p):.0%}")
        return out

    def next_turn_lines(self, check: PlanCheck) -> list[str]:
        """The stall (or crash) the plan's end brings at the next turn's start (R-3.2)."""
        from ka_tui.rules.air.next_turn import next_turn_warning

        if not check.legal:
            return []
        warning = next_turn_warning(check.end, self.options, self.battle_map)
        return [f"! {warning}"] if warning else []

    def plan_text(self, uid: str) -> str:
        return format_plan(self.plan(uid))

    def reach(self, uid: str) -> Reach | None:
        """The reach overlay (rules/air/reach.py), kept while the state is the same
        object (every step makes a new one)."""
        cached = self._reach
        if cached is not None and cached[0] is self.state and cached[1] == uid:
            return cached[2]
        u = self.unit(uid)
        got = None if u is None else reach(u, self.battle_map, self.options)
        self._reach = (self.state, uid, got)
        return got

    def start_lines(self) -> list[str]:
        """Before the turn is rolled: each aircraft's R-3.2 speed decay and the
        stall or echelon checks it will need, with their odds (no dice)."""
        from ka_tui.rules.air.movement import preview_start

        lines = [f"turn {self.state.turn + 1}: g rolls initiative (2d6 per side, R-1.1) "
                 "and the start of the turn (R-3.2)"]
        for u in self.state.units:
            if out_of_battle(u):
                continue
            pre = preview_start(u, self.options)
            lines.append(f"{u.id}: " + "; ".join(pre.log))
            lines.extend(f"  {c.render()}" for c in pre.checks)
        return lines

    # -- shooting ----------------------------------------------------------

    def targets(self, uid: str) -> dict[str, ShotOdds]:
        """Aircraft the selected one may shoot now, with the exact odds."""
        shooter = self.unit(uid)
        if shooter is None or self.state.phase is not t.Phase.SHOOTING:
            return {}
        out = {}
        for u in self.state.units:
            if u.id != shooter.id and preview_shot(shooter, u, self.options).legal:
                out[u.id] = shot_odds(shooter, u, self.options)
        return out

    def ram_refusal(self, uid: str, target_id: str) -> str | None:
        """Why ``uid`` cannot ram ``target_id`` (R-7), or None."""
        a, b = self.unit(uid), self.unit(target_id)
        if a is None or b is None:
            return "no such aircraft"
        problems = ram_problems(a, b, self.options)
        return problems[0] if problems else None

    def ram_line(self, uid: str, target_id: str) -> str:
        a, b = self.unit(uid), self.unit(target_id)
        if a is None or b is None:
            return ""
        problems = ram_problems(a, b, self.options)
        if problems:
            return f"ram {b.id}: {problems[0]}"
        target = ram_target(a, b, self.options)
        p = target.probability()
        return f"ram {b.id} (R-7): {target.render()} = {float(p):.0%}"

    def stack_targets(self, uid: str | None, where: Hex) -> list[str]:
        """The other side's aircraft in the hex ``where``, the ones a shot can
        reach first (S0 §Altitude and combat: the same level), then by level
        nearest the shooter's: the order ``,`` cycles them in."""
        sel = self.unit(uid) if uid else None
        there = [u for u in self.units_at(where) if sel is None or u.side != sel.side]
        if sel is None:
            return [u.id for u in there]

        def rank(u: AirUnit) -> tuple[bool, int]:
            legal = preview_shot(sel, u, self.options).legal
            return (not legal, abs(u.altitude - sel.altitude))

        return [u.id for u in sorted(there, key=rank)]

    # -- the next step -----------------------------------------------------

    def pending(self, selected: str | None, target: str | None = None, *,
                ram: bool = False) -> PendingStep:
        """The step ``g`` would do now, or ``Refused`` with the reason."""
        s = self.state
        nxt = self.next()
        if s.phase is t.Phase.BETWEEN_TURNS:
            return PendingStep("turn_started", {}, f"turn {s.turn + 1}: roll initiative")
        if s.phase is t.Phase.MOVEMENT:
            if not nxt.units:
                return PendingStep("phase_ended", {"phase": "movement"},
                                   f"{nxt.side}: end the movement (R-6 collisions)")
            if selected not in nxt.units:
                raise Refused(f"select an aircraft that moves now (tab): {nxt.text}")
            assert selected is not None
            check = self.check(selected)
            if check is None or not check.legal:
                raise Refused(f"plan refused: {check.reason if check else '?'}"
                              " (space flies the rest straight)")
            plan = self.plan(selected)
            got = self.sent.get(selected)
            whose = f" ({got.by}'s plan)" if got is not None and got.plan == plan \
                and got.evasive == (selected in self.evasive) else ""
            return PendingStep("move_committed",
                               {"unit": selected, "plan": plan_to_json(plan),
                                "evasive": selected in self.evasive},
                               f"move {selected}: {format_plan(plan) or '(stay)'}{whose}")
        if s.phase is t.Phase.SHOOTING:
            if selected not in nxt.units:
                raise Refused(f"select an aircraft that may attack (tab), or x: {nxt.text}")
            if target is None:
                raise Refused("put the cursor on a target (marked T), or x ends the shooting")
            if ram:
                return PendingStep("ram_resolved", {"attacker": selected, "target": target},
                                   f"{selected} rams {target}")
            return PendingStep("shot_resolved", {"shooter": selected, "target": target,
                                                 "weapon": "guns"},
                               f"{selected} shoots at {target}")
        if s.phase is t.Phase.HEAT:
            return PendingStep("phase_ended", {"phase": "heat"}, "heat phase (R-1.4)")
        return PendingStep("phase_ended", {"phase": "end"}, "end phase: report and recovery")

    def end_shooting(self) -> PendingStep:
        if self.state.phase is not t.Phase.SHOOTING:
            raise Refused("not the shooting phase")
        return PendingStep("phase_ended", {"phase": "shooting"},
                           f"{self.state.active_side}: end the shooting")

    # -- doing ---------------------------------------------------------------

    def do(self, step: PendingStep, dice: Dice) -> Event:
        """Roll the step with ``dice``; ``TurnError`` refuses it (nothing logged)."""
        self.battle._do(step.kind, step.data, dice)
        return self._done(step)

    def needs(self, step: PendingStep, faces: list[int]) -> int | None:
        return self.battle.needs(step.kind, step.data, faces)

    def dice_due(self, step: PendingStep, faces: list[int]) -> DiceDue:
        """The table's dice for ``step`` with ``faces`` typed: each roll named,
        the one being typed, the ones to come (``rules/air/table_dice``)."""
        return dice_due(self.state, step.kind, step.data, self.battle_map, self.options, faces)

    def do_faces(self, step: PendingStep, faces: list[int]) -> Event:
        self.battle.apply_faces(step.kind, step.data, faces)
        return self._done(step)

    def _done(self, step: PendingStep) -> Event:
        if step.kind == "move_committed":
            self.plans.pop(step.data["unit"], None)
            self.evasive.discard(step.data["unit"])
            self.sent.pop(step.data["unit"], None)
            self.filled_from.pop(step.data["unit"], None)   # refused and reloaded: filled again
        return self.battle.events[-1]

    def undo(self) -> Event:
        last = self.battle.undo()
        if last.get("kind") == "move_committed":   # its plan is in again, filled again
            self.filled_from.pop(str(last.get("data", {}).get("unit")), None)
        self.take_sent()
        return last

    def redo(self, undone: Event) -> Event:
        """Put back a step just undone, with the faces it rolled (no new dice)."""
        faces = [int(f) for _, f in undone.get("faces", [])]
        self.battle.apply_faces(str(undone["kind"]), dict(undone.get("data", {})), faces)
        if undone.get("kind") == "move_committed":
            uid = str(undone.get("data", {}).get("unit"))
            self.plans.pop(uid, None)
            self.evasive.discard(uid)
        return self.battle.events[-1]

    def straight(self, uid: str) -> Plan:
        u = self.unit(uid)
        return tuple(Forward() for _ in range(u.speed)) if u else ()
