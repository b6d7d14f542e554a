"""The roller's input rows: text fields that leave ``r`` and foreign keys to
the screen's bindings, and a labelled one-line Select."""

from __future__ import annotations

import re
from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Label, Select

from ka_tui.widgets.form_fields import TextField

# What pool notation and faces are typed with; other letters go to the bindings.
POOL_CHARS = r"[0-9dDbBtTeEmMlL@+\-\[\] ><=≥]"
FACE_CHARS = r"[0-9 ,;|]"


class RollKeyInput(Input):
    """An input that leaves ``r`` (roll) to the screen: pools and faces never
    contain an r. With ``allowed`` (a regex for one character), every other
    printable key it would not accept is left to the bindings too, so ``v``,
    ``w`` or ``/`` still work while the faces field has the focus."""

    def __init__(self, *args: Any, allowed: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.allowed = re.compile(allowed) if allowed else None
        self.cursor_blink = False  # fewer bytes over SSH; stable snapshots

    def check_consume_key(self, key: str, character: str | None) -> bool:
        if character in ("r", "R"):
            return False
        if (self.allowed is not None and character is not None and character.isprintable()
                and not self.allowed.fullmatch(character)):
            return False
        return super().check_consume_key(key, character)

    async def on_key(self, event: events.Key) -> None:
        char = event.character
        if event.is_printable and char is not None and not self.check_consume_key(event.key, char):
            event.stop()
            event.prevent_default()  # not typed
            active = self.screen.active_bindings.get(event.key)
            if active is not None and active.enabled:
                await self.app.run_action(active.binding.action, active.node)


class RollTextField(TextField):
    """A ``TextField`` whose input treats ``r`` as "roll"; ``allowed`` as in
    ``RollKeyInput``."""

    def __init__(self, *args: Any, allowed: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._allowed = allowed

    def compose(self) -> ComposeResult:
        yield self.compose_label()
        yield RollKeyInput(self._text, placeholder=self._placeholder, compact=True,
                           select_on_focus=False, id=f"input-{self.key}",
                           allowed=self._allowed)
        yield self.compose_error()


class PickRow(Horizontal):
    """A label and a one-line Select."""

    DEFAULT_CSS = """
    PickRow { height: 1; }
    PickRow > Label { width: 7; color: $text-muted; }
    PickRow > Select { width: 1fr; }
    """

    def __init__(self, label: str, select: Select[Any], *, id: str) -> None:
        super().__init__(id=id)
        self._label = label
        self._select = select

    def compose(self) -> ComposeResult:
        yield Label(self._label)
        yield self._select
