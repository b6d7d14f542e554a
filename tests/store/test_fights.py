"""Close-combat fights as an event log (DESIGN.md "Fights and battles as a log
of events"; S0 §Close combat; RULES-NOTES B): replay, undo, resume and the
outcome written back -- on a real SQLite file (the demo campaign).

Demo fighters: Mike Dunn (Close Combat 7 [L1] = 3d12+1d20, Combat Initiative
5 [M] = 4d12, Strength 6, AP 8, K 14, Sten gun / Fighting knife / Grenade);
Olga Petrova (Close Combat 4 [T] = 2d10, Agility 4, Armour 1, K 10, TT pistol);
Jeanne Moreau (Close Combat 3 [T] = 2d10, Agility 6, AP 6, K 10, Pistol).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from ka_tui.rules.cqc import CqcCard, initiative_order
from ka_tui.rules.core.options import HouseRules, UntrainedCloseCombat
from ka_tui.store import fights
from ka_tui.store.db import CampaignDB, open_campaign
from ka_tui.store.errors import ValidationError

# Initiative: Mike's 4d12 Combat Initiative then the other's Active Agility
# test, 2d8 (S0 §Close combat 1, house rule cqc.agility_test).
INIT = [10, 10, 10, 10, 2, 2]
# A round Mike wins: his 3d12+1d20 need 4+ (3+ against Jeanne), the 2d10 fail.
MIKE_WINS = [8, 8, 8, 8, 2, 2]


def rows(db: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


@pytest.fixture
def db(demo_db: Path) -> CampaignDB:
    handle = open_campaign(demo_db)
    yield handle
    handle.close()


def ids(db: CampaignDB) -> dict[str, int]:
    candidates, _ = fights.load_candidates(db)
    return {c.name.split()[0]: c.id for c in candidates}


def started(db: CampaignDB, a: str = "Mike", b: str = "Olga") -> tuple[int, fights.FightProgress]:
    who = ids(db)
    fight_id = fights.start_fight(db, [(who[a], who[b])])
    p = fights.load_progress(db, fight_id)
    result = initiative_order(p.start.fighters, INIT, p.rules)
    fights.record_initiative(db, fight_id, result, typed=True)
    return fight_id, fights.load_progress(db, fight_id)


def play_round(db: CampaignDB, fight_id: int, cards: dict[str, dict[str, Any]],
               faces: list[int]) -> fights.FightProgress:
    """Enter the cards, reveal, roll ``faces`` and resolve -- one event each."""
    from ka_tui.rules.cqc import resolve_round

    p = fights.load_progress(db, fight_id)
    for fid in p.to_enter:
        opp = p.fight.opponents_of(fid)[0]
        fights.record_card(db, fight_id, p.fight.round, fid,
                           [CqcCard.build(fid, opp, **cards.get(fid, {}))])
    fights.record_reveal(db, fight_id, p.fight.round)
    p = fights.load_progress(db, fight_id)
    _, report = resolve_round(p.fight, p.round_cards, faces, p.rules)
    fights.record_dice(db, fight_id, p.fight.round, report, typed=True)
    p = fights.load_progress(db, fight_id)
    assert p.rolled is not None and p.rolled_after is not None
    fights.record_resolved(db, fight_id, p.rolled, p.rolled_after)
    return fights.load_progress(db, fight_id)


def test_s0_close_combat_fighter_from_roster_uses_close_combat_pool(db: CampaignDB) -> None:
    """S0 §Close combat 4 with the rules core's pools; step 1 Combat Initiative."""
    cands, _ = fights.load_candidates(db)
    mike = next(c for c in cands if c.name == "Mike Dunn").fighter
    assert mike.cc_pool == (12, 12, 12, 20) and mike.cc_number == 7 and mike.cc_legendary
    assert mike.ci_pool == (12, 12, 12, 12) and mike.ci_number == 5
    assert mike.ap_max == 8 and mike.k_points == 14 and mike.armour == 2
    assert [w.name for w in mike.weapons] == ["Sten gun", "Fighting knife", "Grenade"]


def test_house_rule_untrained_close_combat_agility_or_weapons() -> None:
    """S0 is silent on a fighter without Close Combat: house rule
    cqc.untrained_close_combat (default Agility d12, or Weapons d12)."""
    row = dict(id=1, name="Arthur", strength=3, agility=5, resistance=3, armour=0, ap=7,
               k_points=12, base_weapons=4, conscious=True)
    agility = fights.fighter_of(row, [], [], HouseRules())
    assert (agility.fighter.cc_pool, agility.fighter.cc_number) == ((12,), 5)
    rules = HouseRules().with_changes("cqc", untrained_close_combat=UntrainedCloseCombat.WEAPONS)
    weapons = fights.fighter_of(row, [], [], rules)
    assert (weapons.fighter.cc_pool, weapons.fighter.cc_number) == ((12,), 4)
    assert "Weapons 4" in weapons.skill_note


