"""Missions (sorties) in the store: plan, edit, list, link battles and
fights, the ready-check, the debrief and its confirmation.

Each write is one transaction (``db.batch()``) with its journal entries. The
ready-check and the debrief summary are ``rules/campaign/missions.py``; reads
are plain SQL (``db.plain_read()``; a write's checks read inside it)::

    found = list_missions(db, status="planned")  # MissionSummary rows, newest first
    mission_id = create_mission(db, name, day, "patrol", briefing, [(cid, aircraft_id)])
    mission = get_mission(db, mission_id)        # members, linked battles and fights
    refusals = check_members(db, day, members)   # the ready-check, nothing written
    battle_id = start_battle(db, mission_id, positions, map_id=…)   # started and linked
    summary = debrief_of(db, mission_id); confirm_debrief(db, mission_id, notes)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from ka_tui.rules.campaign.journal import EntryKind
from ka_tui.rules.campaign.missions import (
    Debrief,
    MissionKind,
    MissionStatus,
    Refusal,
    debrief,
    ready_check,
)
from ka_tui.rules.campaign.people import Person
from ka_tui.rules.campaign.repair import repair_need
from ka_tui.rules.campaign.timeline import parse_date
from ka_tui.store import journal
from ka_tui.store.campaign_state import (
    _in,
    _jobs,
    _options,
    _options_in,
    _people,
    _planes,
    _queue_repair,
    _sql,
)
from ka_tui.store.debriefs import as_stored, stored_table, typed_debrief
from ka_tui.store.errors import NotFound, StoreError, ValidationError
from ka_tui.store.limits import NAME_MAX, TEXT_MAX
from ka_tui.store.plain_read import PlainRead
from ka_tui.store.rows_to_rules import plane_of

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB


@dataclass(frozen=True)
class Member:
    character_id: int
    name: str
    role: str
    aircraft_id: int | None
    aircraft: str


@dataclass(frozen=True)
class LinkedLog:
    kind: str          # battle | fight
    id: int
    name: str
    status: str


@dataclass(frozen=True)
class Mission:
    id: int
    name: str
    day: str
    kind: MissionKind
    briefing: str
    status: MissionStatus
    members: tuple[Member, ...]
    links: tuple[LinkedLog, ...]
    debrief: dict[str, Any]
    debrief_notes: str

    @property
    def aircraft_ids(self) -> list[int]:
        return list(dict.fromkeys(m.aircraft_id for m in self.members
                                  if m.aircraft_id is not None))


@dataclass(frozen=True)
class MissionSummary:
    id: int
    name: str
    day: str
    kind: str
    status: str
    members: int
    battles: int


# ------------------------------------------------------------------ reading

def list_missions(db: CampaignDB, *, status: str | None = None, kind: str | None = None,
                  search: str = "") -> list[MissionSummary]:
    """Missions by date (newest first), filtered; one read."""
    sql = ("SELECT m.id, m.name, m.day, m.kind, m.status, "
           "(SELECT count(*) FROM mission_member x WHERE x.mission_id = m.id), "
           "(SELECT count(*) FROM mission_link l WHERE l.mission_id = m.id) FROM mission m")
    where, params = [], []
    if status:
        where.append("m.status = ?")
        params.append(status)
    if kind:
        where.append("m.kind = ?")
        params.append(kind)
    if search.strip():
        where.append("(m.name LIKE ? OR m.briefing LIKE ?)")
        params += [f"%{search.strip()}%"] * 2
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY m.day DESC, m.id DESC"
    with db.plain_read() as con:
        rows = con.execute(sql, params).fetchall()
    return [MissionSummary(int(i), str(n), str(d), str(k), str(s), int(mc), int(bc))
            for i, n, d, k, s, mc, bc in rows]


def _mission(con: PlainRead, mission_id: int) -> Mission:
    row = con.execute("SELECT id, name, day, kind, briefing, status, debrief, debrief_notes "
                      "FROM mission WHERE id = ?", (mission_id,)).fetchone()
    if row is None:
        raise NotFound(f"no mission with id {mission_id}")
    members = con.execute(
        "SELECT c.id, c.name, c.role, x.aircraft_id, coalesce(a.name, '') FROM mission_member x "
        "JOIN character c ON c.id = x.character_id LEFT JOIN aircraft a ON a.id = x.aircraft_id "
        "WHERE x.mission_id = ? ORDER BY coalesce(a.name, 'zz') COLLATE NOCASE, "
        "c.role DESC, c.name COLLATE NOCASE", (mission_id,)).fetchall()
    links = con.execute(
        "SELECT 'battle', b.id, b.name, b.status FROM mission_link l JOIN battle b "
        "ON b.id = l.battle_id WHERE l.mission_id = ? UNION ALL "
        "SELECT 'fight', f.id, f.name, f.status FROM mission_link l JOIN fight f "
        "ON f.id = l.fight_id WHERE l.mission_id = ?", (mission_id, mission_id)).fetchall()
    return Mission(int(row[0]), str(row[1]), str(row[2]), MissionKind(row[3]), str(row[4]),
                   MissionStatus(row[5]),
                   tuple(Member(int(i), str(n), str(r), None if a is None else int(a), str(an))
                         for i, n, r, a, an in members),
                   tuple(LinkedLog(str(k), int(i), str(n), str(s)) for k, i, n, s in links),
                   stored_table(int(row[0]), str(row[1]), row[6]), str(row[7]))


def get_mission(db: CampaignDB, mission_id: int) -> Mission:
    with db.plain_read() as con:
        return _mission(con, mission_id)


# ------------------------------------------------------------- ready-check

def _busy(con: PlainRead, day: str, mission_id: int | None) -> dict[int, str]:
    rows = con.execute(
        "SELECT x.character_id, m.name FROM mission_member x JOIN mission m ON m.id = "
        "x.mission_id WHERE m.day = ? AND m.status != 'aborted' AND m.id != ?",
        (day, mission_id or 0)).fetchall()
    return {int(c): str(n) for c, n in rows}


def check_members(db: CampaignDB, day: str, members: Sequence[tuple[int, int | None]],
                  mission_id: int | None = None) -> list[Refusal]:
    """The ready-check (``rules/campaign/missions.ready_check``) of people and
    the aircraft they fly on ``day``; empty when everyone may go."""
    with db.plain_read() as con:
        return _check(con, day, members, mission_id)


def _check(con: PlainRead, day: str, members: Sequence[tuple[int, int | None]],
           mission_id: int | None) -> list[Refusal]:
    opts = _options(con)
    people = {p.id: p for p in _people(con, ("pilot", "crew", "ground"))}
    planes = {a.id: a for a in _planes(con)}
    jobs = {j.aircraft_id: j for j in _jobs(con, open_only=True)}
    chosen: list[Person] = []
    for cid, _ in members:
        if cid not in people:
            raise ValidationError("pilots", f"no character with id {cid}")
        chosen.append(people[cid])
    aids = list(dict.fromkeys(a for _, a in members if a is not None))
    for a in aids:
        if a not in planes:
            raise ValidationError("aircraft", f"no aircraft with id {a}")
    return ready_check(chosen, [planes[a] for a in aids], jobs, _busy(con, day, mission_id),
                       opts)


def battle_refusals(db: CampaignDB, mission_id: int,
                    aboard: Mapping[int, Sequence[int]]) -> dict[int, str]:
    """The mission's ready-check of each aircraft that may fly in its battle
    (``aboard``: aircraft id -> the people seated in it, pilot first), on the
    mission's day: aircraft id -> why it may not (the aircraft under repair or
    lost, someone aboard unfit or flying another mission that day)."""
    with db.plain_read() as con:
        day = _mission(con, mission_id).day
        out: dict[int, str] = {}
        for aid, people in aboard.items():
            refused = _check(con, day, [(c, aid) for c in people], mission_id)
            if refused:
                out[aid] = "; ".join(dict.fromkeys(r.why for r in refused))
    return out


def battle_candidates(db: CampaignDB, mission_id: int) -> list[Any]:
    """The roster's aircraft for the mission's battle (``battles.candidates``)
    under the mission's ready-check (``battle_refusals``)."""
    from ka_tui.store import battles

    return battles.candidates(db, battle_refusals(db, mission_id, battles.aboard(db)))


