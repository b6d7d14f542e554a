"""The roster's filter line: ``/`` opens it, the words typed cut the table,
escape clears it. Mounted hidden once the first frame is out (an Input's
widgets and CSS cost the first frame), or at once when ``/`` comes first.

``/`` and the letters typed right after it, before the box has the focus, go
into the box (not to the roster's one-letter keys: ``/unseated`` typed fast
must not open the settings with its ``s``).
"""

from __future__ import annotations

from textual import events
from textual.screen import Screen
from textual.widgets import Input

from ka_tui.widgets.fast_table import FastTable


class FilterKeys(Screen[None]):
    """A screen of tables with a filter line above ``#roster-body``; the
    screen says which table has the keys and what a new filter does."""

    def __init__(self) -> None:
        super().__init__()
        self._filter_opening = False  # "/" was typed; the box has not the focus yet

    # -- what the screen says ------------------------------------------------

    def active_table(self) -> FastTable:
        raise NotImplementedError

    def tab_filter(self) -> str:
        """The filter of the table shown."""
        raise NotImplementedError

    def filter_changed(self, text: str) -> None:
        """The filter of the table shown is now ``text``."""
        raise NotImplementedError

    # -- the box -------------------------------------------------------------

    def _filter_box(self) -> Input | None:
        """The filter line, once mounted."""
        found = self.query("#filter")
        return found.first(Input) if found else None

    def filter_box_shown(self) -> bool:
        box = self._filter_box()
        return box is not None and box.display

    def _new_filter_box(self) -> Input:
        return Input(placeholder="filter: name, role, wounded, fight, unseated, "
                                 "aircraft… (esc clears)", id="filter", compact=True)

    async def _mount_filter_box(self) -> None:
        if self._filter_box() is None:
            box = self._new_filter_box()
            box.display = False
            await self.mount(box, before="#roster-body")

    def show_filter_box(self, text: str) -> None:
        """The table shown changed: its filter in the box, shown if there is one."""
        box = self._filter_box()
        if box is not None:
            box.value = text
            box.display = bool(text)

    async def action_filter(self) -> None:
        box = self._filter_box()
        if box is None:  # not mounted yet: the letters typed after "/" wait for it
            box = self._new_filter_box()
            await self.mount(box, before="#roster-body")
        box.display = True
        box.value = self.tab_filter()
        box.focus()
        self._filter_opening = True  # until the box has the focus: see on_key

    def clear_filter(self) -> None:
        box = self._filter_box()
        if box is not None:
            box.value = ""
            box.display = False
        self.filter_changed("")
        self.active_table().focus()

    # -- the keys ------------------------------------------------------------

    async def on_key(self, event: events.Key) -> None:
        """Keys reach this handler before the app's bindings run, so ``/`` is
        taken here too."""
        box = self._filter_box()
        if event.key == "slash" and isinstance(self.focused, FastTable) and (
                not self._filter_opening or box is None or not box.display):
            event.stop()
            event.prevent_default()
            await self.action_filter()
            return
        # A letter that reaches the screen was not taken by the box (the box
        # stops what it types), even if the box has the focus by now.
        if not self._filter_opening or box is None:
            return
        if event.is_printable and event.character:
            event.stop()
            event.prevent_default()
            box.insert_text_at_cursor(event.character)
        elif event.key == "enter":  # as if submitted: the filter stays, the table has the keys
            event.stop()
            event.prevent_default()
            self._filter_opening = False
            self.call_after_refresh(self.active_table().focus)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if not isinstance(event.widget, FastTable):
            self._filter_opening = False

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "filter":
            self.filter_changed(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "filter":
            self.active_table().focus()
            if not event.value:
                event.input.display = False
