"""Air battles in the campaign: the service the air-battle screen calls.

A battle is its event log (DESIGN.md "Fights and battles as a log of events"):
the events of ``rules/air/battle.py`` (``battle_started``, ``turn_started``,
``move_committed``, ``shot_resolved``, ``ram_resolved``, ``phase_ended``), each
written in its own transaction with the dice it used, and replayed through the
rules to rebuild the state. This module writes the first and the last:
``battle_started`` (from the roster) and ``battle_ended`` (the outcome written
back to the campaign; the replay passes over it and nothing follows it).
Each call is one transaction; plain values in and out; no Textual.

Setting up, then the screen's loop::

    found = candidates(db)                       # roster aircraft, each with why it can't fly
    battle_id = start_battle(db, [StartPosition(aircraft_id, "Blue", hex, facing, level,
                                                speed), …], map_id=saved.id)
    loaded = load_battle(db, battle_id)          # rules Battle, replayed (rows_to_rules)
    result = loaded.battle.move(uid, plan, dice) # the rules roll and log one event
    commit(db, battle_id, loaded.battle.events[-1])   # refused if the log moved
    undo_last(db, battle_id, len(loaded.battle.events)); loaded.battle.undo()
    end_battle(db, battle_id)                    # the outcome, in ONE transaction

``commit`` refuses (``events.StaleLog``) an event whose
position (its ``seq``: the number of events before it) is no longer the end of
the stored log: two windows can no longer both write after the same state; the
stale one reloads.

Who shot down whom is recorded in the ``battle_ended`` event of the battle's
own log (``air_victories`` reads it back for the campaign's pilot records);
an aircraft destroyed or crashed is marked in its ``damage`` column
(``{"lost": "destroyed"|"crashed", "lost_in": battle id}``, read by ``lost_of``).

The log is ``store/events.py``'s (the one event log), reached through the
``_log_*`` functions below only; every append is checked by the rules'
``accept_kind`` inside the write transaction.

The GM's plans being built and not yet flown are drafts (``battle_draft``
rows, not events: work in progress, replaced on every change):
``save_drafts`` writes them, ``load_battle`` reads the ones still open (the
aircraft has not moved this turn), ``commit`` drops the draft of an aircraft
that moves and ``end_battle`` every draft, each in its own transaction.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ka_tui.rules.air import turn as t
from ka_tui.rules.air.altitude import ceiling_level
from ka_tui.rules.air.battle import (
    Battle, BattleEventKind, Event, ReplayError, replay_from, undone_at,
)
from ka_tui.rules.air.battle_map import BattleMap
from ka_tui.rules.air.damage import out_of_battle
from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.air.units import MAX_WOUNDS, AirUnit
from ka_tui.rules.campaign.crash import CrashFate, after_crash
from ka_tui.rules.core.options import AirOptions, CrashCrew
from ka_tui.store.rows_to_rules import (
    air_unit_of, battle_event, battle_events, damage_columns, replay_battle, stored_payload,
    to_profile,
)
from ka_tui.store import events as ev
from ka_tui.store.errors import NotFound, StoreError, ValidationError
from ka_tui.store.events import LogEvent, LogHead, LogKind, LogRef, StaleLog

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

STARTED = BattleEventKind.STARTED.value
ENDED = BattleEventKind.ENDED.value
PLAN = BattleEventKind.PLAN.value   # a player's plan: store/players.py writes it
# the play steps a screen commits (the start and the end are this module's)
RULE_KINDS = frozenset(k.value for k in BattleEventKind) - {STARTED, ENDED, PLAN}
SIDE_MAX = 30


class BattleEnded(StoreError):
    """The battle has ended: no step can be written or undone any more."""


class BattleLogError(StoreError):
    """A stored battle log that does not replay (names the event)."""


# ============================================================ the log
# Every read and write of the battle's events goes through store/events.py (the
# one event log: ``append`` with the expected position, refused inside the
# write transaction when the log moved). Only these functions call it.

def _models() -> Any:
    from ka_tui.store import models

    return models


def _ref(battle_id: int) -> LogRef:
    return LogRef.battle(battle_id)


def _head(db: CampaignDB, battle_id: int) -> LogHead:
    head = next((h for h in ev.heads(db, LogKind.BATTLE) if h.id == battle_id), None)
    if head is None:
        raise NotFound(f"no battle with id {battle_id} in this campaign")
    return head


def _log_new(db: CampaignDB, name: str, *, at: str | None = None) -> int:
    return ev.new_log(db, LogKind.BATTLE, name, at=at).id


def _log_append(db: CampaignDB, battle_id: int, kind: str, payload: Mapping[str, Any], *,
                expect: int, at: str | None = None) -> int:
    """Append one event at position ``expect`` (the number of events before it)
    in one write transaction: refused when the battle has ended or the log holds
    another number of events (``StaleLog``). Returns the new count."""
    with db.batch():  # the status read and the append: one BEGIN IMMEDIATE
        head = _head(db, battle_id)
        if head.status != "open":
            raise BattleEnded(f"the battle “{head.name}” has ended; nothing was written")
        stored = ev.append(db, _ref(battle_id), LogEvent(kind, dict(payload)), expect, at=at)
    return stored.seq


def _log_rows(db: CampaignDB, battle_id: int) -> tuple[LogHead, list[LogEvent]]:
    return _head(db, battle_id), ev.events(db, _ref(battle_id))


def _log_drop_last(db: CampaignDB, battle_id: int, *, expect: int | None) -> LogEvent:
    with db.batch():
        head = _head(db, battle_id)
        if head.status != "open":
            raise BattleEnded(f"the battle “{head.name}” has ended: nothing to undo")
        gone = ev.drop_where(db, _ref(battle_id), expect, _undone_seq)
        if not gone:
            raise StoreError("nothing to undo: the battle has only just started")
        # the plans players sent after the step stay: written again
        # one place up, as ``Battle.undo`` keeps them
        for later in gone[1:]:
            ev.append(db, _ref(battle_id), LogEvent(later.kind, later.payload), None,
                      checked=False, at=later.created_at)
    return gone[0]


def _undone_seq(done: Sequence[LogEvent]) -> int | None:
    """The step an undo drops: the newest event that is not a sent plan nor
    the start (``rules/air/battle.undone_at``)."""
    at = undone_at([e.kind for e in done])
    return None if at is None else done[at].seq


def _log_set_status(db: CampaignDB, battle_id: int, status: str) -> None:
    ev.set_status(db, _ref(battle_id), status)


def _log_heads(db: CampaignDB) -> list[tuple[LogHead, list[str], dict[str, Any] | None]]:
    """Every battle: its head, its event kinds in order, its start payload."""
    out: list[tuple[LogHead, list[str], dict[str, Any] | None]] = []
    for head in ev.heads(db, LogKind.BATTLE):
        events = ev.events(db, _ref(head.id))
        start = next((dict(e.payload or {}) for e in events if e.kind == STARTED), None)
        out.append((head, [e.kind for e in events], start))
    return out


def _ended_payloads(db: CampaignDB) -> list[tuple[int, str, dict[str, Any]]]:
    out: list[tuple[int, str, dict[str, Any]]] = []
    for head in ev.heads(db, LogKind.BATTLE):
        if head.status != "ended":
            continue
        out.extend((head.id, head.name, dict(e.payload or {}))
                   for e in ev.events(db, _ref(head.id)) if e.kind == ENDED)
    return out


# ============================================================ drafts

@dataclass(frozen=True)
class Draft:
    """The GM's plan for one aircraft, not yet flown: its steps as the codec's
    JSON (``rules/air/codec.plan_to_json``), evasive (R-8), the battle's turn
    it was built in and the seq of the player's sent plan it was built over
    (0: none)."""

    unit: str
    plan: tuple[dict[str, Any], ...]
    evasive: bool = False
    turn: int = 0
    based_on: int = 0


def _sql(s: Any, sql: str, params: tuple[Any, ...] = ()) -> Any:
    return s.connection().exec_driver_sql(sql, params)


def _read_drafts(db: CampaignDB, battle_id: int) -> list[Draft]:
    with db.plain_read() as con:
        rows = con.execute("SELECT unit, plan, evasive, turn, based_on FROM battle_draft "
                           "WHERE battle_id = ? ORDER BY unit", (battle_id,)).fetchall()
    out: list[Draft] = []
    for unit, plan, evasive, turn, based_on in rows:
        try:
            steps = json.loads(plan)
        except ValueError:
            continue   # the file's CHECK keeps JSON; a row it cannot read is no draft
        if isinstance(steps, list) and all(isinstance(x, dict) for x in steps):
            out.append(Draft(str(unit), tuple(steps), bool(evasive), int(turn), int(based_on)))
    return out


def open_drafts(state: t.BattleState, drafts: Sequence[Draft]) -> dict[str, Draft]:
    """The drafts still to be taken up: built in this turn, for an aircraft in
    the battle that has not moved yet (R-1.2), while moves are planned."""
    if state.phase not in (t.Phase.MOVEMENT, t.Phase.SHOOTING):
        return {}
    units = {u.id: u for u in state.units}
    return {d.unit: d for d in drafts
            if d.turn == state.turn and d.unit in units and not units[d.unit].moved
            and not out_of_battle(units[d.unit])}


def save_drafts(db: CampaignDB, battle_id: int, drafts: Mapping[str, Draft | None]) -> None:
    """Write the GM's drafts of one battle in one transaction: each unit's
    draft replaced, or dropped (None). Refused (``BattleEnded``) once the
    battle has ended."""
    with db.batch() as s:
        head = _head(db, battle_id)
        if head.status != "open":
            raise BattleEnded(f"the battle “{head.name}” has ended; no plan is kept")
        for unit, d in drafts.items():
            if d is None:
                _sql(s, "DELETE FROM battle_draft WHERE battle_id = ? AND unit = ?",
                     (battle_id, unit))
                continue
            _sql(s, "INSERT INTO battle_draft (battle_id, unit, plan, evasive, turn, based_on) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (battle_id, unit) DO UPDATE SET "
                    "plan = excluded.plan, evasive = excluded.evasive, turn = excluded.turn, "
                    "based_on = excluded.based_on",
                 (battle_id, unit, json.dumps(list(d.plan), sort_keys=True), int(d.evasive),
                  d.turn, d.based_on))


# ============================================================ the roster side

@dataclass(frozen=True)
class AircraftCandidate:
    """A roster aircraft as a possible combatant, with why it cannot fly."""

    aircraft_id: int
    name: str
    pilot_id: int | None
    pilot: str
    crew_ids: tuple[int, ...]
    crew: tuple[str, ...]
    class_label: str
    unable: str = ""          # the reason it is refused ("" = it may fly)
    busy: str = ""            # the open battle it already flies in, if any
    # the aircraft as a unit, for placing it on the map (side "", hex 0,0,
    # speed its Move, level 3 or its ceiling); None when it cannot fly
    unit: AirUnit | None = None

    @property
    def ready(self) -> bool:
        return not self.unable

    @property
    def refusal(self) -> str:
        return self.unable


@dataclass(frozen=True)
class StartPosition:
    """Where an aircraft starts: its side, hex (flat-top axial, hexgrid), facing
    0..5 (N NE SE S SW NW), altitude level (0 = ground, RULES-NOTES D) and
    speed. ``landed``: standing on the ground at the terrain's height (R-10)."""

    aircraft_id: int
    side: str
    hex: Hex
    facing: int = 0
    altitude: int = 1
    speed: int = 4
    landed: bool = False


