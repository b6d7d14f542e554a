"""Whole turns with scripted dice on small text-defined maps (R-1 … R-8, R-6.1,
RULES-NOTES D): positions, speeds, altitudes, damage and the log."""

from __future__ import annotations

from dataclasses import replace

from ka_tui.rules.air.battle_map import parse_map
from ka_tui.rules.air.units import Airman
from ka_tui.rules.air.aircraft import AircraftClass, EngineKind
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.core.options import AirOptions
from ka_tui.rules.air.turn import BattleState, Orders, Phase, resolve_turn

from .air_combat_fixtures import unit
from .test_air_move_support import at, plan

OPT = AirOptions()

# 8 columns × 8 rows, open ground with one hill of height 2 at column 2, row 2.
MAP = parse_map("""
. . . . . . . .
. . . . . . . .
. . 2 . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
""")


def placed(uid: str, side: str, col: int, row: int, **kw: object):  # type: ignore[no-untyped-def]
    h = at(col, row)
    return unit(uid, side, q=h.q, r=h.r, **kw)  # type: ignore[arg-type]


def test_scenario_head_on_pass_fighter_hits_bomber() -> None:
    """Blue wins initiative, closes and shoots; red's bomber flies past and cannot
    return fire (its target is behind it); R-1.3 puts red's damage in effect."""
    a = placed("A", "blue", 1, 6, facing=0, speed=8)
    c = placed("C", "red", 1, 0, facing=3, speed=8, cls=AircraftClass.BOMBER,
               prof={"evasion": 1, "hull": 6})
    faces = [6, 6, 1, 1,        # initiative blue 12, red 2
             3, 3,              # A to hit C: 6 vs 4 (range 1)
             6, 5, 1,           # Firepower: critical, hit, miss
             2,                 # C Evasion 1d6: no cancel
             5, 5,              # critical → 10 control surfaces
             3, 4]              # hit → 7 fuselage
    dice = ScriptedDice.of(faces)
    orders = {"A": Orders(plan("+2 F F F F F"), shoot="C"),
              "C": Orders(plan("F F F"), shoot="A")}
    s, rep = resolve_turn(BattleState((a, c)), orders, MAP, dice, OPT)
    assert dice.exhausted
    a2, c2 = s.unit("A"), s.unit("C")
    assert (a2.hex, a2.speed, a2.altitude, a2.facing) == (at(1, 1), 5, 2, 0)
    assert (c2.hex, c2.speed, c2.altitude, c2.facing) == (at(1, 3), 3, 2, 3)
    assert c2.damage.hull_hits == 2 and c2.damage.at("control_surfaces") == 1
    assert c2.pending_damage.hull_hits == 0
    assert a2.ammo == 9 and c2.ammo == 10 and a2.fuel == 19
    log = "\n".join(rep.log)
    assert "initiative order: blue, red" in log
    assert "A to hit C (R-2): 2d6 3+3 = 6 vs 4 (gunnery A-pilot, R-2) → success" in log
    assert "C cannot shoot at A" in log and "arc" in log
    assert "C: level 2, speed 3; engine sound; fuel 19; ammo 10; hull 4/6" in log
    assert s.phase is Phase.BETWEEN_TURNS and s.turn == 1


def test_scenario_evasive_fighter_is_harder_to_hit_and_cannot_shoot() -> None:
    """R-8: red evades (piloting check) and so cannot attack; blue shoots at +3."""
    a = placed("A", "blue", 4, 7, facing=0, speed=8)
    b = placed("B", "red", 4, 0, facing=3, speed=8)
    faces = [1, 1, 6, 6,        # red wins initiative
             3, 3,              # B evasive check: 6 vs 5 (piloting) → evading
             5, 5,              # A to hit B: 10 vs 4 + 3 (evading) = 7
             1, 1, 1]           # Firepower all miss
    dice = ScriptedDice.of(faces)
    orders = {"B": Orders(plan("F F F"), evasive=True, shoot="A"),
              "A": Orders(plan("F F F"), shoot="B")}
    s, rep = resolve_turn(BattleState((a, b)), orders, MAP, dice, OPT)
    assert dice.exhausted
    assert s.unit("A").hex == at(4, 4) and s.unit("B").hex == at(4, 3)
    assert s.unit("B").evading
    log = "\n".join(rep.log)
    assert "B evasive manoeuvre (R-8): 2d6 3+3 = 6 vs 5" in log
    assert "+ 3 (B evading (Fighter), R-8) = 7" in log
    assert "B cannot shoot at A" in log and "R-8" in log
    assert s.unit("B").ammo == 10 and s.unit("A").ammo == 9


