"""The order of a mixed scene, S0 §Close combat 1:
aircraft first, then ground ranged combat, then close combat; within a band
by Combat Initiative (or Agility) successes."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from ka_tui.rules.core.scene_order import (
    Actor, ActorError, Band, Scene, parse_actor, scene_order,
)


def test_s0_close_combat_1_bands_then_initiative() -> None:
    """"starting with high speed vehicles, like aircraft, then goes to ground
    ranged combat, finishing with close combat"; fastest (most successes) first."""
    actors = [Actor("Mike", Band.CLOSE_COMBAT, 4), Actor("Kay", Band.AIRCRAFT, 1),
              Actor("Olga", Band.GROUND_RANGED, 2), Actor("Arthur", Band.AIRCRAFT, 3),
              Actor("Ilse", Band.CLOSE_COMBAT, 4, agility=6)]
    assert [a.name for a in scene_order(actors)] == ["Arthur", "Kay", "Olga", "Ilse", "Mike"]


def test_tracker_highlights_the_current_actor_and_counts_rounds() -> None:
    scene = Scene()
    for text in ("Mike c 2", "Kay a 1", "Olga g 3"):
        scene = scene.add(parse_actor(text))
    assert scene.actor is not None and scene.actor.name == "Kay" and scene.round == 1
    scene = scene.next().next()
    assert scene.actor is not None and scene.actor.name == "Mike"
    scene = scene.next()
    assert (scene.actor.name if scene.actor else "", scene.round) == ("Kay", 2)
    assert scene.previous().round == 1
    # an actor joining mid-round does not take the turn from the current one
    scene = scene.next().add(parse_actor("Arthur a 5"))
    assert scene.actor is not None and scene.actor.name == "Olga"
    scene = scene.remove(scene.current)
    assert scene.actor is not None and scene.actor.name == "Mike"


@pytest.mark.parametrize("text, part", [
    ("Kay", "NAME BAND"), ("Kay x 3", "not a band"), ("Kay a 30", "0 to 20")])
def test_bad_entries_say_what_to_type(text: str, part: str) -> None:
    with pytest.raises(ActorError) as err:
        parse_actor(text)
    assert part in str(err.value)


@given(st.lists(st.tuples(st.sampled_from(list(Band)), st.integers(0, 8),
                          st.integers(0, 8)), max_size=12))
def test_order_is_banded_and_sorted_within_bands(raw: list[tuple[Band, int, int]]) -> None:
    actors = [Actor(f"x{i}", b, n, ag, added=i) for i, (b, n, ag) in enumerate(raw)]
    ordered = scene_order(actors)
    assert sorted(ordered, key=lambda a: a.added) == sorted(actors, key=lambda a: a.added)
    for a, b in zip(ordered, ordered[1:]):
        assert (a.band.rank, -a.initiative, -a.agility) <= (b.band.rank, -b.initiative,
                                                              -b.agility)
