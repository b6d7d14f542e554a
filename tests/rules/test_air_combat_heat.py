"""R-1.4 heat phase, R-3.5 Engine Overheat modifier (scale per RULES-NOTES D)."""

from __future__ import annotations

from dataclasses import replace

from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.air.heat import heat_phase, heat_target
from ka_tui.rules.core.options import AirOptions

from .air_combat_fixtures import unit

OPT = AirOptions()


def test_r3_5_afterburner_turn_keeps_the_rise_movement_made() -> None:
    # movement added +1 when the afterburner was engaged; no second rise here
    u = unit("U", afterburner_on=True, overheat=1)
    u2, res = heat_phase(u, ScriptedDice.of([]), OPT)
    assert u2.overheat == 1 and not u2.afterburner_on and res.check is None


def test_rules_notes_d_turn_without_afterburner_cools_by_one() -> None:
    u2, _ = heat_phase(unit("U", overheat=2), ScriptedDice.of([]), OPT)
    assert u2.overheat == 1
    u3, _ = heat_phase(unit("U"), ScriptedDice.of([]), OPT)
    assert u3.overheat == 0


def test_rules_notes_d_below_three_no_roll() -> None:
    u2, res = heat_phase(unit("U", overheat=2, afterburner_on=True), ScriptedDice.of([]), OPT)
    assert u2.overheat == 2 and res.check is None


def test_rules_notes_d_roll_at_three_or_more() -> None:
    u = unit("U", overheat=3, afterburner_on=True)
    assert heat_target(3, OPT).value == 7
    u2, res = heat_phase(u, ScriptedDice.of([3, 4]), OPT)
    assert res.check is not None and res.check.success and not res.engine_damaged
    assert u2.pending_damage.at("engine") == 0


def test_rules_notes_d_failed_heat_roll_damages_engine_pending() -> None:
    u = unit("U", overheat=4, afterburner_on=True)  # 4 → needs 8
    u2, res = heat_phase(u, ScriptedDice.of([3, 4]), OPT)
    assert res.engine_damaged and u2.pending_damage.at("engine") == 1
    assert u2.pending_damage.hull_hits == 0 and u2.damage.at("engine") == 0
    assert "8 (" not in res.log[1] and "= 8" in res.log[1]


def test_rules_notes_d_heat_option_off_never_rolls() -> None:
    u = unit("U", overheat=5, afterburner_on=True)
    u2, res = heat_phase(u, ScriptedDice.of([]), replace(OPT, heat_enabled=False))
    assert u2.overheat == 5 and res.check is None


def test_r1_4_end_phase_reports_the_engine_the_heat_phase_damaged() -> None:
    """R-1.4 "engine condition" right after the heat phase damaged it: the
    damage is pending (R-1.3, in effect from the unit's next shooting phase),
    and the end phase says so instead of "engine sound"."""
    from ka_tui.rules.air.turn import BattleState, Phase, end_phase, heat_phase as turn_heat

    u = unit("U", overheat=3, afterburner_on=True)
    state = BattleState((u,), 1, Phase.HEAT)
    state, heat = turn_heat(state, ScriptedDice.of([1, 1]), OPT)
    assert heat.results[0].engine_damaged
    _, end = end_phase(state, ScriptedDice.of([]), OPT)
    report = end.reports[0]
    assert "sound" not in report.engine
    assert report.engine.startswith("damaged (−1 thrust pending")
    assert "R-1.3" in report.line
