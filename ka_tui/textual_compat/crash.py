"""A crash in a player's view shows him one line (trick ``ONE_LINE_CRASH``).

What: ``App._fatal_error`` (Textual's exit after an unhandled exception)
appends a Rich traceback to the private ``App._exit_renderables``, printed
to the terminal as the app ends. ``OneLineCrash`` appends one line instead.

Why: that traceback shows install paths and every frame's local variables
(``show_locals=True``). Over SSH or in a browser the terminal is the
player's, and a frame's locals can hold what he must not see (another
player's card, the campaign's path). The GM's own app keeps Textual's.

Switch: ``KA_TUI_TRICKS_OFF=one-line-crash``: Textual's traceback.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ka_tui.textual_compat.tricks import Trick, trick_on

CRASH_LINE = "ka-tui: your view stopped on an error ({kind}); nothing is lost. Reconnect."


class OneLineCrash:
    """App mixin (before ``App``): one line, not a traceback, on a crash."""

    def _fatal_error(self) -> None:
        app: Any = self
        if not trick_on(Trick.ONE_LINE_CRASH):
            super()._fatal_error()  # type: ignore[misc]
            return
        app.bell()
        kind = type(app._exception).__name__ if app._exception is not None else "unknown"
        app._exit_renderables.append(Text(CRASH_LINE.format(kind=kind)))
        app._close_messages_no_wait()

