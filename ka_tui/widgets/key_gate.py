"""No key is ever lost, and typing speed never changes the result: the
app's key gate.

Textual hands each key from the terminal to the focused widget's queue and
takes the next key at once; the binding a key runs is looked up only once
the key has bubbled back up to the app. Keys that arrive in one burst (a
fast typist, a paste, an SSH link that delivers a line in one read) are all
handed out before the first one's binding has run: a key that switches the
mode, opens a form, moves the focus or starts a save leaves the keys behind
it with the screen it left, the widget it moved from, or a state about to
change.

``KeysInOrder`` (an ``App`` mixin: ``host.CampaignHost`` has it, so the
GM's and the player's apps do) takes every key and paste from the terminal
and hands them to Textual one at a time, in the order typed. The next one
goes only

1. once the one before has been handled wherever it went: a probe
   (``KeyProbe``) posted right behind it, to the same widget, follows it
   through the same queues up to the app; a second one goes round from the
   widget focused then, so what its binding posted (``Button.Pressed``,
   ``Input.Submitted``, a focus change, a callback) is handled too, and a
   screen pushed, popped or switched to by it has composed, mounted and
   taken the focus (a probe gets through a screen only after those);
2. and once nothing holds the keys: work that a key began, on its way.

Work holds the keys by itself when it is a ``store_work`` job
(``screens/store_work.py``): from the job's start until its ``done`` (or
``failed``) has run, whenever it is begun by a node of the screen on top
while the gate is busy (a key being handled, keys waiting, or a hold): what
a key began, and the read the ``done`` of such a write begins, hold them; a
read begun by another process's change does not. ``hold_keys=True`` holds
whoever began the job (a view's first read), ``False`` never (a read no key
depends on). Any other work holds them by hand::

    hold = hold_keys(self)     # keys wait from now (on the app's thread) ...
    hold.release()             # ... until its result is shown (once; later calls do nothing)

``hold_keys(self, at_most=1.0)`` lets them go after a second however the
work stands (a startup read on a slow disk must not keep the GM from
reloading or quitting).

A write refused, the keys typed for what it would have done may be dropped
(``drop_waiting_keys(self)``, how many, to say so).

A screen plugs in by doing its reads and writes with ``store_work`` (they
hold the keys while on their way), holding by hand around any other worker,
and *not* guarding its actions (``if self.busy: return`` drops the key: a
key never reaches a screen whose work is on its way). The air screen's
write queue, say::

    def _write(self, ...):
        ...
        store_work(self, self._drain, group="air-write", done=self._drained, ...)
        # held while the queue drains: the next key acts on what it left

No private Textual name is needed: the gate overrides ``App.on_event`` and
follows keys with ordinary messages.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

from textual import events
from textual.app import App
from textual.dom import DOMNode
from textual.message import Message
from textual.message_pump import MessagePump
from textual.timer import Timer
from textual.widget import Widget
from textual.worker import Worker

R = TypeVar("R")
GatedEvent = events.Key | events.Paste


class KeyProbe(Message):
    """Posted behind a key to the node it went to: back at the app, every
    node on its way has handled the key and what was posted to it before."""


class KeyHold:
    """Keys wait while this is held (``hold_keys``); ``release`` once."""

    def __init__(self, gate: KeyGate | None) -> None:
        self._gate = gate
        self.watch: asyncio.Task[None] | None = None  # the worker it waits for

    @property
    def held(self) -> bool:
        return self._gate is not None

    def release(self) -> None:
        gate, self._gate = self._gate, None
        if gate is not None:
            gate.release(self)

    def until_done(self, worker: Worker[Any]) -> None:
        """Released once ``worker`` is over, however it ends (done, failed,
        cancelled before it began)."""
        if not self.held:
            return

        async def wait() -> None:
            try:
                await worker.wait()
            except Exception:  # noqa: BLE001 - failed or cancelled: over all the same
                pass
            finally:
                self.release()

        self.watch = asyncio.get_running_loop().create_task(wait())


class KeyGate:
    """One app's keys, handed to Textual one at a time (see the module doc)."""

    ROUNDS = 2          # probes after each key: its own way, then from the focus
    LOOK = 0.25         # seconds between looks at a probe that may have been lost
    LOST = 5.0          # a probe out this long is taken as lost wherever it is

    def __init__(self, app: App[Any], dispatch: Callable[[GatedEvent], Awaitable[None]]) -> None:
        self._app = app
        self._dispatch = dispatch
        self._waiting: deque[GatedEvent] = deque()
        self._holds: set[KeyHold] = set()
        self._probe: KeyProbe | None = None
        self._sent_to: MessagePump | None = None
        self._sent_at = 0.0
        self._rounds = 0       # probes still to go round before the next key
        self._handling = False  # a key is being handed to Textual
        self._timer: Timer | None = None
        self._last_key_at: float | None = None

    # -- what the screens ask ------------------------------------------------

    @property
    def busy(self) -> bool:
        """A key is being handled, keys wait, or something holds them."""
        return (self._handling or self._probe is not None or bool(self._waiting)
                or bool(self._holds))

    def quiet_in(self, quiet: float) -> float:
        """Seconds until no key will have come for ``quiet`` seconds (0: so
        now); while busy, ``quiet`` from now."""
        if self.busy:
            return quiet
        if self._last_key_at is None:
            return 0.0
        return max(0.0, self._last_key_at + quiet - time.monotonic())

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    @property
    def held(self) -> bool:
        return bool(self._holds)

    def hold(self) -> KeyHold:
        hold = KeyHold(self)
        self._holds.add(hold)
        return hold

    def release(self, hold: KeyHold) -> None:
        """``hold`` is over (``KeyHold.release``): once nothing holds the keys,
        a probe goes round first (what the work's result posted is handled)."""
        self._holds.discard(hold)
        if self._holds:
            return
        self._rounds = max(self._rounds, 1)
        if self._waiting and self._probe is None and not self._handling:
            self._send(self._focus())

    def drop(self) -> int:
        """The keys waiting, thrown away; how many."""
        count = len(self._waiting)
        self._waiting.clear()
        return count

    # -- the app's side ------------------------------------------------------

    async def take(self, event: GatedEvent) -> None:
        """A key (or paste) from the terminal: now, or after those before it."""
        self._last_key_at = time.monotonic()
        self._waiting.append(event)
        await self._next()

    async def probe_back(self, probe: KeyProbe) -> None:
        """A probe reached the app."""
        if probe is not self._probe:
            return  # taken as lost already
        self._probe = self._sent_to = None
        if self._timer is not None:
            self._timer.pause()
        await self._next()

    async def _next(self) -> None:
        if self._handling or self._probe is not None or self._holds or not self._waiting:
            return
        if self._rounds:
            self._send(self._focus())
            return
        event = self._waiting.popleft()
        target = self._focus()
        self._handling = True
        try:
            await self._dispatch(event)
        finally:
            self._handling = False
        self._rounds = self.ROUNDS
        self._send(target)

    def _focus(self) -> MessagePump:
        """Where the next key goes (Textual's choice): the focused widget, else the screen."""
        try:
            return self._app.focused or self._app.screen
        except Exception:  # noqa: BLE001 - no screen yet: the app itself
            return self._app

    def _send(self, node: MessagePump) -> None:
        self._rounds = max(0, self._rounds - 1)
        probe = self._probe = KeyProbe()
        # sent by the app, whoever runs now: Textual stops a message bubbling
        # past its sender's children, and one begun by a screen's callback
        # would never get back
        probe.set_sender(self._app)
        self._sent_to, self._sent_at = node, time.monotonic()
        if node is self._app or not node.post_message(probe):
            self._app.post_message(probe)  # (closed: straight back)
            return
        if self._timer is None:
            self._timer = self._app.set_interval(self.LOOK, self._look, name="key gate")
        else:
            self._timer.resume()

    def _look(self) -> None:
        """A probe sent to a widget removed meanwhile (an enter that closed its
        dialog) may never come back: taken as back."""
        probe, node = self._probe, self._sent_to
        if probe is None or node is None:
            return
        lost = node is not self._app and not (isinstance(node, DOMNode) and node.is_attached)
        if lost or time.monotonic() - self._sent_at > self.LOST:
            self._sent_to = None
            self._app.post_message(probe)


