"""A disabled engine or an empty tank (S0 §Traits Glider, R-1.4, R-10, R-6),
and old battles that were played under the earlier reading.

S0 §Traits: "Glider: superb flight characteristics allows plane to glide and
remain under control after engine is disabled and no hull points left." The
default (house rule ``air.engine_out_control`` = seed_and) follows the "and":
an engine lost, or a tank run dry, takes no aircraft out of control; an empty
tank is a disabled engine, so it gives no thrust points. ``either`` is how
battles were played before the option: a disabled engine or an empty tank
alone took a non-Glider out of control. A battle whose start event recorded
its rules without the option replays under ``either``.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from ka_tui.rules.air.aircraft import Trait
from ka_tui.rules.air.battle import Battle, ReplayError, replay, rules_of
from ka_tui.rules.air.battle_map import parse_map
from ka_tui.rules.air.collisions import needs_collision_roll
from ka_tui.rules.air.damage import engine_disabled, under_control
from ka_tui.rules.air.landing import landing_target
from ka_tui.rules.air.movement import validate_plan
from ka_tui.rules.air.piloting_target import thrust_capacity
from ka_tui.rules.air.units import Damage
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.core.options import AIR_LEGACY, AirOptions, EngineOut

from .air_combat_fixtures import unit
from .test_air_move_support import plan
from .test_landing import FIELD, site

SEED = AirOptions()
EITHER = replace(SEED, engine_out_control=EngineOut.EITHER)
MAP_TEXT = "\n".join([". . . . . . . ."] * 8)
MAP = parse_map(MAP_TEXT)


def test_s0_glider_the_default_follows_the_seeds_and() -> None:
    """S0 §Traits Glider: "after engine is disabled and no hull points left"."""
    assert SEED.engine_out_control is EngineOut.SEED_AND
    fighter = unit("F")
    dead_engine = replace(fighter, damage=Damage(0, (("engine", fighter.profile.thrust),)))
    dry = replace(fighter, fuel=0)
    for u in (dead_engine, dry):
        assert engine_disabled(u)
        assert under_control(u, SEED)            # the engine alone: still flown
        assert not under_control(u, EITHER)      # the earlier reading
    glider = replace(dry, profile=replace(dry.profile, traits=((Trait.GLIDER, None),)))
    assert under_control(glider, SEED) and under_control(glider, EITHER)


def test_r1_4_an_empty_tank_is_a_disabled_engine_no_thrust_points() -> None:
    """Reading: an empty tank (R-1.4 "fuel") disables the engine, so there are
    no thrust points (R-3.1) and R-10's "No thrust points available" +4 counts."""
    full = unit("F", speed=5)
    dry = replace(full, fuel=0)
    assert thrust_capacity(full, SEED) == full.profile.thrust
    assert thrust_capacity(dry, SEED) == 0
    assert thrust_capacity(dry, EITHER) == full.profile.thrust   # as played before
    refused = validate_plan(dry, plan("+1 6F"), MAP, SEED)
    assert not refused.legal and "0 of 0 left" in refused.reason
    target = landing_target(dry, site(), 3, SEED)
    assert any(m.value == 4 and "no thrust" in m.description for m in target.modifiers)


def test_r6_a_fighter_with_an_empty_tank_brings_no_collision_roll() -> None:
    """R-6: a roll only "if several objects are in one hex and one of them is out
    of control"; an empty tank no longer makes a fighter out of control."""
    a, b = replace(unit("A"), fuel=0), unit("B", "red")
    assert not needs_collision_roll([a, b], SEED)
    assert needs_collision_roll([a, b], EITHER)


def test_r10_an_aircraft_with_an_empty_tank_may_still_plan_a_landing() -> None:
    """R-10 lands it with its modifiers; only R-3.2's failed stall bars it."""
    from .test_air_move_support import unit as move_unit

    dry = replace(move_unit(col=1, row=7, altitude=1, speed=3), fuel=0)
    check = validate_plan(dry, plan("LAND"), FIELD, SEED)
    assert check.legal, check.reason
    assert "no thrust points available" in check.checks[0].target.render()
    # under either it is out of control: R-10's automatic failure, margin 10
    old = validate_plan(dry, plan("LAND"), FIELD, EITHER)
    assert old.legal and old.checks[0].target.probability() == 0


def _dry_meeting(options: AirOptions) -> Battle:
    """Blue A with an empty tank ends its move in the hex where Red B waits."""
    a = replace(unit("A", "blue", q=2, r=3, facing=0, speed=6), fuel=0)
    b = unit("B", "red", q=2, r=2, facing=0, speed=6)     # speed 6 - 5 = 1
    battle = Battle.start([a, b], MAP, options, MAP_TEXT)
    battle.begin_turn(ScriptedDice.of([6, 6, 1, 1]))      # blue 12, red 2: blue first
    battle.move("A", plan("F"), ScriptedDice.of([]))
    battle.end_movement(ScriptedDice.of([2, 3]))          # R-6 only if A is out of control
    return battle


def test_an_old_battle_replays_under_the_reading_it_was_played_with() -> None:
    """A battle started before the option recorded its rules without it: it
    replays under ``either`` (AIR_LEGACY), its R-6 roll included, while the
    same events under today's reading leave that roll unused."""
    played = _dry_meeting(EITHER)
    assert [e["kind"] for e in played.events][-1] == "phase_ended"
    assert played.events[-1]["faces"] == [[6, 2], [6, 3]]          # the R-6 roll
    old = json.loads(json.dumps(played.events))
    del old[0]["data"]["rules"]["engine_out_control"]
    assert rules_of(old[0], SEED).engine_out_control is EngineOut.EITHER
    assert replay(old, MAP, SEED) == played.state
    assert Battle.from_events(old, MAP, SEED).options == EITHER
    now = json.loads(json.dumps(played.events))
    now[0]["data"]["rules"]["engine_out_control"] = EngineOut.SEED_AND.value
    with pytest.raises(ReplayError, match="not used"):
        replay(now, MAP, SEED)
    # a log that recorded no rules at all plays under the given ones, read as then
    bare = json.loads(json.dumps(played.events))
    del bare[0]["data"]["rules"]
    assert rules_of(bare[0], SEED) == EITHER
    assert replay(bare, MAP, SEED) == played.state
    assert set(AIR_LEGACY) == {"engine_out_control"}


def test_a_new_battle_records_the_reading_and_plays_by_it() -> None:
    battle = _dry_meeting_no_roll()
    assert battle.events[0]["data"]["rules"]["engine_out_control"] == "seed_and"
    assert battle.events[-1]["faces"] == []          # no R-6 roll: A is under control


def _dry_meeting_no_roll() -> Battle:
    a = replace(unit("A", "blue", q=2, r=3, facing=0, speed=6), fuel=0)
    b = unit("B", "red", q=2, r=2, facing=0, speed=6)
    battle = Battle.start([a, b], MAP, SEED, MAP_TEXT)
    battle.begin_turn(ScriptedDice.of([6, 6, 1, 1]))
    battle.move("A", plan("F"), ScriptedDice.of([]))
    battle.end_movement(ScriptedDice.of([]))
    return battle
