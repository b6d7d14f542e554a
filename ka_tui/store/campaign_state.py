"""The campaign between battles in the store: its date, people's recovery,
aircraft repairs, time passing, the overview and service records.

Reads are plain SQL (``db.plain_read()``; no SQLModel: the campaign mode's
first frame); each write is one transaction (``db.batch()``) that also writes
its journal entries (``store/journal.py``), its checks reading inside it
(``_in``). The rules are ``rules/campaign`` (people, repair, timeline,
missions); rows become their values in ``rows_to_rules.py`` (``person_of``,
``plane_of``); this module reads and writes the results back::

    view = overview(db)                          # the date, people, aircraft, next mission
    records = service_records(db)                # each pilot's sorties, kills, wounds
    rows = repairs(db); job = queue_repair(db, aircraft_id); write_off(db, aircraft_id)
    change = preview_days(db, 3)                 # nothing written
    advance(db, 3, expect=view.day)              # ONE transaction, with its journal entry
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from ka_tui.rules.campaign.missions import ServiceRecord, SortieFact, service_record
from ka_tui.rules.campaign.people import Person, Readiness, readiness
from ka_tui.rules.campaign.repair import (
    JobStatus,
    Plane,
    PlaneReadiness,
    RepairJob,
    RepairNeed,
    finish_days,
    plane_readiness,
    repair_need,
)
from ka_tui.rules.campaign.timeline import TimePreview, parse_date, preview
from ka_tui.rules.core.options import CampaignOptions
from ka_tui.store import journal
from ka_tui.store.campaign import stored_rules
from ka_tui.store.errors import NotFound, StoreError, ValidationError
from ka_tui.store.plain_read import PlainRead
from ka_tui.store.rows_to_rules import PERSON_COLUMNS, person_of, plane_of

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

# ------------------------------------------------------------------ reading


def _options(con: PlainRead) -> CampaignOptions:
    return stored_rules(con).campaign


def _day(con: PlainRead) -> date:
    row = con.execute("SELECT day FROM campaign_day WHERE id = 1").fetchone()
    return parse_date(row[0]) if row else date(1944, 6, 1)


def _people(con: PlainRead, roles: tuple[str, ...] = ("pilot", "crew")) -> list[Person]:
    marks = ",".join("?" * len(roles))
    rows = con.execute(
        f"SELECT {PERSON_COLUMNS} FROM character c LEFT JOIN person_state p "
        f"ON p.character_id = c.id WHERE c.role IN ({marks}) ORDER BY c.name COLLATE NOCASE",
        roles).fetchall()
    return [person_of(r) for r in rows]


def _planes(con: PlainRead) -> list[Plane]:
    rows = con.execute("SELECT id, name, hull, hull_hits, damage FROM aircraft "
                       "ORDER BY name COLLATE NOCASE").fetchall()
    return [plane_of(r) for r in rows]


def _jobs(con: PlainRead, *, open_only: bool = False) -> list[RepairJob]:
    where = "WHERE r.status = 'queued'" if open_only else ""
    rows = con.execute(
        "SELECT r.id, r.aircraft_id, a.name, r.days_total, r.days_done, r.cost, r.status "
        f"FROM repair r JOIN aircraft a ON a.id = r.aircraft_id {where} ORDER BY r.id"
    ).fetchall()
    return [RepairJob(int(i), int(a), str(n), int(t), int(d), int(c), JobStatus(s))
            for i, a, n, t, d, c, s in rows]


def campaign_day(db: CampaignDB) -> date:
    with db.plain_read() as con:
        return _day(con)


def options(db: CampaignDB) -> CampaignOptions:
    with db.plain_read() as con:
        return _options(con)


@dataclass(frozen=True)
class NextMission:
    id: int
    name: str
    day: str
    kind: str
    members: int


@dataclass(frozen=True)
class Overview:
    day: date
    next_mission: NextMission | None
    people: tuple[tuple[Person, Readiness], ...]
    planes: tuple[tuple[Plane, PlaneReadiness], ...]
    planned: int
    flown: int
    journal_entries: int


def overview(db: CampaignDB) -> Overview:
    """Everything the overview shows, in one read."""
    with db.plain_read() as con:
        opts = _options(con)
        day = _day(con)
        people = [(p, readiness(p, opts)) for p in _people(con, ("pilot", "crew", "ground"))]
        jobs = {j.aircraft_id: j for j in _jobs(con, open_only=True)}
        ends = finish_days(list(jobs.values()), opts)
        planes = [(a, plane_readiness(a, jobs.get(a.id), opts,
                                      finishes_in=ends.get(jobs[a.id].id) if a.id in jobs
                                      else None))
                  for a in _planes(con)]
        row = con.execute(
            "SELECT m.id, m.name, m.day, m.kind, (SELECT count(*) FROM mission_member x "
            "WHERE x.mission_id = m.id) FROM mission m WHERE m.status = 'planned' "
            "ORDER BY m.day, m.id LIMIT 1").fetchone()
        nxt = NextMission(int(row[0]), str(row[1]), str(row[2]), str(row[3]), int(row[4])) \
            if row else None
        counts = dict(con.execute("SELECT status, count(*) FROM mission GROUP BY status")
                      .fetchall())
        entries = int(con.execute("SELECT count(*) FROM journal_event").fetchall()[0][0])
    return Overview(day, nxt, tuple(people), tuple(planes), int(counts.get("planned", 0)),
                    int(counts.get("flown", 0)), entries)


# ---------------------------------------------------------- service records

def _sorties(con: PlainRead, character_id: int) -> list[SortieFact]:
    """His flown missions with what their confirmed debriefs say of him
    (``debriefs.BadDebrief`` names a mission whose debrief cannot be read)."""
    from ka_tui.store.debriefs import read_debrief

    rows = con.execute(
        "SELECT m.id, m.name, m.day, m.debrief FROM mission m JOIN mission_member x "
        "ON x.mission_id = m.id WHERE x.character_id = ? AND m.status = 'flown' "
        "ORDER BY m.day, m.id", (character_id,)).fetchall()
    out: list[SortieFact] = []
    for mid, name, day, raw in rows:
        d = read_debrief(int(mid), str(name), raw)
        mine = next((p for p in d.pilots if p.character_id == character_id), None)
        out.append(SortieFact(int(mid), str(name), str(day), mine.kills if mine else 0,
                              mine.wounds_taken if mine else 0,
                              mine.shot_down_by if mine else ""))
    return out


def service_records(db: CampaignDB, character_id: int | None = None) -> list[ServiceRecord]:
    """Each pilot's and crewman's record (one read), derived from the confirmed
    debriefs of the missions flown; only one with ``character_id``."""
    with db.plain_read() as con:
        opts = _options(con)
        people = _people(con, ("pilot", "crew", "ground"))
        if character_id is not None:
            people = [p for p in people if p.id == character_id]
            if not people:
                raise NotFound(f"no character with id {character_id}")
        return [service_record(p, _sorties(con, p.id), opts) for p in people]


def service_line(db: CampaignDB, character_id: int) -> str:
    """One line for the roster's detail pane ("Service: 3 sorties, 1 kill, …")."""
    recs = service_records(db, character_id)
    return recs[0].line if recs else ""


