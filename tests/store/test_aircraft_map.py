"""One mapping between aircraft rows and ``AircraftProfile`` (RULES-NOTES C)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ka_tui.rules.air.units import Damage
from ka_tui.rules.air.aircraft import AircraftProfile, Echelon, Manoeuvre, ManoeuvreKind, Trait
from ka_tui.rules.air.profiles import library
from ka_tui.store import roster
from ka_tui.store.aircraft_rows import (
    airman_of,
    damage_columns,
    damage_of,
    from_profile,
    to_profile,
)
from ka_tui.store.db import open_campaign
from ka_tui.store.errors import ValidationError


@pytest.mark.parametrize("profile", library(), ids=lambda p: p.name)
def test_every_library_profile_survives_the_database(db_path: Path,
                                                     profile: AircraftProfile) -> None:
    assert to_profile(from_profile(profile)) == profile
    with open_campaign(db_path) as db:
        row = roster.add_aircraft(db, profile)
        assert row.id is not None
        assert roster.aircraft_profile(db, row.id) == profile


@settings(max_examples=60, deadline=None)
@given(
    manoeuvres=st.lists(st.builds(Manoeuvre, st.sampled_from(ManoeuvreKind),
                                  st.integers(1, 12), st.booleans()), max_size=8),
    echelons=st.frozensets(st.sampled_from(Echelon)),
    traits=st.lists(st.tuples(st.sampled_from(Trait), st.none() | st.integers(1, 6)),
                    max_size=4, unique_by=lambda t: t[0]),
)
def test_json_columns_round_trip(manoeuvres: list[Manoeuvre], echelons: frozenset[Echelon],
                                 traits: list[tuple[Trait, int | None]]) -> None:
    p = AircraftProfile("X", manoeuvres=tuple(manoeuvres), test_echelons=echelons,
                        traits=tuple(traits))
    assert to_profile(from_profile(p)) == p


@settings(max_examples=60, deadline=None)
@given(hits=st.integers(0, 40),
       effects=st.dictionaries(st.sampled_from(["engine", "cockpit", "fuel_tank"]),
                               st.integers(1, 5)),
       located=st.dictionaries(st.sampled_from(["left_wing", "fuselage", "engine"]),
                               st.integers(1, 5)))
def test_damage_round_trips_effects_and_where_hits_landed(
        hits: int, effects: dict[str, int], located: dict[str, int]) -> None:
    """air_state.Damage keeps effects in force apart from where hull hits landed (R-1.3)."""
    d = Damage(hits, tuple(sorted(effects.items())), tuple(sorted(located.items())))
    assert damage_of(damage_columns(d)) == d


def test_an_unreadable_column_is_named() -> None:
    row = from_profile(AircraftProfile("X")) | {"traits": '[["wings_of_steel", 1]]'}
    with pytest.raises(ValidationError) as err:
        to_profile(row)
    assert err.value.field == "traits"
    with pytest.raises(ValidationError) as err:
        to_profile(row | {"traits": "[", })
    assert err.value.field == "traits"


def test_airman_of_a_character_carries_r2_ratings_and_r5_wounds() -> None:
    man = airman_of({"name": "Ann", "piloting": 4, "gunnery": 5, "endurance": 3,
                     "wounds": 2, "conscious": False})
    assert (man.piloting, man.gunnery, man.wounds, man.conscious) == (4, 5, 2, False)
