"""Aircraft profile files: export and import.

A profile file is JSON a GM can read and edit by hand::

    {"format": "ka-tui aircraft profiles", "version": 1,
     "profiles": [{"name": "Hawker Tempest V", "aircraft_class": "fighter",
                   "manoeuvres": "A1 A2 A3 !T1 T2 !H1", "turn_mode": "1:1 4:2 7:3",
                   "ceiling": "top", "test_echelons": ["top"],
                   "traits": {"critical": 1, "robust": 1, "bulky": null}, …}]}

The dial and the turn mode use the form's notation (``rules/flight_notation``).
Reading checks everything before anything is written, like the campaign
import: size, JSON syntax (with line and column), the format marker and
version, every key and type, then the store's ranges and the rules'
``validate_profile``. An import adds every profile in one transaction or none.
Writing goes to a temporary file moved into place, so a failed export never
leaves half a file.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ka_tui.rules.air.aircraft import (
    AircraftClass,
    AircraftProfile,
    Echelon,
    EngineKind,
    Trait,
)
from ka_tui.rules.air.flight_notation import (
    format_dial,
    format_turn_mode,
    parse_dial,
    parse_turn_mode,
)
from ka_tui.store.errors import StoreError, ValidationError
from ka_tui.store.files import write_text_atomic

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

FORMAT = "ka-tui aircraft profiles"
VERSION = 1
MAX_BYTES = 1_000_000
MAX_PROFILES = 500

_FIELDS = {f.name: f for f in fields(AircraftProfile)}
_INT_FIELDS = ("engines", "move", "dive_max", "firepower", "hull", "evasion", "thrust",
               "wm_uses", "g_rating", "landing_speed", "takeoff_run", "fuel", "ammo",
               "control_surfaces", "gear_legs")
_OPTIONAL_INT = ("afterburner_thrust", "wm_thrust", "wm_altitude_limit")
_BOOL_FIELDS = ("roll", "loop", "immelmann")


class ProfileFileError(StoreError):
    """A profile file that cannot be read; ``str(e)`` says where and why."""


# ------------------------------------------------------------------ writing

def profile_to_data(p: AircraftProfile) -> dict[str, Any]:
    """One profile as JSON-ready data in the file's notation."""
    return {
        "name": p.name,
        "aircraft_class": p.aircraft_class.value,
        "engines": p.engines,
        "engine_kind": p.engine_kind.value,
        "move": p.move,
        "roll": p.roll,
        "manoeuvres": format_dial(p.manoeuvres),
        "dive_max": p.dive_max,
        "loop": p.loop,
        "immelmann": p.immelmann,
        "ceiling": p.ceiling.name.lower(),
        "test_echelons": [e.name.lower() for e in sorted(p.test_echelons)],
        "firepower": p.firepower,
        "hull": p.hull,
        "evasion": p.evasion,
        "traits": {t.value: n for t, n in p.traits},
        "thrust": p.thrust,
        "afterburner_thrust": p.afterburner_thrust,
        "wm_thrust": p.wm_thrust,
        "wm_uses": p.wm_uses,
        "wm_altitude_limit": p.wm_altitude_limit,
        "g_rating": p.g_rating,
        "turn_mode": format_turn_mode(p.turn_mode),
        "landing_speed": p.landing_speed,
        "takeoff_run": p.takeoff_run,
        "fuel": p.fuel,
        "ammo": p.ammo,
        "control_surfaces": p.control_surfaces,
        "gear_legs": p.gear_legs,
    }


