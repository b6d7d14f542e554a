"""Fights and battles as append-only event lists (DESIGN.md), and the campaign's
house rules stored per campaign (RULES-NOTES: every gap a named option)."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import pytest

from ka_tui.rules.core.options import CritFailRule, HouseRules
from tests.store import log_shortcuts as logs
from ka_tui.store.campaign import (
    get_campaign,
    house_rules,
    rename_campaign,
    set_house_rules,
)
from ka_tui.store.db import open_campaign
from ka_tui.store.errors import NotFound, ValidationError


def test_events_get_consecutive_seq_and_replay_in_order(db_path: Path) -> None:
    with open_campaign(db_path) as db:
        f = logs.new_fight(db, "Brawl")
        assert f.id is not None
        for n in range(4):
            logs.append_fight_event(db, f.id, "round", {"n": n})
        events = logs.fight_events(db, f.id)
    assert [e.seq for e in events] == [1, 2, 3, 4]
    assert [logs.payload_of(e)["n"] for e in events] == [0, 1, 2, 3]


def test_undo_drops_only_the_last_event(db_path: Path) -> None:
    with open_campaign(db_path) as db:
        b = logs.new_battle(db, "Dawn patrol")
        assert b.id is not None
        for kind in ("initiative", "move", "shot"):
            logs.append_battle_event(db, b.id, kind, {})
        dropped = logs.drop_last_battle_event(db, b.id)
        assert dropped is not None and dropped.kind == "shot"
        assert [e.kind for e in logs.battle_events(db, b.id)] == ["initiative", "move"]
        after = logs.append_battle_event(db, b.id, "shot", {"again": True})
    assert after.seq == 3


def test_two_writers_never_share_a_seq(db_path: Path) -> None:
    a, b = open_campaign(db_path), open_campaign(db_path)
    f = logs.new_fight(a, "Crowded")
    assert f.id is not None
    fid = f.id

    def write(db) -> None:  # type: ignore[no-untyped-def]
        for _ in range(10):
            logs.append_fight_event(db, fid, "x", {})

    threads = [threading.Thread(target=write, args=(h,)) for h in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [e.seq for e in logs.fight_events(a, fid)] == list(range(1, 21))
    a.close()
    b.close()


def test_events_for_a_missing_fight_and_bad_payloads_are_refused(db_path: Path) -> None:
    with open_campaign(db_path) as db:
        with pytest.raises(NotFound):
            logs.append_fight_event(db, 42, "round", {})
        f = logs.new_fight(db, "F")
        assert f.id is not None
        with pytest.raises(ValidationError) as err:
            logs.append_fight_event(db, f.id, "round", {"dice": object()})
        assert err.value.field == "payload"
        assert logs.fight_events(db, f.id) == []


def test_house_rules_store_only_the_gms_changes(db_path: Path) -> None:
    with open_campaign(db_path) as db:
        assert house_rules(db) == HouseRules()
        rules = HouseRules().with_changes("skills", crit_fail_rule=CritFailRule.ALL_ONES)
        set_house_rules(db, rules)
        assert house_rules(db) == rules
    con = sqlite3.connect(db_path)
    stored = json.loads(con.execute("SELECT house_rules FROM campaign").fetchone()[0])
    con.close()
    assert stored == {"skills": {"crit_fail_rule": "all_ones"}}


def test_rename_campaign_checks_the_name(db_path: Path) -> None:
    with open_campaign(db_path) as db:
        with pytest.raises(ValidationError):
            rename_campaign(db, "   ")
        rename_campaign(db, "Operation Jubilee")
        assert get_campaign(db).name == "Operation Jubilee"
