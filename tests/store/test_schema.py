"""The SQLModel classes match the migrated schema, and every range in
``limits.py`` is a CHECK in the database too (constraints in the DB
as well as in the forms)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlmodel import SQLModel

import ka_tui.store.models  # noqa: F401 — registers the tables
from ka_tui.store.limits import MAX_UPGRADES, RANGES


def _columns(path: Path, table: str) -> dict[str, tuple[bool, bool]]:
    con = sqlite3.connect(path)
    try:
        rows = con.execute(f"PRAGMA table_info({table})").fetchall()
    finally:
        con.close()
    return {r[1]: (bool(r[3]), bool(r[5])) for r in rows}  # name: (notnull, pk)


def test_models_match_the_migrated_schema(db_path: Path) -> None:
    tables = SQLModel.metadata.tables
    assert set(tables) == {"ka_meta", "campaign", "character", "skill", "weapon", "aircraft",
                           "aircraft_crew", "roll_log", "fight", "fight_event", "battle",
                           "battle_event",
                           # the campaign between battles
                           "campaign_day", "mission", "mission_member", "mission_link",
                           "person_state", "repair", "journal", "journal_event",
                           # the table server's seats and connections
                           "player_key", "player_pass", "table_connection", "table_server",
                           "battle_draft"}
    for name, table in tables.items():
        in_db = _columns(db_path, name)
        assert set(in_db) == {c.name for c in table.columns}, name
        for col in table.columns:
            if not col.primary_key:
                assert in_db[col.name][0] == (not col.nullable), f"{name}.{col.name} nullability"


def test_foreign_keys_cascade_or_set_null_as_designed(db_path: Path) -> None:
    con = sqlite3.connect(db_path)
    try:
        fks = {(t, r[3]): r[6] for t in ("skill", "weapon", "aircraft", "aircraft_crew",
                                          "fight_event", "battle_event")
               for r in con.execute(f"PRAGMA foreign_key_list({t})")}
    finally:
        con.close()
    assert fks[("aircraft", "pilot_id")] == "SET NULL"
    assert all(v == "CASCADE" for k, v in fks.items() if k != ("aircraft", "pilot_id"))


_PARENT = {
    "character": ("INSERT INTO character (name, role) VALUES ('P', 'pilot')", "character"),
    "skill": ("INSERT INTO skill (character_id, name, kind, number, level, upgrades, legendary) "
              "VALUES (1, 'S', 'active', 3, 'L', 0, 1)", "skill"),
    "weapon": ("INSERT INTO weapon (character_id, name) VALUES (1, 'W')", "weapon"),
    "aircraft": ("INSERT INTO aircraft (name, fuel, fuel_left, ammo, ammo_left, hull, "
                 "afterburner_thrust, wm_thrust, wm_uses, wm_altitude_limit, move, dive_max) "
                 "VALUES ('A', 999, 0, 999, 0, 40, 30, 1, 1, 1, 1, 12)", "aircraft"),
}
# Values that must stay valid while one field is pushed to its bound.
_COMPANIONS = {
    ("character", "k_points"): "k_points_max = 99",
    ("character", "k_points_max"): "k_points = 0",
    ("character", "wounds"): "conscious = 0",
    ("aircraft", "thrust"): "afterburner_thrust = NULL",
    ("aircraft", "afterburner_thrust"): "thrust = 0",
    ("aircraft", "wm_uses"): "wm_thrust = NULL",
    ("aircraft", "move"): "dive_max = 12",
    ("aircraft", "dive_max"): "move = 1",
}


@pytest.mark.parametrize("table, field", [
    (t, f) for t, ranges in RANGES.items() for f in ranges])
def test_each_range_is_enforced_by_the_database(db_path: Path, table: str, field: str) -> None:
    lo, hi = RANGES[table][field]
    con = sqlite3.connect(db_path)
    con.execute("PRAGMA foreign_keys = ON")
    con.execute(_PARENT["character"][0])
    if table != "character":
        con.execute(_PARENT[table][0])
    companion = _COMPANIONS.get((table, field))
    if companion:
        con.execute(f"UPDATE {table} SET {companion}")
    if table == "skill" and field == "upgrades":
        hi = max(MAX_UPGRADES.values())
    for ok in (lo, hi):
        con.execute(f"UPDATE {table} SET {field} = ?", (ok,))
    for bad in (lo - 1, hi + 1):
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            con.execute(f"UPDATE {table} SET {field} = ?", (bad,))
    con.close()


@pytest.mark.parametrize("level, most", sorted(MAX_UPGRADES.items()))
def test_rules_notes_a_upgrade_bound_per_level_is_a_db_check(
        db_path: Path, level: str, most: int) -> None:
    con = sqlite3.connect(db_path)
    con.execute(_PARENT["character"][0])
    legendary = int(level == "L")
    sql = ("INSERT INTO skill (character_id, name, kind, number, level, upgrades, legendary) "
           "VALUES (1, ?, 'active', 3, ?, ?, ?)")
    con.execute(sql, ("ok", level, most, legendary))
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        con.execute(sql, ("too many", level, most + 1, legendary))
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        con.execute(sql, ("flag wrong", level, 0, 1 - legendary))
    con.close()


def test_events_are_append_only(db_path: Path) -> None:
    con = sqlite3.connect(db_path)
    con.execute("INSERT INTO fight (name) VALUES ('F')")
    con.execute("INSERT INTO fight_event (fight_id, seq, kind) VALUES (1, 1, 'round')")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        con.execute("UPDATE fight_event SET kind = 'edited'")
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        con.execute("INSERT INTO fight_event (fight_id, seq, kind) VALUES (1, 1, 'again')")
    con.close()