def lost_of(row: Any) -> str:
    """'destroyed' or 'crashed' when a battle marked the aircraft lost, else ''."""
    raw = row["damage"] if isinstance(row, Mapping) else row.damage
    try:
        stored = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        return ""
    return str(stored.get("lost", "")) if isinstance(stored, dict) else ""


def _roster(db: CampaignDB) -> tuple[list[Any], dict[int, Any], dict[int, list[Any]]]:
    from sqlmodel import select

    m = _models()
    with db.read() as s:
        planes = list(s.exec(select(m.AircraftRow).order_by(m.AircraftRow.name)).all())
        people = {int(c.id): c for c in s.exec(select(m.CharacterRow)).all()}
        crews: dict[int, list[Any]] = {}
        for link in s.exec(select(m.AircraftCrewRow)).all():
            crews.setdefault(int(link.aircraft_id), []).append(people[int(link.character_id)])
    for members in crews.values():
        members.sort(key=lambda c: str(c.name).casefold())
    return planes, people, crews


def _unable(row: Any, pilot: Any | None) -> str:
    name = str(row.name)
    lost = lost_of(row)
    if lost:
        return f"{name} was {lost} in battle"
    try:
        profile = to_profile(row)
    except ValidationError as e:
        return f"{name}'s flight card cannot be read ({e})"
    if int(row.hull_hits) >= profile.hull:
        return f"{name} has no hull left ({row.hull_hits} hits on Hull {profile.hull})"
    if pilot is None:
        return f"{name} has no pilot seated"
    if int(pilot.wounds) >= MAX_WOUNDS:
        return f"{name}'s pilot {pilot.name} is dead (6 wounds, R-5)"
    if not pilot.conscious:
        return f"{name}'s pilot {pilot.name} is unconscious (R-5)"
    return ""


