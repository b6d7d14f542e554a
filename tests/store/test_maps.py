"""Battle maps saved in the campaign: the text format of
rules/air/battle_map.py (R-6.1 heights, R-10 strips and carriers), saved and
reused, imported and exported; a bad line refused with line and column and
nothing saved. Real SQLite files in tmp_path."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ka_tui.rules.air.battle_map import Surface, parse_map
from ka_tui.rules.air.hexgrid import Hex
from ka_tui.store import maps
from ka_tui.store.db import open_campaign
from ka_tui.store.errors import StoreError, ValidationError

GOOD = """\
. . 2 . .
~ ~ f1 . .
. . . . .
strip Home 0,2 N 3 1 prepared
"""


def _count(path: Path) -> int:
    con = sqlite3.connect(path)
    try:
        return int(con.execute("SELECT count(*) FROM battle_map").fetchone()[0])
    finally:
        con.close()


def test_a_map_is_saved_and_read_back_as_the_same_map_r6_1_r10(db_path: Path) -> None:
    with open_campaign(db_path) as db:
        saved = maps.save_map(db, "Coast", GOOD, notes="a hill")
        again = maps.get_map(db, saved.id)
        listed = maps.list_maps(db)
        by_name = maps.map_by_name(db, "coast")          # names ignore case
    assert again.text == GOOD and again.battle_map == parse_map(GOOD)
    assert again.battle_map.height(Hex.from_offset(2, 0)) == 2      # height
    assert again.battle_map.terrain_at(Hex.from_offset(0, 2)).surface is Surface.PREPARED
    assert [(m.name, m.cols, m.rows, m.notes) for m in listed] == [("Coast", 5, 3, "a hill")]
    assert by_name is not None and by_name.id == saved.id


def test_a_map_can_be_renamed_and_edited_and_names_are_unique(db_path: Path) -> None:
    with open_campaign(db_path) as db:
        first = maps.save_map(db, "Coast", GOOD)
        maps.save_map(db, "Hills", ". 3 .\n")
        edited = maps.save_map(db, "Coast 2", ". . .\n", map_id=first.id)
        with pytest.raises(ValidationError) as err:
            maps.save_map(db, "hills", ". .\n")
        assert err.value.field == "name"
        assert [m.name for m in maps.list_maps(db)] == ["Coast 2", "Hills"]
        assert maps.get_map(db, first.id).text == ". . .\n" == edited.text
        maps.delete_map(db, first.id)
        assert [m.name for m in maps.list_maps(db)] == ["Hills"]


@pytest.mark.parametrize("text, line, column", [
    (". . .\n. x .\n", 2, 3),                                   # an unknown terrain cell
    (". . .\n\n.  .  f1 q2\n", 3, 10),                          # blank lines still count
    (". . .\nstrip Home 0,0 UP 3 1\n", 2, 16),                  # not a facing
    (". . .\nstrip Home 9,9 N 3 1\n", 2, 0),                     # starts off the map
])
def test_a_bad_line_is_refused_with_line_and_column_and_nothing_saved(
        db_path: Path, text: str, line: int, column: int) -> None:
    with open_campaign(db_path) as db:
        with pytest.raises(maps.MapTextError) as err:
            maps.save_map(db, "Bad", text)
    assert (err.value.line, err.value.column) == (line, column)
    assert err.value.field == "text" and f"line {line}" in str(err.value)
    assert _count(db_path) == 0


def test_an_empty_map_is_refused(db_path: Path) -> None:
    with open_campaign(db_path) as db, pytest.raises(maps.MapTextError, match="one row"):
        maps.save_map(db, "Empty", "# only a comment\n")
    assert _count(db_path) == 0


def test_import_and_export_a_map_file(db_path: Path, tmp_path: Path) -> None:
    src = tmp_path / "channel.map"
    src.write_text(GOOD, encoding="utf-8")
    out = tmp_path / "out.map"
    with open_campaign(db_path) as db:
        saved = maps.import_map_file(db, src)
        assert saved.name == "channel"
        maps.export_map_file(db, saved.id, out)
        with pytest.raises(StoreError, match="already exists"):
            maps.export_map_file(db, saved.id, out)
        with pytest.raises(ValidationError):      # the name is taken …
            maps.import_map_file(db, src)
        src.write_text(". . .\n", encoding="utf-8")
        replaced = maps.import_map_file(db, src, replace=True)   # … unless replaced
    assert out.read_text(encoding="utf-8") == GOOD
    assert replaced.id == saved.id and replaced.battle_map.cols == 3
    assert _count(db_path) == 1


def test_importing_a_file_with_a_bad_line_saves_nothing(db_path: Path, tmp_path: Path) -> None:
    src = tmp_path / "bad.map"
    src.write_text(". . .\n. . .\ncarrier Ark 1,1 UP 4 1\n", encoding="utf-8")
    with open_campaign(db_path) as db, pytest.raises(maps.MapTextError) as err:
        maps.import_map_file(db, src)
    assert err.value.line == 3 and err.value.column == 17
    assert _count(db_path) == 0


def test_an_unreadable_file_is_a_message_not_a_traceback(db_path: Path, tmp_path: Path) -> None:
    binary = tmp_path / "x.map"
    binary.write_bytes(b"\xff\xfe\x00")
    with open_campaign(db_path) as db:
        with pytest.raises(StoreError, match="not a text file"):
            maps.import_map_file(db, binary)
        with pytest.raises(StoreError, match="cannot be read"):
            maps.import_map_file(db, tmp_path / "missing.map")


def test_a_schema_2_campaign_migrates_to_the_maps_table_keeping_its_rows(tmp_path: Path) -> None:
    """The maps table comes by migration, after a backup of the v2 file; the
    file made by the previous schema keeps its roster and battles."""
    from ka_tui.store import roster
    from ka_tui.store.db import create_campaign
    from ka_tui.store.migrations import SCHEMA_VERSION

    old = tmp_path / "old.db"
    with create_campaign(old, "Old", schema=2) as db:
        roster.add_character(db, name="Hale", role="pilot")
    assert SCHEMA_VERSION >= 3   # later migrations append
    with open_campaign(old) as db:
        saved = maps.save_map(db, "Coast", GOOD)
        assert [c.name for c in roster.list_characters(db)] == ["Hale"]
        assert maps.get_map(db, saved.id).text == GOOD
    backups = list((tmp_path / "backups" / "old").glob("*-before-upgrade-from-v2.db"))
    assert len(backups) == 1


def test_campaign_export_and_import_keep_the_saved_maps(demo_db: Path, tmp_path: Path) -> None:
    from ka_tui.store.demo import DEMO_MAP, DEMO_MAP_NAME
    from ka_tui.store.transfer import export_campaign, import_campaign

    out = tmp_path / "demo.json"
    with open_campaign(demo_db) as db:
        export_campaign(db, out)
    imported = import_campaign(out, tmp_path / "copy.db")
    with imported.db as db:
        [info] = maps.list_maps(db)
        assert info.name == DEMO_MAP_NAME and maps.get_map(db, info.id).text == DEMO_MAP


def test_an_import_with_a_bad_map_names_it_and_writes_nothing(demo_db: Path,
                                                              tmp_path: Path) -> None:
    import json

    from ka_tui.store.transfer import export_campaign, import_campaign

    out = tmp_path / "demo.json"
    with open_campaign(demo_db) as db:
        export_campaign(db, out)
    doc = json.loads(out.read_text(encoding="utf-8"))
    doc["maps"].append({"name": "Broken", "text": ". . .\n. x .\n"})
    out.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ValidationError) as err:
        import_campaign(out, tmp_path / "copy.db")
    assert err.value.field == "maps[1].text" and "line 2" in err.value.message
    assert not (tmp_path / "copy.db").exists()
