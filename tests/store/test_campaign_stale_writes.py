"""The campaign mode's writes check inside their transaction that they are
based on the campaign as it is (no lost updates between windows and
processes, as the roster's forms and the fights' logs do): a mission edited
from a form opened before another window's edit, a debrief confirmed as it
was shown after its mission changed, time advanced on a preview another
window made stale, a battle linked to a mission flown meanwhile — each is
refused, naming what changed, and writes nothing. A note depends on nothing
before it and always lands, on the campaign's date as it is then.

Real parts: the demo campaign in a real SQLite file; "another window" is a
second handle or a plain connection of its own.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from ka_tui.store import campaign_state, journal, missions
from ka_tui.store.db import open_campaign
from ka_tui.store.errors import StoreError, ValidationError
from tests.ui.pilot_helpers import commit_sql, rows

ESCORT = 3   # the demo's planned "Escort the Mitchell" (Hale, Reilly and his crew)


def _members(m: missions.Mission) -> list[tuple[int, int | None]]:
    return [(x.character_id, x.aircraft_id) for x in m.members]


def test_a_mission_form_opened_before_another_windows_edit_is_refused(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        a = missions.get_mission(db, ESCORT)
        b = missions.get_mission(db, ESCORT)       # window B's form, open before A saves
        missions.update_mission(db, ESCORT, a.name, a.day, a.kind.value, "Low and fast",
                                _members(a), expect=a)
        with pytest.raises(ValidationError) as refused:
            missions.update_mission(db, ESCORT, "Escort (B)", b.day, b.kind.value,
                                    b.briefing, _members(b), expect=b)
        assert refused.value.field == "briefing"
        assert "another window" in refused.value.message
        now = missions.get_mission(db, ESCORT)
        # from the mission as it is now, B's edit lands
        missions.update_mission(db, ESCORT, "Escort (B)", now.day, now.kind.value,
                                now.briefing, _members(now), expect=now)
    assert rows(demo_db, "SELECT name, briefing FROM mission WHERE id = ?", ESCORT) == [
        ("Escort (B)", "Low and fast")]


def test_people_changed_elsewhere_refuse_the_form_on_the_people_field(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        seen = missions.get_mission(db, ESCORT)
        commit_sql(demo_db, "DELETE FROM mission_member WHERE mission_id = ? "
                            "AND character_id = 7", ESCORT)
        with pytest.raises(ValidationError) as refused:
            missions.update_mission(db, ESCORT, seen.name, seen.day, seen.kind.value,
                                    "x", _members(seen), expect=seen)
    assert refused.value.field == "pilots"
    assert rows(demo_db, "SELECT briefing FROM mission WHERE id = ?", ESCORT) != [("x",)]


def test_a_debrief_confirmed_as_shown_after_its_mission_changed_is_refused(
        demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        shown = missions.debrief_of(db, ESCORT).lines
        m = missions.get_mission(db, ESCORT)
        missions.update_mission(db, ESCORT, m.name, m.day, m.kind.value, m.briefing,
                                [p for p in _members(m) if p[0] != 1], expect=m)
        entries = journal.count(db)
        with pytest.raises(StoreError, match="debrief changed in another window"):
            missions.confirm_debrief(db, ESCORT, "From the old sheet", seen=shown)
        assert journal.count(db) == entries
        assert rows(demo_db, "SELECT status FROM mission WHERE id = ?", ESCORT) == [
            ("planned",)]
        missions.confirm_debrief(db, ESCORT, "", seen=missions.debrief_of(db, ESCORT).lines)
    assert rows(demo_db, "SELECT status FROM mission WHERE id = ?", ESCORT) == [("flown",)]


def test_time_advanced_on_a_stale_preview_is_refused_and_a_note_does_not_stale_it(
        demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        preview = campaign_state.preview_days(db, 2)
        journal.note(db, "Rain all day")            # changes nothing the days change
        commit_sql(demo_db, "UPDATE character SET wounds = 1 WHERE id = 1")  # Hale hurt
        with pytest.raises(StoreError, match="changed in another window since the preview"):
            campaign_state.advance(db, 2, seen=preview)
        assert campaign_state.campaign_day(db).isoformat() == "1944-06-06"
        fresh = campaign_state.preview_days(db, 2)
        # the days typed need not be the preview's: the state it was made on counts
        campaign_state.advance(db, 3, seen=fresh)
    assert rows(demo_db, "SELECT day FROM campaign_day") == [("1944-06-09",)]


def test_a_battle_is_not_linked_to_a_mission_flown_meanwhile(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        with pytest.raises(ValidationError, match="flown: nothing more is linked"):
            missions.link(db, 1, battle_id=1)
    assert rows(demo_db, "SELECT count(*) FROM mission_link") == [(0,)]


def test_a_note_takes_the_date_inside_its_transaction(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        commit_sql(demo_db, "UPDATE campaign_day SET day = '1944-06-08'")
        entry = journal.note(db, "After the storm")
    assert entry.day == "1944-06-08"


def test_a_debrief_confirmed_while_another_process_confirms_it_is_written_once(
        demo_db: Path) -> None:
    """The other process holds the write lock and has flown the mission, not
    yet committed: the debrief waits for the lock and only then reads the
    mission, so it sees it flown and is refused (one set of journal entries)."""
    other = sqlite3.connect(demo_db, isolation_level=None, timeout=5)
    other.execute("BEGIN IMMEDIATE")
    other.execute("UPDATE mission SET status = 'flown' WHERE id = ?", (ESCORT,))
    outcome: list[BaseException | None] = []

    def confirm() -> None:
        with open_campaign(demo_db) as db:
            try:
                missions.confirm_debrief(db, ESCORT, "late")
            except BaseException as error:  # noqa: BLE001 - reported to the test
                outcome.append(error)
            else:
                outcome.append(None)

    thread = threading.Thread(target=confirm)
    thread.start()
    # (the debrief is started and waits for the lock; were it to read before
    # taking it, as it did, it would find the mission still planned)
    time.sleep(0.5)
    other.execute("COMMIT")
    other.close()
    thread.join(10)
    assert len(outcome) == 1 and isinstance(outcome[0], ValidationError), outcome
    assert "already flown" in str(outcome[0])
    assert rows(demo_db, "SELECT debrief_notes FROM mission WHERE id = ?", ESCORT) == [("",)]
