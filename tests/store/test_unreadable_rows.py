"""A value changed outside ka-tui that the file's own checks let through (an
aircraft's damage table naming a location with text for a count): the roster
still reads, and the screen that cannot read the row says which row and which
value, from the export's schema (``load_failure`` runs the import's checks).
RULES-NOTES C/D: the damage table holds the location effects and hits."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ka_tui.store import roster_reads
from ka_tui.store.aircraft_view import load_aircraft_view
from ka_tui.store.db import open_campaign
from ka_tui.store.load_failure import load_failure


def test_an_aircraft_whose_damage_cannot_be_read_is_named_and_the_roster_reads(
        demo_db: Path) -> None:
    con = sqlite3.connect(demo_db)
    con.execute("UPDATE aircraft SET damage = '{\"effects\": {\"engine\": \"x\"}}' "
                "WHERE id = 2")
    con.commit()
    con.close()
    with open_campaign(demo_db) as db:
        assert len(roster_reads.load_roster(db, live=True).aircraft) == 6
        load_aircraft_view(db, 1)          # the other flight cards still read
        with pytest.raises(Exception) as error:
            load_aircraft_view(db, 2)
        said = str(load_failure("aircraft 2", error.value, db))
    assert said.startswith('Cannot load aircraft 2: the campaign is damaged at aircraft 2 '
                           '"Spitfire KA-B", damage.effects.engine: expected a whole number.')
    assert "\n" not in said


def test_a_fight_whose_stored_round_report_is_bad_still_loads_and_is_named(
        demo_db: Path) -> None:
    """S0 §Close combat: the round report a ``round_resolved`` keeps is an audit
    copy (the replay recomputes it from the cards and the faces), so the fight
    still loads when it is damaged; the damage report names the fight, the
    event and the value, from the export's schema."""
    from ka_tui.store import fights
    from ka_tui.store.load_failure import find_damage
    from tests.store.test_transfer import store_resolved_round

    with open_campaign(demo_db) as db:
        fight_id = store_resolved_round(db)
        played = fights.load_progress(db, fight_id)
    con = sqlite3.connect(demo_db)
    con.execute("DROP TRIGGER fight_event_append_only")  # an edit outside ka-tui
    con.execute("UPDATE fight_event SET payload = json_set(payload, "
                "'$.report.pairings[0].contest.standings[0]', 'lucky') "
                "WHERE kind = 'round_resolved'")
    con.commit()
    con.close()
    with open_campaign(demo_db) as db:
        again = fights.load_progress(db, fight_id)
        assert again.fight == played.fight and again.reports == played.reports
        said = find_damage(db)
    assert said is not None and said.startswith(
        f'fight {fight_id} "Mike Dunn vs Olga Petrova", events[6].payload.report.pairings[0]'
        ".contest.standings[0]: expected 'won', "), said


def test_a_fight_whose_stored_outcome_is_bad_is_read_up_to_it_and_named(
        demo_db: Path) -> None:
    """The outcome ``fight_ended`` keeps (each character's K-points by id,
    RULES-NOTES B) edited outside ka-tui to a key that is no id: the fight
    reads up to that event, which is named as the one that does not replay
    (the screen offers to undo back to before it), its history reads, and the
    damage report names the value; before, the screens' ``int(id)`` failed
    and the fight did not open."""
    from ka_tui.store import fights, history
    from ka_tui.store.load_failure import find_damage
    from tests.store.test_transfer import store_ended_fight

    with open_campaign(demo_db) as db:
        fight_id = store_ended_fight(db)
    con = sqlite3.connect(demo_db)
    con.execute("DROP TRIGGER fight_event_append_only")  # an edit outside ka-tui
    con.execute("UPDATE fight_event SET payload = '{\"k_points\": {\"x\": 0}}' "
                "WHERE kind = 'fight_ended'")
    con.commit()
    con.close()
    with open_campaign(demo_db) as db:
        p = fights.load_progress(db, fight_id)
        assert p.broken.startswith("event 13 (fight_ended) cannot be replayed: the outcome "
                                   "does not read: 'x' is not a whole number"), p.broken
        assert p.over and not p.ended
        assert [s.title for s in history.fight_history(db, fight_id).sections][-1] == "Now"
        said = find_damage(db)
    assert said == (f'fight {fight_id} "Mike Dunn vs Olga Petrova", events[12].payload.'
                    "k_points: 'x' is not a character's id (a whole number as text)")
