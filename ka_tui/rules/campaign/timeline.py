"""Advancing the campaign by N days: what will change, before it happens.

The preview applies the people rules (``people.rest``: ``campaign.wake_days``,
``heal_days_per_wound``, ``k_points_per_day``) and the repair queue
(``repair.work``: ``campaign.repair_crews``) to plain values; the store writes
the result in one transaction once the GM confirms.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from ka_tui.rules.campaign.people import Person, rest
from ka_tui.rules.campaign.repair import RepairJob, work
from ka_tui.rules.core.options import CampaignOptions

MAX_DAYS = 365


@dataclass(frozen=True)
class ChangeLine:
    kind: str          # "heal" | "wake" | "k_points" | "repair"
    text: str
    character_id: int | None = None
    aircraft_id: int | None = None


@dataclass(frozen=True)
class TimePreview:
    start: date
    end: date
    days: int
    people: tuple[Person, ...]       # after
    repairs: tuple[RepairJob, ...]   # after
    changes: tuple[ChangeLine, ...]

    @property
    def summary(self) -> str:
        return (f"{self.start.isoformat()} → {self.end.isoformat()} "
                f"({self.days} day{'s' if self.days != 1 else ''})")


def parse_date(text: str) -> date:
    """An ISO date ``YYYY-MM-DD`` (ValueError with the reason otherwise)."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"{text!r} is not a date (YYYY-MM-DD)") from None


def preview(start: date, days: int, people: list[Person] | tuple[Person, ...],
            repairs: list[RepairJob] | tuple[RepairJob, ...],
            opts: CampaignOptions) -> TimePreview:
    """What ``days`` days (1..365) of rest and work change."""
    if not 1 <= days <= MAX_DAYS:
        raise ValueError(f"advance 1–{MAX_DAYS} days")
    after_people: list[Person] = []
    lines: list[ChangeLine] = []
    for p in people:
        q = rest(p, days, opts)
        after_people.append(q)
        if p.conscious is False and q.conscious:
            lines.append(ChangeLine("wake", f"{p.name} comes to", p.id))
        if q.wounds < p.wounds:
            left = (f", {q.wounds} left" if q.wounds else ", fully healed")
            n = p.wounds - q.wounds
            lines.append(ChangeLine("heal", f"{p.name}: {n} wound"
                                    f"{' heals' if n == 1 else 's heal'}{left}",
                                    p.id))
        if q.k_points > p.k_points:
            lines.append(ChangeLine("k_points", f"{p.name}: K-points {p.k_points} → "
                                    f"{q.k_points}", p.id))
    after_jobs = work(repairs, days, opts)
    for old, new in zip(repairs, after_jobs):
        if old.open and not new.open:
            lines.append(ChangeLine("repair", f"{old.name}: repair finished", None,
                                    old.aircraft_id))
        elif old.open and new.days_done > old.days_done:
            lines.append(ChangeLine("repair", f"{old.name}: repair {new.days_done}/"
                                    f"{new.days_total} days", None, old.aircraft_id))
    return TimePreview(start, start + timedelta(days=days), days, tuple(after_people),
                       tuple(after_jobs), tuple(lines))
