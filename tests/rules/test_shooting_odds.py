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


class _Faces:
    """The faces given, then 4s (hit locations: 2d6 4+4 = fuselage)."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces = list(faces)

    def roll(self, sides: int) -> int:
        return self.faces.pop(0) if self.faces else 4


def test_rules_notes_d_evasion_cancels_normal_hits_first_engine_and_odds_agree() -> None:
    """RULES-NOTES D: "the target rolls Evasion d6: each 4+ cancels one hit
    (normal hits first)". Firepower 3 against Evasion 2 at range 1 (to hit
    2d6 >= 4: 33/36): the chance of at least one critical reaching the target
    is 1309/5184. The engine (``shoot``, every Firepower and Evasion face
    enumerated) and the odds agree on it and on the whole distribution of
    (normal, critical) hits -- not only on the mean."""
    from itertools import product

    a = unit("A", prof={"firepower": 3})
    b = unit("B", "red", q=0, r=-1, prof={"evasion": 2, "hull": 99})
    odds = shot_odds(a, b, OPT)
    assert odds.hit == Fraction(33, 36) and odds.critical == Fraction(1309, 5184)
    seen: dict[tuple[int, int], Fraction] = {}
    for faces in product(range(1, 7), repeat=5):        # 3 Firepower, then 2 Evasion
        _, _, res = shoot(a, b, _Faces((6, 6, *faces)), OPT)
        key = (res.normal_hits, res.critical_hits)
        seen[key] = seen.get(key, Fraction(0)) + Fraction(1, 6 ** 5)
    for total in range(2, 13):                          # the to-hit roll alone
        _, _, res = shoot(a, b, _Faces((1, total - 1) if total <= 7 else (6, total - 6)), OPT)
        assert res.hit is (total >= 4)
    engine_critical = odds.hit * sum((p for (n, c), p in seen.items() if c), Fraction(0))
    assert engine_critical == odds.critical
    hull: dict[int, Fraction] = {0: 1 - odds.hit}
    for (n, c), p in seen.items():
        hull[n + c] = hull.get(n + c, Fraction(0)) + odds.hit * p
    assert hull == odds.hull_hits
