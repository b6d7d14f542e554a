"""Field checks a form runs as the user types and the service runs before writing.

Each function takes a full dict of column values and returns every problem as
a ``ValidationError(field, message)`` in field order; no database, no SQLModel.
Uniqueness needs the database and is checked in ``roster.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ka_tui.store.errors import ValidationError
from ka_tui.store.limits import (
    AIRCRAFT_RANGES,
    CHARACTER_RANGES,
    LEVEL_NAMES,
    LEVELS,
    MAX_UPGRADES,
    NAME_MAX,
    ROLES,
    SKILL_KINDS,
    SKILL_RANGES,
    TEXT_MAX,
    WEAPON_RANGES,
)

Values = Mapping[str, Any]


def _name(values: Values, errors: list[ValidationError]) -> None:
    name = values.get("name")
    if not isinstance(name, str) or not name.strip():
        errors.append(ValidationError("name", "a name is required"))
    elif len(name.strip()) > NAME_MAX:
        errors.append(ValidationError("name", f"at most {NAME_MAX} characters"))


def _notes(values: Values, errors: list[ValidationError]) -> None:
    notes = values.get("notes", "")
    if not isinstance(notes, str):
        errors.append(ValidationError("notes", "must be text"))
    elif len(notes) > TEXT_MAX:
        errors.append(ValidationError("notes", f"at most {TEXT_MAX} characters"))


def _whole(values: Values, field: str, lo: int, hi: int, errors: list[ValidationError],
           *, optional: bool = False) -> bool:
    """Check ``lo <= values[field] <= hi``; True when the value is usable."""
    v = values.get(field)
    if v is None and optional:
        return False
    if isinstance(v, bool) or not isinstance(v, int):
        errors.append(ValidationError(field, "must be a whole number"))
        return False
    if not lo <= v <= hi:
        errors.append(ValidationError(field, f"must be {lo}–{hi}"))
        return False
    return True


def _flag(values: Values, field: str, errors: list[ValidationError]) -> None:
    if not isinstance(values.get(field), bool):
        errors.append(ValidationError(field, "must be yes or no"))


def _choice(values: Values, field: str, allowed: tuple[str, ...],
            errors: list[ValidationError]) -> bool:
    if values.get(field) not in allowed:
        errors.append(ValidationError(field, f"must be one of {', '.join(allowed)}"))
        return False
    return True


def character_errors(values: Values) -> list[ValidationError]:
    """S0 characteristics and Base skills, RULES-NOTES B AP/K-points, R-5 wounds."""
    errors: list[ValidationError] = []
    _name(values, errors)
    _choice(values, "role", ROLES, errors)
    ok = {f: _whole(values, f, lo, hi, errors) for f, (lo, hi) in CHARACTER_RANGES.items()}
    if ok["k_points"] and ok["k_points_max"] and values["k_points"] > values["k_points_max"]:
        errors.append(ValidationError("k_points", f"cannot exceed the maximum "
                                                  f"({values['k_points_max']})"))
    _flag(values, "conscious", errors)
    if ok["wounds"] and values["wounds"] >= 6 and values.get("conscious") is True:
        errors.append(ValidationError("conscious", "six wounds is death (R-5)"))
    _notes(values, errors)
    return errors


def skill_errors(values: Values) -> list[ValidationError]:
    """S0 §Skills kinds and levels; RULES-NOTES A upgrade bounds per level."""
    errors: list[ValidationError] = []
    _name(values, errors)
    _choice(values, "kind", SKILL_KINDS, errors)
    _whole(values, "number", *SKILL_RANGES["number"], errors)
    level_ok = _choice(values, "level", LEVELS, errors)
    if _whole(values, "upgrades", *SKILL_RANGES["upgrades"], errors) and level_ok:
        most = MAX_UPGRADES[values["level"]]
        if values["upgrades"] > most:
            errors.append(ValidationError(
                "upgrades", f"{LEVEL_NAMES[values['level']]} allows at most {most} "
                            "upgrade(s) (RULES-NOTES A)"))
    _flag(values, "legendary", errors)
    if level_ok and isinstance(values.get("legendary"), bool) and \
            values["legendary"] != (values["level"] == "L"):
        errors.append(ValidationError("legendary", "Legendary is set exactly when the "
                                                   "level is L (S0 §Skills)"))
    return errors


def weapon_errors(values: Values) -> list[ValidationError]:
    errors: list[ValidationError] = []
    _name(values, errors)
    _whole(values, "damage", *WEAPON_RANGES["damage"], errors)
    _flag(values, "is_firearm", errors)
    _whole(values, "quick_slot", *WEAPON_RANGES["quick_slot"], errors, optional=True)
    _notes(values, errors)
    return errors


_OPTIONAL_AIRCRAFT = ("afterburner_thrust", "wm_thrust", "wm_altitude_limit")


def aircraft_errors(values: Values) -> list[ValidationError]:
    """Ranges and live-status bounds, then the rules' ``validate_profile``."""
    from ka_tui.rules.air.aircraft import validate_profile
    from ka_tui.store.rows_to_rules import damage_of, to_profile

    errors: list[ValidationError] = []
    _name(values, errors)
    ok = {f: _whole(values, f, lo, hi, errors, optional=f in _OPTIONAL_AIRCRAFT)
          for f, (lo, hi) in AIRCRAFT_RANGES.items()}
    for flag in ("roll", "loop", "immelmann"):
        _flag(values, flag, errors)
    for live, limit in (("hull_hits", "hull"), ("fuel_left", "fuel"), ("ammo_left", "ammo")):
        if ok[live] and ok[limit] and values[live] > values[limit]:
            errors.append(ValidationError(live, f"cannot exceed {limit} ({values[limit]})"))
    _notes(values, errors)
    if errors:
        return errors
    try:
        profile = to_profile(values)
        damage_of(values)
    except ValidationError as e:
        return [e]
    seen = set()
    for fe in validate_profile(profile):
        if (fe.field, fe.message) not in seen:
            seen.add((fe.field, fe.message))
            errors.append(ValidationError(fe.field, fe.message))
    return errors


