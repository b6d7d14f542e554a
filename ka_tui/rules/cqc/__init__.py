"""Close combat (S0 §Close combat, RULES-NOTES B): the public API in one place.

- Step 1: ``initiative_order(fighters, dice, rules)`` -> ``InitiativeResult``.
- Step 2: ``CqcCard`` (``CqcCard.build(...)``), ``card_budget(card, pool)`` for
  the live spent/left figure, ``validate_card`` / ``validate_round_cards``
  giving ``CardError`` reasons.
- Steps 3-6: ``resolve_round(fight, cards, dice_or_faces, rules)`` ->
  ``(Fight, RoundReport)``; ``next_die(fight, cards, faces_so_far, rules)``
  names the next die a GM rolling physical dice must roll; ``replay(start,
  [(cards, faces), ...], rules)`` rebuilds a fight from its log; ``round_odds(fight, a, b, rules)`` for the exact
  chance of each side winning the next round; ``preview_pairing(fight, cards,
  a, b, opts)`` what the cards would do under each way the round can end.
- State: ``Fight`` of ``Fighter``s and ``Pairing``s; every object has
  ``to_dict`` (and state/cards ``from_dict``) for the store's event log.

The modules behind it: ``cqc_card`` (card, budget), ``cqc_state`` (fighter,
fight), ``cqc_negation`` (S0 §2.1), ``cqc_standing`` (S0 §4 outcome),
``cqc_resolution`` (S0 §2.2, step 5), ``cqc_round`` (steps 4-6),
``cqc_report`` (report), ``cqc_initiative`` (step 1 and its re-roll, odds),
``cqc.passive`` (S0 §Skills Passive skills in a round: Brawl in a fistfight).
"""

from __future__ import annotations

from ka_tui.rules.cqc.card import (
    ActionKind, Budget, CardError, CardLine, CqcCard, Grade, card_budget, card_cost,
    validate_card, validate_split,
)
from ka_tui.rules.cqc.initiative import (
    InitiativeResult, InitiativeRoll, RoundOdds, initiative_order, reroll_order, round_odds,
)
from ka_tui.rules.cqc.passive import (
    PassiveBonus, PassiveLeftOut, passive_bonus, passive_left_out, round_kinds,
)
from ka_tui.rules.cqc.negation import ActionUnit, Cancellation, negate, units_of
from ka_tui.rules.cqc.preview import Scenario, preview_pairing, summarize
from ka_tui.rules.cqc.report import ContestRecord, PairingReport, RoundReport
from ka_tui.rules.cqc.resolution import (
    ActionFate, Effect, EffectKind, Outcome, PairingResolution, resolve_pairing,
)
from ka_tui.rules.cqc.round import (
    CardsInvalid, LabelledDice, NeededDie, card_for, contestant, next_die, pairing_contestants,
    pairing_left_out, pairing_passives, replay, resolve_round, validate_round_cards,
)
from ka_tui.rules.cqc.standing import Standing, Standings, standings
from ka_tui.rules.cqc.fight_state import Fight, Fighter, Pairing, Weapon

__all__ = [
    "ActionFate", "ActionKind", "ActionUnit", "Budget", "Cancellation", "CardError",
    "CardLine", "CardsInvalid", "ContestRecord", "CqcCard", "Effect", "EffectKind",
    "Fight", "Fighter", "Grade", "InitiativeResult", "InitiativeRoll", "LabelledDice",
    "NeededDie", "Outcome", "PassiveBonus", "PassiveLeftOut", "pairing_contestants",
    "pairing_left_out", "pairing_passives", "passive_left_out",
    "passive_bonus", "reroll_order", "round_kinds",
    "Pairing", "PairingReport", "PairingResolution", "Scenario", "preview_pairing", "summarize", "RoundOdds", "RoundReport",
    "Standing", "Standings", "Weapon", "card_budget", "card_cost", "card_for",
    "contestant", "initiative_order", "negate", "next_die", "replay", "resolve_pairing", "resolve_round",
    "round_odds", "standings", "units_of", "validate_card", "validate_round_cards",
    "validate_split",
]
