"""The one door from a screen to the app (issue 9).

A screen never looks the app's attributes up by name nor walks the app's
screen stacks, and never imports ``ka_tui.app``: it asks ``door(self)`` for

- ``campaign_db()``: the open campaign (call it from a worker thread: the
  first call may run migrations); raises ``StoreError``;
- ``dice(mode)``: the dice of a mode (``"roller"``, ``"combat"``, ``"air"``):
  random dice in play, scripted ones in tests (``app.roller_dice`` …);
- ``now()``: the clock (UTC; fixed in tests and snapshots);
- ``ascii_glyphs``: draw ASCII only (``--ascii``, ``KA_TUI_ASCII``);
- ``campaign_changed(change)``: after a write, so every mode that shows the
  campaign reads it again; modes subscribe with ``door(self).on_campaign_changed(
  self, callback)``. Safe to call from a worker thread;
- ``open_air_setup(preset)``: switch to the air mode with its new-battle
  setup pre-filled (a mission's battle, issue 15);
- the first view's startup hooks (``take_startup_read``: the read begun
  before the app, for the roster or the player's screen; ``on_roster_ready``)
  and ``show_store_error``.

``KaApp`` implements ``Door``; this module sits below the app (screens
layer) and imports nothing heavy, so the roster's first frame stays light.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from textual.dom import DOMNode

if TYPE_CHECKING:
    from ka_tui.rules.core.dice import Dice
    from ka_tui.store.db import CampaignDB

DiceMode = Literal["roller", "combat", "air"]


class Change(str, Enum):
    """What a write changed (subscribers pick what they show)."""

    ROSTER = "roster"            # characters, skills, weapons, aircraft, seats
    HOUSE_RULES = "house_rules"  # the campaign's house-rule options
    ROLLS = "rolls"              # the roll log
    FIGHT = "fight"              # a close-combat fight's log
    BATTLE = "battle"            # an air battle's log (a step, a player's plan)
    TABLE = "table"              # the table server: seats, ways in, connections


# ``CampaignChanged.source`` of a change another process made (issue 14: the
# app's watcher, store/watch.py): never a screen, so every view reads again.
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
    """A new air battle's setup pre-filled (issue 15: a mission's battle):
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
    its data, rather than an empty screen first), else when it ends."""
    try:
        future.exception(timeout=wait)
    except TimeoutError:
        app = node.app
        here = threading.get_ident()

        def done(f: Future[Any]) -> None:
            if threading.get_ident() == here:  # it ended just now: called here
                then(f)
            else:
                app.call_from_thread(then, f)

        future.add_done_callback(done)
        return
    then(future)
