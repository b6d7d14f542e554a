"""The roster's read half uses plain sqlite3 (fast first frame); these check it
agrees with the SQLModel models and the store's own reads."""

from __future__ import annotations

from pathlib import Path

from ka_tui.store import roster_reads as roster_data
from ka_tui.store import roster
from ka_tui.store.db import open_campaign
from ka_tui.store.models import AircraftRow, CharacterRow, SkillRow, WeaponRow


def test_bool_columns_match_the_models() -> None:
    for table, model in (("character", CharacterRow), ("skill", SkillRow), ("weapon", WeaponRow),
                         ("aircraft", AircraftRow)):
        bools = {name for name, f in model.model_fields.items() if f.annotation is bool}
        assert roster_data.BOOL_COLUMNS[table] == bools, table


def test_load_roster_matches_the_store_service(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        data = roster_data.load_roster(db)
        # the model fields as the store reads them; the rest are the roster's
        # own additions (seat, pilot name, open fight or battle)
        assert sorted(({k: c[k] for k in CharacterRow.model_fields} for c in data.characters),
                      key=lambda c: c["id"]) == sorted(
            (c.model_dump() for c in roster.list_characters(db)), key=lambda c: c["id"])
        for row in data.aircraft:
            plain = {k: row[k] for k in AircraftRow.model_fields}
            assert plain == roster.get_aircraft(db, row["id"]).model_dump()
        someone = data.characters[0]["id"]
        extra = roster_data.load_character_extra(db, someone)
        assert extra["skills"] == [s.model_dump() for s in roster.list_skills(db, someone)]
        assert extra["weapons"] == [w.model_dump() for w in roster.list_weapons(db, someone)]