def dumps_profiles(profiles: Sequence[AircraftProfile]) -> str:
    doc = {"format": FORMAT, "version": VERSION,
           "profiles": [profile_to_data(p) for p in profiles]}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def export_profiles(profiles: Sequence[AircraftProfile], path: Path, *,
                    overwrite: bool = False) -> Path:
    """Write ``profiles`` to ``path`` atomically; refuses to replace a file
    unless ``overwrite``. Returns the path written."""
    path = Path(path).expanduser()
    if not profiles:
        raise StoreError("nothing to export")
    if path.exists() and not overwrite:
        raise StoreError(f"{path} already exists; choose another name (nothing was written)")
    if path.is_dir():
        raise StoreError(f"{path} is a folder; give a file name")
    text = dumps_profiles(profiles)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, text)
    except OSError as e:
        raise StoreError(f"cannot write {path}: {e.strerror or e}") from None
    return path


# ------------------------------------------------------------------ reading

def _where(index: int, data: Any) -> str:
    name = data.get("name") if isinstance(data, dict) else None
    return f"profile {index + 1}" + (f" ({name})" if isinstance(name, str) and name else "")


def _enum(raw: Any, kind: type[Any], key: str, by_name: bool = False) -> Any:
    if not isinstance(raw, str):
        raise ValidationError(key, "must be text")
    try:
        return kind[raw.strip().upper()] if by_name else kind(raw.strip().lower())
    except (KeyError, ValueError):
        allowed = ", ".join(m.name.lower() if by_name else m.value for m in kind)
        raise ValidationError(key, f"{raw!r} is not one of {allowed}") from None


