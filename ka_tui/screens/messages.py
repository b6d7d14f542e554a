"""A full-screen message for a file the app cannot open (not a campaign, newer schema).

Shown instead of a traceback. ``q``/escape/enter quits (or goes back when
the app can continue, e.g. to the campaign picker).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from ka_tui.widgets.quiet_footer import QuietFooter


class MessageScreen(Screen[None]):
    CSS_PATH = "messages.tcss"

    BINDINGS = [
        Binding("q,escape,enter", "close", "Close", id="message.close"),
    ]

    def __init__(self, title: str, message: str, *, hint: str = "Press q to quit.",
                 quit_on_close: bool = True) -> None:
        super().__init__()
        self.title_text = title
        self.message = message
        self.hint = hint
        self.quit_on_close = quit_on_close

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, classes="message-title", markup=False)
            yield Static(self.message, classes="message-body", markup=False)
            yield Static(self.hint, classes="message-hint", markup=False)
        yield QuietFooter()

    def action_close(self) -> None:
        if self.quit_on_close:
            self.app.exit(return_code=2)
        else:
            self.dismiss(None)
