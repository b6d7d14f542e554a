"""``ka-tui play --as NAME``: a player's own app.

A small ``App`` beside ``app.py``: one screen (``screens/player``), no modes,
no settings, no roster editing; it is a ``Door`` like ``KaApp`` so the screen
and its widgets reach the campaign the same way, and it watches the file
like ``KaApp`` (``host.CampaignHost``), so the GM's reveal and the other
players' sent cards show within a second without a key press.

Its command palette holds the player's own actions only (his screen's keys:
send the card or the plan, the panes, the plan's steps; help, redraw,
quit): none of Textual's own (theme, maximise, a screenshot written on the
machine the app runs on, which at the table server is the GM's).

Under the table server (``ka_tui/server``) it also remembers where the
player is: ``view`` puts him back on the pane, fight, battle and aircraft he
last looked at, and ``on_view`` hears each change (``SeatView``), so a
player who reconnects finds his view as he left it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from ka_tui.host import CampaignHost, binding_commands
from ka_tui.screens.door import (
    AirPreset,
    DiceMode,
)
from ka_tui.screens.player.panes import PlayerLoaded
from ka_tui.textual_compat.crash import OneLineCrash

if TYPE_CHECKING:
    from ka_tui.rules.core.dice import Dice


@dataclass(frozen=True)
class SeatView:
    """Where a player is in his view: the pane, and the fight, air battle and
    aircraft shown (ids, not places in a list that may change meanwhile)."""

    pane: str = "sheet"
    fight: int | None = None
    battle: int | None = None
    aircraft: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> SeatView:
        """From ``to_dict``'s output; anything else (a damaged line) is the default."""
        if not isinstance(data, dict):
            return cls()
        pane = data.get("pane")
        fight, battle, aircraft = data.get("fight"), data.get("battle"), data.get("aircraft")
        return cls(pane if pane in ("sheet", "fight", "aircraft", "battles") else "sheet",
                   fight if isinstance(fight, int) else None,
                   battle if isinstance(battle, int) else None,
                   aircraft if isinstance(aircraft, int) and 0 <= aircraft < 100 else 0)


class PlayerApp(OneLineCrash, CampaignHost):
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
                 startup_read: Future[Any] | None = None, view: SeatView | None = None,
                 on_view: Callable[[SeatView], None] | None = None) -> None:
        """``startup_read``: the player's view read before the app (``cli.py``,
        ``store/startup_read.read_player``); without it one starts here, in a
        thread. ``view``: where to put him back once his view is read;
        ``on_view``: told where he is after each change. A player writes his
        cards: never read-only."""
        super().__init__(db_path, ascii_glyphs=ascii_glyphs)
        self.player_name = name
        self.title = f"ka-tui · playing {name}"
        self._restore = view if view != SeatView() else None
        self._on_view = on_view
        self._told: SeatView | None = None
        if startup_read is None:
            from ka_tui.store.startup_read import in_thread, player_snapshot

            startup_read = in_thread(lambda: player_snapshot(self.campaign_db(), name))
        self.begin_with(startup_read)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The player's own actions only (not Textual's theme, maximise or
        screenshot: see the module doc; nor the focus and copy keys every
        Textual screen and text field has)."""
        textual_own = {b.action for b in Binding.make_bindings(Screen.BINDINGS)}
        owners = {id(a.node): a.node for a in screen.active_bindings.values()}
        for command in binding_commands(screen):
            found = [a for a in screen.active_bindings.values()
                     if a.binding.description == command.title]
            if any(a.binding.action in textual_own
                   or not type(owners[id(a.node)]).__module__.startswith("ka_tui")
                   for a in found):
                continue
            yield command
        yield SystemCommand("Help: keys", self.PALETTE_HELP["help"], self.action_help)
        yield self.redraw_command()
        yield SystemCommand("Quit", self.PALETTE_HELP["quit"], self.action_quit)

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

    # -- where he is (the table server) ------------------------------------------

    async def on_player_loaded(self, message: PlayerLoaded) -> None:
        """After each read: put him back where he was (once), then say where he is."""
        from ka_tui.screens.player.screen import PlayerScreen

        screen = self.screen
        if not isinstance(screen, PlayerScreen) or screen.player is None:
            return
        restore, self._restore = self._restore, None
        if restore is not None:
            fight = next((i for i, f in enumerate(screen.fights) if f.id == restore.fight),
                         screen.fight_index)
            battle = next((i for i, b in enumerate(screen.battles) if b.id == restore.battle),
                          screen.battle_index)
            screen.aircraft_index = restore.aircraft
            if (fight, battle) != (screen.fight_index, screen.battle_index):
                screen.fight_index, screen.battle_index = fight, battle
                self._restore = SeatView(restore.pane)  # the pane once this read is in
                screen.load()
                return
            if restore.pane != screen.pane:
                await screen.action_pane(restore.pane)
        self._tell_view()

    def _tell_view(self) -> None:
        from ka_tui.screens.player.screen import PlayerScreen

        screen = self.screen
        if self._on_view is None or not isinstance(screen, PlayerScreen):
            return
        if not getattr(self, "_watching_pane", False):
            from textual.widgets import ContentSwitcher

            self._watching_pane = True
            self.watch(screen.query_one(ContentSwitcher), "current",
                       lambda _current: self._tell_view(), init=False)
        fights, battles = screen.fights, screen.battles
        view = SeatView(
            screen.pane,
            fights[screen.fight_index].id if 0 <= screen.fight_index < len(fights) else None,
            battles[screen.battle_index].id if 0 <= screen.battle_index < len(battles) else None,
            screen.aircraft_index)
        if view != self._told:
            self._told = view
            self._on_view(view)