def test_scenario_terrain_crash_into_hill() -> None:
    """R-6.1: flying at level 2 into the height-2 hill is a crash of
    2d6 × 10 × speed points, 10 per hit to random locations."""
    k = placed("K", "blue", 2, 4, facing=0, speed=7, prof={"hull": 30})
    e = placed("E", "red", 7, 7, facing=0, speed=6, engine=EngineKind.TURBINE)
    faces = [6, 6, 1, 1,        # blue first
             1, 1]              # crash roll 2 → 2 × 10 × speed 2 = 40 points = 4 hits
    faces += [3, 4] * 4         # 4 locations, all fuselage (point damage effects)
    dice = ScriptedDice.of(faces)
    orders = {"K": Orders(plan("F F")), "E": Orders(plan("F"))}
    s, rep = resolve_turn(BattleState((k, e)), orders, MAP, dice, OPT)
    assert dice.exhausted
    k2 = s.unit("K")
    assert k2.crashed and k2.hex == at(2, 2) and k2.speed == 0
    # recorded at once, in effect from blue's shooting phase
    assert k2.damage.hull_hits == 4 and k2.pending_damage.hull_hits == 0
    log = "\n".join(rep.log)
    assert "= 40 points (R-6.1)" in log and "K is down (R-6.1)" in log
    assert s.unit("E").speed == 1 and s.unit("E").hex == at(7, 6)


def test_scenario_red_rams_after_both_have_moved() -> None:
    """R-7: red moves second into blue's hex and rams (both have moved);
    6 + 0 (equal pilots) + 4 (target a fighter) − 2 (attacker a fighter) = 8."""
    a = placed("A", "blue", 3, 7, facing=0, speed=10, prof={"hull": 9, "move": 10})
    r = placed("R", "red", 3, 0, facing=3, speed=7, prof={"hull": 9})
    faces = [6, 6, 1, 1,        # blue first
             4, 4]              # ram: 8 vs 8 → success
    faces += [3, 4] * 10        # |5 − 2| + 2 = 5 hits each: 5 locations for A, 5 for R
    dice = ScriptedDice.of(faces)
    orders = {"A": Orders(plan("F F F F F")), "R": Orders(plan("F F"), ram="A")}
    s, rep = resolve_turn(BattleState((a, r)), orders, MAP, dice, OPT)
    assert dice.exhausted
    a2, r2 = s.unit("A"), s.unit("R")
    assert a2.hex == r2.hex == at(3, 2)
    assert (a2.speed, r2.speed) == (5, 2)
    # recorded at once, in effect from each unit's own next shooting phase
    assert a2.pending_damage.hull_hits == 5 and a2.damage.hull_hits == 0
    assert r2.pending_damage.hull_hits == 5
    log = "\n".join(rep.log)
    assert "R rams A (R-7): 2d6 4+4 = 8 vs 6 (ramming, R-7) + 4 (target is a fighter, R-7)" \
        " - 2 (attacker is a fighter, R-7) = 8 → success" in log
    assert "A takes 5 hit(s), R 5 (RULES-NOTES D)" in log


