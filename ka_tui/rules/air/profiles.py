"""A library of ready aircraft profiles, as data (RULES-NOTES C).

Each profile fills both seeds' fields: the S0 §Flight card (Move, Roll,
Manoeuvres, dive maximum, Loop, Altitude, Firepower, Hull, Evasion, Traits)
and the R-3…R-10 hex-combat fields. Numbers follow the seeds where they give
any: landing speed by engine count (left to R-10's size-class table, which
``AircraftProfile`` applies when a profile sets none) and take-off run by
class (R-10), figures only for fighters, heavy fighters and attack aircraft
(R-9), the Tempest's ceiling at Top with Top needing a test (S0 §Altitude
explained).

Thrust: R-3.2 takes 5 speed at the start of every turn before thrust is
applied, so level flight needs 5 Thrust Points a turn. Fighters get 6 (one
to spare for a turn's acceleration or half a climb), bombers and the Il-2 5;
afterburner and water-methanol give the margin for a climb (2 per level, R-3.3).

The GM copies these into a campaign; the demo campaign uses them too.
"""

from __future__ import annotations

from ka_tui.rules.air.aircraft import (
    AircraftClass,
    AircraftProfile,
    Echelon,
    EngineKind,
    Manoeuvre,
    Trait,
    TurnBand,
)
from ka_tui.rules.air.flight_notation import parse_dial, parse_turn_mode


def _dial(text: str) -> tuple[Manoeuvre, ...]:
    """S0 §Flight card dial in the form's notation (``!`` = Stressful, red)."""
    dial, errors = parse_dial(text)
    if errors:
        raise ValueError(errors)
    return dial


def _bands(text: str) -> tuple[TurnBand, ...]:
    """R-3.4 turn mode in the form's notation (speed:hexes)."""
    bands, errors = parse_turn_mode(text)
    if errors:
        raise ValueError(errors)
    return bands

# S0 §Altitude explained: "Tempest can climb to Top, but will require additional test".
TEMPEST = AircraftProfile(
    name="Hawker Tempest V",
    aircraft_class=AircraftClass.FIGHTER,
    engines=1,
    engine_kind=EngineKind.PISTON,
    move=10,
    roll=True,
    manoeuvres=_dial("A1 A2 A3 A4 A5 !T1 T2 T3 !H1 H2 !H3"),
    dive_max=12,
    loop=True,
    immelmann=True,
    ceiling=Echelon.TOP,
    test_echelons=frozenset({Echelon.TOP}),
    firepower=4,
    hull=4,
    evasion=2,
    traits=((Trait.CRITICAL, 1), (Trait.ROBUST, 1)),
    thrust=6,
    afterburner_thrust=8,
    g_rating=3,
    turn_mode=_bands("1:1 4:2 7:3 10:4"),
    takeoff_run=4,
    fuel=20,
    ammo=10,
    control_surfaces=2,
    gear_legs=3,
)

SPITFIRE = AircraftProfile(
    name="Supermarine Spitfire IX",
    aircraft_class=AircraftClass.FIGHTER,
    engines=1,
    engine_kind=EngineKind.PISTON,
    move=9,
    roll=True,
    manoeuvres=_dial("A1 A2 A3 A4 A5 T1 T2 T3 H1 H2 !H3"),
    dive_max=11,
    loop=True,
    immelmann=True,
    ceiling=Echelon.TOP,
    test_echelons=frozenset(),
    firepower=3,
    hull=3,
    evasion=3,
    traits=((Trait.BULLET_DODGER, 1),),
    thrust=6,
    afterburner_thrust=7,
    g_rating=4,
    turn_mode=_bands("1:1 5:2 8:3"),
    takeoff_run=4,
    fuel=16,
    ammo=8,
    control_surfaces=2,
    gear_legs=3,
)

# MW 50 boost, limited in uses and by altitude (effective up to Mountain).
BF109 = AircraftProfile(
    name="Messerschmitt Bf 109 G-10",
    aircraft_class=AircraftClass.FIGHTER,
    engines=1,
    engine_kind=EngineKind.PISTON,
    move=9,
    roll=True,
    manoeuvres=_dial("A1 A2 A3 A4 A5 !T1 T2 T3 !H1 H2 H3"),
    dive_max=11,
    loop=True,
    immelmann=True,
    ceiling=Echelon.TOP,
    test_echelons=frozenset({Echelon.TOP}),
    firepower=3,
    hull=3,
    evasion=3,
    traits=((Trait.ACCURACY, 1),),
    thrust=6,
    wm_thrust=2,
    wm_uses=3,
    wm_altitude_limit=3,
    g_rating=4,
    turn_mode=_bands("1:1 5:2 8:3"),
    takeoff_run=4,
    fuel=14,
    ammo=8,
    control_surfaces=2,
    gear_legs=3,
)

