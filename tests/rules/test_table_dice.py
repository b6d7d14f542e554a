"""The table's physical dice (RULES-NOTES 3): every die a step of the air
battle asks for names its roll, whose it is, its target and odds, in the
order the rules roll them (``rules/air/table_dice.py``), and the rolls still
to come are listed before their faces fall (``step_checks.expected_rolls``)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from ka_tui.rules.air import turn as t
from ka_tui.rules.air.battle import Battle
from ka_tui.rules.air.battle_map import BattleMap
from ka_tui.rules.air.table_dice import dice_due
from ka_tui.rules.core.dice import RandomDice
from ka_tui.rules.core.options import AirOptions
from tests.rules.air_combat_fixtures import unit
from tests.rules.hypothesis_counts import scaled

OPT = AirOptions()
MAP = BattleMap(20, 20)


def stalling_battle() -> Battle:
    """Four aircraft at speed 4: each stalls at the turn's start (R-3.2)."""
    units = [unit("Kay", "Blue", q=2, r=2, speed=4, altitude=3, piloting=4),
             unit("Sam", "Blue", q=2, r=5, speed=4, altitude=3, piloting=5),
             unit("Ola", "Red", q=9, r=2, speed=4, altitude=3, piloting=6),
             unit("Tom", "Red", q=9, r=5, speed=4, altitude=3, piloting=7)]
    return Battle.start(units, MAP, OPT)


def names(rolls: object) -> list[str]:
    return [getattr(r, "ask", r).what for r in rolls]  # type: ignore[attr-defined]


def test_r1_1_r3_2_turn_start_lists_initiative_then_every_stall_check() -> None:
    """Before a face: Blue's initiative is being typed and the rest of the
    turn's start is listed, each stall check with its target and odds."""
    bt = stalling_battle()
    due = dice_due(bt.state, "turn_started", {}, MAP, OPT, [])
    assert due.sides == 6 and due.current is not None
    assert due.current.ask.what == "Blue initiative (R-1.1)"
    assert names(due.later) == ["Red initiative (R-1.1)", "Kay stall (R-3.2)",
                                "Sam stall (R-3.2)", "Ola stall (R-3.2)", "Tom stall (R-3.2)"]
    kay = due.later[1]
    assert kay.target is not None and kay.target.value == 4
    assert kay.target.probability() == Fraction(33, 36)   # 2d6 vs 4: 92%


def test_r1_1_faces_fill_the_rolls_in_order() -> None:
    bt = stalling_battle()
    due = dice_due(bt.state, "turn_started", {}, MAP, OPT, [4, 5, 3])
    assert [(r.ask.what, r.faces, r.done) for r in due.rolls] == [
        ("Blue initiative (R-1.1)", (4, 5), True), ("Red initiative (R-1.1)", (3,), False)]
    assert due.current is due.rolls[-1]
    full = dice_due(bt.state, "turn_started", {}, MAP, OPT, [4, 5, 3, 2] + [6] * 8)
    assert full.enough and full.current is None and full.later == ()
    assert names(full.rolls)[2:] == ["Kay stall (R-3.2)", "Sam stall (R-3.2)",
                                     "Ola stall (R-3.2)", "Tom stall (R-3.2)"]


def test_r1_1_a_tie_names_its_re_roll() -> None:
    bt = stalling_battle()
    due = dice_due(bt.state, "turn_started", {}, MAP, OPT, [3, 3, 4, 2])
    assert due.current is not None
    assert due.current.ask.what == "Blue initiative, tie re-roll (R-1.1)"


def shooting_battle() -> Battle:
    shooter = unit("Kay", "Blue", q=5, r=5, facing=0, altitude=3, speed=4, moved=True)
    target = unit("Ola", "Red", q=5, r=4, facing=0, altitude=3, speed=4, moved=True,
                  prof={"evasion": 1})
    bt = Battle.start([shooter, target], MAP, OPT)
    bt.state = t.BattleState(bt.state.units, 1, t.Phase.SHOOTING, ("Blue", "Red"), 0)
    return bt


SHOT = {"shooter": "Kay", "target": "Ola", "weapon": "guns"}


