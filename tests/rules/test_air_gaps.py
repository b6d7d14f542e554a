"""Two engine gaps closed for the air-battle screen.

- R-10: a profile's landing speed comes from the size-class table (single
  engine 3, twin 6, four 4) unless the profile sets its own (RULES-NOTES D
  "Landing surface").
- R-6: collisions are checked along the path, not only where a move ends: a
  hex the move passes through with an out-of-control object at the same level
  gets its one 2d6 roll.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ka_tui.rules.air.aircraft import AircraftProfile, table_landing_speed
from ka_tui.rules.air.battle import Battle, replay
from ka_tui.rules.air.battle_map import LandingSite, Surface, parse_map
from ka_tui.rules.air.codec import decode, encode
from ka_tui.rules.air.collisions import (
    check_path_collisions,
    path_collision_checks,
    path_places,
)
from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.air.landing import SIZE_CLASSES, landing_target
from ka_tui.rules.air.move_plan import parse_plan
from ka_tui.rules.air.movement import execute_plan
from ka_tui.rules.air.profiles import BEAUFIGHTER, LANCASTER, METEOR, SPITFIRE, TEMPEST
from ka_tui.rules.air.turn import BattleState, Phase, move_unit
from ka_tui.rules.air.units import Airman, AirUnit
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.core.options import AirOptions

from .air_combat_fixtures import unit

OPT = AirOptions()
MAP = parse_map(("." + " ." * 9 + "\n") * 10)


# ------------------------------------------------------------------ R-10 landing speed

def test_r10_landing_speed_defaults_to_the_size_class_table() -> None:
    speeds = {n: AircraftProfile("X", engines=n).landing_speed for n in (1, 2, 4)}
    assert speeds == {1: 3, 2: 6, 4: 4}
    assert speeds == {n: c.max_landing_speed for n, c in SIZE_CLASSES.items()}
    assert table_landing_speed(3) == 4              # between rows: the next larger


def test_r10_a_profile_that_sets_its_own_landing_speed_keeps_it() -> None:
    assert AircraftProfile("X", engines=2, landing_speed=4).landing_speed == 4
    assert replace(AircraftProfile("X"), engines=2).landing_speed == 3   # fixed when built
    back = decode(AircraftProfile, encode(AircraftProfile("X", engines=2)))
    assert back.landing_speed == 6


def test_r10_the_library_keeps_its_landing_speeds_from_the_table() -> None:
    assert [p.landing_speed for p in (TEMPEST, SPITFIRE, BEAUFIGHTER, METEOR, LANCASTER)] == [
        3, 3, 6, 6, 4]


def _lander(profile: AircraftProfile) -> AirUnit:
    return AirUnit("L", "blue", profile, Airman("P", piloting=5), altitude=1, speed=6)


def test_r10_a_twin_engine_aircraft_landing_at_speed_6_is_not_over_its_landing_speed() -> None:
    """The issue's example: a twin at speed 6 got +3 when every profile said 3."""
    site = LandingSite("Home", Surface.PREPARED, 8, 3, 0, Hex(0, 0))
    twin = AircraftProfile("Twin", engines=2, thrust=5)
    at_6 = landing_target(_lander(twin), site, 6, OPT)
    at_8 = landing_target(_lander(twin), site, 8, OPT)
    assert not any("over landing speed" in m.description for m in at_6.modifiers)
    [over] = [m for m in at_8.modifiers if "over landing speed" in m.description]
    assert (over.value, over.source) == (2, "R-10")
    single = landing_target(_lander(AircraftProfile("One", thrust=5)), site, 6, OPT)
    assert [m.value for m in single.modifiers if "over landing speed" in m.description] == [3]


# ------------------------------------------------------------------ R-6 along the path

def _flier(uid: str, side: str, h: Hex, *, speed: int = 3, **kw: Any) -> AirUnit:
    return replace(unit(uid, side, speed=speed, prof={"hull": 9}, **kw), hex=h)


START = Hex.from_offset(5, 8)
AHEAD = START.neighbour(0)           # facing N: the first hex of the move
END = AHEAD.neighbour(0).neighbour(0)


def _state(*units: AirUnit) -> BattleState:
    return BattleState(units, 1, Phase.MOVEMENT, ("blue", "red"), 0)


