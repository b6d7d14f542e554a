"""A player's CQC card in the campaign file (store/players.py ``send_card``):
whose card it is is checked inside the write transaction from the fight's own
start, not from the fight object the caller hands in (S0 §Close combat 2:
each fighter fills his own card). A forged object writes nothing."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ka_tui.rules.cqc import CqcCard
from ka_tui.store import fights, players
from ka_tui.store.db import open_campaign
from ka_tui.store.players import NotYours
from tests.ui.test_players import kinds, start_fight


def test_a_forged_fight_does_not_send_another_players_card(demo_db: Path) -> None:
    fid = start_fight(demo_db)
    with open_campaign(demo_db) as db:
        kasia = players.find_player(db, "Kasia")
        [mine] = players.fights_of(db, kasia.character_id)
        p = players.player_progress(db, mine)
        other = next(f for f in fights.card_order(p.fight) if f not in mine.fighters)
        opp = p.fight.opponents_of(other)[0]
        forged = replace(mine, fighters=(*mine.fighters, other))
        with pytest.raises(NotYours):
            players.send_card(db, kasia, forged, 1, other,
                              [CqcCard.build(other, opp, attack="b")])
    assert "card_entered" not in kinds(demo_db)


def test_a_player_sends_his_own_card_with_the_object_he_was_given(demo_db: Path) -> None:
    fid = start_fight(demo_db)
    with open_campaign(demo_db) as db:
        kasia = players.find_player(db, "Kasia")
        [mine] = players.fights_of(db, kasia.character_id)
        [own] = mine.fighters
        opp = players.player_progress(db, mine).fight.opponents_of(own)[0]
        seen = players.send_card(db, kasia, mine, 1, own, [CqcCard.build(own, opp, attack="b")])
        assert own in seen.cards
        assert fights.load_progress(db, fid).cards[own]
    assert kinds(demo_db).count("card_entered") == 1
