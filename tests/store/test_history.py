"""A fight's and a battle's full history from the one event log, as text and
Markdown, and each fighter's last Attack weapon (the next card starts with
it). Real demo campaign file; the fights are played through ``store/fights``
as the screen plays them.

Rules cited: S0 §Close combat 1 (order), 3 (reveal: cards masked before),
4 (dice), 5-6 (round report), RULES-NOTES B (K-points at 0); R-1 (turns).
"""

from __future__ import annotations

from pathlib import Path

from ka_tui.store import history
from ka_tui.store.db import CampaignDB
from ka_tui.store.events import LogKind
from tests.store.test_fights import MIKE_WINS, db, play_round, started  # noqa: F401

from ka_tui.rules.cqc import CqcCard
from ka_tui.store import fights


def _ended_fight(db: CampaignDB) -> int:  # noqa: F811
    fight_id, p = started(db)
    mike, olga = p.fight.order
    # S0 §2.2: each successful Attack lands once, so two Basic Attacks, two saves
    play_round(db, fight_id, {mike: dict(attack="2b", disarm="1b", weapon="Sten gun"),
                              olga: dict(feint="1b")}, MIKE_WINS + [2, 12])
    play_round(db, fight_id, {mike: dict(attack="2b", weapon="Sten gun"),
                              olga: dict(feint="1b")}, MIKE_WINS + [3, 3])
    fights.finish_fight(db, fight_id)
    return fight_id


def test_s0_close_combat_an_ended_fight_reads_round_by_round(db: CampaignDB) -> None:  # noqa: F811
    fight_id = _ended_fight(db)
    h = history.fight_history(db, fight_id)
    titles = [s.title for s in h.sections]
    assert titles == ["Start", "Round 1", "Round 2", "End: the outcome written to the roster"]
    assert h.status == "ended"
    one = "\n".join(h.sections[1].lines)
    assert "Order of combat (typed from the table: 10 10 10 10 2 2; S0 §Close combat 1)" in one
    assert "Cards revealed (S0 §Close combat 3)" in one
    assert "with Sten gun" in one and "Dice (typed from the table" in one
    assert "Round 1 resolved" in one
    end = "\n".join(h.sections[-1].lines)
    assert "Olga" in end and "K-points now 0" in end
    text = h.text()
    assert text.startswith(f"Fight #{fight_id}: ")
    assert "Round 2\n-------" in text
    md = h.markdown()
    assert "\n## Round 1\n" in md and md.count("```") % 2 == 0


def test_s0_3_a_card_not_yet_revealed_stays_masked_in_the_history(db: CampaignDB) -> None:  # noqa: F811
    fight_id, p = started(db)
    mike, olga = p.fight.order
    fights.record_card(db, fight_id, 1, mike,
                       [CqcCard.build(mike, olga, attack="1d", weapon="Sten gun")])
    h = history.fight_history(db, fight_id)
    one = "\n".join(h.sections[1].lines)
    assert "card handed in (hidden until the reveal)" in one
    assert "Sten gun" not in one and "Deliberate" not in one
    assert h.sections[-1].title == "Now"


def test_last_weapon_per_fighter_from_his_last_card_with_an_attack(
        db: CampaignDB) -> None:  # noqa: F811
    """S0 §2.2: a weapon goes with an Attack; a round without one keeps the choice."""
    fight_id, p = started(db)
    mike, olga = p.fight.order
    play_round(db, fight_id, {mike: dict(attack="2b", weapon="Sten gun"),
                              olga: dict(attack="1b", weapon="TT pistol")}, MIKE_WINS + [2, 12])
    assert history.last_weapons(db, fight_id) == {mike: "Sten gun", olga: "TT pistol"}
    play_round(db, fight_id, {mike: dict(feint="1b"), olga: dict(attack="1b")}, MIKE_WINS)
    assert history.last_weapons(db, fight_id) == {mike: "Sten gun", olga: None}


def test_export_writes_text_and_markdown_next_to_the_campaign(db: CampaignDB,  # noqa: F811
                                                              tmp_path: Path) -> None:
    fight_id = _ended_fight(db)
    h = history.fight_history(db, fight_id)
    md = history.export_history(h, tmp_path, "markdown")
    txt = history.export_history(h, tmp_path, "text")
    assert md.suffix == ".md" and txt.suffix == ".txt"
    assert md.read_text(encoding="utf-8") == h.markdown()
    assert "Round 2" in txt.read_text(encoding="utf-8")


def test_r1_the_demo_battle_reads_turn_by_turn(db: CampaignDB) -> None:  # noqa: F811
    from ka_tui.store import battles

    battle_id = battles.list_battles(db)[0].id
    h = history.battle_history(db, battle_id)
    assert h.kind is LogKind.BATTLE
    assert h.sections[0].title == "Start"
    assert "started with" in h.sections[0].lines[0]
    events = battles.events_of(db, battle_id)
    turns = sum(1 for e in events if e["kind"] == "turn_started")
    assert [s.title for s in h.sections[1:]] == [f"Turn {n}" for n in range(1, turns + 1)]
    logged = [line for e in events for line in e.get("log") or []]
    text = h.text()
    assert all(line in text for line in logged)
