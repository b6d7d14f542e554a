"""A flown mission's confirmed debrief as the campaign stores it (the
``mission.debrief`` JSON column): ``rules/campaign/missions.Debrief`` written
as a table (``dataclasses.asdict``), read back typed::

    d = read_debrief(mission_id, name, raw)     # Debrief; BadDebrief names the row
    d = parse_debrief({"pilots": [...], ...})   # Debrief; ValueError "pilots[2]: …"

The shape is the dataclasses' own (``DebriefPilot``, ``DebriefPlane``,
``Debrief``): each field of its type, nothing else, ``{}`` before the
debrief is confirmed. Every whole number is a count from 0 to ``COUNT_MAX``
but an ``…_id``, a row id; every text at most ``TEXT_MAX`` characters. The
export's ``schema_doc.DebriefDoc`` is built from the same dataclasses and
bounds (``field_rule``), so import accepts exactly what this read reads.

Light on purpose (no pydantic): the roster's first frame reads debriefs.
"""

from __future__ import annotations

import dataclasses
import json
import typing
from collections.abc import Mapping
from typing import Any

from ka_tui.rules.campaign.missions import Debrief, DebriefPilot, DebriefPlane
from ka_tui.store.errors import StoreError, one_line
from ka_tui.store.limits import TEXT_MAX

COUNT_MAX = 99_999_999
ID_MAX = 2**63 - 1
RECORDS: tuple[type[Any], ...] = (Debrief, DebriefPilot, DebriefPlane)


class BadDebrief(StoreError):
    """A mission's stored debrief that does not have the debrief's shape;
    ``where``: the mission and the value, short (``mission 2 “Dawn patrol”,
    debrief.pilots[2]: expected an object``)."""

    where: str = ""


def field_rule(cls: type[Any], name: str) -> tuple[Any, int, int]:
    """(type, low, high) of one field: ``int`` with its bounds, ``str`` with
    its length, ``bool``, a record class, or ``(item,)`` for a list of items."""
    hint = typing.get_type_hints(cls)[name]
    if typing.get_origin(hint) is tuple:
        item = typing.get_args(hint)[0]
        return (item,), 0, 0
    if hint is int:
        return int, *((1, ID_MAX) if name.endswith("_id") else (0, COUNT_MAX))
    if hint is str:
        return str, 0, TEXT_MAX
    if hint is bool:
        return bool, 0, 0
    raise TypeError(f"{cls.__name__}.{name}: a debrief field of type {hint}")


def _fail(where: str, message: str) -> typing.NoReturn:
    raise ValueError(f"{where}: {message}")


def _value(kind: Any, low: int, high: int, value: Any, where: str) -> Any:
    if isinstance(kind, tuple):
        if not isinstance(value, list):
            _fail(where, "expected a list")
        return tuple(_value(kind[0], *(_bounds(kind[0])), v, f"{where}[{i}]")
                     for i, v in enumerate(value))
    if kind is int:
        if type(value) is not int:
            _fail(where, "expected a whole number")
        if not low <= value <= high:
            _fail(where, f"must be from {low} to {high}")
        return value
    if kind is str:
        if not isinstance(value, str):
            _fail(where, "expected text")
        if len(value) > high:
            _fail(where, f"at most {high} characters")
        return value
    if kind is bool:
        if not isinstance(value, bool):
            _fail(where, "expected true or false")
        return value
    return _record(kind, value, where)


def _bounds(kind: Any) -> tuple[int, int]:
    return (0, TEXT_MAX) if kind is str else (0, COUNT_MAX)


def _record(cls: type[Any], data: Any, where: str) -> Any:
    if not isinstance(data, Mapping):
        _fail(where, "expected an object")
    names = [f.name for f in dataclasses.fields(cls)]
    for key in data:
        if key not in names:
            _fail(f"{where}.{key}" if where else str(key), "unknown field")
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        at = f"{where}.{f.name}" if where else f.name
        if f.name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                _fail(at, "is missing")
            continue
        values[f.name] = _value(*field_rule(cls, f.name), data[f.name], at)
    return cls(**values)


EMPTY = Debrief((), (), (), (), 0)


def parse_debrief(data: Any) -> Debrief:
    """The typed debrief of a stored table (``{}``: none yet); ``ValueError``
    naming the first bad value by its path (``pilots[2].kills: …``)."""
    if isinstance(data, Mapping) and not data:
        return EMPTY
    result: Debrief = _record(Debrief, data, "")
    return result


def read_debrief(mission_id: int, name: str, raw: str | None) -> Debrief:
    """The stored debrief of mission ``mission_id`` (its JSON text);
    ``BadDebrief`` naming the mission and the value when it cannot be read."""
    return typed_debrief(mission_id, name, stored_table(mission_id, name, raw))


def stored_table(mission_id: int, name: str, raw: str | None) -> dict[str, Any]:
    """The debrief column's JSON table (``BadDebrief`` if it is none)."""
    try:
        data = json.loads(raw or "{}")
    except (ValueError, RecursionError):
        raise _bad(mission_id, name, ": not a JSON table") from None
    if not isinstance(data, dict):
        raise _bad(mission_id, name, ": expected an object")
    return data


def typed_debrief(mission_id: int, name: str, data: Any) -> Debrief:
    """``parse_debrief`` of mission ``mission_id``'s table, ``BadDebrief`` naming it."""
    try:
        return parse_debrief(data)
    except (ValueError, RecursionError) as e:
        raise _bad(mission_id, name, str(e)) from None


def _bad(mission_id: int, name: str, why: str) -> BadDebrief:
    """``why``: ``"pilots[2]: expected an object"``, or ``": …"`` for the whole table."""
    at = f"debrief{why}" if why.startswith(":") else f"debrief.{why}"
    error = BadDebrief(f"mission {mission_id} “{name}”: its confirmed debrief cannot be read "
                       f"({at}); restore a backup (ka-tui backups), or export the campaign, "
                       "fix that value and import it")
    error.where = one_line(f"mission {mission_id} “{name}”, {at}")
    return error


def as_stored(d: Debrief) -> str:
    """The JSON text a confirmed debrief is stored as."""
    return json.dumps(dataclasses.asdict(d), sort_keys=True)
