"""A mode's screen styled once, not three times more.

Textual keeps a count of the app's CSS changes (``App._css_update_count``,
raised when the theme or the terminal's colours change) and, per screen, the
count it was last styled at (``Screen._css_update_count``, -1 when built).
Showing a mode's screen compares them and, when they differ, refreshes the
CSS in full (``App.refresh_css``): every stylesheet parsed again from its
text and every node of every mode's screen restyled. A new mode's screen
starts at -1, and the count is recorded only for a screen already mounted,
so its first visit refreshed twice (after loading its own stylesheet, which
already restyles every screen) and its second visit once more, each about
as much work as the app's whole CSS.

The trick: a screen the app builds for a mode (``app._screen_factory``) is
marked as styled at the app's count of the moment. It is: its stylesheet is
loaded and applied to every node as it mounts, and its widgets are styled
as they mount, with the app's CSS as it is then. A later theme change
still raises the app's count, so that screen is refreshed when next shown,
as before. Switch: ``styled-mode-screen``.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from ka_tui.textual_compat.tricks import Trick, trick_on


def styled_as_built(screen: Screen[Any]) -> None:
    """Mark a mode's screen, just built in the app's context, as styled with
    the app's CSS as it is now (the module's doc)."""
    if trick_on(Trick.STYLED_MODE_SCREEN):
        screen._css_update_count = screen.app._css_update_count
