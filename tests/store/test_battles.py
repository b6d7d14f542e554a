"""The air-battle service: start from the roster, load by replay,
commit each action with its expected position, undo, end with the outcome
written back to the campaign in one transaction. Real SQLite files in
tmp_path; the rules (R-1 … R-10, RULES-NOTES D) decide, the store keeps the log."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from ka_tui.rules.air.codec import encode
from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.air.move_plan import parse_plan
from ka_tui.rules.air.profiles import BEAUFIGHTER, SPITFIRE, TEMPEST
from ka_tui.rules.air.turn import Phase, what_next
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.store import battles, roster
from ka_tui.store.db import CampaignDB, open_campaign
from ka_tui.store.demo import DEMO_BATTLE, DEMO_MAP
from ka_tui.store.errors import StoreError, ValidationError

OPEN = ("." + " ." * 9 + "\n") * 10   # 10×10 open ground


@dataclass
class Squadron:
    path: Path
    hale: int
    kurt: int
    gunner: int
    nobody_aircraft: int
    blue: int
    red: int
    heavy: int


@pytest.fixture
def sq(db_path: Path) -> Squadron:
    """Two pilots and their aircraft, a heavy fighter with a gunner, one
    aircraft with no pilot seated."""
    with open_campaign(db_path) as db:
        hale = roster.add_character(db, name="Hale", role="pilot", piloting=4, gunnery=4)
        kurt = roster.add_character(db, name="Kurt", role="pilot", piloting=5, gunnery=5)
        nowak = roster.add_character(db, name="Nowak", role="pilot")
        gunner = roster.add_character(db, name="Okoro", role="crew", wounds=2)
        blue = roster.add_aircraft(db, replace(TEMPEST, traits=(), firepower=1), name="Blue 1")
        # Evasion 0 and Hull 1: the first hit of the scripted shot destroys it.
        red = roster.add_aircraft(db, replace(SPITFIRE, traits=(), evasion=0, hull=1),
                                  name="Red 1", fuel_left=10)
        heavy = roster.add_aircraft(db, BEAUFIGHTER, name="Red 2")
        empty = roster.add_aircraft(db, SPITFIRE, name="Spare")
        roster.assign_pilot(db, blue.id, hale.id)
        roster.assign_pilot(db, red.id, kurt.id)
        roster.assign_pilot(db, heavy.id, nowak.id)
        roster.set_crew(db, heavy.id, [gunner.id])
    return Squadron(db_path, hale.id, kurt.id, gunner.id, empty.id, blue.id, red.id, heavy.id)


def _start(db: CampaignDB, sq: Squadron, **kw: Any) -> int:
    return battles.start_battle(db, [
        battles.StartPosition(sq.blue, "Blue", Hex.from_offset(5, 8), 0, 2, 6),
        battles.StartPosition(sq.red, "Red", Hex.from_offset(5, 2), 0, 2, 6),
        battles.StartPosition(sq.heavy, "Red", Hex.from_offset(8, 2), 3, 3, 7),
    ], map_text=OPEN, map_name="Open", **kw)


def _rows(path: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    con = sqlite3.connect(path)
    try:
        return list(con.execute(sql, args).fetchall())
    finally:
        con.close()


def _stored_kinds(path: Path, battle_id: int) -> list[str]:
    return [k for (k,) in _rows(path, "SELECT kind FROM battle_event WHERE battle_id = ? "
                                      "ORDER BY seq", battle_id)]


# ------------------------------------------------------------------ start

def test_start_maps_roster_rows_to_units_with_pilot_crew_and_status_r2_r5(sq: Squadron) -> None:
    with open_campaign(sq.path) as db:
        bid = _start(db, sq)
        loaded = battles.load_battle(db, bid)
    heavy = loaded.state.unit("Red 2")
    assert heavy.side == "Red" and heavy.profile.hull == BEAUFIGHTER.hull
    assert heavy.pilot.name == "Nowak" and [c.name for c in heavy.crew] == ["Okoro"]
    assert heavy.crew[0].wounds == 2                         # R-5 wounds carried in
    assert (heavy.hex, heavy.facing, heavy.altitude, heavy.speed) == (
        Hex.from_offset(8, 2), 3, 3, 7)
    assert loaded.state.unit("Red 1").fuel == 10              # the row's fuel left
    assert loaded.aircraft == {"Blue 1": sq.blue, "Red 1": sq.red, "Red 2": sq.heavy}
    assert loaded.airmen["Red 2"][1] == sq.gunner
    assert loaded.name == "Blue vs Red" and loaded.map_name == "Open"
    assert _stored_kinds(sq.path, bid) == ["battle_started"]
    assert what_next(loaded.state).text.startswith("turn 1: roll initiative")


def test_an_aircraft_without_a_seated_pilot_is_refused_with_the_reason(sq: Squadron) -> None:
    with open_campaign(sq.path) as db:
        cands = {c.name: c for c in battles.candidates(db)}
        ready = {name: c.unable for name, c in cands.items()}
        with pytest.raises(ValidationError) as err:
            battles.start_battle(db, [
                battles.StartPosition(sq.blue, "Blue", Hex.from_offset(1, 1)),
                battles.StartPosition(sq.nobody_aircraft, "Red", Hex.from_offset(3, 3)),
            ], map_text=OPEN)
    assert err.value.field == "aircraft" and "Spare has no pilot seated" in str(err.value)
    assert ready["Spare"] == "Spare has no pilot seated" and ready["Blue 1"] == ""
    assert cands["Spare"].unit is None and not cands["Spare"].ready
    template = cands["Red 2"].unit
    assert template is not None and template.pilot.name == "Nowak"
    assert [c.name for c in template.crew] == ["Okoro"] and template.speed == BEAUFIGHTER.move
    assert _rows(sq.path, "SELECT count(*) FROM battle") == [(0,)]


@pytest.mark.parametrize("places, field, words", [
    ([("blue", "Blue", (1, 1), 0, 2, 4), ("red", "Blue", (3, 3), 0, 2, 4)], "side", "two or more"),
    ([("blue", "Blue", (12, 1), 0, 2, 4), ("red", "Red", (3, 3), 0, 2, 4)], "hex", "off the map"),
    ([("blue", "Blue", (1, 1), 0, 9, 4), ("red", "Red", (3, 3), 0, 2, 4)], "altitude", "ceiling"),
    ([("blue", "Blue", (1, 1), 0, 2, 11), ("red", "Red", (3, 3), 0, 2, 4)], "speed", "Move"),
    ([("blue", "Blue", (1, 1), 0, 2, 4), ("blue", "Red", (3, 3), 0, 2, 4)], "aircraft", "twice"),
])
def test_a_bad_placement_is_refused_and_nothing_is_written_r3_s0_altitude(
        sq: Squadron, places: list[Any], field: str, words: str) -> None:
    ids = {"blue": sq.blue, "red": sq.red}
    with open_campaign(sq.path) as db, pytest.raises(ValidationError) as err:
        battles.start_battle(db, [battles.StartPosition(ids[a], side, Hex.from_offset(*cr), f,
                                                        lv, sp)
                                  for a, side, cr, f, lv, sp in places], map_text=OPEN)
    assert err.value.field == field and words in str(err.value)
    assert _rows(sq.path, "SELECT count(*) FROM battle") == [(0,)]


def test_an_unconscious_pilot_is_refused_r5(sq: Squadron) -> None:
    with open_campaign(sq.path) as db:
        roster.update_character(db, sq.kurt, wounds=3, conscious=False)
        with pytest.raises(ValidationError, match="Kurt is unconscious"):
            _start(db, sq)


def test_battles_are_listed_open_newest_first_then_ended(sq: Squadron) -> None:
    with open_campaign(sq.path) as db:
        first, second, third = (_start(db, sq, name=f"Sortie {n}") for n in (1, 2, 3))
        battles.end_battle(db, third)
        listed = battles.list_battles(db)
        newest = battles.newest_open(db)
    assert [(b.id, b.status) for b in listed] == [(second, "open"), (first, "open"),
                                                   (third, "ended")]
    assert newest == second
    assert listed[0].sides == ("Blue", "Red") and listed[0].aircraft == 3
    assert listed[0].map_name == "Open" and listed[0].events == 1


# ------------------------------------------------------------------ commit / undo

def test_commit_stores_one_event_per_action_and_a_stale_window_is_refused(sq: Squadron) -> None:
    with open_campaign(sq.path) as db:
        bid = _start(db, sq)
        a = battles.load_battle(db, bid)
        b = battles.load_battle(db, bid)          # a second window on the same battle
        a.battle.begin_turn(ScriptedDice.of([6, 6, 1, 1]))
        assert battles.commit(db, bid, a.battle.events[-1]) == 2
        b.battle.begin_turn(ScriptedDice.of([1, 1, 6, 6]))
        with pytest.raises(battles.StaleLog, match="Another window"):
            battles.commit(db, bid, b.battle.events[-1])
        again = battles.load_battle(db, bid)
    assert _stored_kinds(sq.path, bid) == ["battle_started", "turn_started"]
    assert again.state.order == ("Blue", "Red")               # window A's roll, R-1.1
    assert encode(again.state) == encode(a.state)


def test_undo_drops_the_last_action_and_the_replay_goes_back_r1(sq: Squadron) -> None:
    with open_campaign(sq.path) as db:
        bid = _start(db, sq)
        lb = battles.load_battle(db, bid)
        lb.battle.begin_turn(ScriptedDice.of([6, 6, 1, 1]))
        battles.commit(db, bid, lb.battle.events[-1])
        before = encode(lb.state)
        lb.battle.move("Blue 1", parse_plan("F")[0], ScriptedDice.of([]))
        battles.commit(db, bid, lb.battle.events[-1])
        with pytest.raises(battles.StaleLog):
            battles.undo_last(db, bid, expect=2)              # this window is behind
        dropped = battles.undo_last(db, bid, expect=lb.position)
        lb.battle.undo()
        reloaded = battles.load_battle(db, bid)
        assert dropped["kind"] == "move_committed" and dropped["seq"] == 2
        assert encode(reloaded.state) == before == encode(lb.state)
        battles.undo_last(db, bid, expect=2)
        with pytest.raises(StoreError, match="nothing to undo"):
            battles.undo_last(db, bid, expect=1)
    assert _stored_kinds(sq.path, bid) == ["battle_started"]


def test_quit_and_reload_mid_turn_resumes_where_it_was_r1_2(sq: Squadron) -> None:
    with open_campaign(sq.path) as db:
        bid = _start(db, sq)
        lb = battles.load_battle(db, bid)
        lb.battle.begin_turn(ScriptedDice.of([6, 6, 1, 1]))
        battles.commit(db, bid, lb.battle.events[-1])
        lb.battle.move("Blue 1", parse_plan("F")[0], ScriptedDice.of([]))
        battles.commit(db, bid, lb.battle.events[-1])
        expected, log = encode(lb.state), lb.battle.log
    # "quit": the file is closed; a new process opens it again
    with open_campaign(sq.path) as db:
        back = battles.load_battle(db, bid)
        summary = battles.list_battles(db)[0]
    assert encode(back.state) == expected and back.battle.log == log
    assert back.state.phase is Phase.MOVEMENT and back.state.unit("Blue 1").moved
    assert back.next_step().text == "Blue has moved: end the movement (R-6 collision rolls)"
    assert (summary.turn, summary.events, summary.open) == (1, 3, True)


def test_a_draft_plan_is_kept_until_its_aircraft_moves_r1_2(sq: Squadron) -> None:
    """The GM's plan being built is kept across closing the file; a draft of an
    earlier turn, or of an aircraft that has moved (R-1.2), is not taken up;
    the move drops it, and so does the end of the battle (then none is kept)."""
    plan = ({"step": "Forward"},)
    with open_campaign(sq.path) as db:
        bid = _start(db, sq)
        lb = battles.load_battle(db, bid)
        battles.save_drafts(db, bid, {"Blue 1": battles.Draft("Blue 1", plan, turn=1)})
        assert battles.load_battle(db, bid).drafts == {}      # between turns: none open
        lb.battle.begin_turn(ScriptedDice.of([6, 6, 1, 1]))
        battles.commit(db, bid, lb.battle.events[-1])
        battles.save_drafts(db, bid, {
            "Red 1": battles.Draft("Red 1", plan, evasive=True, turn=1),
            "Red 2": battles.Draft("Red 2", plan, turn=0)})       # an earlier turn's
    with open_campaign(sq.path) as db:
        back = battles.load_battle(db, bid).drafts
        assert sorted(back) == ["Blue 1", "Red 1"] and back["Red 1"].evasive
        battles.save_drafts(db, bid, {"Red 1": None})
        lb.battle.move("Blue 1", parse_plan("F")[0], ScriptedDice.of([]))
        battles.commit(db, bid, lb.battle.events[-1])
        assert battles.load_battle(db, bid).drafts == {}
        assert _rows(sq.path, "SELECT unit FROM battle_draft") == [("Red 2",)]
        battles.save_drafts(db, bid, {"Red 2": battles.Draft("Red 2", plan, turn=1)})
        battles.end_battle(db, bid)
        assert _rows(sq.path, "SELECT unit FROM battle_draft") == []
        with pytest.raises(battles.BattleEnded):
            battles.save_drafts(db, bid, {"Red 2": battles.Draft("Red 2", plan, turn=1)})


# ------------------------------------------------------------------ end

def _shoot_down(db: CampaignDB, sq: Squadron) -> tuple[int, battles.LoadedBattle]:
    """Turn 1: Blue wins the initiative (R-1.1), flies one hex, shoots Red 1:
    to hit 6+6, Firepower 6 (a critical), cockpit 1+1 wounds Kurt, who fails
    his consciousness roll 1+1 (R-5); Hull 1 → destroyed (RULES-NOTES D)."""
    bid = _start(db, sq)
    lb = battles.load_battle(db, bid)
    b = lb.battle
    for step in (lambda: b.begin_turn(ScriptedDice.of([6, 6, 1, 1])),
                 lambda: b.move("Blue 1", parse_plan("F")[0], ScriptedDice.of([])),
                 lambda: b.end_movement(ScriptedDice.of([])),
                 lambda: b.shoot("Blue 1", "Red 1", ScriptedDice.of([6, 6, 6, 1, 1, 1, 1]))):
        step()
        battles.commit(db, bid, b.events[-1])
    return bid, lb


def test_end_writes_the_outcome_back_in_one_transaction_r1_4_r5(sq: Squadron) -> None:
    with open_campaign(sq.path) as db:
        bid, lb = _shoot_down(db, sq)
        assert lb.state.unit("Red 1").destroyed
        outcome = battles.end_battle(db, bid, expect=lb.position)
        victories = battles.air_victories(db)
        hale_only = battles.air_victories(db, pilot_id=sq.hale)
        kurt_only = battles.air_victories(db, pilot_id=sq.kurt)
        with pytest.raises(StoreError, match="already ended"):
            battles.end_battle(db, bid)
        with pytest.raises(StoreError):
            battles.undo_last(db, bid)
    red = _rows(sq.path, "SELECT hull_hits, damage, fuel_left, ammo_left FROM aircraft "
                         "WHERE id = ?", sq.red)[0]
    blue = _rows(sq.path, "SELECT hull_hits, ammo_left, fuel_left FROM aircraft WHERE id = ?",
                 sq.blue)[0]
    kurt = _rows(sq.path, "SELECT wounds, conscious FROM character WHERE id = ?", sq.kurt)[0]
    assert red[0] == 1 and red[2] == 10
    assert json.loads(red[1]) == {"effects": {"cockpit": 1}, "hits": {"cockpit": 1},
                                  "lost": "destroyed", "lost_in": bid}
    assert blue == (0, TEMPEST.ammo - 1, TEMPEST.fuel)        # one burst fired
    assert kurt == (1, 0)                                     # wounded, unconscious
    assert _rows(sq.path, "SELECT status FROM battle WHERE id = ?", bid) == [("ended",)]
    assert _stored_kinds(sq.path, bid)[-1] == "battle_ended"
    [v] = victories
    assert (v.pilot_id, v.aircraft_id, v.victim_id, v.victim_pilot_id, v.how, v.turn) == (
        sq.hale, sq.blue, sq.red, sq.kurt, "shot", 1)
    assert hale_only == victories and kurt_only == []
    assert [(x.name, x.state, x.cause) for x in outcome.losses] == [("Red 1", "destroyed", "shot")]
    with open_campaign(sq.path) as db:
        cands = {c.name: c for c in battles.candidates(db)}
        ended = battles.load_battle(db, bid)
    assert cands["Red 1"].unable == "Red 1 was destroyed in battle"
    assert cands["Blue 1"].busy == ""                         # no longer in an open battle
    assert ended.ended and ended.outcome is not None and ended.outcome["turns"] == 1


def test_every_loss_is_journalled_outside_any_mission_r1_3_r5(sq: Squadron) -> None:
    """A battle in no mission: Red 1 destroyed and Kurt, at 5 wounds before
    the cockpit hit, killed (R-5: 6 wounds) — both in the journal at the end,
    the campaign's (no mission), each naming its aircraft and people."""
    from ka_tui.rules.campaign.journal import EntryKind
    from ka_tui.store import journal

    with open_campaign(sq.path) as db:
        roster.update_character(db, sq.kurt, wounds=5)
        bid, lb = _shoot_down(db, sq)
        battles.end_battle(db, bid, expect=lb.position)
        lost = journal.entries(db, kind=EntryKind.BATTLE, aircraft=sq.red)
        dead = journal.entries(db, kind=EntryKind.DEATH, character=sq.kurt)
    [entry] = lost
    assert entry.text.startswith("Red 1 destroyed in “") and "turn 1 (shot down, R-2)" in entry.text
    assert entry.characters == (sq.kurt,) and entry.mission is None
    assert [d.text.split(" killed")[0] for d in dead] == ["Kurt"] and dead[0].mission is None


