"""A Resize to the size the app already has does not lay the screen out again.

Textual's ``App._on_resize`` keeps every Resize it is sent as the one to
pass on (``App._resize_event``) before it compares sizes, and when the
size is the one it has it returns early but leaves that event there: the
app's next idle (``App._on_idle``) posts it to the screen, which lays out
and repaints every widget again (``Screen._refresh_layout``). The terminal
driver sends the size once as it starts, so on the way to the first frame
the roster was laid out and rendered twice more at the size it already had
(about 20-40 ms of CPU on one core, three full renders of the roster).

The trick: a Resize of the size the app has stops before Textual's handler
(``prevent_default``: the handlers of the classes below in the app's MRO,
``App._on_resize`` among them, are not called), so nothing is kept to pass
on. A Resize of another size goes through Textual's handler as before, so a
real resize lays out as ever. A dropped one still repaints the screen (no
layout): a terminal shrunk and grown back before the app read its size sends
one Resize of the old size (Textual's queue replaces a waiting Resize with the
next one), and the terminal lost what it showed. The app's own ``on_resize`` (above it in the
MRO: the screen shadow forgets the terminal) still runs. Switch:
``same-size-resize``.
"""

from __future__ import annotations

from typing import Any

from textual import events

from ka_tui.textual_compat.tricks import Trick, trick_on


class SameSizeResize:
    """Mixed into the app, before ``App``: drops a Resize of the same size."""

    async def _on_resize(self, event: events.Resize) -> None:
        app: Any = self
        if (trick_on(Trick.SAME_SIZE_RESIZE) and app._size is not None
                and app._size == event.size and app._resize_timer is None):
            event.stop()
            event.prevent_default()  # App._on_resize, next in the MRO, is not called
            # The terminal may have lost what it showed (shrunk and grown back
            # before the app read the first size: Textual's queue keeps only the
            # last Resize): repaint it all, without a layout.
            if app.screen_stack:
                app.screen.refresh()
