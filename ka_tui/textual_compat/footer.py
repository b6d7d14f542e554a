"""The key footer's internals (trick ``QUIET_FOOTER``, used by ``widgets/quiet_footer.py``).

What: ``QuietFooter`` shows the keys from its first compose (Textual's
``Footer`` waits for a bindings update: its private reactive
``Footer._bindings_ready``), builds each key widget (``FooterKey``, in the
private ``textual.widgets._footer``) already compact, and rebuilds only when
the keys it shows change -- where ``Footer.bindings_changed`` recomposes on
every bindings update. Its ``bindings_changed`` is a copy of Textual's with
that check added; the canary holds the text of the copied method, so a
Textual that changes it fails by name.

Why: a form sends about ten bindings updates while it opens (each focus
change, each ``refresh_bindings``); each rebuilt the same three keys (new
widgets, each styled), and the footer's first rebuild cost two more layout
passes of the whole form. Measured (``benchmarks/tricks.py``, CPU from the
key to the first frame of the character form, on / off): 113 / 135 ms
(a machine loaded 6x over: 130 / 163 ms).

Switch: ``KA_TUI_TRICKS_OFF=quiet-footer``: the footer is Textual's.
"""

from __future__ import annotations

from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

# Textual's Footer.bindings_changed, which QuietFooter.bindings_changed copies
# (the canary compares them line by line).
COPIED_BINDINGS_CHANGED = '''
    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self.recompose)
'''


def show_keys_at_first_compose(footer: Footer) -> None:
    """The footer composes its keys at once, not after a bindings update."""
    footer.set_reactive(Footer._bindings_ready, True)


def note_bindings_ready(footer: Footer) -> None:
    """What the first line of ``Footer.bindings_changed`` does."""
    footer._bindings_ready = True


def born_compact(widget: Widget, compact: bool) -> None:
    """A key widget of the footer born with the footer's compact flag: its data
    binding then changes nothing, where it restyled every key as it mounted
    (the command palette's key is not bound to the flag: left alone)."""
    if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
        widget.set_reactive(FooterKey.compact, compact)
        widget.set_class(compact, "-compact", update=False)