def aboard(db: CampaignDB, aircraft: Sequence[int] | None = None) -> dict[int, list[int]]:
    """The people seated in each of ``aircraft`` (None: every one), pilot
    first, then the crew."""
    planes, _people, crews = _roster(db)
    wanted = None if aircraft is None else set(aircraft)
    return {int(r.id): ([int(r.pilot_id)] if r.pilot_id is not None else [])
            + [int(c.id) for c in crews.get(int(r.id), [])]
            for r in planes if wanted is None or int(r.id) in wanted}


def candidates(db: CampaignDB, refused: Mapping[int, str] | None = None
               ) -> list[AircraftCandidate]:
    """Every roster aircraft, by name, with its pilot and crew and, when it
    cannot be put in a battle, the reason; ``refused``: aircraft id -> a
    further reason (a mission's ready-check, ``missions.battle_candidates``)."""
    from ka_tui.store.campaign import house_rules

    opts = house_rules(db).air
    planes, people, crews = _roster(db)
    busy = _busy_aircraft(db)
    refused = refused or {}
    out: list[AircraftCandidate] = []
    for row in planes:
        pilot = people.get(int(row.pilot_id)) if row.pilot_id is not None else None
        crew = crews.get(int(row.id), [])
        unable = _unable(row, pilot) or refused.get(int(row.id), "")
        unit = None
        if not unable and pilot is not None:
            profile = to_profile(row)
            unit = _unit(row, pilot, crew, StartPosition(
                int(row.id), "", Hex(0, 0), 0, min(3, ceiling_level(profile, opts)),
                profile.move), BattleMap())
        out.append(AircraftCandidate(
            int(row.id), str(row.name), None if pilot is None else int(pilot.id),
            "" if pilot is None else str(pilot.name), tuple(int(c.id) for c in crew),
            tuple(str(c.name) for c in crew), str(row.aircraft_class).replace("_", " "),
            unable, busy.get(int(row.id), ""), unit))
    return out


