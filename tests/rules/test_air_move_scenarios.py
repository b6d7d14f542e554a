"""Scripted-dice scenarios over several turns on small text maps (R-3, R-6.1, R-10)."""

from __future__ import annotations

from ka_tui.rules.air.battle_map import parse_map
from ka_tui.rules.air.units import Airman, AirUnit
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.air.move_plan import Afterburner, Plan, Thrust
from ka_tui.rules.air.movement import execute_plan, start_turn, validate_plan
from tests.rules.test_air_move_support import OPTS, at, plan, unit

AIRFIELD = parse_map("""
    . . . . . . . .
    . . . . . . . .
    . . . . . 3 . .
    . . . . . 3 . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    strip Home 1,11 N 6 1 prepared
""")


def _turn(u: AirUnit, p: Plan, faces: list[int]) -> AirUnit:
    dice = ScriptedDice.of(faces)
    u, _ = start_turn(u, dice, OPTS, AIRFIELD)
    check = validate_plan(u, p, AIRFIELD, OPTS)
    assert check.legal, check.reason
    u, _ = execute_plan(u, p, AIRFIELD, dice, OPTS)
    assert dice.exhausted, dice.faces
    return u


def test_scenario_take_off_climb_stall_and_recover_on_afterburner() -> None:
    """R-10 take-off, R-3.1 end thrust, R-3.3 climb on thrust, R-3.2 stall, R-3.5."""
    u = unit(col=1, row=11, altitude=0, speed=0, landed=True)
    # turn 1: a 4-hex run along Home, airborne at level 1, +4 at the end
    u = _turn(u, (*plan("TO"), Thrust(4, "end")), [])
    assert (u.hex, u.altitude, u.speed, u.landed) == (at(1, 8), 1, 7, False)
    # turn 2: 7 → 2; no start thrust after end thrust; climb on thrust
    u = _turn(u, plan("CT 2F +2"), [])
    assert (u.hex, u.altitude, u.speed) == (at(1, 6), 2, 4)
    # turn 3: 4 → 0 stalls: level 2 → 1, 4+4 passes; afterburner keeps it flying
    u = _turn(u, (Afterburner(), Thrust(6, "end")), [4, 4])
    assert (u.altitude, u.speed, u.overheat, u.out_of_control) == (1, 6, 1, False)
    # turn 4: 6 → 1, one hex straight
    u = _turn(u, plan("F"), [])
    assert (u.hex, u.speed) == (at(1, 5), 1)


def test_scenario_failed_stall_near_the_ground_crashes() -> None:
    """R-3.2 stall at level 1 drops to the ground: R-6.1 crash, reported for the turn to roll."""
    u = unit(col=4, row=6, altitude=1, speed=4)
    dice = ScriptedDice.of([6, 6])
    out, rep = start_turn(u, dice, OPTS, AIRFIELD)
    assert out.crashed and rep.terrain_crash is not None
    assert rep.terrain_crash.hex == at(4, 6) and rep.terrain_crash.speed == 0


def test_scenario_out_of_control_into_the_hills() -> None:
    """R-3.3 failed steep descent → R-3.2 straight ahead → R-6.1 into the ridge."""
    u = unit(col=5, row=9, altitude=4, speed=5, pilot=Airman("Kay", piloting=8))
    p = plan("D3 2F R 4F")   # D3: level 1, speed 6; the turn would clear the ridge
    check = validate_plan(u, p, AIRFIELD, OPTS)
    assert check.legal and check.terrain_crash is None
    assert check.checks[0].target.value == 11
    # 2+3 = 5 vs 11 fails: out of control, six hexes north, into the ridge at 0503
    out, rep = execute_plan(u, p, AIRFIELD, ScriptedDice.of([2, 3]), OPTS)
    assert out.out_of_control and out.crashed and out.facing == 0
    assert rep.terrain_crash is not None
    assert (rep.terrain_crash.hex, rep.terrain_crash.terrain_height, rep.terrain_crash.speed) == (
        at(5, 3), 3, 6)
