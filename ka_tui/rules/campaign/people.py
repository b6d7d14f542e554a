"""People between battles: healing, coming to, K-points back, readiness.

R-5: six wounds kill; a wounded airman may be unconscious. Everything about
time passing is a house rule (``CampaignOptions``): ``heal_days_per_wound``,
``wake_days``, ``k_points_per_day``, ``fit_max_wounds``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from ka_tui.rules.core.options import CampaignOptions

MAX_WOUNDS = 6  # the sixth wound kills


class PersonState(StrEnum):
    READY = "ready"
    WOUNDED = "wounded"
    UNCONSCIOUS = "unconscious"
    MISSING = "missing"
    KILLED = "killed"


@dataclass(frozen=True)
class Person:
    """A character as the campaign sees him between battles.

    ``rest_days``: days of rest already counted toward the next wound healing
    (or toward waking up while unconscious); ``days_out``: days spent unfit so far."""

    id: int
    name: str
    role: str = "pilot"
    wounds: int = 0
    conscious: bool = True
    k_points: int = 10
    k_points_max: int = 10
    rest_days: int = 0
    missing: bool = False
    days_out: int = 0

    @property
    def dead(self) -> bool:
        return self.wounds >= MAX_WOUNDS


@dataclass(frozen=True)
class Readiness:
    state: PersonState
    why: str
    fit_in: int | None = None   # days until fit to fly (None: never / unknown)

    @property
    def ready(self) -> bool:
        return self.state is PersonState.READY


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def wake_in(p: Person, opts: CampaignOptions) -> int:
    """Days until an unconscious person comes to (``campaign.wake_days``)."""
    return 0 if p.conscious else max(0, opts.wake_days - p.rest_days)


def heal_in(p: Person, opts: CampaignOptions) -> int:
    """Days until every wound has healed (``campaign.heal_days_per_wound``;
    0: a wound heals as soon as he is awake), counted after waking up."""
    if p.wounds <= 0:
        return 0
    per = opts.heal_days_per_wound
    done = 0 if not p.conscious else p.rest_days
    return wake_in(p, opts) + max(0, p.wounds * per - done)


def fit_in(p: Person, opts: CampaignOptions) -> int:
    """Days until the person may fly again: awake and at most
    ``campaign.fit_max_wounds`` wounds."""
    if p.conscious and p.wounds <= opts.fit_max_wounds:
        return 0
    per = opts.heal_days_per_wound
    over = max(0, p.wounds - opts.fit_max_wounds)
    done = 0 if not p.conscious else p.rest_days
    return wake_in(p, opts) + max(0, over * per - done)


def readiness(p: Person, opts: CampaignOptions) -> Readiness:
    """Ready / wounded / unconscious / missing / killed, and why (R-5 wounds;
    the rates of ``CampaignOptions``)."""
    if p.dead:
        return Readiness(PersonState.KILLED, f"{p.name} — killed ({MAX_WOUNDS} wounds, R-5)")
    if p.missing:
        return Readiness(PersonState.MISSING, f"{p.name} — missing in action")
    if not p.conscious:
        return Readiness(PersonState.UNCONSCIOUS,
                         f"{p.name} — unconscious, {_plural(p.wounds, 'wound')}, "
                         f"awake in {_plural(wake_in(p, opts), 'day')}", fit_in(p, opts))
    if p.wounds > 0:
        days = fit_in(p, opts)
        if days == 0:
            return Readiness(PersonState.WOUNDED,
                             f"{p.name} — {_plural(p.wounds, 'wound')}, fit for duty, "
                             f"healed in {_plural(heal_in(p, opts), 'day')}", 0)
        return Readiness(PersonState.WOUNDED,
                         f"{p.name} — {_plural(p.wounds, 'wound')}, fit in "
                         f"{_plural(days, 'day')}", days)
    return Readiness(PersonState.READY, f"{p.name} — ready", 0)


def rest(p: Person, days: int, opts: CampaignOptions) -> Person:
    """``days`` of rest: an unconscious person wakes after ``campaign.wake_days``;
    then one wound heals every ``campaign.heal_days_per_wound`` days; K-points
    come back ``campaign.k_points_per_day`` a day up to the maximum
    (``heal_days_per_wound`` 0: every wound heals once he is awake). The dead
    and the missing do not change (days out still count for the missing)."""
    if days <= 0:
        return p
    if p.dead:
        return p
    unfit_before = fit_in(p, opts)
    if p.missing:
        return replace(p, days_out=p.days_out + days)
    wounds, conscious, progress = p.wounds, p.conscious, p.rest_days
    per = opts.heal_days_per_wound
    left = days
    if not conscious:
        need = max(0, opts.wake_days - progress)
        if left < need:
            return replace(p, rest_days=progress + left, days_out=p.days_out + days,
                           k_points=_k(p, days, opts))
        left -= need
        conscious, progress = True, 0
    if wounds > 0:
        progress += left
        healed = wounds if per == 0 else min(wounds, progress // per)
        wounds -= healed
        progress = 0 if wounds == 0 else progress - healed * per
    else:
        progress = 0
    out = min(days, unfit_before)
    return replace(p, wounds=wounds, conscious=conscious, rest_days=progress,
                   k_points=_k(p, days, opts), days_out=p.days_out + out)


def _k(p: Person, days: int, opts: CampaignOptions) -> int:
    return min(p.k_points_max, p.k_points + max(0, opts.k_points_per_day) * days)
