"""Exact shot odds (RULES-NOTES D, S0 §Traits) agree with the dice."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.air.aircraft import AircraftClass, Trait
from ka_tui.rules.core.dice import RandomDice
from ka_tui.rules.core.options import AirOptions, RobustMode
from ka_tui.rules.air.shooting import shoot
from ka_tui.rules.air.shot_odds import firepower_counts, saves, shot_odds

from .air_combat_fixtures import unit

OPT = AirOptions()


def test_rules_notes_d_one_die_half_hits_one_sixth_critical() -> None:
    assert firepower_counts(1, 0, OPT) == {(0, 0): Fraction(1, 2), (1, 0): Fraction(1, 3),
                                           (0, 1): Fraction(1, 6)}


def test_s0_accuracy_rerolls_raise_the_hit_chance() -> None:
    plain = firepower_counts(1, 0, OPT)[(0, 0)]
    assert firepower_counts(1, 1, OPT)[(0, 0)] == plain * plain


def test_s0_bullet_dodger_saves() -> None:
    assert saves(1, 0, OPT) == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert saves(1, 1, OPT)[1] == Fraction(3, 4)


def test_rules_notes_d_distribution_sums_to_one_and_illegal_shot_is_zero() -> None:
    a, b = unit("A"), unit("B", "red", q=0, r=-2)
    odds = shot_odds(a, b, OPT)
    assert odds.legal and sum(odds.hull_hits.values()) == 1
    assert odds.hit == Fraction(33, 36)
    behind = replace(b, hex=a.hex.neighbour(3))
    assert not shot_odds(a, behind, OPT).legal


def _simulate(a: AirUnit, b: AirUnit, options: AirOptions, n: int, seed: int) -> float:
    dice = RandomDice(seed)
    total = 0
    for _ in range(n):
        _, b2, _ = shoot(a, b, dice, options)
        total += b2.pending_damage.hull_hits
    return total / n


CASES = [
    ("plain", (), (), AircraftClass.FIGHTER, OPT),
    ("accuracy+critical vs dodger", ((Trait.ACCURACY, 2), (Trait.CRITICAL, 1)),
     ((Trait.BULLET_DODGER, 1),), AircraftClass.FIGHTER, OPT),
    ("vs robust", (), ((Trait.ROBUST, 2),), AircraftClass.FIGHTER, OPT),
    ("light arms vs bulky robust", ((Trait.CRITICAL, 1),),
     ((Trait.BULKY, None), (Trait.ROBUST, 1)), AircraftClass.BOMBER,
     replace(OPT, bulky_light_arms_firepower=3)),
    ("robust location mode", (), ((Trait.ROBUST, 1),), AircraftClass.FIGHTER,
     replace(OPT, robust_mode=RobustMode.REROLL_LOCATION)),
]


@pytest.mark.parametrize("name,atraits,btraits,bcls,opts", CASES, ids=[c[0] for c in CASES])
def test_rules_notes_d_expected_hits_match_simulation(name: str, atraits: tuple,  # type: ignore[type-arg]
                                                      btraits: tuple, bcls: AircraftClass,  # type: ignore[type-arg]
                                                      opts: AirOptions) -> None:
    a = unit("A", traits=atraits, prof={"firepower": 4}, gunnery=6)
    b = unit("B", "red", q=0, r=-3, traits=btraits, cls=bcls, prof={"hull": 99, "evasion": 2})
    exact = float(shot_odds(a, b, opts).expected_hits)
    seen = _simulate(a, b, opts, 3000, seed=len(name))
    assert abs(seen - exact) < 0.08, (exact, seen)
