"""Rule values ↔ JSON-friendly data, for the battle log (DESIGN.md: a battle is
a list of events with JSON payloads).

``encode`` turns frozen dataclasses, enums, tuples and frozensets into dicts,
lists and scalars; ``decode(type, data)`` rebuilds them from the type hints.
Missing fields take their defaults (older logs); unknown fields are refused.
"""

from __future__ import annotations

import types
from dataclasses import fields, is_dataclass
from enum import Enum
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from ka_tui.rules.air.move_plan import Plan, Step


class CodecError(ValueError):
    """Data that does not fit the type asked for."""


def encode(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, frozenset):
        return [encode(v) for v in sorted(value)]
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    return value


@cache
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls)


def decode(tp: Any, data: Any) -> Any:
    """Rebuild a value of type ``tp`` from ``encode``'s output."""
    origin, args = get_origin(tp), get_args(tp)
    if tp is Any:
        return data
    if origin in (Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return decode(arg, data)
            except (CodecError, ValueError, TypeError) as err:
                errors.append(str(err))
        raise CodecError(f"{data!r} fits none of {tp}: {'; '.join(errors)}")
    if origin is Literal:
        if data not in args:
            raise CodecError(f"{data!r} is not one of {args}")
        return data
    if isinstance(tp, type) and is_dataclass(tp):
        return _decode_dataclass(tp, data)
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(data)
    if origin is tuple:
        if not isinstance(data, list):
            raise CodecError(f"expected a list for {tp}, got {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v) for v in data)
        if len(args) != len(data):
            raise CodecError(f"expected {len(args)} items for {tp}, got {len(data)}")
        return tuple(decode(a, v) for a, v in zip(args, data))
    if origin is frozenset:
        return frozenset(decode(args[0], v) for v in data)
    if origin is dict:
        return {decode(args[0], _key(args[0], k)): decode(args[1], v) for k, v in data.items()}
    if tp is bool:
        if not isinstance(data, bool):
            raise CodecError(f"expected true/false, got {data!r}")
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise CodecError(f"expected a whole number, got {data!r}")
        return data
    if tp is str:
        if not isinstance(data, str):
            raise CodecError(f"expected text, got {data!r}")
        return data
    raise CodecError(f"cannot decode type {tp}")


def _key(tp: Any, key: str) -> Any:
    return int(key) if tp is int else key


def _decode_dataclass(cls: type, data: Any) -> Any:
    if not isinstance(data, dict):
        raise CodecError(f"expected a table for {cls.__name__}, got {data!r}")
    hints = _hints(cls)
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise CodecError(f"{cls.__name__} has no field(s) {', '.join(unknown)}")
    return cls(**{k: decode(hints[k], v) for k, v in data.items()})


# ------------------------------------------------------------------ plans

_STEP_TYPES: dict[str, type] = {t.__name__: t for t in get_args(Step)}


def plan_to_json(plan: Plan) -> list[dict[str, Any]]:
    """A plan as ``[{"step": "Thrust", "points": 2, "at": "start"}, …]``."""
    return [{"step": type(s).__name__, **encode(s)} for s in plan]


def plan_from_json(data: list[dict[str, Any]]) -> Plan:
    steps: list[Step] = []
    for item in data:
        body = dict(item)
        name = body.pop("step", None)
        cls = _STEP_TYPES.get(str(name))
        if cls is None:
            raise CodecError(f"unknown plan step {name!r}")
        steps.append(_decode_dataclass(cls, body))
    return tuple(steps)


__all__ = ["CodecError", "decode", "encode", "plan_from_json", "plan_to_json"]
