"""A player's move plan in the campaign file (store/players.py
``send_plan``, ``player_battle``): a real SQLite file, the demo battle (turn 1
begun, Blue to move: Arthur's Tempest, Jeanne's Spitfire; Red: Kasia's
Beaufighter crewed by Sam, Olga's Il-2). Checked inside the write
transaction: the pilot only (not the crew, not another's aircraft), the turn
running and the aircraft not moved (R-1.2), the plan legal (R-3.1, the
engine's reason); nothing written when refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from ka_tui.rules.air.move_plan import parse_plan
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.store import battles, players
from ka_tui.store.db import CampaignDB, open_campaign
from ka_tui.store.errors import StoreError
from ka_tui.store.events import EventRefused
from ka_tui.store.players import NotYours, PlayerBattle

TEMPEST, SPITFIRE, BEAU = "Tempest KA-A", "Spitfire KA-B", "Beaufighter KA-C"


def the_battle(db: CampaignDB, name: str) -> tuple[players.Player, PlayerBattle]:
    player = players.find_player(db, name)
    found = players.battles_of(db, player)
    assert len(found) == 1
    return player, found[0]


def kinds(db: CampaignDB, battle_id: int) -> list[str]:
    return [e["kind"] for e in battles.events_of(db, battle_id)]


def plan(text: str):  # type: ignore[no-untyped-def]
    steps, errors = parse_plan(text)
    assert not errors
    return steps


def test_a_pilot_sends_and_another_player_sees_only_that_it_is_in(
        demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        arthur, battle = the_battle(db, "Arthur")
        assert battle.piloted == (TEMPEST,)
        seen = players.send_plan(db, arthur, battle, TEMPEST, plan("F F R F F"))
        assert seen.battle.events[-1]["data"]["by"] == "Arthur"
        _jeanne, hers = the_battle(db, "Jeanne")
        view = players.player_battle(db, hers)
        assert view.battle.events[-1] == {"seq": 2, "kind": "plan_sent",
                                          "data": {"unit": TEMPEST}, "faces": [],
                                          "log": [f"{TEMPEST}: a plan is in"]}
        assert view.state == seen.state   # the same battle, the plan hidden
        assert kinds(db, battle.id)[-1] == "plan_sent"


def test_only_the_pilot_of_the_aircraft_sends(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        sam, beau = the_battle(db, "Sam")
        assert beau.units == (BEAU,) and beau.piloted == ()
        with pytest.raises(NotYours):
            players.send_plan(db, sam, beau, BEAU, plan("F F F"))
        arthur, battle = the_battle(db, "Arthur")
        with pytest.raises(NotYours):
            players.send_plan(db, arthur, battle, SPITFIRE, plan("F F F F"))
        assert "plan_sent" not in kinds(db, battle.id)


def test_r3_1_an_illegal_plan_is_refused_with_the_engines_reason(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        arthur, battle = the_battle(db, "Arthur")
        with pytest.raises(EventRefused, match=r"speed 4 must fly 4 \(R-3\.1\)"):
            players.send_plan(db, arthur, battle, TEMPEST, plan("F F"))
        assert "plan_sent" not in kinds(db, battle.id)


def test_r1_2_no_plan_once_the_aircraft_has_moved_and_undo_keeps_plans(
        demo_db: Path) -> None:
    """The GM moves the Tempest; Arthur's plan is refused after it; Kasia's
    plan, sent after the move, stays when the GM undoes the move (store and
    rules agree: ``Battle.undo``)."""
    with open_campaign(demo_db) as db:
        arthur, battle = the_battle(db, "Arthur")
        loaded = battles.load_battle(db, battle.id)
        loaded.battle.move(TEMPEST, plan("F F F F"), ScriptedDice.of([]))
        battles.commit(db, battle.id, loaded.battle.events[-1])
        with pytest.raises(EventRefused, match=r"Tempest KA-A has moved this turn \(R-1\.2\)"):
            players.send_plan(db, arthur, battle, TEMPEST, plan("F F F F"))
        kasia, hers = the_battle(db, "Kasia")
        players.send_plan(db, kasia, hers, BEAU, plan("F F F"))
        assert kinds(db, battle.id)[-2:] == ["move_committed", "plan_sent"]
        undone = battles.undo_last(db, battle.id, expect=4)
        assert undone["kind"] == "move_committed"
        after = battles.events_of(db, battle.id)
        assert [e["kind"] for e in after][-1] == "plan_sent"
        assert [e["seq"] for e in after] == list(range(len(after)))
        assert [e["kind"] for e in after] == ["battle_started", "turn_started", "plan_sent"]
        assert battles.load_battle(db, battle.id).state.unit(TEMPEST).moved is False
        players.send_plan(db, arthur, battle, TEMPEST, plan("F F F F"))   # in again


def test_no_plan_in_an_ended_battle(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        arthur, battle = the_battle(db, "Arthur")
        battles.end_battle(db, battle.id)
        with pytest.raises(StoreError, match="the battle has ended"):
            players.send_plan(db, arthur, battle, TEMPEST, plan("F F F F"))
