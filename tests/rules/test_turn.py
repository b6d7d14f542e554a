"""R-1 turn skeleton: initiative (R-1.1), order by side (R-1.2), damage in effect
(R-1.3), heat and end phases (R-1.4) with R-5 recovery rolls."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ka_tui.rules.air.battle_map import parse_map
from ka_tui.rules.air.units import Airman, Damage
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.core.options import AirOptions
from ka_tui.rules.air.turn import (
    BattleState,
    Phase,
    TurnError,
    begin_turn,
    end_movement,
    end_phase,
    end_shooting,
    heat_phase,
    move_unit,
    roll_initiative,
    shoot_unit,
    status_report,
)

from .air_combat_fixtures import unit
from .test_air_move_support import plan

OPT = AirOptions()
MAP = parse_map("\n".join([". . . . . . . ."] * 8))


def test_r1_1_higher_total_wins() -> None:
    res = roll_initiative(["blue", "red"], ScriptedDice.of([2, 3, 6, 1]))
    assert res.order == ("red", "blue")
    assert "initiative blue: 2d6 2+3 = 5 (R-1.1)" in res.log


def test_r1_1_ties_are_rerolled() -> None:
    dice = ScriptedDice.of([3, 4, 5, 2, 1, 1, 6, 6])
    res = roll_initiative(["blue", "red"], dice)
    assert res.order == ("red", "blue") and dice.exhausted and len(res.rolls) == 4
    assert any("tie at 7" in line for line in res.log)


def test_r1_1_three_sides_only_tied_sides_reroll() -> None:
    # blue 12, red 5, green 5 -> red and green re-roll: red 2, green 3
    dice = ScriptedDice.of([6, 6, 2, 3, 4, 1, 1, 1, 2, 1])
    res = roll_initiative(["blue", "red", "green"], dice)
    assert res.order == ("blue", "green", "red") and dice.exhausted


def two_fighters() -> BattleState:
    a = unit("A", "blue", q=1, r=5, facing=0, speed=8)
    b = unit("B", "red", q=1, r=0, facing=3, speed=8)
    return BattleState((a, b))


def test_r1_2_winner_moves_and_shoots_first() -> None:
    s, start = begin_turn(two_fighters(), MAP, ScriptedDice.of([6, 6, 1, 1]), OPT)
    assert s.order == ("blue", "red") and s.phase is Phase.MOVEMENT and s.active_side == "blue"
    with pytest.raises(TurnError, match="must wait"):
        move_unit(s, "B", plan("F F F"), MAP, ScriptedDice.of([]), OPT)
    s, _ = move_unit(s, "A", plan("F F F"), MAP, ScriptedDice.of([]), OPT)
    with pytest.raises(TurnError, match="already moved"):
        move_unit(s, "A", plan("F F F"), MAP, ScriptedDice.of([]), OPT)
    s, _ = end_movement(s, ScriptedDice.of([]), OPT)
    assert s.phase is Phase.SHOOTING and s.active_side == "blue"
    s = end_shooting(s)
    assert s.phase is Phase.MOVEMENT and s.active_side == "red"


def test_r1_2_side_must_finish_moving_before_shooting() -> None:
    s, _ = begin_turn(two_fighters(), MAP, ScriptedDice.of([6, 6, 1, 1]), OPT)
    with pytest.raises(TurnError, match="still to move: A"):
        end_movement(s, ScriptedDice.of([]), OPT)


def test_r1_2_no_shooting_in_the_movement_phase() -> None:
    s, _ = begin_turn(two_fighters(), MAP, ScriptedDice.of([6, 6, 1, 1]), OPT)
    with pytest.raises(TurnError, match="not the shooting phase"):
        shoot_unit(s, "A", "B", ScriptedDice.of([]), OPT)


def test_r3_2_turn_start_decays_speed_and_clears_flags() -> None:
    s = two_fighters()
    s = s.with_units(replace(s.unit("A"), shot=True, evading=True, moved=True,
                             attack_forfeit="evasive (R-8)"))
    s, _ = begin_turn(s, MAP, ScriptedDice.of([6, 6, 1, 1]), OPT)
    a = s.unit("A")
    assert a.speed == 3 and not a.shot and not a.evading and not a.moved
    assert a.attack_forfeit == ""


def test_r1_3_damage_takes_effect_in_own_shooting_phase() -> None:
    s, _ = begin_turn(two_fighters(), MAP, ScriptedDice.of([6, 6, 1, 1]), OPT)
    hurt = replace(s.unit("B"), pending_damage=Damage(1, (("control_surfaces", 1),)))
    s = s.with_units(hurt)
    s, _ = move_unit(s, "A", plan("F F F"), MAP, ScriptedDice.of([]), OPT)
    s, _ = end_movement(s, ScriptedDice.of([]), OPT)
    assert s.unit("B").damage == Damage()         # blue's shooting phase: not red's
    s = end_shooting(s)
    s, _ = move_unit(s, "B", plan("F F F"), MAP, ScriptedDice.of([]), OPT)
    s, _ = end_movement(s, ScriptedDice.of([]), OPT)
    b = s.unit("B")
    assert b.damage.at("control_surfaces") == 1 and b.pending_damage == Damage()


def test_r1_4_heat_then_end_phase_order() -> None:
    s, _ = begin_turn(two_fighters(), MAP, ScriptedDice.of([6, 6, 1, 1]), OPT)
    with pytest.raises(TurnError):
        heat_phase(s, ScriptedDice.of([]), OPT)
    for uid in ("A", "B"):
        s, _ = move_unit(s, uid, plan("F F F"), MAP, ScriptedDice.of([]), OPT)
        s, _ = end_movement(s, ScriptedDice.of([]), OPT)
        s = end_shooting(s)
    assert s.phase is Phase.HEAT
    with pytest.raises(TurnError):
        end_phase(s, ScriptedDice.of([]), OPT)
    s, _ = heat_phase(s, ScriptedDice.of([]), OPT)
    s, end = end_phase(s, ScriptedDice.of([]), OPT)
    assert s.phase is Phase.BETWEEN_TURNS and s.turn == 1
    assert [r.unit_id for r in end.reports] == ["A", "B"]


def test_r1_4_end_phase_report_fields() -> None:
    u = unit("A", fuel=7, ammo=3, damage=Damage(1, (("engine", 1),), (("engine", 1),)))
    rep = status_report(u, replace(OPT, weather="rain"))
    assert rep.engine.startswith("damaged") and rep.fuel == 7 and rep.ammo == 3
    assert rep.hull_left == 3 and rep.weather == "rain" and "R-1.4" in rep.line


def test_r1_4_fuel_burns_and_leaks() -> None:
    s = BattleState((unit("A", fuel=5, damage=Damage(0, (("fuel_tank", 1),))),),
                    phase=Phase.END, turn=1)
    s, end = end_phase(s, ScriptedDice.of([]), OPT)
    assert s.unit("A").fuel == 3 and "leak" in " ".join(end.log)


def test_r5_recovery_roll_in_end_phase() -> None:
    out = Airman("Kay", wounds=2, conscious=False)
    s = BattleState((replace(unit("A"), pilot=out),), phase=Phase.END, turn=1)
    s, end = end_phase(s, ScriptedDice.of([2, 3]), OPT)   # 5 vs 5: comes round
    assert s.unit("A").pilot.conscious and end.recoveries[0].came_round


def test_r5_no_recovery_roll_for_the_dead() -> None:
    dead = Airman("Kay").with_wounds(6)
    s = BattleState((replace(unit("A"), pilot=dead),), phase=Phase.END, turn=1)
    s, end = end_phase(s, ScriptedDice.of([]), OPT)
    assert end.recoveries == ()


def test_r1_1_turn_cannot_begin_twice() -> None:
    s, _ = begin_turn(two_fighters(), MAP, ScriptedDice.of([6, 6, 1, 1]), OPT)
    with pytest.raises(TurnError):
        begin_turn(s, MAP, ScriptedDice.of([]), OPT)


def test_r6_1_stall_onto_the_ground_is_a_crash() -> None:
    """R-3.2 stall loses a level; at level 1 that is the ground (height 0): R-6.1,
    with speed 0 counted as 1 (house rule crash_min_speed)."""
    low = unit("L", "blue", q=1, r=5, altitude=1, speed=3, prof={"hull": 9})
    s = BattleState((low, unit("B", "red", q=5, r=0, speed=8)))
    # initiative; L stalls: check 1+1 fails by 3 (no random move); crash 2d6 = 2 → 20 points
    dice = ScriptedDice.of([6, 6, 1, 1, 1, 1, 1, 1, 3, 4, 3, 4])
    s, start = begin_turn(s, MAP, dice, OPT)
    low2 = s.unit("L")
    assert dice.exhausted and low2.crashed and low2.pending_damage.hull_hits == 2
    assert start.crashes[0].points == 20
    assert any("house rule crash_min_speed" in line for line in start.log)


def test_r1_what_next_follows_the_turn() -> None:
    from ka_tui.rules.air.turn import what_next

    s = two_fighters()
    assert "initiative" in what_next(s).text
    s, _ = begin_turn(s, MAP, ScriptedDice.of([6, 6, 1, 1]), OPT)
    nxt = what_next(s)
    assert nxt.phase is Phase.MOVEMENT and nxt.side == "blue" and nxt.units == ("A",)
    s, _ = move_unit(s, "A", plan("F F F"), MAP, ScriptedDice.of([]), OPT)
    assert what_next(s).units == () and "end the movement" in what_next(s).text
    s, _ = end_movement(s, ScriptedDice.of([]), OPT)
    assert what_next(s).units == ("A",) and what_next(s).phase is Phase.SHOOTING
