"""The library of ready profiles (RULES-NOTES C) and the dial / turn-mode notation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ka_tui.rules.air.aircraft import (
    AircraftClass,
    Echelon,
    EngineKind,
    Manoeuvre,
    ManoeuvreKind,
    TurnBand,
    validate_manoeuvres,
    validate_profile,
)
from ka_tui.rules.air.flight_notation import (
    format_dial,
    format_turn_mode,
    parse_dial,
    parse_turn_mode,
)
from ka_tui.rules.air.profiles import LIBRARY, TEMPEST, by_name, library
from tests.rules.hypothesis_counts import scaled

FIGURE_CLASSES = {AircraftClass.FIGHTER, AircraftClass.HEAVY_FIGHTER, AircraftClass.ATTACK}


@pytest.mark.parametrize("profile", LIBRARY, ids=lambda p: p.name)
def test_every_library_profile_passes_validate_profile(profile):
    assert validate_profile(profile) == []


def test_library_covers_the_issue_classes_and_engine_kinds():
    classes = {p.aircraft_class for p in library()}
    assert {AircraftClass.FIGHTER, AircraftClass.HEAVY_FIGHTER, AircraftClass.ATTACK,
            AircraftClass.BOMBER} <= classes
    assert any(p.aircraft_class is AircraftClass.BOMBER and p.engines == 2 for p in LIBRARY)
    assert any(p.aircraft_class is AircraftClass.BOMBER and p.engines == 4 for p in LIBRARY)
    assert any(p.engine_kind is EngineKind.TURBINE for p in LIBRARY)
    assert len(LIBRARY) >= 5
    assert len({p.name for p in LIBRARY}) == len(LIBRARY)


def test_s0_altitude_explained_tempest_climbs_to_top_with_a_test():
    """S0 §Altitude explained: "Tempest can climb to Top, but will require additional test"."""
    assert "Tempest" in TEMPEST.name
    assert TEMPEST.ceiling is Echelon.TOP
    assert Echelon.TOP in TEMPEST.test_echelons


@pytest.mark.parametrize("profile", LIBRARY, ids=lambda p: p.name)
def test_r9_only_up_to_attack_aircraft_fly_figures(profile):
    """R-9: aerobatic figures only for aircraft no larger than an attack aircraft:
    every profile asserts it (a figure box implies a figure class)."""
    boxes = profile.loop or profile.immelmann or profile.roll
    assert not boxes or profile.aircraft_class in FIGURE_CLASSES, profile.name


def test_r9_library_has_aircraft_on_both_sides_of_the_figure_rule():
    """R-9: the parametrized check above meets both kinds of profile."""
    assert any(p.aircraft_class in FIGURE_CLASSES and p.loop for p in LIBRARY)
    assert any(p.aircraft_class not in FIGURE_CLASSES for p in LIBRARY)
    assert all(not (p.loop or p.immelmann or p.roll)
               for p in LIBRARY if p.aircraft_class not in FIGURE_CLASSES)


@pytest.mark.parametrize("profile", LIBRARY, ids=lambda p: p.name)
def test_r10_landing_speed_and_takeoff_run_follow_the_tables(profile):
    """R-10: max landing speed 3/6/4 by 1/2/4 engines; take-off 4 hexes for a
    fighter, 6 for a heavy fighter or attack aircraft."""
    assert profile.landing_speed <= {1: 3, 2: 6, 4: 4}[profile.engines]
    minimum = {AircraftClass.FIGHTER: 4, AircraftClass.HEAVY_FIGHTER: 6,
               AircraftClass.ATTACK: 6}.get(profile.aircraft_class, 6)
    assert profile.takeoff_run >= minimum


@pytest.mark.parametrize("profile", LIBRARY, ids=lambda p: p.name)
def test_s0_flight_card_every_dial_has_ahead_and_turns_and_marks_stress(profile):
    kinds = {m.kind for m in profile.manoeuvres}
    assert kinds == set(ManoeuvreKind)
    assert any(m.stressful for m in profile.manoeuvres)


def test_r3_6_water_methanol_profile_has_uses_and_altitude_limit():
    wm = [p for p in LIBRARY if p.wm_thrust is not None]
    assert wm, "at least one profile shows water-methanol"
    for p in wm:
        assert p.wm_uses >= 1 and p.wm_altitude_limit is not None


def test_r3_5_afterburner_exceeds_plain_thrust_where_fitted():
    fitted = [p for p in LIBRARY if p.afterburner_thrust is not None]
    assert fitted and all(p.afterburner_thrust > p.thrust for p in fitted)  # type: ignore[operator]


def test_by_name_is_case_insensitive_and_raises_for_unknown():
    assert by_name("hawker tempest v") is TEMPEST
    with pytest.raises(KeyError):
        by_name("Sopwith Camel")


# --- notation -------------------------------------------------------------

def test_s0_flight_card_dial_notation_reads_stressful_marker():
    dial, errors = parse_dial("A1 t2, !H1")
    assert errors == []
    assert dial == (Manoeuvre(ManoeuvreKind.AHEAD, 1), Manoeuvre(ManoeuvreKind.TURN, 2),
                    Manoeuvre(ManoeuvreKind.HARD_TURN, 1, stressful=True))


def test_dial_notation_names_the_bad_token():
    _, errors = parse_dial("A1 X3 !H")
    assert [e.field for e in errors] == ["manoeuvres", "manoeuvres"]
    assert "'X3'" in errors[0].message and "'!H'" in errors[1].message


def test_s0_flight_card_dial_speed_above_move_is_refused():
    dial, _ = parse_dial("A1 A9")
    errors = validate_manoeuvres(dial, move=8)
    assert len(errors) == 1 and "1–8" in errors[0].message


def test_dial_duplicate_is_refused():
    dial, _ = parse_dial("T2 !T2")
    assert any("listed twice" in e.message for e in validate_manoeuvres(dial, 8))


def test_r3_4_turn_mode_notation_reads_bands():
    bands, errors = parse_turn_mode("1:1 4:2 7:3")
    assert errors == [] and bands == (TurnBand(1, 1), TurnBand(4, 2), TurnBand(7, 3))


def test_r3_4_turn_mode_notation_refuses_garbage_and_empty():
    assert parse_turn_mode("1-1")[1][0].message.startswith("'1-1' is not a band")
    assert parse_turn_mode("  ")[1][0].message == "the turn-mode table is empty"


manoeuvres = st.builds(Manoeuvre, st.sampled_from(list(ManoeuvreKind)),
                       st.integers(1, 12), st.booleans())


@settings(max_examples=scaled(200), deadline=None)
@given(st.lists(manoeuvres, max_size=15).map(tuple))
def test_dial_notation_round_trips(dial):
    assert parse_dial(format_dial(dial)) == (dial, [])


@settings(max_examples=scaled(200), deadline=None)
@given(st.lists(st.tuples(st.integers(1, 12), st.integers(1, 9)), min_size=1, max_size=6))
def test_turn_mode_notation_round_trips(pairs):
    bands = tuple(TurnBand(s, h) for s, h in pairs)
    assert parse_turn_mode(format_turn_mode(bands)) == (bands, [])