# ------------------------------------------------------------------ repairs

@dataclass(frozen=True)
class RepairSummary:
    plane: Plane
    readiness: PlaneReadiness
    need: RepairNeed
    job: RepairJob | None
    finishes_in: int | None


def repairs(db: CampaignDB) -> list[RepairSummary]:
    """Every aircraft that is damaged, under repair or lost, with what
    repairing it takes (``rules/campaign/repair.py``) and its place in the queue."""
    with db.plain_read() as con:
        opts = _options(con)
        jobs = {j.aircraft_id: j for j in _jobs(con, open_only=True)}
        ends = finish_days(list(jobs.values()), opts)
        out = []
        for a in _planes(con):
            job = jobs.get(a.id)
            if not (a.damaged or a.lost or job):
                continue
            fin = ends.get(job.id) if job else None
            out.append(RepairSummary(a, plane_readiness(a, job, opts, finishes_in=fin),
                                     repair_need(a, opts), job, fin))
    return out


def repair_queue(db: CampaignDB) -> list[RepairJob]:
    with db.plain_read() as con:
        return _jobs(con)


def _sql(s: Any, sql: str, params: tuple[Any, ...] = ()) -> Any:
    return s.connection().exec_driver_sql(sql, params)


def _in(s: Any) -> PlainRead:
    """The plain reads of a write, inside its own transaction (its session)."""
    return PlainRead.on_session(s)


