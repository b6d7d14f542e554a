"""R-8 evasive manoeuvres."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ka_tui.rules.air.aircraft import AircraftClass
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.air.evasive import (
    WeaponKind,
    attack_refusal,
    declare_evasive,
    evasive_modifier,
    evasive_target,
    may_evade,
)
from ka_tui.rules.core.options import AirOptions
from ka_tui.rules.air.ramming import ram_problems
from ka_tui.rules.air.shooting import preview_shot, shot_problems, to_hit_target
from ka_tui.rules.core.target import Finalizer

from .air_combat_fixtures import unit

OPT = AirOptions()


@pytest.mark.parametrize("cls,ok", [(AircraftClass.FIGHTER, True),
                                    (AircraftClass.HEAVY_FIGHTER, True),
                                    (AircraftClass.ATTACK, True), (AircraftClass.BOMBER, False)])
def test_r8_no_larger_than_an_attack_aircraft(cls: AircraftClass, ok: bool) -> None:
    u = unit("U", cls=cls)
    assert may_evade(u) is ok
    t = evasive_target(u)
    assert (t.finalizer is Finalizer.IMPOSSIBLE) is (not ok)


def test_r8_needs_a_piloting_check_with_shared_modifiers() -> None:
    u = unit("U", piloting=5, wounds=1)
    t = evasive_target(u)
    assert t.value == 6 and "R-8" in t.render()


def test_r8_success_evades_and_gives_up_the_attack() -> None:
    u2, res = declare_evasive(unit("U"), ScriptedDice.of([2, 3]), OPT)
    assert res.evading and u2.evading and not res.may_attack and "R-8" in u2.attack_forfeit
    assert res.check.faces == (2, 3) and "R-8" in res.log[0]


def test_r8_failed_check_no_evasion() -> None:
    u2, res = declare_evasive(unit("U"), ScriptedDice.of([1, 2]), OPT)
    assert not u2.evading and not res.may_attack
    target = unit("T", "red", q=0, r=-1)
    assert "tried an evasive manoeuvre" in preview_shot(u2, target, OPT).reason
    lenient = replace(OPT, failed_evasive_may_shoot=True)
    u3, res = declare_evasive(unit("U"), ScriptedDice.of([1, 2]), lenient)
    assert not u3.evading and not u3.attack_forfeit and res.may_attack
    assert preview_shot(u3, target, OPT).legal


@pytest.mark.parametrize("cls,mod", [(AircraftClass.FIGHTER, 3), (AircraftClass.HEAVY_FIGHTER, 2),
                                     (AircraftClass.ATTACK, 1)])
def test_r8_table_to_hit_difficulty(cls: AircraftClass, mod: int) -> None:
    assert evasive_modifier(unit("T", cls=cls, evading=True), WeaponKind.GUNS, OPT) == mod
    assert evasive_modifier(unit("T", cls=cls), WeaponKind.GUNS, OPT) == 0


def test_r8_large_ship_manoeuvre_counts_against_torpedoes_and_artillery_only() -> None:
    ship = unit("S", cls=AircraftClass.LARGE, evading=True)
    assert evasive_modifier(ship, WeaponKind.GUNS, OPT) == 0
    assert evasive_modifier(ship, WeaponKind.TORPEDO, OPT) == OPT.anti_torpedo_mod
    assert evasive_modifier(ship, WeaponKind.ARTILLERY, OPT) == OPT.anti_torpedo_mod
    a = unit("A")
    ship = replace(ship, hex=a.hex.neighbour(0))
    assert to_hit_target(a, ship, OPT, WeaponKind.TORPEDO).value == 4 + 2
    assert preview_shot(a, ship, OPT).target.value == 4


def test_r8_r1_2_one_refusal_for_shooting_and_ramming() -> None:
    """R-8: an evading aircraft may not attack; R-1.2: one attack a turn. Shots
    and rams give the same reason (one ``attack_refusal``)."""
    target = unit("B", "red", moved=True)
    cases = [
        (unit("A", moved=True), None),
        (unit("A", moved=True, evading=True),
         "A may not attack this turn: it is flying an evasive manoeuvre (R-8)"),
        (unit("A", moved=True, evading=True, attack_forfeit="its evasive check failed (R-8)"),
         "A may not attack this turn: its evasive check failed (R-8)"),
        (unit("A", moved=True, shot=True), "A has already attacked this turn (R-1.2)"),
        # a forfeit outranks the attack already made: one reason, not two
        (unit("A", moved=True, shot=True, evading=True),
         "A may not attack this turn: it is flying an evasive manoeuvre (R-8)"),
    ]
    for attacker, why in cases:
        assert attack_refusal(attacker) == why
        for problems in (shot_problems(attacker, target, OPT), ram_problems(attacker, target, OPT)):
            refusals = [p for p in problems if "attack" in p]
            assert refusals == ([why] if why else [])
