"""The one event log (``store/events.py``; DESIGN.md "Fights and battles as a
log of events"): ``append`` refuses, inside the write transaction, an
event written after a state that is no longer the end of the log
(``StaleLog``) and a fight event the rules refuse on the log as it is
(``EventRefused``: S0 §Close combat steps 2-6). Real SQLite files in ``tmp_path``.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from ka_tui.rules.cqc import CqcCard, initiative_order
from ka_tui.store import events as ev
from ka_tui.store import fights
from ka_tui.store.db import CampaignDB, open_campaign
from ka_tui.store.errors import StoreError
from ka_tui.store.events import LogEvent, LogKind, LogRef, EventRefused, StaleLog

INIT = [10, 10, 10, 10, 2, 2]   # S0 §1: Mike first (4d12, then 2d8 Agility)
MIKE_WINS = [8, 8, 8, 8, 2, 2]  # S0 §4


@pytest.fixture
def db(demo_db: Path) -> CampaignDB:
    handle = open_campaign(demo_db)
    yield handle
    handle.close()


def kinds(path: Path) -> list[str]:
    con = sqlite3.connect(path)
    try:
        return [k for (k,) in con.execute("SELECT kind FROM fight_event ORDER BY seq")]
    finally:
        con.close()


def mike_vs_olga(db: CampaignDB) -> tuple[int, fights.FightProgress]:
    cands, _ = fights.load_candidates(db)
    who = {c.name.split()[0]: c.id for c in cands}
    fid = fights.start_fight(db, [(who["Mike"], who["Olga"])])
    p = fights.load_progress(db, fid)
    fights.record_initiative(db, fid, initiative_order(p.start.fighters, INIT, p.rules), True,
                             expect_seq=p.seq)
    return fid, fights.load_progress(db, fid)


def cards_in(db: CampaignDB, fid: int) -> fights.FightProgress:
    p = fights.load_progress(db, fid)
    mike, olga = p.fight.order
    fights.record_card(db, fid, 1, mike, [CqcCard.build(mike, olga, attack="1b")],
                       expect_seq=p.seq)
    fights.record_card(db, fid, 1, olga, [CqcCard.build(olga, mike, defence="1b")],
                       expect_seq=p.seq + 1)
    return fights.load_progress(db, fid)


def test_append_numbers_events_and_reads_them_back(db: CampaignDB) -> None:
    head = ev.new_log(db, LogKind.BATTLE, "Dawn patrol")
    log = LogRef.battle(head.id)
    first = ev.append(db, log, LogEvent("battle_started", {"units": []}), 0)
    second = ev.append(db, log, LogEvent("turn_started", {}), 1)
    assert (first.seq, second.seq) == (1, 2) and second.created_at
    assert [(e.seq, e.kind, e.payload) for e in ev.events(db, log)] == [
        (1, "battle_started", {"units": []}), (2, "turn_started", {})]
    assert ev.last_seq(db, log) == 2


def test_a_write_after_a_stale_position_is_refused_and_writes_nothing(db: CampaignDB) -> None:
    """Two windows read the log at step 2; the first writes; the second's
    write names step 2 and is refused with a message for the GM."""
    fid, p = mike_vs_olga(db)
    mike, olga = p.fight.order
    fights.record_card(db, fid, 1, mike, [CqcCard.build(mike, olga, attack="1b")],
                       expect_seq=p.seq)
    with pytest.raises(StaleLog) as err:
        fights.record_card(db, fid, 1, olga, [CqcCard.build(olga, mike, defence="1b")],
                           expect_seq=p.seq)
    assert isinstance(err.value, StoreError)
    assert str(err.value) == ("Another window changed this fight (now at step 3); "
                              "the screen has been reloaded.")
    assert (err.value.expected, err.value.now) == (2, 3)
    assert kinds(db.path)[-1] == "card_entered" and len(kinds(db.path)) == 3


@pytest.mark.parametrize("late", ["second card", "card after reveal", "two rolls",
                                  "two resolutions", "resolved before rolled"])
def test_s0_steps_out_of_order_are_refused_inside_the_transaction(
        db: CampaignDB, late: str) -> None:
    """S0 §Close combat 2-6: one card per fighter and round, all before the
    reveal; one roll and one resolution per round, in that order. Appended at
    the end (no stale position), the rules still refuse each."""
    fid, p = mike_vs_olga(db)
    mike, olga = p.fight.order
    card = [CqcCard.build(mike, olga, attack="1b")]
    if late == "second card":
        fights.record_card(db, fid, 1, mike, card)
        step = lambda: fights.record_card(db, fid, 1, mike, card)  # noqa: E731
    else:
        p = cards_in(db, fid)
        if late == "resolved before rolled":
            fights.record_reveal(db, fid, 1)
            q = fights.load_progress(db, fid)
            from ka_tui.rules.cqc import resolve_round
            after, report = resolve_round(q.fight, list(q.round_cards), MIKE_WINS, q.rules)
            step = lambda: fights.record_resolved(db, fid, report, after)  # noqa: E731
        else:
            fights.record_reveal(db, fid, 1)
            if late == "card after reveal":
                step = lambda: fights.record_card(db, fid, 1, mike, card)  # noqa: E731
            else:
                from ka_tui.rules.cqc import resolve_round
                q = fights.load_progress(db, fid)
                after, report = resolve_round(q.fight, list(q.round_cards), MIKE_WINS, q.rules)
                fights.record_dice(db, fid, 1, report, False)
                if late == "two rolls":
                    step = lambda: fights.record_dice(db, fid, 1, report, False)  # noqa: E731
                else:
                    fights.record_resolved(db, fid, report, after)
                    step = lambda: fights.record_resolved(db, fid, report, after)  # noqa: E731
    before = kinds(db.path)
    with pytest.raises(EventRefused) as err:
        step()
    assert "the screen has been reloaded" in str(err.value)
    assert kinds(db.path) == before
    assert not fights.load_progress(db, fid).broken


def test_two_threads_writing_after_the_same_state_one_wins(demo_db: Path) -> None:
    """BEGIN IMMEDIATE: the check of the end of the log and the insert are one
    transaction, so of two handles writing after the same state exactly one
    gets through, whatever the timing."""
    a, b = open_campaign(demo_db), open_campaign(demo_db)
    fid, p = mike_vs_olga(a)
    mike, olga = p.fight.order
    outcomes: list[str] = []
    gate = threading.Barrier(2)

    def write(handle: CampaignDB, owner: str, other: str) -> None:
        gate.wait()
        try:
            fights.record_card(handle, fid, 1, owner, [CqcCard.build(owner, other, attack="1b")],
                               expect_seq=p.seq)
            outcomes.append("written")
        except StaleLog:
            outcomes.append("stale")

    threads = [threading.Thread(target=write, args=(a, mike, olga)),
               threading.Thread(target=write, args=(b, olga, mike))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["stale", "written"]
    assert kinds(demo_db) == ["fight_started", "initiative", "card_entered"]
    a.close()
    b.close()


def test_undo_names_its_position_too(db: CampaignDB) -> None:
    fid, p = mike_vs_olga(db)
    with pytest.raises(StaleLog):
        fights.undo_last_round(db, fid, expect_seq=p.seq - 1)
    assert fights.undo_last_round(db, fid, expect_seq=p.seq) == 1
    dropped = ev.drop_from(db, LogRef.fight(fid), 1, 1)
    assert [e.kind for e in dropped] == ["fight_started"] and kinds(db.path) == []


def test_a_battle_log_begins_with_its_start_once(db: CampaignDB) -> None:
    """R-1: the battle's log opens with battle_started, and only once."""
    log = LogRef.battle(ev.new_log(db, LogKind.BATTLE, "Dawn").id)
    with pytest.raises(EventRefused):
        ev.append(db, log, LogEvent("turn_started", {}), 0)
    ev.append(db, log, LogEvent("battle_started", {"units": []}), 0)
    with pytest.raises(EventRefused):
        ev.append(db, log, LogEvent("battle_started", {"units": []}), 1)
    with pytest.raises(EventRefused):
        ev.append(db, log, LogEvent("loop_the_loop", {}), 1)


def test_the_damaged_fixture_names_event_4_and_undo_drops_from_it(tmp_path: Path) -> None:
    """The demo campaign the two-window bug damaged (written by the code
    before the log checked each write): it opens without a migration, replays
    up to event 3, names event 4 (Jeanne's second card for round 1), refuses any new step
    until undone, and undo drops events 4-15."""
    import shutil

    path = tmp_path / "fight.db"
    shutil.copyfile(Path(__file__).parent.parent / "fixtures" / "two-windows-fight.db", path)
    with open_campaign(path) as db:
        p = fights.load_progress(db, 1)
        assert p.broken_seq == 4 and p.seq == 15 and p.step == 2
        assert p.broken.startswith("event 4 (card_entered) cannot be replayed: Jeanne Moreau's "
                                   "card for round 1 is already in")
        with pytest.raises(EventRefused):
            fights.record_reveal(db, 1, 1, expect_seq=15)
        assert fights.undo_last_round(db, 1, expect_seq=15) == 12
        p = fights.load_progress(db, 1)
        assert not p.broken and p.seq == 3
        assert [p.fight.fighter(f).name for f in p.to_enter] == ["Mike Dunn"]