# ---------------------------------------------------------------------- seats
# Seed gap: neither S0 §Flight card nor R-3…R-10 counts the seats of an aircraft.
# House default: the pilot's seat plus crew seats by the profile's class -- a
# fighter is single-seat, a heavy fighter or attack aircraft carries a gunner /
# radio operator, a bomber a crew of five, a large aircraft eight.
CREW_SEATS: dict[str, int] = {"fighter": 0, "heavy_fighter": 1, "attack": 1,
                              "bomber": 5, "large": 8}
CLASS_NAMES: dict[str, str] = {"fighter": "fighter", "heavy_fighter": "heavy fighter",
                               "attack": "attack aircraft", "bomber": "bomber",
                               "large": "large aircraft"}


def crew_seats(aircraft_class: str) -> int:
    """Crew seats besides the pilot's (see ``CREW_SEATS``)."""
    return CREW_SEATS.get(aircraft_class, 0)


def seats_text(aircraft_class: str) -> str:
    """``pilot only (single-seat fighter)`` / ``pilot + 1 crew (heavy fighter)``."""
    seats = crew_seats(aircraft_class)
    kind = CLASS_NAMES.get(aircraft_class, aircraft_class)
    if seats == 0:
        return f"pilot only (single-seat {kind})"
    return f"pilot + {seats} crew ({kind})"


def crew_error(aircraft_name: str, aircraft_class: str, crew_count: int) -> str | None:
    """Why ``crew_count`` crew do not fit, or ``None``."""
    seats = crew_seats(aircraft_class)
    if crew_count <= seats:
        return None
    if seats == 0:
        kind = CLASS_NAMES.get(aircraft_class, aircraft_class)
        return f"{aircraft_name} is a single-seat {kind}: no crew seat"
    return f"{aircraft_name} is full: {seats_text(aircraft_class)}"