class NotReady(ValidationError):
    """The ready-check refused someone or something; ``refusals`` says why."""

    def __init__(self, refusals: Sequence[Refusal]) -> None:
        super().__init__(refusals[0].field, "; ".join(r.why for r in refusals))
        self.refusals = tuple(refusals)


# ------------------------------------------------------------------ writing

def _clean(name: str, day: str, kind: str, briefing: str) -> tuple[str, str, str, str]:
    name = name.strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise ValidationError("name", f"a mission's name is 1–{NAME_MAX} characters")
    try:
        when = parse_date(day).isoformat()
    except ValueError as e:
        raise ValidationError("day", str(e)) from None
    try:
        k = MissionKind(kind).value
    except ValueError:
        raise ValidationError("kind", "one of " + ", ".join(m.value for m in MissionKind)) \
            from None
    if len(briefing) > TEXT_MAX:
        raise ValidationError("briefing", f"at most {TEXT_MAX} characters")
    return name, when, k, briefing


def _put_members(s: Any, db: CampaignDB, mission_id: int, day: str,
                 members: Sequence[tuple[int, int | None]]) -> None:
    refusals = _check_in(s, db, day, members, mission_id)
    if refusals:
        raise NotReady(refusals)
    _sql(s, "DELETE FROM mission_member WHERE mission_id = ?", (mission_id,))
    for cid, aid in dict((c, a) for c, a in members).items():
        _sql(s, "INSERT INTO mission_member (mission_id, character_id, aircraft_id) "
                "VALUES (?, ?, ?)", (mission_id, cid, aid))


