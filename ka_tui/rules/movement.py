"""Hex movement (R-3): speed decay and stall, thrust, climbing and descending,
turning, afterburner and water-methanol; figures (R-9), G-load (R-4) and
landing (R-10) are applied here from their own modules.

Public API (docs/ARCHITECTURE.md "Air movement API"):

- ``piloting_target(unit, what, source)``: R-2 base plus damage and wounds.
- ``preview_start(unit, options)`` / ``start_turn(unit, dice, options)``: R-3.2.
- ``validate_plan(unit, plan, battle_map, options) -> PlanCheck`` (no dice).
- ``execute_plan(unit, plan, battle_map, dice, options) -> (AirUnit, MoveReport)``.
"""

from __future__ import annotations

from ka_tui.rules.air_map import BattleMap
from ka_tui.rules.air_state import AirUnit
from ka_tui.rules.dice import Dice
from ka_tui.rules.move_plan import MoveReport, Plan, PlanCheck, StartPreview, StartReport
from ka_tui.rules.options import AirOptions
from ka_tui.rules.target import TargetNumber


def piloting_target(unit: AirUnit, what: str = "piloting", source: str = "R-2") -> TargetNumber:
    raise NotImplementedError


def preview_start(unit: AirUnit, options: AirOptions) -> StartPreview:
    raise NotImplementedError


def start_turn(unit: AirUnit, dice: Dice, options: AirOptions) -> tuple[AirUnit, StartReport]:
    raise NotImplementedError


def validate_plan(unit: AirUnit, plan: Plan, battle_map: BattleMap,
                  options: AirOptions) -> PlanCheck:
    raise NotImplementedError


def execute_plan(unit: AirUnit, plan: Plan, battle_map: BattleMap, dice: Dice,
                 options: AirOptions) -> tuple[AirUnit, MoveReport]:
    raise NotImplementedError
