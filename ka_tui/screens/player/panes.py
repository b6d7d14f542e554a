"""What the player's screen and its pane mixins (``sheet.py``,
``card_actions.py``, ``plan_actions.py``) share: the pane help, the message
tests wait on, the mounted-pane lookup, and ``PlayerHost``, what the mixins
ask of the screen they are mixed into."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, TypeVar, overload

from textual.app import App
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widget import Widget

if TYPE_CHECKING:
    from ka_tui.screens.player.air_plan import AirPlanPane
    from ka_tui.store.battles import LoadedBattle
    from ka_tui.store.player_data import Player, PlayerBattle

PANES_HELP = "1 sheet · 2 fight · 3 aircraft · 4 air battles"

W = TypeVar("W", bound=Widget)


class PlayerLoaded(Message):
    """Posted after each read or send is shown (tests wait for it)."""


def mounted_pane(screen: Any, pane_id: str) -> Any:
    """The pane ``#pane_id`` once it has been shown (panes 2 and 4 are mounted
    then, not for the first frame), else None."""
    found = screen.query(f"#{pane_id}")
    return found.first() if found else None


class PlayerHost(Protocol):
    """The player's screen as the sheet and plan mixins see it
    (``PlayerScreen`` is one)."""

    player: Player | None
    battles: list[PlayerBattle]
    battle_index: int
    aircraft_index: int
    seen: LoadedBattle | None
    sent_note: str
    _aircraft_shown: bool

    @property
    def app(self) -> App[object]: ...

    @property
    def screen(self) -> Screen[object]: ...

    @property
    def pane(self) -> str: ...

    @overload
    def query_one(self, selector: str) -> Widget: ...

    @overload
    def query_one(self, selector: type[W]) -> W: ...

    @overload
    def query_one(self, selector: str, expect_type: type[W]) -> W: ...

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None: ...

    def post_message(self, message: Message) -> bool: ...

    def load(self, first: bool = False) -> None: ...

    def _status(self, text: str, *, error: bool = False) -> None: ...

    def plan_pane(self) -> AirPlanPane | None: ...

    def _plan_status(self) -> None: ...

    def _load_aircraft(self, aircraft_id: int) -> None: ...

    def _plan_sent(self, battle: PlayerBattle, seen: LoadedBattle) -> None: ...

    def _plan_refused(self, error: Exception) -> None: ...
