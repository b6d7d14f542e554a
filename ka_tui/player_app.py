"""``ka-tui play --as NAME``: a player's own app (issue 14).

A small ``App`` beside ``app.py``: one screen (``screens/player``), no modes,
no settings, no roster editing; it is a ``Door`` like ``KaApp`` so the screen
and its widgets reach the campaign the same way, and it watches the file
like ``KaApp`` (``WatchesCampaign``), so the GM's reveal and the other
players' sent cards show within a second without a key press.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.signal import Signal

from ka_tui.app import ShadowedTerminal, WatchesCampaign
from ka_tui.screens.door import (
    AirPreset,
    CampaignChanged,
    DiceMode,
)

if TYPE_CHECKING:
    from ka_tui.rules.core.dice import Dice
    from ka_tui.store.db import CampaignDB


class PlayerApp(WatchesCampaign, ShadowedTerminal, App[None]):
    """One player's view of one campaign file."""

    TITLE = "ka-tui"
    CSS_PATH = "app.tcss"

    BINDINGS = [
        Binding("question_mark", "help", "Help", id="help"),
        Binding("q", "quit", "Quit", id="quit"),
        ShadowedTerminal.REDRAW_BINDING,
    ]

    PALETTE_HELP = {"help": "List the keys of this screen", "quit": "Leave the player view",
                    **ShadowedTerminal.REDRAW_HELP}

    clock: Callable[[], datetime] | None = None
    on_roster_ready: Callable[[], None] | None = None

    def __init__(self, db_path: Path, name: str, *, ascii_glyphs: bool | None = None) -> None:
        from ka_tui.widgets.glyphs import ascii_from_env

        self.ascii_glyphs = ascii_from_env() if ascii_glyphs is None else ascii_glyphs
        super().__init__()
        self.db_path: Path | None = db_path
        self.player_name = name
        self._db: CampaignDB | None = None
        self._db_lock = threading.Lock()
        self.campaign_signal: Signal[CampaignChanged] = Signal(self, "campaign-changed")

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield self.redraw_command()

    # -- the door -------------------------------------------------------------

    def campaign_db(self) -> CampaignDB:
        with self._db_lock:
            if self._db is None:
                from ka_tui.store.db import open_campaign

                assert self.db_path is not None
                self._db = open_campaign(self.db_path)
            return self._db

    def dice(self, mode: DiceMode) -> Dice:
        raise RuntimeError("a player's view rolls no dice (the GM rolls)")

    def now(self) -> datetime:
        return self.clock() if self.clock is not None else datetime.now(UTC)

    def take_preloaded_roster(self) -> Future[Any] | None:
        return None

    def show_store_error(self, title: str, error: Exception) -> None:
        self.notify(str(error), title=title, severity="error")

    # -- running ------------------------------------------------------------------

    def open_air_setup(self, preset: AirPreset) -> None:
        """A player starts no battle: the GM does, from a mission."""
        self.notify("Only the GM starts a battle.", severity="warning")

    def on_mount(self) -> None:
        from ka_tui.screens.player.screen import PlayerScreen

        self.title = f"ka-tui · playing {self.player_name}"
        self.push_screen(PlayerScreen(self.player_name))
        self.start_watching()

    def on_unmount(self) -> None:
        self.stop_watching()
        with self._db_lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def action_help(self) -> None:
        from ka_tui.screens.help import HelpScreen, key_rows

        if type(self.screen).__name__ != "HelpScreen":
            self.push_screen(HelpScreen(key_rows(self, self.screen)))  # type: ignore[arg-type]

    def get_driver_class(self) -> type[Any]:
        base = super().get_driver_class()
        if not self.ascii_glyphs:
            return base
        from ka_tui.widgets.glyphs import ascii_driver

        return ascii_driver(base)


def check_player(db_path: Path, name: str) -> str:
    """Before the screen is taken over: refuse a campaign this user cannot
    write (a player's card is a write) and an unknown name. Returns the
    character's full name. Raises ``StoreError`` (one line for the user)."""
    from ka_tui.store.db import check_file, open_campaign
    from ka_tui.store.errors import StoreError
    from ka_tui.store.files import read_only_reason
    from ka_tui.store.players import find_player

    check_file(db_path)
    reason = read_only_reason(db_path)
    if reason is not None:
        raise StoreError(f"{db_path} cannot be written by you ({reason}); a player sends "
                         "cards, so ask the GM for group write access (README: Players "
                         "at their own terminals)")
    with open_campaign(db_path) as db:
        return find_player(db, name).name
