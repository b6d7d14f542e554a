"""Setting a battle up (the placing itself: ``placement.py``), starting it
and saving it; the battle list and ending a battle — each read and write a
``store_work`` job (``data.py``)."""

from __future__ import annotations

from collections.abc import Callable

from ka_tui.rules.campaign.crash import CrashFate
from ka_tui.screens.air import data
from ka_tui.screens.air.host import AirHost
from ka_tui.screens.air.placement import Placement
from ka_tui.screens.air.setup import SetupChoice
from ka_tui.screens.door import AirPreset, Change
from ka_tui.screens.store_work import store_work
from ka_tui.store.battles import (
    AircraftCandidate, BattleOutcome, BattleSummary, CrashedAirman,
)
from ka_tui.widgets.hex_map import HexMap


def start_setup(screen: AirHost, preset: AirPreset | None = None) -> None:
    _candidates(screen, preset)


def place(screen: AirHost) -> None:
    """``g`` while placing: the aircraft is placed; after the last one the
    battle starts and is saved."""
    placement = screen.placement
    if placement is None or placement.next(screen):
        return
    screen.placement = None
    _start(screen, placement)


def _candidates(screen: AirHost, preset: AirPreset | None) -> None:
    mission_id = None if preset is None else preset.mission_id
    store_work(screen.screen, lambda db: data.setup_choices(db, mission_id), group="air-load",
               done=lambda got: _pick(screen, *got, preset), errors=(Exception,),
               failed=lambda e: screen._status(str(e)))


def _pick(screen: AirHost, cands: list[AircraftCandidate], maps: list[data.MapChoice],
          preset: AirPreset | None) -> None:
    from ka_tui.screens.air.setup import AirSetupScreen

    def chosen(choice: SetupChoice | None) -> None:
        if choice is None:
            return
        placement = screen.placement = Placement.of(choice)
        hex_map = screen.query_one(HexMap)
        hex_map.clear_overlays()
        hex_map.set_map(placement.battle_map)
        placement.show(screen)
        hex_map.move_cursor(placement.current.hex)
        hex_map.select(placement.current.id, move=False)
        hex_map.call_after_refresh(hex_map.centre_on, placement.current.hex)
        hex_map.focus()
        screen.refresh_bindings()

    screen.app.push_screen(AirSetupScreen(cands, maps, preset), chosen)


def _start(screen: AirHost, p: Placement) -> None:
    units = list(p.units)
    aircraft = {c.name: c.aircraft_id for c, _side in p.choice.picked}
    mission_id = p.choice.mission_id
    # a new battle; from a mission, linked to it (the mission view shows it)
    changes = (Change.BATTLE,) if mission_id is None else (Change.BATTLE, Change.CAMPAIGN)
    store_work(screen.screen, lambda db: data.start_battle(db, units, aircraft, p.choice.map,
                                                           mission_id=mission_id),
               group="air-write", done=screen.show_loaded, publish=changes,
               errors=(Exception,),
               failed=lambda e: screen._status(f"battle NOT started: {e}"))


def list_battles(screen: AirHost) -> None:
    from ka_tui.screens.air.setup import BattleListScreen

    def show(battles: list[BattleSummary]) -> None:
        if not battles:
            screen._status("No air battles yet: n starts one.")
            return

        def chosen(key: str | None) -> None:
            if key:
                screen.load(int(key))

        screen.app.push_screen(BattleListScreen(battles), chosen)

    store_work(screen.screen, data.list_battles, group="air-load", done=show,
               errors=(Exception,),
               failed=lambda e: screen._status(f"cannot list the battles: {e}"))


def end_battle(screen: AirHost) -> None:
    from ka_tui.screens.confirm import ConfirmScreen

    loaded = screen.loaded
    if loaded is None:
        return

    def ended(outcome: BattleOutcome) -> None:
        screen.show_loaded(None)
        screen._status(f"battle #{loaded.battle_id} ended; " + data.outcome_text(outcome))

    def write(fates: dict[int, CrashFate]) -> None:
        # the outcome is written back to the roster; the battle is ended
        store_work(screen.screen, lambda db: data.end_battle(db, loaded, fates),
                   group="air-write", done=ended, publish=(Change.ROSTER, Change.BATTLE),
                   errors=(Exception,), failed=lambda e: screen._status(f"NOT ended: {e}"))

    def answered(yes: bool | None) -> None:
        if yes:
            ask_crews(screen, loaded.crews_to_ask, {}, write)

    screen.app.push_screen(ConfirmScreen(f"End the battle '{loaded.name}' and write the "
                                         "outcome to the campaign?", yes="End battle",
                                         title="End the air battle"), answered)


def ask_crews(screen: AirHost, crews: list[CrashedAirman], fates: dict[int, CrashFate],
              then: Callable[[dict[int, CrashFate]], None]) -> None:
    """campaign.crash_crew: one question per person aboard an aircraft that
    crashed (R-6.1, R-10), then ``then``; escape ends nothing."""
    from ka_tui.screens.air.setup import CrashCrewScreen

    if not crews:
        then(fates)
        return
    first = crews[0]

    def chosen(code: str | None) -> None:
        if code is None:
            screen._status("the battle is NOT ended: the crew's fate is the GM's to say")
            return
        ask_crews(screen, crews[1:], {**fates, first.character_id: CrashFate(code)}, then)

    screen.app.push_screen(CrashCrewScreen(first.name, first.aircraft), chosen)
