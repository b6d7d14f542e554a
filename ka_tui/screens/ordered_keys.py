"""The screen's side of ``key_queue.py``: every key that reaches a screen is
dispatched by the screen itself, one after the other, in the order typed.

Textual hands a key to the focused widget, which passes it up to its screen
and the app, where the bindings run; keys typed in one burst are all handed
out before the first one's binding has run. A key that moves the focus, or
starts a save, would then leave the keys after it with the wrong widget or
with a state about to change. ``KeyOrder`` takes each key at the screen
(its ``on_key``), finds the binding the focused widget's chain gives it
(``Screen.active_bindings``) and runs it before looking at the next key;
while work the screen started is on its way (``KeyQueue.begin``) the keys
wait, and ``end`` replays them. A text field that leaves its typing to the
order (``OrderedInput``) gets its characters from the screen, in turn.

A screen plugs in with two lines::

    self.key_order = KeyOrder(self)               # in __init__ (or the runner's queue)
    async def on_key(self, event): await self.key_order.key(event)

and calls ``key_order.begin()`` / ``key_order.end()`` around its work, and
opens its dialogs with ``key_order.push`` (a dialog with its own order calls
``begin`` in ``__init__`` and ``end`` at the end of ``on_mount``, so keys
passed to it wait until it is up and focused -- focus with ``set_focus``, at
once). Keys that reach a screen once another is on top (a dialog it opened,
another mode) go on to that one: to its ``key_order`` when it has one (in
order), else to the app as if typed again.

The order holds for what a key does at once. A widget that answers a key
with a message (``Input.Submitted``, ``OptionList.OptionSelected``,
``Button.Pressed``) acts only after the keys typed behind it: give it an
action that calls its screen directly instead (``PickList``; the close-combat
dice field), or the keys behind it overtake it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import events
from textual.screen import Screen
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from ka_tui.screens.key_queue import HeldKey, KeyQueue


class OrderedInput(Input):
    """An ``Input`` whose keys go up to its screen's ``KeyOrder``, which types
    them in turn with every other key (mix it in before ``Input`` or a
    subclass of it)."""

    async def on_key(self, event: events.Key) -> None:
        if isinstance(getattr(self.screen, "key_order", None), KeyOrder):
            event.prevent_default()  # not typed here: the screen types it, in order


class PickList(OptionList):
    """An ``OptionList`` whose enter (or click) hands the highlighted option
    to ``chosen`` at once: the ``OptionSelected`` message it would post comes
    after the keys typed behind the enter, which would then move the
    highlight first."""

    def __init__(self, *options: Option, chosen: Callable[[Option], object],
                 **kwargs: Any) -> None:
        super().__init__(*options, **kwargs)
        self.chosen = chosen

    def action_select(self) -> None:
        if self.highlighted is None:
            return
        option = self.get_option_at_index(self.highlighted)
        if not option.disabled:
            self.chosen(option)


def type_into(field: Input, character: str) -> None:
    """``character`` typed into ``field``, as ``Input`` types a printable key."""
    selection = field.selection
    if selection.is_empty:
        field.insert_text_at_cursor(character)
    else:
        field.replace(character, *selection)


class KeyOrder:
    """One screen's keys, dispatched in the order typed (see the module doc)."""

    def __init__(self, screen: Screen[Any], queue: KeyQueue | None = None) -> None:
        self.screen = screen
        self.queue = queue if queue is not None else KeyQueue()

    async def key(self, event: events.Key) -> None:
        """The screen's ``on_key``: the key waits, or takes effect now."""
        event.stop()
        event.prevent_default()
        held = HeldKey(event.key, event.character)
        if self.screen.app.screen is not self.screen:  # typed for what is on top now
            self._pass_on((held,))
        elif not self.queue.offer(held):
            await self._dispatch(held)

    def push(self, dialog: Screen[Any], answered: Callable[[Any], object] | None = None) -> None:
        """Open ``dialog`` over the screen. The keys waiting here, and those
        typed until it closes, are its keys; the ones it leaves come back
        here and wait until ``answered`` has taken its answer (and any work
        that started)."""
        self.begin()

        def then(result: Any) -> None:
            if answered is not None:
                answered(result)
            self.end()

        self.screen.app.push_screen(dialog, then)
        self._pass_on(self.queue.drop())

    # -- the screen's work -----------------------------------------------------

    def begin(self) -> None:
        """Work starts (call it in the key's own action): keys wait for it."""
        self.queue.begin()

    def end(self) -> None:
        """The work's result is shown: the keys that waited take effect."""
        self.queue.end()
        self.release()

    def drop(self) -> int:
        """The work failed: the keys typed for what it would have done go."""
        return len(self.queue.drop())

    def accept(self, keys: tuple[HeldKey, ...]) -> None:
        """Keys another screen held for this one."""
        self.queue.hand_over(keys)
        self.release()

    def release(self) -> None:
        if self.queue.waiting and not self.queue.busy:
            self.screen.call_later(self._replay)

    async def _replay(self) -> None:
        while (key := self.queue.take()) is not None:
            await self._dispatch(key)

    # -- one key ------------------------------------------------------------------

    async def _dispatch(self, key: HeldKey) -> None:
        screen, app = self.screen, self.screen.app
        if app.screen is not screen:  # a dialog it opened, or another mode, is on top
            self._pass_on((key, *self.queue.drop()))
            return
        focused = screen.focused
        if key.printable and isinstance(focused, Input) and key.character is not None \
                and focused.check_consume_key(key.key, key.character):
            type_into(focused, key.character)
            return
        active = screen.active_bindings.get(key.key)
        if active is not None and active.enabled:
            await app.run_action(active.binding.action, active.node)

    def _pass_on(self, keys: tuple[HeldKey, ...]) -> None:
        if not keys:
            return
        top = self.screen.app.screen
        order = getattr(top, "key_order", None)
        if isinstance(order, KeyOrder):
            order.accept(keys)
            return
        for held in keys:  # as if typed again (its own order is Textual's)
            event = events.Key(held.key, held.character)
            event.set_sender(self.screen.app)
            self.screen.app.post_message(event)
