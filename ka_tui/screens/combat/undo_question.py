"""The question ``u`` asks before a round is undone: the shared yes/no
dialog, with its keys in the order typed, so ``u y`` typed in one go undoes
and the keys after it reach the fight once the undo is saved."""

from __future__ import annotations

from textual import events
from textual.widgets import Button

from ka_tui.screens.confirm import ConfirmScreen
from ka_tui.screens.ordered_keys import KeyOrder


class UndoQuestion(ConfirmScreen):
    def __init__(self, question: str) -> None:
        super().__init__(question, yes="Undo", no="Keep", title="Undo round")
        self.key_order = KeyOrder(self)
        self.key_order.begin()  # keys typed before it is up wait for it

    def on_mount(self) -> None:  # (ConfirmScreen's on_mount focuses the same button)
        self.set_focus(self.query_one("#no", Button))
        self.key_order.end()

    async def on_key(self, event: events.Key) -> None:
        await self.key_order.key(event)
