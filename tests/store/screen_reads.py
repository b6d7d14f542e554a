"""Every read of the campaign a screen makes, run on one open campaign: the
jobs the screens hand to ``store_work`` (the roster and each row's detail and
form, the roller, close combat and each fight, the air mode and each battle,
each fight's and battle's history, the flight cards, the campaign's views, each
mission, the service records, the time preview, the Markdown, the table, each
player's view). The import property test runs them on every document import
accepted: an accepted document is one every screen can read."""

from __future__ import annotations

from datetime import UTC, datetime

from ka_tui.screens.air import data as air
from ka_tui.screens.campaign.data import read_mission, read_view
from ka_tui.screens.combat.runner import read_fight
from ka_tui.screens.roller.model import read_roller
from ka_tui.store import campaign_state, fights, journal, missions, players, roster_reads
from ka_tui.store.aircraft_view import aircraft_ids, load_aircraft_view
from ka_tui.store.campaign import house_rules
from ka_tui.store.db import CampaignDB
from ka_tui.store.events import LogRef
from ka_tui.store.history import history_of
from ka_tui.store.table_seats import table_view

CAMPAIGN_VIEWS = ("overview", "missions", "records", "repairs", "journal")


def every_screen_read(db: CampaignDB) -> list[str]:
    """Run them all; what was read (for a failing example's note). Any error
    raises: a screen would show it instead of the campaign."""
    done: list[str] = []
    data = roster_reads.load_roster(db, live=True)
    done.append("roster")
    people = [int(c["id"]) for c in data.characters]
    for cid in people:
        roster_reads.load_character_extra(db, cid)
        roster_reads.load_character_full(db, cid)
    done.append("each character's detail and form")
    for aid, _name in aircraft_ids(db):
        load_aircraft_view(db, aid)
    done.append("each flight card")
    house_rules(db)
    read = read_roller(db, "")
    assert read.problem is None, read.problem
    done.append("the roller")
    fights.load_candidates(db)
    for fid, _name, _status in fights.open_fights(db):
        read_fight(db, fid)
        history_of(db, LogRef.fight(fid))
    read_fight(db, None)
    done.append("close combat and each fight")
    air.setup_choices(db)
    for b in air.list_battles(db):
        air.open_battle(db, b.id)
        history_of(db, LogRef.battle(b.id))
    air.open_battle(db, None)
    done.append("the air mode and each battle")
    for view in CAMPAIGN_VIEWS:
        read_view(db, view, "")
    for m in missions.list_missions(db):
        read_mission(db, m.id)
        missions.debrief_markdown(db, m.id)
    for cid in people:
        campaign_state.service_records(db, cid)
    campaign_state.preview_days(db, 1)
    journal.journal_markdown(db, "Journal")
    done.append("the campaign: its views, each mission, the records, the Markdown")
    table_view(db, datetime.now(UTC))
    for c in data.characters:
        players.player_view(db, str(c["name"]))
    done.append("the table and each player's view")
    return done
