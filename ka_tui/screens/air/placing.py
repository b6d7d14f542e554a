"""Setting a battle up on the map: each chosen aircraft placed by moving it
with the cursor (hex), ``[`` ``]`` (facing), ``c`` ``d`` (altitude level) and
``+`` ``-`` (speed), ``g`` to place it and go on to the next; then the battle
starts and is saved. Also the battle list and ending a battle."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from textual.content import Content
from textual.widgets import Static

from ka_tui.rules.air.battle_map import BattleMap, parse_map
from ka_tui.rules.air.hexgrid import FACING_NAMES, Hex
from ka_tui.rules.air.units import AirUnit
from ka_tui.screens.air.setup import SIDES, SetupChoice
from ka_tui.widgets.hex_map import HexMap, MapAircraft

# ``AirScreen`` (screens/air/screen.py), typed loosely: that module imports this one.
AirScreen = Any


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

    def show(self, screen: AirScreen) -> None:
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

    def cursor_moved(self, screen: AirScreen, h: Hex) -> None:
        self.units[self.index] = replace(self.current, hex=h)
        self.show(screen)

    def key(self, screen: AirScreen, code: str) -> None:
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

    def place(self, screen: AirScreen) -> None:
        if self.index + 1 < len(self.units):
            self.index += 1
            self.show(screen)
            hex_map = screen.query_one(HexMap)
            hex_map.move_cursor(self.current.hex)
            hex_map.select(self.current.id, move=False)
            return
        screen.placement = None
        _start(screen, self)


def start_setup(screen: AirScreen) -> None:
    _candidates(screen)


def _candidates(screen: AirScreen) -> None:
    def run() -> None:
        from ka_tui.screens.air import data

        try:
            cands = data.load_candidates(screen.campaign_db())
        except Exception as error:  # noqa: BLE001 - shown to the GM
            screen.app.call_from_thread(screen._status, f"cannot read the roster: {error}")
            return
        try:
            maps = data.map_choices(screen.campaign_db())
        except Exception as error:  # noqa: BLE001 - shown to the GM
            screen.app.call_from_thread(screen._status, f"cannot read the maps: {error}")
            return
        screen.app.call_from_thread(_pick, screen, cands, maps)

    screen.run_worker(run, thread=True, group="air-load", exit_on_error=False)


def _pick(screen: AirScreen, cands: list[object], maps: list[object]) -> None:
    from ka_tui.screens.air.setup import AirSetupScreen

    def chosen(choice: SetupChoice | None) -> None:
        if choice is None:
            return
        screen.placement = Placement.of(choice)
        hex_map = screen.query_one(HexMap)
        hex_map.clear_overlays()
        hex_map.set_map(screen.placement.battle_map)
        screen.placement.show(screen)
        hex_map.move_cursor(screen.placement.current.hex)
        hex_map.select(screen.placement.current.id, move=False)
        hex_map.call_after_refresh(hex_map.centre_on, screen.placement.current.hex)
        hex_map.focus()
        screen.refresh_bindings()

    screen.app.push_screen(AirSetupScreen(cands, maps), chosen)  # type: ignore[arg-type]


def _start(screen: AirScreen, p: Placement) -> None:
    units = list(p.units)
    aircraft = {c.name: c.aircraft_id for c, _side in p.choice.picked}

    def run() -> None:
        from ka_tui.screens.air import data

        try:
            loaded = data.start_battle(screen.campaign_db(), units, aircraft, p.choice.map)
        except Exception as error:  # noqa: BLE001 - shown to the GM
            screen.app.call_from_thread(screen._status, f"battle NOT started: {error}")
            return
        screen.app.call_from_thread(screen.show_loaded, loaded)

    screen.run_worker(run, thread=True, group="air-write", exit_on_error=False)


def list_battles(screen: AirScreen) -> None:
    from ka_tui.screens.air.setup import BattleListScreen

    def run() -> None:
        from ka_tui.screens.air import data

        try:
            battles = data.list_battles(screen.campaign_db())
        except Exception as error:  # noqa: BLE001 - shown to the GM
            screen.app.call_from_thread(screen._status, f"cannot list the battles: {error}")
            return

        def show() -> None:
            if not battles:
                screen._status("No air battles yet: n starts one.")
                return

            def chosen(key: str | None) -> None:
                if key:
                    screen.load(int(key))

            screen.app.push_screen(BattleListScreen(battles), chosen)

        screen.app.call_from_thread(show)

    screen.run_worker(run, thread=True, group="air-load", exit_on_error=False)


def end_battle(screen: AirScreen) -> None:
    from ka_tui.screens.confirm import ConfirmScreen

    loaded = screen.loaded
    if loaded is None:
        return

    def answered(yes: bool | None) -> None:
        if not yes:
            return

        def run() -> None:
            from ka_tui.screens.air import data

            try:
                outcome = data.end_battle(screen.campaign_db(), loaded)
            except Exception as error:  # noqa: BLE001 - shown to the GM
                screen.app.call_from_thread(screen._status, f"NOT ended: {error}")
                return
            screen.roster_changed()
            screen.app.call_from_thread(screen.show_loaded, None)
            screen.app.call_from_thread(screen._status,
                                        f"battle #{loaded.battle_id} ended; "
                                        + data.outcome_text(outcome))

        screen.run_worker(run, thread=True, group="air-write", exit_on_error=False)

    screen.app.push_screen(ConfirmScreen(f"End the battle '{loaded.name}' and write the "
                                         "outcome to the campaign?", yes="End battle",
                                         title="End the air battle"), answered)
