"""What the player's screen and its pane mixins (``card_actions.py``,
``plan_actions.py``) share (issue 14)."""

from __future__ import annotations

from typing import Any

from textual.message import Message

PANES_HELP = "1 sheet · 2 fight · 3 aircraft · 4 air battles"


class PlayerLoaded(Message):
    """Posted after each read or send is shown (tests wait for it)."""


def mounted_pane(screen: Any, pane_id: str) -> Any:
    """The pane ``#pane_id`` once it has been shown (panes 2 and 4 are mounted
    then: issue 13), else None."""
    found = screen.query(f"#{pane_id}")
    return found.first() if found else None
