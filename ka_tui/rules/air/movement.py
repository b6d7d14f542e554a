"""Hex movement (R-3): speed decay and stall, thrust, climbing and descending,
turning, afterburner and water-methanol; figures (R-9), G-load (R-4) and
landing (R-10) are applied here from their own modules.

Public API:

- ``piloting_target(unit, what, source)``: R-2 base plus damage and wounds.
- ``preview_start(unit, options)`` / ``start_turn(unit, dice, options)``: R-3.2.
- ``validate_plan(unit, plan, battle_map, options) -> PlanCheck`` (no dice).
- ``execute_plan(unit, plan, battle_map, dice, options) -> (AirUnit, MoveReport)``.

Both plan functions run the same ``_Flight`` over the plan, so a preview and
the flight cannot disagree: the preview assumes every check passes and lists
it; the flight rolls it and follows a failure's consequence.

Readings of the seeds (house rules where they matter, see ``AirOptions``; all
of them in docs/rules/READINGS.md):

- Speed is the number of hexes the aircraft must fly this turn (R-3.1). Speed
  changes during the move (climb paid in speed, descent gain, figures) change
  the hexes still to fly; a plan must fly exactly its speed unless it lands,
  flies a hammerhead or crashes.
- Turning (R-3.4) uses no hex: after the turn-mode number of straight hexes,
  the aircraft turns one side in its hex. The run is carried across turns.
  The band is read at the speed of the moment (``turn_speed_basis``).
- Climbing paid in speed makes speed fall by 2 a level at once; it may not
  fall below the hexes flown already. Speed reaching 0 in flight stalls
  (R-3.2) for a piston engine, wherever it happens.
- Descending (R-3.3): levels lost this turn are added up; speed gains +1 per
  2 (``descent_gain``), never above the dive maximum or 12. One step of more
  than 2 levels needs a piloting check with the levels as penalty; a failure
  leaves the aircraft out of control (R-3.2's consequence) for the rest of the move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ka_tui.rules.air import aerobatics

from ka_tui.rules.air import altitude

from ka_tui.rules.air import gload

from ka_tui.rules.air import landing
from ka_tui.rules.air.aerobatics import FIGURES, FigureKind, figure_refusal, half_speed_fallback
from ka_tui.rules.air.check_roll import CheckRoll, roll_check
from ka_tui.rules.air.battle_map import BattleMap, LandingSite
from ka_tui.rules.air.units import AirUnit, Damage
from ka_tui.rules.air.aircraft import MAX_SPEED
from ka_tui.rules.air.damage import apply_points, stall_locked, under_control
from ka_tui.rules.air.piloting_target import piloting_target, thrust_capacity
from ka_tui.rules.core.dice import Dice, RollAsk, announce
from ka_tui.rules.air.hexgrid import FACING_NAMES, Hex, distance, opposite, turn
from ka_tui.rules.air.move_plan import (
    Afterburner,
    Climb,
    Descend,
    Figure,
    Forward,
    IllegalPlan,
    Land,
    MoveReport,
    PathPoint,
    Plan,
    PlanCheck,
    PlanProblem,
    RequiredCheck,
    SlideSlip,
    StartPreview,
    StartReport,
    Step,
    TakeOff,
    TerrainCrash,
    Thrust,
    TurnLeft,
    TurnRight,
    WaterMethanol,
    format_step,
)
from ka_tui.rules.core.options import (
    AirOptions,
    AltitudeModel,
    DescentGain,
    SteepDescentBasis,
    TurnSpeedBasis,
)
from ka_tui.rules.core.target import Finalizer, TargetNumber
from ka_tui.rules.air.wounds import WoundResult

__all__ = ["piloting_target", "preview_start", "start_turn", "validate_plan", "execute_plan",
           "complete_plan", "roll_random_move",
           "descent_gain", "speed_cap", "IllegalPlan"]


def speed_cap(unit: AirUnit) -> int:
    """R-3.3: diving may take speed to the dive maximum, never above 12."""
    return min(MAX_SPEED, max(unit.profile.dive_max, unit.profile.move))


def descent_gain(levels_lost: int, options: AirOptions) -> int:
    """R-3.3: speed gained for the levels lost this turn (``descent_gain`` option)."""
    if options.descent_gain is DescentGain.FLAT_ONCE:
        return 1 if levels_lost >= 2 else 0
    return max(0, levels_lost) // 2


def _stall_target(unit: AirUnit) -> TargetNumber:
    return piloting_target(unit, "stall", "R-3.2")


def _echelon_target(unit: AirUnit, level: int, options: AirOptions) -> TargetNumber:
    return piloting_target(unit, "echelon test", "S0 §Altitude explained").plus(
        options.echelon_test_penalty, f"flying at {altitude.describe_level(level, options)}",
        "S0 §Altitude explained, house rule echelon_test_penalty")


# ---------------------------------------------------------------- start of turn

def preview_start(unit: AirUnit, options: AirOptions) -> StartPreview:
    """R-3.2 without dice: the speed after decay and the stall check, if any."""
    if unit.landed or unit.crashed or unit.destroyed:
        return StartPreview(unit.speed, False, (), ("on the ground: no speed decay",))
    after = max(0, unit.speed - 5)
    stalls = after == 0 and unit.profile.stalls
    checks: list[RequiredCheck] = []
    lines = [f"speed {unit.speed} → {after} (R-3.2: −5 at the start of the turn)"]
    if stalls:
        checks.append(RequiredCheck(
            f"{unit.id} stall (R-3.2)", _stall_target(unit), -1,
            "out of control: no thrust, turn, climb or landing, straight ahead; missed by "
            "more than 5: a random facing change (R-3.2)"))
        lines.append(f"stall: loses one level to {unit.altitude - 1} (R-3.2)")
    if options.echelon_test_every_turn and altitude.needs_echelon_test(
            unit.profile, unit.altitude - (1 if stalls else 0), options):
        level = unit.altitude - (1 if stalls else 0)
        checks.append(RequiredCheck(f"{unit.id} echelon test (S0 §Altitude explained)",
                                    _echelon_target(unit, level, options), -1,
                                    "drops one level"))
    return StartPreview(after, stalls, tuple(checks), tuple(lines))


def start_turn(unit: AirUnit, dice: Dice, options: AirOptions,
               battle_map: BattleMap | None = None) -> tuple[AirUnit, StartReport]:
    """R-3.2 at the start of the turn: speed −5; at 0 a piston engine stalls.

    A stall loses one level and needs a piloting check; a failure leaves the
    aircraft out of control this turn, and a miss by more than 5 also turns it
    1–``random_move_max_sides`` sides at random (RULES-NOTES D). Clears the
    per-turn ``moved`` and ``figure_flown`` flags and last turn's stall. A stall
    down to the terrain's height (the map's, else the ground at level 0) is a
    crash (R-6.1).
    """
    fresh = replace(unit, moved=False, figure_flown=False, out_of_control=False)
    if unit.landed or unit.crashed or unit.destroyed:
        return fresh, StartReport(unit.speed, unit.speed, False, (), ("on the ground",))
    after = max(0, unit.speed - 5)
    lines = [f"{unit.id}: speed {unit.speed} → {after} (R-3.2)"]
    rolls: list[CheckRoll] = []
    u = replace(fresh, speed=after)
    stalled = after == 0 and unit.profile.stalls
    random_sides = 0
    crash: TerrainCrash | None = None
    if stalled:
        u, roll, random_sides, line = _stall(u, dice, options)
        rolls.append(roll)
        lines.extend(line)
    elif after == 0:
        lines.append(f"{unit.id} does not stall: {unit.profile.engine_kind.value} engine (R-3.2)")
    if options.echelon_test_every_turn and altitude.needs_echelon_test(u.profile, u.altitude,
                                                                         options):
        roll = roll_check(f"{u.id} echelon test (S0 §Altitude explained)",
                          _echelon_target(u, u.altitude, options), dice)
        rolls.append(roll)
        lines.append(roll.render())
        if not roll.success:
            u = replace(u, altitude=u.altitude - 1)
            lines.append(f"{u.id} cannot hold the echelon: drops to level {u.altitude}")
    height = battle_map.height(u.hex) if battle_map is not None else 0
    if u.altitude <= height:
        crash = TerrainCrash(u.hex, u.altitude, height, u.speed)
        u = replace(u, altitude=height, crashed=True)
        lines.append(f"{u.id} falls to the terrain at {_hex_name(u.hex)}: crash (R-6.1)")
    return u, StartReport(unit.speed, after, stalled, tuple(rolls), tuple(lines),
                          random_sides, crash)


def _stall(u: AirUnit, dice: Dice, options: AirOptions) -> tuple[AirUnit, CheckRoll, int, list[str]]:
    """R-3.2: lose one level, check; failure → out of control (+ random move)."""
    lines = [f"{u.id} stalls: loses one level, {u.altitude} → {u.altitude - 1} (R-3.2)"]
    u = replace(u, altitude=u.altitude - 1)
    roll = roll_check(f"{u.id} stall (R-3.2)", _stall_target(u), dice)
    lines.append(roll.render())
    sides = 0
    if not roll.success:
        u = replace(u, out_of_control=True)
        lines.append(f"{u.id} is out of control: straight ahead at speed {u.speed}, "
                     "no thrust, turn, climb or landing (R-3.2)")
        if roll.margin < -5:
            sides = roll_random_move(dice, options)
            u = replace(u, facing=turn(u.facing, sides), straight_run=0)
            lines.append(f"{u.id} missed by more than 5: random move, {abs(sides)} side(s) "
                         f"{'right' if sides > 0 else 'left'}, now facing "
                         f"{FACING_NAMES[u.facing]} (R-3.2, RULES-NOTES D)")
    return u, roll, sides, lines


def roll_random_move(dice: Dice, options: AirOptions) -> int:
    """R-3.2 random move (RULES-NOTES D): d6 for the side (1–3 left, 4–6 right),
    then 1..``random_move_max_sides`` sides; signed sides, + = right. Combat may
    call it for a critical damage effect (R-3.2 "or because of a critical damage")."""
    announce(dice, RollAsk("random move: which way (R-3.2)", 1, 6, note="1-3 left, 4-6 right"))
    side = -1 if dice.roll(6) <= 3 else 1
    n = max(1, options.random_move_max_sides)
    if n > 1:
        announce(dice, RollAsk("random move: how many sides (R-3.2)", 1, n))
    return side * (dice.roll(n) if n > 1 else 1)


# ---------------------------------------------------------------- the flight

class _Stop(Exception):
    """A step the plan may not take (the message is the reason)."""

    def __init__(self, message: str, problem: PlanProblem = PlanProblem.STEP) -> None:
        super().__init__(message)
        self.problem = problem


@dataclass
class _Flight:
    unit: AirUnit
    battle_map: BattleMap
    options: AirOptions
    dice: Dice | None                      # None: preview, every check passes
    problem: PlanProblem | None = None     # the first error's kind (PlanCheck.problem)
    hex_: Hex = Hex(0, 0)
    facing: int = 0
    alt: int = 0
    speed: int = 0
    start_speed: int = 0
    run: int = 0
    flown: int = 0
    thrust_cap: int = 0
    thrust_used: int = 0
    afterburner: bool = False
    water_methanol: bool = False
    overheat: int = 0
    fuel: int = 0
    wm_left: int = 0
    sides: int = 0
    lost_levels: int = 0
    gained: int = 0
    began: bool = False         # a hex, turn or altitude step has been flown
    figure: bool = False
    after_end_thrust: bool = False
    thrust_at_end: bool = False
    uncontrolled: bool = False
    inverted: bool = False
    ended: bool = False         # landed, hammerhead, take-off or crash: no more hexes
    landed: bool = False
    taxied: int = 0             # hexes taxied on the ground (house rule ground_taxi_hexes)
    lost_control: bool = False
    crashed: bool = False
    went_around: bool = False
    figure_failed: bool = False
    stalled: bool = False
    off_map: bool = False
    fallback_hexes: int | None = None
    required: int | None = None    # hexes the move had to fly, fixed at its end
    goal: int | None = None
    progress: int = 0
    random_sides: int = 0
    crash_points: int = 0
    crash: TerrainCrash | None = None
    checks: list[RequiredCheck] = field(default_factory=list)
    rolls: list[CheckRoll] = field(default_factory=list)
    path: list[PathPoint] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    index: int = -1

    def __post_init__(self) -> None:
        u = self.unit
        self.hex_ = u.hex
        self.facing, self.alt, self.speed, self.run = u.facing, u.altitude, u.speed, u.straight_run
        self.start_speed = u.speed
        self.overheat, self.fuel, self.wm_left = u.overheat, u.fuel, u.wm_uses_left
        self.inverted = u.inverted
        self.goal, self.progress = u.altitude_goal, u.altitude_progress
        self.uncontrolled = not under_control(u, self.options)
        self.landed = u.landed
        self.thrust_cap = thrust_capacity(u, self.options)
        self.point("start")

    # -- bookkeeping

    @property
    def here(self) -> Hex:
        return self.hex_

    def point(self, note: str) -> None:
        self.path.append(PathPoint(self.index, self.here, self.facing, self.alt, self.speed, note))

    def check(self, what: str, target: TargetNumber, on_fail: str) -> CheckRoll | None:
        """Preview: list the check and assume success (None). Flight: roll it."""
        if self.dice is None:
            self.checks.append(RequiredCheck(what, target, self.index, on_fail))
            return None
        roll = roll_check(what, target, self.dice)
        self.rolls.append(roll)
        self.log.append(roll.render())
        return roll

    def spend(self, points: int, why: str) -> None:
        if self.uncontrolled:
            raise _Stop(f"{why}: out of control, no thrust points may be used (R-3.2)")
        left = self.thrust_cap - self.thrust_used
        if points > left:
            raise _Stop(f"{why} needs {points} thrust, {left} of {self.thrust_cap} left (R-3.1)")
        self.thrust_used += points

    def controlled(self, what: str) -> None:
        if self.uncontrolled:
            raise _Stop(f"{what}: out of control, it must fly straight ahead (R-3.2)")

    def set_speed(self, new: int, why: str) -> None:
        old = self.speed
        self.speed = max(0, new)
        if self.speed != old:
            self.log.append(f"{self.unit.id}: speed {old} → {self.speed} ({why})")
        if self.speed == 0 and old > 0 and self.unit.profile.stalls and not self.landed:
            self.stall()

    def stall(self) -> None:
        """R-3.2 in flight: speed fell to 0 — lose a level and check."""
        self.stalled = True
        self.log.append(f"{self.unit.id} stalls: loses one level (R-3.2)")
        self.set_alt(self.alt - 1, "stall, R-3.2")
        roll = self.check(f"{self.unit.id} stall (R-3.2)", _stall_target(self.unit),
                          "out of control: straight ahead for the rest of the move")
        if roll is not None and not roll.success:
            self.lose_control("failed stall check (R-3.2)")
            if roll.margin < -5 and self.dice is not None:
                self.random_sides = roll_random_move(self.dice, self.options)
                self.facing = turn(self.facing, self.random_sides)
                self.run = 0
                self.log.append(f"random move: {abs(self.random_sides)} side(s), now facing "
                                f"{FACING_NAMES[self.facing]} (R-3.2, RULES-NOTES D)")

    def lose_control(self, why: str) -> None:
        self.uncontrolled = True
        self.lost_control = True
        self.log.append(f"{self.unit.id} is out of control: {why}; straight ahead for the "
                        "rest of the move")

    def set_alt(self, new: int, why: str) -> None:
        self.alt = new
        self.terrain_check(why)

    def terrain_check(self, why: str) -> None:
        """R-6.1: at the terrain's height (not landing) the aircraft crashes."""
        height = self.battle_map.height(self.here)
        if self.alt <= height and not self.landed and not self.crashed:
            self.crashed = True
            self.ended = True
            self.crash = TerrainCrash(self.here, self.alt, height, self.speed)
            self.alt = height
            self.log.append(f"{self.unit.id} hits the terrain at {_hex_name(self.here)} "
                            f"(height {height}) at speed {self.speed}: crash (R-6.1; {why})")
            if self.dice is None:
                self.notes.append(f"the plan flies into terrain at {_hex_name(self.here)} "
                                  "(R-6.1 crash)")

    def hexes_target(self) -> int:
        return self.speed if self.fallback_hexes is None else self.fallback_hexes

    # -- steps

    def step(self, s: Step) -> None:
        end_thrust = isinstance(s, Thrust) and s.at == "end"
        if self.ended and not (end_thrust and not self.landed and not self.crashed):
            raise _Stop("the move has already ended")
        if self.landed and not isinstance(s, TakeOff):
            self.on_the_ground(s)
            return
        if self.after_end_thrust and not isinstance(s, Thrust):
            raise _Stop("nothing may follow thrust at the end of movement "
                        "(R-3.1)")
        handler = _HANDLERS[type(s)]
        handler(self, s)

    def on_the_ground(self, s: Step) -> None:
        """House rule ground_taxi_hexes (R-10 gives a landed aircraft only the
        take-off): it turns in place and taxis a few hexes ahead, so a landing
        facing the map's edge is not the end of it."""
        allowed = self.options.ground_taxi_hexes
        if allowed <= 0 or not isinstance(s, (Forward, TurnLeft, TurnRight)):
            taxi = " (or turn and taxi, house rule ground_taxi_hexes)" if allowed > 0 else ""
            raise _Stop(f"the aircraft is on the ground; take off first (R-10){taxi}")
        if isinstance(s, (TurnLeft, TurnRight)):
            self.began = True
            self.facing = turn(self.facing, -1 if isinstance(s, TurnLeft) else 1)
            return
        if self.taxied >= allowed:
            raise _Stop(f"on the ground it taxis {allowed} hex(es) a move "
                        "(house rule ground_taxi_hexes)")
        nxt = self.here.ahead(self.facing)
        if self.battle_map.cols and not self.battle_map.in_bounds(nxt):
            raise _Stop("taxiing would leave the map (house rule ground_taxi_hexes)")
        if self.battle_map.height(nxt) != self.battle_map.height(self.here):
            raise _Stop("taxiing stays on ground of one height (house rule ground_taxi_hexes)")
        self.began = True
        self.taxied += 1
        self.hex_ = nxt

    def forward(self, s: Forward) -> None:
        self.hex_step(self.here.ahead(self.facing), straight=True)

    def hex_step(self, nxt: Hex, straight: bool) -> None:
        if self.flown >= self.hexes_target():
            raise _Stop(f"speed {self.hexes_target()} allows {self.hexes_target()} hexes; "
                        f"this would be hex {self.flown + 1} (R-3.1)")
        self.began = True
        self.hex_ = nxt
        self.flown += 1
        if self.battle_map.cols and not self.battle_map.in_bounds(nxt) and not self.off_map:
            self.off_map = True
            self.notes.append(f"leaves the map at {_hex_name(nxt)}")
            self.log.append(f"{self.unit.id} leaves the map at {_hex_name(nxt)}")
        if straight:
            self.run += 1
        if self.options.altitude_model is AltitudeModel.S0 and self.goal is not None:
            self.s0_progress()
        self.terrain_check("flying into it")

    def s0_progress(self) -> None:
        new, self.progress = altitude.s0_step(self.alt, self.goal, self.progress, 1, self.options)
        if new != self.alt:
            old = self.alt
            self.log.append(f"{self.unit.id}: level {old} → {new} after a move of "
                            f"{self.options.s0_hexes_per_level} (S0 §Changing altitude)")
            self.alt = new
            if new > old:
                self.echelon_test(new)
            if self.alt == self.goal:
                self.goal = None

    def turn_side(self, sides: int) -> None:
        self.controlled("turn")
        basis = self.start_speed if self.options.turn_speed_basis is TurnSpeedBasis.START \
            else self.speed
        need = self.unit.profile.hexes_per_facing(basis)
        if self.run < need:
            raise _Stop(f"turn needs {need} straight hexes at speed {basis}, flown {self.run} "
                        "(R-3.4)")
        self.began = True
        self.facing = turn(self.facing, sides)
        self.run = 0
        self.sides += 1

    def climb(self, s: Climb) -> None:
        self.controlled("climb")
        if s.levels < 1:
            raise _Stop("climb at least one level")
        top = altitude.ceiling_level(self.unit.profile, self.options)
        base = self.goal if self.goal is not None and \
            self.options.altitude_model is AltitudeModel.S0 else self.alt
        if base + s.levels > top:
            raise _Stop(f"ceiling is {altitude.describe_level(top, self.options)}; the climb "
                        f"would reach level {base + s.levels} (S0 §Altitude explained)")
        self.began = True
        if self.options.altitude_model is AltitudeModel.S0:
            self.goal = base + s.levels
            self.log.append(f"{self.unit.id} notes a climb to level {self.goal}: one level "
                            f"per {self.options.s0_hexes_per_level} hexes (S0 §Changing altitude)")
            return
        cost = 2 * s.levels
        if s.pay == "thrust":
            self.spend(cost, f"climbing {s.levels} level(s)")
        else:
            if self.speed - cost < self.flown:
                raise _Stop(f"climbing {s.levels} level(s) costs {cost} speed; speed {self.speed} "
                            f"with {self.flown} hexes flown allows {max(0, (self.speed - self.flown) // 2)} "
                            "(R-3.3)")
        for _ in range(s.levels):
            self.alt += 1
            self.echelon_test(self.alt)
        if s.pay == "speed":
            self.set_speed(self.speed - cost, f"climbed {s.levels}, R-3.3")

    def echelon_test(self, level: int) -> None:
        if not altitude.needs_echelon_test(self.unit.profile, level, self.options):
            return
        roll = self.check(f"{self.unit.id} echelon test at "
                          f"{altitude.describe_level(level, self.options)} (S0 §Altitude explained)",
                          _echelon_target(self.unit, level, self.options),
                          "cannot hold it: drops back one level")
        if roll is not None and not roll.success:
            self.alt -= 1
            self.log.append(f"{self.unit.id} cannot hold the echelon: back to level {self.alt}")

    def descend(self, s: Descend) -> None:
        self.controlled("descend")
        if s.levels < 1:
            raise _Stop("descend at least one level")
        self.began = True
        if self.options.altitude_model is AltitudeModel.S0:
            base = self.goal if self.goal is not None else self.alt
            self.goal = base - s.levels
            self.log.append(f"{self.unit.id} notes a descent to level {self.goal} "
                            "(S0 §Changing altitude)")
            return
        per_turn = self.options.steep_descent_basis is SteepDescentBasis.TURN
        levels = self.lost_levels + s.levels if per_turn else s.levels
        if levels > 2 and not (per_turn and self.lost_levels > 2):
            t = piloting_target(self.unit, "steep descent", "R-3.3").plus(
                levels, f"descending {levels} levels at once", "R-3.3")
            roll = self.check(f"{self.unit.id} descent of {levels} levels (R-3.3)", t,
                              "out of control for the rest of the move")
            if roll is not None and not roll.success:
                self.lose_control("failed steep-descent check (R-3.3)")
        self.lost_levels += s.levels
        self.set_alt(self.alt - s.levels, f"descended {s.levels}, R-3.3")
        if self.crashed:
            return
        gain = descent_gain(self.lost_levels, self.options) - self.gained
        if gain > 0:
            self.gained += gain
            new = min(self.speed + gain, max(self.speed, speed_cap(self.unit)))
            self.set_speed(new, f"+{gain} for {self.lost_levels} levels lost, R-3.3")

    def thrust(self, s: Thrust) -> None:
        if s.points == 0:
            return
        if s.at == "start":
            if self.began:
                raise _Stop("thrust at the start must come before any hex, turn or climb "
                            "(R-3.1)")
            if self.unit.thrust_at_end_last_turn:
                raise _Stop("speed changed at the end of last turn: no change at the start "
                            "of this one (R-3.1)")
        else:
            self.end_of_movement()
            self.after_end_thrust = True
            self.thrust_at_end = True
        self.spend(abs(s.points), f"thrust {s.points:+d}")
        new = self.speed + s.points
        if s.points > 0 and new > max(self.unit.profile.move, self.speed):
            raise _Stop(f"thrust {s.points:+d} would make speed {new}, above Move "
                        f"{self.unit.profile.move} (S0 §Flight card, R-3.1)")
        if s.at == "start" and new < self.flown:
            raise _Stop(f"speed {new} is below the {self.flown} hexes flown already")
        self.set_speed(new, f"thrust {s.points:+d} at the {s.at}, R-3.1")
        if s.at == "start":
            self.start_speed = self.speed

    def boost(self, s: Afterburner | WaterMethanol) -> None:
        self.controlled("engine boost")
        if self.began or self.thrust_used:
            raise _Stop("afterburner and water-methanol are engaged before thrust is spent "
                        "or the aircraft moves")
        p = self.unit.profile
        if isinstance(s, Afterburner):
            if p.afterburner_thrust is None:
                raise _Stop("this aircraft has no afterburner (R-3.5)")
            if self.afterburner:
                raise _Stop("afterburner already engaged")
            self.afterburner = True
            self.overheat += 1
            self.log.append(f"{self.unit.id}: afterburner, thrust ({p.afterburner_thrust}), "
                            f"overheat {self.overheat} (R-3.5)")
        else:
            if p.wm_thrust is None:
                raise _Stop("this aircraft has no water-methanol injection (R-3.6)")
            if self.water_methanol:
                raise _Stop("water-methanol already injected this turn")
            if self.wm_left < 1:
                raise _Stop("water-methanol used up (R-3.6)")
            if p.wm_altitude_limit is not None and self.alt > p.wm_altitude_limit:
                raise _Stop(f"water-methanol works up to level {p.wm_altitude_limit}, "
                            f"aircraft at {self.alt} (R-3.6)")
            if self.fuel < self.options.wm_fuel_cost:
                raise _Stop(f"water-methanol needs {self.options.wm_fuel_cost} fuel, "
                            f"{self.fuel} left (R-3.6)")
            self.water_methanol = True
            self.wm_left -= 1
            self.fuel -= self.options.wm_fuel_cost
            self.log.append(f"{self.unit.id}: water-methanol +{p.wm_thrust} thrust, "
                            f"{self.wm_left} use(s) left (R-3.6)")
        self.thrust_cap = thrust_capacity(self.unit, self.options, afterburner=self.afterburner,
                                          water_methanol=self.water_methanol)

    def figure_step(self, s: Figure) -> None:
        kind = s.kind
        spec = FIGURES[kind]
        if kind is FigureKind.SLIDE_SLIP:
            raise _Stop("the slide-slip is a SlideSlip step, not a Figure")
        self.controlled(spec.name)
        if self.figure or self.unit.figure_flown:
            raise _Stop(f"{spec.name}: only one figure per turn (R-9)")
        if self.began:
            raise _Stop(f"{spec.name}: figures only at the start of the movement (R-9)")
        refusal = figure_refusal(self.unit.profile, kind, self.speed)
        if refusal:
            raise _Stop(refusal)
        if spec.altitude_change > 0:
            top = altitude.ceiling_level(self.unit.profile, self.options)
            if self.alt + spec.altitude_change > top:
                raise _Stop(f"{spec.name} would reach level {self.alt + spec.altitude_change}, "
                            f"above the ceiling {top} (S0 §Altitude explained)")
        self.spend(spec.thrust_cost(self.speed), spec.name)
        self.figure = True
        if not self.figure_roll(spec):
            return
        self.began = True
        self.apply_figure(spec)

    def figure_roll(self, spec: aerobatics.FigureSpec) -> bool:
        t = piloting_target(self.unit, spec.name, "R-9").plus(
            spec.difficulty, f"{spec.name} difficulty", "R-9")
        roll = self.check(f"{self.unit.id} {spec.name} (R-9)", t,
                          f"moves forward half its speed ({half_speed_fallback(self.speed)} "
                          "hexes) instead (R-9)")
        if roll is None or roll.success:
            return True
        self.figure_failed = True
        self.fallback_hexes = max(self.flown, half_speed_fallback(self.speed))
        self.log.append(f"{self.unit.id}: {spec.name} fails: forward half speed, "
                        f"{self.fallback_hexes} hexes in all (R-9)")
        return False

    def apply_figure(self, spec: aerobatics.FigureSpec) -> None:
        name = spec.name
        if self.options.figures_count_toward_gload:
            self.sides += spec.g_rating
        if spec.kind is FigureKind.HALF_ROLL:
            self.inverted = not self.inverted
        if spec.hexes_used:
            self.flown += spec.hexes_used
        if spec.reverses_facing:
            self.facing = opposite(self.facing)
            self.run = 0
        self.log.append(f"{self.unit.id} flies the {name}: {spec.effect} (R-9)")
        if spec.altitude_change > 0:
            for _ in range(spec.altitude_change):
                self.alt += 1
                self.echelon_test(self.alt)
        elif spec.altitude_change < 0:
            self.set_alt(self.alt + spec.altitude_change, f"{name}, R-9")
            if self.crashed:
                return
        if spec.speed_change:
            new = min(self.speed + spec.speed_change, max(self.speed, speed_cap(self.unit)))
            self.set_speed(new, f"{name}, R-9")
        if spec.ends_move:
            self.ended = True

    def slide_slip(self, s: SlideSlip) -> None:
        spec = FIGURES[FigureKind.SLIDE_SLIP]
        self.controlled(spec.name)
        refusal = figure_refusal(self.unit.profile, FigureKind.SLIDE_SLIP, self.speed)
        if refusal:
            raise _Stop(refusal)
        if self.flown >= self.hexes_target():
            raise _Stop(f"speed {self.speed} allows {self.speed} hexes; the slide-slip would "
                        f"be hex {self.flown + 1} (R-3.1)")
        self.spend(spec.thrust_cost(self.speed), spec.name)
        if not self.figure_roll(spec):
            return
        if self.options.figures_count_toward_gload:
            self.sides += spec.g_rating
        dest = self.here.front_left(self.facing) if s.side == "left" \
            else self.here.front_right(self.facing)
        self.log.append(f"{self.unit.id} slide-slips {s.side} (R-9)")
        self.hex_step(dest, straight=False)

    def land(self, s: Land) -> None:
        """R-10. Out of control it may still come down, as an automatic failure
        (R-10 "Aircraft out of control": the margin counts as 10), except after
        a failed stall check, which forbids landing (R-3.2)."""
        if self.uncontrolled and (stall_locked(self.unit) or self.lost_control):
            raise _Stop("land: out of control after a failed stall check, it must fly "
                        "straight ahead and cannot land (R-3.2)")
        site = self.battle_map.landing_site(self.here, self.facing)
        if self.alt != site.height + 1:
            raise _Stop(f"to land, fly one level above the surface (level {site.height + 1}); "
                        f"the aircraft is at level {self.alt} (R-10)")
        refusal = landing.carrier_refusal(self.unit, site)
        if refusal:
            raise _Stop(refusal)
        self.began = True
        t = landing.landing_target(self.unit, site, self.speed, self.options,
                                   in_control=not self.uncontrolled)
        what = f"{self.unit.id} lands on {site.name} (R-10)"
        roll = self.check(what, t, "go around if missed by 3 or less, else 10 damage per "
                                   "point missed")
        if roll is None and t.finalizer is Finalizer.AUTO_FAIL:
            roll = CheckRoll(what, t, (), False)   # decided unrolled: the preview shows it
            self.notes.append("out of control: the landing fails, its margin counts as 10 "
                              "(R-10)")
        end = self.rollout_end(site)
        if roll is None:
            self.touch_down(end, site.height, "lands (R-10)")
            return
        out = landing.landing_outcome(roll, s.go_around)
        line = out.line
        if out.landed and not out.crash_points and site.width is None and not site.carrier \
                and self.options.open_ground_rollout_by_speed:
            n = distance(self.here, end)
            line = (f"lands on {site.name} at speed {self.speed} and rolls out {n} hex(es) "
                    "(R-10; house rule open_ground_rollout_by_speed)")
        self.log.append(f"{self.unit.id}: {line}")
        if out.went_around:
            self.went_around = True
            return
        if out.crash_points:
            self.crash_points = out.crash_points
            self.touch_down(self.here, site.height, "crash-lands (R-10)")
        else:
            self.touch_down(end, site.height, "lands (R-10)")

    def rollout_end(self, site: LandingSite) -> Hex:
        """Where the landing stops: ``landing.rollout_hexes`` ahead, at most the site's end."""
        end = self.here
        for _ in range(landing.rollout_hexes(site, self.speed, self.options)):
            if end == site.end:
                break
            end = end.ahead(self.facing)
        return end

    def touch_down(self, where: Hex, height: int, note: str) -> None:
        self.landed = True
        self.ended = True
        self.hex_ = where
        self.alt = height
        self.speed = 0
        self.run = 0
        self.point(note)

    def take_off(self, s: TakeOff) -> None:
        """R-10. It is the whole move: on the ground no other step comes first
        (``step``) and the take-off ends the move."""
        self.controlled("take off")
        if not self.unit.landed:
            raise _Stop("take-off: the aircraft is not on the ground (R-10)")
        need = landing.takeoff_run(self.unit.profile)
        room = self.battle_map.runway_ahead(self.here, self.facing)
        if room < need:
            raise _Stop(f"take-off needs {need} hexes of strip ahead, {room} here (R-10)")
        height = self.battle_map.height(self.here)
        for _ in range(need - 1):
            self.hex_ = self.here.ahead(self.facing)
            self.point("take-off run")
        self.ended = True
        self.landed = False
        self.alt = height + 1
        self.run = need
        self.speed = self.unit.profile.landing_speed if self.options.takeoff_at_landing_speed \
            else need
        self.log.append(f"{self.unit.id} takes off after {need} hexes, level {self.alt}, "
                        f"speed {self.speed} (R-10)")

    def end_of_movement(self) -> None:
        """The hexes flown must equal the speed, unless the move ended early."""
        if self.after_end_thrust or self.ended:
            return
        target = self.hexes_target()
        self.required = target
        if self.flown < target:
            if self.dice is None:
                raise _Stop(f"the plan flies {self.flown} hex(es); speed {target} must fly "
                            f"{target} (R-3.1)", PlanProblem.SHORT)
            self.fill_forward()

    def fill_forward(self) -> None:
        target = self.hexes_target()
        while self.flown < target and not self.ended:
            self.index = -1
            self.hex_step(self.here.ahead(self.facing), straight=True)
            self.point("straight ahead")


