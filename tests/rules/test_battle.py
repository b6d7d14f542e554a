"""A battle as an append-only event log (DESIGN.md) replayed through the rules:
R-1 turn steps recorded with their dice faces; replay, undo, tampering."""

from __future__ import annotations

import json

import pytest

from ka_tui.rules.air.codec import CodecError, decode, encode, plan_from_json, plan_to_json
from ka_tui.rules.air.battle_map import parse_map
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.air.battle import Battle, ReplayError, replay
from ka_tui.rules.core.dice import RandomDice, ScriptedDice
from ka_tui.rules.air.move_plan import Forward, Plan, Thrust
from ka_tui.rules.air.movement import complete_plan, validate_plan
from ka_tui.rules.core.options import AirOptions
from ka_tui.rules.air.profiles import TEMPEST
from ka_tui.rules.air.shooting import preview_shot
from ka_tui.rules.air.turn import Phase, TurnError

from .air_combat_fixtures import unit
from .test_air_move_support import plan

OPT = AirOptions()
MAP_TEXT = "\n".join([". . . . . . . ."] * 8)
MAP = parse_map(MAP_TEXT)


def cruise(u: AirUnit) -> Plan:
    """Full thrust (within the maximum speed), then straight ahead."""
    thrust = min(u.profile.thrust, u.profile.move - u.speed)
    steps: Plan = (Thrust(thrust),) if thrust else ()
    return steps + tuple(Forward() for _ in range(u.speed + thrust))


def new_battle() -> Battle:
    a = unit("A", "blue", q=1, r=5, facing=0, speed=8)
    b = unit("B", "red", q=1, r=0, facing=3, speed=8)
    return Battle.start([a, b], MAP, OPT, MAP_TEXT)


def aim(battle: Battle, mover: str, target: str) -> Plan:
    """A legal plan needing no check that ends with ``target`` in range and
    arc if there is one (thrust, then up to three turns), else ``cruise``."""
    u, t = battle.state.unit(mover), battle.state.unit(target)
    for turns in ("", "L", "R", "2F L", "2F R", "L L", "R R", "F L L", "F R R"):
        for thrust in range(u.profile.thrust, -2, -1):
            text = f"{f'+{thrust}' if thrust > 0 else '-1' if thrust < 0 else ''} {turns}".strip()
            p = complete_plan(u, plan(text) if text else (), MAP, OPT)
            check = validate_plan(u, p, MAP, OPT)
            if check.legal and not check.checks and preview_shot(check.end, t, OPT).legal:
                return p
    return cruise(u)


def play_one_turn(battle: Battle, dice: RandomDice) -> tuple[list[str], list[str]]:
    """R-1: one whole turn; each side moves to get a shot and takes it.
    Returns (who shot, why each refused shot was refused) so a test can check
    that shots happened; a refusal must name its rule."""
    battle.begin_turn(dice)
    shooters: list[str] = []
    refusals: list[str] = []
    while battle.state.phase is Phase.MOVEMENT:
        mover = "A" if battle.state.active_side == "blue" else "B"
        target = "B" if mover == "A" else "A"
        battle.move(mover, aim(battle, mover, target), dice)
        battle.end_movement(dice)
        try:
            battle.shoot(mover, target, dice)
            shooters.append(mover)
        except TurnError as e:
            refusals.append(str(e))
        battle.end_shooting(dice)
    battle.heat(dice)
    battle.end(dice)
    for why in refusals:
        assert "S0" in why or "R-" in why or "house rule" in why or "out of the battle" in why, why
    return shooters, refusals


