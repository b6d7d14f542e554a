"""Every update written through the screen shadow (trick ``SCREEN_SHADOW``).

What: ``ShadowWriter``, mixed into the app before ``App``, overrides
``App._display`` (Textual's one door to the terminal) so that each compositor
update goes through the app's ``screen_shadow`` (``widgets/screen_diff.py``)
and only the cells that changed are written; an update that changes no cell
and leaves the cursor where it was writes nothing at all (Textual would still
send a cursor move: bytes on the wire, and a screen that never looks settled).

Why: Textual repaints a widget's whole region on each refresh and the whole
screen when a dialog opens or closes; over a thin SSH link the GM waits for
every byte. Measured (``benchmarks/tricks.py``, 80x24 pty, demo campaign,
on / off): a roster cursor move 0.74 / 5.4 KB, the delete dialog opening
1.25 / 9.3 KB, the character form opening 3.4 / 7.0 to 21 KB (Textual's
writes depend on how many frames the opening takes).

Switch: ``KA_TUI_TRICKS_OFF=screen-shadow`` (or ``KA_TUI_FULL_REPAINT=1``):
every update is written whole, as Textual writes it.

Private names: ``App._display(screen, renderable)``, ``App._driver``,
``App._batch_count``, ``App._running``, ``App._closed`` and the compositor
updates (``compositor.py``) -- the canary checks them.
"""

from __future__ import annotations

from typing import Any, Protocol

from rich.console import Console
from textual.screen import Screen

from ka_tui.textual_compat.compositor import RenderedUpdate, is_update
from ka_tui.textual_compat.tricks import Trick, trick_on


class UpdateRenderer(Protocol):
    """What the shadow offers (``widgets/screen_diff.ScreenShadow``)."""

    def render(self, update: Any, console: Console) -> str: ...

    def reset(self) -> None: ...


class ShadowWriter:
    """App mixin: updates written through ``self.screen_shadow`` (see the module doc).

    The host provides ``screen_shadow`` and calls ``forget_terminal`` when the
    terminal's content is unknown (a resize, a suspend, another program)."""

    _cursor_written: Any = None

    @property
    def screen_shadow(self) -> UpdateRenderer:
        raise NotImplementedError("the app provides its screen shadow")

    def _display(self, screen: Screen[Any], renderable: Any) -> None:
        """Headless runs write nothing anyway; so does an update that changes
        no cell and leaves the cursor where it is."""
        app: Any = self
        driver = app._driver
        if (driver is None or driver.is_inline or app.is_headless
                or not trick_on(Trick.SCREEN_SHADOW) or not is_update(renderable)):
            super()._display(screen, renderable)  # type: ignore[misc]
            return
        if app._batch_count or not app._running or app._closed:
            return  # what Textual's _display does with it: nothing
        text = self.screen_shadow.render(renderable, app.console)
        cursor = app.screen.outer_size.clamp_offset(app.cursor_position)
        if not text and cursor == self._cursor_written:
            return
        self._cursor_written = cursor
        super()._display(screen, RenderedUpdate(text))  # type: ignore[misc]

    def forget_terminal(self) -> None:
        """The terminal's content and cursor are unknown: the next update is
        written whole."""
        self.screen_shadow.reset()
        self._cursor_written = None
