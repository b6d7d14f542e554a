"""State of aircraft in a hex air battle (R-1 … R-10), as immutable data.

The air rules take these values and return new ones; the store keeps a battle
as a list of events and replays them through the rules (DESIGN.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ka_tui.rules.aircraft import AircraftProfile
from ka_tui.rules.hexgrid import Hex

MAX_WOUNDS = 6  # six wounds is death


@dataclass(frozen=True)
class Airman:
    """A pilot or crew member as the air rules see him.

    ``piloting`` and ``gunnery`` are 2d6 target ratings (R-2: the target number
    is formed from the modified piloting or gunnery skill; lower is better).
    ``endurance`` is the character's Endurance characteristic (R-4).
    """

    name: str
    piloting: int = 5
    gunnery: int = 4
    endurance: int = 3
    wounds: int = 0
    conscious: bool = True

    @property
    def dead(self) -> bool:
        return self.wounds >= MAX_WOUNDS

    def with_wounds(self, wounds: int) -> Airman:
        """Wounds clamp to 0..6 here, the one place (R-5)."""
        return replace(self, wounds=max(0, min(MAX_WOUNDS, wounds)),
                       conscious=self.conscious and wounds < MAX_WOUNDS)


@dataclass(frozen=True)
class Damage:
    """Hull hits and per-location damage (RULES-NOTES C/D)."""

    hull_hits: int = 0
    locations: tuple[tuple[str, int], ...] = ()

    def at(self, location: str) -> int:
        return sum(n for loc, n in self.locations if loc == location)

    def plus(self, other: Damage) -> Damage:
        counts: dict[str, int] = dict(self.locations)
        for loc, n in other.locations:
            counts[loc] = counts.get(loc, 0) + n
        return Damage(self.hull_hits + other.hull_hits, tuple(sorted(counts.items())))


@dataclass(frozen=True)
class AirUnit:
    id: str
    side: str
    profile: AircraftProfile
    pilot: Airman
    crew: tuple[Airman, ...] = ()
    hex: Hex = Hex(0, 0)
    facing: int = 0
    altitude: int = 1
    speed: int = 0
    # hexes flown straight since the last facing change, carried across turns
    straight_run: int = 0
    # thrust was spent at the end of the last movement
    thrust_at_end_last_turn: bool = False
    # a failed stall check leaves the aircraft flying straight
    out_of_control: bool = False
    # R-3.5 / RULES-NOTES D heat
    overheat: int = 0
    afterburner_on: bool = False
    wm_uses_left: int = 0
    fuel: int = 0
    ammo: int = 0
    # damage in effect vs. damage taken since this unit's last shooting phase
    damage: Damage = field(default_factory=Damage)
    pending_damage: Damage = field(default_factory=Damage)
    # per-turn flags
    evading: bool = False
    figure_flown: bool = False
    moved: bool = False
    shot: bool = False
    destroyed: bool = False
    landed: bool = False

    @property
    def total_damage(self) -> Damage:
        return self.damage.plus(self.pending_damage)

    @property
    def hull_left(self) -> int:
        """Hull never reported below 0."""
        return max(0, self.profile.hull - self.total_damage.hull_hits)

    @property
    def everyone(self) -> tuple[Airman, ...]:
        return (self.pilot, *self.crew)