def _plane_in(s: Any, aircraft_id: int) -> Plane:
    row = _in(s).execute("SELECT id, name, hull, hull_hits, damage FROM aircraft WHERE id = ?",
                         (aircraft_id,)).fetchone()
    if row is None:
        raise NotFound(f"no aircraft with id {aircraft_id}")
    return plane_of(row)


def _day_in(s: Any) -> date:
    return _day(_in(s))


def _options_in(s: Any) -> CampaignOptions:
    return _options(_in(s))


def queue_repair(db: CampaignDB, aircraft_id: int) -> RepairJob:
    """Put a damaged aircraft in the repair queue (its days and cost under the
    house rules), with its journal entry; one transaction."""
    with db.batch() as s:
        return _queue_repair(s, db, aircraft_id)


def _queue_repair(s: Any, db: CampaignDB, aircraft_id: int, *,
                  mission: int | None = None) -> RepairJob:
    plane = _plane_in(s, aircraft_id)
    if plane.lost:
        raise ValidationError("aircraft", f"{plane.name} is {plane.lost}: nothing to repair")
    if not plane.damaged:
        raise ValidationError("aircraft", f"{plane.name} has no damage to repair")
    if _sql(s, "SELECT 1 FROM repair WHERE aircraft_id = ? AND status = 'queued'",
            (aircraft_id,)).first():
        raise ValidationError("aircraft", f"{plane.name} is already in the repair queue")
    opts = _options_in(s)
    need = repair_need(plane, opts)
    day = _day_in(s).isoformat()
    new_id = _sql(s, "INSERT INTO repair (aircraft_id, queued_on, days_total, cost) "
                     "VALUES (?, ?, ?, ?)", (aircraft_id, day, need.days, need.cost)).lastrowid
    journal.add(db, "repair", f"{plane.name} into the repair queue: {need.days} days, "
                              f"cost {need.cost}", day=day, aircraft=[aircraft_id],
                mission=mission)
    return RepairJob(int(new_id), aircraft_id, plane.name, need.days, 0, need.cost)


def write_off(db: CampaignDB, aircraft_id: int, why: str = "") -> None:
    """Write an aircraft off: marked lost ("written off") and out of the queue;
    one transaction with its journal entry."""
    with db.batch() as s:
        plane = _plane_in(s, aircraft_id)
        if plane.lost:
            raise ValidationError("aircraft", f"{plane.name} is already {plane.lost}")
        raw = _sql(s, "SELECT damage FROM aircraft WHERE id = ?", (aircraft_id,)).one()[0]
        table = json.loads(raw or "{}")
        table["lost"] = "written off"
        _sql(s, "UPDATE aircraft SET damage = ? WHERE id = ?",
             (json.dumps(table, sort_keys=True), aircraft_id))
        _sql(s, "UPDATE repair SET status = 'written off' WHERE aircraft_id = ? "
                "AND status = 'queued'", (aircraft_id,))
        journal.add(db, "repair", f"{plane.name} written off" + (f": {why}" if why else ""),
                    day=_day_in(s).isoformat(), aircraft=[aircraft_id])


# --------------------------------------------------------------------- time

def set_day(db: CampaignDB, day: str) -> date:
    """Set the campaign's date (the GM starting a campaign)."""
    try:
        when = parse_date(day)
    except ValueError as e:
        raise ValidationError("day", str(e)) from None
    with db.transaction() as s:
        _sql(s, "UPDATE campaign_day SET day = ? WHERE id = 1", (when.isoformat(),))
    return when


def preview_days(db: CampaignDB, days: int) -> TimePreview:
    """What advancing ``days`` days would change (nothing is written)."""
    with db.plain_read() as con:
        try:
            return preview(_day(con), days, _people(con, ("pilot", "crew", "ground")),
                           _jobs(con, open_only=True), _options(con))
        except ValueError as e:
            raise ValidationError("days", str(e)) from None