def _busy_aircraft(db: CampaignDB) -> dict[int, str]:
    out: dict[int, str] = {}
    for head, _kinds, start in _log_heads(db):
        if head.status == "open" and start is not None:
            for aid in start.get("data", {}).get("aircraft", {}).values():
                out.setdefault(int(aid), str(head.name))
    return out


def _check_placement(p: StartPosition, profile: Any, battle_map: BattleMap, opts: AirOptions,
                     name: str) -> None:
    if not battle_map.in_bounds(p.hex):
        col, row = p.hex.to_offset()
        raise ValidationError("hex", f"{name}: {col},{row} is off the map "
                                     f"({battle_map.cols}×{battle_map.rows})")
    if not 0 <= p.facing <= 5:
        raise ValidationError("facing", f"{name}: facing must be 0–5 (N NE SE S SW NW)")
    ground = battle_map.height(p.hex)
    top = ceiling_level(profile, opts)
    if p.landed:
        if p.speed != 0:
            raise ValidationError("speed", f"{name}: an aircraft on the ground starts at "
                                           "speed 0 (R-10)")
        return
    if not ground < p.altitude <= top:
        raise ValidationError("altitude", f"{name}: altitude must be above the terrain "
                                          f"(height {ground}, R-6.1) and at most its ceiling "
                                          f"level {top} (S0 §Altitude)")
    if not 0 <= p.speed <= profile.move:
        raise ValidationError("speed", f"{name}: speed must be 0–{profile.move} (its Move, "
                                       "R-3.1)")


def _unit(row: Any, pilot: Any, crew: Sequence[Any], p: StartPosition,
          battle_map: BattleMap) -> AirUnit:
    altitude = battle_map.height(p.hex) if p.landed else p.altitude
    return air_unit_of(row, pilot, crew, side=p.side, at=p.hex, facing=p.facing,
                       altitude=altitude, speed=p.speed, landed=p.landed)


def battle_title(sides: Sequence[str]) -> str:
    title = " vs ".join(sides)
    return title if len(title) <= 60 else title[:57] + "…"


def start_battle(db: CampaignDB, placements: Sequence[StartPosition], *, map_id: int | None = None,
                 map_text: str | None = None, map_name: str = "", name: str | None = None,
                 at: str | None = None) -> int:
    """A new battle from the roster: each placed aircraft with its side (two or
    more sides), its seated pilot and crew (their 2d6 ratings, wounds) and its
    live status (damage, fuel, ammunition, overheat); on a saved map
    (``map_id``) or a map text. An aircraft that cannot fly is refused with the
    reason (``ValidationError``). The battle row and its ``battle_started``
    event (with the map text, the campaign's air house rules and the aircraft and
    character ids) are one transaction. Returns the battle id."""
    from ka_tui.store.campaign import house_rules
    from ka_tui.store.maps import check_map_text, get_map

    if map_id is not None:
        saved = get_map(db, map_id)
        text, battle_map, map_name = saved.text, saved.battle_map, map_name or saved.name
    elif map_text is not None:
        text, battle_map = map_text, check_map_text(map_text)
    else:
        raise ValidationError("map", "choose a map for the battle")
    if not placements:
        raise ValidationError("aircraft", "choose the aircraft and their sides")
    rules = house_rules(db)
    planes, people, crews = _roster(db)
    by_id = {int(r.id): r for r in planes}
    units: list[AirUnit] = []
    aircraft: dict[str, int] = {}
    airmen: dict[str, list[int]] = {}
    for p in placements:
        row = by_id.get(p.aircraft_id)
        if row is None:
            raise ValidationError("aircraft", f"no aircraft with id {p.aircraft_id}")
        if p.aircraft_id in aircraft.values():
            raise ValidationError("aircraft", f"{row.name} is placed twice")
        side = p.side.strip()
        if not side:
            raise ValidationError("side", f"{row.name}: give it a side")
        if len(side) > SIDE_MAX:
            raise ValidationError("side", f"a side's name is at most {SIDE_MAX} characters")
        pilot = people.get(int(row.pilot_id)) if row.pilot_id is not None else None
        reason = _unable(row, pilot)
        if reason or pilot is None:
            raise ValidationError("aircraft", reason or f"{row.name} has no pilot seated")
        profile = to_profile(row)
        _check_placement(p, profile, battle_map, rules.air, str(row.name))
        crew = crews.get(int(row.id), [])
        unit = _unit(row, pilot, crew, p, battle_map)
        units.append(unit)
        aircraft[unit.id] = int(row.id)
        airmen[unit.id] = [int(pilot.id), *(int(c.id) for c in crew)]
    sides = list(dict.fromkeys(u.side for u in units))
    if len(sides) < 2:
        raise ValidationError("side", "a battle needs two or more sides")
    battle = Battle.start(units, battle_map, rules.air, text)
    event = battle.events[0]
    event["data"].update({"map_name": map_name, "aircraft": aircraft, "airmen": airmen})
    title = (name or battle_title(sides)).strip()
    if not title or len(title) > 60:
        raise ValidationError("name", "a battle's name is 1–60 characters")
    with db.batch():
        battle_id = _log_new(db, title, at=at)
        _log_append(db, battle_id, STARTED, stored_payload(event), expect=0, at=at)
    return battle_id


