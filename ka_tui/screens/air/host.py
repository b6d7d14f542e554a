"""What the air mode's helpers ask of the view they work on, as protocols:
``PlanningView`` for the plan keys and the overlays (``keys.py``,
``overlays.py``: the GM's air screen and the player's plan pane),
``AirHost`` for the battle's setup, list and end (``placing.py``: the GM's
air screen, ``AirScreen``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeVar, overload

from textual.app import App
from textual.screen import Screen
from textual.widget import Widget

if TYPE_CHECKING:
    from ka_tui.store.battles import LoadedBattle
    from ka_tui.screens.air.placement import Placement
    from ka_tui.screens.air.runner import Runner

W = TypeVar("W", bound=Widget)


class PlanningView(Protocol):
    """What the plan keys and the overlays (``keys.py``, ``overlays.py``) ask of
    a view that plans moves: the GM's air screen, the player's plan pane."""

    hold_detail: bool
    show_reach: bool

    @property
    def placement(self) -> Placement | None: ...

    @property
    def runner(self) -> Runner | None: ...

    @property
    def show_start(self) -> bool: ...

    @property
    def app(self) -> App[object]: ...

    @overload
    def query_one(self, selector: str) -> Widget: ...

    @overload
    def query_one(self, selector: type[W]) -> W: ...

    @overload
    def query_one(self, selector: str, expect_type: type[W]) -> W: ...

    def selected(self) -> str | None: ...

    def cursor_target(self) -> str | None: ...

    def show_panel(self, unit_lines: list[str], readout: list[str]) -> None: ...

    def _detail(self, lines: list[str], *, tall: bool = False) -> None: ...

    def refresh_overlays(self) -> None: ...


class AirHost(PlanningView, Protocol):
    """The GM's air-battle screen as ``placing.py`` sees it (``AirScreen`` is one)."""

    placement: Placement | None  # settable here
    loaded: LoadedBattle | None

    @property
    def screen(self) -> Screen[object]: ...

    def refresh_bindings(self) -> None: ...

    def _status(self, text: str) -> None: ...

    def show_loaded(self, loaded: LoadedBattle | None) -> None: ...

    def load(self, battle_id: int | None) -> None: ...
