"""Exact odds of a shot before it is made (RULES-NOTES D, S0 §Traits), for the
tactical view: the chance to hit and the distribution of hull hits, with every
trait re-roll counted as ``shooting.shoot`` plays it.

Firepower and Evasion dice are at most a handful, so the distributions are
enumerated exactly as ``Fraction``s (multinomials over miss / hit / critical).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb, factorial

from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.air.aircraft import Trait
from ka_tui.rules.air.damage import destroyed_by_hull, under_control
from ka_tui.rules.air.evasive import WeaponKind
from ka_tui.rules.core.options import AccuracyMode, AirOptions, RobustMode
from ka_tui.rules.air.shooting import is_ground_attack, preview_shot
from ka_tui.rules.air.traits import RerollTarget, critical_upgrades, ignores, reroll_dice

Counts = tuple[int, int]   # (normal hits, critical hits)


def _faces(options: AirOptions) -> tuple[Fraction, Fraction, Fraction]:
    """One Firepower die: (miss, hit, critical)."""
    return _faces_of(options.firepower_hit_on, options.firepower_crit_on)


@cache
def _faces_of(hit_on: int, crit_on: int) -> tuple[Fraction, Fraction, Fraction]:
    crit = Fraction(max(0, 7 - crit_on), 6)
    hit = Fraction(max(0, crit_on - hit_on), 6)
    return 1 - hit - crit, hit, crit


@cache
def _multinomial(n: int, p: tuple[Fraction, Fraction, Fraction]) -> dict[tuple[int, int, int],
                                                                         Fraction]:
    out: dict[tuple[int, int, int], Fraction] = {}
    for m in range(n + 1):
        for h in range(n - m + 1):
            c = n - m - h
            ways = factorial(n) // (factorial(m) * factorial(h) * factorial(c))
            out[(m, h, c)] = ways * p[0] ** m * p[1] ** h * p[2] ** c
    return out


def firepower_counts(dice: int, accuracy: int, options: AirOptions) -> dict[Counts, Fraction]:
    """RULES-NOTES D Firepower d6 (4+ hit, 6 critical), then up to ``accuracy``
    missed dice re-rolled (S0 §Traits Accuracy)."""
    return dict(_firepower_counts(dice, accuracy, _faces(options)))


@cache
def _firepower_counts(dice: int, accuracy: int,
                      p: tuple[Fraction, Fraction, Fraction]) -> dict[Counts, Fraction]:
    out: dict[Counts, Fraction] = defaultdict(Fraction)
    for (m, h, c), pr in _multinomial(dice, p).items():
        for (_, h2, c2), pr2 in _multinomial(min(m, accuracy), p).items():
            out[(h + h2, c + c2)] += pr * pr2
    return dict(out)


def saves(dice: int, rerolls: int, options: AirOptions) -> dict[int, Fraction]:
    """RULES-NOTES D Evasion d6 (4+ cancels), then up to ``rerolls`` failed dice
    re-rolled (S0 §Traits Bullet dodger)."""
    return dict(_saves(dice, rerolls, options.evasion_cancel_on))


@cache
def _saves(dice: int, rerolls: int, cancel_on: int) -> dict[int, Fraction]:
    q = Fraction(max(0, 7 - cancel_on), 6)
    out: dict[int, Fraction] = defaultdict(Fraction)
    for s in range(dice + 1):
        p1 = comb(dice, s) * q ** s * (1 - q) ** (dice - s)
        again = min(dice - s, rerolls)
        for s2 in range(again + 1):
            out[s + s2] += p1 * comb(again, s2) * q ** s2 * (1 - q) ** (again - s2)
    return dict(out)


@dataclass(frozen=True)
class ShotOdds:
    legal: bool
    hit: Fraction                          # the to-hit roll (with any re-roll)
    hull_hits: dict[int, Fraction]         # over the whole shot, misses included
    critical: Fraction                     # chance of at least one critical hit
    destroy: Fraction                      # chance the target is destroyed

    @property
    def expected_hits(self) -> Fraction:
        return sum((n * p for n, p in self.hull_hits.items()), Fraction(0))

    def render(self) -> str:
        return (f"to hit {float(self.hit):.0%}; expected hull hits "
                f"{float(self.expected_hits):.2f}; a critical {float(self.critical):.0%}; "
                f"destroyed {float(self.destroy):.0%}")


def shot_odds(shooter: AirUnit, target: AirUnit, options: AirOptions,
              weapon: WeaponKind = WeaponKind.GUNS) -> ShotOdds:
    """Exact odds of ``shooting.shoot`` for this pair, no dice rolled."""
    preview = preview_shot(shooter, target, options, weapon)
    if not preview.legal:
        return ShotOdds(False, Fraction(0), {0: Fraction(1)}, Fraction(0), Fraction(0))
    p = preview.hit_probability
    rerolls_to_hit = (is_ground_attack(shooter, target) and shooter.profile.has_trait(
        Trait.ZERO_IN)) or (options.accuracy_mode is AccuracyMode.TO_HIT_ROLL
                            and shooter.profile.has_trait(Trait.ACCURACY))
    hit = p + (1 - p) * p if rerolls_to_hit else p
    after = _after_hit(shooter, target, options)
    hull: dict[int, Fraction] = defaultdict(Fraction)
    hull[0] += 1 - hit
    crit = destroy = Fraction(0)
    for (n, c), pr in after.items():
        hull[n + c] += hit * pr
        if c:
            crit += hit * pr
        if n + c and destroyed_by_hull(target, target.total_damage.hull_hits + n + c, options):
            destroy += hit * pr
    return ShotOdds(True, hit, dict(hull), crit, destroy)


def _after_hit(shooter: AirUnit, target: AirUnit, options: AirOptions) -> dict[Counts, Fraction]:
    """(normal, critical) hits that reach the target, given the to-hit roll succeeded."""
    accuracy = reroll_dice(shooter.profile, RerollTarget.FAILED_HITS) \
        if options.accuracy_mode is AccuracyMode.FIREPOWER_DICE else 0
    upgrades = critical_upgrades(shooter.profile, options.critical_default_count)
    no_crits = shooter.profile.firepower <= options.bulky_light_arms_firepower and \
        ignores(target.profile, "light arms")
    evasion = (target.profile.evasion, reroll_dice(target.profile, RerollTarget.EVASION)) \
        if under_control(target, options) else (0, 0)
    robust = reroll_dice(target.profile, RerollTarget.HIT_EFFECT) \
        if options.robust_mode is RobustMode.REROLL_HIT_DIE else 0
    return _hits_reaching(shooter.profile.firepower, accuracy, upgrades, no_crits, evasion,
                          robust, _faces(options), options.evasion_cancel_on)


@cache
def _hits_reaching(firepower: int, accuracy: int, upgrades: int, no_crits: bool,
                   evasion: tuple[int, int], robust: int,
                   faces: tuple[Fraction, Fraction, Fraction],
                   cancel_on: int) -> dict[Counts, Fraction]:
    out: dict[Counts, Fraction] = defaultdict(Fraction)
    save_odds = _saves(evasion[0], evasion[1], cancel_on)
    for (n, c), pr in _firepower_counts(firepower, accuracy, faces).items():
        u = min(n, upgrades)
        n, c = n - u, c + u
        if no_crits:
            n, c = n + c, 0
        if n + c == 0:
            out[(0, 0)] += pr
            continue
        for s, ps in save_odds.items():
            off_n = min(s, n)
            off_c = min(s - off_n, c)
            for counts, pr2 in _robust(n - off_n, c - off_c, robust, no_crits, faces).items():
                out[counts] += pr * ps * pr2
    return dict(out)


@cache
def _robust(n: int, c: int, count: int, no_crits: bool,
            faces: tuple[Fraction, Fraction, Fraction]) -> dict[Counts, Fraction]:
    """S0 §Traits Robust (reroll_hit_die): up to ``count`` hits, criticals first,
    re-rolled; each die independently misses, hits or (unless Bulky) crits."""
    rc = min(c, count)
    rn = min(n, count - rc)
    if n + c == 0 or rc + rn == 0:
        return {(n, c): Fraction(1)}
    out: dict[Counts, Fraction] = defaultdict(Fraction)
    for (_, h2, c2), pr in _multinomial(rc + rn, faces).items():
        if no_crits:
            h2, c2 = h2 + c2, 0
        out[(n - rn + h2, c - rc + c2)] += pr
    return dict(out)
