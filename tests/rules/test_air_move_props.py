"""Hypothesis invariants of movement: speed 0–max and never above 12,
altitude 0–ceiling unless crashing, wounds 0–6, hull never below 0, a unit moves
once per turn, and a preview agrees with a flight whose checks all pass."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from ka_tui.rules.air.battle_map import parse_map
from ka_tui.rules.air.units import Airman, AirUnit, Damage
from ka_tui.rules.air.aircraft import MAX_SPEED, EngineKind
from ka_tui.rules.air.altitude import ceiling_level
from ka_tui.rules.core.dice import RandomDice
from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.air.move_plan import IllegalPlan, Plan, PlanCheck, parse_plan
from ka_tui.rules.air.movement import complete_plan, execute_plan, speed_cap, start_turn, validate_plan
from tests.rules.hypothesis_counts import scaled
from tests.rules.test_air_move_support import BOMBER, FIGHTER, OPTS, TWIN, unit

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

TOKENS = ["F", "L", "R", "<", ">", "C", "CT", "D", "D2", "D3", "+1", "+2", "-1", "AB", "WM",
          "LOOP", "IMM", "SPLITS", "HAMMER", "HALFROLL", "BARREL", "LAND", "2F", "3F"]
FIGURES = {"LOOP", "IMM", "SPLITS", "HAMMER", "HALFROLL", "BARREL"}
TURNS = {"L", "R", "<", ">"}
ALTITUDE = {"C", "CT", "D", "D2", "D3"}
THRUST = {"+1", "+2", "-1", "AB", "WM"}
GROUPS = {"ahead": ["F", "2F", "3F"], "figure": sorted(FIGURES), "turn": sorted(TURNS),
          "altitude": sorted(ALTITUDE), "thrust": sorted(THRUST), "land": ["LAND"]}

PROFILES = [FIGHTER, BOMBER, TWIN, replace(FIGHTER, engine_kind=EngineKind.TURBINE)]


@st.composite
def units(draw: st.DrawFn, easy: bool = False) -> AirUnit:
    """An aircraft anywhere above the terrain of MAP (drawn there, not filtered)."""
    profile = draw(st.sampled_from(PROFILES))
    pilot = Airman("Kay", piloting=draw(st.integers(2, 4 if easy else 9)),
                   endurance=draw(st.integers(1, 5)), wounds=draw(st.integers(0, 1 if easy else 5)))
    crew = tuple(Airman(f"C{i}", endurance=draw(st.integers(1, 4)),
                        wounds=draw(st.integers(0, 5))) for i in range(draw(st.integers(0, 2))))
    engine = draw(st.integers(0, 1 if easy else 2))
    col, row = draw(st.integers(1, 6)), draw(st.integers(3, 9))
    floor = MAP.height(Hex.from_offset(col, row)) + 1
    return unit(col=col, row=row, facing=draw(st.integers(0, 5)),
                altitude=draw(st.integers(floor, ceiling_level(profile, OPTS))),
                speed=0 if not easy and draw(st.integers(0, 9)) == 0
                else draw(st.integers(1, speed_cap(unit(profile=profile)))),
                profile=profile, pilot=pilot, crew=crew,
                straight_run=draw(st.integers(0, 4)),
                thrust_at_end_last_turn=draw(st.booleans()),
                out_of_control=not easy and draw(st.integers(0, 7)) == 0,
                damage=Damage(engine, (("engine", engine),) if engine else ()))


def _plan(tokens: list[str]) -> Plan:
    steps, errors = parse_plan(" ".join(tokens))
    assert not errors, errors
    return steps


def _passable(check: PlanCheck) -> bool:
    return all(c.target.value <= 12 and c.probability > 0 for c in check.checks)


@st.composite
def legal_plans(draw: st.DrawFn, u: AirUnit, passable: bool = False
                ) -> tuple[list[str], Plan, PlanCheck]:
    """A plan built step by step, each step drawn among those that keep it legal
    (R-3 to R-10 as ``validate_plan`` reads them), so nothing is thrown away.
    ``passable``: also every check it needs can pass (for the preview test)."""
    tokens: list[str] = []
    for _ in range(draw(st.integers(1, 6))):
        # a kind of step first (so each kind turns up), then its tokens, then any
        group = GROUPS[draw(st.sampled_from(sorted(GROUPS)))]
        for tok in [*draw(st.permutations(group)), *draw(st.permutations(TOKENS))]:
            check = validate_plan(u, complete_plan(u, _plan([*tokens, tok]), MAP, OPTS), MAP, OPTS)
            if check.legal and (not passable or _passable(check)):
                tokens.append(tok)
                break
        else:
            break
    plan = complete_plan(u, _plan(tokens), MAP, OPTS)
    return tokens, plan, validate_plan(u, plan, MAP, OPTS)


def _record(mix: Counter[str], u: AirUnit, tokens: list[str], check: PlanCheck) -> None:
    """What was generated: hypothesis.event for --hypothesis-show-statistics,
    and a count the test asserts on (the mix must not collapse)."""
    kinds = {"figure": FIGURES, "turn": TURNS, "climb or dive": ALTITUDE, "thrust": THRUST,
             "landing": {"LAND"}}
    seen = ["legal" if check.legal else "illegal"]
    if tokens:
        seen.append("steps chosen")
    end = check.end
    if check.legal and (end.hex, end.facing, end.altitude) != (u.hex, u.facing, u.altitude):
        seen.append("a real move")
    seen += [k for k, group in kinds.items() if group & set(tokens)]
    if check.checks:
        seen.append("needs a check")
    for label in seen:
        event(label)
        mix[label] += 1
    mix["examples"] += 1


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


def test_invariants_hold_for_any_legal_plan() -> None:
    """Invariants of R-3 movement: speed 0–12 (R-3.3), altitude 0–ceiling
    unless crashing (S0 §Altitude, R-6.1), wounds 0–6 (R-5), one move a turn (R-1.2);
    over plans that are legal by construction, and the mix is checked."""
    mix: Counter[str] = Counter()

    @settings(max_examples=scaled(100), deadline=None)
    @given(st.data(), units(), st.integers(0, 2**32))
    def run(data: st.DataObject, u: AirUnit, seed: int) -> None:
        tokens, p, check = data.draw(legal_plans(u))
        _record(mix, u, tokens, check)
        assert check.legal == (not check.errors)
        if not check.legal:   # not even flying straight ahead is legal here
            with pytest.raises(IllegalPlan):
                execute_plan(u, p, MAP, RandomDice(seed), OPTS)
            return
        out, report = execute_plan(u, p, MAP, RandomDice(seed), OPTS)
        _check_invariants(u, out)
        assert all(1 <= f <= 6 for r in report.rolls for f in r.faces)
        # one move per turn
        with pytest.raises(IllegalPlan):
            execute_plan(out, p, MAP, RandomDice(seed), OPTS)

    run()
    # Observed over many runs: ~0.9 real moves, 0.2–0.3 with a turn, ~0.45 a
    # climb or dive, 0.1–0.3 thrust, 0.04–0.25 a figure, 0.15–0.4 a check. The
    # floors sit well below: they flag a collapse (every plan empty or straight
    # ahead), not an unlucky run; each kind must at least show up.
    _assert_mix(mix, {"a real move": 0.6, "steps chosen": 0.6, "turn": 0.05,
                      "climb or dive": 0.08, "thrust": 0.05, "figure": 0.02,
                      "needs a check": 0.08})


def _assert_mix(mix: Counter[str], at_least: dict[str, float]) -> None:
    n = mix["examples"]
    assert n >= 20, mix
    for label, share in at_least.items():
        assert mix[label] >= share * n, (label, dict(mix))


class _Sixes:
    def roll(self, sides: int) -> int:
        return sides


def test_preview_agrees_with_a_flight_whose_checks_pass() -> None:
    """R-3 to R-10: ``validate_plan``'s end state is where a flight ends when every
    check passes (all sixes), over plans whose checks can all pass."""
    mix: Counter[str] = Counter()

    @settings(max_examples=scaled(80), deadline=None)
    @given(st.data(), units(easy=True))
    def run(data: st.DataObject, u: AirUnit) -> None:
        tokens, p, check = data.draw(legal_plans(u, passable=True))
        _record(mix, u, tokens, check)
        if not check.legal:
            return
        out, report = execute_plan(u, p, MAP, _Sixes(), OPTS)
        assert all(r.success for r in report.rolls)
        assert (out.hex, out.facing, out.altitude, out.speed, out.landed, out.crashed) == (
            check.end.hex, check.end.facing, check.end.altitude, check.end.speed,
            check.end.landed, check.end.crashed)
        assert report.terrain_crash == check.terrain_crash

    run()
    _assert_mix(mix, {"legal": 0.9, "a real move": 0.7, "steps chosen": 0.7,
                      "climb or dive": 0.15, "needs a check": 0.1})


@settings(max_examples=scaled(120), deadline=None)
@given(units(), st.integers(0, 2**32))
def test_start_of_turn_speed_and_altitude(u: AirUnit, seed: int) -> None:
    """R-3.2: speed −5 (not below 0); a stall costs exactly one level."""
    out, rep = start_turn(u, RandomDice(seed), OPTS, MAP)
    assert out.speed == max(0, u.speed - 5)
    assert out.altitude in (u.altitude, u.altitude - 1) or out.crashed
    assert rep.stalled == (out.speed == 0 and u.profile.stalls)
    assert not out.moved

