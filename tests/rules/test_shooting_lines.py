"""A shot as the GM reads it (RULES-NOTES D shooting, S0 §Traits re-rolls,
R-2 to hit, R-5 out of control): every line of the log, every field of the
result, and every reason a shot cannot be made."""

from __future__ import annotations

from dataclasses import replace

from ka_tui.rules.air.aircraft import AircraftClass, Trait
from ka_tui.rules.air.shooting import (
    DieChange, in_fire_arc, preview_shot, range_band, shoot, shot_problems, to_hit_target,
)
from ka_tui.rules.air.units import Damage
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.core.options import AccuracyMode, AirOptions
from ka_tui.rules.core.target import Finalizer

from .air_combat_fixtures import unit

OPT = AirOptions()


def test_s0_traits_accuracy_critical_bullet_dodger_robust_line_by_line() -> None:
    """Accuracy re-rolls the miss, Critical upgrades a hit, Evasion cancels the
    normal hits first (Bullet dodger re-rolls its 1), Robust re-rolls a
    critical's die; two criticals land on the fuselage."""
    a = unit("A", traits=((Trait.ACCURACY, 1), (Trait.CRITICAL, 1)), prof={"firepower": 4})
    b = unit("B", "red", q=0, r=-1, traits=((Trait.BULLET_DODGER, 1), (Trait.ROBUST, 1)),
             prof={"hull": 99, "evasion": 2})
    dice = ScriptedDice.of([6, 6, 5, 3, 6, 4, 5, 1, 5, 4, 6, 3, 3, 4, 4])
    a2, b2, res = shoot(a, b, dice, OPT)
    assert dice.exhausted
    assert res.log == (
        "A shoots at B (RULES-NOTES D)",
        "A to hit B (R-2): 2d6 6+6 = 12 vs 4 (gunnery A-pilot, R-2) → success (margin +8)",
        "Firepower 4d6: 5 3 6 4 (4+ hit, 6 critical; RULES-NOTES D)",
        "Accuracy re-rolls 1 failed hit(s): now 5 5 6 4 (S0 §Traits)",
        "Critical turns 1 normal hit(s) into critical hit(s) (S0 §Traits)",
        "2 hit(s), 2 critical(s)",
        "B Evasion 2d6: 1 5 (4+ cancels a hit; RULES-NOTES D)",
        "Bullet dodger re-rolls 1 Evasion die/dice: now 4 5 (S0 §Traits)",
        "Evasion cancels 2 hit(s) and 0 critical(s)",
        "B is Robust: re-rolls a critical hit's die: 6 → critical (S0 §Traits)",
        "B: critical hit → fuselage (2d6 3+3): no further effect (shot by A, RULES-NOTES D)",
        "B: critical hit → fuselage (2d6 4+4): no further effect (shot by A, RULES-NOTES D)")
    assert (res.shooter_id, res.target_id, res.legal, res.problems, res.hit) == (
        "A", "B", True, (), True)
    assert (res.firepower, res.evasion) == ((5, 5, 6, 4), (4, 5))
    assert res.rerolls == (DieChange(1, 3, 5, "Accuracy (S0 §Traits)"),
                           DieChange(0, 1, 4, "Bullet dodger (S0 §Traits)"),
                           DieChange(0, 0, 6, "Robust (S0 §Traits)"))
    assert (res.normal_hits, res.critical_hits, res.cancelled) == (0, 2, 2)
    assert res.damage is not None and res.damage.hull_hits == 2
    assert b2.pending_damage.hull_hits == 2 and a2.shot and a2.ammo == a.ammo - 1


def test_s0_traits_zero_in_and_bulky_against_light_arms_and_a_target_out_of_control() -> None:
    """Zero-in re-rolls the failed to-hit of a ground attack (Deck at a target on
    the ground); Bulky takes no criticals from light arms (Firepower 2); a
    target out of control rolls no Evasion (R-5)."""
    a = unit("A", traits=((Trait.ZERO_IN, 1),), prof={"firepower": 2}, gunnery=6, altitude=1)
    b = unit("B", "red", q=0, r=-1, cls=AircraftClass.BOMBER, traits=((Trait.BULKY, None),),
             prof={"hull": 99, "evasion": 2}, altitude=0, conscious=False)
    _, _, res = shoot(a, b, ScriptedDice.of([1, 2, 3, 3, 6, 6, 3, 3, 4, 4]), OPT)
    assert res.log == (
        "A shoots at B (RULES-NOTES D)",
        "A to hit B (R-2): 2d6 1+2 = 3 vs 6 (gunnery A-pilot, R-2) → failure (margin -3)",
        "Zero-in re-rolls the accuracy of a ground attack (S0 §Traits)",
        "A to hit B (R-2) re-roll: 2d6 3+3 = 6 vs 6 (gunnery A-pilot, R-2) → success "
        "(margin +0)",
        "Firepower 2d6: 6 6 (4+ hit, 6 critical; RULES-NOTES D)",
        "B is Bulky: light arms (Firepower 2) make no critical hits on it (S0 §Traits, house "
        "rule bulky_light_arms_firepower)",
        "2 hit(s), 0 critical(s)",
        "B is out of control: no Evasion dice (R-5)",
        "B: hit → fuselage (2d6 3+3) (shot by A, RULES-NOTES D)",
        "B: hit → fuselage (2d6 4+4) (shot by A, RULES-NOTES D)")
    assert [c.success for c in res.checks] == [False, True] and res.evasion == ()