def test_battle_log_records_every_step_with_faces() -> None:
    b = new_battle()
    shooters, _ = play_one_turn(b, RandomDice(7))
    kinds = [e["kind"] for e in b.events]
    assert kinds[0] == "battle_started" and kinds[1] == "turn_started"
    assert kinds.count("move_committed") == 2 and kinds[-2:] == ["phase_ended", "phase_ended"]
    assert shooters and kinds.count("shot_resolved") == len(shooters)
    shot = next(e for e in b.events if e["kind"] == "shot_resolved")
    assert shot["faces"] and all(s == 6 for s, _ in shot["faces"][:2])  # 2d6 to hit first
    assert [e["seq"] for e in b.events] == list(range(len(b.events)))
    turn_started = b.events[1]
    assert len(turn_started["faces"]) >= 4 and all(s == 6 for s, _ in turn_started["faces"])
    assert any("R-1.1" in line for line in turn_started["log"])


def test_battle_log_is_json_and_replays_to_the_same_state() -> None:
    b = new_battle()
    dice = RandomDice(11)
    shots = [play_one_turn(b, dice)[0] for _ in range(3)]
    assert shots[0], "the first turn has a shot in it"
    events = json.loads(json.dumps(b.events))
    assert sum(e["kind"] == "shot_resolved" for e in events) == sum(map(len, shots))
    assert replay(events, MAP, OPT) == b.state
    again = Battle.from_events(events, MAP, OPT)
    assert again.state == b.state and again.state.turn == 3


def test_battle_refused_step_appends_nothing() -> None:
    b = new_battle()
    b.begin_turn(ScriptedDice.of([6, 6, 1, 1]))
    n = len(b.events)
    with pytest.raises(TurnError):
        b.move("B", plan("F F F"), ScriptedDice.of([]))  # red waits for blue
    assert len(b.events) == n


def test_battle_undo_drops_the_last_event_and_replays() -> None:
    b = new_battle()
    b.begin_turn(ScriptedDice.of([6, 6, 1, 1]))
    before = b.state
    b.move("A", plan("F F F"), ScriptedDice.of([]))
    assert b.state.unit("A").moved
    last = b.undo()
    assert last["kind"] == "move_committed" and b.state == before


def test_battle_replay_refuses_tampered_faces() -> None:
    b = new_battle()
    b.begin_turn(ScriptedDice.of([6, 6, 1, 1]))
    events = json.loads(json.dumps(b.events))
    events[1]["faces"] = events[1]["faces"][:3]
    with pytest.raises(ReplayError, match="no die left"):
        replay(events, MAP, OPT)
    events[1]["faces"] = [[6, 6], [6, 6], [6, 1], [6, 1], [6, 3]]
    with pytest.raises(ReplayError, match="not used"):
        replay(events, MAP, OPT)
    events[1]["faces"] = [[8, 6], [6, 6], [6, 1], [6, 1]]
    with pytest.raises(ReplayError, match="d8"):
        replay(events, MAP, OPT)


def test_battle_replay_refuses_steps_out_of_order() -> None:
    b = new_battle()
    events = json.loads(json.dumps(b.events))
    events.append({"seq": 1, "kind": "move_committed",
                   "data": {"unit": "A", "plan": [], "evasive": False}, "faces": [], "log": []})
    with pytest.raises(ReplayError, match="not the movement phase"):
        replay(events, MAP, OPT)


def test_battle_units_need_unique_ids() -> None:
    with pytest.raises(ValueError):
        Battle.start([unit("A"), unit("A")], MAP, OPT)


def test_json_codec_round_trips_units_and_plans() -> None:
    u = AirUnit("T", "blue", TEMPEST, unit("X").pilot)
    assert decode(AirUnit, json.loads(json.dumps(encode(u)))) == u
    p = plan("+2 AB F F R F C2 CT D3 LOOP > < LAND! -1")
    assert plan_from_json(json.loads(json.dumps(plan_to_json(p)))) == p
    with pytest.raises(CodecError):
        plan_from_json([{"step": "Teleport"}])
    with pytest.raises(CodecError):
        decode(AirUnit, {**encode(u), "warp": 9})


def test_battle_phase_after_full_turn() -> None:
    b = new_battle()
    shooters, _ = play_one_turn(b, RandomDice(3))
    assert shooters and b.state.phase is Phase.BETWEEN_TURNS and len(b.log) > 10