@pytest.mark.parametrize("cools", [True, False])
def test_engine_heat_between_two_battles_of_a_day_r1_4_r3_5(sq: Squadron, cools: bool) -> None:
    """campaign.cool_between_battles: Blue 1 ends a battle with its Engine
    Overheat modifier at 2 (R-3.5); on (default) the next battle the same day
    starts with the engine cool, off it starts at 2. The battle's own report
    keeps the 2 either way (R-1.4)."""
    from ka_tui.store.campaign import house_rules, set_house_rules

    with open_campaign(sq.path) as db:
        rules = house_rules(db)
        set_house_rules(db, replace(rules, campaign=replace(
            rules.campaign, cool_between_battles=cools)))
    con = sqlite3.connect(sq.path)
    con.execute("UPDATE aircraft SET overheat = 2 WHERE id = ?", (sq.blue,))
    con.commit()
    con.close()
    with open_campaign(sq.path) as db:
        first = _start(db, sq)
        outcome = battles.end_battle(db, first)
        second = battles.load_battle(db, _start(db, sq))
    assert next(a.overheat for a in outcome.aircraft if a.name == "Blue 1") == 2
    assert second.state.unit("Blue 1").overheat == (0 if cools else 2)


def _crash_blue(db: CampaignDB, sq: Squadron) -> int:
    """Blue 1 at level 1 and speed 0 stalls at the turn's start (R-3.2), fails
    the check 1+1, falls to the ground and crashes (R-6.1)."""
    bid = battles.start_battle(db, [
        battles.StartPosition(sq.blue, "Blue", Hex.from_offset(5, 8), 0, 1, 0),
        battles.StartPosition(sq.red, "Red", Hex.from_offset(5, 2), 0, 2, 6),
    ], map_text=OPEN, map_name="Open")
    lb = battles.load_battle(db, bid)
    lb.battle.begin_turn(ScriptedDice.of([6, 6, 1, 1, 1, 1] + [6] * 20))
    battles.commit(db, bid, lb.battle.events[-1])
    assert lb.state.unit("Blue 1").crashed
    return bid


