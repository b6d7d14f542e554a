"""The roster service screens call: characters, skills, weapons and aircraft.

Every public function is one transaction (one user action). Values are checked
with ``checks.py`` and for uniqueness *before* anything is written; the first
problem is raised as ``ValidationError(field, message)``. Rows come back
detached (``expire_on_commit=False``) and safe to show.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from sqlalchemy import func
from sqlmodel import Session, SQLModel, col, select

from ka_tui.rules.air.aircraft import AircraftProfile
from ka_tui.store import field_checks as checks
from ka_tui.store.rows_to_rules import from_profile, to_profile
from ka_tui.store.db import CampaignDB
from ka_tui.store.errors import NotFound, ValidationError
from ka_tui.store.models import AircraftRow, AircraftCrewRow, CharacterRow, SkillRow, WeaponRow

M = TypeVar("M", bound=SQLModel)
Check = Callable[[dict[str, Any]], list[ValidationError]]


# ------------------------------------------------------------- generic parts

def _defaults(model: type[SQLModel]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        if name == "id" or info.is_required():
            continue
        out[name] = info.get_default(call_default_factory=True)
    return out


def _noun(model: type[SQLModel]) -> str:
    """How a message names one row of ``model``: ``CharacterRow`` -> ``character``."""
    return model.__name__.removesuffix("Row").lower()


def _columns(model: type[SQLModel]) -> set[str]:
    return set(model.model_fields) - {"id"}


def _reject_unknown(model: type[SQLModel], fields: Iterable[str]) -> None:
    known = _columns(model)
    for f in fields:
        if f not in known:
            raise ValidationError(f, f"{_noun(model)} has no field {f!r}")


def _first(errors: list[ValidationError]) -> None:
    if errors:
        raise errors[0]


def _need(s: Session, model: type[M], row_id: int) -> M:
    row = s.get(model, row_id)
    if row is None:
        raise NotFound(f"no {_noun(model)} with id {row_id} in this campaign")
    return row


def _row_values(row: SQLModel) -> dict[str, Any]:
    return {k: v for k, v in row.model_dump().items() if k != "id"}


def _clean_name(values: dict[str, Any]) -> None:
    if isinstance(values.get("name"), str):
        values["name"] = values["name"].strip()


def _name_taken(s: Session, model: Any, name: str, *, exclude: int | None,
                **scope: Any) -> bool:
    q = select(model.id).where(func.lower(model.name) == name.lower())
    for key, value in scope.items():
        q = q.where(getattr(model, key) == value)
    if exclude is not None:
        q = q.where(model.id != exclude)
    return s.exec(q).first() is not None


def _copy_name(s: Session, model: Any, name: str, **scope: Any) -> str:
    base = f"{name} (copy"
    candidate, n = f"{base})", 1
    while _name_taken(s, model, candidate, exclude=None, **scope):
        n += 1
        candidate = f"{base} {n})"
    return candidate


def _store(s: Session, row: M) -> M:
    s.add(row)
    s.flush()
    s.refresh(row)
    return row


# ---------------------------------------------------------------- characters

def _character_values(values: dict[str, Any]) -> dict[str, Any]:
    _clean_name(values)
    # six wounds is death — one place marks him unconscious (cf. Airman.with_wounds).
    if isinstance(values.get("wounds"), int) and values["wounds"] >= 6:
        values["conscious"] = False
    return values


def _check_character(s: Session, values: dict[str, Any], exclude: int | None) -> None:
    _first(checks.character_errors(values))
    if _name_taken(s, CharacterRow, values["name"], exclude=exclude):
        raise ValidationError("name", f"another character is already called {values['name']}")


def list_characters(db: CampaignDB, role: str | None = None) -> list[CharacterRow]:
    """Characters by name (case-insensitive), optionally of one role."""
    with db.read() as s:
        q = select(CharacterRow).order_by(func.lower(CharacterRow.name))
        if role is not None:
            q = q.where(CharacterRow.role == role)
        return list(s.exec(q).all())


def get_character(db: CampaignDB, character_id: int) -> CharacterRow:
    with db.read() as s:
        return _need(s, CharacterRow, character_id)


def add_character(db: CampaignDB, **fields: Any) -> CharacterRow:
    _reject_unknown(CharacterRow, fields)
    with db.transaction() as s:
        values = _character_values(_defaults(CharacterRow) | fields)
        _check_character(s, values, None)
        return _store(s, CharacterRow(**values))


def update_character(db: CampaignDB, character_id: int, **changes: Any) -> CharacterRow:
    _reject_unknown(CharacterRow, changes)
    with db.transaction() as s:
        row = _need(s, CharacterRow, character_id)
        values = _character_values(_row_values(row) | changes)
        _check_character(s, values, character_id)
        row.sqlmodel_update(values)
        return _store(s, row)


def delete_character(db: CampaignDB, character_id: int) -> None:
    """Deletes his skills, weapons and crew places; aircraft he flew lose their pilot.
    Refused while he is in a fight not ended: the fight writes its outcome back
    to him."""
    fights = open_fights_of(db, character_id)
    with db.transaction() as s:
        row = _need(s, CharacterRow, character_id)
        if fights:
            raise ValidationError("fight", f"{row.name} is in the open fight "
                                           f"\"{fights[0]}\": end or delete it first")
        s.delete(row)


def open_fights_of(db: CampaignDB, character_id: int) -> list[str]:
    """Names of the fights not yet ended that ``character_id`` takes part in
    (the ``fight_started`` event's characters)."""
    from ka_tui.store import events as ev

    names: list[str] = []
    for head in ev.heads(db, ev.LogKind.FIGHT):
        if head.status == "ended":
            continue
        log = ev.events(db, ev.LogRef.fight(head.id))
        if log and character_id in (log[0].payload.get("characters") or {}).values():
            names.append(head.name)
    return names


def delete_warnings(db: CampaignDB, character_id: int) -> list[str]:
    """What deleting a character also touches, for the delete prompt: his seat
    in an aircraft, the open fights he is in."""
    out: list[str] = []
    aircraft, seat = aircraft_of(db, character_id)
    if aircraft is not None:
        out.append(f"{'pilot' if seat == 'pilot' else 'crew'} of {aircraft.name}: "
                   "the seat is freed")
    out += [f"in the open fight \"{name}\": cannot be deleted until it ends"
            for name in open_fights_of(db, character_id)]
    return out


def duplicate_character(db: CampaignDB, character_id: int,
                        name: str | None = None) -> CharacterRow:
    """A copy with his skills and weapons (not his aircraft), named "… (copy)"."""
    with db.transaction() as s:
        src = _need(s, CharacterRow, character_id)
        values = _row_values(src)
        values["name"] = name.strip() if name else _copy_name(s, CharacterRow, src.name)
        _check_character(s, values, None)
        copy = _store(s, CharacterRow(**values))
        for model in (SkillRow, WeaponRow):
            for item in s.exec(select(model).where(model.character_id == character_id)).all():
                s.add(model(**(_row_values(item) | {"character_id": copy.id})))
        s.flush()
        return copy


# -------------------------------------------------------------------- skills

def _skill_values(values: dict[str, Any], *, level_changed: bool,
                  legendary_given: bool) -> dict[str, Any]:
    _clean_name(values)
    if level_changed and not legendary_given and values.get("level") in ("B", "T", "E", "M", "L"):
        values["legendary"] = values["level"] == "L"  # S0 §Skills: Legendary is level L
    return values


def _check_item(s: Session, model: Any, values: dict[str, Any], check: Check,
                exclude: int | None) -> None:
    _first(check(values))
    _need(s, CharacterRow, values["character_id"])
    what = _noun(model)
    if _name_taken(s, model, values["name"], exclude=exclude,
                   character_id=values["character_id"]):
        raise ValidationError("name", f"this character already has a {what} called "
                                      f"{values['name']}")


def list_skills(db: CampaignDB, character_id: int) -> list[SkillRow]:
    """A character's skills: Active, Lore, then Passive, each by name."""
    order = {"active": 0, "lore": 1, "passive": 2}
    with db.read() as s:
        rows = s.exec(select(SkillRow).where(SkillRow.character_id == character_id)).all()
    return sorted(rows, key=lambda r: (order.get(r.kind, 9), r.name.lower()))


def get_skill(db: CampaignDB, skill_id: int) -> SkillRow:
    with db.read() as s:
        return _need(s, SkillRow, skill_id)


def add_skill(db: CampaignDB, character_id: int, **fields: Any) -> SkillRow:
    _reject_unknown(SkillRow, fields)
    with db.transaction() as s:
        values = _skill_values(_defaults(SkillRow) | fields | {"character_id": character_id},
                               level_changed=True, legendary_given="legendary" in fields)
        _check_item(s, SkillRow, values, checks.skill_errors, None)
        return _store(s, SkillRow(**values))


def update_skill(db: CampaignDB, skill_id: int, **changes: Any) -> SkillRow:
    _reject_unknown(SkillRow, changes)
    with db.transaction() as s:
        row = _need(s, SkillRow, skill_id)
        values = _skill_values(_row_values(row) | changes, level_changed="level" in changes,
                               legendary_given="legendary" in changes)
        _check_item(s, SkillRow, values, checks.skill_errors, skill_id)
        row.sqlmodel_update(values)
        return _store(s, row)


def delete_skill(db: CampaignDB, skill_id: int) -> None:
    with db.transaction() as s:
        s.delete(_need(s, SkillRow, skill_id))


def duplicate_skill(db: CampaignDB, skill_id: int, name: str | None = None) -> SkillRow:
    with db.transaction() as s:
        src = _need(s, SkillRow, skill_id)
        values = _row_values(src)
        values["name"] = name.strip() if name else _copy_name(
            s, SkillRow, src.name, character_id=src.character_id)
        _check_item(s, SkillRow, values, checks.skill_errors, None)
        return _store(s, SkillRow(**values))


# ------------------------------------------------------------------- weapons

def _check_weapon(s: Session, values: dict[str, Any], exclude: int | None) -> None:
    _check_item(s, WeaponRow, values, checks.weapon_errors, exclude)
    slot = values.get("quick_slot")
    if slot is None:
        return
    q = select(WeaponRow).where(WeaponRow.character_id == values["character_id"],
                                WeaponRow.quick_slot == slot)
    if exclude is not None:
        q = q.where(WeaponRow.id != exclude)
    other = s.exec(q).first()
    if other is not None:
        raise ValidationError("quick_slot", f"quick slot {slot} already holds {other.name}")


def list_weapons(db: CampaignDB, character_id: int) -> list[WeaponRow]:
    """Quick-slot weapons first (by slot), then the rest by name."""
    with db.read() as s:
        rows = s.exec(select(WeaponRow).where(WeaponRow.character_id == character_id)).all()
    return sorted(rows, key=lambda w: (w.quick_slot is None, w.quick_slot or 0, w.name.lower()))


def get_weapon(db: CampaignDB, weapon_id: int) -> WeaponRow:
    with db.read() as s:
        return _need(s, WeaponRow, weapon_id)


def add_weapon(db: CampaignDB, character_id: int, **fields: Any) -> WeaponRow:
    _reject_unknown(WeaponRow, fields)
    with db.transaction() as s:
        values = _defaults(WeaponRow) | fields | {"character_id": character_id}
        _clean_name(values)
        _check_weapon(s, values, None)
        return _store(s, WeaponRow(**values))


def update_weapon(db: CampaignDB, weapon_id: int, **changes: Any) -> WeaponRow:
    _reject_unknown(WeaponRow, changes)
    with db.transaction() as s:
        row = _need(s, WeaponRow, weapon_id)
        values = _row_values(row) | changes
        _clean_name(values)
        _check_weapon(s, values, weapon_id)
        row.sqlmodel_update(values)
        return _store(s, row)


def delete_weapon(db: CampaignDB, weapon_id: int) -> None:
    with db.transaction() as s:
        s.delete(_need(s, WeaponRow, weapon_id))


def duplicate_weapon(db: CampaignDB, weapon_id: int, name: str | None = None) -> WeaponRow:
    """A copy outside the quick slots (a slot holds one weapon)."""
    with db.transaction() as s:
        src = _need(s, WeaponRow, weapon_id)
        values = _row_values(src) | {"quick_slot": None}
        values["name"] = name.strip() if name else _copy_name(
            s, WeaponRow, src.name, character_id=src.character_id)
        _check_weapon(s, values, None)
        return _store(s, WeaponRow(**values))


# ------------------------------------------------------------------ aircraft

_LIVE_LIMITS = (("fuel_left", "fuel"), ("ammo_left", "ammo"), ("hull_hits", "hull"))


def _aircraft_values(values: dict[str, Any], given: Iterable[str], *, new: bool) -> dict[str, Any]:
    _clean_name(values)
    given = set(given)
    for live, limit in _LIVE_LIMITS:
        if live in given or not isinstance(values.get(limit), int):
            continue
        if new and live != "hull_hits":
            values[live] = values[limit]  # a new aircraft starts full
        elif isinstance(values.get(live), int) and values[live] > values[limit]:
            values[live] = values[limit]  # a smaller tank keeps what fits
    return values


def _check_aircraft(s: Session, values: dict[str, Any], exclude: int | None) -> None:
    _first(checks.aircraft_errors(values))
    if _name_taken(s, AircraftRow, values["name"], exclude=exclude):
        raise ValidationError("name", f"another aircraft is already called {values['name']}")
    if values.get("pilot_id") is not None:
        _need(s, CharacterRow, values["pilot_id"])


def list_aircraft(db: CampaignDB) -> list[AircraftRow]:
    with db.read() as s:
        return list(s.exec(select(AircraftRow).order_by(func.lower(AircraftRow.name))).all())


def get_aircraft(db: CampaignDB, aircraft_id: int) -> AircraftRow:
    with db.read() as s:
        return _need(s, AircraftRow, aircraft_id)


def aircraft_profile(db: CampaignDB, aircraft_id: int) -> AircraftProfile:
    return to_profile(get_aircraft(db, aircraft_id))


def add_aircraft(db: CampaignDB, profile: AircraftProfile | None = None,
                 **fields: Any) -> AircraftRow:
    """A new aircraft from a profile (e.g. ``rules.profiles.TEMPEST``) and/or
    column values; fuel and ammunition start full unless given."""
    _reject_unknown(AircraftRow, fields)
    with db.transaction() as s:
        base = _defaults(AircraftRow) | (from_profile(profile) if profile else {})
        values = _aircraft_values(base | fields, fields, new=True)
        pilot = values.pop("pilot_id", None)
        _check_aircraft(s, values, None)
        row = _store(s, AircraftRow(**values))
        if pilot is not None:
            _assign(s, row, pilot, move=False)
        return row


def update_aircraft(db: CampaignDB, aircraft_id: int, **changes: Any) -> AircraftRow:
    """Profile or live status changes; lowering fuel/ammo/hull clamps the live value."""
    _reject_unknown(AircraftRow, changes)
    pilot_given = "pilot_id" in changes
    pilot = changes.pop("pilot_id", None)
    with db.transaction() as s:
        row = _need(s, AircraftRow, aircraft_id)
        values = _aircraft_values(_row_values(row) | changes, changes, new=False)
        _check_aircraft(s, values, aircraft_id)
        row.sqlmodel_update(values)
        row = _store(s, row)
        if pilot_given:
            _assign(s, row, pilot, move=False)
        return row


def set_profile(db: CampaignDB, aircraft_id: int, profile: AircraftProfile) -> AircraftRow:
    """Replace an aircraft's whole profile (live status clamped to the new limits)."""
    return update_aircraft(db, aircraft_id, **from_profile(profile))


def delete_aircraft(db: CampaignDB, aircraft_id: int) -> None:
    with db.transaction() as s:
        s.delete(_need(s, AircraftRow, aircraft_id))


def duplicate_aircraft(db: CampaignDB, aircraft_id: int, name: str | None = None) -> AircraftRow:
    """Same profile and live status, no pilot or crew (each flies one aircraft)."""
    with db.transaction() as s:
        src = _need(s, AircraftRow, aircraft_id)
        values = _row_values(src) | {"pilot_id": None}
        values["name"] = name.strip() if name else _copy_name(s, AircraftRow, src.name)
        _check_aircraft(s, values, None)
        return _store(s, AircraftRow(**values))


def _assign(s: Session, row: AircraftRow, character_id: int | None, *, move: bool) -> None:
    if character_id is not None:
        who = _need(s, CharacterRow, character_id)
        other = s.exec(select(AircraftRow).where(AircraftRow.pilot_id == character_id,
                                                 AircraftRow.id != row.id)).first()
        if other is not None and not move:
            raise ValidationError("pilot_id", f"{who.name} already flies {other.name}")
        seat = s.get(AircraftCrewRow, (row.id, character_id))
        if seat is not None:
            s.delete(seat)
        if other is not None:
            other.pilot_id = None
            s.add(other)
            s.flush()
        _leave_other_crews(s, row.id, character_id, who.name, move=move)
    row.pilot_id = character_id
    s.add(row)
    s.flush()


def _leave_other_crews(s: Session, aircraft_id: int | None, character_id: int, name: str,
                       *, move: bool) -> None:
    seat = s.exec(select(AircraftCrewRow).where(
        AircraftCrewRow.character_id == character_id,
        AircraftCrewRow.aircraft_id != aircraft_id)).first()
    if seat is None:
        return
    if not move:
        other = s.get(AircraftRow, seat.aircraft_id)
        raise ValidationError("crew", f"{name} is already crew on "
                                      f"{other.name if other else 'another aircraft'}")
    s.delete(seat)
    s.flush()


def copy_profile(db: CampaignDB, profile: AircraftProfile, name: str) -> int:
    """A library profile into the campaign as a new aircraft called ``name``
    (fuel and ammunition full); a name already used is refused at the field."""
    from dataclasses import replace

    row = add_aircraft(db, replace(profile, name=name.strip()))
    assert row.id is not None
    return row.id


def taken_aircraft_names(db: CampaignDB) -> list[str]:
    return [a.name for a in list_aircraft(db)]


def save_aircraft(db: CampaignDB, columns: dict[str, Any]) -> int:
    """One transaction: add (no ``id``) or update an aircraft from the aircraft
    form's columns; returns its id. Raises ``ValidationError`` naming the field."""
    cols = dict(columns)
    aircraft_id = cols.pop("id", None)
    if aircraft_id is None:
        row = add_aircraft(db, **cols)
    else:
        row = update_aircraft(db, aircraft_id, **cols)
    assert row.id is not None
    return row.id


def assign_pilot(db: CampaignDB, aircraft_id: int, character_id: int | None, *,
                 move: bool = False) -> AircraftRow:
    """Seat a pilot (None clears the seat). With ``move`` he leaves any other
    aircraft he flies or crews; without it that is a ``ValidationError``."""
    with db.transaction() as s:
        row = _need(s, AircraftRow, aircraft_id)
        _assign(s, row, character_id, move=move)
        s.refresh(row)
        return row


def set_crew(db: CampaignDB, aircraft_id: int, character_ids: Sequence[int], *,
             move: bool = False) -> list[CharacterRow]:
    """Make ``character_ids`` the whole crew (pilot excluded), in one action."""
    with db.transaction() as s:
        row = _need(s, AircraftRow, aircraft_id)
        wanted = list(dict.fromkeys(character_ids))
        full = checks.crew_error(row.name, row.aircraft_class, len(wanted))
        if full:  # seats from the profile's class (field_checks.CREW_SEATS)
            raise ValidationError("crew", full)
        for cid in wanted:
            who = _need(s, CharacterRow, cid)
            if cid == row.pilot_id:
                raise ValidationError("crew", f"{who.name} is this aircraft's pilot")
            flies = s.exec(select(AircraftRow).where(AircraftRow.pilot_id == cid)).first()
            if flies is not None:
                if not move:
                    raise ValidationError("crew", f"{who.name} already flies {flies.name}")
                flies.pilot_id = None
                s.add(flies)
            _leave_other_crews(s, aircraft_id, cid, who.name, move=move)
        for seat in s.exec(select(AircraftCrewRow)
                           .where(AircraftCrewRow.aircraft_id == aircraft_id)):
            if seat.character_id not in wanted:
                s.delete(seat)
        s.flush()
        for cid in wanted:
            if s.get(AircraftCrewRow, (aircraft_id, cid)) is None:
                s.add(AircraftCrewRow(aircraft_id=aircraft_id, character_id=cid))
        s.flush()
        return _crew(s, aircraft_id)


def _crew(s: Session, aircraft_id: int) -> list[CharacterRow]:
    q = (select(CharacterRow)
         .join(AircraftCrewRow, col(AircraftCrewRow.character_id) == CharacterRow.id)
         .where(AircraftCrewRow.aircraft_id == aircraft_id)
         .order_by(func.lower(CharacterRow.name)))
    return list(s.exec(q).all())


def crew_of(db: CampaignDB, aircraft_id: int) -> list[CharacterRow]:
    with db.read() as s:
        return _crew(s, aircraft_id)


def pilot_of(db: CampaignDB, aircraft_id: int) -> CharacterRow | None:
    with db.read() as s:
        row = _need(s, AircraftRow, aircraft_id)
        return None if row.pilot_id is None else s.get(CharacterRow, row.pilot_id)


def aircraft_of(db: CampaignDB, character_id: int) -> tuple[AircraftRow | None, str]:
    """The aircraft a character flies or crews and his seat ("pilot"/"crew"), or (None, "")."""
    with db.read() as s:
        flies = s.exec(select(AircraftRow).where(AircraftRow.pilot_id == character_id)).first()
        if flies is not None:
            return flies, "pilot"
        seat = s.exec(select(AircraftCrewRow)
                      .where(AircraftCrewRow.character_id == character_id)).first()
        if seat is not None:
            return s.get(AircraftRow, seat.aircraft_id), "crew"
        return None, ""
