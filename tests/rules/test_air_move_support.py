"""Shared builders for the air movement tests (no tests here).

Profiles are written out in full so a change to the shipped library cannot
silently change what these tests check.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ka_tui.rules.air.battle_map import BattleMap, parse_map
from ka_tui.rules.air.units import Airman, AirUnit
from ka_tui.rules.air.aircraft import AircraftClass, AircraftProfile, Echelon, EngineKind, TurnBand
from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.air.move_plan import Plan, parse_plan
from ka_tui.rules.core.options import AirOptions

FIGHTER = AircraftProfile(
    name="Test fighter", aircraft_class=AircraftClass.FIGHTER, engines=1,
    engine_kind=EngineKind.PISTON, move=8, dive_max=10, loop=True, immelmann=True, roll=True,
    ceiling=Echelon.TOP, test_echelons=frozenset({Echelon.TOP}), thrust=4,
    afterburner_thrust=6, wm_thrust=2, wm_uses=2, wm_altitude_limit=3, g_rating=3,
    turn_mode=(TurnBand(1, 1), TurnBand(4, 2), TurnBand(7, 3)), landing_speed=3,
    takeoff_run=4, fuel=20, hull=4)

BOMBER = AircraftProfile(
    name="Test bomber", aircraft_class=AircraftClass.BOMBER, engines=4,
    engine_kind=EngineKind.PISTON, move=6, dive_max=8, loop=False, immelmann=False, roll=False,
    ceiling=Echelon.MOUNTAIN, thrust=3, g_rating=1,
    turn_mode=(TurnBand(1, 2), TurnBand(3, 3), TurnBand(5, 4)), landing_speed=4,
    takeoff_run=10, hull=10)

TWIN = replace(FIGHTER, name="Test twin", aircraft_class=AircraftClass.HEAVY_FIGHTER, engines=2,
               landing_speed=6, takeoff_run=6)

OPTS = AirOptions()

# 8 columns × 12 rows of open ground at height 0.
OPEN = parse_map("\n".join([" ".join(["."] * 8)] * 12))


def unit(col: int = 3, row: int = 10, *, facing: int = 0, altitude: int = 2, speed: int = 6,
         profile: AircraftProfile = FIGHTER, **kw: Any) -> AirUnit:
    """A fighter at an offset hex with a fresh pilot (piloting 5, endurance 3)."""
    pilot = kw.pop("pilot", Airman("Kay", piloting=5, endurance=3))
    return AirUnit("A1", "red", profile, pilot, hex=Hex.from_offset(col, row), facing=facing,
                   altitude=altitude, speed=speed, fuel=kw.pop("fuel", 20),
                   wm_uses_left=kw.pop("wm_uses_left", profile.wm_uses), **kw)


def plan(text: str) -> Plan:
    steps, errors = parse_plan(text)
    assert not errors, errors
    return steps


def at(col: int, row: int) -> Hex:
    return Hex.from_offset(col, row)


def open_map(rows: int = 12, cols: int = 8) -> BattleMap:
    return parse_map("\n".join([" ".join(["."] * cols)] * rows))
