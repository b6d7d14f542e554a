"""The roller's store reads, run in worker threads (imports SQLModel).

One read transaction loads every character with its skills and the
campaign's skill house rules; the roll log lives in ``store/roll_log.py``.
"""

from __future__ import annotations

from ka_tui.rules.core.roll_choices import RollerData, character_of_row
from ka_tui.store.campaign import house_rules
from ka_tui.store.db import CampaignDB


def load_roller_data(db: CampaignDB) -> RollerData:
    """Campaign name, skill and roller options, and every character's roll choices (one read)."""
    from sqlmodel import select
    from ka_tui.store.models import CampaignRow, CharacterRow, SkillRow

    with db.read() as s:
        campaign = s.get(CampaignRow, 1)
        characters = [c.model_dump() for c in s.exec(select(CharacterRow))]
        skills: dict[int, list[dict[str, object]]] = {}
        for skill in s.exec(select(SkillRow)):
            skills.setdefault(skill.character_id, []).append(skill.model_dump())
    rules = house_rules(campaign) if campaign is not None else None
    characters.sort(key=lambda c: str(c["name"]).casefold())
    return RollerData(
        campaign=campaign.name if campaign else "",
        characters=tuple(character_of_row(c, skills.get(int(c["id"]), []))
                         for c in characters),
        options=rules.skills if rules is not None else RollerData().options,
        roller=rules.roller if rules is not None else RollerData().roller)