def test_shot_lists_to_hit_firepower_evasion_and_locations() -> None:
    """RULES-NOTES D: to hit 2d6 vs gunnery + range, then (a hit) Firepower
    3d6, the target's Evasion 1d6 and a location 2d6 per hit left."""
    bt = shooting_battle()
    due = dice_due(bt.state, "shot_resolved", SHOT, MAP, OPT, [])
    assert due.current is not None and due.current.ask.what == "Kay to hit Ola (R-2)"
    assert due.current.ask.target is not None and due.current.ask.target.value == 4
    assert [(a.what, a.count) for a in due.later] == [
        ("Kay firepower (RULES-NOTES D)", 3), ("Ola evasion (RULES-NOTES D)", 1),
        ("Ola hit 1 location (RULES-NOTES D)", 2)]
    # hit (6 6); Firepower 1 6 6: two criticals; Evasion 1: none cancelled
    due = dice_due(bt.state, "shot_resolved", SHOT, MAP, OPT, [6, 6, 1, 6, 6, 1, 1])
    assert due.current is not None
    assert (due.current.ask.what, due.current.faces) == ("Ola hit 1 location (RULES-NOTES D)",
                                                         (1,))


def test_r5_a_cockpit_critical_names_the_consciousness_roll_before_the_next_location() -> None:
    """A "5 5" typed for hit 2's location cannot land on the consciousness
    roll unnoticed: after hit 1 lands in the cockpit (2d6 1+1, a critical),
    the roll being typed is the pilot's, named (R-5), then hit 2's location."""
    bt = shooting_battle()
    faces = [6, 6, 1, 6, 6, 1, 1, 1]
    due = dice_due(bt.state, "shot_resolved", SHOT, MAP, OPT, faces)
    assert due.current is not None
    assert due.current.ask.what == "Ola-pilot stays conscious (R-5)"
    after = dice_due(bt.state, "shot_resolved", SHOT, MAP, OPT, faces + [5, 5])
    assert after.current is not None
    assert after.current.ask.what == "Ola hit 2 location (RULES-NOTES D)"


@settings(max_examples=scaled(40), deadline=None)
@given(seed=st.integers(0, 100_000))
def test_every_die_of_a_turn_is_named(seed: int) -> None:
    """Whatever the dice show, every die of a whole turn (its start, moves,
    shots, the heat and end phases) belongs to a roll a rule named."""
    dice = RandomDice(seed)
    bt = shooting_battle()
    bt.state = t.BattleState(tuple(replace(u, speed=6 if u.side == "Blue" else 9, moved=False)
                                   for u in bt.state.units))
    steps: list[tuple[str, dict[str, object]]] = [("turn_started", {})]
    state = bt.state
    for kind, data in steps:
        faces: list[int] = []
        while (due := dice_due(state, kind, data, MAP, OPT, faces)).sides is not None:
            faces.append(dice.roll(due.sides))
        assert not [r.ask.what for r in due.rolls if r.ask.what.startswith("a d")]
        bt.apply_faces(kind, data, faces)
        state = bt.state
    for side in state.order:
        for u in state.side_units(side):
            _fly(bt, dice, "move_committed", {"unit": u.id, "plan": [], "evasive": side == "Red"})
        _fly(bt, dice, "phase_ended", {"phase": "movement"})
        for u in bt.state.side_units(side):
            other = next(o for o in bt.state.units if o.side != side)
            _fly(bt, dice, "shot_resolved", {"shooter": u.id, "target": other.id,
                                             "weapon": "guns"})
        _fly(bt, dice, "phase_ended", {"phase": "shooting"})
    _fly(bt, dice, "phase_ended", {"phase": "heat"})
    _fly(bt, dice, "phase_ended", {"phase": "end"})
    assert "shot_resolved" in [e["kind"] for e in bt.events]


def _fly(bt: Battle, dice: RandomDice, kind: str, data: dict[str, object]) -> None:
    """One step with faces typed until enough; a step the turn refuses is skipped."""
    from ka_tui.rules.air.codec import plan_to_json
    from ka_tui.rules.air.turn import straight_plan

    if kind == "move_committed":
        data = {**data, "plan": plan_to_json(straight_plan(bt.state.unit(str(data["unit"]))))}
    faces: list[int] = []
    try:
        while (due := dice_due(bt.state, kind, data, MAP, OPT, faces)).sides is not None:
            faces.append(dice.roll(due.sides))
    except t.TurnError:
        return
    assert not [r.ask.what for r in due.rolls if r.ask.what.startswith("a d")]
    bt.apply_faces(kind, data, faces)
