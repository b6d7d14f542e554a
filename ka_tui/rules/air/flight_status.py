"""Live status shown on a flight card (R-1.4 end-phase report).

R-1.4: the GM tells each player "engine condition, fuel and ammunition left,
airframe integrity". This is that report as plain data, filled either from a
campaign row (store/aircraft_view.py) or from a unit in battle (``of_unit``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ka_tui.rules.air.units import Airman, AirUnit, Damage
from ka_tui.rules.air.aircraft import AircraftProfile


@dataclass(frozen=True)
class FlightStatus:
    damage: Damage = field(default_factory=Damage)
    fuel_left: int | None = None      # None: full (the profile's fuel)
    ammo_left: int | None = None      # None: full (the profile's ammo)
    overheat: int = 0                 # Engine Overheat modifier
    wm_uses_left: int | None = None   # None: all uses left
    pilot: Airman | None = None
    crew: tuple[Airman, ...] = ()

    def hull_left(self, profile: AircraftProfile) -> int:
        """S0 §Flight card Hull less hits taken, never below 0."""
        return max(0, profile.hull - self.damage.hull_hits)

    def fuel(self, profile: AircraftProfile) -> int:
        return profile.fuel if self.fuel_left is None else self.fuel_left

    def ammo(self, profile: AircraftProfile) -> int:
        return profile.ammo if self.ammo_left is None else self.ammo_left

    def wm_uses(self, profile: AircraftProfile) -> int:
        return profile.wm_uses if self.wm_uses_left is None else self.wm_uses_left

    @property
    def damaged(self) -> bool:
        return not self.damage.empty


def of_unit(unit: AirUnit) -> FlightStatus:
    """The card status of a unit in battle, damage in effect and pending together (R-1.3)."""
    return FlightStatus(damage=unit.total_damage, fuel_left=unit.fuel, ammo_left=unit.ammo,
                        overheat=unit.overheat, wm_uses_left=unit.wm_uses_left,
                        pilot=unit.pilot, crew=unit.crew)
