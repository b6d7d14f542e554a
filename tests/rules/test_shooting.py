"""Shooting: RULES-NOTES D, S0 §Altitude and combat, S0 §Traits, R-2, R-8, R-1.3."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from ka_tui.rules.air.units import AirUnit, Damage
from ka_tui.rules.air.aircraft import AircraftClass, Trait
from ka_tui.rules.air.damage import bring_into_effect
from ka_tui.rules.core.dice import DiceError, ScriptedDice
from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.core.options import AccuracyMode, AirOptions, RobustMode
from ka_tui.rules.air.shooting import in_fire_arc, preview_shot, range_band, shoot, to_hit_target
from ka_tui.rules.core.target import Finalizer

from .air_combat_fixtures import unit

OPT = AirOptions()


def pair(dist: int = 1, **target_kw: Any) -> tuple[AirUnit, AirUnit]:
    a = unit("A", "blue", q=0, r=0, facing=0)
    b = unit("B", "red", q=0, r=-dist, facing=3, **target_kw)
    return a, b


def test_s0_same_altitude_only() -> None:
    a, b = pair(altitude=3)
    dice = ScriptedDice.of([])
    a2, b2, res = shoot(a, b, dice, OPT)
    assert not res.legal and "same altitude" in res.problems[0] and "S0" in res.problems[0]
    assert (a2, b2) == (a, b)
    assert to_hit_target(a, b, OPT).finalizer is Finalizer.IMPOSSIBLE


def test_s0_same_altitude_option_off_allows_shot() -> None:
    a, b = pair(altitude=3)
    assert preview_shot(a, b, replace(OPT, same_altitude_only=False)).legal


@pytest.mark.parametrize("dist,mod", [(0, 0), (1, 0), (2, 0), (3, 1), (4, 1), (5, 2), (6, 2)])
def test_rules_notes_d_range_band_modifier(dist: int, mod: int) -> None:
    a, b = pair(dist)
    t = to_hit_target(a, b, OPT)
    assert t.value == 4 + mod and t.finalizer is Finalizer.NONE


def test_rules_notes_d_range_bands_two_hexes_each() -> None:
    assert [range_band(d, OPT) for d in range(0, 9)] == [1, 1, 1, 2, 2, 3, 3, 4, 4]


def test_s0_beyond_range_3_needs_long_range() -> None:
    a, b = pair(7)
    p = preview_shot(a, b, OPT)
    assert not p.legal and "Long range" in p.reason
    a_lr = unit("A", traits=((Trait.LONG_RANGE, None),))
    p = preview_shot(a_lr, b, OPT)
    assert p.legal and p.target.value == 4 + 4
    assert "Long range" in p.target.render()


def test_s0_long_range_has_a_longest_band() -> None:
    """S0 §Traits Long range, house rule long_range_max_band: refused for that reason."""
    a = unit("A", traits=((Trait.LONG_RANGE, None),))
    b = unit("B", "red", q=0, r=-9)
    p = preview_shot(a, b, OPT)
    assert not p.legal
    assert p.reason == ("B is at range 5, beyond the longest range 4 "
                        "(house rule long_range_max_band)")
    assert preview_shot(a, b, replace(OPT, long_range_max_band=5)).legal


@pytest.mark.parametrize("cls,mod", [(AircraftClass.FIGHTER, 3), (AircraftClass.HEAVY_FIGHTER, 2),
                                     (AircraftClass.ATTACK, 1), (AircraftClass.BOMBER, 0)])
def test_r8_evading_target_is_harder_to_hit(cls: AircraftClass, mod: int) -> None:
    a, b = pair(1, cls=cls, evading=True)
    t = to_hit_target(a, b, OPT)
    assert t.value == 4 + mod
    if mod:
        assert "R-8" in t.render()


def test_r8_evading_aircraft_may_not_attack() -> None:
    a, b = pair()
    a = replace(a, evading=True)
    _, _, res = shoot(a, b, ScriptedDice.of([]), OPT)
    assert not res.legal and "R-8" in res.problems[0]


def test_rules_notes_d_own_wounds_and_control_damage_modify_to_hit() -> None:
    a, b = pair()
    a = unit("A", wounds=2, damage=Damage(0, (("control_surfaces", 1),)))
    t = to_hit_target(a, b, OPT)
    assert t.value == 4 + 2 + 1


def test_r1_3_pending_control_damage_not_yet_in_effect() -> None:
    a, b = pair()
    a = unit("A", pending_damage=Damage(0, (("control_surfaces", 1),)))
    assert to_hit_target(a, b, OPT).value == 4
    assert to_hit_target(bring_into_effect(a), b, OPT).value == 5


def test_rules_notes_d_hit_firepower_evasion_and_location() -> None:
    a, b = pair()
    # to hit 2+2=4 vs 4; Firepower 4 6 1 -> 1 hit, 1 critical; Evasion 4 2 cancels the
    # normal hit; the critical rolls location 3+4=7 fuselage.
    dice = ScriptedDice.of([2, 2, 4, 6, 1, 4, 2, 3, 4])
    a2, b2, res = shoot(a, b, dice, OPT)
    assert dice.exhausted
    assert res.hit and res.firepower == (4, 6, 1) and res.evasion == (4, 2)
    assert (res.normal_hits, res.critical_hits, res.cancelled) == (0, 1, 1)
    assert b2.pending_damage.hull_hits == 1 and b2.damage == Damage()
    assert b2.pending_damage.hits_at("fuselage") == 1
    assert a2.shot and a2.ammo == a.ammo - 1
    assert "4 (gunnery A-pilot, R-2)" in res.log[1]


def test_rules_notes_d_evasion_cancels_normal_hits_first() -> None:
    a, b = pair()
    # hit; FP 4 6 6 -> 1 normal 2 crits; Evasion 5 5 -> cancels the normal then one crit.
    # The critical lands 1+1 = 2: cockpit, the pilot is wounded and rolls 6+6.
    dice = ScriptedDice.of([6, 6, 4, 6, 6, 5, 5, 1, 1, 6, 6])
    _, b2, res = shoot(a, b, dice, OPT)
    assert (res.normal_hits, res.critical_hits, res.cancelled) == (0, 1, 2)
    assert b2.pending_damage.at("cockpit") == 1
    assert b2.pilot.wounds == 1 and b2.pilot.conscious and dice.exhausted


def test_rules_notes_d_miss_rolls_nothing_more() -> None:
    a, b = pair()
    dice = ScriptedDice.of([1, 2])
    a2, b2, res = shoot(a, b, dice, OPT)
    assert not res.hit and b2 == b and a2.shot and dice.exhausted


def test_r1_2_second_attack_in_a_turn_refused() -> None:
    a, b = pair()
    a2, _, _ = shoot(a, b, ScriptedDice.of([1, 1]), OPT)
    _, _, res = shoot(a2, b, ScriptedDice.of([]), OPT)
    assert not res.legal and "already attacked" in res.problems[0]


def test_r1_4_no_ammunition_no_shot() -> None:
    a, b = pair()
    _, _, res = shoot(replace(a, ammo=0), b, ScriptedDice.of([]), OPT)
    assert not res.legal and "ammunition" in res.problems[0]


def test_s0_accuracy_rerolls_failed_firepower_dice() -> None:
    a = unit("A", traits=((Trait.ACCURACY, 1),))
    _, b = pair()
    # hit 3+3; FP 1 2 5: Accuracy 1 re-rolls the first miss -> 6; Evasion 1 1; loc 4+4.
    dice = ScriptedDice.of([3, 3, 1, 2, 5, 6, 1, 1, 4, 4, 3, 3])
    _, b2, res = shoot(a, b, dice, OPT)
    assert res.firepower == (6, 2, 5)
    assert [(c.before, c.after) for c in res.rerolls] == [(1, 6)]
    assert (res.normal_hits, res.critical_hits) == (1, 1)
    assert b2.pending_damage.hull_hits == 2
    assert dice.exhausted


def test_s0_accuracy_to_hit_mode_rerolls_the_failed_hit() -> None:
    a = unit("A", traits=((Trait.ACCURACY, 1),))
    _, b = pair()
    opts = replace(OPT, accuracy_mode=AccuracyMode.TO_HIT_ROLL)
    dice = ScriptedDice.of([1, 1, 2, 2, 1, 1, 1])  # miss, re-roll hits, FP all miss
    _, _, res = shoot(a, b, dice, opts)
    assert len(res.checks) == 2 and res.hit and res.firepower == (1, 1, 1)


def test_s0_bullet_dodger_rerolls_failed_evasion_dice() -> None:
    a, _ = pair()
    b = unit("B", "red", q=0, r=-1, traits=((Trait.BULLET_DODGER, 2),))
    # hit; FP 4 4 1; Evasion 1 2 -> re-rolled 4 5 -> both hits cancelled.
    dice = ScriptedDice.of([4, 4, 4, 4, 1, 1, 2, 4, 5])
    _, b2, res = shoot(a, b, dice, OPT)
    assert res.evasion == (4, 5) and res.cancelled == 2 and b2 == b


def test_s0_critical_turns_normal_hit_into_critical() -> None:
    a = unit("A", traits=((Trait.CRITICAL, None),))
    _, b = pair()
    # FP 4 5 1: two normal, Critical (default 1) upgrades one; Evasion 1 1; locations.
    dice = ScriptedDice.of([4, 4, 4, 5, 1, 1, 1, 3, 3, 4, 4])
    _, b2, res = shoot(a, b, dice, OPT)
    assert (res.normal_hits, res.critical_hits) == (1, 1)
    assert b2.pending_damage.at("left_wing") == 0 and b2.pending_damage.hull_hits == 2
    assert any("Critical turns 1" in line for line in res.log)


def test_s0_bulky_ignores_criticals_of_light_arms() -> None:
    a = unit("A", prof={"firepower": 2})
    b = unit("B", "red", q=0, r=-1, cls=AircraftClass.BOMBER, traits=((Trait.BULKY, None),))
    dice = ScriptedDice.of([4, 4, 6, 6, 1, 1, 1, 1, 1, 1, 1])
    _, b2, res = shoot(a, b, dice, OPT)
    assert (res.normal_hits, res.critical_hits) == (2, 0)
    assert b2.pilot.wounds == 0 and b2.pending_damage.at("cockpit") == 0
    assert b2.pending_damage.hits_at("cockpit") == 2  # the hits still landed there


def test_s0_bulky_does_not_ignore_heavy_arms() -> None:
    a = unit("A", prof={"firepower": 3})
    b = unit("B", "red", q=0, r=-1, cls=AircraftClass.BOMBER, traits=((Trait.BULKY, None),))
    dice = ScriptedDice.of([4, 4, 6, 1, 1, 1, 1, 3, 4])
    _, _, res = shoot(a, b, dice, OPT)
    assert res.critical_hits == 1


def test_s0_robust_rerolls_the_hit_die() -> None:
    a, _ = pair()
    b = unit("B", "red", q=0, r=-1, traits=((Trait.ROBUST, 1),))
    # FP 6 4 1 -> crit + normal; Evasion 1 1; Robust re-rolls the crit's die: 2 -> gone.
    dice = ScriptedDice.of([4, 4, 6, 4, 1, 1, 1, 2, 3, 4])
    _, b2, res = shoot(a, b, dice, OPT)
    assert (res.normal_hits, res.critical_hits) == (1, 0)
    assert b2.pending_damage.hull_hits == 1 and dice.exhausted


@pytest.mark.parametrize(("firepower", "new", "hits", "verdict"), [
    # S0 §Traits Robust: the die behind a hit (criticals first) is rolled again
    # and the new face decides, on each side of air.firepower_crit_on (6) and
    # air.firepower_hit_on (4): (normal, critical) left after the re-roll.
    ((6, 4, 1), 6, (1, 1), "critical"),   # the critical's die: 6 stays critical
    ((6, 4, 1), 5, (2, 0), "hit"),        # 5: one under crit_on, a normal hit
    ((6, 4, 1), 4, (2, 0), "hit"),        # 4 = hit_on: still a hit
    ((6, 4, 1), 3, (1, 0), "miss"),       # 3: one under hit_on, gone
    ((4, 1, 1), 6, (0, 1), "critical"),   # a normal hit's die re-rolled to a critical
    ((4, 1, 1), 3, (0, 0), "miss"),
])
def test_s0_robust_reroll_each_side_of_the_hit_and_critical_faces(
        firepower: tuple[int, ...], new: int, hits: tuple[int, int], verdict: str) -> None:
    a, _ = pair()
    b = unit("B", "red", q=0, r=-1, traits=((Trait.ROBUST, 1),))
    # to hit 4+4; Firepower; Evasion 1 1; the Robust re-roll; then location dice
    dice = ScriptedDice.of([4, 4, *firepower, 1, 1, new, 3, 4, 3, 4, 3, 4])
    _, _, res = shoot(a, b, dice, OPT)
    assert (res.normal_hits, res.critical_hits) == hits
    assert [(c.before, c.after) for c in res.rerolls] == [(0, new)]
    kind = "critical" if firepower[0] == 6 else "normal"
    assert any(f"B is Robust: re-rolls a {kind} hit's die: {new} → {verdict} (S0 §Traits)"
               in line for line in res.log)


def test_s0_robust_on_a_bulky_target_gives_no_critical_from_light_arms() -> None:
    """S0 §Traits Bulky + Robust: a re-rolled 6 from light arms is a normal hit."""
    a = unit("A", prof={"firepower": OPT.bulky_light_arms_firepower})
    b = unit("B", "red", q=0, r=-1, cls=AircraftClass.BOMBER,
             traits=((Trait.ROBUST, 1), (Trait.BULKY, None)))
    # to hit 4+4; Firepower 4 then 1s (one normal hit); Evasion 1 1; re-roll 6
    dice = ScriptedDice.of([4, 4, 4, *[1] * (OPT.bulky_light_arms_firepower - 1), 1, 1, 6,
                            3, 4, 3, 4])
    _, _, res = shoot(a, b, dice, OPT)
    assert (res.normal_hits, res.critical_hits) == (1, 0)


def test_s0_robust_location_mode_rerolls_critical_location() -> None:
    a, _ = pair()
    b = unit("B", "red", q=0, r=-1, traits=((Trait.ROBUST, 1),))
    opts = replace(OPT, robust_mode=RobustMode.REROLL_LOCATION)
    # FP 6 1 1; Evasion 1 1; location 2+1 = 3 engine, re-rolled 3+4 = 7 fuselage.
    dice = ScriptedDice.of([4, 4, 6, 1, 1, 1, 1, 2, 1, 3, 4])
    _, b2, res = shoot(a, b, dice, opts)
    assert b2.pending_damage.at("engine") == 0 and b2.pending_damage.at("fuselage") == 1
    assert res.damage is not None and res.damage.hits[0].rerolled_from == "engine"


def test_s0_zero_in_rerolls_ground_attack_accuracy() -> None:
    a = unit("A", altitude=1, traits=((Trait.ZERO_IN, 1),))
    b = unit("B", "red", q=0, r=-1, altitude=0, landed=True)
    dice = ScriptedDice.of([1, 1, 3, 3, 1, 1, 1])
    _, _, res = shoot(a, b, dice, OPT)
    assert len(res.checks) == 2 and res.hit
    a_plain = unit("A", altitude=1)
    _, _, res = shoot(a_plain, b, ScriptedDice.of([1, 1]), OPT)
    assert len(res.checks) == 1 and not res.hit


def test_fire_arc_front_only_by_default() -> None:
    """RULES-NOTES D shooting, option air.fire_arc_degrees (forward arc, 120° by default)."""
    a = unit("A", facing=0)
    assert in_fire_arc(a, Hex(0, -3), OPT)           # straight ahead
    assert in_fire_arc(a, Hex(1, -1), OPT)           # front-right neighbour
    assert not in_fire_arc(a, Hex(0, 2), OPT)        # behind
    assert not in_fire_arc(a, Hex(1, 0), OPT)        # rear-right
    assert in_fire_arc(a, Hex(0, 2), replace(OPT, fire_arc_degrees=360))
    assert not in_fire_arc(a, Hex(0, 2), replace(OPT, fire_arc_degrees=359))
    b = unit("B", "red", q=0, r=2)
    assert "arc" in preview_shot(a, b, OPT).reason


@pytest.mark.parametrize(("degrees", "target", "inside"), [
    # RULES-NOTES D, air.fire_arc_degrees: the angle between the facing and the
    # target (facing 0: the hex two along at 30°, the front-right neighbour at
    # 60°, two right and one up at 90°, the rear-right neighbour at 120°,
    # straight behind at 180°); an arc takes half its degrees on each side.
    (60, Hex(1, -2), True), (58, Hex(1, -2), False),      # 30°
    (120, Hex(1, -1), True), (118, Hex(1, -1), False),    # 60°
    (180, Hex(2, -1), True), (178, Hex(2, -1), False),    # 90°
    (240, Hex(1, 0), True), (238, Hex(1, 0), False),      # 120°
    (359, Hex(0, 2), False), (2, Hex(0, -3), True),       # 180°; straight ahead
])
def test_fire_arc_edges(degrees: int, target: Hex, inside: bool) -> None:
    a = unit("A", facing=0)
    assert in_fire_arc(a, target, replace(OPT, fire_arc_degrees=degrees)) is inside


def test_r5_out_of_control_target_rolls_no_evasion() -> None:
    a, _ = pair()
    b = unit("B", "red", q=0, r=-1, conscious=False)
    dice = ScriptedDice.of([4, 4, 4, 1, 1, 3, 4])
    _, _, res = shoot(a, b, dice, OPT)
    assert res.evasion == () and res.normal_hits == 1


def test_r2_preview_gives_exact_odds_without_rolling() -> None:
    a, b = pair(3)
    p = preview_shot(a, b, OPT)
    assert p.legal and p.target.value == 5 and p.hit_probability == Fraction(30, 36)


def test_rules_notes_d_scripted_dice_must_fit() -> None:
    a, b = pair()
    with pytest.raises(DiceError):
        shoot(a, b, ScriptedDice.of([4]), OPT)


def test_friendly_fire_refused_by_default() -> None:
    """RULES-NOTES D shooting, option air.friendly_fire (off by default)."""
    a, b = pair()
    friend = replace(b, side="blue")
    assert "side" in preview_shot(a, friend, OPT).reason
    assert preview_shot(a, friend, replace(OPT, friendly_fire=True)).legal


def test_an_illegal_and_a_missed_shot_report_nothing_rolled_after_them() -> None:
    """R-2 / RULES-NOTES D: a refused shot rolls nothing; a missed one stops
    after its to-hit check. Each result names both aircraft and holds no
    Firepower, Evasion, re-roll, hit count or damage."""
    a, b = pair()
    far = unit("B", "red", q=0, r=-40)
    _, _, refused = shoot(a, far, ScriptedDice.of([]), OPT)
    assert (refused.shooter_id, refused.target_id, refused.legal, refused.checks,
            refused.hit, refused.firepower, refused.evasion, refused.rerolls,
            refused.normal_hits, refused.critical_hits, refused.cancelled,
            refused.damage) == ("A", "B", False, (), False, (), (), (), 0, 0, 0, None)
    assert refused.problems and refused.log
    _, _, missed = shoot(a, b, ScriptedDice.of([1, 1]), OPT)
    assert (missed.shooter_id, missed.target_id, missed.legal, missed.problems,
            len(missed.checks), missed.hit, missed.firepower, missed.evasion,
            missed.rerolls, missed.normal_hits, missed.critical_hits, missed.cancelled,
            missed.damage) == ("A", "B", True, (), 1, False, (), (), (), 0, 0, 0, None)
