"""The demo campaign: something for every screen, the same every time."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ka_tui.rules.air.aircraft import AircraftClass
from ka_tui.store import roster
from ka_tui.store.rows_to_rules import to_profile
from ka_tui.store.db import open_campaign
from ka_tui.store.demo import DEMO_AT, create_demo
from ka_tui.store.limits import LEVELS, ROLES, SKILL_KINDS
from ka_tui.store.transfer import campaign_document


def test_demo_covers_roles_skill_levels_kinds_and_weapons(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        people = roster.list_characters(db)
        skills = [s for c in people for s in roster.list_skills(db, c.id or 0)]
        weapons = [w for c in people for w in roster.list_weapons(db, c.id or 0)]
    assert {c.role for c in people} == set(ROLES)
    assert {s.level for s in skills} == set(LEVELS)          # S0 §Skills B T E M L
    assert {s.kind for s in skills} == set(SKILL_KINDS)
    assert any(s.upgrades for s in skills) and any(s.legendary for s in skills)
    assert {w.is_firearm for w in weapons} == {True, False}
    assert any(c.wounds for c in people)


def test_demo_aircraft_cover_the_classes_and_include_the_tempest(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        planes = roster.list_aircraft(db)
        profiles = [to_profile(p) for p in planes]
        crews = {p.name: roster.crew_of(db, p.id or 0) for p in planes}
    classes = {p.aircraft_class for p in profiles}
    assert {AircraftClass.FIGHTER, AircraftClass.HEAVY_FIGHTER, AircraftClass.ATTACK,
            AircraftClass.BOMBER} <= classes
    assert any(p.engines == 1 and p.aircraft_class is AircraftClass.FIGHTER for p in profiles)
    assert any(p.engines == 2 and p.aircraft_class is AircraftClass.BOMBER for p in profiles)
    assert any("Tempest" in p.name for p in planes)          # S0 §Altitude explained
    assert any(p.pilot_id for p in planes) and any(crews.values())
    assert any(p.hull_hits for p in planes)


def test_demo_is_deterministic(tmp_path: Path, demo_db: Path) -> None:
    with create_demo(tmp_path / "again.db") as again, open_campaign(demo_db) as first:
        assert campaign_document(again) == campaign_document(first)


def test_demo_holds_no_clock_values(demo_db: Path) -> None:
    con = sqlite3.connect(demo_db)
    try:
        counts = [con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                  for t in ("roll_log", "fight")]
        # the demo's battle in progress carries one fixed time stamp
        stamps = {r[0] for t in ("battle", "battle_event")
                  for r in con.execute(f"SELECT created_at FROM {t}")}
    finally:
        con.close()
    assert counts == [0, 0]
    assert stamps == {DEMO_AT}
