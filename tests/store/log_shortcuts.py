"""Test shortcuts over ``ka_tui/store/events.py`` (the one event log) for
fights and battles: heads and raw appends.

The ``append_*_event`` shortcuts append at the end without the log's rules
(``checked=False``), to build damaged or hand-made logs in tests. The app goes
through ``store/fights.py`` and ``store/battles.py``, whose every write names
the position it expects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ka_tui.store import events as ev
from ka_tui.store.events import LogEvent, LogHead, LogKind, LogRef

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB


def new_fight(db: CampaignDB, name: str) -> LogHead:
    return ev.new_log(db, LogKind.FIGHT, name)


def list_fights(db: CampaignDB) -> list[LogHead]:
    return ev.heads(db, LogKind.FIGHT)




def append_fight_event(db: CampaignDB, fight_id: int, kind: str, payload: Any) -> LogEvent:
    """One event, one transaction; ``seq`` is the next number in this fight (unchecked)."""
    return ev.append(db, LogRef.fight(fight_id), LogEvent(kind, payload), None, checked=False)


def fight_events(db: CampaignDB, fight_id: int) -> list[LogEvent]:
    return ev.events(db, LogRef.fight(fight_id))




def new_battle(db: CampaignDB, name: str) -> LogHead:
    return ev.new_log(db, LogKind.BATTLE, name)


def list_battles(db: CampaignDB) -> list[LogHead]:
    return ev.heads(db, LogKind.BATTLE)


def end_battle(db: CampaignDB, battle_id: int) -> LogHead:
    return ev.set_status(db, LogRef.battle(battle_id), "ended")


def append_battle_event(db: CampaignDB, battle_id: int, kind: str, payload: Any) -> LogEvent:
    """One event, one transaction; ``seq`` is the next number in this battle (unchecked)."""
    return ev.append(db, LogRef.battle(battle_id), LogEvent(kind, payload), None,
                     checked=False)


def battle_events(db: CampaignDB, battle_id: int) -> list[LogEvent]:
    return ev.events(db, LogRef.battle(battle_id))


def drop_last_battle_event(db: CampaignDB, battle_id: int) -> LogEvent | None:
    return ev.undo(db, LogRef.battle(battle_id))


def payload_of(event: LogEvent) -> Any:
    return event.payload
