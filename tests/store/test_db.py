"""Campaign files: creation, safety pragmas, refusal of foreign files, migrations,
concurrency and full-disk behaviour. Real SQLite files only."""

from __future__ import annotations

import hashlib
import sqlite3
import struct
import threading
from pathlib import Path

import pytest
from sqlalchemy import event, text

from ka_tui.store.db import (
    BUSY_TIMEOUT_MS,
    CampaignDB,
    check_file,
    create_campaign,
    open_campaign,
)
from ka_tui.store.errors import NewerSchema, NotACampaign, StoreError, ValidationError
from ka_tui.store.migrations import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
from ka_tui.store.models import CharacterRow


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _tables(path: Path) -> set[str]:
    con = sqlite3.connect(path)
    try:
        return {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        con.close()


# ------------------------------------------------------------------ create

def test_new_file_is_marked_as_ours_and_current(db_path: Path) -> None:
    head = db_path.read_bytes()[:100]
    assert head.startswith(b"SQLite format 3\x00")
    assert struct.unpack(">I", head[68:72])[0] == APPLICATION_ID
    con = sqlite3.connect(db_path)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        meta = dict(con.execute("SELECT key, value FROM ka_meta"))
        assert meta == {"app": "ka-tui", "schema_version": str(SCHEMA_VERSION)}
        assert con.execute("SELECT name, house_rules FROM campaign").fetchall() == [
            ("Test campaign", "{}")]
    finally:
        con.close()


def test_create_refuses_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    path.write_text("precious notes")
    with pytest.raises(StoreError, match="already exists"):
        create_campaign(path, "X")
    assert path.read_text() == "precious notes"


def test_failed_populate_leaves_nothing_behind(tmp_path: Path) -> None:
    def boom(db: CampaignDB) -> None:
        with db.transaction() as s:
            s.add(CharacterRow(name="Ann", role="pilot"))
        raise RuntimeError("half way")

    with pytest.raises(RuntimeError):
        create_campaign(tmp_path / "x.db", "X", populate=boom)
    assert list(tmp_path.iterdir()) == []


def test_connections_use_wal_foreign_keys_busy_timeout_and_full_sync(db_path: Path) -> None:
    with open_campaign(db_path) as db, db.read() as s:
        conn = s.connection()
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert conn.execute(text("PRAGMA busy_timeout")).scalar() == BUSY_TIMEOUT_MS
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL


# ------------------------------------------------------------ not ours

def _sqlite_of_another_app(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE notes (body TEXT)")
    con.execute("INSERT INTO notes VALUES ('shopping list')")
    con.commit()
    con.close()


@pytest.mark.parametrize("make, message", [
    (lambda p: p.write_text("Dear diary,\n" * 50), "not an SQLite database"),
    (lambda p: p.write_bytes(b""), "empty file"),
    (lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\x00" * 10), "not an SQLite database"),
    (_sqlite_of_another_app, "another application"),
])
def test_a_file_that_is_not_a_campaign_is_refused_and_unchanged(
        tmp_path: Path, make, message: str) -> None:
    path = tmp_path / "other.db"
    make(path)
    before = _digest(path)
    with pytest.raises(NotACampaign, match=message):
        open_campaign(path)
    assert _digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]


def test_a_truncated_campaign_is_refused_and_unchanged(tmp_path: Path, demo_db: Path) -> None:
    data = demo_db.read_bytes()
    path = tmp_path / "cut.db"
    path.write_bytes(data[: len(data) // 2 + 100])
    before = _digest(path)
    with pytest.raises(NotACampaign, match="truncated or damaged"):
        open_campaign(path)
    assert _digest(path) == before


@pytest.mark.parametrize("page_size", [0, 3, 700])
def test_a_campaign_header_with_a_bad_page_size_is_refused(
        tmp_path: Path, demo_db: Path, page_size: int) -> None:
    data = bytearray(demo_db.read_bytes())
    data[16:18] = struct.pack(">H", page_size)
    path = tmp_path / "bad.db"
    path.write_bytes(bytes(data))
    with pytest.raises(NotACampaign, match="page size"):
        open_campaign(path)
    assert path.read_bytes() == bytes(data)


def test_a_damaged_campaign_is_refused_and_unchanged(tmp_path: Path, demo_db: Path) -> None:
    data = bytearray(demo_db.read_bytes())
    page = struct.unpack(">H", data[16:18])[0]
    for i in range(2 * page, 4 * page):  # scribble over two b-tree pages
        data[i] = 0x5A
    path = tmp_path / "bad.db"
    path.write_bytes(bytes(data))
    before = _digest(path)
    with pytest.raises(NotACampaign):
        open_campaign(path)
    assert _digest(path) == before


def test_a_folder_or_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(NotACampaign, match="folder"):
        open_campaign(tmp_path)
    with pytest.raises(NotACampaign, match="does not exist"):
        open_campaign(tmp_path / "nope.db")


def test_a_file_from_a_newer_version_is_refused_with_both_versions(db_path: Path) -> None:
    con = sqlite3.connect(db_path)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    con.commit()
    con.close()
    before = _digest(db_path)
    with pytest.raises(NewerSchema) as err:
        open_campaign(db_path)
    assert f"version {SCHEMA_VERSION + 5}" in str(err.value)
    assert f"up to version {SCHEMA_VERSION}" in str(err.value)
    assert _digest(db_path) == before
    assert not list(db_path.parent.glob("*.bak-*"))
    assert not (db_path.parent / "backups").exists()


# -------------------------------------------------------------- migrations

def test_a_schema_1_file_upgrades_to_current_keeping_data_and_a_backup(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    create_campaign(path, "Old", schema=1).close()
    con = sqlite3.connect(path)
    con.execute("INSERT INTO character (name, role, wounds) VALUES ('Ann', 'pilot', 2)")
    con.commit()
    con.close()
    assert check_file(path).version == 1
    assert "fight_event" not in _tables(path)

    with open_campaign(path) as db, db.read() as s:
        ann = s.get(CharacterRow, 1)
        assert ann is not None and (ann.name, ann.wounds) == ("Ann", 2)

    assert check_file(path).version == SCHEMA_VERSION
    assert {"roll_log", "fight", "fight_event", "battle", "battle_event"} <= _tables(path)
    [backup] = (tmp_path / "backups" / "old").glob("*-before-upgrade-from-v1.db")
    assert check_file(backup).version == 1
    con = sqlite3.connect(backup)
    assert con.execute("SELECT name FROM character").fetchall() == [("Ann",)]
    con.close()


def test_a_file_of_the_version_before_draft_plans_gains_their_table_and_a_backup(
        tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    before = SCHEMA_VERSION - 1
    create_campaign(path, "Old", schema=before).close()
    assert "battle_draft" not in _tables(path)
    open_campaign(path).close()
    assert check_file(path).version == SCHEMA_VERSION and "battle_draft" in _tables(path)
    [backup] = (tmp_path / "backups" / "old").glob(f"*-before-upgrade-from-v{before}.db")
    assert check_file(backup).version == before and "battle_draft" not in _tables(backup)


def test_every_migration_is_recorded_in_meta(tmp_path: Path) -> None:
    assert SCHEMA_VERSION == len(MIGRATIONS) >= 2
    path = tmp_path / "old.db"
    create_campaign(path, "Old", schema=1).close()
    open_campaign(path).close()
    con = sqlite3.connect(path)
    assert con.execute("SELECT value FROM ka_meta WHERE key='schema_version'").fetchone() == (
        str(SCHEMA_VERSION),)
    con.close()


def test_a_second_backup_does_not_replace_the_first(tmp_path: Path) -> None:
    from datetime import datetime, timezone

    from ka_tui.store.backups import take_backup

    path = tmp_path / "old.db"
    create_campaign(path, "Old", schema=1).close()
    at = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
    first = take_backup(path, "manual", now=at)
    second = take_backup(path, "manual", now=at)
    assert first.path != second.path
    assert first.path.name == "2026-01-02T030405Z-manual.db"
    assert second.path.name == "2026-01-02T030405Z-2-manual.db"
    assert check_file(first.path).version == check_file(second.path).version == 1


# ------------------------------------------------------------ transactions

def test_a_failed_action_keeps_nothing(db_path: Path) -> None:
    with open_campaign(db_path) as db:
        with pytest.raises(ValidationError) as err, db.transaction() as s:
            s.add(CharacterRow(name="Ann", role="pilot"))
            s.flush()
            s.add(CharacterRow(name="Bob", role="pilot", wounds=9))
        assert err.value.field == "wounds"
    con = sqlite3.connect(db_path)
    assert con.execute("SELECT count(*) FROM character").fetchone() == (0,)
    con.close()


def test_full_disk_rolls_back_with_a_clear_message(db_path: Path) -> None:
    db = open_campaign(db_path)
    pages = {}

    @event.listens_for(db.engine, "connect")
    def _small_disk(dbapi_con: sqlite3.Connection, _rec: object) -> None:
        count = dbapi_con.execute("PRAGMA page_count").fetchone()[0]
        pages["start"] = count
        dbapi_con.execute(f"PRAGMA max_page_count = {count + 2}")

    with pytest.raises(StoreError, match="disk is full") as err:
        with db.transaction() as s:
            for i in range(400):
                s.add(CharacterRow(name=f"Pilot {i:03}", role="pilot", notes="x" * 3000))
                s.flush()
    assert "not saved" in str(err.value)
    db.close()
    con = sqlite3.connect(db_path)
    assert con.execute("SELECT count(*) FROM character").fetchone() == (0,)
    con.close()
    # and the file still opens normally afterwards
    open_campaign(db_path).close()


def test_two_handles_on_one_file_both_write(db_path: Path) -> None:
    a, b = open_campaign(db_path), open_campaign(db_path)
    errors: list[BaseException] = []

    def write(db: CampaignDB, prefix: str) -> None:
        try:
            for i in range(15):
                with db.transaction() as s:
                    s.add(CharacterRow(name=f"{prefix}{i}", role="ground"))
        except BaseException as e:  # pragma: no cover - shown on failure
            errors.append(e)

    threads = [threading.Thread(target=write, args=(a, "A")),
               threading.Thread(target=write, args=(b, "B"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    a.close()
    b.close()
    assert errors == []
    con = sqlite3.connect(db_path)
    names = {r[0] for r in con.execute("SELECT name FROM character")}
    con.close()
    assert names == {f"A{i}" for i in range(15)} | {f"B{i}" for i in range(15)}


def test_a_reader_sees_a_consistent_snapshot_while_another_handle_writes(db_path: Path) -> None:
    a, b = open_campaign(db_path), open_campaign(db_path)
    with a.transaction() as s:
        s.add(CharacterRow(name="Ann", role="pilot"))
    with b.read() as s:
        first = s.exec(text("SELECT count(*) FROM character")).scalar()
        with a.transaction() as w:
            w.add(CharacterRow(name="Bob", role="pilot"))
        again = s.exec(text("SELECT count(*) FROM character")).scalar()
    assert first == again == 1
    with b.read() as s:
        assert s.exec(text("SELECT count(*) FROM character")).scalar() == 2
    a.close()
    b.close()


def test_batch_is_one_transaction(db_path: Path) -> None:
    with open_campaign(db_path) as db:
        with pytest.raises(ValidationError), db.batch():
            with db.transaction() as s:
                s.add(CharacterRow(name="Ann", role="pilot"))
            with db.transaction() as s:
                s.add(CharacterRow(name="ann", role="pilot"))  # unique name (NOCASE)
    con = sqlite3.connect(db_path)
    assert con.execute("SELECT count(*) FROM character").fetchone() == (0,)
    con.close()


def test_import_of_the_store_creates_no_engine_or_folder(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = ("import sys, ka_tui.store.db, ka_tui.store.paths, ka_tui.cli;"
            "print('sqlalchemy' in sys.modules, 'textual' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"XDG_DATA_HOME": str(tmp_path / "d"), "HOME": str(tmp_path)},
                         check=True)
    assert out.stdout.split() == ["False", "False"]
    assert not (tmp_path / "d").exists()


def test_a_campaign_copied_with_its_uncheckpointed_wal_opens_with_all_data(
        tmp_path: Path, db_path: Path) -> None:
    """What a crash leaves behind: recent actions only in the -wal file."""
    import shutil

    db = open_campaign(db_path)
    with db.transaction() as s:
        s.add(CharacterRow(name="Only in the WAL", role="ground"))
    assert Path(f"{db_path}-wal").stat().st_size > 0
    copy = tmp_path / "crashed.db"
    for suffix in ("", "-wal"):
        shutil.copyfile(f"{db_path}{suffix}", f"{copy}{suffix}")
    db.close()
    with open_campaign(copy) as again, again.read() as s:
        assert s.get(CharacterRow, 1).name == "Only in the WAL"  # type: ignore[union-attr]


def test_two_instances_upgrading_the_same_old_file_at_once_both_succeed(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    create_campaign(path, "Old", schema=1).close()
    results: list[object] = []

    def upgrade() -> None:
        try:
            open_campaign(path).close()
            results.append("ok")
        except BaseException as e:  # pragma: no cover - shown on failure
            results.append(e)

    threads = [threading.Thread(target=upgrade) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == ["ok", "ok"]
    assert check_file(path).version == SCHEMA_VERSION


def test_migration_sql_splits_into_whole_statements() -> None:
    from ka_tui.store.db import _statements

    parts = _statements(MIGRATIONS[1])
    assert sum(p.startswith("CREATE TRIGGER") for p in parts) == 2
    assert all(sqlite3.complete_statement(p) for p in parts)