def _check_in(s: Any, db: CampaignDB, day: str, members: Sequence[tuple[int, int | None]],
              mission_id: int | None) -> list[Refusal]:
    return _check(_in(s), day, members, mission_id)


def create_mission(db: CampaignDB, name: str, day: str, kind: str = "patrol", briefing: str = "",
                   members: Sequence[tuple[int, int | None]] = ()) -> int:
    """Plan a mission (status planned) with its people and the aircraft they
    fly; the ready-check refuses (``NotReady``) with the reasons. One
    transaction, with its journal entry. Returns the mission's id."""
    name, day, kind, briefing = _clean(name, day, kind, briefing)
    with db.batch() as s:
        mid = int(_sql(s, "INSERT INTO mission (name, day, kind, briefing) VALUES (?, ?, ?, ?)",
                       (name, day, kind, briefing)).lastrowid)
        _put_members(s, db, mid, day, members)
        journal.add(db, "mission", f"Mission “{name}” ({kind}) planned for {day}",
                    day=day, characters=[c for c, _ in members],
                    aircraft=[a for _, a in members if a is not None], mission=mid)
    return mid


def update_mission(db: CampaignDB, mission_id: int, name: str, day: str, kind: str,
                   briefing: str, members: Sequence[tuple[int, int | None]], *,
                   expect: Mission | None = None) -> None:
    """Edit a planned mission (the ready-check again); one transaction.
    ``expect``: the mission as the form read it; refused (naming the field)
    if another window changed it since."""
    name, day, kind, briefing = _clean(name, day, kind, briefing)
    with db.batch() as s:
        row = _sql(s, "SELECT status FROM mission WHERE id = ?", (mission_id,)).first()
        if row is None:
            raise NotFound(f"no mission with id {mission_id}")
        if row[0] != "planned":
            raise ValidationError("status", f"the mission was {row[0]}: it cannot be edited")
        if expect is not None:
            _check_unchanged(_mission(_in(s), mission_id), expect)
        _sql(s, "UPDATE mission SET name = ?, day = ?, kind = ?, briefing = ? WHERE id = ?",
             (name, day, kind, briefing, mission_id))
        _put_members(s, db, mission_id, day, members)


def _check_unchanged(now: Mission, seen: Mission) -> None:
    """The mission as it is inside the write transaction against the one a
    form was opened on: ``ValidationError`` on the first field another window
    changed meanwhile."""
    def people(m: Mission) -> list[tuple[int, int | None]]:
        return sorted((x.character_id, x.aircraft_id) for x in m.members)

    for field, a, b in (("name", now.name, seen.name), ("day", now.day, seen.day),
                        ("kind", now.kind, seen.kind),
                        ("briefing", now.briefing, seen.briefing),
                        ("pilots", people(now), people(seen))):
        if a != b:
            label = "people" if field == "pilots" else field
            raise ValidationError(field, f"the mission's {label} was changed in another "
                                         "window since this form opened; nothing saved: "
                                         "escape, and edit it again")


