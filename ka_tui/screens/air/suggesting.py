"""The suggested plans on the air screen, headless (no Textual): the GM's
wingman of ``rules/air/tactics`` asked through the turn runner.

- ``fill_one``: the selected aircraft's plan (and evasive) filled with the
  suggestion under its tactic; it is then a plan being built like any other
  (the path, costs and checks show; ``g`` goes, keys edit it);
- ``fill_side``: the same for every aircraft of the side that moves now and
  no player flies (``tactics.log.player_flown``);
- ``pick_target``: in the shooting phase, the target the suggestion shoots
  (or none) with its reason;
- ``tactic_step``: the ``tactic_set`` step that moves an aircraft's (or its
  side's) tactic on to the next one, saved in the battle's log like a step.
"""

from __future__ import annotations

from ka_tui.rules.air import turn as t
from ka_tui.rules.air.tactics import MoveSuggestion, ShotSuggestion, suggest_move, suggest_shot
from ka_tui.rules.air.tactics.log import (
    Scope, TacticBook, next_tactic, player_flown, tactic_event, tactics_of,
)
from ka_tui.screens.air.runner import PendingStep, Refused, Runner


def book(runner: Runner) -> TacticBook:
    return tactics_of(runner.battle.events)


def tactic_line(runner: Runner, uid: str) -> str:
    """``tactic: cautious (side)`` for the aircraft panel (own, the side's, or
    the default with no word: short enough for the panel's one line)."""
    u = runner.unit(uid)
    if u is None:
        return ""
    b = book(runner)
    whose = {"own": " (own)", "side": " (side)", "default": ""}[b.source(u)]
    return f"tactic: {b.of(u).label}{whose}"


def fill_one(runner: Runner, uid: str | None) -> MoveSuggestion:
    """Fill ``uid``'s plan with its suggestion; ``Refused`` says why not."""
    if uid is None:
        raise Refused("select an aircraft (tab)")
    if not runner.plannable(uid):
        raise Refused(f"{uid} does not move now: {runner.next().text}")
    u = runner.unit(uid)
    assert u is not None
    got = suggest_move(runner.state, uid, runner.battle_map, runner.options, book(runner).of(u))
    if got is None:
        raise Refused(f"no plan to suggest for {uid}")
    runner.plans[uid] = got.plan
    runner.evasive.discard(uid)
    if got.evasive:
        runner.evasive.add(uid)
    return got


def fill_side(runner: Runner) -> list[MoveSuggestion]:
    """Fill the plans of every aircraft that moves now and no player flies."""
    if runner.state.phase is not t.Phase.MOVEMENT:
        raise Refused("suggestions fill plans in the movement phase")
    players = player_flown(runner.battle.events)
    todo = [uid for uid in runner.next().units if uid not in players]
    if not todo:
        raise Refused("every aircraft that moves now is a player's")
    return [fill_one(runner, uid) for uid in todo]


def pick_target(runner: Runner, uid: str | None) -> ShotSuggestion:
    if runner.state.phase is not t.Phase.SHOOTING:
        raise Refused("targets are picked in the shooting phase")
    if uid is None or uid not in runner.next().units:
        raise Refused(f"select an aircraft that may attack (tab): {runner.next().text}")
    u = runner.unit(uid)
    assert u is not None
    return suggest_shot(runner.state, uid, runner.options, book(runner).of(u))


def tactic_step(runner: Runner, uid: str | None, scope: Scope) -> PendingStep:
    """The step that sets the next tactic for ``uid`` (scope "unit") or its side."""
    u = runner.unit(uid)
    if u is None:
        raise Refused("select an aircraft (tab)")
    b = book(runner)
    current = (b.units.get(u.id) or b.of(u)) if scope == "unit" else \
        (b.sides.get(u.side) or b.of(u))
    name = u.id if scope == "unit" else u.side
    new = next_tactic(current)
    ev = tactic_event(scope, name, new)
    whom = name if scope == "unit" else f"side {name}"
    return PendingStep(ev["kind"], ev["data"], f"{whom}: tactic {new.label}")