BEAUFIGHTER = AircraftProfile(
    name="Bristol Beaufighter TF.X",
    aircraft_class=AircraftClass.HEAVY_FIGHTER,
    engines=2,
    engine_kind=EngineKind.PISTON,
    move=8,
    roll=True,
    manoeuvres=_dial("A1 A2 A3 A4 !T1 T2 T3 !H2 !H3"),
    dive_max=10,
    loop=True,
    immelmann=True,
    ceiling=Echelon.MOUNTAIN,
    test_echelons=frozenset(),
    firepower=5,
    hull=5,
    evasion=1,
    traits=((Trait.ACCURACY, 2), (Trait.CRITICAL, 1), (Trait.LONG_RANGE, None)),
    thrust=6,
    afterburner_thrust=7,
    g_rating=2,
    turn_mode=_bands("1:1 3:2 6:3 8:4"),
    takeoff_run=6,
    fuel=28,
    ammo=12,
    control_surfaces=2,
    gear_legs=3,
)

IL2 = AircraftProfile(
    name="Ilyushin Il-2M3",
    aircraft_class=AircraftClass.ATTACK,
    engines=1,
    engine_kind=EngineKind.PISTON,
    move=6,
    roll=True,
    manoeuvres=_dial("A1 A2 A3 A4 T1 T2 T3 !H1 !H2"),
    dive_max=8,
    loop=False,
    immelmann=True,
    ceiling=Echelon.MOUNTAIN,
    test_echelons=frozenset({Echelon.MOUNTAIN}),
    firepower=3,
    hull=6,
    evasion=1,
    traits=((Trait.ROBUST, 2), (Trait.ZERO_IN, 1), (Trait.BULKY, None)),
    thrust=5,
    afterburner_thrust=6,
    g_rating=2,
    turn_mode=_bands("1:1 3:2 5:3"),
    takeoff_run=6,
    fuel=18,
    ammo=10,
    control_surfaces=2,
    gear_legs=3,
)

MITCHELL = AircraftProfile(
    name="North American B-25J Mitchell",
    aircraft_class=AircraftClass.BOMBER,
    engines=2,
    engine_kind=EngineKind.PISTON,
    move=7,
    roll=False,
    manoeuvres=_dial("A1 A2 A3 A4 T2 T3 !H2 !H3"),
    dive_max=9,
    loop=False,
    immelmann=False,
    ceiling=Echelon.MOUNTAIN,
    test_echelons=frozenset(),
    firepower=2,
    hull=6,
    evasion=1,
    traits=((Trait.BULKY, None), (Trait.ROBUST, 1)),
    thrust=5,
    g_rating=1,
    turn_mode=_bands("1:2 4:3 6:4"),
    takeoff_run=8,
    fuel=36,
    ammo=14,
    control_surfaces=2,
    gear_legs=3,
)

LANCASTER = AircraftProfile(
    name="Avro Lancaster B.I",
    aircraft_class=AircraftClass.BOMBER,
    engines=4,
    engine_kind=EngineKind.PISTON,
    move=6,
    roll=False,
    manoeuvres=_dial("A1 A2 A3 A4 T2 T3 !H3"),
    dive_max=8,
    loop=False,
    immelmann=False,
    ceiling=Echelon.MOUNTAIN,
    test_echelons=frozenset({Echelon.MOUNTAIN}),
    firepower=2,
    hull=8,
    evasion=0,
    traits=((Trait.BULKY, None), (Trait.ROBUST, 2)),
    thrust=5,
    g_rating=1,
    turn_mode=_bands("1:2 3:3 5:4"),
    takeoff_run=10,
    fuel=48,
    ammo=16,
    control_surfaces=2,
    gear_legs=3,
)

# a turbine does not stall at speed 0.
METEOR = AircraftProfile(
    name="Gloster Meteor F.3",
    aircraft_class=AircraftClass.FIGHTER,
    engines=2,
    engine_kind=EngineKind.TURBINE,
    move=11,
    roll=True,
    manoeuvres=_dial("A2 A3 A4 A5 T2 T3 !H2 H3"),
    dive_max=12,
    loop=True,
    immelmann=True,
    ceiling=Echelon.TOP,
    test_echelons=frozenset(),
    firepower=4,
    hull=4,
    evasion=2,
    traits=((Trait.ACCURACY, 2),),
    thrust=6,
    g_rating=3,
    turn_mode=_bands("1:1 4:2 7:3 10:4"),
    takeoff_run=6,
    fuel=12,
    ammo=10,
    control_surfaces=2,
    gear_legs=3,
)

LIBRARY: tuple[AircraftProfile, ...] = (
    TEMPEST, SPITFIRE, BF109, BEAUFIGHTER, IL2, MITCHELL, LANCASTER, METEOR,
)


def library() -> tuple[AircraftProfile, ...]:
    """Every ready profile, in display order."""
    return LIBRARY


def by_name(name: str) -> AircraftProfile:
    """The library profile named ``name`` (case-insensitive); KeyError if none."""
    wanted = name.strip().casefold()
    for p in LIBRARY:
        if p.name.casefold() == wanted:
            return p
    raise KeyError(name)