def test_unconscious_character_cannot_start_a_fight(db: CampaignDB) -> None:
    """R-5: an unconscious character is out of action."""
    from ka_tui.store import roster

    who = ids(db)
    roster.update_character(db, who["Olga"], wounds=6)
    with pytest.raises(ValidationError, match="unconscious"):
        fights.start_fight(db, [(who["Mike"], who["Olga"])])


def test_fight_log_steps_follow_the_six_steps(db: CampaignDB) -> None:
    """S0 §Close combat 1-6: each event moves the replayed fight one step on."""
    who = ids(db)
    fight_id = fights.start_fight(db, [(who["Mike"], who["Olga"])])
    p = fights.load_progress(db, fight_id)
    assert p.step == 1 and p.name == "Mike Dunn vs Olga Petrova"
    fights.record_initiative(db, fight_id, initiative_order(p.start.fighters, INIT, p.rules), True)
    p = fights.load_progress(db, fight_id)
    mike, olga = str(who["Mike"]), str(who["Olga"])
    assert p.step == 2 and p.fight.order == (mike, olga) and p.to_enter == (mike, olga)
    fights.record_card(db, fight_id, 1, mike, [CqcCard.build(mike, olga, attack="1b")])
    p = fights.load_progress(db, fight_id)
    assert p.step == 2 and p.to_enter == (olga,)
    fights.record_card(db, fight_id, 1, olga, [CqcCard.build(olga, mike, defence="1b")])
    assert fights.load_progress(db, fight_id).step == 3
    fights.record_reveal(db, fight_id, 1)
    assert fights.load_progress(db, fight_id).step == 4
    kinds = [k for (k,) in rows(db.path, "SELECT kind FROM fight_event ORDER BY seq")]
    assert kinds == ["fight_started", "initiative", "card_entered", "card_entered",
                     "cards_revealed"]


def test_replay_never_rolls_and_matches_the_recorded_report(db: CampaignDB) -> None:
    """DESIGN.md: the stored faces are the only dice; the replayed report
    equals the audit copy stored with ``round_resolved``."""
    fight_id, p = started(db)
    mike, olga = p.fight.order
    p = play_round(db, fight_id, {mike: dict(attack="2b", weapon="Sten gun")},
                   MIKE_WINS + [2, 12])  # S0 §2.2: two successful Attacks, two saves
    stored = [r for (r,) in rows(db.path, "SELECT payload FROM fight_event "
                                          "WHERE kind='round_resolved'")]
    import json

    assert json.loads(stored[0])["report"] == p.reports[0].to_dict()
    assert p.step == 6 and p.fight.fighter(olga).k_points == 6  # one failed save: -4


def test_undo_drops_the_last_round_in_one_go(db: CampaignDB) -> None:
    """Undo the last round: all its events go; a half-played round goes back to its start."""
    fight_id, p = started(db)
    mike, olga = p.fight.order
    play_round(db, fight_id, {mike: dict(feint="1b")}, MIKE_WINS)
    fights.record_card(db, fight_id, 2, mike, [CqcCard.build(mike, olga, attack="1b")])
    assert fights.undo_last_round(db, fight_id) == 1  # the half-played round 2
    p = fights.load_progress(db, fight_id)
    assert p.step == 6 and p.round == 1
    assert fights.undo_last_round(db, fight_id) == 5  # round 1: 2 cards, reveal, dice, resolved
    p = fights.load_progress(db, fight_id)
    assert (p.step, p.fight.round, p.reports) == (2, 1, ())
    assert fights.undo_last_round(db, fight_id) == 1  # then the order of combat
    assert fights.load_progress(db, fight_id).step == 1
    assert fights.undo_last_round(db, fight_id) == 0


def test_resume_after_reopening_the_file(demo_db: Path) -> None:
    """Quit mid-fight and open the file again: the replay stands where it was."""
    db = open_campaign(demo_db)
    fight_id, p = started(db)
    mike, olga = p.fight.order
    fights.record_card(db, fight_id, 1, mike, [CqcCard.build(mike, olga, attack="2b")])
    db.close()
    again = open_campaign(demo_db)
    try:
        p = fights.load_progress(again, fight_id)
        assert p.step == 2 and p.to_enter == (olga,)
        assert p.cards[mike][0].count(CqcCard.build(mike, olga, attack="2b").lines[0].kind) == 2
    finally:
        again.close()


