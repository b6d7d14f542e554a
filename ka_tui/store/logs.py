"""The append-only event lists of close-combat fights and air battles.

The dice-roll log is ``roll_log.py`` (dice-roller helper).

DESIGN.md: a close-combat fight or an air battle is a list of events, each
written in its own transaction; state is the replay of the events through the
rules. Events are never edited (a trigger refuses UPDATE); undo drops the last.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, col, select

from ka_tui.store.db import CampaignDB
from ka_tui.store.errors import NotFound, ValidationError
from ka_tui.store.models import Battle, BattleEvent, Fight, FightEvent


def _dumps(value: Any, field: str) -> str:
    try:
        return json.dumps(value, sort_keys=True)
    except (TypeError, ValueError) as e:
        raise ValidationError(field, f"cannot be stored as JSON ({e})") from None


# ---------------------------------------------------------- fights/battles

def _new(db: CampaignDB, model: Any, name: str) -> Any:
    name = name.strip()
    if not name:
        raise ValidationError("name", "a name is required")
    with db.transaction() as s:
        row = model(name=name)
        s.add(row)
        s.flush()
        s.refresh(row)
        return row


def _append(db: CampaignDB, parent: Any, event: Any, key: str, parent_id: int,
            kind: str, payload: Any) -> Any:
    if not kind.strip():
        raise ValidationError("kind", "an event needs a kind")
    text = _dumps(payload, "payload")
    with db.transaction() as s:  # BEGIN IMMEDIATE: no other writer can take the same seq
        _need(s, parent, parent_id)
        last = s.exec(select(func.max(event.seq)).where(getattr(event, key) == parent_id)).one()
        row = event(**{key: parent_id}, seq=(last or 0) + 1, kind=kind, payload=text)
        s.add(row)
        s.flush()
        s.refresh(row)
        return row


def _events(db: CampaignDB, event: Any, key: str, parent_id: int) -> list[Any]:
    with db.read() as s:
        q = select(event).where(getattr(event, key) == parent_id).order_by(col(event.seq))
        return list(s.exec(q).all())


def _drop_last(db: CampaignDB, event: Any, key: str, parent_id: int) -> Any | None:
    with db.transaction() as s:
        q = (select(event).where(getattr(event, key) == parent_id)
             .order_by(col(event.seq).desc()).limit(1))
        row = s.exec(q).first()
        if row is not None:
            s.delete(row)
        return row


def _need(s: Session, model: Any, row_id: int) -> Any:
    row = s.get(model, row_id)
    if row is None:
        raise NotFound(f"no {model.__name__.lower()} with id {row_id} in this campaign")
    return row


def _set_status(db: CampaignDB, model: Any, row_id: int, status: str) -> Any:
    with db.transaction() as s:
        row = _need(s, model, row_id)
        row.status = status
        s.add(row)
        return row


def new_fight(db: CampaignDB, name: str) -> Fight:
    return _new(db, Fight, name)  # type: ignore[no-any-return]


def list_fights(db: CampaignDB) -> list[Fight]:
    with db.read() as s:
        return list(s.exec(select(Fight).order_by(col(Fight.id))).all())


def end_fight(db: CampaignDB, fight_id: int) -> Fight:
    return _set_status(db, Fight, fight_id, "ended")  # type: ignore[no-any-return]


def append_fight_event(db: CampaignDB, fight_id: int, kind: str, payload: Any) -> FightEvent:
    """One event, one transaction; ``seq`` is the next number in this fight."""
    return _append(db, Fight, FightEvent, "fight_id", fight_id, kind, payload)  # type: ignore[no-any-return]


def fight_events(db: CampaignDB, fight_id: int) -> list[FightEvent]:
    return _events(db, FightEvent, "fight_id", fight_id)


def drop_last_fight_event(db: CampaignDB, fight_id: int) -> FightEvent | None:
    """Undo: remove the newest event (returned), or None when there is none."""
    return _drop_last(db, FightEvent, "fight_id", fight_id)


def new_battle(db: CampaignDB, name: str) -> Battle:
    return _new(db, Battle, name)  # type: ignore[no-any-return]


def list_battles(db: CampaignDB) -> list[Battle]:
    with db.read() as s:
        return list(s.exec(select(Battle).order_by(col(Battle.id))).all())


def end_battle(db: CampaignDB, battle_id: int) -> Battle:
    return _set_status(db, Battle, battle_id, "ended")  # type: ignore[no-any-return]


def append_battle_event(db: CampaignDB, battle_id: int, kind: str, payload: Any) -> BattleEvent:
    """One event, one transaction; ``seq`` is the next number in this battle."""
    return _append(db, Battle, BattleEvent, "battle_id", battle_id, kind, payload)  # type: ignore[no-any-return]


def battle_events(db: CampaignDB, battle_id: int) -> list[BattleEvent]:
    return _events(db, BattleEvent, "battle_id", battle_id)


def drop_last_battle_event(db: CampaignDB, battle_id: int) -> BattleEvent | None:
    return _drop_last(db, BattleEvent, "battle_id", battle_id)


def payload_of(event: FightEvent | BattleEvent) -> Any:
    return json.loads(event.payload)
