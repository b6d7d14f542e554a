"""A mode's screen styled once, not three times more; each stylesheet parsed
once.

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
as before. Its first visit also posts it two ``ScreenResume`` events
(``App._init_mode``, then ``App.switch_mode``), both handled after its
widgets have mounted, and each restyled every node of it again
(``Screen._on_screen_resume``); those posted before it is mounted say
``refresh_styles=False``. A later visit restyles it as Textual does.
Switch: ``styled-mode-screen``.

The parse cache: Textual's ``Stylesheet`` keeps the rule sets parsed from
each source in a cache of 64, and parses every source again (``parse()``)
whenever one is added: ka-tui's screens and widgets bring about 150 sources,
so in that order of reading a cache of 64 never hits, and every screen or
widget class shown for the first time cost a parse of all of them. A
``reparse()`` (a screen's own stylesheet loaded) began from an empty cache,
and ``set_variables()`` emptied it even with the same variables. The app's
stylesheet (``parse_once_stylesheet``) keeps a cache large enough for every
source, parses in place on ``reparse()`` (as Textual's, the rules stay as they
were when a source fails to parse), and keeps its cache when the variables
set are the ones it has: a source is parsed again only when its text or the
variables change. Switch: ``css-parse-cache``.

Measured (``benchmarks/tricks.py``, headless, CPU from the F-key to the
mode's first frame, quick run on a busy two-core machine): the air battle's
first visit 147 ms with both tricks, 177 ms with both off; its later visit
14 ms, 39 ms with both off (30 ms with the styled screen alone off). On a
pty pinned to one core (``benchmarks/one_core.py``) every mode's first visit
is now under 300 ms and every later one under 150 ms.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.cache import LRUCache
from textual.css.stylesheet import Stylesheet
from textual.message import Message
from textual.screen import Screen

from ka_tui.textual_compat.tricks import Trick, trick_on


def styled_as_built(screen: Screen[Any]) -> None:
    """Mark a mode's screen, just built in the app's context, as styled with
    the app's CSS as it is now, and keep the ScreenResume events of its first
    visit from restyling it again (the module's doc)."""
    if not trick_on(Trick.STYLED_MODE_SCREEN):
        return
    screen._css_update_count = screen.app._css_update_count
    post = screen.post_message

    def post_message(message: Message) -> bool:
        if screen.is_mounted:  # its first visit's resumes are posted: Textual's own again
            screen.__dict__.pop("post_message", None)
        elif isinstance(message, events.ScreenResume):
            message.refresh_styles = False  # its widgets are styled as they mount, after it
        return post(message)

    screen.post_message = post_message  # type: ignore[method-assign]


# more than every stylesheet source of the app (about 150: each widget
# class's DEFAULT_CSS, each screen's file)
PARSE_CACHE_SIZE = 1024


class ParseOnceStylesheet(Stylesheet):
    """Textual's ``Stylesheet`` that parses a source once for its variables."""

    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self._parse_cache = LRUCache(PARSE_CACHE_SIZE)

    def set_variables(self, variables: dict[str, str]) -> None:
        if trick_on(Trick.CSS_PARSE_CACHE) and variables == self._variables:
            self._invalid_css = set()  # as Textual's: a failed source is tried again
            return
        super().set_variables(variables)

    def reparse(self) -> None:
        if not trick_on(Trick.CSS_PARSE_CACHE):
            super().reparse()
            return
        self.parse()


def parse_once_stylesheet(stylesheet: Stylesheet) -> Stylesheet:
    """The app's new, still empty stylesheet as a ``ParseOnceStylesheet``
    with its variables (the module's doc); call it in the app's ``__init__``."""
    if stylesheet.source or not trick_on(Trick.CSS_PARSE_CACHE):
        return stylesheet  # (a stylesheet with sources is not the one an app begins with)
    return ParseOnceStylesheet(variables=stylesheet._variables)
