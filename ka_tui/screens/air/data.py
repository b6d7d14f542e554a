"""What the air-battle screen reads and writes, as jobs for ``store_work``
(each takes the open campaign and runs in a worker thread):
``store/battles.py`` (one event per transaction, undo drops the last, the
outcome written back at the end) and ``store/maps.py`` (the campaign's maps).
One small place, so the screen never reaches into the store elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ka_tui.rules.air.battle import Event
from ka_tui.rules.campaign.crash import CrashFate
from ka_tui.rules.air.units import AirUnit
from ka_tui.store.battles import (
    AircraftCandidate, BattleOutcome, BattleSummary, LoadedBattle, StartPosition,
)
from ka_tui.store.errors import StoreError

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB


# Offered at setup after the campaign's own maps (a plain sea, no terrain).
BUILTIN_MAPS: tuple[tuple[str, str], ...] = (
    ("Open sea 24x14", "\n".join(" ".join("~" for _ in range(24)) for _ in range(14))),
    ("Coast and airfield 24x14", "\n".join(
        [" ".join(["~"] * 10 + ["."] * 10 + ["f1"] * 2 + ["2"] * 2) for _ in range(7)]
        + [" ".join(["~"] * 9 + ["."] * 11 + ["r"] * 2 + ["3"] * 2) for _ in range(7)]
        + ["strip Home 14,11 N 4 1 prepared"])),
)


@dataclass(frozen=True)
class MapChoice:
    name: str
    text: str
    map_id: int | None = None


def load_candidates(db: CampaignDB, mission_id: int | None = None) -> list[AircraftCandidate]:
    from ka_tui.store import battles, missions

    if mission_id is not None:   # its ready-check as well
        return missions.battle_candidates(db, mission_id)
    return battles.candidates(db)


def map_choices(db: CampaignDB) -> list[MapChoice]:
    from ka_tui.store import maps

    saved = [maps.get_map(db, m.id) for m in maps.list_maps(db)]
    return ([MapChoice(m.name, m.text, m.id) for m in saved]
            + [MapChoice(name, text) for name, text in BUILTIN_MAPS])


def setup_choices(db: CampaignDB, mission_id: int | None = None
                  ) -> tuple[list[AircraftCandidate], list[MapChoice]]:
    """What a new battle's setup offers: the aircraft that may fly (for a
    mission's battle, under its ready-check), the maps."""
    try:
        cands = load_candidates(db, mission_id)
    except Exception as error:  # noqa: BLE001 - shown to the GM
        raise StoreError(f"cannot read the roster: {error}") from error
    try:
        return cands, map_choices(db)
    except Exception as error:  # noqa: BLE001 - shown to the GM
        raise StoreError(f"cannot read the maps: {error}") from error


def list_battles(db: CampaignDB) -> list[BattleSummary]:
    from ka_tui.store import battles

    return battles.list_battles(db)


def newest_open(db: CampaignDB) -> int | None:
    from ka_tui.store import battles

    return battles.newest_open(db)


def load_battle(db: CampaignDB, battle_id: int) -> LoadedBattle:
    from ka_tui.store import battles

    return battles.load_battle(db, battle_id)


def open_battle(db: CampaignDB, battle_id: int | None) -> LoadedBattle | None:
    """Battle ``battle_id``, or (None) the newest still open; None: none is."""
    bid = battle_id if battle_id is not None else newest_open(db)
    return None if bid is None else load_battle(db, bid)


def start_battle(db: CampaignDB, units: Sequence[AirUnit], aircraft: dict[str, int],
                 choice: MapChoice, mission_id: int | None = None) -> LoadedBattle:
    """The placed units (side, hex, facing, level, speed) as a new battle; with
    ``mission_id``, started from that mission and linked to it (one transaction)."""
    from ka_tui.store import battles, missions

    places = [StartPosition(aircraft[u.id], u.side, u.hex, u.facing, u.altitude, u.speed)
              for u in units]
    where: dict[str, Any] = ({"map_id": choice.map_id} if choice.map_id is not None
                             else {"map_text": choice.text, "map_name": choice.name})
    if mission_id is None:
        battle_id = battles.start_battle(db, places, **where)
    else:
        battle_id = missions.start_battle(db, mission_id, places, **where)
    return battles.load_battle(db, battle_id)


def commit(db: CampaignDB, battle_id: int, event: Event) -> None:
    """One committed action, one transaction (saved before the screen moves on)."""
    from ka_tui.store import battles

    battles.commit(db, battle_id, event)


def undo(db: CampaignDB, battle_id: int, expect: int) -> None:
    from ka_tui.store import battles

    battles.undo_last(db, battle_id, expect=expect)


def end_battle(db: CampaignDB, loaded: LoadedBattle,
               fates: Mapping[int, CrashFate] | None = None) -> BattleOutcome:
    """The outcome written back to the campaign in one transaction, with the
    GM's answers about a crashed aircraft's crew."""
    from ka_tui.store import battles

    return battles.end_battle(db, loaded.battle_id, expect=loaded.position, crew_fates=fates)


def outcome_text(o: BattleOutcome) -> str:
    lost = ", ".join(f"{x.name} {x.state}" for x in o.losses) or "no aircraft lost"
    wins = ", ".join(f"{v.victor} downed {v.victim}" for v in o.victories)
    return f"outcome written: {o.turns} turn(s); {lost}" + (f"; {wins}" if wins else "")
