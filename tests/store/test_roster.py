"""The roster service: one transaction per call, field-level ValidationError
raised before anything is written (S0 §Skills, RULES-NOTES A/B, R-5)."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from ka_tui.rules.air.profiles import BEAUFIGHTER, MITCHELL, TEMPEST
from ka_tui.store import field_checks as checks
from ka_tui.store import roster
from ka_tui.store.db import CampaignDB, open_campaign
from ka_tui.store.errors import NotFound, ValidationError
from ka_tui.store.limits import LEVELS, MAX_UPGRADES


@pytest.fixture
def db(db_path: Path) -> Iterator[CampaignDB]:
    handle = open_campaign(db_path)
    yield handle
    handle.close()


def _count(db: CampaignDB, table: str) -> int:
    con = sqlite3.connect(db.path)
    try:
        return int(con.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    finally:
        con.close()


def _errors(fn, *args, **kwargs) -> ValidationError:
    with pytest.raises(ValidationError) as err:
        fn(*args, **kwargs)
    return err.value


# ---------------------------------------------------------------- characters

def test_add_and_read_back_a_character(db: CampaignDB) -> None:
    ann = roster.add_character(db, name="  Ann Hale ", role="pilot", piloting=4, k_points=9)
    assert ann.id is not None and ann.name == "Ann Hale"
    con = sqlite3.connect(db.path)
    row = con.execute("SELECT name, role, piloting, k_points, ap, conscious FROM character"
                      ).fetchone()
    con.close()
    assert row == ("Ann Hale", "pilot", 4, 9, 6, 1)  # RULES-NOTES B: default AP 6


def test_names_are_unique_per_campaign_ignoring_case(db: CampaignDB) -> None:
    roster.add_character(db, name="Ann", role="pilot")
    err = _errors(roster.add_character, db, name="ANN", role="crew")
    assert err.field == "name"
    assert _count(db, "character") == 1


@pytest.mark.parametrize("field, value", [
    ("wounds", 7), ("wounds", -1), ("strength", 13), ("piloting", 1), ("ap", 31),
    ("k_points", 11), ("role", "admiral"), ("name", "  "), ("agility", "5"), ("conscious", 1),
])
def test_a_bad_character_field_is_named_and_nothing_written(
        db: CampaignDB, field: str, value: object) -> None:
    before = hashlib.sha256(db.path.read_bytes()).hexdigest()
    err = _errors(roster.add_character, db, **{"name": "Ann", "role": "pilot", field: value})
    assert err.field == field
    assert _count(db, "character") == 0
    assert hashlib.sha256(db.path.read_bytes()).hexdigest() == before


def test_unknown_fields_are_refused(db: CampaignDB) -> None:
    assert _errors(roster.add_character, db, name="A", role="pilot", charisma=5).field == "charisma"


def test_r5_six_wounds_is_death_and_leaves_him_unconscious(db: CampaignDB) -> None:
    ann = roster.add_character(db, name="Ann", role="pilot")
    assert ann.id is not None
    dead = roster.update_character(db, ann.id, wounds=6)
    assert (dead.wounds, dead.conscious) == (6, False)


def test_update_checks_against_the_merged_row(db: CampaignDB) -> None:
    ann = roster.add_character(db, name="Ann", role="pilot", k_points=10, k_points_max=10)
    assert ann.id is not None
    err = _errors(roster.update_character, db, ann.id, k_points_max=5)
    assert err.field == "k_points"
    assert roster.get_character(db, ann.id).k_points_max == 10


def test_delete_cascades_to_skills_weapons_and_unseats_the_pilot(db: CampaignDB) -> None:
    ann = roster.add_character(db, name="Ann", role="pilot")
    assert ann.id is not None
    roster.add_skill(db, ann.id, name="Piloting", kind="active", number=5, level="T")
    roster.add_weapon(db, ann.id, name="Knife", damage=2)
    plane = roster.add_aircraft(db, TEMPEST, pilot_id=ann.id)
    assert plane.id is not None
    roster.delete_character(db, ann.id)
    assert (_count(db, "skill"), _count(db, "weapon")) == (0, 0)
    assert roster.get_aircraft(db, plane.id).pilot_id is None
    with pytest.raises(NotFound):
        roster.get_character(db, ann.id)


def test_duplicate_copies_skills_and_weapons_with_a_free_name(db: CampaignDB) -> None:
    ann = roster.add_character(db, name="Ann", role="pilot")
    assert ann.id is not None
    roster.add_skill(db, ann.id, name="Piloting", kind="active", number=5, level="M", upgrades=1)
    roster.add_weapon(db, ann.id, name="Pistol", damage=3, is_firearm=True, quick_slot=1)
    one = roster.duplicate_character(db, ann.id)
    two = roster.duplicate_character(db, ann.id)
    assert (one.name, two.name) == ("Ann (copy)", "Ann (copy 2)")
    assert one.id is not None
    assert [(s.name, s.level, s.upgrades) for s in roster.list_skills(db, one.id)] == [
        ("Piloting", "M", 1)]
    assert [(w.name, w.quick_slot) for w in roster.list_weapons(db, one.id)] == [("Pistol", 1)]


def test_list_characters_sorted_and_filtered_by_role(db: CampaignDB) -> None:
    for name, role in (("bob", "crew"), ("Ann", "pilot"), ("Cid", "pilot")):
        roster.add_character(db, name=name, role=role)
    assert [c.name for c in roster.list_characters(db)] == ["Ann", "bob", "Cid"]
    assert [c.name for c in roster.list_characters(db, role="pilot")] == ["Ann", "Cid"]


# -------------------------------------------------------------------- skills

@pytest.fixture
def ann(db: CampaignDB) -> int:
    row = roster.add_character(db, name="Ann", role="pilot")
    assert row.id is not None
    return row.id


def test_rules_notes_a_upgrade_bounds_agree_in_checks_service_and_db(
        db: CampaignDB, ann: int) -> None:
    """B ≤1, T ≤2, E ≤1, M ≤1, L ≤4: every level × count, form check = service = DB."""
    for level in LEVELS:
        for upgrades in range(-1, 7):
            values = dict(name=f"S{level}{upgrades}", kind="active", number=5, level=level,
                          upgrades=upgrades, legendary=level == "L")
            allowed = 0 <= upgrades <= MAX_UPGRADES[level]
            assert (checks.skill_errors(values) == []) == allowed, (level, upgrades)
            if allowed:
                roster.add_skill(db, ann, **values)
            else:
                assert _errors(roster.add_skill, db, ann, **values).field == "upgrades"
    assert _count(db, "skill") == sum(n + 1 for n in MAX_UPGRADES.values())


def test_s0_legendary_flag_follows_level_l(db: CampaignDB, ann: int) -> None:
    sk = roster.add_skill(db, ann, name="Piloting", kind="active", number=7, level="L")
    assert sk.legendary is True and sk.id is not None
    assert roster.update_skill(db, sk.id, level="M").legendary is False
    err = _errors(roster.add_skill, db, ann, name="Gunnery", kind="active", number=5,
                  level="E", legendary=True)
    assert err.field == "legendary"


def test_lowering_a_level_below_its_upgrades_is_refused(db: CampaignDB, ann: int) -> None:
    sk = roster.add_skill(db, ann, name="Rifles", kind="active", number=5, level="T", upgrades=2)
    assert sk.id is not None
    assert _errors(roster.update_skill, db, sk.id, level="E").field == "upgrades"
    assert roster.get_skill(db, sk.id).level == "T"


def test_skill_names_unique_per_character_only(db: CampaignDB, ann: int) -> None:
    bob = roster.add_character(db, name="Bob", role="crew")
    assert bob.id is not None
    roster.add_skill(db, ann, name="Radio", kind="active", number=3)
    roster.add_skill(db, bob.id, name="Radio", kind="active", number=3)
    assert _errors(roster.add_skill, db, ann, name="radio", kind="lore", number=3).field == "name"


def test_a_skill_for_a_missing_character_is_not_found(db: CampaignDB) -> None:
    with pytest.raises(NotFound):
        roster.add_skill(db, 99, name="Radio", kind="active", number=3)


# ------------------------------------------------------------------- weapons

def test_a_quick_slot_holds_one_weapon(db: CampaignDB, ann: int) -> None:
    roster.add_weapon(db, ann, name="Knife", damage=2, quick_slot=1)
    err = _errors(roster.add_weapon, db, ann, name="Pistol", damage=3, quick_slot=1)
    assert (err.field, "Knife" in err.message) == ("quick_slot", True)
    assert _errors(roster.add_weapon, db, ann, name="Rifle", quick_slot=5).field == "quick_slot"
    copy = roster.duplicate_weapon(db, roster.list_weapons(db, ann)[0].id or 0)
    assert (copy.name, copy.quick_slot) == ("Knife (copy)", None)


# ------------------------------------------------------------------ aircraft

def test_add_aircraft_from_a_profile_starts_full(db: CampaignDB) -> None:
    row = roster.add_aircraft(db, TEMPEST, name="Tempest KA-A")
    assert (row.fuel_left, row.ammo_left, row.hull_hits) == (TEMPEST.fuel, TEMPEST.ammo, 0)
    assert row.id is not None
    assert roster.aircraft_profile(db, row.id) == TEMPEST.__class__(
        **{**TEMPEST.__dict__, "name": "Tempest KA-A"})


def test_aircraft_rules_errors_name_the_field(db: CampaignDB) -> None:
    assert _errors(roster.add_aircraft, db, TEMPEST, dive_max=5).field == "dive_max"
    assert _errors(roster.add_aircraft, db, TEMPEST, engines=3).field == "engines"
    assert _errors(roster.add_aircraft, db, TEMPEST, afterburner_thrust=2).field == \
        "afterburner_thrust"
    assert _errors(roster.add_aircraft, db, TEMPEST, hull_hits=9).field == "hull_hits"
    assert _count(db, "aircraft") == 0


def test_a_smaller_tank_clamps_fuel_left(db: CampaignDB) -> None:
    row = roster.add_aircraft(db, TEMPEST)
    assert row.id is not None
    assert roster.update_aircraft(db, row.id, fuel=5).fuel_left == 5


def test_pilot_and_crew_seats(db: CampaignDB, ann: int) -> None:
    bob = roster.add_character(db, name="Bob", role="crew").id
    cid = roster.add_character(db, name="Cid", role="crew").id
    assert bob is not None and cid is not None
    bomber = roster.add_aircraft(db, MITCHELL).id
    heavy = roster.add_aircraft(db, BEAUFIGHTER).id
    assert bomber is not None and heavy is not None
    roster.assign_pilot(db, bomber, ann)
    assert [c.name for c in roster.set_crew(db, bomber, [cid, bob])] == ["Bob", "Cid"]
    assert _errors(roster.assign_pilot, db, heavy, ann).field == "pilot_id"
    assert _errors(roster.set_crew, db, heavy, [bob]).field == "crew"
    assert _errors(roster.set_crew, db, bomber, [ann]).field == "crew"
    roster.set_crew(db, heavy, [bob], move=True)
    assert [c.name for c in roster.crew_of(db, bomber)] == ["Cid"]
    roster.assign_pilot(db, heavy, cid, move=True)
    assert roster.crew_of(db, bomber) == []
    assert roster.aircraft_of(db, cid)[1] == "pilot"
    roster.assign_pilot(db, bomber, None)
    assert roster.pilot_of(db, bomber) is None


def test_duplicate_aircraft_has_no_pilot(db: CampaignDB, ann: int) -> None:
    row = roster.add_aircraft(db, TEMPEST, pilot_id=ann)
    assert row.id is not None
    copy = roster.duplicate_aircraft(db, row.id)
    assert (copy.name, copy.pilot_id) == (f"{TEMPEST.name} (copy)", None)
