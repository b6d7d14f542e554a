"""A key footer that is rebuilt only when the keys it shows change.

Textual's Footer recomposes (new key widgets, each styled) on every bindings
update, and a form sends many while it opens. The trick, its gain and its
switch (``KA_TUI_TRICKS_OFF=quiet-footer``) are told in
``ka_tui/textual_compat/footer.py``, which holds the Textual internals it uses.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Footer

from ka_tui.textual_compat.footer import (
    born_compact,
    note_bindings_ready,
    show_keys_at_first_compose,
)
from ka_tui.textual_compat.tricks import Trick, trick_on


class QuietFooter(Footer):
    """Textual's Footer, rebuilt only when the keys it shows change.

    This one shows the keys from its first compose; after each bindings update
    it compares the keys it would show (key, label, action, enabled, tooltip)
    with those it shows, and rebuilds only when they differ.
    """

    _shown: tuple[Any, ...] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.quiet_keys = trick_on(Trick.QUIET_FOOTER)  # else Textual's Footer
        if self.quiet_keys:
            # Keys at the first compose (Footer waits for a bindings update, and
            # its rebuild then costs two more layout passes of the whole form).
            show_keys_at_first_compose(self)

    def compose(self) -> ComposeResult:
        if not self.quiet_keys:
            yield from super().compose()
            return
        try:
            self._shown = self._shown_keys()
        except NoMatches:
            # The screen's own widgets are not all there yet (its check_action
            # asks them): the keys follow once they are.
            self._shown = None
            self.call_after_refresh(self._recompose_if_changed)
            return
        for widget in super().compose():
            born_compact(widget, self.compact)
            yield widget

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if not self.quiet_keys:
            super().bindings_changed(screen)
            return
        note_bindings_ready(self)
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen:
            # every update compares (cheap): one skipped while another was
            # pending left the keys of an earlier phase after a burst
            self.call_after_refresh(self._recompose_if_changed)

    def _shown_keys(self) -> tuple[Any, ...]:
        return (self.show_command_palette, self.compact, *(
            (key, b.key, b.description, b.action, b.group, enabled, tooltip)
            for key, (_, b, enabled, tooltip) in self.screen.active_bindings.items()
            if b.show or key == self.app.COMMAND_PALETTE_BINDING))

    async def _recompose_if_changed(self) -> None:
        if not self.is_attached:
            return
        try:
            shown = self._shown_keys()
        except NoMatches:  # the screen's widgets are still coming: after the next refresh
            self.call_after_refresh(self._recompose_if_changed)
            return
        if shown != self._shown:
            self._shown = shown
            await self.recompose()