def abort_mission(db: CampaignDB, mission_id: int, why: str = "") -> None:
    with db.batch() as s:
        row = _sql(s, "SELECT name, status, day FROM mission WHERE id = ?",
                   (mission_id,)).first()
        if row is None:
            raise NotFound(f"no mission with id {mission_id}")
        if row[1] != "planned":
            raise ValidationError("status", f"the mission was already {row[1]}")
        _sql(s, "UPDATE mission SET status = 'aborted', debrief_notes = ? WHERE id = ?",
             (why, mission_id))
        journal.add(db, "mission", f"Mission “{row[0]}” aborted" + (f": {why}" if why else ""),
                    day=str(row[2]), mission=mission_id)


def link(db: CampaignDB, mission_id: int, *, battle_id: int | None = None,
         fight_id: int | None = None) -> None:
    """Link a battle or a fight played in the mission (one transaction)."""
    if (battle_id is None) == (fight_id is None):
        raise ValidationError("link", "link one battle or one fight")
    with db.batch() as s:
        row = _sql(s, "SELECT name, day, status FROM mission WHERE id = ?",
                   (mission_id,)).first()
        if row is None:
            raise NotFound(f"no mission with id {mission_id}")
        if row[2] != "planned":
            raise ValidationError("status", f"the mission was {row[2]}: nothing more is "
                                            "linked to it")
        table, lid = ("battle", battle_id) if battle_id is not None else ("fight", fight_id)
        head = _sql(s, f"SELECT name FROM {table} WHERE id = ?", (lid,)).first()
        if head is None:
            raise NotFound(f"no {table} with id {lid}")
        if _sql(s, f"SELECT 1 FROM mission_link WHERE {table}_id = ?", (lid,)).first():
            raise ValidationError(table, f"the {table} “{head[0]}” is already linked to a "
                                         "mission")
        _sql(s, f"INSERT INTO mission_link (mission_id, {table}_id) VALUES (?, ?)",
             (mission_id, lid))
        journal.add(db, table, f"{table.capitalize()} “{head[0]}” in mission “{row[0]}”",
                    day=str(row[1]), mission=mission_id)


def start_battle(db: CampaignDB, mission_id: int, placements: Sequence[Any], **kwargs: Any) -> int:
    """Start a battle from the mission (``store/battles.start_battle`` with the
    given placements) and link it — one transaction. Returns the battle id."""
    from ka_tui.store import battles

    with db.batch() as s:
        s.connection()  # the write lock first: the reads below see the file as it is
        mission = get_mission(db, mission_id)
        if mission.status is not MissionStatus.PLANNED:
            raise ValidationError("status", f"the mission was {mission.status.value}")
        kwargs.setdefault("name", mission.name[:60])
        aboard = battles.aboard(db, [int(p.aircraft_id) for p in placements])
        refused = battle_refusals(db, mission_id, aboard)
        if refused:   # the mission's ready-check, as its setup showed it
            raise ValidationError("aircraft", "; ".join(refused.values()))
        battle_id = battles.start_battle(db, placements, **kwargs)
        link(db, mission_id, battle_id=battle_id)
    return battle_id


# ------------------------------------------------------------------ debrief

def _battle_parts(con: PlainRead, battle_id: int) -> tuple[dict[str, Any], dict[str, Any] | None]:
    rows = con.execute("SELECT kind, payload FROM battle_event WHERE battle_id = ? AND kind IN "
                       "('battle_started', 'battle_ended') ORDER BY seq",
                       (battle_id,)).fetchall()
    start: dict[str, Any] = {}
    end: dict[str, Any] | None = None
    for kind, raw in rows:
        payload = json.loads(raw)
        if kind == "battle_started":
            start = payload.get("data", {})
        else:
            end = payload.get("data", payload)
    return start, end


def debrief_of(db: CampaignDB, mission_id: int) -> Debrief:
    """The mission's debrief, computed from its battles and fights (one read)."""
    with db.plain_read() as con:
        m = _mission(con, mission_id)
        names = {int(i): str(n) for i, n in con.execute("SELECT id, name FROM character")}
        battles = []
        fights = []
        for ln in m.links:
            if ln.kind == "battle":
                start, end = _battle_parts(con, ln.id)
                battles.append({"name": ln.name, "status": ln.status, "start": start,
                                "end": end})
            else:
                fights.append({"name": ln.name, "status": ln.status})
    d = debrief(battles, fights, names, people=[x.character_id for x in m.members],
                aircraft=m.aircraft_ids)
    have = {p.character_id for p in d.pilots}
    extra = tuple(p for p in _member_pilots(m, names) if p.character_id not in have)
    return Debrief(tuple(sorted((*d.pilots, *extra), key=lambda p: p.name.casefold())),
                   d.aircraft, d.kills, d.fights, d.battles, d.open_battles)


