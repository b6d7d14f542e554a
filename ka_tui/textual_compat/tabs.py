"""A form's tab row drawn by one widget (trick ``DRAWN_TAB_ROW``, used by ``widgets/form_tabs.py``).

What: ``FormTabs`` is Textual's ``TabbedContent`` with its tab row drawn by
one widget (``TabRow``) instead of Textual's eight (``ContentTabs``: a
scroll container, a bar, a row, one ``ContentTab`` per tab, the underline).
It composes the panes itself and reacts to ``active`` itself, so it replaces
Textual's private watcher ``TabbedContent._watch_active`` (which drives the
``ContentTabs`` it does not have) through ``DrawnTabsInternals``, and reads
a pane's title (``TabPane._title``).

Why: the eight widgets, each styled, laid out and drawn when a form opens,
were about a fifth of the time the character form took to open. Measured
(``benchmarks/tricks.py``, CPU from the key to the first frame of the
character form, on / off): 113 / 237 ms (a machine loaded 6x over:
130 / 149 ms).

Switch: ``KA_TUI_TRICKS_OFF=drawn-tab-row``: the forms' tabs are Textual's
``TabbedContent`` (same panes, ids, ``active`` and messages).
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import TabbedContent, TabPane


def pane_title(pane: TabPane) -> Content:
    """The title a pane was made with (its tab's label)."""
    title: Content = pane._title
    return title


class DrawnTabsInternals(TabbedContent):
    """``TabbedContent`` whose reaction to ``active`` is ``active_changed``
    while ``draws_own_tabs`` (else Textual's own)."""

    draws_own_tabs = False

    def active_changed(self, active: str) -> None:
        """The shown pane is now ``active`` ("" for none)."""

    def _watch_active(self, active: str) -> None:
        if self.draws_own_tabs:
            self.active_changed(active)
        else:
            super()._watch_active(active)
