"""Close-combat rule gaps on the screen, through the real app and
a real SQLite file (the demo campaign in tmp_path).

- S0 §Skills, Passive: Arthur Hale has no Close Combat (one d12 on Agility 5)
  and Brawl 2; Kasia Nowak has neither (Agility 4). Bare-handed, it is a
  fistfight: Brawl moves the odds shown before the dice and turns the round.
- S0 §Close combat 1 and 6 "determine next step": under house rule
  cqc.initiative_reroll=every_round, round 2 opens with the order of combat
  again; under the default (gm_asks) the GM presses o for it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.widgets import Input

from ka_tui.rules.core.options import HouseRules, InitiativeReroll
from ka_tui.store.campaign import set_house_rules
from ka_tui.store.db import open_campaign
from tests.ui.pilot_helpers import rows, settle
from tests.ui.combat_pilot import (
    INIT, MIKE_WINS, SIZE, keys, make_app, new_fight, open_combat, text_of,
)

# S0 §1: Arthur's Combat Initiative 3d10+1d12 @5 (8+ each: 4 successes),
# Kasia's Active Agility test 2d8 @4 (2s: failed). Arthur goes first.
ARTHUR_FIRST = [9, 9, 9, 9, 2, 2]
# S0 §4 opposed (RULES-NOTES A: 7 + opponent's − own skill): Arthur needs 6,
# or 4 with Brawl 2; Kasia needs 8. Arthur's 5, Kasia's 3.
FISTS = [5, 3]


def house_rules(db: Path, **cqc: Any) -> None:
    handle = open_campaign(db)
    try:
        set_house_rules(handle, HouseRules().with_changes("cqc", **cqc))
    finally:
        handle.close()


async def fistfight_round(db: Path) -> tuple[str, str, str]:
    """Arthur vs Kasia, both bare-handed Basic Attacks: (odds shown at step
    4, the round report at step 5, the fighters after step 6)."""
    app = make_app(db, ARTHUR_FIRST + FISTS)
    async with app.run_test(size=SIZE) as pilot:
        await open_combat(pilot)
        screen = await new_fight(pilot, ("Arthur Hale", "Kasia Nowak"))
        await keys(pilot, "r")                         # S0 §1
        await keys(pilot, "a", "b", "enter")           # Arthur: Basic Attack, unarmed
        await keys(pilot, "a", "b", "enter")           # Kasia: Basic Attack, unarmed
        await keys(pilot, "v")
        assert screen.view_step == 4
        odds = text_of(screen, "#info")
        await keys(pilot, "r")
        assert screen.view_step == 5
        report = text_of(screen, "#info")
        await keys(pilot, "enter")
        assert screen.view_step == 6
        return odds, report, text_of(screen, "#info")


def odds_line(text: str) -> str:
    return next(ln for ln in text.splitlines() if ln.startswith("  Arthur Hale ")
                and " vs Kasia Nowak " in ln)


async def test_s0_skills_passive_brawl_in_a_fistfight_changes_odds_and_result(
        demo_db: Path, tmp_path: Path) -> None:
    """S0 §Skills, Passive ("Brawl: 4 - when character is involved in
    fistfight he would roll d12, then add +4"): the same fight and faces in
    two campaigns, one with the house-rule table emptied (no Brawl)."""
    no_brawl = tmp_path / "no-brawl.db"
    no_brawl.write_bytes(demo_db.read_bytes())
    house_rules(no_brawl, passive_fight_skills={})

    odds, report, damage = await fistfight_round(demo_db)
    bare_odds, bare_report, bare_damage = await fistfight_round(no_brawl)

    # The odds (S0 §4, exact): Brawl 2 lowers Arthur's need from 6+ to 4+.
    # Counted over the 144 faces of two d12s from the seed text alone
    # (tests/rules/test_cqc_passive.py ``brute``): with Brawl Arthur wins
    # 102, Kasia 29, 13 stand-offs; without, 82, 37 and 25.
    assert odds_line(odds) == "  Arthur Hale 70.8% vs Kasia Nowak 20.1% · stand-off 9.0%"
    assert odds_line(bare_odds) == "  Arthur Hale 56.9% vs Kasia Nowak 25.7% · stand-off 17.4%"
    assert ("Arthur Hale: Brawl +2, a fistfight (S0 §Skills, Passive; a 1 stays a "
            "critical fail)") in odds
    assert "Brawl" not in bare_odds
    # ... and the what-if preview's chances with them.
    assert "Arthur Hale wins, Kasia Nowak failed (" in odds
    # The round: his 5 meets the 4+ Brawl leaves him: Arthur WINS;
    # without Brawl 5 < 6: both fail, a stand-off (RULES-NOTES B).
    assert "Arthur Hale WINS" in report and "Brawl +2, a fistfight" in report
    assert "NOBODY WINS" in bare_report and "Brawl" not in bare_report
    assert "Kasia Nowak: AP 6->3" in damage       # his Strength 3 (S0 §2.2 Attack)
    assert "Kasia Nowak: AP 6->6" in bare_damage
    # The campaign file keeps the report with the Passive it used.
    for db, bonus in ((demo_db, [2, 0]), (no_brawl, [0, 0])):
        (payload,), = rows(db, "SELECT payload FROM fight_event WHERE kind='round_resolved'")
        contest = json.loads(payload)["report"]["pairings"][0]["contest"]
        assert contest["bonuses"] == bonus
        (rules,), = rows(db, "SELECT payload FROM fight_event WHERE kind='fight_started'")
        assert "passive_fight_skills" in json.loads(rules)["rules"]["cqc"]


async def test_s0_close_combat_1_order_rerolled_at_round_2_every_round(demo_db: Path) -> None:
    """S0 §Close combat 1 and 6 under cqc.initiative_reroll=every_round:
    after round 1 (Mike first), round 2 opens with step 1; the table's faces
    typed in -- Mike's 4d12 Combat Initiative all 2s (failed), Jeanne's
    Active Agility 2d8 an 8 and a 2 (the 8 a critical success) -- put Jeanne
    first for round 2's cards."""
    house_rules(demo_db, initiative_reroll=InitiativeReroll.EVERY_ROUND.value)
    app = make_app(demo_db, INIT + MIKE_WINS)
    async with app.run_test(size=SIZE) as pilot:
        await open_combat(pilot)
        screen = await new_fight(pilot, ("Mike Dunn", "Jeanne Moreau"))
        await keys(pilot, "r")
        assert text_of(screen, "#fighters").startswith("1. Mike Dunn")
        await keys(pilot, "f", "b", "enter", "d", "b", "enter", "v", "r", "enter")
        assert screen.view_step == 6
        await keys(pilot, "enter")                     # determine next step: round 2
        assert screen.view_step == 1 and "round 2" in screen.sub_title
        assert "[1 Order]" in text_of(screen, "#steps")
        info = text_of(screen, "#info")
        assert "order of combat for round 2" in info and "every_round" in info
        assert screen.query_one("#input-dice", Input).has_focus
        await pilot.press(*"2 2 2 2 8 2", "enter")
        await settle(pilot)
        assert screen.view_step == 2 and "round 2" in screen.sub_title
        assert text_of(screen, "#fighters").startswith("1. Jeanne Moreau")
        assert text_of(screen, "#status").startswith("Jeanne Moreau: spent 0 / 7")
    ids = dict(rows(demo_db, "SELECT name, id FROM character"))
    (payload,), = rows(demo_db, "SELECT payload FROM fight_event WHERE kind='order_rerolled'")
    event = json.loads(payload)
    assert event["round"] == 2 and event["typed"] is True
    assert event["order"] == [str(ids["Jeanne Moreau"]), str(ids["Mike Dunn"])]
    assert [f for _, f in event["faces"]] == [2, 2, 2, 2, 8, 2]


async def test_s0_close_combat_1_o_says_why_it_cannot_reroll_the_order(
        demo_db: Path) -> None:
    """o at step 2 of round 1 (the order was just rolled) and at step 6 (the
    next round is not started) re-rolls nothing and says why, in the steps
    the GM sees."""
    app = make_app(demo_db, INIT + MIKE_WINS)
    async with app.run_test(size=SIZE) as pilot:
        await open_combat(pilot)
        screen = await new_fight(pilot, ("Mike Dunn", "Jeanne Moreau"))
        await keys(pilot, "r")
        assert screen.view_step == 2
        await keys(pilot, "o")
        assert screen.view_step == 2
        assert "round 1's order was rolled at step 1" in text_of(screen, "#status")
        await keys(pilot, "f", "b", "enter", "d", "b", "enter", "v", "r", "enter")
        assert screen.view_step == 6
        await keys(pilot, "o")
        assert screen.view_step == 6
        assert "start of the next round: enter starts it, then o" in text_of(screen, "#status")
    assert rows(demo_db, "SELECT count(*) FROM fight_event WHERE kind='order_rerolled'") == [(0,)]


async def test_s0_close_combat_1_the_gm_rerolls_with_o_and_once_forbids_it(
        demo_db: Path) -> None:
    """Default gm_asks: at the start of round 2 the GM presses o, gets the
    step-1 entry, and r rolls (Mike 2 2 2 2, Jeanne 8 2: Jeanne first); o again
    would have kept the order. Under once the key is greyed out, and says why."""
    app = make_app(demo_db, INIT + MIKE_WINS + [2, 2, 2, 2, 8, 2])
    async with app.run_test(size=SIZE) as pilot:
        await open_combat(pilot)
        screen = await new_fight(pilot, ("Mike Dunn", "Jeanne Moreau"))
        await keys(pilot, "r", "f", "b", "enter", "d", "b", "enter", "v", "r", "enter", "enter")
        assert screen.view_step == 2 and "round 2" in screen.sub_title
        assert screen.check_action("reorder", ()) is True
        await keys(pilot, "o")
        assert screen.view_step == 1 and "o: keep the order" in text_of(screen, "#status")
        await keys(pilot, "o")                         # changed his mind
        assert screen.view_step == 2
        await keys(pilot, "o", "r")
        assert screen.view_step == 2
        assert text_of(screen, "#fighters").startswith("1. Jeanne Moreau")
        assert screen.check_action("reorder", ()) is False  # once a round (log's accept)
        await keys(pilot, "a", "b", "enter")          # Jeanne's card
        assert screen.check_action("reorder", ()) is False
    assert rows(demo_db, "SELECT count(*) FROM fight_event WHERE kind='order_rerolled'") == [(1,)]

    house_rules(demo_db, initiative_reroll=InitiativeReroll.ONCE.value)
    app = make_app(demo_db, INIT + MIKE_WINS)
    async with app.run_test(size=SIZE) as pilot:
        await open_combat(pilot)
        screen = await new_fight(pilot, ("Mike Dunn", "Olga Petrova"))
        await keys(pilot, "r", "f", "b", "enter", "d", "b", "enter", "v", "r", "enter", "enter")
        assert screen.view_step == 2 and "round 2" in screen.sub_title
        assert screen.check_action("reorder", ()) is None
        await keys(pilot, "o")
        assert screen.view_step == 2
        assert "rolled once per fight (house rule cqc.initiative_reroll=once)" in text_of(
            screen, "#status")
    assert rows(demo_db, "SELECT count(*) FROM fight_event WHERE kind='order_rerolled'") == [(1,)]
