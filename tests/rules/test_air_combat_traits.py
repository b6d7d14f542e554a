"""S0 §Traits wired into the air rules beyond shooting (Bulky on rough strips)."""

from __future__ import annotations

from ka_tui.rules.air.battle_map import LandingSite, Surface
from ka_tui.rules.air.aircraft import AircraftClass, Trait
from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.air.landing import landing_target
from ka_tui.rules.core.options import AirOptions

from .air_combat_fixtures import unit

OPT = AirOptions()


def site(surface: Surface) -> LandingSite:
    return LandingSite("test", surface, length=20, width=5, height=0, end=Hex(0, 0))


def test_s0_bulky_ignores_rough_landing_strips() -> None:
    plain = unit("P", cls=AircraftClass.BOMBER, speed=3)
    bulky = unit("B", cls=AircraftClass.BOMBER, speed=3, traits=((Trait.BULKY, None),))
    for surface in (Surface.ROUGH, Surface.UNPREPARED, Surface.OPEN):
        assert landing_target(bulky, site(surface), 3, OPT).value < \
            landing_target(plain, site(surface), 3, OPT).value
    for surface in (Surface.WATER, Surface.FOREST, Surface.PREPARED):
        assert landing_target(bulky, site(surface), 3, OPT).value == \
            landing_target(plain, site(surface), 3, OPT).value