def test_r6_a_hex_passed_with_an_out_of_control_object_gets_one_roll() -> None:
    mover = _flier("A", "blue", START)
    wild = replace(_flier("B", "red", AHEAD), out_of_control=True)
    # 6+5 = 11: collision; |3−3|+2 = 2 hits each, a location 2d6 per hit
    dice = ScriptedDice.of([6, 5] + [3, 4] * 4)
    state, out = move_unit(_state(mover, wild), "A", parse_plan("F F F")[0], MAP, dice, OPT)
    assert dice.exhausted
    [res] = out.collisions
    assert res.collided == ("B", "A") and res.check.target.value == 11
    a, b = state.unit("A"), state.unit("B")
    assert (a.hex, a.pending_damage.hull_hits, b.pending_damage.hull_hits) == (END, 2, 2)
    assert any("passes through" in line and "(R-6)" in line for line in out.log)


def test_r6_no_collision_on_a_low_roll_and_only_one_roll_per_hex() -> None:
    mover = _flier("A", "blue", START)
    wilds = [replace(_flier(f"B{i}", "red", AHEAD), out_of_control=True) for i in range(3)]
    dice = ScriptedDice.of([5, 5])
    state, out = move_unit(_state(mover, *wilds), "A", parse_plan("F F F")[0], MAP, dice, OPT)
    assert dice.exhausted and out.collisions[0].collided is None
    assert state.unit("A").pending_damage.hull_hits == 0


def test_r6_no_roll_when_all_are_in_control_at_another_level_or_where_the_move_ends() -> None:
    mover = _flier("A", "blue", START)
    friend = _flier("F", "red", AHEAD)                                    # in control
    high = replace(_flier("H", "red", AHEAD, altitude=3), out_of_control=True)
    at_end = replace(_flier("E", "red", END), out_of_control=True)         # end_movement's
    dice = ScriptedDice.of([])
    _, out = move_unit(_state(mover, friend, high, at_end), "A", parse_plan("F F F")[0], MAP,
                       dice, OPT)
    assert out.collisions == ()


def test_r6_an_out_of_control_mover_rolls_where_it_passes_others() -> None:
    mover = _flier("A", "blue", START, conscious=False)      # pilot out → no control
    other = _flier("B", "red", AHEAD)
    after, report = execute_plan(mover, parse_plan("F F F")[0], MAP, ScriptedDice.of([]), OPT)
    preview = path_collision_checks(mover, after, report.path, [other], OPT)
    assert [(p.hex, t.value) for p, t in preview] == [(AHEAD, 11)]
    dice = ScriptedDice.of([1, 2])
    moved, changed, results = check_path_collisions(mover, after, report.path, [other], dice,
                                                    OPT)
    assert dice.exhausted and len(results) == 1 and changed == () and moved == after


def test_r6_path_collisions_replay_from_the_battle_log() -> None:
    a = _flier("A", "blue", START, speed=8)
    b = _flier("B", "red", AHEAD, speed=8, conscious=False)
    battle = Battle.start([a, b], MAP, OPT)
    battle.begin_turn(ScriptedDice.of([6, 6, 1, 1]))
    mv = battle.move("A", parse_plan("F F F")[0], ScriptedDice.of([6, 6] + [3, 4] * 4))
    assert mv.collisions and mv.collisions[0].collided is not None
    assert replay(battle.events, MAP, OPT) == battle.state


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9),
                                              st.integers(1, 3)), max_size=6))
def test_r6_path_places_are_on_the_path_never_its_start_or_end(
        hexes: int, others: list[tuple[int, int, int]]) -> None:
    mover = _flier("A", "blue", START, speed=hexes)
    after, report = execute_plan(mover, parse_plan(" ".join("F" * hexes))[0], MAP,
                                 ScriptedDice.of([]), OPT)
    units = [replace(_flier(f"O{i}", "red", Hex.from_offset(c, r)), altitude=lv)
             for i, (c, r, lv) in enumerate(others)]
    places = path_places(mover, report.path, units)
    on_path = {(p.hex, p.altitude) for p in report.path}
    keys = [(p.hex, p.altitude) for p in places]
    assert len(keys) == len(set(keys)) and set(keys) <= on_path
    assert (START, 2) not in keys and (after.hex, after.altitude) not in keys
    assert all((u.hex, u.altitude) == (p.hex, p.altitude) for p in places for u in p.others)
