"""The campaign between battles in the store: missions and their
ready-check, a battle started from a mission, the debrief in one
transaction, service records, time and repairs, the journal, the migration."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ka_tui.rules.campaign.journal import EntryKind
from ka_tui.store import campaign_state as cs
from ka_tui.store import journal, missions, roster
from ka_tui.store.db import open_campaign
from ka_tui.store.errors import StoreError, ValidationError
from ka_tui.store.events import EventRefused
from tests.campaign_fixtures import DAY, MITCHELL, MOREAU, REILLY, SPIT, add_enemy, fly_bounce


def _rows(path: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    con = sqlite3.connect(path)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def test_a_mission_is_planned_with_its_journal_entry(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        mid = missions.create_mission(db, "Sweep", DAY, "patrol", "Look around.",
                                      [(MOREAU, SPIT)])
        m = missions.get_mission(db, mid)
        [entry] = journal.entries(db, mission=mid)
    assert (m.name, m.day, m.kind.value, m.status.value) == ("Sweep", DAY, "patrol", "planned")
    assert [(x.name, x.aircraft) for x in m.members] == [("Jeanne Moreau", "Spitfire KA-B")]
    assert entry.kind is EntryKind.MISSION and MOREAU in entry.characters


def test_ready_check_refuses_a_pilot_in_another_mission_that_day(demo_db: Path) -> None:
    """campaign.fit_max_wounds and the one-mission-a-day check: Reilly flies the
    demo's "Escort the Mitchell" today; nothing is written."""
    with open_campaign(demo_db) as db:
        with pytest.raises(missions.NotReady) as err:
            missions.create_mission(db, "Second sortie", DAY, "patrol", "",
                                    [(REILLY, MITCHELL)])
        assert len(missions.list_missions(db)) == 3
    assert err.value.field == "pilots"
    assert "Tom Reilly already flies “Escort the Mitchell” that day" in err.value.message