def _hex_name(h: Hex) -> str:
    col, row = h.to_offset()
    return f"{col},{row}"


_HANDLERS: dict[type[Any], Callable[[_Flight, Any], None]] = {
    Forward: _Flight.forward,
    TurnLeft: lambda f, s: f.turn_side(-1),
    TurnRight: lambda f, s: f.turn_side(1),
    SlideSlip: _Flight.slide_slip,
    Climb: _Flight.climb,
    Descend: _Flight.descend,
    Thrust: _Flight.thrust,
    Afterburner: _Flight.boost,
    WaterMethanol: _Flight.boost,
    Figure: _Flight.figure_step,
    Land: _Flight.land,
    TakeOff: _Flight.take_off,
}


# ---------------------------------------------------------------- plan API

def _fly(unit: AirUnit, plan: Plan, battle_map: BattleMap, options: AirOptions,
         dice: Dice | None) -> tuple[_Flight, list[str]]:
    """Fly (or, without dice, check) a plan; ``f.problem`` names the first error's kind."""
    f = _Flight(unit, battle_map, options, dice)
    errors: list[str] = []
    if unit.moved:
        errors.append(f"{unit.id} has already moved this turn (R-1.2)")
    elif unit.crashed or unit.destroyed:
        errors.append(f"{unit.id} is out of the battle")
    if errors:
        f.problem = PlanProblem.CANNOT_MOVE
        return f, errors
    for i, step in enumerate(plan):
        if dice is not None and (f.figure_failed or f.lost_control):
            f.log.append(f"{unit.id}: the rest of the plan is dropped ({len(plan) - i} step(s))")
            break
        if f.crashed:
            break
        f.index = i
        try:
            f.step(step)
        except _Stop as stop:
            if dice is None:
                errors.append(f"step {i + 1} ({format_step(step)}): {stop}")
                f.problem = stop.problem
                return f, errors
            f.log.append(f"step {i + 1} ({format_step(step)}) skipped: {stop}")
            continue
        f.point(format_step(step))
    try:
        f.end_of_movement()
    except _Stop as stop:
        errors.append(str(stop))
        f.problem = stop.problem
    return f, errors