class KeysInOrder(App[R], Generic[R]):
    """An app whose keys go through a ``KeyGate``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.key_gate = KeyGate(self, self._handed_on)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded:
            await self.key_gate.take(event)
            return
        await super().on_event(event)

    async def _handed_on(self, event: GatedEvent) -> None:
        await super().on_event(event)

    async def on_key_probe(self, probe: KeyProbe) -> None:
        probe.stop()
        await self.key_gate.probe_back(probe)


# -- what screens and widgets call ---------------------------------------------


def key_gate(node: DOMNode) -> KeyGate | None:
    """The gate of ``node``'s app (None: an app without one, a test's host)."""
    app = node.app
    return app.key_gate if isinstance(app, KeysInOrder) else None


def hold_keys(node: DOMNode, *, at_most: float | None = None) -> KeyHold:
    """Keys typed from now on wait until the hold is released, or for
    ``at_most`` seconds (work that may be slow, a startup read on a slow
    disk: the GM can still reload or quit)."""
    gate = key_gate(node)
    hold = gate.hold() if gate is not None else KeyHold(None)
    if at_most is not None and hold.held:
        node.set_timer(at_most, hold.release, name="key hold's limit")
    return hold


def begun_by_a_key(node: DOMNode) -> bool:
    """Work ``node`` begins now is a key's (or its work's): the gate is busy
    and ``node`` is on the screen on top (``store_work``'s default)."""
    gate = key_gate(node)
    if gate is None or not gate.busy or not isinstance(node, Widget):
        return False
    try:
        return node.screen is node.app.screen
    except Exception:  # noqa: BLE001 - not mounted, or no screen: not a key's
        return False


QUIET_S = 0.6  # after a key: about the longest a key's own work takes on one core


def when_quiet(node: DOMNode, callback: Callable[[], object], *,
               quiet: float = QUIET_S) -> None:
    """``callback()`` on ``node``'s thread once no key has come for ``quiet``
    seconds and none is being handled: work done ahead of need (imports,
    warm-ups) waits for the user's keys and the work they began rather than
    slowing them (a mode opened right after the start, a burst of typing)."""
    gate = key_gate(node)
    wait = 0.0 if gate is None else gate.quiet_in(quiet)
    if wait <= 0:
        callback()
    else:
        node.set_timer(wait, lambda: when_quiet(node, callback, quiet=quiet),
                       name="when quiet")


def drop_waiting_keys(node: DOMNode) -> int:
    """Throw away the keys waiting (typed for work that was refused); how many."""
    gate = key_gate(node)
    return gate.drop() if gate is not None else 0
