"""The persistent roll log ("Every roll is appended to a persistent
roll log (who, what, pool, faces, result, time) … that survives restarts")."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

from ka_tui.rules.core.skill_tests import unopposed_test
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.core.options import SkillOptions
from ka_tui.store.db import open_campaign
from ka_tui.store.roll_log import (
    RollEntry, append_roll, count_rolls, query_rolls, utc_stamp,
)

T0 = datetime(2026, 3, 1, 20, 15, 0, tzinfo=timezone.utc)


def entry(who: str = "Kay", what: str = "Assault Rifles", result: str = "1 success",
          faces: tuple[tuple[int, int], ...] = ((10, 3), (10, 9))) -> RollEntry:
    return RollEntry(who, what, "2d10 @5", faces, result, ("line one", "line two"))


def test_append_writes_one_row_with_every_column(db_path: Path) -> None:
    db = open_campaign(db_path)
    logged = append_roll(db, entry(), at=T0)
    db.close()
    con = sqlite3.connect(db_path)
    row = con.execute("SELECT id, who, what, pool, faces, result, explanation, created_at "
                      "FROM roll_log").fetchall()
    con.close()
    assert row == [(logged.id, "Kay", "Assault Rifles", "2d10 @5", "[[10, 3], [10, 9]]",
                    "1 success", '["line one", "line two"]', "2026-03-01T20:15:00Z")]


def test_log_survives_a_restart_newest_first(db_path: Path) -> None:
    db = open_campaign(db_path)
    for i in range(3):
        append_roll(db, entry(who=f"P{i}"), at=T0 + timedelta(minutes=i))
    db.close()
    again = open_campaign(db_path)
    rolls = query_rolls(again)
    again.close()
    assert [r.who for r in rolls] == ["P2", "P1", "P0"]
    assert rolls[0].time == T0 + timedelta(minutes=2)
    assert rolls[0].faces == ((10, 3), (10, 9))
    assert rolls[0].faces_text == "3 9"
    assert rolls[0].explanation == ("line one", "line two")


def test_filter_matches_every_word_in_who_what_pool_or_result(db_path: Path) -> None:
    db = open_campaign(db_path)
    append_roll(db, entry(who="Kay Brandt", what="Pistols", result="2 successes"), at=T0)
    append_roll(db, entry(who="Ivo", what="Brawl", result="CRITICAL FAIL"), at=T0)
    append_roll(db, entry(who="Kay Brandt", what="Brawl", result="1 success"), at=T0)
    assert [r.what for r in query_rolls(db, "kay")] == ["Brawl", "Pistols"]
    assert [r.who for r in query_rolls(db, "BRAWL kay")] == ["Kay Brandt"]
    assert [r.who for r in query_rolls(db, "crit")] == ["Ivo"]
    assert query_rolls(db, "2d10 @5") and count_rolls(db, "2d10") == 3
    assert count_rolls(db, "nobody") == 0 and count_rolls(db) == 3
    db.close()


def test_filter_treats_like_wildcards_as_plain_text(db_path: Path) -> None:
    db = open_campaign(db_path)
    append_roll(db, entry(who="A_B"), at=T0)
    append_roll(db, entry(who="AxB 100%"), at=T0)
    assert [r.who for r in query_rolls(db, "a_b")] == ["A_B"]
    assert [r.who for r in query_rolls(db, "100%")] == ["AxB 100%"]
    assert query_rolls(db, "%") == query_rolls(db, "100%")
    db.close()


def test_limit_keeps_the_newest(db_path: Path) -> None:
    db = open_campaign(db_path)
    for i in range(5):
        append_roll(db, entry(who=f"P{i}"), at=T0)
    assert [r.who for r in query_rolls(db, limit=2)] == ["P4", "P3"]
    db.close()


def test_times_are_stored_in_utc() -> None:
    plus_two = timezone(timedelta(hours=2))
    assert utc_stamp(datetime(2026, 3, 1, 22, 15, tzinfo=plus_two)) == "2026-03-01T20:15:00Z"
    assert utc_stamp(datetime(2026, 3, 1, 20, 15)) == "2026-03-01T20:15:00Z"


def test_logged_faces_replay_the_same_result_s0_skills(db_path: Path) -> None:
    """The faces are stored in draw order with their die sizes, so replaying
    them through the rules gives the logged result (S0 §Skills)."""
    pool = (10, 10, 10, 12)
    first = unopposed_test(pool, 5, ScriptedDice.of([1, 8, 4, 12]), SkillOptions())
    db = open_campaign(db_path)
    append_roll(db, RollEntry("Kay", "Test", "3d10+1d12 @5",
                              tuple(zip(first.pool, first.faces)),
                              f"{first.successes}", first.explanation), at=T0)
    logged = query_rolls(db)[0]
    db.close()
    replay = unopposed_test(tuple(s for s, _ in logged.faces), 5,
                            ScriptedDice.of(f for _, f in logged.faces), SkillOptions())
    assert replay == first
    assert json.loads(json.dumps(logged.explanation)) == list(first.explanation)