def _end_unit(unit: AirUnit, f: _Flight, damage: Damage) -> AirUnit:
    return replace(
        unit, hex=f.here, facing=f.facing, altitude=f.alt, speed=f.speed, straight_run=f.run,
        thrust_at_end_last_turn=f.thrust_at_end,
        afterburner_on=unit.afterburner_on or f.afterburner, overheat=f.overheat,
        wm_uses_left=f.wm_left, fuel=f.fuel, figure_flown=unit.figure_flown or f.figure,
        moved=True, inverted=f.inverted, landed=f.landed, crashed=unit.crashed or f.crashed,
        out_of_control=unit.out_of_control or f.lost_control,
        altitude_goal=f.goal, altitude_progress=f.progress,
        pending_damage=unit.pending_damage.plus(damage))


def validate_plan(unit: AirUnit, plan: Plan, battle_map: BattleMap,
                  options: AirOptions) -> PlanCheck:
    """Check a plan without rolling: legal or the reason, every check it needs
    (R-3.2 stall, R-3.3 steep descent, S0 echelon test, R-9 figures, R-4 G-load,
    R-10 landing) with target number and odds, and the path if all pass."""
    f, errors = _fly(unit, plan, battle_map, options, None)
    checks = list(f.checks)
    if not errors and not f.crashed:   # as execute_plan: no G-load after a crash
        for g in gload.gload_checks(unit, f.sides, options):
            checks.append(RequiredCheck(g.what, g.target, -1, g.on_fail))
    end = _end_unit(unit, f, Damage())
    return PlanCheck(not errors, tuple(errors), tuple(checks), tuple(f.path), end,
                     f.required if f.required is not None else f.hexes_target(),
                     f.flown, f.thrust_cap, f.thrust_used, f.sides,
                     f.crash, tuple(f.notes), f.problem if errors else None)


