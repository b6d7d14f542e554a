"""Placing a new battle's aircraft on the map: each chosen aircraft placed by
moving it with the cursor (hex), ``[`` ``]`` (facing), ``c`` ``d`` (altitude
level) and ``+`` ``-`` (speed), ``g`` to place it and go on to the next
(``placing.py`` starts the battle once the last is placed)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Protocol, TypeVar, overload

from textual.app import App
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from ka_tui.rules.air.battle_map import BattleMap, parse_map
from ka_tui.rules.air.hexgrid import FACING_NAMES, Hex
from ka_tui.rules.air.units import AirUnit
from ka_tui.screens.air.setup import SIDES, SetupChoice
from ka_tui.widgets.hex_map import HexMap, MapAircraft

W = TypeVar("W", bound=Widget)


class PlacementView(Protocol):
    """What placing asks of the screen it shows on (``AirScreen`` is one)."""

    @property
    def app(self) -> App[object]: ...

    @overload
    def query_one(self, selector: str) -> Widget: ...

    @overload
    def query_one(self, selector: type[W]) -> W: ...

    @overload
    def query_one(self, selector: str, expect_type: type[W]) -> W: ...

    def show_panel(self, unit_lines: list[str], readout: list[str]) -> None: ...


def _start_spot(battle_map: BattleMap, side_index: int, n: int) -> tuple[Hex, int]:
    """Default spot: side 0 along the bottom facing N, side 1 along the top facing S…"""
    col = min(battle_map.cols - 1, 2 + 3 * n)
    row = battle_map.rows - 2 if side_index % 2 == 0 else 1
    return Hex.from_offset(col + (side_index // 2), max(0, row)), 0 if side_index % 2 == 0 else 3


@dataclass
class Placement:
    choice: SetupChoice
    battle_map: BattleMap
    units: list[AirUnit] = field(default_factory=list)
    index: int = 0

    @classmethod
    def of(cls, choice: SetupChoice) -> Placement:
        battle_map = parse_map(choice.map.text)
        units: list[AirUnit] = []
        count: dict[str, int] = {}
        for cand, side in choice.picked:
            assert cand.unit is not None
            n = count.get(side, 0)
            count[side] = n + 1
            h, facing = _start_spot(battle_map, SIDES.index(side), n)
            units.append(replace(cand.unit, side=side, hex=h, facing=facing))
        return cls(choice, battle_map, units)

    @property
    def current(self) -> AirUnit:
        return self.units[self.index]

    def show(self, screen: PlacementView) -> None:
        hex_map = screen.query_one(HexMap)
        hex_map.set_aircraft(MapAircraft(u.id, u.hex, u.facing, u.side, u.altitude, u.speed,
                                         u.id[:4]) for u in self.units[: self.index + 1])
        u = self.current
        col, row = u.hex.to_offset()
        screen.query_one("#air-phases", Static).update(Content(
            f"Setup: place {u.id} ({self.index + 1} of {len(self.units)}) on "
            f"{self.choice.map_name}"))
        screen.query_one("#air-next", Static).update(Content(
            "cursor: hex · [ ]: facing · c d: level · + -: speed · g: place it"))
        screen.show_panel([f"{u.id} ({u.side})", f"{u.profile.name}",
                           f"at {col},{row} facing {FACING_NAMES[u.facing]}",
                           f"level {u.altitude} · speed {u.speed} (Move {u.profile.move})"], [])

    def cursor_moved(self, screen: PlacementView, h: Hex) -> None:
        self.units[self.index] = replace(self.current, hex=h)
        self.show(screen)

    def key(self, screen: PlacementView, code: str) -> None:
        u = self.current
        changes = {
            "left": dict(facing=(u.facing - 1) % 6), "right": dict(facing=(u.facing + 1) % 6),
            "climb": dict(altitude=u.altitude + 1), "dive": dict(altitude=max(0, u.altitude - 1)),
            "thrust_up": dict(speed=min(u.profile.move, u.speed + 1)),
            "thrust_down": dict(speed=max(0, u.speed - 1)),
        }.get(code)
        if changes is None:
            screen.app.bell()
            return
        self.units[self.index] = replace(u, **changes)  # type: ignore[arg-type]
        self.show(screen)

    def next(self, screen: PlacementView) -> bool:
        """On to the next aircraft (``g``: this one is placed); False: every
        aircraft is placed."""
        if self.index + 1 >= len(self.units):
            return False
        self.index += 1
        self.show(screen)
        hex_map = screen.query_one(HexMap)
        hex_map.move_cursor(self.current.hex)
        hex_map.select(self.current.id, move=False)
        return True
