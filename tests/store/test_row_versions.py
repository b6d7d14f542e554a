"""No lost updates between windows and processes.

A character's form saves only what it changed, merged field by field over
the row as it is inside the write transaction (``roster_reads.save_character``
with ``loaded``); the same field changed in two windows to different values
is refused, naming it. Two processes appending to a fight's log after the
same state: one lands, the other gets ``StaleLog`` (store/events.py).
"""

from __future__ import annotations

import multiprocessing as mp
from pathlib import Path

import pytest

from ka_tui.store import fights
from ka_tui.store.db import open_campaign
from ka_tui.store.roster_reads import (
    EditConflict,
    load_character_full,
    save_character,
)


def _form(row: dict, **changes: object) -> dict:
    """What a character form hands to ``write``: every field, its lists."""
    values = {k: v for k, v in row.items()}
    values["skills"] = [dict(s) for s in row["skills"]]
    values["weapons"] = [dict(w) for w in row["weapons"]]
    values.update(changes)
    return values


def _kasia(db) -> int:
    con = db.connect()
    try:
        return int(con.execute("SELECT id FROM character WHERE name = 'Kasia Nowak'").fetchone()[0])
    finally:
        con.close()


def test_two_windows_k_points_then_strength_loses_nothing(demo_db: Path) -> None:
    """The issue's sequence: K-points 0; B opens the form; A sets K-points 10
    and saves; B changes Strength and saves; K is still 10."""
    with open_campaign(demo_db) as db:
        cid = _kasia(db)
        save_character(db, _form(load_character_full(db, cid), k_points=0))
        a = load_character_full(db, cid)
        b = load_character_full(db, cid)           # window B, open before A saves
        save_character(db, _form(a, k_points=10), loaded=a)
        save_character(db, _form(b, strength=b["strength"] + 1), loaded=b)
        now = load_character_full(db, cid)
    assert now["k_points"] == 10
    assert now["strength"] == b["strength"] + 1


def test_the_same_field_changed_in_two_windows_is_refused(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        cid = _kasia(db)
        a = load_character_full(db, cid)
        b = load_character_full(db, cid)
        save_character(db, _form(a, k_points=7), loaded=a)
        with pytest.raises(EditConflict) as refused:
            save_character(db, _form(b, k_points=3, notes="B's note"), loaded=b)
        assert refused.value.field == "k_points"
        assert "another window" in str(refused.value) and "7" in str(refused.value)
        now = load_character_full(db, cid)
    assert now["k_points"] == 7 and now["notes"] == a["notes"]  # nothing of B's saved
    # the same value in both windows is no conflict
    with open_campaign(demo_db) as db:
        c = load_character_full(db, cid)
        d = load_character_full(db, cid)
        save_character(db, _form(c, k_points=5), loaded=c)
        save_character(db, _form(d, k_points=5, armour=2), loaded=d)
        assert load_character_full(db, cid)["armour"] == 2


def test_a_skill_added_elsewhere_survives_a_save_of_another_field(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        cid = _kasia(db)
        a = load_character_full(db, cid)
        b = load_character_full(db, cid)
        skill = {"name": "Brawl", "kind": "passive", "number": 2, "level": "B",
                 "upgrades": 0, "legendary": False}
        save_character(db, _form(a, skills=[*a["skills"], skill]), loaded=a)
        save_character(db, _form(b, agility=b["agility"] + 1), loaded=b)
        names = [s["name"] for s in load_character_full(db, cid)["skills"]]
        assert "Brawl" in names
        # both windows changing the skill lists: the later is refused
        c = load_character_full(db, cid)
        e = load_character_full(db, cid)
        save_character(db, _form(c, skills=c["skills"][:1]), loaded=c)
        with pytest.raises(EditConflict) as refused:
            save_character(db, _form(e, skills=e["skills"][1:]), loaded=e)
        assert refused.value.field == "skills"


def _reveal(path: str, fight_id: int, seq: int, barrier: object, out: object) -> None:
    from ka_tui.store.db import open_campaign as open_
    from ka_tui.store.events import StaleLog
    from ka_tui.store.fights import EventRefused, record_reveal

    with open_(Path(path)) as db:
        barrier.wait()  # type: ignore[attr-defined]
        try:
            record_reveal(db, fight_id, 1, expect_seq=seq)
            out.put("landed")  # type: ignore[attr-defined]
        except (StaleLog, EventRefused) as e:
            out.put(f"refused: {e}")  # type: ignore[attr-defined]


def test_two_processes_after_the_same_state_one_lands(demo_db: Path) -> None:
    """S0 §Close combat 3 taken by two processes at once, both after the same
    log position: exactly one reveal is written; the other is refused."""
    from ka_tui.rules.core.dice import RandomDice
    from ka_tui.rules.cqc import CqcCard, initiative_order

    with open_campaign(demo_db) as db:
        a, b = _kasia(db), _kasia(db) + 1
        fid = fights.start_fight(db, [(a, b)])
        p = fights.load_progress(db, fid)
        fights.record_initiative(db, fid, initiative_order(p.start.fighters, RandomDice(1),
                                                           p.rules), False)
        p = fights.load_progress(db, fid)
        for owner in fights.card_order(p.fight):
            opp = p.fight.opponents_of(owner)[0]
            fights.record_card(db, fid, 1, owner, [CqcCard.build(owner, opp, defence="2b")])
        seq = fights.load_progress(db, fid).seq
    ctx = mp.get_context("spawn")
    barrier, out = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=_reveal, args=(str(demo_db), fid, seq, barrier, out))
             for _ in range(2)]
    for proc in procs:
        proc.start()
    results = sorted(out.get(timeout=60) for _ in procs)
    for proc in procs:
        proc.join(timeout=30)
    assert results[0] == "landed" and results[1].startswith("refused: Another window")
    with open_campaign(demo_db) as db:
        done = fights.load_progress(db, fid)
    assert done.revealed and done.seq == seq + 1  # one reveal, nothing duplicated
