"""``Change`` and the watched tables are one table (``store/changes.py``):
every table of the schema feeds a change or is listed as unwatched (with
why), and a commit to any of the campaign mode's tables by another
connection is reported as ``Change.CAMPAIGN`` by the watcher's fingerprints;
one that changes the roster's sortie count (a mission flown) as ``ROSTER``
too."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from ka_tui.screens.door import Change as DoorChange
from ka_tui.store.changes import UNWATCHED, WATCHED, Change
from ka_tui.store.watch import fingerprints
from tests.ui.pilot_helpers import commit_sql, rows


def _prints(path: Path) -> dict[str, int]:
    con = sqlite3.connect(path, isolation_level=None)
    try:
        return fingerprints(con)
    finally:
        con.close()


def _changed(path: Path, *sql: str) -> set[str]:
    before = _prints(path)
    for statement in sql:
        commit_sql(path, statement)
    after = _prints(path)
    return {area for area, h in after.items() if before[area] != h}


def test_every_change_has_its_reads_and_the_door_names_the_same_changes() -> None:
    assert set(WATCHED) == set(Change)
    assert all(WATCHED[c] for c in Change)
    assert DoorChange is Change


def test_every_table_of_the_schema_is_watched_or_listed_as_unwatched(demo_db: Path) -> None:
    tables = {t for (t,) in rows(demo_db, "SELECT name FROM sqlite_master WHERE type = "
                                          "'table' AND name NOT LIKE 'sqlite_%'")}
    read = {t for reads in WATCHED.values() for sql in reads
            for t in re.findall(r"(?:FROM|JOIN) (\w+)", sql)}
    assert tables - read == set(UNWATCHED)
    assert read <= tables


@pytest.mark.parametrize("sql", [
    "INSERT INTO mission (name, day) VALUES ('Recce', '1944-06-07')",
    "UPDATE mission SET briefing = 'Low over the coast' WHERE id = 1",
    "DELETE FROM mission_member WHERE mission_id = 3",
    "INSERT INTO mission_link (mission_id, battle_id) VALUES (2, 1)",
    "UPDATE campaign_day SET day = '1944-06-09'",
    "INSERT OR REPLACE INTO person_state (character_id, rest_days) VALUES (1, 3)",
    "INSERT INTO repair (aircraft_id, queued_on, days_total) VALUES (1, '1944-06-06', 2)",
    ("INSERT INTO journal_event (journal_id, seq, kind, payload) SELECT 1, max(seq) + 1, "
     "'note', '{\"day\": \"1944-06-06\", \"text\": \"x\"}' FROM journal_event"),
])
def test_a_commit_to_a_campaign_table_is_a_campaign_change(demo_db: Path, sql: str) -> None:
    assert _changed(demo_db, sql) == {Change.CAMPAIGN}


def test_a_mission_flown_changes_the_roster_too(demo_db: Path) -> None:
    """The roster's Sort column counts the flown missions' people and debriefs."""
    assert _changed(demo_db, "UPDATE mission SET status = 'flown', debrief = '{}' "
                             "WHERE status = 'planned'") == {Change.CAMPAIGN, Change.ROSTER}
    assert _changed(demo_db, "DELETE FROM mission_member WHERE mission_id = 2") == {
        Change.CAMPAIGN, Change.ROSTER}


def test_nothing_is_reported_for_a_commit_that_changes_nothing_watched(demo_db: Path) -> None:
    assert _changed(demo_db, "UPDATE ka_meta SET value = value") == set()


def test_a_roll_struck_or_standing_again_elsewhere_is_a_change_of_the_rolls(
        demo_db: Path) -> None:
    """Another window's strike of a mistaken roll (kept in the log, marked
    struck) reaches every roll log on the campaign, as a new roll does."""
    commit_sql(demo_db, "INSERT INTO roll_log (who, what, pool, result) "
                        "VALUES ('Kay', 'Brawl', '2d8', 'PASS')")
    commit_sql(demo_db, "INSERT INTO roll_log (who, what, pool, result) "
                        "VALUES ('Kay', 'Pistols', '2d8', 'FAIL')")
    struck = "UPDATE roll_log SET struck_at = '2026-12-07T08:55:00Z' WHERE what = 'Brawl'"
    assert _changed(demo_db, struck) == {"rolls"}
    assert _changed(demo_db, "UPDATE roll_log SET struck_at = NULL") == {"rolls"}
    commit_sql(demo_db, struck)
    # the same count struck at the same time, another roll
    assert _changed(demo_db, "UPDATE roll_log SET struck_at = NULL WHERE what = 'Brawl'",
                    "UPDATE roll_log SET struck_at = '2026-12-07T08:55:00Z' "
                    "WHERE what = 'Pistols'") == {"rolls"}
