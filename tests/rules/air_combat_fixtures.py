"""Small builders for the air-combat tests: aircraft and units."""

from __future__ import annotations

from typing import Any

from ka_tui.rules.air.units import Airman, AirUnit
from ka_tui.rules.air.aircraft import AircraftClass, AircraftProfile, EngineKind, Trait
from ka_tui.rules.air.hexgrid import Hex


def profile(name: str = "Test", cls: AircraftClass = AircraftClass.FIGHTER,
            traits: tuple[tuple[Trait, int | None], ...] = (), **kw: Any) -> AircraftProfile:
    return AircraftProfile(name, aircraft_class=cls, traits=traits, **kw)


def unit(uid: str, side: str = "blue", *, q: int = 0, r: int = 0, facing: int = 0,
         altitude: int = 2, speed: int = 5, cls: AircraftClass = AircraftClass.FIGHTER,
         traits: tuple[tuple[Trait, int | None], ...] = (), gunnery: int = 4,
         piloting: int = 5, wounds: int = 0, conscious: bool = True, ammo: int = 10,
         fuel: int = 20, engine: EngineKind = EngineKind.PISTON,
         prof: dict[str, Any] | None = None, **kw: Any) -> AirUnit:
    p = profile(f"{uid}-type", cls, traits, engine_kind=engine, **(prof or {}))
    pilot = Airman(f"{uid}-pilot", piloting=piloting, gunnery=gunnery, wounds=wounds,
                   conscious=conscious)
    return AirUnit(uid, side, p, pilot, hex=Hex(q, r), facing=facing, altitude=altitude,
                   speed=speed, ammo=ammo, fuel=fuel, **kw)
