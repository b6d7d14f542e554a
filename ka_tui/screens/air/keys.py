"""The air-battle screen's plan keys and which actions each moment allows.

In the movement phase a plan is built step by step (``move_plan`` steps, R-3 …
R-10); while placing aircraft at setup the same keys turn, climb and speed up
the aircraft being placed.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Input

from ka_tui.rules.air.move_plan import (
    Afterburner, Climb, Descend, Forward, Land, SlideSlip, Step, TakeOff, Thrust, TurnLeft,
    TurnRight, WaterMethanol,
)
from ka_tui.rules.air.turn import Phase
from ka_tui.screens.air.host import PlanningView
from ka_tui.screens.air.plan_key_table import PLAN_KEYS

# the step each plan key adds (None: a command; plan_key_table.py: the keys)
STEPS: dict[str, Step | None] = {
    "forward": Forward(), "left": TurnLeft(), "right": TurnRight(),
    "slide_left": SlideSlip("left"), "slide_right": SlideSlip("right"),
    "thrust_up": Thrust(1), "thrust_down": Thrust(-1), "climb": Climb(1),
    "climb_thrust": Climb(1, "thrust"), "dive": Descend(1), "afterburner": Afterburner(),
    "wm": WaterMethanol(), "land": Land(), "takeoff": TakeOff(),
    "figure": None, "evasive": None, "drop": None, "fill": None, "clear": None,
}

PLAN_BINDINGS = [
    *(Binding(key, f"plan('{code}')", desc, show=False, id=f"air.plan.{code}")
      for code, key, desc in PLAN_KEYS),
    Binding("p", "type_plan", "Type plan", id="air.type_plan"),
    Binding("R", "ram", "Ram", show=False, id="air.ram"),
]

PALETTE_HELP = {
    "air.go": "Do what the next-step line says, rolling the app's dice",
    "air.dice": "Type the faces the table's dice show for the next step, then enter",
    "air.undo": "Undo the last step (a move, a shot, a phase), after a yes; y redoes it",
    "air.redo": "Put back the step just undone, with its dice (until anything else is done)",
    "air.reach": "Show or hide every hex the selected aircraft can reach this turn",
    "air.end_shooting": "This side ends its shooting; the next side moves",
    "air.log": "The battle log: every roll with its breakdown, filterable",
    "air.new": "Start a new air battle from the roster",
    "air.list": "Open another air battle of this campaign",
    "air.end_battle": "End the battle and write the outcome back to the campaign",
    "air.type_plan": "Type the plan in the notation: +1 F F R F C D LOOP LAND",
    "air.ram": "Ram the aircraft under the cursor instead of shooting (R-7)",
    "air.next_target": "The next aircraft of a stacked hex as the target (same level first)",
    **{f"air.plan.{code}": f"Plan: {desc}" for code, _k, desc in PLAN_KEYS},
}

PLACING = {"left", "right", "thrust_up", "thrust_down", "climb", "dive"}


def plan_key(screen: PlanningView, code: str) -> None:
    if screen.placement is not None:
        screen.placement.key(screen, code)
        return
    runner, uid = screen.runner, screen.selected()
    if runner is None or uid is None:
        return
    screen.hold_detail = False
    if code == "figure":
        _figure(screen, uid)
        return
    if code == "evasive":
        runner.evasive.symmetric_difference_update({uid})
    elif code == "drop":
        runner.drop_step(uid)
    elif code == "fill":
        runner.fill(uid)
    elif code == "clear":
        runner.plans.pop(uid, None)
    else:
        step = STEPS[code]
        assert step is not None
        runner.add_step(uid, step)
    screen.refresh_overlays()


def _figure(screen: PlanningView, uid: str) -> None:
    from ka_tui.rules.air.aerobatics import FigureKind
    from ka_tui.rules.air.move_plan import Figure
    from ka_tui.screens.air.figures import figure_menu

    def chosen(code: str | None) -> None:
        if code is None or screen.runner is None:
            return
        step: Step = (SlideSlip("left") if code == "slide_left" else
                      SlideSlip("right") if code == "slide_right" else Figure(FigureKind(code)))
        screen.runner.add_step(uid, step)
        screen.refresh_overlays()

    if screen.runner is not None:
        screen.app.push_screen(figure_menu(screen.runner, uid), chosen)




def enabled(screen: PlanningView, action: str) -> bool:
    runner, placing = screen.runner, screen.placement is not None
    if action == "list_battles":
        # a priority key: typed into a field (the log filter, a plan) it is a letter
        return not placing and not isinstance(screen.app.focused, Input)
    if action == "new_battle":
        return not placing
    if placing:
        return action in ("go", "plan")
    if runner is None:
        return False
    phase = runner.state.phase
    if action in ("plan", "type_plan"):
        return phase is Phase.MOVEMENT
    if action in ("ram", "end_shooting"):
        return phase is Phase.SHOOTING
    if action == "undo":
        return len(runner.battle.events) > 1
    if action == "redo":
        return getattr(screen, "redo_event", None) is not None
    return True