def test_zero_in_is_for_a_ground_attack_only() -> None:
    """S0 §Traits Zero-in "re-roll accuracy of ground attack": at another
    aircraft on the Deck, a failed to-hit stays failed."""
    a = unit("A", traits=((Trait.ZERO_IN, 1),), gunnery=6, altitude=1)
    b = unit("B", "red", q=0, r=-1, altitude=1)
    _, _, res = shoot(a, b, ScriptedDice.of([1, 2]), OPT)
    assert len(res.checks) == 1 and res.log[-1] == "A misses"


def test_a_miss_a_shot_with_no_hits_and_the_to_hit_roll_accuracy() -> None:
    _, b2, miss = shoot(unit("M"), unit("N", "red", q=0, r=-1), ScriptedDice.of([1, 1]), OPT)
    assert miss.log == ("M shoots at N (RULES-NOTES D)",
                        "M to hit N (R-2): 2d6 1+1 = 2 vs 4 (gunnery M-pilot, R-2) → failure "
                        "(margin -2)", "M misses")
    assert (miss.hit, miss.cancelled, miss.damage, miss.firepower) == (False, 0, None, ())
    to_hit = replace(OPT, accuracy_mode=AccuracyMode.TO_HIT_ROLL)
    x = unit("X", traits=((Trait.ACCURACY, 1),))
    _, _, acc = shoot(x, unit("Y", "red", q=0, r=-1), ScriptedDice.of([1, 1, 6, 6, 1, 1, 1]),
                      to_hit)
    assert acc.log == (
        "X shoots at Y (RULES-NOTES D)",
        "X to hit Y (R-2): 2d6 1+1 = 2 vs 4 (gunnery X-pilot, R-2) → failure (margin -2)",
        "Accuracy re-rolls the failed hit (S0 §Traits, house rule accuracy_mode)",
        "X to hit Y (R-2) re-roll: 2d6 6+6 = 12 vs 4 (gunnery X-pilot, R-2) → success "
        "(margin +8)",
        "Firepower 3d6: 1 1 1 (4+ hit, 6 critical; RULES-NOTES D)",
        "0 hit(s), 0 critical(s)",
        "Y takes no damage")
    assert (acc.cancelled, acc.damage, acc.evasion) == (0, None, ())


def test_evasion_0_rolls_no_die_and_an_out_of_control_target_takes_hits_and_crits() -> None:
    b = unit("B", "red", q=0, r=-1, prof={"hull": 99, "evasion": 0})
    dice = ScriptedDice.of([6, 6, 5, 1, 1, 3, 3])
    _, _, res = shoot(unit("A", prof={"firepower": 3}), b, dice, OPT)
    assert res.evasion == () and dice.exhausted and "Evasion 0d6: none" in " ".join(res.log)
    out = unit("C", "red", q=0, r=-1, prof={"hull": 99}, conscious=False)
    _, _, both = shoot(unit("A", prof={"firepower": 2}), out,
                       ScriptedDice.of([6, 6, 5, 6, 3, 3, 4, 4]), OPT)
    assert "C is out of control: no Evasion dice (R-5)" in both.log


def test_robust_rerolls_a_critical_that_crits_again_keep_both() -> None:
    """S0 §Traits Robust re-rolls one critical's die; a 6 again is still a
    critical: two criticals stay two."""
    b = unit("B", "red", q=0, r=-1, traits=((Trait.ROBUST, 1),), prof={"hull": 99, "evasion": 0})
    _, _, res = shoot(unit("A", prof={"firepower": 2}), b,
                      ScriptedDice.of([6, 6, 6, 6, 6, 3, 3, 4, 4]), OPT)
    assert (res.normal_hits, res.critical_hits) == (0, 2)