def test_fight_ends_at_zero_k_points_and_writes_the_outcome_back(db: CampaignDB) -> None:
    """RULES-NOTES B: K-points at 0 is out; the fight ends. K-points and the
    weapon taken by Disarm (S0 §2.2; house rule disarm_keeps_weapon) carry
    over to the roster in one transaction."""
    fight_id, p = started(db)
    mike, olga = p.fight.order
    p = play_round(db, fight_id, {mike: dict(attack="2b", disarm="1b", weapon="Sten gun"),
                                  olga: dict(feint="1b")}, MIKE_WINS + [2, 12])
    assert not p.over
    with pytest.raises(ValidationError, match="not over"):
        fights.finish_fight(db, fight_id)
    p = play_round(db, fight_id, {mike: dict(attack="2b", weapon="Sten gun"),
                                  olga: dict(feint="1b")}, MIKE_WINS + [3, 3])
    assert p.over and p.fight.fighter(olga).out and p.fight.fighter(olga).k_points == 0
    outcome = fights.finish_fight(db, fight_id)
    assert dict(outcome.k_points) == {int(olga): 0}
    assert rows(db.path, "SELECT k_points FROM character WHERE id=?", int(olga)) == [(0,)]
    assert rows(db.path, "SELECT k_points FROM character WHERE id=?", int(mike)) == [(14,)]
    assert rows(db.path, "SELECT character_id, quick_slot FROM weapon WHERE name='TT pistol'"
                ) == [(int(mike), 4)]
    assert rows(db.path, "SELECT status FROM fight WHERE id=?", fight_id) == [("ended",)]
    assert fights.load_progress(db, fight_id).ended
    with pytest.raises(ValidationError, match="already ended"):
        fights.finish_fight(db, fight_id)
    assert fights.undo_last_round(db, fight_id) == 0


def test_disarmed_weapon_goes_home_when_the_house_rule_is_off(db: CampaignDB) -> None:
    """House rule cqc.disarm_keeps_weapon off: only K-points carry over."""
    from ka_tui.store.campaign import house_rules, set_house_rules

    set_house_rules(db, house_rules(db).with_changes("cqc", disarm_keeps_weapon=False))
    fight_id, p = started(db)
    mike, olga = p.fight.order
    p = play_round(db, fight_id, {mike: dict(attack="2b", disarm="1b", weapon="Sten gun")},
                   MIKE_WINS + [2, 2])
    # K 10 - 8 = 2; the first failed save takes the last 2, so no second save.
    play_round(db, fight_id, {mike: dict(attack="2b", weapon="Sten gun")}, MIKE_WINS + [2])
    outcome = fights.finish_fight(db, fight_id)
    assert outcome.weapon_moves == ()
    assert rows(db.path, "SELECT character_id FROM weapon WHERE name='TT pistol'") == [(int(olga),)]


def test_taken_weapon_with_a_name_he_already_has_is_renamed(db: CampaignDB) -> None:
    """Jeanne takes Kasia's Pistol (S0 §2.2 Disarm) but has a Pistol herself."""
    who = ids(db)
    fight_id = fights.start_fight(db, [(who["Jeanne"], who["Kasia"])])
    p = fights.load_progress(db, fight_id)
    # Jeanne Agility 6, Kasia Agility 4: both 2d8 on Agility (S0 §Close combat 1).
    fights.record_initiative(db, fight_id, initiative_order(p.start.fighters, [8, 2, 2, 2],
                                                            p.rules), True)
    p = fights.load_progress(db, fight_id)
    jeanne, kasia = p.fight.order
    # Jeanne 2d10 @3 vs Kasia's untrained d12 @4: Jeanne passes on 9s, Kasia fails on 2.
    p = play_round(db, fight_id, {jeanne: dict(disarm="1b", disarm_pick="Pistol",
                                               attack="2b", weapon="Pistol")},
                   [9, 9, 2, 1, 1])
    while not p.over:
        p = play_round(db, fight_id, {jeanne: dict(attack="2b", weapon="Pistol")},
                       [9, 9, 2, 1, 1])
    fights.finish_fight(db, fight_id)
    assert rows(db.path, "SELECT name FROM weapon WHERE character_id=? ORDER BY name",
                who["Jeanne"]) == [("Pistol",), ("Pistol (taken)",)]