def advance(db: CampaignDB, days: int, *, expect: date | None = None,
            seen: TimePreview | None = None) -> TimePreview:
    """Advance the campaign ``days`` days in ONE transaction: people rest and
    heal, repairs progress (a finished one clears the aircraft's damage),
    aircraft are refuelled and rearmed, the date moves, and a journal entry
    says what changed. ``expect``: the date the preview was made on (refused
    if the campaign moved meanwhile). ``seen``: the preview the GM saw;
    refused if the same preview made inside the transaction differs (another
    window wounded someone, queued or finished a repair, moved the date)."""
    if seen is not None:
        expect = seen.start if expect is None else expect
    with db.batch() as s:
        start = _day_in(s)
        if expect is not None and expect != start:
            raise StoreError(f"the campaign's date moved to {start.isoformat()} meanwhile; "
                             "preview again")
        opts = _options_in(s)
        people = _people(_in(s), ("pilot", "crew", "ground"))
        jobs = _jobs(_in(s), open_only=True)
        try:
            result = preview(start, days, people, jobs, opts)
            if seen is not None and preview(start, seen.days, people, jobs, opts) != seen:
                raise StoreError("what the days change was changed in another window "
                                 "since the preview; nothing written: look at the new "
                                 "preview and confirm again")
        except ValueError as e:
            raise ValidationError("days", str(e)) from None
        for old, p in zip(people, result.people):
            if p == old:
                continue
            _sql(s, "UPDATE character SET wounds = ?, conscious = ?, k_points = ? WHERE id = ?",
                 (p.wounds, int(p.conscious), p.k_points, p.id))
            _sql(s, "INSERT INTO person_state (character_id, rest_days, missing, days_out) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (character_id) DO UPDATE SET "
                    "rest_days = excluded.rest_days, missing = excluded.missing, "
                    "days_out = excluded.days_out",
                 (p.id, p.rest_days, int(p.missing), p.days_out))
        for job in result.repairs:
            _sql(s, "UPDATE repair SET days_done = ?, status = ? WHERE id = ?",
                 (job.days_done, job.status.value, job.id))
            if job.status is JobStatus.DONE:
                raw = _sql(s, "SELECT damage FROM aircraft WHERE id = ?",
                           (job.aircraft_id,)).one()[0]
                table = json.loads(raw or "{}")
                keep = {k: v for k, v in table.items() if k in ("lost", "lost_in")}
                _sql(s, "UPDATE aircraft SET hull_hits = 0, damage = ? WHERE id = ?",
                     (json.dumps(keep, sort_keys=True), job.aircraft_id))
        if opts.rearm_each_day:
            _sql(s, "UPDATE aircraft SET fuel_left = fuel, ammo_left = ammo, overheat = 0 "
                    "WHERE json_extract(damage, '$.lost') IS NULL")
        _sql(s, "UPDATE campaign_day SET day = ? WHERE id = 1", (result.end.isoformat(),))
        text = "\n".join([f"{days} day{'s' if days != 1 else ''} pass: {result.summary}",
                          *(c.text for c in result.changes)])
        journal.add(db, "time", text, day=result.end.isoformat(),
                    characters=sorted({c.character_id for c in result.changes
                                       if c.character_id is not None}),
                    aircraft=sorted({c.aircraft_id for c in result.changes
                                     if c.aircraft_id is not None}))
    return result


def set_missing(db: CampaignDB, character_id: int, missing: bool) -> None:
    """Mark a character missing in action (or found again), with its journal entry."""
    with db.batch() as s:
        row = _sql(s, "SELECT name FROM character WHERE id = ?", (character_id,)).first()
        if row is None:
            raise NotFound(f"no character with id {character_id}")
        _sql(s, "INSERT INTO person_state (character_id, missing) VALUES (?, ?) "
                "ON CONFLICT (character_id) DO UPDATE SET missing = excluded.missing",
             (character_id, int(missing)))
        journal.add(db, "note", f"{row[0]} {'is missing in action' if missing else 'is back'}",
                    day=_day_in(s).isoformat(), characters=[character_id])
