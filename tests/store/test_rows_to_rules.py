"""Stored rows as rules objects (``store/rows_to_rules.py``): one mapping between
aircraft rows and ``AircraftProfile`` (RULES-NOTES C), one reading of a skill
row (S0 §Skills) for the fights and the roller alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ka_tui.rules.air.units import Damage
from ka_tui.rules.air.aircraft import AircraftProfile, Echelon, Manoeuvre, ManoeuvreKind, Trait
from ka_tui.rules.air.profiles import library
from ka_tui.store import roster
from ka_tui.store.rows_to_rules import (
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


# ------------------------------------------------------------------ skills

SKILL_ROWS = [
    {"id": 1, "name": "Close Combat", "kind": "active", "number": 5, "level": "T",
     "upgrades": 1, "legendary": False},
    {"id": 2, "name": "Tactics", "kind": "lore", "number": 3, "level": None, "upgrades": 0,
     "legendary": False},
    {"id": 3, "name": "Brawl", "kind": "passive", "number": 2, "level": "E", "upgrades": 2,
     "legendary": False},
    {"id": 4, "name": "Weapons", "kind": "base", "number": 4, "level": "M", "upgrades": 1,
     "legendary": False},
]


def test_s0_skills_a_base_skill_row_is_one_d12_without_a_level() -> None:
    """S0 §Skills: "As a rule test using Base skill are rolled using one d12".
    A Base (or Passive) row reads as a skill with no level and no upgrades,
    whatever its columns hold (the close-combat converter used to give this
    one level M: a Base skill with a level, which the rules' own check refuses)."""
    from ka_tui.rules.core.skills import Level, SkillKind, pool_of, skill_errors
    from ka_tui.store.rows_to_rules import skill_of

    base = skill_of(SKILL_ROWS[3])
    assert (base.kind, base.level, base.upgrades, pool_of(base)) == (SkillKind.BASE, None, 0,
                                                                     (12,))
    assert skill_errors(base) == []
    passive = skill_of(SKILL_ROWS[2])
    assert (passive.level, passive.upgrades, pool_of(passive)) == (None, 0, (12,))
    assert skill_of(SKILL_ROWS[1]).level is Level.BASIC  # none stored: B
    assert skill_of(SKILL_ROWS[0]).level is Level.TRAINED


def test_a_fight_and_the_roller_read_a_skill_row_alike() -> None:
    """One skill converter: the roller's choices (``rules/core/roll_choices``)
    and a fighter's Close Combat (``fighter_of``) read each row as ``skill_of``."""
    from ka_tui.rules.core.options import HouseRules
    from ka_tui.rules.core.roll_choices import character_of_row
    from ka_tui.rules.core.skills import pool_of
    from ka_tui.store.rows_to_rules import fighter_of, skill_of

    character = {"id": 7, "name": "Ann", "strength": 3, "agility": 4, "endurance": 3,
                 "resistance": 3, "armour": 0, "ap": 6, "k_points": 10, "conscious": True,
                 "base_weapons": 4, "base_tech": 3, "base_survival": 3,
                 "base_communication": 3, "base_psy": 3, "piloting": 6, "gunnery": 6}
    roller = character_of_row(character, SKILL_ROWS)
    chosen = [roller.choice(f"skill:{r['id']}") for r in SKILL_ROWS]
    assert [c.skill if c else None for c in chosen] == [skill_of(r) for r in SKILL_ROWS]
    fighter = fighter_of(character, SKILL_ROWS, [], HouseRules()).fighter
    assert (fighter.cc_number, fighter.cc_pool) == (5, pool_of(skill_of(SKILL_ROWS[0])))