def test_critical_without_a_number_upgrades_critical_default_count_hits() -> None:
    a = unit("A", traits=((Trait.CRITICAL, None),), prof={"firepower": 3})
    b = unit("B", "red", q=0, r=-1, prof={"hull": 99, "evasion": 0})
    faces = [6, 6, 4, 4, 4, 3, 3, 3, 3, 3, 3]
    _, _, one = shoot(a, b, ScriptedDice.of(faces), OPT)
    _, _, two = shoot(a, b, ScriptedDice.of(faces), replace(OPT, critical_default_count=2))
    assert (one.critical_hits, two.critical_hits) == (1, 2)


def test_the_to_hit_number_names_each_modifier_and_its_rule() -> None:
    """RULES-NOTES D: gunnery + range band + wounds + control surfaces; beyond
    band 3 only with Long range (S0 §Traits), +4."""
    w = unit("W", wounds=1, damage=Damage(0, (("control_surfaces", 1),), ()),
             traits=((Trait.LONG_RANGE, None),))
    assert to_hit_target(w, unit("F", "red", q=0, r=-3), OPT).render() == (
        "4 (gunnery W-pilot, R-2) + 1 (range 2 (3 hexes), RULES-NOTES D) "
        "+ 1 (1 wound(s), RULES-NOTES D) + 1 (control surfaces damaged ×1, RULES-NOTES D) = 7")
    assert to_hit_target(w, unit("V", "red", q=0, r=-7), OPT).render() == (
        "4 (gunnery W-pilot, R-2) + 4 (range 4 (7 hexes), Long range, S0 §Traits, "
        "RULES-NOTES D) + 1 (1 wound(s), RULES-NOTES D) "
        "+ 1 (control surfaces damaged ×1, RULES-NOTES D) = 10")
    p = preview_shot(w, w, OPT)
    assert not p.legal and p.target.finalizer is Finalizer.IMPOSSIBLE
    assert p.target.finalizer_reason == p.reason == "an aircraft cannot shoot at itself"
    assert p.hit_probability == 0


def test_every_reason_a_shot_cannot_be_made() -> None:
    a = unit("A")
    assert shot_problems(a, a, OPT) == ("an aircraft cannot shoot at itself",)
    assert shot_problems(a, unit("B"), OPT) == ("B is on A's side (house rule friendly_fire)",)
    wreck = replace(a, destroyed=True, landed=True, ammo=0)
    assert shot_problems(wreck, replace(unit("B", "red", q=0, r=-1), crashed=True), OPT) == (
        "A is out of the battle", "B is already out of the battle", "A is on the ground",
        "A is out of ammunition (R-1.4)")
    out = replace(a, pilot=replace(a.pilot, conscious=False))
    assert shot_problems(out, unit("B", "red", q=0, r=-1, altitude=3), OPT) == (
        "A is out of control (R-5, R-3.2)",
        "B is at level 3, A at level 2: shots only at the same altitude "
        "(S0 §Altitude and combat)")
    assert shot_problems(a, unit("B", "red", q=0, r=-7), OPT) == (
        "B is at range 4: beyond range 3 needs Long range (S0 §Traits)",)
    long = unit("L", traits=((Trait.LONG_RANGE, None),))
    assert shot_problems(long, unit("B", "red", q=0, r=-9), OPT) == (
        "B is at range 5, beyond the longest range 4 (house rule long_range_max_band)",)
    assert shot_problems(a, unit("B", "red", q=0, r=2), OPT) == (
        "B is outside A's 120° forward arc (house rule fire_arc_degrees)",)


def test_range_bands_of_one_hex_and_the_arc_of_a_shooter_facing_north_east() -> None:
    """RULES-NOTES D range bands (range_band_hexes); the forward arc
    (fire_arc_degrees 120) turns with the shooter's facing."""
    assert range_band(3, replace(OPT, range_band_hexes=1)) == 3
    assert range_band(3, OPT) == 2 and range_band(0, OPT) == 1
    ne = unit("A", facing=1)
    ahead, beside, behind = ne.hex.neighbour(1), ne.hex.neighbour(0), ne.hex.neighbour(4)
    assert in_fire_arc(ne, ahead, OPT) and in_fire_arc(ne, beside, OPT)
    assert not in_fire_arc(ne, behind, OPT)
    assert not in_fire_arc(ne, ne.hex.neighbour(3), OPT)
    assert in_fire_arc(ne, behind, replace(OPT, fire_arc_degrees=360))