# ============================================================ reading battles

@dataclass(frozen=True)
class BattleSummary:
    """One battle in the list (no replay needed)."""

    id: int
    name: str
    status: str               # open | ended
    created_at: str
    sides: tuple[str, ...]
    aircraft: int
    map_name: str
    turn: int                 # turns begun
    events: int

    @property
    def open(self) -> bool:
        return self.status == "open"


def list_battles(db: CampaignDB) -> list[BattleSummary]:
    """Every battle: the open ones newest first, then the ended ones newest first."""
    out: list[BattleSummary] = []
    for head, kinds, start in _log_heads(db):
        data = (start or {}).get("data", {})
        units = data.get("units", [])
        sides = tuple(dict.fromkeys(str(u.get("side", "")) for u in units))
        out.append(BattleSummary(int(head.id), str(head.name), str(head.status),
                                 str(head.created_at or ""), sides, len(units),
                                 str(data.get("map_name", "")),
                                 kinds.count("turn_started"), len(kinds)))
    out.sort(key=lambda b: (not b.open, -b.id))
    return out


def newest_open(db: CampaignDB) -> int | None:
    """The battle the mode resumes by default: the newest open one."""
    return next((b.id for b in list_battles(db) if b.open), None)


@dataclass(frozen=True)
class CrashedAirman:
    character_id: int
    name: str
    aircraft: str        # the unit (the aircraft's name)


@dataclass
class LoadedBattle:
    """A battle read and replayed: the rules ``Battle`` (state, events, one
    method per step) and what ties its units to the campaign."""

    id: int
    name: str
    status: str
    battle: Battle
    map_text: str
    map_name: str
    aircraft: dict[str, int]              # unit id (the aircraft's name) -> aircraft id
    airmen: dict[str, tuple[int, ...]]    # unit id -> character ids, pilot first
    outcome: dict[str, Any] | None = None  # the battle_ended payload, once ended
    drafts: dict[str, Draft] = field(default_factory=dict)  # the GM's, still open
    crash_crew: CrashCrew = CrashCrew.GM_ASKS   # the campaign's house rule now

    @property
    def battle_id(self) -> int:
        return self.id

    @property
    def crews_to_ask(self) -> list[CrashedAirman]:
        """The people aboard each aircraft that crashed (R-6.1, R-10), whose
        fate the end of the battle asks the GM (``campaign.crash_crew``)."""
        if self.crash_crew is not CrashCrew.GM_ASKS or self.ended:
            return []
        return [CrashedAirman(cid, a.name, u.id)
                for u in self.state.units if u.crashed
                for cid, a in zip(self.airmen.get(u.id, ()), u.everyone)]

    @property
    def state(self) -> t.BattleState:
        return self.battle.state

    @property
    def battle_map(self) -> BattleMap:
        return self.battle.battle_map

    @property
    def options(self) -> AirOptions:
        return self.battle.options

    @property
    def position(self) -> int:
        """Events stored: the ``expect`` of the next write."""
        return len(self.battle.events)

    @property
    def ended(self) -> bool:
        return self.status == "ended"

    def next_step(self) -> t.NextStep:
        return t.what_next(self.battle.state)


def load_battle(db: CampaignDB, battle_id: int) -> LoadedBattle:
    """Read a battle's log (one read) and replay it through the rules
    (``rows_to_rules.replay_battle``: the logged faces are the only dice, the
    recorded house rules or else the campaign's). ``BattleLogError`` names an
    event that does not replay."""
    from ka_tui.store.campaign import house_rules

    head, stored = _log_rows(db, battle_id)
    if not stored or stored[0].kind != STARTED:
        raise BattleLogError(f"the battle “{head.name}” has no start event")
    outcome: dict[str, Any] | None = None
    for e in stored:
        if e.kind == ENDED:
            payload = e.payload if isinstance(e.payload, dict) else {}
            outcome = payload.get("data", payload)
    data = battle_event(stored[0])["data"]
    text = str(data.get("map") or "")
    campaign_rules = house_rules(db)
    try:
        battle = replay_battle(stored, campaign_rules)
    except (ReplayError, ValueError) as e:
        raise BattleLogError(f"the battle “{head.name}” cannot be replayed: {e}") from None
    drafts = {} if head.status != "open" else open_drafts(battle.state,
                                                          _read_drafts(db, battle_id))
    return LoadedBattle(
        int(head.id), str(head.name), str(head.status), battle, text,
        str(data.get("map_name", "")),
        {str(k): int(v) for k, v in data.get("aircraft", {}).items()},
        {str(k): tuple(int(i) for i in v) for k, v in data.get("airmen", {}).items()},
        outcome, drafts, campaign_rules.campaign.crash_crew)


