"""The roster's store calls, run in worker threads (imports SQLModel).

Each function is one user action and uses one transaction (``db.transaction()``
for writes, ``db.read()`` for reads); rows go back to the screen as plain dicts.
Validation uses the store's pure checks (``store/checks.py``) so the form and
the database agree; ``ValidationError`` carries the field to mark.
"""

from __future__ import annotations

import json
from typing import Any

from sqlmodel import Session, col, select

from ka_tui.screens.roster_view import RosterData
from ka_tui.store.checks import character_errors, skill_errors, weapon_errors
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
    """Add (no ``id``) or replace a character with its skills and weapons in ONE
    transaction; checks everything first and raises ``ValidationError``."""
    fields = {k: values[k] for k in _CHARACTER_FIELDS if k in values}
    _first(character_errors(fields))
    skills = [{k: s[k] for k in _SKILL_FIELDS} | ({"id": s["id"]} if "id" in s else {})
              for s in values.get("skills", [])]
    weapons = [{k: w.get(k) for k in _WEAPON_FIELDS} | ({"id": w["id"]} if "id" in w else {})
               for w in values.get("weapons", [])]
    for i, skill in enumerate(skills):
        _first(skill_errors(skill), prefix=f"skill {skill.get('name') or i + 1}: ")
    _unique([s["name"] for s in skills], "skill name")
    for i, weapon in enumerate(weapons):
        _first(weapon_errors(weapon), prefix=f"weapon {weapon.get('name') or i + 1}: ")
    _unique([w["quick_slot"] for w in weapons if w["quick_slot"] is not None], "quick slot")
    character_id = values.get("id")
    with db.transaction() as s:
        clash = s.exec(select(Character.id).where(
            col(Character.name).collate("NOCASE") == fields["name"].strip())).first()
        if clash is not None and clash != character_id:
            raise ValidationError("name", "another character has this name")
        fields["name"] = fields["name"].strip()
        if character_id is None:
            character = Character(**fields)
            s.add(character)
            s.flush()
            assert character.id is not None
            character_id = character.id
        else:
            character = s.get(Character, character_id)
            if character is None:
                raise StoreError("That character is no longer in the campaign.")
            for k, v in fields.items():
                setattr(character, k, v)
            s.add(character)
        _replace_children(s, Skill, character_id, skills)
        _replace_children(s, Weapon, character_id, weapons)
    return character_id


def _replace_children(s: Session, model: type[Skill] | type[Weapon], character_id: int,
                      rows: list[Row]) -> None:
    existing = {r.id: r for r in s.exec(select(model).where(
        model.character_id == character_id))}
    keep = {r["id"] for r in rows if r.get("id") in existing}
    for row_id, row in existing.items():
        if row_id not in keep:
            s.delete(row)
    s.flush()  # free names and slots before rows take them over
    for r in rows:
        data = {k: v for k, v in r.items() if k != "id"}
        if r.get("id") in existing:
            obj = existing[r["id"]]
            for k, v in data.items():
                setattr(obj, k, v)
        else:
            obj = model(character_id=character_id, **data)
        s.add(obj)


def _first(errors: list[ValidationError], prefix: str = "") -> None:
    if errors:
        e = errors[0]
        if prefix:
            raise StoreError(f"{prefix}{e.field}: {e.message}")
        raise e


def _unique(values: list[Any], what: str) -> None:
    seen: set[Any] = set()
    for v in values:
        key = v.casefold() if isinstance(v, str) else v
        if key in seen:
            raise StoreError(f"{what} {v} is used twice")
        seen.add(key)


def duplicate(db: CampaignDB, tab: str, row_id: int) -> tuple[int, str]:
    """Copy a character (with skills and weapons) or an aircraft under a free name."""
    model: type[Character] | type[Aircraft] = Character if tab == "characters" else Aircraft
    with db.transaction() as s:
        original = s.get(model, row_id)
        if original is None:
            raise StoreError("That row is no longer in the campaign.")
        taken = {n.casefold() for n in s.exec(select(model.name))}
        name = _free_name(original.name, taken)
        data = original.model_dump(exclude={"id"}) | {"name": name}
        copy = model(**data)
        s.add(copy)
        s.flush()
        assert copy.id is not None
        if isinstance(original, Character):
            for child_model in (Skill, Weapon):
                for child in s.exec(select(child_model).where(
                        child_model.character_id == row_id)):
                    s.add(child_model(**child.model_dump(exclude={"id", "character_id"}),
                                      character_id=copy.id))
        else:
            for link in s.exec(select(AircraftCrew).where(AircraftCrew.aircraft_id == row_id)):
                s.add(AircraftCrew(aircraft_id=copy.id, character_id=link.character_id))
        return copy.id, name


def _free_name(name: str, taken: set[str]) -> str:
    n = 2
    base = name
    if base.endswith(")") and " (" in base:
        stem, _, num = base[:-1].rpartition(" (")
        if num.isdigit():
            base, n = stem, int(num) + 1
    while f"{base} ({n})".casefold() in taken:
        n += 1
    return f"{base} ({n})"


def delete(db: CampaignDB, tab: str, row_id: int) -> None:
    """Delete a character (its skills, weapons, crew places go with it; an
    aircraft it piloted keeps flying without a pilot) or an aircraft."""
    model: type[Character] | type[Aircraft] = Character if tab == "characters" else Aircraft
    with db.transaction() as s:
        row = s.get(model, row_id)
        if row is None:
            return
        s.delete(row)
