"""The table registry (``store/tables.py``) is the one list of a campaign
file's tables: every table of the migrated schema is in it once, with its
``…Row`` class, and the export document's parts are its parts, in its order."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from sqlmodel import SQLModel

from ka_tui.store import schema_doc, tables
from ka_tui.store.db import open_campaign
from ka_tui.store.transfer import campaign_document


def _schema_tables(path: Path) -> set[str]:
    con = sqlite3.connect(path)
    try:
        rows = con.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                           "AND name NOT LIKE 'sqlite_%'").fetchall()
    finally:
        con.close()
    return {r[0] for r in rows}


def test_every_table_of_the_schema_is_in_the_registry_once(db_path: Path) -> None:
    names = [t.name for t in tables.TABLES]
    assert len(names) == len(set(names))
    assert set(names) == _schema_tables(db_path)


def test_each_registered_row_class_is_its_table(db_path: Path) -> None:
    for t in tables.TABLES:
        if t.row:
            assert tables.model_of(t).__tablename__ == t.name, t.name  # type: ignore[attr-defined]
            assert t.row.endswith("Row"), t.row
    with_class = {t.name for t in tables.TABLES if t.row}
    assert with_class == set(SQLModel.metadata.tables)


def test_a_table_left_out_of_the_document_says_why() -> None:
    for t in tables.TABLES:
        assert bool(t.part) == bool(t.how), t.name
        if not t.part:
            assert t.note, t.name
        if t.parent:
            parent = tables.table(t.parent)
            assert (parent.part, tables.TABLES.index(parent) < tables.TABLES.index(t)) == (
                t.part, True), t.name


def test_the_export_has_the_registry_s_parts_in_order(demo_db: Path) -> None:
    from ka_tui.store.roll_log import RollEntry, append_roll

    from tests.store.test_transfer import store_fight_and_battle

    with open_campaign(demo_db) as db:
        store_fight_and_battle(db)
        append_roll(db, RollEntry("Ann", "Piloting", "2d10", ((10, 3), (10, 9)), "pass"))
        doc = campaign_document(db)
    assert list(doc) == ["format", "schema_version", *tables.parts()]
    assert list(schema_doc.Document.model_fields) == list(doc)
    for t in tables.row_tables():   # every rows table has rows here, where it says
        rows = doc[t.part]
        assert (rows if not t.parent else [r for parent in rows for r in parent[t.key]]), t.name
    json.dumps(doc)  # plain JSON values only
