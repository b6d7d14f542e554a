"""Move plans sent by players (S0 §Altitude explained: planning the move, revealing and executing) as
``plan_sent`` events of the battle log (rules/air/plans.py): which plans are
in, when a plan may be sent (R-1.1 the turn begun, R-1.2 until the aircraft
moves), the engine's refusal of an illegal plan (R-3.1), what a player may
see of another aircraft's plan (nothing but "a plan is in"), and that plans
change nothing in the replay and survive the GM's undo."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ka_tui.rules.air.battle import Battle, BattleEventKind, replay, undone_at
from ka_tui.rules.air.battle_map import parse_map
from ka_tui.rules.air.move_plan import Forward, Plan, TurnRight
from ka_tui.rules.air.plans import (
    accept_plan,
    plan_event,
    plan_refusal,
    plan_window,
    plans_in_text,
    sent_plans,
    visible_to,
)
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.core.options import AirOptions

from .air_combat_fixtures import unit

OPT = AirOptions()
MAP_TEXT = "\n".join([". . . . . . . . . . . ."] * 10)
MAP = parse_map(MAP_TEXT)


def new_battle() -> Battle:
    a = unit("A", "blue", q=1, r=8, facing=0, speed=9)
    b = unit("B", "red", q=8, r=1, facing=3, speed=9)
    return Battle.start([a, b], MAP, OPT, MAP_TEXT)


def straight(n: int = 4) -> Plan:
    return tuple(Forward() for _ in range(n))


def send(battle: Battle, uid: str, plan: Plan, evasive: bool = False, by: str = "") -> None:
    """A player's plan as the store appends it (its seq: the next position)."""
    ev = plan_event(uid, plan, evasive, by or uid.lower())
    battle.events.append({"seq": len(battle.events), **ev})