# ============================================================ writing steps

def commit(db: CampaignDB, battle_id: int, event: Mapping[str, Any], *,
           at: str | None = None) -> int:
    """Store one committed action (the rules ``Battle``'s newest event) in its
    own transaction. Its ``seq`` is its expected position: refused with
    ``StaleLog`` when the stored log no longer ends there. Returns the
    number of events now stored."""
    kind = str(event.get("kind", ""))
    if kind not in RULE_KINDS:
        raise ValidationError("event", f"{kind!r} is not a battle step")
    with db.batch() as s:
        count = _log_append(db, battle_id, kind, stored_payload(event),
                            expect=int(event["seq"]), at=at)
        if kind == BattleEventKind.MOVE.value:   # its plan is flown: no draft stays
            _sql(s, "DELETE FROM battle_draft WHERE battle_id = ? AND unit = ?",
                 (battle_id, str(event.get("data", {}).get("unit", ""))))
    return count


def undo_last(db: CampaignDB, battle_id: int, expect: int | None = None) -> Event:
    """Drop the last committed action (a whole move, a shot, a phase's end) in
    one transaction and return it (plans players sent after it stay);
    ``expect`` = the events the screen holds
    (``StaleLog`` if the log moved). The start cannot be undone, nor an
    ended battle. The screen then calls ``battle.undo()`` (or reloads)."""
    return battle_event(_log_drop_last(db, battle_id, expect=expect))


# ============================================================ the outcome

@dataclass(frozen=True)
class AircraftOutcome:
    aircraft_id: int
    name: str
    hull_hits: int
    damage: dict[str, Any]     # the damage column's table (effects, hits, lost)
    fuel_left: int
    ammo_left: int
    overheat: int
    lost: str                  # "" | "destroyed" | "crashed"


@dataclass(frozen=True)
class AirmanOutcome:
    character_id: int
    name: str
    wounds: int
    conscious: bool
    crash_fate: str = ""       # the GM's answer after a crash (rules/campaign/crash.py)
    missing: bool = False


@dataclass(frozen=True)
class Victory:
    """An aircraft put out of the battle by another's shot or ram."""

    turn: int
    how: str                   # "shot" | "ram"
    aircraft_id: int           # the victor
    pilot_id: int
    victim_id: int             # the aircraft shot down
    victim_pilot_id: int
    victor: str                # unit names, for the log and the records
    victim: str


@dataclass(frozen=True)
class Loss:
    """An aircraft out of the battle, however it happened."""

    turn: int
    aircraft_id: int
    name: str
    state: str                 # destroyed | crashed
    cause: str                 # shot | ram | collision | crash | damage


@dataclass(frozen=True)
class BattleOutcome:
    aircraft: tuple[AircraftOutcome, ...]
    airmen: tuple[AirmanOutcome, ...]
    victories: tuple[Victory, ...]
    losses: tuple[Loss, ...]
    turns: int

    def to_dict(self) -> dict[str, Any]:
        from dataclasses import asdict

        return {"aircraft": [asdict(a) for a in self.aircraft],
                "airmen": [asdict(a) for a in self.airmen],
                "victories": [asdict(v) for v in self.victories],
                "losses": [asdict(x) for x in self.losses], "turns": self.turns}


_CAUSE = {"shot_resolved": "shot", "ram_resolved": "ram", "turn_started": "crash"}


def _fates(loaded: LoadedBattle) -> tuple[list[Victory], list[Loss]]:
    """Replay event by event to see who put whom out of the battle (R-1.3
    destruction at once; R-6 collisions, R-6.1 crashes, R-7 rams)."""
    events = loaded.battle.events
    state = loaded.battle.checkpoints[1]
    victories: list[Victory] = []
    losses: list[Loss] = []
    pilots = {uid: ids[0] for uid, ids in loaded.airmen.items()}
    for event in events[1:]:
        before = {u.id for u in state.units if out_of_battle(u)}
        state = replay_from(state, [event], loaded.battle_map, loaded.options)
        now = [u for u in state.units if out_of_battle(u) and u.id not in before]
        kind, data = event["kind"], event.get("data", {})
        actor = data.get("shooter") or data.get("attacker")
        for u in now:
            if kind in ("shot_resolved", "ram_resolved") and actor and u.id != actor:
                cause = _CAUSE[kind]
                victories.append(Victory(
                    state.turn, cause, loaded.aircraft[actor], pilots[actor],
                    loaded.aircraft[u.id], pilots[u.id], actor, u.id))
            elif kind == "ram_resolved":
                cause = "ram"
            elif u.crashed:
                cause = "crash"
            elif kind in ("move_committed", "phase_ended"):
                cause = "collision" if not u.crashed else "crash"
            else:
                cause = "damage"
            losses.append(Loss(state.turn, loaded.aircraft[u.id], u.id,
                               "crashed" if u.crashed else "destroyed", cause))
    return victories, losses


