"""The one door from a screen to the app.

A screen never looks the app's attributes up by name nor walks the app's
screen stacks, and never imports ``ka_tui.app``: it asks ``door(self)`` for

- ``campaign_db()``: the open campaign (call it from a worker thread: the
  first call may run migrations); raises ``StoreError``. Screens do not call
  it themselves: ``screens/store_work.py`` hands it to their jobs;
- ``dice(mode)``: the dice of a mode (``"roller"``, ``"combat"``, ``"air"``):
  random dice in play, scripted ones in tests (``app.roller_dice`` …);
- ``now()``: the clock (UTC; fixed in tests and snapshots);
- ``ascii_glyphs``: draw ASCII only (``--ascii``, ``KA_TUI_ASCII``);
- ``campaign_changed(change)``: after a write, so every mode that shows the
  campaign reads it again; modes subscribe with ``door(self).on_campaign_changed(
  self, callback)``. Safe to call from a worker thread. ``campaign_writing``
  (before the write) and ``campaign_written`` / ``campaign_write_failed``
  (after it) tell the app's watcher, from the worker that writes, that the
  commit is this process's own (``store_work`` calls them);
- ``open_air_setup(preset)``: switch to the air mode with its new-battle
  setup pre-filled (a mission's battle);
- the first view's startup hooks (``take_startup_read``: the read begun
  before the app, for the roster or the player's screen; ``on_roster_ready``)
  and ``show_store_error``.

``Change`` (what a write changed) is ``store/changes.py``'s, the table that
also says which rows the watcher fingerprints for each change.

``KaApp`` implements ``Door``; this module sits below the app (screens
layer) and imports nothing heavy, so the roster's first frame stays light.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from textual.dom import DOMNode

from ka_tui.store.changes import Change

if TYPE_CHECKING:
    from ka_tui.rules.core.dice import Dice
    from ka_tui.store.db import CampaignDB

DiceMode = Literal["roller", "combat", "air"]


__all__ = ["ELSEWHERE", "AirPreset", "CampaignChanged", "Change", "ChangeCallback",
           "DiceMode", "Door", "NoDoor", "door", "when_read"]

# ``CampaignChanged.source`` of a change another process made (the app's
# watcher, store/watch.py): never a screen, so every view reads again.
ELSEWHERE = "another process"


@dataclass(frozen=True)
class CampaignChanged:
    """Published on the app's campaign signal after a write.

    ``source`` is the screen that wrote (it has already shown its own write
    and need not read again)."""

    change: Change
    source: object | None = None


ChangeCallback = Callable[[CampaignChanged], object]


@dataclass(frozen=True)
class AirPreset:
    """A new air battle's setup pre-filled (a mission's battle):
    ``sides`` (aircraft id, side) preselected; the battle, once started, is
    linked to ``mission_id``."""

    mission_id: int | None
    sides: tuple[tuple[int, str], ...]


@runtime_checkable
class Door(Protocol):
    """What a screen may ask of the app (``KaApp`` implements it)."""

    ascii_glyphs: bool
    db_path: Path | None
    on_roster_ready: Callable[[], None] | None  # tests/test_startup_imports.py

    def campaign_db(self) -> CampaignDB: ...

    def dice(self, mode: DiceMode) -> Dice: ...

    def now(self) -> datetime: ...

    def campaign_changed(self, change: CampaignChanged) -> None: ...

    def campaign_writing(self, change: Change) -> None: ...

    def campaign_write_failed(self, change: Change) -> None: ...

    def campaign_written(self, change: Change) -> None: ...

    def on_campaign_changed(self, node: DOMNode, callback: ChangeCallback) -> None: ...

    def open_air_setup(self, preset: AirPreset) -> None: ...

    def take_startup_read(self) -> Future[Any] | None: ...

    def show_store_error(self, title: str, error: Exception) -> None: ...


class NoDoor(RuntimeError):
    """The screen runs in an app that is not ka-tui's (a test host)."""


def door(node: DOMNode) -> Door:
    """The app ``node`` runs in, as the door (the one typed accessor)."""
    app = node.app
    if not isinstance(app, Door):
        raise NoDoor(f"{type(app).__name__} has no campaign open (not a ka-tui app)")
    return app


def when_read(node: DOMNode, future: Future[Any], then: Callable[[Future[Any]], None], *,
              wait: float = 0.2) -> None:
    """Call ``then(future)`` on the app's thread once the startup read is done:
    at once when it is done within ``wait`` seconds (the first frame then shows
    its data, rather than an empty screen first), else when it ends. The
    thread that ends it is never kept waiting for ``then``: it may be the one
    that must go on to bring what ``then`` asks for next (the player's
    startup read hands over its second answer on it)."""
    try:
        future.exception(timeout=wait)
    except TimeoutError:
        here = threading.get_ident()

        def done(f: Future[Any]) -> None:
            if threading.get_ident() == here:  # it ended just now: called here
                then(f)
            else:
                node.call_later(then, f)

        future.add_done_callback(done)
        return
    then(future)