def test_ready_check_refuses_an_aircraft_under_repair_and_an_unconscious_pilot(
        demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        il2 = next(a.id for a in roster.list_aircraft(db) if a.name == "Il-2 KA-D")
        refusals = missions.check_members(db, "1944-06-07", [(4, il2)])
        roster.update_character(db, MOREAU, wounds=2, conscious=False)
        unconscious = missions.check_members(db, "1944-06-07", [(MOREAU, SPIT)])
    assert [r.why for r in refusals] == ["Il-2 KA-D — under repair, ready in 3 days"]
    assert unconscious[0].why.startswith("Jeanne Moreau — unconscious, 2 wounds")


def test_fly_debrief_records_journal_time_and_repairs(demo_db: Path) -> None:
    """The whole loop through the store: plan, start the battle from the mission,
    play it with scripted dice, end it, debrief (one transaction), then advance
    time: Kurt wakes (campaign.wake_days) and heals (heal_days_per_wound), the
    Il-2's repair finishes (repair_crews)."""
    with open_campaign(demo_db) as db:
        enemy = add_enemy(db)
        mid = missions.create_mission(db, "Bounce", DAY, "intercept", "",
                                      [(MOREAU, SPIT), (enemy.pilot, enemy.aircraft)])
        bid = fly_bounce(db, mid, enemy)
        assert [ln.id for ln in missions.get_mission(db, mid).links] == [bid]
        d = missions.confirm_debrief(db, mid, "Clean kill.")
        with pytest.raises(ValidationError, match="already flown"):
            missions.confirm_debrief(db, mid)
        moreau = cs.service_records(db, MOREAU)[0]
        kurt = cs.service_records(db, enemy.pilot)[0]
        kills = journal.entries(db, kind=EntryKind.KILL, character=MOREAU)
        wounds = journal.entries(db, kind=EntryKind.WOUND)
        refused = missions.check_members(db, "1944-06-07", [(enemy.pilot, None)])
        preview = cs.preview_days(db, 4)
        before = cs.campaign_day(db)
        cs.advance(db, 4, expect=before)
        with pytest.raises(StoreError, match="moved"):
            cs.advance(db, 1, expect=before)
        after = {p.name: p for p, _ in cs.overview(db).people}
        planes = {a.name: r for a, r in cs.overview(db).planes}
    assert [p.kills for p in d.pilots if p.character_id == MOREAU] == [1]
    assert (moreau.sorties, moreau.kills) == (2, 2)            # Dawn patrol + Bounce
    assert kurt.shot_down == ("1944-06-06 Bounce: by Jeanne Moreau (Spitfire KA-B)",)
    assert kurt.wounds_taken == 1
    assert [k.first_line for k in kills][-1] == "Jeanne Moreau: 1 kill in “Bounce”"
    assert wounds[-1].first_line == "Kurt Vogel wounded in “Bounce” (+1, now 1)"
    assert "unconscious" in refused[0].why
    assert {c.text for c in preview.changes} >= {
        "Kurt Vogel comes to", "Kurt Vogel: 1 wound heals, fully healed",
        "Ilse Brandt: 1 wound heals, fully healed", "Il-2 KA-D: repair finished"}
    assert (after["Kurt Vogel"].wounds, after["Kurt Vogel"].conscious) == (0, True)
    # out of action only while unconscious: fit again with 1 wound (campaign.fit_max_wounds)
    assert after["Ilse Brandt"].wounds == 0 and after["Kurt Vogel"].days_out == 1
    assert planes["Il-2 KA-D"].why == "Il-2 KA-D — ready"
    assert _rows(demo_db, "SELECT day FROM campaign_day") == [("1944-06-10",)]
    assert _rows(demo_db, "SELECT hull_hits, damage FROM aircraft WHERE name = 'Il-2 KA-D'") \
        == [(0, "{}")]


def test_the_debrief_writes_nothing_when_a_part_fails(demo_db: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """One transaction: a failure in the last journal entry leaves the mission
    planned, no entry and no repair written."""
    with open_campaign(demo_db) as db:
        enemy = add_enemy(db)
        mid = missions.create_mission(db, "Bounce", DAY, "intercept", "",
                                      [(MOREAU, SPIT), (enemy.pilot, enemy.aircraft)])
        fly_bounce(db, mid, enemy)
        count = journal.count(db)
        real = journal.add

        def failing(db_: object, kind: str, text: str, **kw: object) -> object:
            if kind == "wound":
                raise StoreError("disk full")
            return real(db_, kind, text, **kw)  # type: ignore[arg-type]

        monkeypatch.setattr(journal, "add", failing)
        with pytest.raises(StoreError, match="disk full"):
            missions.confirm_debrief(db, mid)
        assert missions.get_mission(db, mid).status.value == "planned"
        assert journal.count(db) == count


def test_an_open_battle_blocks_the_debrief(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        mid = missions.create_mission(db, "Exercise", "1944-06-07", "other", "", [])
        missions.link(db, mid, battle_id=1)          # the demo's battle in progress
        with pytest.raises(ValidationError, match="end its battles first"):
            missions.confirm_debrief(db, mid)
        with pytest.raises(ValidationError, match="already linked"):
            missions.link(db, mid, battle_id=1)


def test_repairs_queue_and_write_off(demo_db: Path) -> None:
    """campaign.repair_days_per_hull_hit / repair_cost_per_hull_hit on the
    Spitfire's one hull hit; a written-off aircraft is lost for the battles too."""
    from ka_tui.store import battles

    with open_campaign(demo_db) as db:
        job = cs.queue_repair(db, SPIT)
        with pytest.raises(ValidationError, match="already in the repair queue"):
            cs.queue_repair(db, SPIT)
        rows = {r.plane.name: r for r in cs.repairs(db)}
        cs.write_off(db, SPIT, "airframe twisted")
        cands = {c.name: c for c in battles.candidates(db)}
        last = journal.entries(db, aircraft=SPIT)[-1]
    assert (job.days_total, job.cost) == (1, 50)
    assert rows["Spitfire KA-B"].finishes_in == 1
    assert cands["Spitfire KA-B"].unable == "Spitfire KA-B was written off in battle"
    assert last.first_line == "Spitfire KA-B written off: airframe twisted"
    assert _rows(demo_db, "SELECT status FROM repair WHERE aircraft_id = ?", SPIT) == [
        ("written off",)]


def test_journal_notes_filters_and_append_only(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        journal.note(db, "Rain all day.\nNobody flew.", characters=[MOREAU])
        with pytest.raises(ValidationError):
            journal.note(db, "   ")
        with pytest.raises(EventRefused, match="not a journal entry kind"):
            journal.add(db, "gossip", "x")
        mine = journal.entries(db, character=MOREAU)
        rain = journal.entries(db, search="rain")
        md = journal.journal_markdown(db, "Journal")
    assert mine[-1].text == "Rain all day.\nNobody flew."
    assert [e.first_line for e in rain] == ["Rain all day."]
    assert "## 1944-06-06" in md and "  Nobody flew." in md
    con = sqlite3.connect(demo_db)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        con.execute("UPDATE journal_event SET kind = 'note'")
    con.close()


def test_a_schema_3_campaign_migrates_with_its_backup(tmp_path: Path) -> None:
    from ka_tui.store.db import create_campaign

    old = tmp_path / "old.db"
    with create_campaign(old, "Old", schema=3) as db:
        roster.add_character(db, name="Hale", role="pilot")
    with open_campaign(old) as db:
        mid = missions.create_mission(db, "First", "1944-06-01", "patrol", "", [(1, None)])
        assert cs.campaign_day(db).isoformat() == "1944-06-01"
        assert missions.get_mission(db, mid).members[0].name == "Hale"
    assert list((tmp_path / "backups" / "old").glob("*-before-upgrade-from-v3.db"))


def test_the_demo_has_a_short_history(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        o = cs.overview(db)
        flown = missions.list_missions(db, status="flown")
        entries = journal.entries(db)
    assert o.day.isoformat() == DAY and o.next_mission is not None
    assert len(flown) == 2 and len(entries) >= 8
    states = {r.state.value for _, r in o.people} | {r.state.value for _, r in o.planes}
    assert {"wounded", "damaged", "under repair"} <= states


def test_the_roster_detail_line_helper(demo_db: Path) -> None:
    """``service_line`` is the one line the roster's detail pane can show."""
    with open_campaign(demo_db) as db:
        line = cs.service_line(db, MOREAU)
    assert line == "Service: 1 sortie, 1 kill, 0 wounds, 0 days out — ready"
