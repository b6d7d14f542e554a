"""What a write changed, as one table: each ``Change`` (what views subscribe
to, ``screens/door.py``) with the reads that fingerprint it (what the
watcher, ``store/watch.py``, compares after another process committed).

A view reads again on the changes it shows; a write announces the changes
it made (``screens/store_work.py``'s ``publish``). A table may feed more
than one change: the roster shows each airman's sorties and kills, counted
from the flown missions, so those rows are in ``ROSTER`` as well as in
``CAMPAIGN``. A new table goes into the change of every view that shows it
(``tests/store/test_changes.py`` checks that every table is watched).

No imports beyond the enum: ``screens/door.py`` loads this before the first
frame.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum


class Change(str, Enum):
    """What a write changed (subscribers pick what they show)."""

    ROSTER = "roster"            # characters, skills, weapons, aircraft, seats
    HOUSE_RULES = "house_rules"  # the campaign's house-rule options
    ROLLS = "rolls"              # the roll log
    FIGHT = "fight"              # a close-combat fight's log
    BATTLE = "battle"            # an air battle's log (a step, a player's plan)
    CAMPAIGN = "campaign"        # missions, the date, rest, repairs, the journal
    TABLE = "table"              # the table server: seats, ways in, connections


def _log_end(table: str) -> str:
    """An event log's fingerprint without reading its payloads: any append or
    undo moves one of these."""
    return (f"SELECT count(*), max(id), total(length(payload)), max(created_at) "
            f"FROM {table}")


# change -> the reads whose rows make its fingerprint (small tables, or a
# summary of a log; only read after another connection committed)
WATCHED: Mapping[Change, tuple[str, ...]] = {
    Change.ROSTER: ("SELECT * FROM character", "SELECT * FROM skill", "SELECT * FROM weapon",
                    "SELECT * FROM aircraft", "SELECT * FROM aircraft_crew",
                    # the roster's sortie and kill counts (roster_reads._service_counts)
                    "SELECT m.id, m.debrief, x.character_id FROM mission m JOIN "
                    "mission_member x ON x.mission_id = m.id WHERE m.status = 'flown'"),
    Change.HOUSE_RULES: ("SELECT house_rules FROM campaign",),
    # a new roll, and a roll struck or standing again (which ones, and when)
    Change.ROLLS: ("SELECT count(*), max(id), count(struck_at), "
                   "total(CASE WHEN struck_at IS NULL THEN 0 ELSE id END), max(struck_at) "
                   "FROM roll_log",),
    Change.FIGHT: ("SELECT id, status FROM fight", _log_end("fight_event")),
    Change.BATTLE: ("SELECT id, status FROM battle", _log_end("battle_event")),
    Change.CAMPAIGN: ("SELECT * FROM mission", "SELECT * FROM mission_member",
                      "SELECT * FROM mission_link", "SELECT * FROM campaign_day",
                      "SELECT * FROM person_state", "SELECT * FROM repair",
                      "SELECT id, status FROM journal", _log_end("journal_event")),
    # the table server: seats, ways in, who is connected (store/table_seats.py)
    Change.TABLE: ("SELECT id, revoked_at FROM player_key",
                   "SELECT id, revoked_at, used_at FROM player_pass",
                   "SELECT id, ended_at, drop_asked FROM table_connection "
                   "WHERE ended_at IS NULL",
                   "SELECT * FROM table_server"),
}

# tables no open view shows, so no change is announced for them (each with why)
UNWATCHED: Mapping[str, str] = {
    "ka_meta": "the schema's version and the app's name: written by migrations only",
    "battle_map": "the saved maps: read when a battle's setup opens, not shown live",
    "battle_draft": "the GM's draft plans: read with the battle when the air screen opens "
                    "it; no other view shows them (a player's never)",
}
