"""R-3.2 seen from a plan's end: the next turn's stall, said before flying."""

from __future__ import annotations

from dataclasses import replace

from ka_tui.rules.air.aircraft import EngineKind
from ka_tui.rules.air.battle_map import parse_map
from ka_tui.rules.air.movement import validate_plan
from ka_tui.rules.air.next_turn import next_turn_warning
from tests.rules.test_air_move_support import FIGHTER, OPEN, OPTS, plan, unit


def test_a_plan_ending_at_speed_5_or_less_stalls_next_turn_r_3_2() -> None:
    """R-3.2: speed −5 at the start of the turn, before thrust; at 0 a stall
    loses a level and needs a piloting check."""
    for speed, stalls in ((1, True), (5, True), (6, False)):
        text = next_turn_warning(unit(altitude=3, speed=speed), OPTS, OPEN)
        assert (text is not None) == stalls, speed
    text = next_turn_warning(unit(altitude=3, speed=2), OPTS, OPEN)
    assert text == ("stalls as the next turn starts (R-3.2: speed 2 − 5 → 0): a piloting "
                    "check, level 3 → 2")


def test_a_stall_at_the_lowest_level_is_a_crash_r_6_1() -> None:
    """R-6.1 through R-3.2: the level lost at the terrain's height is a crash."""
    assert next_turn_warning(unit(altitude=1, speed=1), OPTS, OPEN).endswith(  # type: ignore[union-attr]
        "level 1 → 0, the terrain: a crash (R-6.1)")
    hill = parse_map("\n".join([" ".join(["2"] * 8)] * 12))
    assert "a crash" in (next_turn_warning(unit(altitude=3, speed=1), OPTS, hill) or "")
    assert "a crash" not in (next_turn_warning(unit(altitude=3, speed=1), OPTS, OPEN) or "")
    assert "a crash" in (next_turn_warning(unit(altitude=1, speed=1), OPTS, None) or "")


def test_no_warning_on_the_ground_or_without_a_stalling_engine_r_3_2() -> None:
    """R-3.2: eternium engines and turbines do not stall; a landed aircraft has
    no speed decay."""
    turbine = replace(FIGHTER, engine_kind=EngineKind.TURBINE)
    assert next_turn_warning(unit(speed=1, profile=turbine), OPTS, OPEN) is None
    assert next_turn_warning(unit(speed=0, altitude=0, landed=True), OPTS, OPEN) is None
    assert next_turn_warning(unit(speed=0, altitude=0, crashed=True), OPTS, OPEN) is None


def test_the_warning_reads_the_plans_end_state_r_3_2() -> None:
    """A plan that brakes to 3 leaves a stall; one that keeps speed 6 does not."""
    u = unit(altitude=3, speed=6)
    braked = validate_plan(u, plan("-3 F F F"), OPEN, OPTS)
    assert braked.legal, braked.errors
    assert next_turn_warning(braked.end, OPTS, OPEN) is not None
    kept = validate_plan(u, plan("F F F F F F"), OPEN, OPTS)
    assert kept.legal and next_turn_warning(kept.end, OPTS, OPEN) is None
