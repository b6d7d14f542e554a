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