def test_a_crash_asks_the_gm_about_the_crew_r6_1(sq: Squadron) -> None:
    """campaign.crash_crew = gm_asks (default): the end of a battle in which
    Blue 1 crashed names Hale, its pilot, and is refused until the GM says what
    became of him; his answer (missing) is written and journalled."""
    from ka_tui.rules.campaign.crash import CrashFate
    from ka_tui.rules.campaign.journal import EntryKind
    from ka_tui.store import journal

    with open_campaign(sq.path) as db:
        bid = _crash_blue(db, sq)
        loaded = battles.load_battle(db, bid)
        assert [(c.character_id, c.aircraft) for c in loaded.crews_to_ask] == [
            (sq.hale, "Blue 1")]
        with pytest.raises(ValidationError, match="say what the crash did to Hale"):
            battles.end_battle(db, bid)
        assert not battles.load_battle(db, bid).ended
        outcome = battles.end_battle(db, bid, crew_fates={sq.hale: CrashFate.MISSING})
        entries = journal.entries(db, kind=EntryKind.BATTLE, character=sq.hale)
    [hale] = [p for p in outcome.airmen if p.character_id == sq.hale]
    assert (hale.crash_fate, hale.missing) == ("missing", True)
    assert _rows(sq.path, "SELECT missing FROM person_state WHERE character_id = ?",
                 sq.hale) == [(1,)]
    assert [e.text.split(" in ")[0] for e in entries] == ["Blue 1 crashed",
                                                          "Hale missing after a crash"]