def test_scenario_unconscious_pilot_collides_and_stays_out() -> None:
    """R-5: an unconscious pilot's machine is out of control; sharing a hex with
    it calls for one R-6 roll (11+); in the end phase he fails to come round."""
    a = placed("A", "blue", 3, 5, facing=0, speed=8, prof={"hull": 9})
    a = replace(a, pilot=Airman("Ace", wounds=1, conscious=False))
    b = placed("B", "red", 3, 0, facing=3, speed=7, prof={"hull": 9})
    faces = [6, 6, 1, 1,        # blue first
             6, 5]              # collision roll at A's hex: 11 → A collides with B (the only other)
    faces += [3, 4] * 6         # |3 − 2| + 2 = 3 hits each
    faces += [1, 1]             # end phase: Ace needs 3 to come round (1 wound), rolls 2
    dice = ScriptedDice.of(faces)
    s, rep = resolve_turn(BattleState((a, b)), {"A": Orders(plan("F F F")),
                                                "B": Orders(plan("F F"))}, MAP, dice, OPT)
    assert dice.exhausted
    a2, b2 = s.unit("A"), s.unit("B")
    assert a2.hex == b2.hex == at(3, 2)
    assert a2.pending_damage.hull_hits == 3 and b2.damage.hull_hits == 3
    assert not a2.pilot.conscious
    log = "\n".join(rep.log)
    assert "collision at" in log and "11 (collision, R-6)" in log
    assert "A collides with B: 3 hit(s) each" in log
    assert "Ace comes round (R-5): 2d6 1+1 = 2 vs 3 (1 wound carried, R-5) → failure" in log


def test_scenario_two_pairs_destruction_evasion_and_cockpit_hit() -> None:
    """Four aircraft: blue A shoots down red C (Hull 1) before C can move; blue B
    evades (R-8); red D hits B through its evasion: a cockpit critical wounds B's
    pilot (R-5) and a fuel-tank critical leaks only once in effect (R-1.3)."""
    a = placed("A", "blue", 2, 7, facing=0, speed=8)
    b = placed("B", "blue", 5, 7, facing=0, speed=8)
    c = placed("C", "red", 2, 1, facing=3, speed=8, prof={"hull": 1})
    d = placed("D", "red", 5, 0, facing=3, speed=8)
    faces = [6, 6, 1, 1,          # blue first
             3, 3,                # B evasive check 6 vs 5
             3, 3,                # A to hit C: 6 vs 4 + 1 (range 2, 3 hexes)
             4, 1, 1,             # Firepower: one hit
             1, 1,                # C Evasion: no cancel
             3, 4,                # fuselage: C destroyed
             6, 6,                # D to hit B: 12 vs 4 + 3 (B evading)
             6, 6, 6,             # three criticals
             6, 1,                # B Evasion cancels one
             1, 1,                # cockpit: B's pilot wounded…
             2, 2,                # …and stays conscious (4 vs 3, R-5)
             6, 6]                # fuel tank
    dice = ScriptedDice.of(faces)
    orders = {"A": Orders(plan("F F F"), shoot="C"), "B": Orders(plan("F F F"), evasive=True),
              "C": Orders(plan("F F F"), shoot="A"), "D": Orders(plan("F F F"), shoot="B")}
    s, rep = resolve_turn(BattleState((a, b, c, d)), orders, MAP, dice, OPT)
    assert dice.exhausted
    a2, b2, c2, d2 = (s.unit(x) for x in "ABCD")
    assert (a2.hex, b2.hex, d2.hex) == (at(2, 4), at(5, 4), at(5, 3))
    assert c2.destroyed and c2.hex == at(2, 1) and c2.fuel == 20   # never moved again
    assert b2.evading and b2.pending_damage.hull_hits == 2
    assert b2.pending_damage.at("cockpit") == 1 and b2.pending_damage.at("fuel_tank") == 1
    assert b2.pilot.wounds == 1 and b2.pilot.conscious
    assert b2.fuel == 19                    # the leak is not in effect yet
    assert (a2.ammo, b2.ammo, d2.ammo) == (9, 10, 9)
    log = "\n".join(rep.log)
    assert "C is destroyed: 1 hits on Hull 1" in log
    assert "C flies" not in log
    assert "+ 3 (B evading (Fighter), R-8) = 7" in log
    assert "B: level 2, speed 3; engine sound; fuel 19; ammo 10; hull 2/4" in log
