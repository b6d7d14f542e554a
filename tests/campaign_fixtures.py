"""Shared by the campaign tests: a mission flown with the demo's
Spitfire against an enemy fighter added for it, played with scripted dice
through rules/air/battle and store/battles."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.air.move_plan import parse_plan
from ka_tui.rules.air.profiles import SPITFIRE
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.store import battles, missions, roster

OPEN = ("." + " ." * 9 + "\n") * 10   # 10×10 open ground
DAY = "1944-06-06"                    # the demo's campaign date
MOREAU, SPIT = 2, 2                   # the demo's Jeanne Moreau and her Spitfire KA-B
REILLY, MITCHELL = 5, 5               # in the demo's planned "Escort the Mitchell"


@dataclass(frozen=True)
class Enemy:
    pilot: int
    aircraft: int


def add_enemy(db: object) -> Enemy:
    """Kurt Vogel in "Red 1": Evasion 0 and Hull 1, so one critical brings it down."""
    kurt = roster.add_character(db, name="Kurt Vogel", role="pilot", piloting=5, gunnery=5)
    red = roster.add_aircraft(db, replace(SPITFIRE, traits=(), evasion=0, hull=1),
                              name="Red 1")
    assert kurt.id is not None and red.id is not None
    roster.assign_pilot(db, red.id, kurt.id)
    return Enemy(kurt.id, red.id)


def fly_bounce(db: object, mission_id: int, enemy: Enemy) -> int:
    """Start the mission's battle from the mission and play it: turn 1, Blue
    wins the initiative 6+6 v 1+1 (R-1.1); the Spitfire flies one hex and
    shoots Red 1: to hit 6+6, Firepower 3d6 6 1 1 (one critical), cockpit 1+1
    wounds Kurt, who fails his consciousness roll 1+1 (R-5); Hull 1 →
    destroyed (RULES-NOTES D). Ends the battle (outcome written back)."""
    bid = missions.start_battle(db, mission_id, [
        battles.StartPosition(SPIT, "Blue", Hex.from_offset(5, 8), 0, 2, 6),
        battles.StartPosition(enemy.aircraft, "Red", Hex.from_offset(5, 2), 0, 2, 6)],
        map_text=OPEN, map_name="Open")
    lb = battles.load_battle(db, bid)
    b = lb.battle
    shot = ScriptedDice.of([6, 6, 6, 1, 1, 1, 1, 1, 1])
    for step in (lambda: b.begin_turn(ScriptedDice.of([6, 6, 1, 1])),
                 lambda: b.move("Spitfire KA-B", parse_plan("F")[0], ScriptedDice.of([])),
                 lambda: b.end_movement(ScriptedDice.of([])),
                 lambda: b.shoot("Spitfire KA-B", "Red 1", shot)):
        step()
        battles.commit(db, bid, b.events[-1])
    assert shot.exhausted
    battles.end_battle(db, bid, expect=len(b.events))
    return bid
