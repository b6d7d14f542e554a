"""One aircraft profile holding both seeds' data (RULES-NOTES C).

S0 §Flight card gives Move, Roll, Manoeuvres, dive maximum, Loop, altitude,
Firepower, Hull, Evasion and Traits; R-3…R-10 give class, engines, thrust,
afterburner, water-methanol, G-rating, turn mode, landing and take-off.
Hull (S0) and airframe integrity (002) are the same track (RULES-NOTES C).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum


class AircraftClass(str, Enum):
    """R-7, R-8, R-9, R-10 name these classes."""

    FIGHTER = "fighter"
    HEAVY_FIGHTER = "heavy_fighter"
    ATTACK = "attack"
    BOMBER = "bomber"
    LARGE = "large"

    @property
    def label(self) -> str:
        return {
            "fighter": "Fighter",
            "heavy_fighter": "Heavy fighter",
            "attack": "Attack aircraft",
            "bomber": "Bomber",
            "large": "Large object",
        }[self.value]


class EngineKind(str, Enum):
    """R-3.2: eternium engines and turbines do not stall at speed 0."""

    PISTON = "piston"
    TURBINE = "turbine"
    ETERNIUM = "eternium"


class Echelon(IntEnum):
    """S0 §Altitude explained: the six altitude echelons."""

    DECK = 1
    HILL = 2
    MOUNTAIN = 3
    TOP = 4
    CEILING = 5
    EDGE = 6

    @property
    def label(self) -> str:
        return self.name.capitalize()


class Trait(str, Enum):
    """S0 §Traits: the eight aircraft traits."""

    ACCURACY = "accuracy"
    BULKY = "bulky"
    BULLET_DODGER = "bullet_dodger"
    CRITICAL = "critical"
    ROBUST = "robust"
    LONG_RANGE = "long_range"
    GLIDER = "glider"
    ZERO_IN = "zero_in"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ").capitalize()

    @property
    def takes_dice(self) -> bool:
        """S0 §Traits: the traits that re-roll or upgrade dice carry a dice count
        (Accuracy, Bullet dodger, Critical, Robust, Zero-in); the others none."""
        return self in _DICE_TRAITS


_DICE_TRAITS = frozenset({Trait.ACCURACY, Trait.BULLET_DODGER, Trait.CRITICAL, Trait.ROBUST,
                          Trait.ZERO_IN})


class ManoeuvreKind(str, Enum):
    """S0 §Flight card: turns, hard turns, ahead moves."""

    AHEAD = "ahead"
    TURN = "turn"
    HARD_TURN = "hard_turn"


@dataclass(frozen=True)
class Manoeuvre:
    """One entry of the S0 manoeuvre dial: a kind at a speed, maybe Stressful."""

    kind: ManoeuvreKind
    speed: int
    stressful: bool = False


@dataclass(frozen=True)
class TurnBand:
    """R-3.4: from ``min_speed`` upward, fly ``hexes`` straight per facing change."""

    min_speed: int
    hexes: int


# R-10 table, "Max landing speed" by size class: single-engine 3, twin-engine 6,
# four-engine 4 (``landing.SIZE_CLASSES`` reads the same numbers).
R10_LANDING_SPEED: dict[int, int] = {1: 3, 2: 6, 4: 4}
# ``landing_speed`` left at this value takes R-10's number for the engine count.
LANDING_SPEED_FROM_TABLE = 0


def r10_row(engines: int) -> int:
    """The R-10 row (1, 2 or 4 engines) an engine count takes. A profile has
    one of the three (``validate_profile``); reading for any other count: the
    next larger row, more than four the four-engine row -- one answer for the
    landing speed, the strip (``landing.size_class``) and the carrier bar
    ("Four-engine craft cannot land on carriers", ``landing.carrier_refusal``)."""
    for row in sorted(R10_LANDING_SPEED):
        if engines <= row:
            return row
    return max(R10_LANDING_SPEED)


def table_landing_speed(engines: int) -> int:
    """R-10: the size class's max landing speed (row by ``r10_row``)."""
    return R10_LANDING_SPEED[r10_row(engines)]


@dataclass(frozen=True)
class AircraftProfile:
    name: str
    aircraft_class: AircraftClass = AircraftClass.FIGHTER
    engines: int = 1
    engine_kind: EngineKind = EngineKind.PISTON
    # S0 §Flight card
    move: int = 8
    roll: bool = True
    manoeuvres: tuple[Manoeuvre, ...] = ()
    dive_max: int = 10
    loop: bool = True
    immelmann: bool = True
    ceiling: Echelon = Echelon.MOUNTAIN
    test_echelons: frozenset[Echelon] = frozenset()
    firepower: int = 3
    hull: int = 4
    evasion: int = 2
    traits: tuple[tuple[Trait, int | None], ...] = ()
    # R-3 … R-10
    thrust: int = 4
    afterburner_thrust: int | None = None
    wm_thrust: int | None = None
    wm_uses: int = 0
    wm_altitude_limit: int | None = None
    g_rating: int = 3
    turn_mode: tuple[TurnBand, ...] = (TurnBand(1, 1), TurnBand(4, 2), TurnBand(7, 3))
    # the speed above which landing gets +1 per point. A profile that does
    # not set its own (LANDING_SPEED_FROM_TABLE) takes R-10's size-class number,
    # fixed at construction, so a twin-engine aircraft lands at up to 6
    # (RULES-NOTES D "Landing surface"; ``dataclasses.replace`` keeps the number).
    landing_speed: int = LANDING_SPEED_FROM_TABLE
    takeoff_run: int = 4
    fuel: int = 20
    ammo: int = 10
    control_surfaces: int = 2
    gear_legs: int = 3

    def __post_init__(self) -> None:
        if self.landing_speed == LANDING_SPEED_FROM_TABLE:
            object.__setattr__(self, "landing_speed", table_landing_speed(self.engines))

    @property
    def stalls(self) -> bool:
        """R-3.2: only engines other than eternium and turbine stall."""
        return self.engine_kind is EngineKind.PISTON

    def trait_dice(self, trait: Trait) -> int | None:
        for t, n in self.traits:
            if t is trait:
                return n
        return None

    def has_trait(self, trait: Trait) -> bool:
        return any(t is trait for t, _ in self.traits)

    def hexes_per_facing(self, speed: int) -> int:
        """R-3.4: straight hexes needed per facing change at this speed."""
        need = self.turn_mode[0].hexes if self.turn_mode else 1
        for band in self.turn_mode:
            if speed >= band.min_speed:
                need = band.hexes
        return need


