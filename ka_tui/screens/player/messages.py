"""Messages of the player's screen (issue 14)."""

from __future__ import annotations

from textual.message import Message


class PlayerLoaded(Message):
    """Posted after each read or send is shown (tests wait for it)."""
