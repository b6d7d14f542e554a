"""Hypothesis invariants of movement (issue 6): speed 0–max and never above 12,
altitude 0–ceiling unless crashing, wounds 0–6, hull never below 0, a unit moves
once per turn, and a preview agrees with a flight whose checks all pass."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ka_tui.rules.air.battle_map import parse_map
from ka_tui.rules.air.units import Airman, AirUnit, Damage
from ka_tui.rules.air.aircraft import MAX_SPEED, EngineKind
from ka_tui.rules.air.altitude import ceiling_level
from ka_tui.rules.core.dice import RandomDice
from ka_tui.rules.air.move_plan import IllegalPlan, parse_plan
from ka_tui.rules.air.movement import complete_plan, execute_plan, speed_cap, start_turn, validate_plan
from tests.rules.test_air_move_support import BOMBER, FIGHTER, OPTS, TWIN, unit

SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

MAP = parse_map("""
    . . . . . . . .
    . . . . 1 . . .
    . . . . . . . .
    . 2 . . . . . .
    . . . . . ~ ~ .
    . . . . . ~ ~ .
    . . . . . ~ ~ .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    strip Home 3,9 N 6 1 prepared
""")

TOKENS = ["F", "F", "F", "F", "L", "R", "<", ">", "C", "CT", "D", "D2", "D3", "+1", "+2", "-1",
          "AB", "WM", "LOOP", "IMM", "SPLITS", "HAMMER", "HALFROLL", "BARREL", "LAND", "2F", "3F"]

profiles = st.sampled_from([FIGHTER, BOMBER, TWIN, replace(FIGHTER, engine_kind=EngineKind.TURBINE)])


@st.composite
def units(draw: st.DrawFn, easy: bool = False) -> AirUnit:
    profile = draw(profiles)
    pilot = Airman("Kay", piloting=draw(st.integers(2, 4 if easy else 9)),
                   endurance=draw(st.integers(1, 5)), wounds=draw(st.integers(0, 1 if easy else 5)))
    crew = tuple(Airman(f"C{i}", endurance=draw(st.integers(1, 4)),
                        wounds=draw(st.integers(0, 5))) for i in range(draw(st.integers(0, 2))))
    engine = draw(st.integers(0, 2))
    made = unit(col=draw(st.integers(1, 6)), row=draw(st.integers(3, 9)),
                facing=draw(st.integers(0, 5)),
                altitude=draw(st.integers(1, ceiling_level(profile, OPTS))),
                speed=draw(st.integers(0, speed_cap(unit(profile=profile)))),
                profile=profile, pilot=pilot, crew=crew,
                straight_run=draw(st.integers(0, 4)),
                thrust_at_end_last_turn=draw(st.booleans()),
                out_of_control=draw(st.integers(0, 7)) == 0,
                damage=Damage(engine, (("engine", engine),) if engine else ()))
    assume(made.altitude > MAP.height(made.hex))
    return made


plans = st.lists(st.sampled_from(TOKENS), max_size=10).map(lambda t: parse_plan(" ".join(t))[0])


def _check_invariants(before: AirUnit, out: AirUnit) -> None:
    assert 0 <= out.speed <= MAX_SPEED
    assert out.speed <= max(before.speed, speed_cap(before))
    if not out.crashed:
        assert 0 <= out.altitude <= ceiling_level(before.profile, OPTS)
        if not out.landed:
            assert out.altitude > MAP.height(out.hex)
    for airman in out.everyone:
        assert 0 <= airman.wounds <= 6
    assert out.hull_left >= 0
    assert out.moved


@SETTINGS
@given(units(), plans, st.integers(0, 2**32))
def test_invariants_hold_for_any_legal_plan(u: AirUnit, p: tuple, seed: int) -> None:  # type: ignore[type-arg]
    """Issue 6 invariants for R-3 movement: speed 0–12 (R-3.3), altitude 0–ceiling unless crashing (S0 §Altitude, R-6.1)."""
    p = complete_plan(u, p, MAP, OPTS)
    check = validate_plan(u, p, MAP, OPTS)
    assert check.legal == (not check.errors)
    if not check.legal:
        with pytest.raises(IllegalPlan):
            execute_plan(u, p, MAP, RandomDice(seed), OPTS)
        return
    out, report = execute_plan(u, p, MAP, RandomDice(seed), OPTS)
    _check_invariants(u, out)
    assert all(1 <= f <= 6 for r in report.rolls for f in r.faces)
    # one move per turn
    with pytest.raises(IllegalPlan):
        execute_plan(out, p, MAP, RandomDice(seed), OPTS)


class _Sixes:
    def roll(self, sides: int) -> int:
        return sides


@settings(SETTINGS, max_examples=80)
@given(units(easy=True), plans)
def test_preview_agrees_with_a_flight_whose_checks_pass(u: AirUnit, p: tuple) -> None:  # type: ignore[type-arg]
    p = complete_plan(u, p, MAP, OPTS)
    check = validate_plan(u, p, MAP, OPTS)
    assume(check.legal and all(c.target.value <= 12 and c.probability > 0 for c in check.checks))
    out, report = execute_plan(u, p, MAP, _Sixes(), OPTS)
    assert all(r.success for r in report.rolls)
    assert (out.hex, out.facing, out.altitude, out.speed, out.landed, out.crashed) == (
        check.end.hex, check.end.facing, check.end.altitude, check.end.speed,
        check.end.landed, check.end.crashed)
    assert report.terrain_crash == check.terrain_crash


@SETTINGS
@given(units(), st.integers(0, 2**32))
def test_start_of_turn_speed_and_altitude(u: AirUnit, seed: int) -> None:
    """R-3.2: speed −5 (not below 0); a stall costs exactly one level."""
    out, rep = start_turn(u, RandomDice(seed), OPTS, MAP)
    assert out.speed == max(0, u.speed - 5)
    assert out.altitude in (u.altitude, u.altitude - 1) or out.crashed
    assert rep.stalled == (out.speed == 0 and u.profile.stalls)
    assert not out.moved