@dataclass(frozen=True)
class FieldError:
    field: str
    message: str


@dataclass
class ProfileCheck:
    errors: list[FieldError] = field(default_factory=list)

    def add(self, name: str, message: str) -> None:
        self.errors.append(FieldError(name, message))

    @property
    def ok(self) -> bool:
        return not self.errors


MAX_SPEED = 12  # descent never takes speed above 12


def validate_profile(p: AircraftProfile) -> list[FieldError]:
    """Every reason this profile cannot be flown, one per field."""
    c = ProfileCheck()
    if not p.name.strip():
        c.add("name", "a name is required")
    if p.engines not in (1, 2, 4):
        c.add("engines", "engines must be 1, 2 or 4 (R-10)")
    if not 1 <= p.move <= MAX_SPEED:
        c.add("move", f"move must be 1–{MAX_SPEED}")
    if not p.move <= p.dive_max <= MAX_SPEED:
        c.add("dive_max", f"dive maximum must be between move ({p.move}) and {MAX_SPEED}")
    for name in ("firepower", "hull", "evasion", "thrust", "g_rating", "fuel", "ammo",
                 "control_surfaces", "gear_legs", "wm_uses"):
        if getattr(p, name) < 0:
            c.add(name, f"{name.replace('_', ' ')} cannot be negative")
    if p.hull < 1:
        c.add("hull", "hull must be at least 1 (S0 §Flight card)")
    if p.afterburner_thrust is not None and p.afterburner_thrust <= p.thrust:
        c.add("afterburner_thrust", "afterburner thrust (n) must exceed plain thrust (R-3.5)")
    if p.wm_thrust is not None and p.wm_thrust < 1:
        c.add("wm_thrust", "water-methanol thrust must be at least 1 (R-3.6)")
    if p.wm_thrust is not None and p.wm_uses < 1:
        c.add("wm_uses", "water-methanol needs a usage limit of at least 1 (R-3.6)")
    if any(e > p.ceiling for e in p.test_echelons):
        c.add("test_echelons", "an echelon that needs a test must be at or below the ceiling")
    if not 1 <= p.landing_speed <= MAX_SPEED:
        c.add("landing_speed", f"landing speed must be 1–{MAX_SPEED}")
    if p.takeoff_run < 1:
        c.add("takeoff_run", "take-off run must be at least 1 hex (R-10)")
    seen: set[Trait] = set()
    for t, n in p.traits:
        if t in seen:
            c.add("traits", f"trait {t.label} listed twice")
        seen.add(t)
        if n is not None and not 1 <= n <= 6:
            c.add("traits", f"{t.label} dice must be 1–6")
    c.errors.extend(validate_turn_mode(p.turn_mode, p.move))
    c.errors.extend(validate_manoeuvres(p.manoeuvres, p.move))
    c.errors.extend(validate_trait_counts(p.traits))
    return c.errors


def validate_trait_counts(traits: tuple[tuple[Trait, int | None], ...]) -> list[FieldError]:
    """S0 §Traits: a dice count only on traits that roll dice (the 1–6 range is
    checked by ``validate_profile``)."""
    return [FieldError("traits", f"{trait.label} takes no dice count")
            for trait, n in traits if not trait.takes_dice and n is not None]


def validate_manoeuvres(dial: tuple[Manoeuvre, ...], move: int) -> list[FieldError]:
    """S0 §Flight card: each dial entry at a speed 1..Move, listed once."""
    c = ProfileCheck()
    seen: set[tuple[ManoeuvreKind, int]] = set()
    for m in dial:
        if not 1 <= m.speed <= max(move, 1):
            c.add("manoeuvres", f"a manoeuvre's speed must be 1–{move} (the Move)")
        if (m.kind, m.speed) in seen:
            c.add("manoeuvres", f"{m.kind.value.replace('_', ' ')} {m.speed} listed twice")
        seen.add((m.kind, m.speed))
    return c.errors


def validate_turn_mode(bands: tuple[TurnBand, ...], max_speed: int) -> list[FieldError]:
    """R-3.4: the table must cover speeds 1..max and never get easier as speed rises."""
    c = ProfileCheck()
    if not bands:
        c.add("turn_mode", "the turn-mode table is empty")
        return c.errors
    if bands[0].min_speed != 1:
        c.add("turn_mode", "the first turn-mode band must start at speed 1")
    for prev, nxt in zip(bands, bands[1:]):
        if nxt.min_speed <= prev.min_speed:
            c.add("turn_mode", "turn-mode bands must rise in speed")
        if nxt.hexes < prev.hexes:
            c.add("turn_mode", "hexes per facing change may not fall as speed rises")
    if any(b.hexes < 1 for b in bands):
        c.add("turn_mode", "hexes per facing change must be at least 1")
    if bands[-1].min_speed > max(max_speed, 1):
        c.add("turn_mode", f"a band starts above the aircraft's move ({max_speed})")
    return c.errors
