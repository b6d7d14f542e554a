"""R-6 collisions and R-6.1 terrain crash damage."""

from __future__ import annotations

from dataclasses import replace

from ka_tui.rules.air.aircraft import AircraftClass
from ka_tui.rules.air.collisions import (
    check_collision,
    collision_target,
    crowded_places,
    needs_collision_roll,
    terrain_crash,
)
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.core.options import AirOptions

from .air_combat_fixtures import unit

OPT = AirOptions()


def test_r6_no_roll_when_everyone_is_in_control() -> None:
    a, b = unit("A"), unit("B", "red")
    assert not needs_collision_roll([a, b], OPT)
    assert needs_collision_roll([a, replace(b, out_of_control=True)], OPT)
    assert not needs_collision_roll([replace(a, out_of_control=True)], OPT)


def test_r6_eleven_or_more_and_ten_with_a_large_object() -> None:
    assert collision_target([unit("A"), unit("B")]).value == 11
    assert collision_target([unit("A"), unit("S", cls=AircraftClass.LARGE)]).value == 10


def test_r6_one_roll_for_the_hex_however_many_objects() -> None:
    objs = [replace(unit("A"), out_of_control=True), unit("B"), unit("C"), unit("D")]
    dice = ScriptedDice.of([5, 5])  # 10 < 11: no collision, and only one roll
    out, res = check_collision(objs, dice, OPT)
    assert dice.exhausted and res.collided is None and tuple(out) == tuple(objs)


def test_r6_collision_with_a_random_object_chosen_by_a_die() -> None:
    wild = replace(unit("A", speed=6, prof={"hull": 9}), out_of_control=True)
    b, c = unit("B", speed=4, prof={"hull": 9}), unit("C", speed=4, prof={"hull": 9})
    # 6+5 = 11 collides; a d2 picks among B and C: 2 -> C; 2+2 = 4 hits each… (|6−4|+2)
    dice = ScriptedDice.of([6, 5, 2] + [3, 4] * 8)
    out, res = check_collision([wild, b, c], dice, OPT)
    assert res.collided == ("A", "C") and dice.exhausted
    assert out[0].pending_damage.hull_hits == 4 and out[2].pending_damage.hull_hits == 4
    assert out[1] == b
    assert "R-6" in res.log[0]


def test_r6_large_object_collides_on_ten() -> None:
    wild = replace(unit("A"), out_of_control=True)
    ship = unit("S", cls=AircraftClass.LARGE, speed=5, prof={"hull": 30})
    dice = ScriptedDice.of([5, 5] + [3, 4] * 4)
    _, res = check_collision([wild, ship], dice, OPT)
    assert res.collided == ("A", "S")


def test_r6_only_objects_at_the_same_level_share_a_place() -> None:
    a, b = unit("A", altitude=2), unit("B", altitude=3)
    c = unit("C", altitude=2)
    places = crowded_places([a, b, c])
    assert list(places) == [(Hex(0, 0), 2)] and len(places[(Hex(0, 0), 2)]) == 2


def test_r6_1_crash_damage_is_2d6_times_10_times_speed() -> None:
    u = unit("U", speed=2, prof={"hull": 30})
    # 2d6 = 3 -> 3 × 10 × 2 = 60 points = 6 hits, each to a location (nose table)
    dice = ScriptedDice.of([1, 2] + [3, 4] * 6)
    u2, res = terrain_crash(u, dice, OPT)
    assert res.points == 60 and u2.pending_damage.hull_hits == 6 and dice.exhausted
    assert u2.crashed and u2.speed == 0
    assert "× 10 × speed 2 = 60 points (R-6.1)" in res.log[0]


def test_r6_1_fast_crash_destroys_without_rolling_every_block() -> None:
    u = unit("U", speed=6, prof={"hull": 4})
    dice = ScriptedDice.of([6, 6] + [3, 4] * 4)
    u2, res = terrain_crash(u, dice, OPT)
    assert res.points == 720 and u2.destroyed and dice.exhausted
