"""R-7 ramming: target number, every modifier, legality; damage per RULES-NOTES D."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ka_tui.rules.air.units import AirUnit, Damage
from ka_tui.rules.air.aircraft import AircraftClass
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.core.options import AirOptions, RamSkillReading
from ka_tui.rules.air.ramming import ram, ram_damage, ram_target
from ka_tui.rules.core.target import Finalizer

from .air_combat_fixtures import unit

OPT = AirOptions()
H = AircraftClass.HEAVY_FIGHTER  # no class modifier either way


def base_pair() -> tuple[AirUnit, AirUnit]:
    a = unit("A", "blue", cls=H, moved=True, piloting=5)
    b = unit("B", "red", cls=H, moved=True, piloting=5)
    return a, b


def test_r7_base_is_six_with_equal_pilots() -> None:
    a, b = base_pair()
    t = ram_target(a, b, OPT)
    assert t.value == 6 and t.finalizer is Finalizer.NONE and "R-7" in t.render()


def test_r7_better_target_pilot_makes_it_harder() -> None:
    a, b = base_pair()
    b = replace(b, pilot=replace(b.pilot, piloting=3))  # ratings: lower is better
    assert ram_target(a, b, OPT).value == 8
    literal = replace(OPT, ram_skill_reading=RamSkillReading.LITERAL)
    assert ram_target(a, b, literal).value == 4


@pytest.mark.parametrize("cls,mod", [(AircraftClass.FIGHTER, 4), (AircraftClass.BOMBER, 2),
                                     (AircraftClass.LARGE, -3), (AircraftClass.ATTACK, 0)])
def test_r7_target_class_modifier(cls: AircraftClass, mod: int) -> None:
    a, b = base_pair()
    b = unit("B", "red", cls=cls, moved=True)
    assert ram_target(a, b, OPT).value == 6 + mod


def test_r7_target_is_fighter_plus_4() -> None:
    a, _ = base_pair()
    t = ram_target(a, unit("B", "red", moved=True), OPT)
    assert t.value == 10 and "+ 4 (target is a fighter, R-7)" in t.render()


@pytest.mark.parametrize("cls,mod", [(AircraftClass.FIGHTER, -2), (AircraftClass.BOMBER, -1),
                                     (AircraftClass.LARGE, 4), (AircraftClass.ATTACK, 0)])
def test_r7_attacker_class_modifier(cls: AircraftClass, mod: int) -> None:
    _, b = base_pair()
    a = unit("A", "blue", cls=cls, moved=True)
    assert ram_target(a, b, OPT).value == 6 + mod


def test_r7_target_cannot_spend_thrust_minus_2() -> None:
    a, b = base_pair()
    assert ram_target(a, replace(b, out_of_control=True), OPT).value == 4
    assert ram_target(a, replace(b, fuel=0), OPT).value == 4  # engine out of fuel
    crippled = replace(b, damage=Damage(0, (("engine", b.profile.thrust),)))
    assert ram_target(a, crippled, OPT).value == 4


def test_r7_attacker_wounds_plus_1_each() -> None:
    a, b = base_pair()
    a = replace(a, pilot=replace(a.pilot, wounds=2))
    assert ram_target(a, b, OPT).value == 8


def test_r7_attacker_control_surfaces_plus_1_per_point() -> None:
    a, b = base_pair()
    a = replace(a, damage=Damage(0, (("control_surfaces", 2),)))
    assert ram_target(a, b, OPT).value == 8


def test_r7_needs_same_hex_and_both_moved() -> None:
    a, b = base_pair()
    assert "same hex" in ram(a, replace(b, hex=b.hex.neighbour(0)), ScriptedDice.of([]),
                             OPT)[2].problems[0]
    assert "already have moved" in ram(a, replace(b, moved=False), ScriptedDice.of([]),
                                       OPT)[2].problems[0]
    assert "must have moved" in ram(replace(a, moved=False), b, ScriptedDice.of([]),
                                    OPT)[2].problems[0]
    t = ram_target(replace(a, moved=False), b, OPT)
    assert t.finalizer is Finalizer.IMPOSSIBLE


def test_r7_ram_success_damages_both_sides() -> None:
    a, b = base_pair()
    a, b = replace(a, speed=8), replace(b, speed=5)
    # 3 + 2 = 5 hits each; roll 3+3 vs 6 succeeds; 5 locations for B, 5 for A
    assert ram_damage(a, b, OPT) == (5, 5)
    big = {"hull": 20}
    a = replace(a, profile=replace(a.profile, **big))
    b = replace(b, profile=replace(b.profile, **big))
    dice = ScriptedDice.of([3, 3] + [3, 4] * 10)
    a2, b2, res = ram(a, b, dice, OPT)
    assert res.success and dice.exhausted
    assert a2.pending_damage.hull_hits == 5 and b2.pending_damage.hull_hits == 5
    assert a2.shot  # the ram was its attack
    assert b2.pending_damage.at("engine") == 0  # ram hits are normal hits


def test_r7_failed_ram_does_nothing_but_use_the_attack() -> None:
    a, b = base_pair()
    a2, b2, res = ram(a, b, ScriptedDice.of([2, 3]), OPT)
    assert not res.success and b2 == b and a2.shot and a2.pending_damage == Damage()


def test_rules_notes_d_rammer_takes_at_least_min() -> None:
    a, b = base_pair()
    opts = replace(OPT, ram_damage_extra=0, ram_rammer_min=1)
    assert ram_damage(a, b, opts) == (1, 0)


# --- what the result says (mutation testing found these unchecked) ------------


def test_r7_successful_ram_result_records_both_reports_and_normal_hits() -> None:
    """R-7 / RULES-NOTES D: a ram's hits are normal hits (no critical effects)."""
    a, b = base_pair()
    a, b = replace(a, speed=7), replace(b, speed=5)
    big = {"hull": 20}
    a = replace(a, profile=replace(a.profile, **big))
    b = replace(b, profile=replace(b.profile, **big))
    a2, b2, res = ram(a, b, ScriptedDice.of([3, 3] + [3, 4] * 8), OPT)
    assert (res.attacker_id, res.target_id, res.legal, res.success, res.problems) == (
        "A", "B", True, True, ())
    assert res.check is not None and res.check.faces == (3, 3) and res.check.success
    assert res.target_damage is not None and res.attacker_damage is not None
    assert (res.target_damage.unit_id, res.attacker_damage.unit_id) == ("B", "A")
    assert len(res.target_damage.hits) == len(res.attacker_damage.hits) == 4
    assert not any(h.critical for h in (*res.target_damage.hits, *res.attacker_damage.hits))
    assert res.target_damage.source == "rammed by A"
    assert res.attacker_damage.source == "ramming B"
    assert res.log[0] == res.check.render() and "RULES-NOTES D" in res.log[1]