def _member_pilots(m: Mission, names: dict[int, str]) -> list[Any]:
    from ka_tui.rules.campaign.missions import DebriefPilot

    return [DebriefPilot(x.character_id, x.name) for x in m.members]


def confirm_debrief(db: CampaignDB, mission_id: int, notes: str = "", *,
                    seen: Sequence[str] | None = None) -> Debrief:
    """Confirm the debrief: ONE transaction writes the mission flown with its
    summary and notes, the journal entries (the mission, each kill, each death,
    each wound), and puts the mission's damaged aircraft in the repair queue.
    ``seen``: the debrief's lines as the GM confirmed them; refused if the
    debrief computed inside the transaction says otherwise (a battle or fight
    of the mission moved on, or was linked, in another window)."""
    if len(notes) > TEXT_MAX:
        raise ValidationError("notes", f"at most {TEXT_MAX} characters")
    with db.batch() as s:
        s.connection()  # the write lock first: the reads below see the file as it is
        m = get_mission(db, mission_id)
        if m.status is not MissionStatus.PLANNED:
            raise ValidationError("status", f"the mission was already {m.status.value}")
        d = debrief_of(db, mission_id)
        if d.open_battles:
            raise ValidationError("battles", "end its battles first: "
                                             + ", ".join(d.open_battles))
        if seen is not None and list(seen) != list(d.lines):
            raise StoreError("the debrief changed in another window since it was shown "
                             "(a battle or fight of the mission); nothing written: "
                             "escape and look at it again")
        _sql(s, "UPDATE mission SET status = 'flown', debrief = ?, debrief_notes = ? "
                "WHERE id = ?", (as_stored(d), notes, mission_id))
        people = [x.character_id for x in m.members]
        text = "\n".join([f"Mission “{m.name}” flown ({m.kind.value})", *d.lines,
                          *([f"Notes: {notes}"] if notes.strip() else [])])
        journal.add(db, "mission", text, day=m.day, characters=people,
                    aircraft=m.aircraft_ids, mission=mission_id)
        for p in d.pilots:
            if p.kills:
                journal.add(db, "kill", f"{p.name}: {p.kills} kill{'s' if p.kills != 1 else ''}"
                            f" in “{m.name}”", day=m.day, characters=[p.character_id],
                            mission=mission_id)
            if p.killed and not journal.entries(db, kind=EntryKind.DEATH,
                                                character=p.character_id):
                # a death is journalled once: by its battle's end since it had one
                journal.add(db, "death", f"{p.name} killed in “{m.name}”", day=m.day,
                            characters=[p.character_id], mission=mission_id)
            elif p.wounds_taken:
                journal.add(db, "wound", f"{p.name} wounded in “{m.name}” (+{p.wounds_taken},"
                            f" now {p.wounds_now})", day=m.day, characters=[p.character_id],
                            mission=mission_id)
                _sql(s, "INSERT INTO person_state (character_id, rest_days) VALUES (?, 0) "
                        "ON CONFLICT (character_id) DO UPDATE SET rest_days = 0",
                     (p.character_id,))
        opts = _options_in(s)
        for aid in m.aircraft_ids:
            row = _sql(s, "SELECT id, name, hull, hull_hits, damage FROM aircraft WHERE id = ?",
                       (aid,)).first()
            plane = plane_of(tuple(row))
            open_job = _sql(s, "SELECT 1 FROM repair WHERE aircraft_id = ? AND status = "
                               "'queued'", (aid,)).first()
            if plane.damaged and not plane.lost and not open_job:
                if not repair_need(plane, opts).write_off_advised:
                    _queue_repair(s, db, aid, mission=mission_id)
    return d


def debrief_markdown(db: CampaignDB, mission_id: int) -> str:
    """One mission's debrief as Markdown for the players."""
    from ka_tui.rules.campaign.journal import markdown

    m = get_mission(db, mission_id)
    d = debrief_of(db, mission_id) if m.status is MissionStatus.PLANNED else None
    lines = d.lines if d is not None else stored_lines(m)
    intro = [f"*{m.kind.value}, {m.day}, {m.status.value}*", "", *(
        [m.briefing, ""] if m.briefing else []), "**Debrief**", "",
        *(f"- {x.strip()}" for x in lines)]
    if m.debrief_notes:
        intro += ["", m.debrief_notes]
    return markdown(f"Mission: {m.name}", journal.entries(db, mission=mission_id),
                    intro=intro)


