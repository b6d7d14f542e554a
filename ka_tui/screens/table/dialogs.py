"""The Table mode's dialogs: a key to add, and a code or a link shown once."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Static

from ka_tui.screens.door import door
from ka_tui.screens.store_work import store_work
from ka_tui.screens.table.qr import qr_lines
from ka_tui.widgets.form_fields import LightModal

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB
    from ka_tui.store.table_seats import KeyInfo


def key_text(text: str) -> str:
    """The key itself, or the content of the ``.pub`` file it names."""
    from ka_tui.store.errors import ValidationError
    from ka_tui.store.table_seats import KEY_TYPES

    if text.split(None, 1)[0] in KEY_TYPES:
        return text
    path = Path(os.path.expanduser(text))
    try:
        return path.read_text(encoding="utf-8", errors="replace")[:20000]
    except OSError as error:
        raise ValidationError("key", f"cannot read {path}: {error.strerror or error}") \
            from None


class AddKeyScreen(LightModal["KeyInfo | None"]):
    """The player's public key, pasted, or the path of his ``.pub`` file;
    enter binds it to the character (a refusal is said under the field and
    nothing is written). Dismisses with the key added, or None."""

    CSS_PATH = "dialogs.tcss"

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="table.key.cancel")]

    def __init__(self, name: str, character_id: int) -> None:
        super().__init__()
        self.player = name
        self.character_id = character_id

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"Add a key for {self.player}"
            yield Static("Paste his public key (one line: ssh-ed25519 AAAA… name), or type "
                         "the path of his .pub file; enter adds it.", classes="hint",
                         markup=False)
            yield Input(placeholder="ssh-ed25519 AAAA… or ~/kasia.pub", id="key-text",
                        compact=True)
            yield Static("", id="key-error", markup=False)

    def on_mount(self) -> None:
        self.query_one(Input).cursor_blink = False
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        from ka_tui.store.table_seats import add_key

        event.stop()
        text = event.value.strip()
        if not text:
            return

        def job(db: CampaignDB) -> KeyInfo:
            return add_key(db, self.character_id, key_text(text), door(self).now())

        def failed(error: Exception) -> None:
            self.query_one("#key-error", Static).update(
                getattr(error, "message", None) or str(error))
            self.app.bell()

        store_work(self, job, group="table-key", done=self.dismiss, failed=failed)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ShownOnceScreen(LightModal[None]):
    """A join code or a link, with what to do with it; a link with its QR code.
    Shown once: the file keeps only its digest."""

    CSS_PATH = "dialogs.tcss"

    BINDINGS = [Binding("escape,enter,q", "close", "Close", show=False,
                        id="table.shown.close")]

    def __init__(self, title: str, secret: str, hint: str, *, qr: str | None = None,
                 plain: bool = False) -> None:
        super().__init__()
        self.title_text = title
        self.secret = secret
        self.hint = hint
        self.qr = qr
        self.plain = plain

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = self.title_text
            if self.qr is not None:
                yield Static(self._qr(self.qr), id="shown-qr")
            yield Static(self.secret, id="shown-secret", markup=False)
            yield Static(self.hint, classes="hint", markup=False)

    def _qr(self, text: str) -> Content:
        """Black on white for a phone's camera; without colour, the light
        modules drawn (a dark terminal)."""
        if self.plain:
            return Content("\n".join(qr_lines(text, dark_drawn=False)))
        return Content("\n".join(qr_lines(text))).stylize("#000000 on #ffffff")

    def action_close(self) -> None:
        self.dismiss(None)
