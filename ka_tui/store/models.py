"""SQLModel tables mirroring ``migrations.py`` (the SQL there is the truth).

One ``…Row`` class per table, each naming its SQL table (``__tablename__``),
so a class may be renamed without touching the file format::

    with db.transaction() as s:
        s.add(CharacterRow(name="Ann", role="pilot"))
    with db.read() as s:
        ann = s.get(CharacterRow, 1)

The roster service (``roster.py``), the roller's and the fights' reads, the
roll log and the export use them; the plain reads (``plain_read.py``) and the
event log need none. Lists and tables inside a row (manoeuvres, traits, turn
mode, damage, event payloads) are JSON text; ``rows_to_rules.py`` turns rows
into the rules' values and back. Booleans are 0/1 in SQLite. Every table is
listed once in ``tables.py``; ``tests/store/test_schema.py`` checks these
classes against the migrated schema.
"""

from __future__ import annotations

from typing import Any, Optional

from sqlalchemy import text
from sqlmodel import Field, SQLModel

# Filled by the DB on insert (migrations.py); Python leaves it unset.
_NOW = text("(strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))")


def _created_at() -> Any:
    return Field(default=None, sa_column_kwargs={"server_default": _NOW, "nullable": False})


class MetaRow(SQLModel, table=True):
    __tablename__ = "ka_meta"
    key: str = Field(primary_key=True)
    value: str


class CampaignRow(SQLModel, table=True):
    __tablename__ = "campaign"
    id: Optional[int] = Field(default=1, primary_key=True)
    name: str
    house_rules: str = "{}"  # JSON of HouseRules.to_dict(); see campaign.house_rules()
    notes: str = ""


class CharacterRow(SQLModel, table=True):
    __tablename__ = "character"
    id: Optional[int] = Field(default=None, primary_key=True)
    name: str
    role: str = "ground"  # pilot | crew | ground
    strength: int = 3
    agility: int = 3
    endurance: int = 3
    resistance: int = 3
    armour: int = 0
    ap: int = 6
    k_points: int = 10
    k_points_max: int = 10
    wounds: int = 0
    conscious: bool = True
    piloting: int = 6  # R-2 2d6 target ratings, lower is better
    gunnery: int = 6
    base_weapons: int = 3  # S0 §Skills: the five Base skills' numbers
    base_tech: int = 3
    base_survival: int = 3
    base_communication: int = 3
    base_psy: int = 3
    notes: str = ""


class SkillRow(SQLModel, table=True):
    __tablename__ = "skill"
    id: Optional[int] = Field(default=None, primary_key=True)
    character_id: int = Field(foreign_key="character.id", ondelete="CASCADE")
    name: str
    kind: str = "active"  # active | passive | lore
    number: int = 0
    level: str = "B"      # B | T | E | M | L
    upgrades: int = 0
    legendary: bool = False


class WeaponRow(SQLModel, table=True):
    __tablename__ = "weapon"
    id: Optional[int] = Field(default=None, primary_key=True)
    character_id: int = Field(foreign_key="character.id", ondelete="CASCADE")
    name: str
    damage: int = 1
    is_firearm: bool = False
    quick_slot: Optional[int] = None
    notes: str = ""


