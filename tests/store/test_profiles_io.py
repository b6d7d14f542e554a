"""Profile files: export, and an import checked like the campaign import."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from ka_tui.rules.air.aircraft import Echelon
from ka_tui.rules.air.profiles import BF109, LANCASTER, LIBRARY, TEMPEST
from ka_tui.store import roster
from ka_tui.store.db import open_campaign
from ka_tui.store.errors import StoreError
from ka_tui.store.profiles_io import (
    FORMAT,
    MAX_BYTES,
    ProfileFileError,
    dumps_profiles,
    export_profiles,
    free_name,
    import_profiles,
    loads_profiles,
    profile_to_data,
    read_profiles,
)


def _doc(*profiles: dict) -> str:
    return json.dumps({"format": FORMAT, "version": 1, "profiles": list(profiles)})


def test_library_round_trips_through_a_file(tmp_path: Path):
    path = export_profiles(LIBRARY, tmp_path / "lib.json")
    assert read_profiles(path) == list(LIBRARY)
    assert [p.name for p in tmp_path.iterdir()] == ["lib.json"]  # no temp file left


def test_file_uses_the_form_notation_for_dial_and_turn_mode():
    data = profile_to_data(TEMPEST)
    assert data["manoeuvres"].startswith("A1 A2") and "!H1" in data["manoeuvres"]
    assert data["turn_mode"] == "1:1 4:2 7:3 10:4"
    assert data["ceiling"] == "top" and data["test_echelons"] == ["top"]
    assert data["traits"] == {"critical": 1, "robust": 1}


def test_export_refuses_to_replace_a_file_unless_asked(tmp_path: Path):
    path = tmp_path / "t.json"
    path.write_text("keep me")
    with pytest.raises(StoreError, match="already exists"):
        export_profiles([TEMPEST], path)
    assert path.read_text() == "keep me"
    export_profiles([TEMPEST], path, overwrite=True)
    assert read_profiles(path) == [TEMPEST]


@pytest.mark.parametrize("text, message", [
    ("{not json", "not valid JSON at line 1, column 2"),
    ('{"format": "something else", "version": 1, "profiles": []}', "not a ka-tui profile file"),
    (json.dumps({"format": FORMAT, "version": 9, "profiles": []}), "version 9"),
    (json.dumps({"format": FORMAT, "version": 1, "profiles": []}), "holds no profiles"),
    (json.dumps({"format": FORMAT, "version": 1, "profiles": [], "x": 1}), "unknown top-level"),
])
def test_file_level_problems_are_refused_with_a_reason(text, message):
    with pytest.raises(ProfileFileError, match=message):
        loads_profiles(text)


def _bad(**changes) -> dict:
    data = profile_to_data(TEMPEST)
    data.update(changes)
    return data


@pytest.mark.parametrize("data, message", [
    (_bad(speed=3), "speed: is not a profile field"),
    (_bad(name=""), "name: a name is required"),
    (_bad(move="fast"), "move: must be a whole number"),
    (_bad(roll=1), "roll: must be true or false"),
    (_bad(aircraft_class="zeppelin"), "aircraft_class: 'zeppelin' is not one of"),
    (_bad(ceiling="space"), "ceiling: 'space' is not one of deck, hill"),
    (_bad(manoeuvres="A1 Z2"), "manoeuvres: 'Z2' is not a manoeuvre"),
    (_bad(turn_mode="1:1 4-2"), "turn_mode: '4-2' is not a band"),
    (_bad(turn_mode="1:2 4:1"), "turn_mode: hexes per facing change may not fall"),
    (_bad(traits={"sneaky": 1}), "traits: 'sneaky' is not one of"),
    (_bad(traits={"bulky": 2}), "traits: Bulky takes no dice count"),
    (_bad(move=15), "move: must be"),
    (_bad(dive_max=5), "dive_max: dive maximum must be between move"),
    (_bad(test_echelons=["edge"]), "test_echelons: an echelon that needs a test"),
    (_bad(engines=3), "engines"),
])
def test_each_profile_is_checked_with_the_store_and_rules_checks(data, message):
    """Same checks as a save (store ranges + rules.validate_profile), naming the field."""
    with pytest.raises(ProfileFileError) as info:
        loads_profiles(_doc(profile_to_data(LANCASTER), data))
    assert str(info.value).startswith("profile 2")
    assert message in str(info.value)


def test_missing_fields_take_the_profile_defaults():
    [p] = loads_profiles(_doc({"name": "Plain", "turn_mode": "1:1 4:2 7:3"}))
    assert p.name == "Plain" and p.ceiling is Echelon.MOUNTAIN and p.move == 8


def test_read_refuses_missing_big_and_binary_files(tmp_path: Path):
    with pytest.raises(ProfileFileError, match="does not exist"):
        read_profiles(tmp_path / "nope.json")
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_BYTES + 1))
    with pytest.raises(ProfileFileError, match="at most"):
        read_profiles(big)
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ProfileFileError, match="not UTF-8"):
        read_profiles(binary)


def test_import_adds_every_profile_with_free_names(db_path: Path, tmp_path: Path):
    path = export_profiles([TEMPEST, BF109, TEMPEST], tmp_path / "p.json")
    with open_campaign(db_path) as db:
        ids = import_profiles(db, path)
        rows = roster.list_aircraft(db)
        assert len(ids) == 3 and len(rows) == 3
        assert sorted(r.name for r in rows) == sorted(
            [TEMPEST.name, BF109.name, f"{TEMPEST.name} (2)"])
        assert roster.aircraft_profile(db, ids[1]) == BF109
        assert roster.get_aircraft(db, ids[0]).fuel_left == TEMPEST.fuel


def test_import_with_one_bad_profile_writes_nothing(db_path: Path, tmp_path: Path):
    path = tmp_path / "mixed.json"
    path.write_text(_doc(profile_to_data(TEMPEST), _bad(move=0)))
    with open_campaign(db_path) as db:
        with pytest.raises(ProfileFileError, match="profile 2"):
            import_profiles(db, path)
        assert roster.list_aircraft(db) == []


def test_free_name_counts_up_case_insensitively():
    assert free_name("Spit", set()) == "Spit"
    assert free_name("Spit", {"spit", "Spit (2)"}) == "Spit (3)"


def test_dumps_is_stable_text():
    assert dumps_profiles([TEMPEST]) == dumps_profiles([replace(TEMPEST)])
