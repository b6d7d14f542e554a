"""Aircraft between battles: what repairing damage by location takes, the
repair queue, readiness and write-off.

R-1.3 gives an aircraft hull hits and location effects (the ``damage`` table:
``effects`` in force and where each hull hit landed); the seeds say nothing on
repairs. House rules (``CampaignOptions``): ``repair_days_per_hull_hit``,
``repair_days_per_effect``, ``repair_cost_per_hull_hit``,
``repair_cost_per_effect``, ``repair_crews``, ``write_off_percent``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from ka_tui.rules.core.options import CampaignOptions


class PlaneState(StrEnum):
    READY = "ready"
    DAMAGED = "damaged"
    UNDER_REPAIR = "under repair"
    LOST = "lost"


@dataclass(frozen=True)
class Plane:
    """An aircraft's damage as the campaign sees it. ``effects``/``hits``:
    (location, count) pairs; ``lost``: "" or destroyed / crashed / written off."""

    id: int
    name: str
    hull: int
    hull_hits: int = 0
    effects: tuple[tuple[str, int], ...] = ()
    hits: tuple[tuple[str, int], ...] = ()
    lost: str = ""

    @property
    def damaged(self) -> bool:
        return bool(self.hull_hits or self.effects)


@dataclass(frozen=True)
class RepairLine:
    location: str       # "hull" or a location name
    count: int
    days: int
    cost: int


@dataclass(frozen=True)
class RepairNeed:
    lines: tuple[RepairLine, ...]
    days: int
    cost: int
    write_off_advised: bool
    why: str


def _where(location: str) -> str:
    return location.replace("_", " ")


def repair_need(plane: Plane, opts: CampaignOptions) -> RepairNeed:
    """Days and cost to repair every hull hit (``campaign.repair_days_per_hull_hit``,
    ``repair_cost_per_hull_hit``) and every location effect in force
    (``repair_days_per_effect``, ``repair_cost_per_effect``); advised to be
    written off at ``write_off_percent`` of its hull or more."""
    lines: list[RepairLine] = []
    if plane.hull_hits:
        where = ", ".join(f"{_where(loc)} {n}" for loc, n in plane.hits if n)
        lines.append(RepairLine(f"hull ({where})" if where else "hull", plane.hull_hits,
                                plane.hull_hits * opts.repair_days_per_hull_hit,
                                plane.hull_hits * opts.repair_cost_per_hull_hit))
    for loc, n in plane.effects:
        if n > 0:
            lines.append(RepairLine(_where(loc), n, n * opts.repair_days_per_effect,
                                    n * opts.repair_cost_per_effect))
    days = sum(x.days for x in lines)
    cost = sum(x.cost for x in lines)
    share = 100 * plane.hull_hits // max(1, plane.hull)
    advised = share >= opts.write_off_percent
    why = (f"{plane.hull_hits} of {plane.hull} hull ({share}% ≥ "
           f"{opts.write_off_percent}%): write-off advised" if advised else "")
    return RepairNeed(tuple(lines), days, cost, advised, why)


class JobStatus(StrEnum):
    QUEUED = "queued"
    DONE = "done"
    WRITTEN_OFF = "written off"


@dataclass(frozen=True)
class RepairJob:
    id: int
    aircraft_id: int
    name: str
    days_total: int
    days_done: int = 0
    cost: int = 0
    status: JobStatus = JobStatus.QUEUED

    @property
    def days_left(self) -> int:
        return max(0, self.days_total - self.days_done)

    @property
    def open(self) -> bool:
        return self.status is JobStatus.QUEUED


def finish_days(queue: tuple[RepairJob, ...] | list[RepairJob],
                opts: CampaignOptions) -> dict[int, int]:
    """Job id -> the day (1, 2, …) its repair finishes: the first
    ``campaign.repair_crews`` open jobs of the queue are worked on, one day a
    day each; a crew takes the next job when its own is done."""
    crews = max(1, opts.repair_crews)
    waiting = [j for j in queue if j.open]
    out: dict[int, int] = {}
    free = [0] * crews           # the day each crew is free again
    for job in waiting:
        k = min(range(crews), key=lambda i: free[i])
        free[k] += job.days_left
        out[job.id] = max(free[k], 1) if job.days_left else 0
    return out


def work(queue: tuple[RepairJob, ...] | list[RepairJob], days: int,
         opts: CampaignOptions) -> list[RepairJob]:
    """The queue after ``days`` of work (``finish_days``): finished jobs DONE."""
    ends = finish_days(queue, opts)
    crews = max(1, opts.repair_crews)
    free = [0] * crews
    out: list[RepairJob] = []
    for job in queue:
        if not job.open:
            out.append(job)
            continue
        k = min(range(crews), key=lambda i: free[i])
        start = free[k]
        free[k] += job.days_left
        worked = max(0, min(days, free[k]) - start)
        done = job.days_done + worked
        if ends[job.id] <= days:
            out.append(replace(job, days_done=job.days_total, status=JobStatus.DONE))
        else:
            out.append(replace(job, days_done=done))
    return out


@dataclass(frozen=True)
class PlaneReadiness:
    state: PlaneState
    why: str

    @property
    def ready(self) -> bool:
        return self.state is PlaneState.READY


def plane_readiness(plane: Plane, job: RepairJob | None, opts: CampaignOptions,
                    *, finishes_in: int | None = None) -> PlaneReadiness:
    """Ready / damaged / under repair / lost, with why (R-1.3 hull and
    location effects; the repair house rules)."""
    if plane.lost:
        return PlaneReadiness(PlaneState.LOST, f"{plane.name} — {plane.lost}")
    if job is not None and job.open:
        days = finishes_in if finishes_in is not None else job.days_left
        return PlaneReadiness(PlaneState.UNDER_REPAIR,
                              f"{plane.name} — under repair, ready in {days} "
                              f"day{'s' if days != 1 else ''}")
    if plane.damaged:
        need = repair_need(plane, opts)
        parts = [f"{plane.hull_hits}/{plane.hull} hull"] if plane.hull_hits else []
        parts += [f"{_where(loc)} {n}" for loc, n in plane.effects if n]
        return PlaneReadiness(PlaneState.DAMAGED,
                              f"{plane.name} — damaged ({', '.join(parts)}), "
                              f"repair {need.days} day{'s' if need.days != 1 else ''}")
    return PlaneReadiness(PlaneState.READY, f"{plane.name} — ready")
