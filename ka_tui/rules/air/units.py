"""State of aircraft in a hex air battle (R-1 … R-10), as immutable data.

The air rules take these values and return new ones; the store keeps a battle
as a list of events and replays them through the rules (DESIGN.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ka_tui.rules.air.aircraft import AircraftProfile
from ka_tui.rules.air.hexgrid import Hex

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
    """Hull hits and per-location damage (RULES-NOTES C/D).

    ``locations`` counts the location *effects* in force (a critical hit's
    effect, R-6.1/R-10 point damage, heat damage to the engine): these drive
    the modifiers. ``located_hits`` records where every hull hit landed, for
    the flight card and the log, effect or not.
    """

    hull_hits: int = 0
    locations: tuple[tuple[str, int], ...] = ()
    located_hits: tuple[tuple[str, int], ...] = ()

    def at(self, location: str) -> int:
        return sum(n for loc, n in self.locations if loc == location)

    def hits_at(self, location: str) -> int:
        return sum(n for loc, n in self.located_hits if loc == location)

    @property
    def empty(self) -> bool:
        return not (self.hull_hits or self.locations or self.located_hits)

    def plus(self, other: Damage) -> Damage:
        return Damage(self.hull_hits + other.hull_hits,
                      _merge(self.locations, other.locations),
                      _merge(self.located_hits, other.located_hits))


def _merge(a: tuple[tuple[str, int], ...],
           b: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    counts: dict[str, int] = dict(a)
    for loc, n in b:
        counts[loc] = counts.get(loc, 0) + n
    return tuple(sorted(counts.items()))


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
    # hit the terrain; down for the rest of the battle
    crashed: bool = False
    # --- movement ---
    # S0 §Changing altitude (altitude_model s0): the level being flown toward
    # and the hexes flown toward the next level, carried across turns
    altitude_goal: int | None = None
    altitude_progress: int = 0
    # R-9 half-roll: flying inverted (right/left and top/bottom swapped)
    inverted: bool = False
    # four-engine craft may land on carriers only with special equipment
    carrier_equipped: bool = False
    # --- combat ---
    # why this unit may not attack this turn (a failed evasive check, …);
    # cleared at the start of the turn
    attack_forfeit: str = ""

    @property
    def total_damage(self) -> Damage:
        return self.damage.plus(self.pending_damage)

    @property
    def hull_left(self) -> int:
        """Hull never reported below 0."""
        hits = self.damage.hull_hits + self.pending_damage.hull_hits
        return max(0, self.profile.hull - hits)

    @property
    def everyone(self) -> tuple[Airman, ...]:
        return (self.pilot, *self.crew)