class Then6:
    """The faces given, then 6s (every R-3.2 start-of-turn check passes)."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def roll(self, sides: int) -> int:
        return self.faces.pop(0) if self.faces else min(6, sides)


def begun(battle: Battle) -> Battle:
    """R-1.1: blue wins the initiative (6+6 against 1+1)."""
    battle.begin_turn(Then6(6, 6, 1, 1))
    return battle


def test_r1_1_no_plan_before_the_turn_begins() -> None:
    b = new_battle()
    assert plan_window(b.state, "A") == "the GM has not begun the turn yet (R-1.1)"
    assert accept_plan(b.events, plan_event("A", straight(), False, "a")["data"]) \
        == "the GM has not begun the turn yet (R-1.1)"


def test_r1_2_both_sides_plan_once_the_turn_runs_until_they_move() -> None:
    """R-1.2: blue moves first; red may plan meanwhile; a moved aircraft not."""
    b = begun(new_battle())
    assert plan_window(b.state, "A") is None and plan_window(b.state, "B") is None
    b.move("A", straight(), ScriptedDice.of([]))
    assert plan_window(b.state, "A") == "A has moved this turn (R-1.2)"
    assert accept_plan(b.events, plan_event("A", straight(), False, "a")["data"]) \
        == "A has moved this turn (R-1.2)"
    assert accept_plan(b.events, plan_event("B", straight(), False, "b")["data"]) is None


def test_r1_2_the_second_side_still_plans_while_the_first_side_shoots() -> None:
    """R-1.2 "The players of the side that won initiative move and shoot first.
    Then the players of the side that lost initiative move and shoot": once
    Blue ends its movement (its shooting phase), Red's pilots may still send
    plans (plans.py: from the turn's start until the aircraft moves); not in
    the heat phase."""
    b = begun(new_battle())
    b.move("A", straight(), ScriptedDice.of([]))
    b.end_movement(ScriptedDice.of([]))
    assert b.state.phase.value == "shooting" and b.state.active_side == "blue"
    assert plan_window(b.state, "B") is None
    assert accept_plan(b.events, plan_event("B", straight(), False, "b")["data"]) is None
    assert plan_window(b.state, "A") == "A has moved this turn (R-1.2)"
    b.end_shooting(ScriptedDice.of([]))                 # Red moves now: still open
    assert plan_window(b.state, "B") is None
    b.move("B", straight(), ScriptedDice.of([]))
    b.end_movement(ScriptedDice.of([]))
    b.end_shooting(ScriptedDice.of([]))
    assert b.state.phase.value == "heat"
    assert plan_window(b.state, "B") == "the turn is in its heat phase (R-1.4): no move is left"


def test_r3_1_an_illegal_plan_is_refused_with_the_engines_reason() -> None:
    b = begun(new_battle())
    why = plan_refusal(b.state, "A", straight(2), False, MAP, OPT)
    assert why == "the plan flies 2 hex(es); speed 4 must fly 4 (R-3.1)"
    assert accept_plan(b.events, plan_event("A", straight(2), False, "a")["data"]) == why
    assert accept_plan(b.events, {"unit": "A", "plan": [{"step": "Warp"}]}) is not None
    assert plan_window(b.state, "Z") == "no aircraft 'Z' in this battle"


def test_r1_2_the_newest_plan_is_in_until_the_move_and_a_new_turn_clears() -> None:
    b = begun(new_battle())
    send(b, "A", straight())
    send(b, "B", straight())
    turn_right = (Forward(), Forward(), TurnRight(), Forward(), Forward())
    send(b, "A", turn_right)   # changed before the GM executes it
    got = sent_plans(b.events)
    assert got["A"].plan == turn_right and got["A"].seq == 4 and set(got) == {"A", "B"}
    assert plans_in_text(b.state, got) == "2 of 2 plans in: A-pilot, B-pilot"
    b.move("A", got["A"].plan, ScriptedDice.of([]))
    assert set(sent_plans(b.events)) == {"B"}
    assert plans_in_text(b.state, sent_plans(b.events)) == "1 of 1 plans in: B-pilot"


def test_plans_in_names_the_pilots_and_the_waiting() -> None:
    b = begun(new_battle())
    send(b, "B", straight())
    text = plans_in_text(b.state, sent_plans(b.events), {"A": "Kay", "B": "Olga"})
    assert text == "1 of 2 plans in: Olga; waiting for Kay"


def test_a_player_sees_only_that_another_plan_is_in() -> None:
    """DESIGN.md: secrets are filtered by who is looking. B's plan: its
    aircraft and "a plan is in", never its steps, evasive or sender."""
    b = begun(new_battle())
    send(b, "A", straight(), by="kay")
    send(b, "B", (Forward(), TurnRight(), Forward(), Forward(), Forward()), True, by="olga")
    seen = visible_to(b.events, ["A"])
    hidden = seen[-1]
    assert hidden == {"seq": 3, "kind": "plan_sent", "data": {"unit": "B"}, "faces": [],
                      "log": ["B: a plan is in"]}
    assert "olga" not in str(seen) and "TurnRight" not in str(seen)
    assert seen[:-1] == b.events[:-1]   # his own plan and every step as stored
    assert set(sent_plans(seen)) == {"A"}
    assert replay(seen, MAP, OPT) == b.state


def test_the_gms_undo_keeps_plans_sent_after_the_step() -> None:
    """Undo drops the GM's last step; the plans players sent after it stay
    (one place up); an undone move brings its plan back in."""
    b = begun(new_battle())
    send(b, "A", straight())
    b.move("A", straight(), ScriptedDice.of([]))
    send(b, "B", straight())
    assert undone_at([str(e["kind"]) for e in b.events]) == 3
    gone = b.undo()
    assert gone["kind"] == BattleEventKind.MOVE
    assert [e["kind"] for e in b.events] == ["battle_started", "turn_started", "plan_sent",
                                             "plan_sent"]
    assert [e["seq"] for e in b.events] == [0, 1, 2, 3]
    assert set(sent_plans(b.events)) == {"A", "B"} and not b.state.unit("A").moved


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["A", "B"]), max_size=6))
def test_plans_change_nothing_in_the_replay(senders: list[str]) -> None:
    """Any plans sent between the steps replay to the same state (R-1)."""
    b = begun(new_battle())
    plain = replay(list(b.events), MAP, OPT)
    for uid in senders:
        send(b, uid, straight())
    assert replay(b.events, MAP, OPT) == plain
    assert Battle.from_events(b.events, MAP, OPT).state == plain