class AircraftRow(SQLModel, table=True):
    __tablename__ = "aircraft"
    id: Optional[int] = Field(default=None, primary_key=True)
    name: str
    aircraft_class: str = "fighter"
    engines: int = 1
    engine_kind: str = "piston"
    move: int = 8
    roll: bool = True
    manoeuvres: str = "[]"     # JSON [[kind, speed, stressful], …]
    dive_max: int = 10
    loop: bool = True
    immelmann: bool = True
    ceiling: int = 3
    test_echelons: str = "[]"  # JSON [echelon, …]
    firepower: int = 3
    hull: int = 4
    evasion: int = 2
    traits: str = "[]"         # JSON [[trait, dice or null], …]
    thrust: int = 4
    afterburner_thrust: Optional[int] = None
    wm_thrust: Optional[int] = None
    wm_uses: int = 0
    wm_altitude_limit: Optional[int] = None
    g_rating: int = 3
    # JSON [[min_speed, hexes], …]; fits the default move 8 (R-3.4 bands may not start
    # above move), unlike the SQL default, which only raw inserts see.
    turn_mode: str = "[[1,1],[4,2],[7,3]]"
    landing_speed: int = 3
    takeoff_run: int = 4
    fuel: int = 20
    ammo: int = 10
    control_surfaces: int = 2
    gear_legs: int = 3
    # live status
    hull_hits: int = 0
    damage: str = "{}"  # JSON {"effects": {loc: n}, "hits": {loc: n}} (aircraft_map)
    fuel_left: int = 20
    ammo_left: int = 10
    overheat: int = 0
    pilot_id: Optional[int] = Field(default=None, foreign_key="character.id",
                                    ondelete="SET NULL")
    notes: str = ""


class AircraftCrewRow(SQLModel, table=True):
    __tablename__ = "aircraft_crew"
    aircraft_id: int = Field(foreign_key="aircraft.id", primary_key=True, ondelete="CASCADE")
    character_id: int = Field(foreign_key="character.id", primary_key=True, ondelete="CASCADE")


class RollLogRow(SQLModel, table=True):
    __tablename__ = "roll_log"
    id: Optional[int] = Field(default=None, primary_key=True)
    who: str = ""
    what: str = ""
    pool: str = ""
    faces: str = "[]"        # JSON list of faces (or [sides, face] pairs)
    result: str = ""
    explanation: str = "[]"  # JSON list of lines
    created_at: Optional[str] = _created_at()
    struck_at: Optional[str] = None  # a struck roll stays in the log: when, UTC
    struck_by: str = ""


class _LogHeadRow(SQLModel):
    """A log's head row (``store/events.py``): fights and battles alike."""

    id: Optional[int] = Field(default=None, primary_key=True)
    name: str
    status: str = "open"
    created_at: Optional[str] = _created_at()


class _LogEventRow(SQLModel):
    """One event of a log; each kind adds its link column to the head."""

    id: Optional[int] = Field(default=None, primary_key=True)
    seq: int
    kind: str
    payload: str = "{}"
    created_at: Optional[str] = _created_at()


class FightRow(_LogHeadRow, table=True):
    __tablename__ = "fight"


class FightEventRow(_LogEventRow, table=True):
    __tablename__ = "fight_event"
    fight_id: int = Field(foreign_key="fight.id", ondelete="CASCADE")


class BattleRow(_LogHeadRow, table=True):
    __tablename__ = "battle"


class BattleEventRow(_LogEventRow, table=True):
    __tablename__ = "battle_event"
    battle_id: int = Field(foreign_key="battle.id", ondelete="CASCADE")


# ------------------------------------------------- the campaign between battles

class CampaignDayRow(SQLModel, table=True):
    __tablename__ = "campaign_day"
    id: Optional[int] = Field(default=1, primary_key=True)
    day: str = "1944-06-01"   # the campaign's date, YYYY-MM-DD


class MissionRow(SQLModel, table=True):
    __tablename__ = "mission"
    id: Optional[int] = Field(default=None, primary_key=True)
    name: str
    day: str
    kind: str = "patrol"      # rules/campaign/missions.py MissionKind
    briefing: str = ""
    status: str = "planned"   # planned | flown | aborted
    debrief: str = "{}"       # JSON: the confirmed debrief summary
    debrief_notes: str = ""


class MissionMemberRow(SQLModel, table=True):
    __tablename__ = "mission_member"
    mission_id: int = Field(foreign_key="mission.id", primary_key=True, ondelete="CASCADE")
    character_id: int = Field(foreign_key="character.id", primary_key=True, ondelete="CASCADE")
    aircraft_id: Optional[int] = Field(default=None, foreign_key="aircraft.id",
                                       ondelete="SET NULL")


