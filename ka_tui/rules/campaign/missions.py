"""Missions: the ready-check, the debrief summary and service records.

Ready-check: R-5 (dead at 6 wounds, unconscious), the missing, a pilot with
more than ``campaign.fit_max_wounds`` wounds, a person already in another
mission that day; an aircraft lost (R-1.3 destroyed, crashed, written off) or
under repair. Debrief and service records are derived from what the battles
(``battle_ended``: victories, losses, aircraft and airmen after) and fights
recorded — never typed by hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from ka_tui.rules.campaign.people import Person, PersonState, readiness
from ka_tui.rules.campaign.repair import Plane, PlaneState, RepairJob, plane_readiness
from ka_tui.rules.core.options import CampaignOptions


class MissionKind(StrEnum):
    PATROL = "patrol"
    ESCORT = "escort"
    INTERCEPT = "intercept"
    GROUND_ATTACK = "ground attack"
    RECONNAISSANCE = "reconnaissance"
    TRANSFER = "transfer"
    OTHER = "other"


class MissionStatus(StrEnum):
    PLANNED = "planned"
    FLOWN = "flown"
    ABORTED = "aborted"


@dataclass(frozen=True)
class Refusal:
    field: str       # "pilots" | "aircraft"
    id: int
    why: str


def ready_check(people: Sequence[Person], planes: Sequence[Plane],
                jobs: Mapping[int, RepairJob], busy: Mapping[int, str],
                opts: CampaignOptions) -> list[Refusal]:
    """Why each chosen person or aircraft cannot fly the mission (empty: all
    may). ``busy``: character id -> the other mission he flies that day;
    ``jobs``: aircraft id -> its open repair."""
    out: list[Refusal] = []
    for p in people:
        r = readiness(p, opts)
        if r.state in (PersonState.KILLED, PersonState.MISSING, PersonState.UNCONSCIOUS):
            out.append(Refusal("pilots", p.id, r.why))
        elif r.state is PersonState.WOUNDED and r.fit_in:
            out.append(Refusal("pilots", p.id, f"{r.why} (more than "
                                               f"{opts.fit_max_wounds} wounds)"))
        elif p.id in busy:
            out.append(Refusal("pilots", p.id, f"{p.name} already flies “{busy[p.id]}” "
                                               "that day"))
    for a in planes:
        pr = plane_readiness(a, jobs.get(a.id), opts)
        if pr.state in (PlaneState.LOST, PlaneState.UNDER_REPAIR):
            out.append(Refusal("aircraft", a.id, pr.why))
    return out


# ------------------------------------------------------------------ debrief

@dataclass(frozen=True)
class DebriefPilot:
    character_id: int
    name: str
    kills: int = 0
    wounds_taken: int = 0
    wounds_now: int = 0
    shot_down_by: str = ""
    killed: bool = False


@dataclass(frozen=True)
class DebriefPlane:
    aircraft_id: int
    name: str
    hull_hits_taken: int = 0
    ammo_spent: int = 0
    fuel_spent: int = 0
    lost: str = ""


@dataclass(frozen=True)
class Debrief:
    pilots: tuple[DebriefPilot, ...]
    aircraft: tuple[DebriefPlane, ...]
    kills: tuple[str, ...]           # "turn 2: Tempest KA-A shot down Bf 109 (Battle)"
    fights: tuple[str, ...]          # "Bar brawl: ended"
    battles: int
    open_battles: tuple[str, ...] = field(default=())

    @property
    def lines(self) -> list[str]:
        out = [f"Battles: {self.battles}" + (f" ({len(self.open_battles)} still open)"
                                             if self.open_battles else "")]
        for p in self.pilots:
            bits = [f"{p.kills} kill{'s' if p.kills != 1 else ''}"]
            if p.wounds_taken:
                bits.append(f"+{p.wounds_taken} wound{'s' if p.wounds_taken != 1 else ''} (now {p.wounds_now})")
            if p.shot_down_by:
                bits.append(f"shot down by {p.shot_down_by}")
            if p.killed:
                bits.append("KILLED")
            out.append(f"  {p.name}: " + ", ".join(bits))
        for a in self.aircraft:
            bits = [f"{a.hull_hits_taken} hull hits", f"ammo −{a.ammo_spent}",
                    f"fuel −{a.fuel_spent}"]
            if a.lost:
                bits.append(a.lost.upper())
            out.append(f"  {a.name}: " + ", ".join(bits))
        out += [f"  {k}" for k in self.kills]
        out += [f"  Fight {f}" for f in self.fights]
        return out


def _int(value: Any, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def debrief(battles: Sequence[Mapping[str, Any]], fights: Sequence[Mapping[str, Any]],
            names: Mapping[int, str]) -> Debrief:
    """The summary of a mission from its battles and fights.

    ``battles``: each ``{"name", "status", "start": battle_started data,
    "end": battle_ended data or None}`` (R-1.3 hull, R-1.4 fuel, RULES-NOTES D
    ammunition, R-5 wounds, the victories); ``fights``: ``{"name", "status",
    "end": fight_ended payload or None}``; ``names``: character id -> name."""
    kills: dict[int, int] = {}
    wounds_before: dict[int, int] = {}
    wounds_after: dict[int, int] = {}
    downed_by: dict[int, str] = {}
    killed: set[int] = set()
    planes: dict[int, DebriefPlane] = {}
    lines: list[str] = []
    open_battles: list[str] = []
    for b in battles:
        start = b.get("start") or {}
        end = b.get("end")
        airmen = {str(k): [int(i) for i in v] for k, v in start.get("airmen", {}).items()}
        units = {str(u.get("id")): u for u in start.get("units", [])}
        for uid, ids in airmen.items():
            u = units.get(uid, {})
            people = [u.get("pilot"), *u.get("crew", [])]
            for cid, who in zip(ids, people):
                wounds_before.setdefault(cid, _int((who or {}).get("wounds")))
                kills.setdefault(cid, 0)
        if end is None:
            open_battles.append(str(b.get("name", "")))
            continue
        for v in end.get("victories", []):
            pid = _int(v.get("pilot_id"))
            kills[pid] = kills.get(pid, 0) + 1
            vp = _int(v.get("victim_pilot_id"))
            downed_by[vp] = f"{names.get(pid, v.get('victor'))} ({v.get('victor')})"
            verb = "shot down" if v.get("how") == "shot" else "rammed"
            lines.append(f"turn {v.get('turn')}: {v.get('victor')} {verb} "
                         f"{v.get('victim')} ({b.get('name')})")
        for a in end.get("airmen", []):
            cid = _int(a.get("character_id"))
            wounds_after[cid] = _int(a.get("wounds"))
            if _int(a.get("wounds")) >= 6:
                killed.add(cid)
        for a in end.get("aircraft", []):
            aid = _int(a.get("aircraft_id"))
            u = units.get(str(a.get("name")), {})
            before_hits = _int((u.get("damage") or {}).get("hull_hits"))
            old = planes.get(aid) or DebriefPlane(aid, str(a.get("name")))
            planes[aid] = replace(
                old,
                hull_hits_taken=old.hull_hits_taken
                + max(0, _int(a.get("hull_hits")) - before_hits),
                ammo_spent=old.ammo_spent
                + max(0, _int(u.get("ammo")) - _int(a.get("ammo_left"))),
                fuel_spent=old.fuel_spent
                + max(0, _int(u.get("fuel")) - _int(a.get("fuel_left"))),
                lost=str(a.get("lost") or old.lost))
    pilots = tuple(DebriefPilot(cid, names.get(cid, f"#{cid}"), kills.get(cid, 0),
                                max(0, wounds_after.get(cid, wounds_before.get(cid, 0))
                                    - wounds_before.get(cid, 0)),
                                wounds_after.get(cid, wounds_before.get(cid, 0)),
                                downed_by.get(cid, ""), cid in killed)
                   for cid in sorted(kills, key=lambda c: names.get(c, "").casefold()))
    fight_lines = tuple(f"“{f.get('name')}”: {f.get('status')}" for f in fights)
    return Debrief(pilots, tuple(sorted(planes.values(), key=lambda p: p.name.casefold())),
                   tuple(lines), fight_lines, len(battles), tuple(open_battles))


# ------------------------------------------------------------ service records

@dataclass(frozen=True)
class SortieFact:
    """One flown mission a character took part in, with its confirmed debrief."""

    mission_id: int
    name: str
    day: str
    kills: int = 0
    wounds_taken: int = 0
    shot_down_by: str = ""


@dataclass(frozen=True)
class ServiceRecord:
    character_id: int
    name: str
    status: str
    sorties: int
    kills: int
    shot_down: tuple[str, ...]
    wounds_taken: int
    wound_history: tuple[str, ...]
    days_out: int
    log: tuple[str, ...]

    @property
    def line(self) -> str:
        """The one line for the roster's detail pane."""
        def n(k: int, w: str) -> str:
            return f"{k} {w}" if k == 1 else f"{k} {w}s"
        return (f"Service: {n(self.sorties, 'sortie')}, {n(self.kills, 'kill')}, "
                f"{n(self.wounds_taken, 'wound')}, {n(self.days_out, 'day')} out — "
                f"{self.status}")


def service_record(person: Person, sorties: Sequence[SortieFact], opts: CampaignOptions
                   ) -> ServiceRecord:
    """Derived from the confirmed debriefs of the missions flown (kills and
    wounds from the battles, R-5), plus the person's state now."""
    shot = tuple(f"{s.day} {s.name}: by {s.shot_down_by}" for s in sorties if s.shot_down_by)
    wounds = tuple(f"{s.day} {s.name}: +{s.wounds_taken}" for s in sorties if s.wounds_taken)
    log = tuple(f"{s.day} {s.name}: {s.kills} kill{'s' if s.kills != 1 else ''}"
                + (f", +{s.wounds_taken} wounds" if s.wounds_taken else "")
                + (f", shot down by {s.shot_down_by}" if s.shot_down_by else "")
                for s in sorties)
    status = readiness(person, opts).why.removeprefix(f"{person.name} — ")
    return ServiceRecord(person.id, person.name, status, len(sorties),
                         sum(s.kills for s in sorties), shot,
                         sum(s.wounds_taken for s in sorties), wounds, person.days_out, log)