def test_battle_undo_across_turns_matches_a_full_replay() -> None:
    b = new_battle()
    dice = RandomDice(5)
    assert play_one_turn(b, dice)[0], "a shot to undo"
    play_one_turn(b, dice)
    assert len(b.checkpoints) == 2  # one per turn start
    while len(b.events) > 3:
        b.undo()
        assert b.state == replay(b.events, MAP, OPT)
    again = Battle.from_events(json.loads(json.dumps(b.events)), MAP, OPT)
    assert again.state == b.state


def test_battle_from_events_keeps_turn_checkpoints() -> None:
    b = new_battle()
    dice = RandomDice(9)
    assert play_one_turn(b, dice)[0]
    play_one_turn(b, dice)
    again = Battle.from_events(b.events, MAP, OPT)
    assert again.checkpoints.keys() == b.checkpoints.keys()
    assert all(again.checkpoints[k] == b.checkpoints[k] for k in b.checkpoints)


def test_battle_physical_dice_are_asked_for_one_at_a_time() -> None:
    """RULES-NOTES 3: a GM rolling real dice types the faces; the engine says
    which die comes next and records the step when the faces are enough."""
    from ka_tui.rules.core.dice import DiceError

    b = new_battle()
    faces: list[int] = []
    asked = []
    while (sides := b.needs("turn_started", {}, faces)) is not None:
        asked.append(sides)
        faces.append(6 if len(faces) < 2 else 1)
    assert asked == [6, 6, 6, 6]
    with pytest.raises(DiceError, match="more than the step needs"):
        b.apply_faces("turn_started", {}, faces + [3])
    assert len(b.events) == 1
    b.apply_faces("turn_started", {}, faces)
    assert b.state.order == ("blue", "red") and b.events[-1]["faces"] == [[6, 6], [6, 6],
                                                                         [6, 1], [6, 1]]
    with pytest.raises(TurnError):
        b.needs("move_committed", {"unit": "B", "plan": [], "evasive": False}, [])


def _tail_chase(seed: int) -> Battle:
    """A (blue) 3 hexes behind B (red), both north at speed 6: A gets a shot
    (RULES-NOTES D) in the one turn played."""
    a = unit("A", "blue", q=1, r=6, facing=0, speed=6)
    b = unit("B", "red", q=1, r=3, facing=0, speed=6)
    battle = Battle.start([a, b], MAP, OPT, MAP_TEXT)
    play_one_turn(battle, RandomDice(seed))
    return battle


def test_battle_replays_under_the_house_rules_it_was_started_with() -> None:
    """battle_started records the air house rules; after the
    campaign's rules change (hits on 7+: none), the log still replays to the
    same state, and Battle.from_events plays on under the recorded rules."""
    import dataclasses

    played = _tail_chase(3)
    events = json.loads(json.dumps(played.events))
    assert events[0]["data"]["rules"]["firepower_hit_on"] == 4
    assert [e["kind"] for e in events].count("shot_resolved") == 1
    changed = dataclasses.replace(OPT, firepower_hit_on=7)
    assert replay(events, MAP, changed) == played.state
    again = Battle.from_events(events, MAP, changed)
    assert again.state == played.state and again.options == OPT
    # Without the recorded rules the same log does not replay under the new ones.
    del events[0]["data"]["rules"]
    with pytest.raises(ReplayError, match="not used"):
        replay(events, MAP, changed)


def test_battle_log_without_recorded_rules_replays_under_the_given_ones() -> None:
    """A log written before battles recorded their rules (no ``rules`` in battle_started) replays
    as before: under the options passed in."""
    played = _tail_chase(3)
    events = json.loads(json.dumps(played.events))
    del events[0]["data"]["rules"]
    assert replay(events, MAP, OPT) == played.state
    assert Battle.from_events(events, MAP, OPT).state == played.state