def complete_plan(unit: AirUnit, plan: Plan, battle_map: BattleMap,
                  options: AirOptions) -> Plan:
    """The plan with straight hexes added to fly its whole speed (R-3.1), placed
    before any thrust at the end; unchanged if it needs none or fails otherwise."""
    check = validate_plan(unit, plan, battle_map, options)
    missing = check.hexes_to_fly - check.hexes_planned
    if check.legal or missing <= 0 or check.problem is not PlanProblem.SHORT:
        return plan
    at = next((i for i, s in enumerate(plan) if isinstance(s, Thrust) and s.at == "end"),
              len(plan))
    return (*plan[:at], *([Forward()] * missing), *plan[at:])


def execute_plan(unit: AirUnit, plan: Plan, battle_map: BattleMap, dice: Dice,
                 options: AirOptions) -> tuple[AirUnit, MoveReport]:
    """Fly a plan (R-3, R-9, R-4, R-10), rolling every check with ``dice``.

    Refuses (``IllegalPlan``) what ``validate_plan`` refuses. A failed check's
    consequence replaces the rest of the plan: out of control → straight ahead
    (R-3.2); a failed figure → forward half speed (R-9). Hexes the plan leaves
    unflown after a failure are flown straight ahead. G-load (R-4) is rolled
    after the move for the sides turned.
    """
    check = validate_plan(unit, plan, battle_map, options)
    if not check.legal:
        raise IllegalPlan(check.reason)
    f, errors = _fly(unit, plan, battle_map, options, dice)
    if errors:  # a failure changed the move so that it cannot finish: fly what is left
        f.log.append(f"{unit.id}: {errors[0]}")
    rolls = list(f.rolls)
    lines = list(f.log)
    wounds: list[WoundResult] = []
    damage = Damage()
    out = _end_unit(unit, f, damage)
    if f.crash_points:
        out, hurt = apply_points(out, f.crash_points, dice, options, source="crash landing (R-10)")
        lines.extend(hurt.log)
        wounds.extend(hurt.wounds)
        damage = damage.plus(hurt.added)
    if f.sides and not f.crashed:
        out, res = gload.resolve_gload(out, f.sides, dice, options)
        rolls.extend(res.rolls)
        lines.extend(res.log)
        wounds.extend(res.wounds)
        damage = damage.plus(res.damage)
    report = MoveReport(tuple(f.path), tuple(rolls), tuple(lines), damage, tuple(wounds),
                        f.crash, f.landed and not unit.landed, f.went_around, f.crash_points,
                        f.figure_failed, f.random_sides, f.stalled)
    return out, report
