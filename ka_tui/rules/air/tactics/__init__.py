"""Suggested plans for the aircraft the GM flies (R-1.1: "the GM rolls for
every aircraft and ship he controls"): candidate plans from the engine's legal
moves, scored as a pilot would weigh them, under a named tactic, each with a
reason in words. Pure: no Textual, no database.

- ``tactic.py``: the tactics, their risk limits, when a pilot breaks off;
- ``candidates.py``: the bounded search over legal plans;
- ``scoring.py``: shots, exposure, checks, fuel and terrain;
- ``suggest.py``: ``suggest_move``, ``suggest_shot``, ``suggest_side``.
"""

from ka_tui.rules.air.tactics.suggest import (
    MoveSuggestion, ShotSuggestion, suggest_move, suggest_shot, suggest_side,
)
from ka_tui.rules.air.tactics.tactic import (
    DEFAULT_TACTIC, LIMITS, Tactic, break_off_reason, effective_tactic,
)

__all__ = ["DEFAULT_TACTIC", "LIMITS", "MoveSuggestion", "ShotSuggestion", "Tactic",
           "break_off_reason", "effective_tactic", "suggest_move", "suggest_shot",
           "suggest_side"]
