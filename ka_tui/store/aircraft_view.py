"""What a flight card shows for one aircraft of the campaign.

``load_aircraft_view`` reads, in one plain-SQL snapshot, the aircraft row,
its pilot and its crew and returns plain values (``rows_to_rules``): the
rules' ``AircraftProfile`` and a ``FlightStatus`` (hull hits and damage by
location, fuel and ammo left, overheat, pilot and crew as ``Airman`` with
wounds and consciousness)::

    card = load_aircraft_view(db, aircraft_id)   # NotFound when it is gone
    ids = aircraft_ids(db)                       # (id, name) by name, to step between cards
"""

from __future__ import annotations

from dataclasses import dataclass

from ka_tui.rules.air.aircraft import AircraftProfile
from ka_tui.rules.air.flight_status import FlightStatus
from ka_tui.store.rows_to_rules import airman_of, damage_of, to_profile
from ka_tui.store.db import CampaignDB
from ka_tui.store.errors import NotFound
from ka_tui.store.roster_reads import dict_rows


@dataclass(frozen=True)
class AircraftView:
    id: int
    profile: AircraftProfile
    status: FlightStatus
    notes: str = ""
    pilot_id: int | None = None
    crew_ids: tuple[int, ...] = ()


def load_aircraft_view(db: CampaignDB, aircraft_id: int) -> AircraftView:
    """The card data of aircraft ``aircraft_id``; ``NotFound`` if it is gone.
    Plain ``sqlite3`` (no SQLModel: a player's pane 3 on his first read)."""
    with db.plain_read() as con:
        found = dict_rows(con, "aircraft", "SELECT * FROM aircraft WHERE id = ?", aircraft_id)
        if not found:
            raise NotFound(f"no aircraft with id {aircraft_id} in this campaign")
        row = found[0]
        pilots = dict_rows(con, "character", "SELECT * FROM character WHERE id = ?",
                           row["pilot_id"]) if row["pilot_id"] is not None else []
        crew = dict_rows(con, "character",
                         "SELECT c.* FROM character c JOIN aircraft_crew x "
                         "ON x.character_id = c.id WHERE x.aircraft_id = ? "
                         "ORDER BY lower(c.name)", aircraft_id)
    status = FlightStatus(
        damage=damage_of(row), fuel_left=row["fuel_left"], ammo_left=row["ammo_left"],
        overheat=row["overheat"], pilot=airman_of(pilots[0]) if pilots else None,
        crew=tuple(airman_of(c) for c in crew))
    return AircraftView(id=aircraft_id, profile=to_profile(row), status=status,
                        notes=row["notes"], pilot_id=row["pilot_id"],
                        crew_ids=tuple(int(c["id"]) for c in crew))


def aircraft_ids(db: CampaignDB) -> list[tuple[int, str]]:
    """(id, name) of every aircraft, by name — for stepping between cards."""
    from sqlalchemy import func
    from sqlmodel import select
    from ka_tui.store.models import AircraftRow

    with db.read() as s:
        rows = s.exec(select(AircraftRow.id, AircraftRow.name)
                      .order_by(func.lower(AircraftRow.name))).all()
    return [(i, n) for i, n in rows if i is not None]