def stored_lines(m: Mission) -> list[str]:
    """The lines of the mission's confirmed debrief (``store/debriefs.py``:
    ``BadDebrief`` names the mission when its stored debrief cannot be read)."""
    return typed_debrief(m.id, m.name, m.debrief).lines


def today(db: CampaignDB) -> date:
    from ka_tui.store.campaign_state import campaign_day

    return campaign_day(db)


@dataclass(frozen=True)
class RosterNames:
    people: dict[int, str]
    planes: dict[int, str]
    seats: dict[int, int]          # character id -> the aircraft he is seated in

    def person(self, text: str) -> int | None:
        """The character a typed name means: the full name, else the one
        with that first name or surname (``Hale``), else the one whose name
        or surname starts so. None: no one, or more than one
        (``people_called`` says who)."""
        some = self.people_called(text)
        return some[0] if len(some) == 1 else None

    def people_called(self, text: str) -> list[int]:
        """Everyone a typed name may mean, by the first rule that finds anyone."""
        key = " ".join(text.split()).casefold()
        if not key:
            return []
        names = {i: " ".join(n.split()).casefold() for i, n in self.people.items()}
        rules: tuple[Callable[[str], bool], ...] = (
            lambda n: n == key,
            lambda n: key in n.split(),  # a first name or a surname, whole
            lambda n: n.startswith(key),
            lambda n: any(w.startswith(key) for w in n.split()[1:]),
        )
        for fits in rules:
            found = [i for i, n in names.items() if fits(n)]
            if found:
                return found
        return []

    def plane(self, text: str) -> int | None:
        key = text.strip().casefold()
        some = [i for i, n in self.planes.items() if n.casefold() == key] or \
            [i for i, n in self.planes.items() if n.casefold().startswith(key)]
        return some[0] if len(some) == 1 else None


def roster_names(db: CampaignDB) -> RosterNames:
    with db.plain_read() as con:
        people = {int(i): str(n) for i, n in con.execute("SELECT id, name FROM character")}
        planes = {int(i): str(n) for i, n in con.execute("SELECT id, name FROM aircraft")}
        seats = {int(p): int(a) for a, p in con.execute(
            "SELECT id, pilot_id FROM aircraft WHERE pilot_id IS NOT NULL")}
        seats.update({int(c): int(a) for a, c in con.execute(
            "SELECT aircraft_id, character_id FROM aircraft_crew")})
    return RosterNames(people, planes, seats)


def parse_members(names: RosterNames, text: str) -> list[tuple[int, int | None]]:
    """``"Hale, Reilly@Mitchell KA-E"`` -> (character id, aircraft id): each
    person in the aircraft he is seated in unless ``@aircraft`` says otherwise.
    ``ValidationError`` on the field ``pilots`` names a name it cannot find."""
    out: list[tuple[int, int | None]] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        who, _, where = part.partition("@")
        cid = names.person(who)
        if cid is None:
            some = names.people_called(who)
            if not some:
                raise ValidationError("pilots", f"no one called {who.strip()!r}")
            raise ValidationError("pilots", f"{who.strip()!r} is more than one: " + ", ".join(
                sorted(names.people[i] for i in some)) + " (type more of the name)")
        aid: int | None = names.seats.get(cid)
        if where.strip():
            aid = names.plane(where)
            if aid is None:
                raise ValidationError("pilots", f"no aircraft called {where.strip()!r}")
        out.append((cid, aid))
    return out


def members_text(m: Mission) -> str:
    return ", ".join(x.name for x in m.members)


def unlinked(db: CampaignDB, what: str = "battle") -> int | None:
    """The newest battle (or fight) not linked to any mission."""
    table = "fight" if what == "fight" else "battle"
    with db.plain_read() as con:
        row = con.execute(f"SELECT id FROM {table} WHERE id NOT IN (SELECT {table}_id FROM "
                          f"mission_link WHERE {table}_id IS NOT NULL) ORDER BY id DESC "
                          "LIMIT 1").fetchone()
    return None if row is None else int(row[0])
