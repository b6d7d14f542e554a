"""G-load and endurance (R-4), with wounds through R-5."""

from __future__ import annotations

from dataclasses import replace

from ka_tui.rules.air.units import Airman
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.air.gload import endurance_target, gload_checks, resolve_gload
from ka_tui.rules.air.movement import execute_plan, validate_plan
from tests.rules.test_air_move_support import FIGHTER, OPEN, OPTS, plan, unit


def test_r4_within_g_rating_and_endurance_no_checks() -> None:
    assert gload_checks(unit(), 3, OPTS) == ()


def test_r4_g_rating_exceeded_piloting_check_with_penalty() -> None:
    (frame, pilot) = gload_checks(unit(), 5, OPTS)
    assert frame.who == -1 and frame.target.value == 7
    assert "2 (5 sides vs G-rating 3, R-4)" in frame.target.render()
    assert pilot.who == 0 and pilot.target.value == 4


def test_r4_endurance_target_is_2_plus_2_per_wound_plus_excess() -> None:
    t = endurance_target(Airman("Ned", endurance=2, wounds=1), 5)
    assert t is not None and t.value == 2 + 2 * 1 + 3
    assert endurance_target(Airman("Ned", endurance=5), 5) is None
    assert endurance_target(Airman("Dead", endurance=0, wounds=6), 5) is None


def test_r4_failed_g_check_costs_the_airframe_a_hit() -> None:
    u = unit(pilot=Airman("Kay", endurance=9))
    out, res = resolve_gload(u, 5, ScriptedDice.of([1, 1]), OPTS)
    assert res.damage.hull_hits == 1 and out.pending_damage.hull_hits == 1
    assert out.damage.hull_hits == 0   # pending until the shooting phase
    assert any("overstressed" in line for line in res.log)


def test_r4_airframe_hits_option() -> None:
    u = unit(pilot=Airman("Kay", endurance=9))
    opts = replace(OPTS, gload_airframe_hits=2)
    out, _ = resolve_gload(u, 5, ScriptedDice.of([1, 1]), opts)
    assert out.pending_damage.hull_hits == 2


def test_r4_endurance_failure_wounds_each_crew_member_via_r5() -> None:
    gunner = Airman("Ned", endurance=2, wounds=1)
    u = unit(pilot=Airman("Kay", endurance=5), crew=(gunner,),
             profile=replace(FIGHTER, g_rating=6))
    # Ned: 1+1 vs 7 fails → wound 2, consciousness 3+3 vs 5 holds
    out, res = resolve_gload(u, 5, ScriptedDice.of([1, 1, 3, 3]), OPTS)
    assert out.crew[0].wounds == 2 and out.crew[0].conscious
    assert out.pilot.wounds == 0
    assert len(res.wounds) == 1 and res.wounds[0].name == "Ned"


def test_r4_pilot_knocked_out_by_g() -> None:
    u = unit(pilot=Airman("Kay", endurance=1), profile=replace(FIGHTER, g_rating=9))
    # 2+0+4 = 6: 1+1 fails; 1 wound needs 3: 1+1 fails → unconscious
    out, res = resolve_gload(u, 5, ScriptedDice.of([1, 1, 1, 1]), OPTS)
    assert out.pilot.wounds == 1 and not out.pilot.conscious
    assert res.wounds[0].knocked_out


def test_r4_plan_counts_sides_and_previews_checks() -> None:
    u = unit(speed=3, straight_run=1)
    check = validate_plan(u, plan("R F R F R F R"), OPEN, OPTS)
    assert check.legal, check.reason
    assert check.sides_turned == 4
    assert [(c.what, c.target.value) for c in check.checks] == [
        ("A1 G-load on the airframe (R-4)", 6), ("Kay endurance under G (R-4)", 3)]


def test_r4_execution_rolls_g_load_after_the_move() -> None:
    u = unit(speed=3, straight_run=1)
    out, rep = execute_plan(u, plan("R F R F R F R"), OPEN, ScriptedDice.of([1, 1, 6, 6]), OPTS)
    assert out.pending_damage.hull_hits == 1 and rep.damage.hull_hits == 1
    assert [r.success for r in rep.rolls] == [False, True]


def test_r4_figures_count_toward_g_option() -> None:
    """R-9 gives each figure a G-rating; option ``figures_count_toward_gload``."""
    u = unit(speed=6, straight_run=2)
    assert validate_plan(u, plan("LOOP R 2F"), OPEN, OPTS).sides_turned == 4
    off = replace(OPTS, figures_count_toward_gload=False)
    assert validate_plan(u, plan("LOOP R 2F"), OPEN, off).sides_turned == 1
