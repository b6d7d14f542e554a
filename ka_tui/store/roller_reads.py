"""The roller's store reads, run in worker threads.

One read transaction by plain SQL (no SQLModel, so the roller's first visit
right after the start does not wait for it to import) loads every character
with its skills and the campaign's skill house rules; the roll log lives in
``store/roll_log.py``.
"""

from __future__ import annotations

from ka_tui.rules.core.roll_choices import RollerData, character_of_row
from ka_tui.store.campaign import stored_rules
from ka_tui.store.db import CampaignDB
from ka_tui.store.roster_reads import dict_rows


def load_roller_data(db: CampaignDB) -> RollerData:
    """Campaign name, skill and roller options, and every character's roll choices (one read)."""
    with db.plain_read() as read:
        campaign = read.execute("SELECT name FROM campaign WHERE id = 1").fetchone()
        rules = stored_rules(read) if campaign is not None else None
        characters = dict_rows(read, "character", "SELECT * FROM character")
        skills: dict[int, list[dict[str, object]]] = {}
        for skill in dict_rows(read, "skill", "SELECT * FROM skill ORDER BY id"):
            skills.setdefault(int(skill["character_id"]), []).append(skill)
    characters.sort(key=lambda c: str(c["name"]).casefold())
    return RollerData(
        campaign=str(campaign[0]) if campaign is not None else "",
        characters=tuple(character_of_row(c, skills.get(int(c["id"]), []))
                         for c in characters),
        options=rules.skills if rules is not None else RollerData().options,
        roller=rules.roller if rules is not None else RollerData().roller)