def test_r7_missed_ram_result() -> None:
    a, b = base_pair()
    _, _, res = ram(a, b, ScriptedDice.of([2, 3]), OPT)
    assert (res.legal, res.success, res.problems) == (True, False, ())
    assert res.check is not None and res.check.faces == (2, 3)
    assert res.attacker_damage is None and res.target_damage is None
    assert res.log == (res.check.render(), "A misses the ram (R-7)")


def test_r7_refused_ram_result_names_the_first_problem() -> None:
    a, b = base_pair()
    a2, b2, res = ram(replace(a, moved=False), b, ScriptedDice.of([]), OPT)
    assert (res.legal, res.success, res.check) == (False, False, None)
    assert (res.attacker_id, res.target_id) == ("A", "B")
    assert res.log == (f"A cannot ram B: {res.problems[0]}",)
    assert (a2, b2) == (replace(a, moved=False), b)
    assert ram_target(replace(a, moved=False), b, OPT).finalizer_reason == res.problems[0]


@pytest.mark.parametrize("change,why", [
    (lambda a, b: (a, replace(b, id="A")), "cannot ram itself"),
    (lambda a, b: (a, replace(b, side="blue")), "same side"),
    (lambda a, b: (a, replace(b, destroyed=True)), "still be in the battle"),
    (lambda a, b: (replace(a, destroyed=True), b), "still be in the battle"),
    (lambda a, b: (replace(a, out_of_control=True), b), "out of control"),
    (lambda a, b: (a, replace(b, landed=True)), "in the air"),
    (lambda a, b: (replace(a, landed=True), b), "in the air"),
])
def test_r7_every_refusal_names_its_reason(change, why) -> None:  # type: ignore[no-untyped-def]
    """R-7 both in the battle and in the air; R-1.2 / R-5 an attacker in control."""
    a, b = change(*base_pair())
    problems = ram(a, b, ScriptedDice.of([]), OPT)[2].problems
    assert any(why in p for p in problems), problems
