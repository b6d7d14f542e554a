"""What a plan leaves for the next turn's start (R-3.2), said before it is flown.

R-3.2: "At the start of the turn (before thrust points are applied) the
aircraft's speed drops by 5. As soon as speed drops to 0 the aircraft
**stalls** … loses one unit of altitude and must pass a piloting check." A
plan that ends at speed 5 or less therefore stalls at the next turn's start,
whatever thrust that turn brings; at the terrain's height the lost level is a
crash (R-6.1, ``movement.start_turn``).
"""

from __future__ import annotations

from ka_tui.rules.air.battle_map import BattleMap
from ka_tui.rules.air.movement import preview_start
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.core.options import AirOptions


def next_turn_warning(end: AirUnit, options: AirOptions,
                      battle_map: BattleMap | None = None) -> str | None:
    """The stall (and a crash) the plan's end state brings at the next turn's
    start (R-3.2, R-6.1), or None."""
    if end.landed or end.crashed or end.destroyed:
        return None
    start = preview_start(end, options)
    if not start.stalls:
        return None
    text = (f"stalls as the next turn starts (R-3.2: speed {end.speed} − 5 → 0): "
            f"a piloting check, level {end.altitude} → {end.altitude - 1}")
    height = battle_map.height(end.hex) if battle_map is not None else 0
    if end.altitude - 1 <= height:
        text += ", the terrain: a crash (R-6.1)"
    return text
