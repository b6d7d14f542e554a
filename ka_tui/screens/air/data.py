"""What the air-battle screen reads and writes, called from worker threads.

One small place between the screen and the store (issue 10): the battle's
events go through ``store/logs.py`` (one event per transaction; undo drops the
last one) and the state is their replay (``rules/air/battle.py``). When
``store/battles.py`` lands, these functions become calls to it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ka_tui.rules.air.battle import Battle, Event
from ka_tui.rules.air.battle_map import BattleMap, parse_map
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.core.options import AirOptions

# Maps offered at setup until the campaign keeps its own (store/maps.py).
BUILTIN_MAPS: tuple[tuple[str, str], ...] = (
    ("Open sea 24x14", "\n".join(" ".join("~" for _ in range(24)) for _ in range(14))),
    ("Coast and airfield 24x14", "\n".join(
        [" ".join(["~"] * 10 + ["."] * 10 + ["f1"] * 2 + ["2"] * 2) for _ in range(7)]
        + [" ".join(["~"] * 9 + ["."] * 11 + ["r"] * 2 + ["3"] * 2) for _ in range(7)]
        + ["strip Home 14,11 N 4 1 prepared"])),
)


@dataclass(frozen=True)
class Candidate:
    """An aircraft of the roster as setup offers it."""

    aircraft_id: int
    name: str
    type_name: str
    pilot: str
    crew: tuple[str, ...]
    refusal: str             # why it cannot fly (no seated pilot); empty = it can
    unit: AirUnit | None     # side "", hex (0,0): placement fills these


@dataclass(frozen=True)
class BattleInfo:
    id: int
    name: str
    status: str
    created_at: str
    events: int


@dataclass
class Loaded:
    battle_id: int
    name: str
    battle: Battle
    map_text: str
    aircraft: dict[str, int]        # unit id -> aircraft row id


def air_options(db: Any) -> AirOptions:
    from ka_tui.store.campaign import house_rules

    return house_rules(db).air


def load_candidates(db: Any) -> list[Candidate]:
    from ka_tui.store import roster
    from ka_tui.store.aircraft_rows import airman_of, damage_of, to_profile

    out: list[Candidate] = []
    for row in roster.list_aircraft(db):
        assert row.id is not None
        pilot = roster.pilot_of(db, row.id)
        crew = roster.crew_of(db, row.id)
        profile = to_profile(row)
        refusal = ""
        if pilot is None:
            refusal = f"{row.name} has no seated pilot (roster: assign one first)"
        elif pilot.wounds >= 6:
            refusal = f"{row.name}'s pilot {pilot.name} is dead"
        unit = None
        if pilot is not None:
            unit = AirUnit(row.name, "", profile, airman_of(pilot),
                           tuple(airman_of(c) for c in crew), speed=profile.move,
                           altitude=3, fuel=row.fuel_left, ammo=row.ammo_left,
                           overheat=row.overheat, wm_uses_left=row.wm_uses,
                           damage=damage_of(row))
        out.append(Candidate(row.id, row.name, profile.aircraft_class.label, pilot.name if pilot else "",
                             tuple(c.name for c in crew), refusal, unit))
    return out


def list_battles(db: Any) -> list[BattleInfo]:
    from ka_tui.store import logs

    out = []
    for b in reversed(logs.list_battles(db)):
        assert b.id is not None
        out.append(BattleInfo(b.id, b.name, b.status, b.created_at or "",
                              len(logs.battle_events(db, b.id))))
    return out


def newest_open(db: Any) -> int | None:
    return next((b.id for b in list_battles(db) if b.status == "open"), None)


def start_battle(db: Any, name: str, units: list[AirUnit], map_name: str, map_text: str,
                 aircraft: dict[str, int]) -> Loaded:
    from ka_tui.store import logs

    options = air_options(db)
    battle = Battle.start(units, parse_map(map_text), options, map_text)
    first = dict(battle.events[0])
    first["data"] = {**first["data"], "map_name": map_name, "aircraft": aircraft}
    battle.events[0] = first
    with db.batch():
        row = logs.new_battle(db, name)
        assert row.id is not None
        logs.append_battle_event(db, row.id, first["kind"], _payload(first))
    return Loaded(row.id, name, battle, map_text, aircraft)


def _payload(event: Event) -> dict[str, Any]:
    return {k: event[k] for k in ("data", "faces", "log")}


def load_battle(db: Any, battle_id: int) -> Loaded:
    from ka_tui.store import logs

    info = next((b for b in logs.list_battles(db) if b.id == battle_id), None)
    if info is None:
        raise LookupError(f"no battle {battle_id} in this campaign")
    events: list[Event] = []
    for i, ev in enumerate(logs.battle_events(db, battle_id)):
        payload = logs.payload_of(ev)
        events.append({"seq": i, "kind": ev.kind, **payload})
    if not events:
        raise LookupError(f"battle {battle_id} has no events")
    data = events[0]["data"]
    map_text = data.get("map") or ""
    battle = Battle.from_events(events, parse_map(map_text) if map_text else BattleMap(1, 1),
                                air_options(db))
    return Loaded(battle_id, info.name, battle, map_text,
                  {str(k): int(v) for k, v in data.get("aircraft", {}).items()})


def commit(db: Any, battle_id: int, event: Event) -> None:
    """One committed action, one transaction (saved before the screen moves on)."""
    from ka_tui.store import logs

    logs.append_battle_event(db, battle_id, event["kind"], _payload(event))


def undo(db: Any, battle_id: int) -> None:
    from ka_tui.store import logs

    logs.drop_last_battle_event(db, battle_id)


def end_battle(db: Any, loaded: Loaded) -> None:
    """Mark the battle ended (the outcome write-back is store/battles.py's)."""
    from ka_tui.store import logs

    logs.end_battle(db, loaded.battle_id)


def placed(unit: AirUnit, **changes: Any) -> AirUnit:
    return replace(unit, **changes)
