"""The roster's store calls, run in worker threads (imports SQLModel).

Each function is one user action and uses one transaction (``db.transaction()``
for writes, ``db.read()`` for reads); rows go back to the screen as plain dicts.
Validation uses the store's pure checks (``store/checks.py``) so the form and
the database agree; ``ValidationError`` carries the field to mark.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sqlmodel import Session, col, select

from ka_tui.screens.roster_view import RosterData
from ka_tui.store import roster
from ka_tui.store.db import CampaignDB
from ka_tui.store.errors import StoreError, ValidationError
from ka_tui.store.models import Aircraft, AircraftCrew, Campaign, Character, Skill, Weapon

Row = dict[str, Any]

_CHARACTER_FIELDS = [f for f in Character.model_fields if f != "id"]
_SKILL_FIELDS = [f for f in Skill.model_fields if f not in ("id", "character_id")]
_WEAPON_FIELDS = [f for f in Weapon.model_fields if f not in ("id", "character_id")]


def load_roster(db: CampaignDB) -> RosterData:
    """Campaign name, default AP and every character and aircraft (one read)."""
    with db.read() as s:
        campaign = s.get(Campaign, 1)
        name = campaign.name if campaign else "?"
        default_ap = _default_ap(campaign)
        characters = [c.model_dump() for c in s.exec(select(Character))]
        names = {c["id"]: c["name"] for c in characters}
        crews: dict[int, list[int]] = {}
        for link in s.exec(select(AircraftCrew)):
            crews.setdefault(link.aircraft_id, []).append(link.character_id)
        aircraft = []
        for a in s.exec(select(Aircraft)):
            row = a.model_dump()
            row["pilot_name"] = names.get(a.pilot_id) if a.pilot_id else None
            row["crew_ids"] = crews.get(a.id or 0, [])
            row["trait_text"] = _trait_text(a.traits)
            aircraft.append(row)
    return RosterData(name, default_ap, characters, aircraft)


def _default_ap(campaign: Campaign | None) -> int:
    try:
        rules = json.loads(campaign.house_rules) if campaign else {}
        return int(rules.get("cqc", {}).get("default_ap", 6))
    except (ValueError, TypeError, AttributeError):
        return 6


def _trait_text(traits_json: str) -> str:
    try:
        traits = json.loads(traits_json)
    except ValueError:
        return ""
    return ", ".join(
        t[0].replace("_", " ").capitalize() + (f" {t[1]}" if t[1] else "") for t in traits)


def load_character_extra(db: CampaignDB, character_id: int) -> Row:
    """Skills (by name) and weapons (by slot) of one character."""
    with db.read() as s:
        return _extra(s, character_id)


def _extra(s: Session, character_id: int) -> Row:
    skills = s.exec(select(Skill).where(Skill.character_id == character_id)
                    .order_by(col(Skill.name))).all()
    weapons = s.exec(select(Weapon).where(Weapon.character_id == character_id)
                     .order_by(col(Weapon.quick_slot).is_(None), col(Weapon.quick_slot),
                               col(Weapon.name))).all()
    return {"skills": [k.model_dump() for k in skills],
            "weapons": [w.model_dump() for w in weapons]}


def load_character_full(db: CampaignDB, character_id: int) -> Row:
    """One character with ``skills`` and ``weapons`` lists, for the form."""
    with db.read() as s:
        c = s.get(Character, character_id)
        if c is None:
            raise StoreError("That character is no longer in the campaign.")
        return {**c.model_dump(), **_extra(s, character_id)}


def save_character(db: CampaignDB, values: Row) -> int:
    """Add (no ``id``) or update a character with its skills and weapons as ONE
    transaction (``db.batch()`` around the store's service calls, which check
    every value before writing). Raises ``ValidationError`` for a field of the
    character, ``StoreError`` naming the skill or weapon otherwise."""
    fields = {k: values[k] for k in _CHARACTER_FIELDS if k in values}
    skills = [_item(s, _SKILL_FIELDS) for s in values.get("skills", [])]
    weapons = [_item(w, _WEAPON_FIELDS) for w in values.get("weapons", [])]
    character_id = values.get("id")
    with db.batch():
        if character_id is None:
            character = roster.add_character(db, **fields)
        else:
            character = roster.update_character(db, character_id, **fields)
        assert character.id is not None
        _sync(db, "skill", character.id, skills, roster.list_skills, roster.add_skill,
              roster.update_skill, roster.delete_skill, clash_field="name")
        _sync(db, "weapon", character.id, weapons, roster.list_weapons, roster.add_weapon,
              roster.update_weapon, roster.delete_weapon, clash_field="quick_slot")
        return character.id


def _item(values: Row, names: list[str]) -> Row:
    item = {k: values[k] for k in names if k in values}
    if values.get("id") is not None:
        item["id"] = values["id"]
    return item


def _sync(db: CampaignDB, what: str, character_id: int, wanted: list[Row],
          list_fn: Callable[..., list[Any]], add_fn: Callable[..., Any],
          update_fn: Callable[..., Any], delete_fn: Callable[..., None], *,
          clash_field: str) -> None:
    """Make the character's skills or weapons equal ``wanted``: delete the rows
    that went, free the unique field of rows that change it (so two rows can
    swap names or quick slots), then update and add."""
    existing = {row.id: row for row in list_fn(db, character_id)}
    keep = {w["id"] for w in wanted if w.get("id") in existing}
    current = "?"
    try:
        for row_id in existing.keys() - keep:
            current = existing[row_id].name
            delete_fn(db, row_id)
        for w in wanted:
            current = w.get("name", "?")
            old = existing.get(w.get("id"))
            if old is not None and getattr(old, clash_field) != w.get(clash_field):
                free = None if clash_field == "quick_slot" else f"~{old.id}~{old.name}"[:60]
                update_fn(db, old.id, **{clash_field: free})
        for w in wanted:
            current = w.get("name", "?")
            data = {k: v for k, v in w.items() if k != "id"}
            if w.get("id") in existing:
                update_fn(db, w["id"], **data)
            else:
                add_fn(db, character_id, **data)
    except ValidationError as e:
        raise StoreError(f"{what} {current}: {e.message}") from None


def duplicate(db: CampaignDB, tab: str, row_id: int) -> tuple[int, str]:
    """Copy a character (with skills and weapons) or an aircraft under a free name."""
    copy = (roster.duplicate_character(db, row_id) if tab == "characters"
            else roster.duplicate_aircraft(db, row_id))
    assert copy.id is not None
    return copy.id, copy.name


def delete(db: CampaignDB, tab: str, row_id: int) -> None:
    """Delete a character (its skills, weapons and crew places go with it; an
    aircraft he piloted keeps its place without a pilot) or an aircraft."""
    if tab == "characters":
        roster.delete_character(db, row_id)
    else:
        roster.delete_aircraft(db, row_id)