class MissionLinkRow(SQLModel, table=True):
    __tablename__ = "mission_link"
    id: Optional[int] = Field(default=None, primary_key=True)
    mission_id: int = Field(foreign_key="mission.id", ondelete="CASCADE")
    battle_id: Optional[int] = Field(default=None, foreign_key="battle.id", ondelete="CASCADE")
    fight_id: Optional[int] = Field(default=None, foreign_key="fight.id", ondelete="CASCADE")


class PersonStateRow(SQLModel, table=True):
    __tablename__ = "person_state"
    character_id: int = Field(foreign_key="character.id", primary_key=True, ondelete="CASCADE")
    rest_days: int = 0
    missing: bool = False
    days_out: int = 0


class RepairRow(SQLModel, table=True):
    __tablename__ = "repair"
    id: Optional[int] = Field(default=None, primary_key=True)
    aircraft_id: int = Field(foreign_key="aircraft.id", ondelete="CASCADE")
    queued_on: str
    days_total: int
    days_done: int = 0
    cost: int = 0
    status: str = "queued"    # queued | done | written off


class JournalRow(_LogHeadRow, table=True):
    __tablename__ = "journal"


class JournalEventRow(_LogEventRow, table=True):
    __tablename__ = "journal_event"
    journal_id: int = Field(foreign_key="journal.id", ondelete="CASCADE")


# ---------------------------------------------------------------- the table server

class PlayerKeyRow(SQLModel, table=True):
    """An SSH public key bound to one character (store/table_seats.py)."""
    __tablename__ = "player_key"
    id: Optional[int] = Field(default=None, primary_key=True)
    character_id: int = Field(foreign_key="character.id", ondelete="CASCADE")
    key: str                  # "ALGORITHM BASE64"
    comment: str = ""
    added_at: str
    added_by: str             # gm | join code
    revoked_at: Optional[str] = None


class PlayerPassRow(SQLModel, table=True):
    """A join code or a browser link's token, as the SHA-256 of the secret."""
    __tablename__ = "player_pass"
    id: Optional[int] = Field(default=None, primary_key=True)
    character_id: int = Field(foreign_key="character.id", ondelete="CASCADE")
    kind: str                 # join | web
    digest: str
    made_at: str
    expires_at: Optional[str] = None
    used_at: Optional[str] = None
    revoked_at: Optional[str] = None


class TableConnectionRow(SQLModel, table=True):
    """A player connected to the table server (or who was)."""
    __tablename__ = "table_connection"
    id: Optional[int] = Field(default=None, primary_key=True)
    character_id: int = Field(foreign_key="character.id", ondelete="CASCADE")
    way: str                  # ssh | web
    peer: str = ""
    key_id: Optional[int] = Field(default=None, foreign_key="player_key.id",
                                  ondelete="SET NULL")
    pass_id: Optional[int] = Field(default=None, foreign_key="player_pass.id",
                                   ondelete="SET NULL")
    server_pid: int
    started_at: str
    ended_at: Optional[str] = None
    ended_why: str = ""
    drop_asked: bool = False


class TableServerRow(SQLModel, table=True):
    """The table server running for this campaign (one row)."""
    __tablename__ = "table_server"
    id: Optional[int] = Field(default=1, primary_key=True)
    pid: int
    host: str = ""
    ssh_port: Optional[int] = None
    web_url: Optional[str] = None
    started_at: str
    stopped_at: Optional[str] = None


class BattleDraftRow(SQLModel, table=True):
    """The GM's plan for an aircraft not yet flown (store/battles.py drafts)."""
    __tablename__ = "battle_draft"
    battle_id: int = Field(foreign_key="battle.id", primary_key=True)
    unit: str = Field(primary_key=True)
    plan: str
    evasive: bool = False
    turn: int
    based_on: int = 0
