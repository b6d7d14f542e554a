"""``ka-tui play --as NAME``: a player's own app.

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
    # the player's screen is the default screen, whose own CSS_PATH Textual
    # does not read: its stylesheet is the app's
    CSS_PATH = ["app.tcss", "screens/player/player.tcss"]

    BINDINGS = [
        Binding("question_mark", "help", "Help", id="help"),
        Binding("q", "quit", "Quit", id="quit"),
        ShadowedTerminal.REDRAW_BINDING,
    ]

    PALETTE_HELP = {"help": "List the keys of this screen", "quit": "Leave the player view",
                    **ShadowedTerminal.REDRAW_HELP}

    clock: Callable[[], datetime] | None = None
    on_roster_ready: Callable[[], None] | None = None

    def __init__(self, db_path: Path, name: str, *, ascii_glyphs: bool | None = None,
                 startup_read: Future[Any] | None = None) -> None:
        """``startup_read``: the player's view read before the app (``cli.py``,
        ``store/startup_read.read_player``); without it one starts here, in a
        thread."""
        from ka_tui.widgets.glyphs import ascii_from_env

        self.ascii_glyphs = ascii_from_env() if ascii_glyphs is None else ascii_glyphs
        super().__init__()
        self.db_path: Path | None = db_path
        self.player_name = name
        self.title = f"ka-tui · playing {name}"
        self._db: CampaignDB | None = None
        self._db_lock = threading.Lock()
        self.campaign_signal: Signal[CampaignChanged] = Signal(self, "campaign-changed")
        if startup_read is None:
            from ka_tui.store.startup_read import in_thread, player_snapshot

            startup_read = in_thread(lambda: player_snapshot(self.campaign_db(), name))
        self.begin_with(startup_read)

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

    def show_store_error(self, title: str, error: Exception) -> None:
        self.notify(str(error), title=title, severity="error")

    # -- running ------------------------------------------------------------------

    def open_air_setup(self, preset: AirPreset) -> None:
        """A player starts no battle: the GM does, from a mission."""
        self.notify("Only the GM starts a battle.", severity="warning")

    def get_default_screen(self) -> Screen[Any]:
        """His screen is the app's first (no empty screen drawn before it)."""
        from ka_tui.screens.player.screen import PlayerScreen

        return PlayerScreen(self.player_name)

    def on_mount(self) -> None:
        self.start_watching_soon()

    def on_unmount(self) -> None:
        self.stop_watching()
        with self._db_lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def action_help(self) -> None:
        from ka_tui.screens.help import HelpScreen, key_rows

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(key_rows(self, self.screen)))  # type: ignore[arg-type]

    def get_driver_class(self) -> type[Any]:
        """Textual's driver, reading any bytes the terminal sends without
        stopping (``textual_compat.terminal_input``); ASCII only with ``--ascii``."""
        from ka_tui.textual_compat.terminal_input import tolerant_driver

        base = tolerant_driver(super().get_driver_class())
        if not self.ascii_glyphs:
            return base
        from ka_tui.widgets.glyphs import ascii_driver

        return ascii_driver(base)
