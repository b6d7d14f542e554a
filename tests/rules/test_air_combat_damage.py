"""Damage: RULES-NOTES C (points → hits), RULES-NOTES D (locations), R-1.3, S0 Hull/Glider."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from ka_tui.rules.air.units import Damage
from ka_tui.rules.air.aircraft import Trait
from ka_tui.rules.air.damage import (
    apply_hits,
    apply_points,
    bring_into_effect,
    engine_disabled,
    points_to_hits,
    roll_location,
    under_control,
)
from ka_tui.rules.core.dice import RandomDice, ScriptedDice
from ka_tui.rules.core.options import AirOptions, EngineOut
from tests.rules.hypothesis_counts import scaled

from .air_combat_fixtures import unit

OPT = AirOptions()


def test_rules_notes_c_ten_points_per_hit() -> None:
    assert [points_to_hits(p, OPT) for p in (0, 9, 10, 35, 420)] == [0, 0, 1, 3, 42]
    assert points_to_hits(30, replace(OPT, points_per_hit=5)) == 6


def test_rules_notes_d_location_table() -> None:
    expected = {2: "cockpit", 3: "engine", 4: "engine", 5: "left_wing", 6: "fuselage",
                7: "fuselage", 8: "fuselage", 9: "right_wing", 10: "control_surfaces",
                11: "landing_gear", 12: "fuel_tank"}
    for total, loc in expected.items():
        a = 1 if total <= 7 else total - 6
        assert roll_location(ScriptedDice.of([a, total - a]), OPT)[0] == loc


def test_rules_notes_d_normal_hit_has_no_location_effect() -> None:
    u = unit("U")
    u2, rep = apply_hits(u, [False], ScriptedDice.of([1, 2]), OPT, source="test")
    assert u2.pending_damage == Damage(1, (), (("engine", 1),))
    assert u2.hull_left == u.profile.hull - 1


def test_rules_notes_d_critical_applies_location_effect() -> None:
    u = unit("U")
    u2, rep = apply_hits(u, [True], ScriptedDice.of([1, 2]), OPT, source="test")
    assert u2.pending_damage.at("engine") == 1 and "−1 thrust" in rep.log[0]


def test_r1_3_damage_recorded_now_effective_later() -> None:
    u = unit("U", prof={"thrust": 1})
    u2, _ = apply_hits(u, [True], ScriptedDice.of([1, 2]), OPT, source="test")
    assert u2.damage == Damage() and not engine_disabled(u2)
    u3 = bring_into_effect(u2)
    assert u3.pending_damage == Damage() and u3.damage.at("engine") == 1
    assert engine_disabled(u3)


def test_s0_hull_destroyed_at_hull_hits() -> None:
    u = unit("U", prof={"hull": 2})
    u2, rep = apply_hits(u, [False, False], ScriptedDice.of([3, 4, 3, 4]), OPT, source="t")
    assert u2.destroyed and rep.destroyed_now and u2.hull_left == 0


def test_s0_hits_on_a_wreck_roll_no_location() -> None:
    u = unit("U", prof={"hull": 1})
    dice = ScriptedDice.of([3, 4])
    u2, rep = apply_hits(u, [False] * 5, dice, OPT, source="t")
    assert dice.exhausted and rep.unrolled_hits == 4 and u2.hull_left == 0
    assert u2.total_damage.hull_hits == 5


def test_s0_glider_glides_on_at_zero_hull() -> None:
    g = unit("G", prof={"hull": 2}, traits=((Trait.GLIDER, None),))
    g2, rep = apply_hits(g, [False, False], ScriptedDice.of([3, 4, 3, 4]), OPT, source="t")
    assert not g2.destroyed and g2.hull_left == 0 and under_control(g2, OPT)
    g3, _ = apply_hits(g2, [False], ScriptedDice.of([3, 4]), OPT, source="t")
    assert g3.destroyed
    plain = unit("P", prof={"hull": 5})
    crippled = replace(plain, damage=Damage(0, (("engine", plain.profile.thrust),)))
    either = replace(OPT, engine_out_control=EngineOut.EITHER)
    assert under_control(crippled, OPT)          # the seed's "and": the engine alone does not
    assert not under_control(crippled, either)   # house rule: either takes it out of control
    glider = replace(crippled, profile=g.profile)
    assert under_control(glider, either)


def test_r5_cockpit_critical_wounds_the_pilot_now() -> None:
    u = unit("U")
    u2, rep = apply_hits(u, [True], ScriptedDice.of([1, 1, 1, 1]), OPT, source="t")
    assert u2.pilot.wounds == 1 and not u2.pilot.conscious and rep.wounds[0].knocked_out


def test_rules_notes_c_point_damage_applies_effects_by_default() -> None:
    u = unit("U", prof={"hull": 10})
    u2, rep = apply_points(u, 25, ScriptedDice.of([5, 6, 5, 6]), OPT, source="landing, R-10")
    assert u2.pending_damage.hull_hits == 2 and u2.pending_damage.at("landing_gear") == 2
    assert "25 points of damage = 2 hit(s)" in rep.log[0]
    off = replace(OPT, point_damage_effects=False)
    u3, _ = apply_points(u, 20, ScriptedDice.of([5, 6, 5, 6]), off, source="t")
    assert u3.pending_damage.at("landing_gear") == 0


@settings(max_examples=scaled(200), deadline=None)
@given(hull=st.integers(1, 8), batches=st.lists(st.lists(st.booleans(), max_size=6), max_size=5),
       seed=st.integers(0, 10_000), glider=st.booleans())
def test_invariant_hull_never_below_zero_and_wounds_in_range(
        hull: int, batches: list[list[bool]], seed: int, glider: bool) -> None:
    """RULES-NOTES C/D (hits to Hull), R-5 (wounds 0–6): hull never below 0."""
    traits = ((Trait.GLIDER, None),) if glider else ()
    u = unit("U", prof={"hull": hull}, traits=traits)
    dice = RandomDice(seed)
    for batch in batches:
        u, rep = apply_hits(u, batch, dice, OPT, source="t")
        assert 0 <= u.hull_left <= hull
        assert 0 <= u.pilot.wounds <= 6
        u = bring_into_effect(u)
    taken = sum(len(b) for b in batches)
    assert u.total_damage.hull_hits == taken
    limit = hull + 1 if glider else hull
    assert u.destroyed == (taken >= limit)
