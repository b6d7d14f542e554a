"""One mapping between aircraft rows and the rules' ``AircraftProfile``.

Rows keep lists as JSON text (RULES-NOTES C fields); screens and rules share
these functions so there is one reading of each column. Works on a model row
or on a plain dict of column values (forms), and imports no SQLModel.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from ka_tui.rules.air.units import Airman, Damage
from ka_tui.rules.air.aircraft import (
    AircraftClass,
    AircraftProfile,
    Echelon,
    EngineKind,
    Manoeuvre,
    ManoeuvreKind,
    Trait,
    TurnBand,
)
from ka_tui.store.errors import ValidationError

PROFILE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(AircraftProfile))
JSON_FIELDS = ("manoeuvres", "test_echelons", "traits", "turn_mode")


def _get(row: Any, key: str) -> Any:
    if isinstance(row, Mapping):
        return row[key]
    return getattr(row, key)


def _json(row: Any, key: str) -> Any:
    raw = _get(row, key)
    if not isinstance(raw, str):
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        raise ValidationError(key, "is not valid JSON") from None


def to_profile(row: Any) -> AircraftProfile:
    """The rules' view of an aircraft row (or dict). Raises ``ValidationError``
    naming the column when a stored value cannot be read."""
    key = ""
    try:
        key = "aircraft_class"
        cls = AircraftClass(_get(row, key))
        key = "engine_kind"
        kind = EngineKind(_get(row, key))
        key = "ceiling"
        ceiling = Echelon(_get(row, key))
        key = "manoeuvres"
        manoeuvres = tuple(Manoeuvre(ManoeuvreKind(k), int(s), bool(st))
                           for k, s, st in _json(row, key))
        key = "test_echelons"
        echelons = frozenset(Echelon(e) for e in _json(row, key))
        key = "traits"
        traits = tuple((Trait(t), None if n is None else int(n)) for t, n in _json(row, key))
        key = "turn_mode"
        turn_mode = tuple(TurnBand(int(a), int(b)) for a, b in _json(row, key))
    except (ValueError, TypeError, KeyError) as e:
        if isinstance(e, ValidationError):
            raise
        raise ValidationError(key, f"cannot be read ({e})") from None
    plain = {name: _get(row, name) for name in PROFILE_FIELDS
             if name not in JSON_FIELDS and name not in
             ("aircraft_class", "engine_kind", "ceiling")}
    plain["roll"], plain["loop"], plain["immelmann"] = (
        bool(plain["roll"]), bool(plain["loop"]), bool(plain["immelmann"]))
    return AircraftProfile(aircraft_class=cls, engine_kind=kind, ceiling=ceiling,
                           manoeuvres=manoeuvres, test_echelons=echelons, traits=traits,
                           turn_mode=turn_mode, **plain)


def from_profile(p: AircraftProfile) -> dict[str, Any]:
    """Row column values for a profile (live status not included)."""
    out: dict[str, Any] = {name: getattr(p, name) for name in PROFILE_FIELDS}
    out["aircraft_class"] = p.aircraft_class.value
    out["engine_kind"] = p.engine_kind.value
    out["ceiling"] = int(p.ceiling)
    out["manoeuvres"] = json.dumps([[m.kind.value, m.speed, m.stressful] for m in p.manoeuvres])
    out["test_echelons"] = json.dumps(sorted(int(e) for e in p.test_echelons))
    out["traits"] = json.dumps([[t.value, n] for t, n in p.traits])
    out["turn_mode"] = json.dumps([[b.min_speed, b.hexes] for b in p.turn_mode])
    return out


def damage_of(row: Any) -> Damage:
    """Live damage of an aircraft row as the rules' ``Damage``.

    The ``damage`` column holds ``{"effects": {location: n}, "hits": {location: n}}``:
    location effects in force and where each hull hit landed (air_state.Damage).
    """
    stored = _json(row, "damage")
    if not isinstance(stored, dict):
        raise ValidationError("damage", "must be a table")
    try:
        return Damage(int(_get(row, "hull_hits")), _pairs(stored.get("effects", {})),
                      _pairs(stored.get("hits", {})))
    except (TypeError, ValueError, AttributeError):
        raise ValidationError("damage", "must map locations to whole numbers") from None


def _pairs(table: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((str(k), int(v)) for k, v in table.items()))


def damage_columns(damage: Damage) -> dict[str, Any]:
    """Row values for a ``Damage`` (hull hits and the per-location tables)."""
    stored: dict[str, dict[str, int]] = {}
    if damage.locations:
        stored["effects"] = dict(damage.locations)
    if damage.located_hits:
        stored["hits"] = dict(damage.located_hits)
    return {"hull_hits": damage.hull_hits, "damage": json.dumps(stored, sort_keys=True)}


def airman_of(character: Any) -> Airman:
    """The air rules' view of a character (R-2 ratings, R-4 endurance, R-5 wounds)."""
    return Airman(name=_get(character, "name"), piloting=_get(character, "piloting"),
                  gunnery=_get(character, "gunnery"), endurance=_get(character, "endurance"),
                  wounds=_get(character, "wounds"), conscious=bool(_get(character, "conscious")))
