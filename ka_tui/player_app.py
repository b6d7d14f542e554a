"""``ka-tui play --as NAME``: a player's own app.

A small ``App`` beside ``app.py``: one screen (``screens/player``), no modes,
no settings, no roster editing; it is a ``Door`` like ``KaApp`` so the screen
and its widgets reach the campaign the same way, and it watches the file
like ``KaApp`` (``host.CampaignHost``), so the GM's reveal and the other
players' sent cards show within a second without a key press.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from ka_tui.host import CampaignHost
from ka_tui.screens.door import (
    AirPreset,
    DiceMode,
)

if TYPE_CHECKING:
    from ka_tui.rules.core.dice import Dice


class PlayerApp(CampaignHost):
    """One player's view of one campaign file."""

    TITLE = "ka-tui"
    # the player's screen is the default screen, whose own CSS_PATH Textual
    # does not read: its stylesheet is the app's
    CSS_PATH = ["app.tcss", "screens/player/player.tcss"]

    BINDINGS = [
        Binding("question_mark", "help", "Help", id="help"),
        Binding("q", "quit", "Quit", id="quit"),
        CampaignHost.REDRAW_BINDING,
    ]

    PALETTE_HELP = {"help": "List the keys of this screen", "quit": "Leave the player view",
                    **CampaignHost.REDRAW_HELP}

    on_roster_ready: Callable[[], None] | None = None

    def __init__(self, db_path: Path, name: str, *, ascii_glyphs: bool = False,
                 startup_read: Future[Any] | None = None) -> None:
        """``startup_read``: the player's view read before the app (``cli.py``,
        ``store/startup_read.read_player``); without it one starts here, in a
        thread. A player writes his cards: never read-only."""
        super().__init__(db_path, ascii_glyphs=ascii_glyphs)
        self.player_name = name
        self.title = f"ka-tui · playing {name}"
        if startup_read is None:
            from ka_tui.store.startup_read import in_thread, player_snapshot

            startup_read = in_thread(lambda: player_snapshot(self.campaign_db(), name))
        self.begin_with(startup_read)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield self.redraw_command()

    # -- the door -------------------------------------------------------------

    def dice(self, mode: DiceMode) -> Dice:
        raise RuntimeError("a player's view rolls no dice (the GM rolls)")

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

