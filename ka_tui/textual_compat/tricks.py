"""The switches: one per trick this package plays on Textual's internals.

Every trick makes the app faster or lighter on the wire (or, for
``TOLERANT_INPUT``, keeps it running) by using a private Textual or Rich name;
each one can be turned off, alone or all together, and the app then does what
plain Textual does -- slower, never wrong (``tests/ui/test_tricks_off.py``
runs it with every trick off). Turn them off:

- from the shell, to tell a fault of a trick from one of the app:
  ``KA_TUI_TRICKS_OFF=screen-shadow,quiet-footer ka-tui ...`` (names as in
  ``Trick``; ``all`` for every one). ``KA_TUI_FULL_REPAINT=1``, the older
  switch, still turns off ``screen-shadow``;
- in a test or a benchmark: ``with tricks_off(Trick.QUIET_FOOTER): ...``
  (no argument: all of them).

Each trick reads its switch when it acts (a form built while the switch is
off is built the plain way), so a benchmark can time one process both ways
(``benchmarks/tricks.py``). When Textual changes a name a trick relies on,
the canary (``tests/test_textual_canary.py``) names the trick to switch off.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from enum import StrEnum

ENV_VAR = "KA_TUI_TRICKS_OFF"
FULL_REPAINT_ENV_VAR = "KA_TUI_FULL_REPAINT"


class Trick(StrEnum):
    """One trick; its value is its name in ``KA_TUI_TRICKS_OFF``."""

    SCREEN_SHADOW = "screen-shadow"
    """Only the cells that changed are written (``display.ShadowWriter``)."""
    QUIET_FOOTER = "quiet-footer"
    """The key footer is built once and rebuilt only when its keys change
    (``footer``)."""
    ONE_LAYOUT_OPEN = "one-layout-open"
    """A form is laid out once while it opens, not twice (``forms``)."""
    FIRST_RESIZE_SKIP = "first-resize-skip"
    """A pushed form ignores the Resize its own first layout sends (``forms``)."""
    SHARED_INPUT_STYLES = "shared-input-styles"
    """The Inputs of one form share their component styles (``forms``)."""
    QUIET_INPUT_OPEN = "quiet-input-open"
    """A form's Inputs do not report the values they open with (``forms``)."""
    FIXED_INPUT_WIDTH = "fixed-input-width"
    """Typing in a form field repaints the field only, no layout (``forms``)."""
    SINGLE_RESUME_RESTYLE = "single-resume-restyle"
    """A dialog just composed is not restyled again as it is shown (``forms``)."""
    LIGHT_DIALOG_REPAINT = "light-dialog-repaint"
    """A ``LIGHT`` dialog repaints only itself (``forms``; no screen sets
    ``LIGHT`` now, so it is dormant)."""
    DRAWN_TAB_ROW = "drawn-tab-row"
    """A form's tab row is one widget, not eight (``tabs``)."""
    STYLED_MODE_SCREEN = "styled-mode-screen"
    """A mode's screen, styled as it is built, is not restyled in full (every
    stylesheet parsed again, every screen restyled) as it is first shown and
    again on its second visit, nor node by node by its first visit's two
    ScreenResume events (``css_refresh``)."""
    CSS_PARSE_CACHE = "css-parse-cache"
    """Each stylesheet is parsed once for the app's CSS variables, not again
    each time a screen or widget brings one more (``css_refresh``)."""
    SAME_SIZE_RESIZE = "same-size-resize"
    """A Resize to the size the app already has does not lay the screen out
    and render it again (``resize``)."""
    TOLERANT_INPUT = "tolerant-input"
    """Any bytes from the terminal leave the app running (``terminal_input``)."""
    ONE_LINE_CRASH = "one-line-crash"
    """A crash in a player's view shows him one line, not a traceback with its
    local variables (``crash``)."""


def _from_env(environ: Mapping[str, str]) -> frozenset[Trick]:
    names = {part.strip().lower() for part in environ.get(ENV_VAR, "").split(",")}
    off = set(Trick) if "all" in names else {t for t in Trick if t.value in names}
    if environ.get(FULL_REPAINT_ENV_VAR, "") not in ("", "0"):
        off.add(Trick.SCREEN_SHADOW)
    return frozenset(off)


_off: frozenset[Trick] = _from_env(os.environ)


def trick_on(trick: Trick) -> bool:
    """Whether ``trick`` is played now."""
    return trick not in _off


def switched_off() -> frozenset[Trick]:
    return _off


def reset_from_env(environ: Mapping[str, str] | None = None) -> None:
    """Take the switches from the environment again (``os.environ`` by default)."""
    global _off
    _off = _from_env(os.environ if environ is None else environ)


@contextmanager
def tricks_off(*tricks: Trick) -> Iterator[frozenset[Trick]]:
    """Turn ``tricks`` off (no argument: all of them) for the block."""
    global _off
    before = _off
    wanted: Iterable[Trick] = tricks or tuple(Trick)
    _off = before | frozenset(wanted)
    try:
        yield _off
    finally:
        _off = before


@contextmanager
def only_tricks_off(*tricks: Trick) -> Iterator[frozenset[Trick]]:
    """Exactly ``tricks`` off (the others on, whatever the environment says)."""
    global _off
    before = _off
    _off = frozenset(tricks)
    try:
        yield _off
    finally:
        _off = before