def outcome_of(loaded: LoadedBattle) -> BattleOutcome:
    """What the battle leaves on the campaign: each aircraft's damage (in effect
    and pending, R-1.3), hull, fuel, ammunition and overheat; each airman's
    wounds and consciousness (R-5); losses and victories."""
    victories, losses = _fates(loaded)
    planes: list[AircraftOutcome] = []
    people: list[AirmanOutcome] = []
    for u in loaded.state.units:
        total = u.total_damage
        hull_hits = min(total.hull_hits, u.profile.hull)
        cols = damage_columns(replace(total, hull_hits=hull_hits))
        table = json.loads(cols["damage"])
        lost = "destroyed" if u.destroyed else "crashed" if u.crashed else ""
        if lost:
            table.update({"lost": lost, "lost_in": loaded.id})
        planes.append(AircraftOutcome(
            loaded.aircraft[u.id], u.id, hull_hits, table, max(0, u.fuel), max(0, u.ammo),
            max(0, min(12, u.overheat)), lost))
        for cid, airman in zip(loaded.airmen.get(u.id, ()), u.everyone):
            wounds = max(0, min(MAX_WOUNDS, airman.wounds))
            people.append(AirmanOutcome(cid, airman.name, wounds,
                                        bool(airman.conscious) and wounds < MAX_WOUNDS))
    return BattleOutcome(tuple(planes), tuple(people), tuple(victories), tuple(losses),
                         loaded.state.turn)


def _with_fates(o: BattleOutcome, fates: Mapping[int, CrashFate]) -> BattleOutcome:
    """The outcome with the GM's answers for a crashed aircraft's crew."""
    people = []
    for p in o.airmen:
        fate = fates.get(p.character_id)
        if fate is None:
            people.append(p)
            continue
        after = after_crash(p.wounds, p.conscious, fate)
        people.append(replace(p, wounds=after.wounds, conscious=after.conscious,
                              crash_fate=fate.value, missing=after.missing))
    return replace(o, airmen=tuple(people))


def end_battle(db: CampaignDB, battle_id: int, expect: int | None = None, *,
               crew_fates: Mapping[int, CrashFate] | None = None) -> BattleOutcome:
    """End a battle and write its outcome back to the campaign in ONE
    transaction: the aircraft rows (hull hits, damage by location, fuel and
    ammunition left, overheat; lost ones marked), the characters (wounds,
    consciousness), the ``battle_ended`` event (the outcome, victories and
    losses), the journal's entries of every loss and the battle's status; the
    engine cools unless ``campaign.cool_between_battles`` is off. ``expect``:
    the events the screen holds
    (``StaleLog`` if the log moved). ``crew_fates``: character id -> what the
    crash did to him (``rules/campaign/crash.py``), one for each of
    ``crews_to_ask`` (refused without them)."""
    from ka_tui.store.campaign import house_rules

    m = _models()
    with db.batch() as s:
        loaded = load_battle(db, battle_id)
        if loaded.ended:
            raise BattleEnded(f"the battle “{loaded.name}” has already ended")
        if expect is not None and expect != loaded.position:
            raise StaleLog(_ref(battle_id), expect, loaded.position)
        fates = dict(crew_fates or {})
        unanswered = [c for c in loaded.crews_to_ask if c.character_id not in fates]
        if unanswered:
            raise ValidationError("crew", "say what the crash did to " + ", ".join(
                f"{c.name} ({c.aircraft})" for c in unanswered) + " (campaign.crash_crew)")
        outcome = _with_fates(outcome_of(loaded), fates)
        cools = house_rules(db).campaign.cool_between_battles
        for a in outcome.aircraft:
            row = s.get(m.AircraftRow, a.aircraft_id)
            if row is None:
                continue  # deleted from the roster meanwhile: nothing to write back
            row.hull_hits = min(a.hull_hits, int(row.hull))
            row.damage = json.dumps(a.damage, sort_keys=True)
            row.fuel_left = min(a.fuel_left, int(row.fuel))
            row.ammo_left = min(a.ammo_left, int(row.ammo))
            row.overheat = 0 if cools else a.overheat   # campaign.cool_between_battles
            s.add(row)
        killed: list[AirmanOutcome] = []
        for p in outcome.airmen:
            who = s.get(m.CharacterRow, p.character_id)
            if who is None:
                continue
            if p.wounds >= MAX_WOUNDS > int(who.wounds):
                killed.append(p)
            who.wounds, who.conscious = p.wounds, p.conscious
            s.add(who)
        s.flush()
        for p in outcome.airmen:
            if p.missing:
                _sql(s, "INSERT INTO person_state (character_id, missing) VALUES (?, 1) "
                        "ON CONFLICT (character_id) DO UPDATE SET missing = 1",
                     (p.character_id,))
        _journal_losses(db, loaded, outcome, killed)
        _log_append(db, battle_id, ENDED, {"data": outcome.to_dict(), "faces": [],
                                           "log": _outcome_lines(outcome)},
                    expect=loaded.position)
        _log_set_status(db, battle_id, "ended")
        _sql(s, "DELETE FROM battle_draft WHERE battle_id = ?", (battle_id,))
    return outcome