def test_as_flown_the_crash_asks_nothing(sq: Squadron) -> None:
    from ka_tui.rules.core.options import CrashCrew
    from ka_tui.store.campaign import house_rules, set_house_rules

    with open_campaign(sq.path) as db:
        rules = house_rules(db)
        set_house_rules(db, replace(rules, campaign=replace(
            rules.campaign, crash_crew=CrashCrew.AS_FLOWN)))
        bid = _crash_blue(db, sq)
        assert battles.load_battle(db, bid).crews_to_ask == []
        outcome = battles.end_battle(db, bid)
    assert all(p.crash_fate == "" for p in outcome.airmen)


def test_end_writes_nothing_when_any_part_fails(sq: Squadron) -> None:
    """One transaction: a failure after the aircraft and character rows are
    updated (here the log refuses the ``battle_ended`` event) keeps none of it."""
    with open_campaign(sq.path) as db:
        bid, lb = _shoot_down(db, sq)
        with pytest.raises(battles.StaleLog):
            battles.end_battle(db, bid, expect=lb.position - 1)
    con = sqlite3.connect(sq.path)
    con.execute("CREATE TRIGGER refuse_end BEFORE INSERT ON battle_event "
                "WHEN NEW.kind = 'battle_ended' BEGIN SELECT RAISE(ABORT, 'disk trouble'); END")
    con.commit()
    con.close()
    with open_campaign(sq.path) as db, pytest.raises(StoreError):
        battles.end_battle(db, bid, expect=lb.position)
    assert _rows(sq.path, "SELECT hull_hits, damage FROM aircraft WHERE id = ?", sq.red) == [
        (0, "{}")]
    assert _rows(sq.path, "SELECT wounds FROM character WHERE id = ?", sq.kurt) == [(0,)]
    assert _rows(sq.path, "SELECT status FROM battle WHERE id = ?", bid) == [("open",)]