def _int(raw: Any, key: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ValidationError(key, "must be a whole number")
    return raw


def _notation(raw: Any, key: str, parse: Any) -> Any:
    if not isinstance(raw, str):
        raise ValidationError(key, "must be text in the form's notation")
    value, errors = parse(raw)
    if errors:
        raise ValidationError(key, errors[0].message)
    return value


def _traits(raw: Any) -> tuple[tuple[Trait, int | None], ...]:
    if not isinstance(raw, dict):
        raise ValidationError("traits", 'must be a table like {"accuracy": 2, "bulky": null}')
    out: list[tuple[Trait, int | None]] = []
    for name, dice in raw.items():
        trait = _enum(name, Trait, "traits")
        out.append((trait, None if dice is None else _int(dice, "traits")))
    return tuple(out)


def profile_from_data(data: Any) -> AircraftProfile:
    """One profile from file data; raises ``ValidationError`` naming the key."""
    if not isinstance(data, dict):
        raise ValidationError("profile", "must be a table of fields")
    unknown = sorted(set(data) - set(_FIELDS))
    if unknown:
        raise ValidationError(unknown[0], "is not a profile field")
    if not isinstance(data.get("name"), str) or not data["name"].strip():
        raise ValidationError("name", "a name is required")
    values: dict[str, Any] = {"name": data["name"].strip()}
    for key, raw in data.items():
        if key == "name":
            continue
        if key in _INT_FIELDS:
            values[key] = _int(raw, key)
        elif key in _OPTIONAL_INT:
            values[key] = None if raw is None else _int(raw, key)
        elif key in _BOOL_FIELDS:
            if not isinstance(raw, bool):
                raise ValidationError(key, "must be true or false")
            values[key] = raw
        elif key == "aircraft_class":
            values[key] = _enum(raw, AircraftClass, key)
        elif key == "engine_kind":
            values[key] = _enum(raw, EngineKind, key)
        elif key == "ceiling":
            values[key] = _enum(raw, Echelon, key, by_name=True)
        elif key == "test_echelons":
            if not isinstance(raw, list):
                raise ValidationError(key, "must be a list of echelons")
            values[key] = frozenset(_enum(e, Echelon, key, by_name=True) for e in raw)
        elif key == "manoeuvres":
            values[key] = _notation(raw, key, parse_dial)
        elif key == "turn_mode":
            values[key] = _notation(raw, key, parse_turn_mode)
        elif key == "traits":
            values[key] = _traits(raw)
    profile = replace(AircraftProfile(name=values["name"]), **values)
    errors = profile_errors(profile)
    if errors:
        raise errors[0]
    return profile


def profile_errors(p: AircraftProfile) -> list[ValidationError]:
    """The store's ranges and the rules' checks, exactly as a save would run them."""
    from ka_tui.store.rows_to_rules import from_profile
    from ka_tui.store.field_checks import aircraft_errors

    values = from_profile(p) | {"hull_hits": 0, "fuel_left": p.fuel, "ammo_left": p.ammo,
                                "overheat": 0, "damage": "{}", "notes": ""}
    return aircraft_errors(values)


def loads_profiles(text: str) -> list[AircraftProfile]:
    """Every profile in a file's text, or ``ProfileFileError`` for the first problem."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ProfileFileError(f"not valid JSON at line {e.lineno}, column {e.colno}: "
                               f"{e.msg}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ProfileFileError(f"not a ka-tui profile file (no \"format\": \"{FORMAT}\")")
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ProfileFileError("the file has no valid version number")
    if version > VERSION:
        raise ProfileFileError(f"the file is version {version}; this ka-tui reads up to "
                               f"version {VERSION} — upgrade ka-tui to import it")
    unknown = sorted(set(doc) - {"format", "version", "profiles"})
    if unknown:
        raise ProfileFileError(f"unknown top-level key {unknown[0]!r}")
    items = doc.get("profiles")
    if not isinstance(items, list) or not items:
        raise ProfileFileError("the file holds no profiles")
    if len(items) > MAX_PROFILES:
        raise ProfileFileError(f"the file holds {len(items)} profiles; at most "
                               f"{MAX_PROFILES} are read at once")
    out: list[AircraftProfile] = []
    for i, item in enumerate(items):
        try:
            out.append(profile_from_data(item))
        except ValidationError as e:
            raise ProfileFileError(f"{_where(i, item)}: {e.field}: {e.message}") from None
    return out


def read_profiles(path: Path) -> list[AircraftProfile]:
    """Read and check a profile file; nothing is written anywhere."""
    path = Path(path).expanduser()
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise ProfileFileError(f"{path} is {size} bytes; a profile file is at most "
                                   f"{MAX_BYTES}")
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ProfileFileError(f"{path} does not exist") from None
    except IsADirectoryError:
        raise ProfileFileError(f"{path} is a folder, not a profile file") from None
    except OSError as e:
        raise ProfileFileError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProfileFileError(f"{path} is not UTF-8 text") from None
    try:
        return loads_profiles(text)
    except ProfileFileError as e:
        raise ProfileFileError(f"{path.name}: {e}") from None


def free_name(name: str, taken: set[str]) -> str:
    """``name``, or ``name (2)``, ``name (3)``… — the first not in ``taken`` (any case)."""
    lowered = {t.casefold() for t in taken}
    if name.casefold() not in lowered:
        return name
    n = 2
    while f"{name} ({n})".casefold() in lowered:
        n += 1
    return f"{name} ({n})"


def add_profiles(db: CampaignDB, profiles: Sequence[AircraftProfile]) -> list[int]:
    """Copy ``profiles`` into the campaign as new aircraft, all in one
    transaction; a name already used gets `` (2)``. Returns the new ids."""
    from ka_tui.store import roster

    ids: list[int] = []
    with db.batch():
        taken = {a.name for a in roster.list_aircraft(db)}
        for p in profiles:
            name = free_name(p.name, taken)
            taken.add(name)
            row = roster.add_aircraft(db, replace(p, name=name))
            assert row.id is not None
            ids.append(row.id)
    return ids


def import_profiles(db: CampaignDB, path: Path) -> list[int]:
    """Read ``path`` (all checks first), then add every profile in one transaction."""
    return add_profiles(db, read_profiles(path))


def default_export_path(name: str) -> Path:
    """``<data dir>/profiles/<name>.json`` with a file-safe name."""
    from ka_tui.store.paths import data_dir

    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name.strip()) or "profile"
    return data_dir() / "profiles" / f"{safe}.json"
