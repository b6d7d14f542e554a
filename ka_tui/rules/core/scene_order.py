"""The order of a mixed scene, S0 §Close combat 1.

S0 §Close combat 1: "Determine order of combat by passing Combat Initiative
test, if not available take Active Agility test" and "For more complex
situations which include vehicles, ranged combat and melee GM determines
initiative in order from fastest to slowest, starting with high speed
vehicles, like aircraft, then goes to ground ranged combat, finishing with
close combat."

So a scene acts in three bands — aircraft, then ground ranged combat, then
close combat — and within a band by initiative: the successes of the Combat
Initiative test (or the Agility test for an actor without the skill), highest
first. Ties: higher Agility (S0 §Close combat 4's tie-break order), then the
order the GM added them in (house rule: the GM decides; the seed is silent).

Pure: ``scene_order`` sorts; ``Scene`` is an immutable tracker (current
actor, round counter); ``parse_actor`` reads the GM's one-line entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import Enum


class Band(Enum):
    """The three bands of S0 §Close combat 1, in the order they act."""

    AIRCRAFT = "aircraft"
    GROUND_RANGED = "ground ranged"
    CLOSE_COMBAT = "close combat"

    @property
    def rank(self) -> int:
        return list(Band).index(self)


_BAND_WORDS = {
    "a": Band.AIRCRAFT, "air": Band.AIRCRAFT, "aircraft": Band.AIRCRAFT,
    "g": Band.GROUND_RANGED, "ground": Band.GROUND_RANGED, "ranged": Band.GROUND_RANGED,
    "r": Band.GROUND_RANGED,
    "c": Band.CLOSE_COMBAT, "close": Band.CLOSE_COMBAT, "cqc": Band.CLOSE_COMBAT,
    "melee": Band.CLOSE_COMBAT,
}


@dataclass(frozen=True)
class Actor:
    """One actor of the scene: ``initiative`` = successes of his Combat
    Initiative test (or Agility test); ``agility`` breaks ties."""

    name: str
    band: Band
    initiative: int
    agility: int = 0
    added: int = 0  # the order the GM added him in (last tie-break)


def scene_order(actors: tuple[Actor, ...] | list[Actor]) -> tuple[Actor, ...]:
    """S0 §Close combat 1: aircraft, then ground ranged, then close combat;
    within a band, highest initiative first, then Agility, then as added."""
    return tuple(sorted(actors, key=lambda a: (a.band.rank, -a.initiative, -a.agility,
                                               a.added)))


@dataclass(frozen=True)
class Scene:
    """The tracker: actors in order, whose turn it is, and the round (from 1)."""

    actors: tuple[Actor, ...] = ()
    current: int = 0
    round: int = 1
    started: bool = False  # before the first "next", the first in order acts

    @property
    def actor(self) -> Actor | None:
        return self.actors[self.current] if self.actors else None

    def add(self, actor: Actor) -> Scene:
        """Add an actor; once the scene started, the one whose turn it is keeps it."""
        who = self.actor if self.started else None
        added = replace(actor, added=max((a.added for a in self.actors), default=-1) + 1)
        actors = scene_order((*self.actors, added))
        return replace(self, actors=actors, current=_index(actors, who))

    def remove(self, index: int) -> Scene:
        """Take out the actor at ``index`` (out of the scene); the turn moves on
        to the next one if it was his."""
        if not 0 <= index < len(self.actors):
            return self
        who = self.actor
        actors = self.actors[:index] + self.actors[index + 1:]
        if not actors:
            return replace(self, actors=(), current=0)
        if index == self.current:
            return replace(self, actors=actors, current=index % len(actors))
        return replace(self, actors=actors, current=_index(actors, who))

    def next(self) -> Scene:
        """The next actor; after the last one a new round starts with the first."""
        if not self.actors:
            return self
        if self.current + 1 < len(self.actors):
            return replace(self, current=self.current + 1, started=True)
        return replace(self, current=0, round=self.round + 1, started=True)

    def previous(self) -> Scene:
        """Back one actor (into the previous round from the first)."""
        if not self.actors:
            return self
        if self.current > 0:
            return replace(self, current=self.current - 1)
        if self.round == 1:
            return self
        return replace(self, current=len(self.actors) - 1, round=self.round - 1)

    def new_initiative(self, index: int, initiative: int) -> Scene:
        """A re-rolled initiative for one actor (the order is sorted again)."""
        who = self.actor if self.started else None
        actors = list(self.actors)
        actors[index] = replace(actors[index], initiative=initiative)
        ordered = scene_order(actors)
        return replace(self, actors=ordered, current=_index(ordered, who))


def _index(actors: tuple[Actor, ...], who: Actor | None) -> int:
    if who is None:
        return 0
    for i, a in enumerate(actors):
        if a.added == who.added:
            return i
    return 0


class ActorError(ValueError):
    """An entry that cannot be read; the message says what to type."""


_ENTRY = re.compile(r"^\s*(?P<name>.+?)\s+(?P<band>[A-Za-z]+)\s+(?P<init>-?\d+)"
                    r"(?:\s+(?P<agility>-?\d+))?\s*$")


def parse_actor(text: str) -> Actor:
    """``Kay Nowak a 3 5`` → Kay Nowak, aircraft, 3 successes, Agility 5.
    Bands: a(ircraft), g(round)/r(anged), c(lose)/cqc/melee."""
    m = _ENTRY.match(text)
    if m is None:
        raise ActorError("type: NAME BAND INITIATIVE [AGILITY], e.g. Kay a 3 5 "
                         "(band a aircraft, g ground ranged, c close combat)")
    band = _BAND_WORDS.get(m.group("band").casefold())
    if band is None:
        raise ActorError(f"'{m.group('band')}' is not a band: a (aircraft), g (ground "
                         "ranged) or c (close combat)")
    initiative = int(m.group("init"))
    agility = int(m.group("agility") or 0)
    if not 0 <= initiative <= 20 or not 0 <= agility <= 20:
        raise ActorError("initiative (successes) and Agility are 0 to 20")
    name = m.group("name").strip()
    if len(name) > 40:
        raise ActorError("a name of at most 40 characters")
    return Actor(name, band, initiative, agility)