def test_a_battle_keeps_the_house_rules_it_started_under(sq: Squadron) -> None:
    from ka_tui.store.campaign import house_rules, set_house_rules

    with open_campaign(sq.path) as db:
        bid = _start(db, sq)
        rules = house_rules(db)
        set_house_rules(db, replace(rules, air=replace(rules.air, fuel_per_turn=3)))
        loaded = battles.load_battle(db, bid)
    assert loaded.options.fuel_per_turn == rules.air.fuel_per_turn != 3


# ------------------------------------------------------------------ the demo

def test_the_demo_battle_replays_with_two_aircraft_a_side_turn_1_begun(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        listed = battles.list_battles(db)
        bid = battles.newest_open(db)
        assert bid is not None
        loaded = battles.load_battle(db, bid)
    assert [b.name for b in listed] == [DEMO_BATTLE]
    state = loaded.state
    sides = {s: [u.id for u in state.side_units(s)] for s in state.sides}
    assert sides == {"Blue": ["Tempest KA-A", "Spitfire KA-B"],
                     "Red": ["Beaufighter KA-C", "Il-2 KA-D"]}
    assert (state.turn, state.phase, state.order) == (1, Phase.MOVEMENT, ("Blue", "Red"))
    assert loaded.map_text == DEMO_MAP and loaded.battle_map.cols == 20
    assert loaded.next_step().units == ("Tempest KA-A", "Spitfire KA-B")
    assert all(not u.out_of_control and not u.crashed for u in state.units)


def test_the_demo_battle_can_be_played_on_and_ended(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        bid = battles.newest_open(db) or 0
        lb = battles.load_battle(db, bid)
        lb.battle.move("Tempest KA-A", parse_plan("F F F F")[0], ScriptedDice.of([]))
        battles.commit(db, bid, lb.battle.events[-1])
        outcome = battles.end_battle(db, bid)
    assert {a.name for a in outcome.aircraft} == {"Tempest KA-A", "Spitfire KA-B",
                                                  "Beaufighter KA-C", "Il-2 KA-D"}
    assert outcome.victories == () and outcome.losses == ()


def test_an_ended_battle_survives_export_and_import_with_its_victories(
        sq: Squadron, tmp_path: Path) -> None:
    from ka_tui.rules.air.battle import accept_kind
    from ka_tui.store.transfer import export_campaign, import_campaign

    with open_campaign(sq.path) as db:
        bid, lb = _shoot_down(db, sq)
        battles.end_battle(db, bid)
        before = battles.air_victories(db)
        with pytest.raises(battles.BattleEnded):
            battles.commit(db, bid, {**lb.battle.events[-1], "seq": lb.position + 1})
        export_campaign(db, tmp_path / "c.json")
    with import_campaign(tmp_path / "c.json", tmp_path / "copy.db").db as db:
        assert battles.air_victories(db) == before
        back = battles.load_battle(db, bid)
    assert back.ended and back.battle.events[-1]["kind"] == "battle_ended"
    assert accept_kind([e["kind"] for e in back.battle.events], "turn_started") == (
        "the battle has ended")                                # nothing follows the end


# ------------------------------------------- a log that recorded no house rules

def store_unrecorded_battle(db: CampaignDB) -> tuple[int, dict[str, Any]]:
    """A battle as logged before battle_started recorded the air house rules:
    one turn with a shot (R-1, the tail chase of tests/rules/test_battle.py),
    turn 2 begun. Returns its id and a legal plan for aircraft A (the
    ``plan_sent`` data a player would send)."""
    from ka_tui.rules.air.codec import plan_to_json
    from ka_tui.rules.air.movement import complete_plan
    from ka_tui.rules.core.dice import RandomDice

    from tests.rules.test_battle import MAP, OPT, _tail_chase, cruise
    from tests.store import log_shortcuts as logs

    played = _tail_chase(3)
    played.begin_turn(RandomDice(5))
    events = json.loads(json.dumps(played.events))
    assert "shot_resolved" in [e["kind"] for e in events]
    del events[0]["data"]["rules"]
    head = logs.new_battle(db, "Before the rules were recorded")
    for e in events:
        logs.append_battle_event(db, head.id, e["kind"],
                                 {k: e[k] for k in ("data", "faces", "log")})
    a = played.state.unit("A")
    plan = {"unit": "A", "plan": plan_to_json(complete_plan(a, cruise(a), MAP, OPT)),
            "evasive": False, "by": "Ann"}
    return head.id, plan


def test_a_log_without_recorded_rules_replays_under_the_campaign_s_everywhere(
        db_path: Path) -> None:
    """One fallback (``rows_to_rules.battle_fallback``): a battle log that recorded
    no air house rules replays under the campaign's, for the GM's screen and for
    a player's plan check alike. Under the campaign's rules here (hits on 6+),
    the logged shot's dice are not used, so neither the screen nor the plan
    check takes the log; before, the plan check replayed it under the defaults
    and let a plan in that the GM's screen could not load."""
    from ka_tui.store import events as ev
    from ka_tui.store.campaign import house_rules, set_house_rules
    from ka_tui.store.events import EventRefused, LogEvent, LogRef

    with open_campaign(db_path) as db:
        battle_id, plan = store_unrecorded_battle(db)
        assert battles.load_battle(db, battle_id).state.turn == 2  # the defaults: it replays
        set_house_rules(db, house_rules(db).with_changes("air", firepower_hit_on=6))
        with pytest.raises(battles.BattleLogError, match="cannot be replayed"):
            battles.load_battle(db, battle_id)
        with pytest.raises(EventRefused, match="does not replay"):
            ev.append(db, LogRef.battle(battle_id), LogEvent("plan_sent", {"data": plan}), None)
        set_house_rules(db, house_rules(db).with_changes("air", firepower_hit_on=4))
        ev.append(db, LogRef.battle(battle_id), LogEvent("plan_sent", {"data": plan}), None)
        assert battles.load_battle(db, battle_id).battle.events[-1]["kind"] == "plan_sent"


def test_the_roster_shows_a_crashed_aircrafts_hull_within_its_bounds(demo_db: Path) -> None:
    """R-6.1: the demo's Il-2 (Hull 6, 2 hits) dives into the ground (2d6 6+6
    × 10 × speed 2 = 240 points, 24 hits, RULES-NOTES C): the roster's live
    hull during the battle is 0/6, not -20/6 (S0 §Flight card Hull)."""
    from ka_tui.rules.core.dice import RandomDice
    from ka_tui.store.roster_reads import load_roster

    db = open_campaign(demo_db)
    loaded = battles.load_battle(db, 1)
    bt = loaded.battle
    for uid in ("Tempest KA-A", "Spitfire KA-B"):
        bt.move(uid, parse_plan("4F")[0], ScriptedDice.of([]))
    bt.end_movement(ScriptedDice.of([]))
    bt.end_shooting(ScriptedDice.of([]))
    bt.move("Beaufighter KA-C", parse_plan("3F")[0], ScriptedDice.of([]))
    bt.move("Il-2 KA-D", parse_plan("D2")[0], _SixesThen(RandomDice(1)))
    assert bt.state.unit("Il-2 KA-D").crashed
    bt.end_movement(ScriptedDice.of([]))   # the damage in effect
    for event in bt.events[2:]:
        battles.commit(db, 1, event)
    planes = {a["name"]: a for a in load_roster(db, live=True).aircraft}
    il2 = planes["Il-2 KA-D"]
    assert il2["live_hull_hits"] == 6
    db.close()


class _SixesThen:
    """Two sixes (the crash roll), then ``rest``."""

    def __init__(self, rest: Any) -> None:
        self.first = [6, 6]
        self.rest = rest

    def roll(self, sides: int) -> int:
        return self.first.pop(0) if self.first else self.rest.roll(sides)
