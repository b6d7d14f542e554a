"""Which of the close-combat screen's actions each step allows, and why not
(S0 §Close combat 1-6): the runner's ``permit`` answers the screen's
``check_action`` from this table, so the footer offers what the step takes
and a refused action has its reason."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ka_tui.rules.core.options import InitiativeReroll
from ka_tui.rules.cqc.log import FightProgress, FightStep

ENDED_NOTE = ("This fight has ended and its outcome is on the roster: it cannot be "
              "undone. h: its history · n: a new fight")


@dataclass(frozen=True)
class Permit:
    """Whether an action may run now, as Textual's ``check_action`` takes it
    (True: yes; None: offered, greyed out; False: not offered), and why not."""

    state: bool | None
    why: str = ""


YES = Permit(True)


class StepState(Protocol):
    """What the permits read of the runner (``runner.CombatRunner``)."""

    progress: FightProgress | None
    moved_on: bool
    reordering: bool

    @property
    def step(self) -> FightStep | None: ...

    @property
    def redo_at(self) -> tuple[int, int] | None: ...




def _if(ok: bool, why: str) -> Permit:
    return YES if ok else Permit(False, why)


def _at(*steps: FightStep, why: str) -> Callable[[StepState, FightProgress], Permit]:
    return lambda r, p: _if(r.step in steps, why)


def _undo(r: StepState, p: FightProgress) -> Permit:
    if p.broken:
        return YES
    if p.ended:  # undo_refused says why
        return Permit(False, ENDED_NOTE)
    if r.step is FightStep.ORDER:
        return Permit(None, "nothing to undo before the order of combat")
    return YES


def _redo(r: StepState, p: FightProgress) -> Permit:
    return _if(r.redo_at == (p.fight_id, p.seq),
               "nothing to redo: y puts back the round just undone")


def _reorder(r: StepState, p: FightProgress) -> Permit:
    if r.reordering:
        return YES  # o again keeps the order
    # the log's rules (rules/cqc/log.py accept) take one re-roll per round, at
    # its start: none yet this round, before any card
    why = _not_at_a_round_start(r, p)
    if why:
        return Permit(False, why)
    if p.rules.cqc.initiative_reroll is InitiativeReroll.ONCE:
        return Permit(None, "the order of combat is rolled once per fight (house rule "
                            "cqc.initiative_reroll=once)")
    return YES


def _not_at_a_round_start(r: StepState, p: FightProgress) -> str:
    """Why the order of combat cannot be re-rolled now, in the GM's steps
    (empty: it can)."""
    later = "o re-rolls it at the start of a later round (step 2, before any card)"
    if p.over:
        return "the fight is over: there is no next round to order"
    if p.initiative is None:
        return "the order of combat is being rolled (step 1): r rolls it, f types the faces"
    if r.step is FightStep.DAMAGE:
        return "the order is re-rolled at the start of the next round: enter starts it, then o"
    if r.step is not FightStep.PLAN:
        return f"the cards of round {p.fight.round} are in; {later}"
    if p.fight.round == 1:
        return f"round 1's order was rolled at step 1; {later}"
    if p.order_round >= p.fight.round:
        return f"round {p.fight.round}'s order was re-rolled already (once a round)"
    if p.cards and not r.moved_on:
        return f"a card of round {p.fight.round} is in; the order is re-rolled before any card"
    return ""


# the actions of a fight in progress: (runner, progress) -> Permit
IN_FIGHT: dict[str, Callable[[StepState, FightProgress], Permit]] = {
    "roll": _at(FightStep.ORDER, FightStep.ROLL,
                why="the dice are rolled at step 1 (the order) or step 4 (the round)"),
    "focus_dice": _at(FightStep.ORDER, FightStep.ROLL,
                      why="the table's dice are typed at step 1 or step 4"),
    "card_done": _at(FightStep.PLAN, why="the cards are handed in at step 2"),
    "reveal": _at(FightStep.REVEAL, why="the cards are revealed at step 3, once all are in"),
    "detail": _at(FightStep.RESOLVE, why="the dice detail is in the round report (step 5)"),
    "to_damage": _at(FightStep.RESOLVE, why="the damage follows the round report (step 5)"),
    "next_round": lambda r, p: _if(r.step is FightStep.DAMAGE and not p.over,
                                   "the next round follows step 6, while the fight goes on"),
    "finish": lambda r, p: _if(r.step is FightStep.DAMAGE and p.over and not p.ended,
                               "the fight ends at step 6, once no pairing fights on"),
    "undo": _undo,
    "undo_refused": lambda r, p: _if(p.ended and not p.broken, "the fight has not ended"),
    "redo": _redo,
    "history": lambda r, p: _if(r.step is not FightStep.PLAN,
                                "at step 2 h is out of the footer"),
    "history_quiet": lambda r, p: _if(r.step is FightStep.PLAN, "h is in the footer"),
    "reorder": _reorder,
    # o where it is not offered says why (under once too, where it is greyed out)
    "reorder_refused": lambda r, p: _if(_reorder(r, p).state is not True,
                                        "o re-rolls the order now"),
}


def permit(runner: StepState, action: str) -> Permit:
    """Whether ``action`` (the screen's action name) may run now, and why not."""
    p = runner.progress
    at_card = p is not None and runner.step is FightStep.PLAN
    if action == "new_fight":  # at step 2 the card's keys need the footer's room
        return _if(not at_card, "at step 2 n is out of the footer")
    if action == "new_fight_quiet":
        return _if(at_card, "n is in the footer")
    if action in ("list_fights", "reload", "page"):
        return YES
    if p is None:
        return Permit(False, "no fight in progress: n starts one")
    rule = IN_FIGHT.get(action)
    return YES if rule is None else rule(runner, p)