_CAUSE_WORDS = {"shot": "shot down, R-2", "ram": "rammed, R-7", "collision": "collision, R-6",
                "crash": "crash, R-6.1/R-10", "damage": "its damage, R-1.3"}


def _journal_losses(db: CampaignDB, loaded: LoadedBattle, outcome: BattleOutcome,
                    killed: Sequence[AirmanOutcome]) -> None:
    """Every loss in the journal, in the battle's end's transaction, in a
    mission or not: each aircraft lost, each airman killed (R-5: 6 wounds).
    In a mission's battle the entries of its own aircraft and people are the
    mission's (dated on its day); the other side's are the campaign's."""
    from ka_tui.store import journal

    with db.plain_read() as con:   # inside the end's transaction
        link = con.execute("SELECT m.id, m.day FROM mission_link l JOIN mission m ON "
                           "m.id = l.mission_id WHERE l.battle_id = ?",
                           (loaded.battle_id,)).fetchone()
        members = [] if link is None else con.execute(
            "SELECT character_id, aircraft_id FROM mission_member WHERE mission_id = ?",
            (link[0],)).fetchall()
    own_planes = {int(a) for _, a in members if a is not None}
    own_people = {int(c) for c, _ in members} | {
        c for uid, aid in loaded.aircraft.items() if aid in own_planes
        for c in loaded.airmen.get(uid, ())}
    day = None if link is None else str(link[1])

    def mission(ours: bool) -> int | None:
        return int(link[0]) if link is not None and ours else None

    for x in outcome.losses:
        crew = loaded.airmen.get(x.name, ())
        journal.add(db, "battle", f"{x.name} {x.state} in “{loaded.name}”, turn {x.turn} "
                                  f"({_CAUSE_WORDS.get(x.cause, x.cause)})", day=day,
                    characters=crew, aircraft=[x.aircraft_id],
                    mission=mission(x.aircraft_id in own_planes))
    for p in killed:
        journal.add(db, "death", f"{p.name} killed in “{loaded.name}” (R-5: 6 wounds)",
                    day=day, characters=[p.character_id],
                    mission=mission(p.character_id in own_people))
    for p in outcome.airmen:
        if p.missing:
            journal.add(db, "battle", f"{p.name} missing after a crash in “{loaded.name}” "
                                      "(the GM's answer, campaign.crash_crew)", day=day,
                        characters=[p.character_id],
                        mission=mission(p.character_id in own_people))


def _outcome_lines(o: BattleOutcome) -> list[str]:
    lines = [f"battle ended after {o.turns} turn(s)"]
    lines += [f"turn {v.turn}: {v.victor} {'shot down' if v.how == 'shot' else 'rammed'} "
              f"{v.victim}" for v in o.victories]
    lines += [f"turn {x.turn}: {x.name} {x.state} ({x.cause})" for x in o.losses]
    return lines


@dataclass(frozen=True)
class VictoryRecord:
    """A victory as the campaign's pilot records read it."""

    battle_id: int
    battle: str
    turn: int
    how: str
    pilot_id: int
    aircraft_id: int
    victor: str
    victim_id: int
    victim_pilot_id: int
    victim: str


def air_victories(db: CampaignDB, pilot_id: int | None = None) -> list[VictoryRecord]:
    """Every victory recorded by ended battles (their ``battle_ended`` events),
    oldest first; only one pilot's with ``pilot_id``."""
    out: list[VictoryRecord] = []
    for bid, name, payload in _ended_payloads(db):
        for v in payload.get("data", {}).get("victories", []):
            if pilot_id is not None and int(v["pilot_id"]) != pilot_id:
                continue
            out.append(VictoryRecord(bid, name, int(v["turn"]), str(v["how"]),
                                     int(v["pilot_id"]), int(v["aircraft_id"]),
                                     str(v["victor"]), int(v["victim_id"]),
                                     int(v["victim_pilot_id"]), str(v["victim"])))
    return out


def events_of(db: CampaignDB, battle_id: int) -> list[Event]:
    """The stored log as rules events (``battle_ended`` included, last)."""
    _head, stored = _log_rows(db, battle_id)
    return battle_events(stored)
