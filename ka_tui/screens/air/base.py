"""What every part of the air-battle screen shares: its state, the door to the
app (the dice, one place), and the panes it writes to.

``AirScreen`` (screen.py) is built from ``BattleIO`` (io.py: loading, the
ordered writes) and ``TypedInput`` (typed.py: a typed plan, the table's dice),
both on this base; ``host.py`` says what the helpers that take the screen
(``placing.py``, ``overlays.py``, ``keys.py``) ask of it.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from ka_tui.rules.core.dice import Dice
from ka_tui.screens.door import door
from ka_tui.screens.air.runner import PendingStep, Runner
from ka_tui.widgets.air_panel import AircraftPanel
from ka_tui.widgets.hex_map import HexMap

if TYPE_CHECKING:
    from ka_tui.screens.air.placement import Placement
    from ka_tui.store.battles import LoadedBattle

class AirBase(Screen[None]):
    def __init__(self, *, dice: Dice | None = None) -> None:
        super().__init__()
        self._dice = dice
        self.loaded: LoadedBattle | None = None
        self.runner: Runner | None = None
        self.placement: Placement | None = None
        self.show_reach = False
        self.show_start = True        # before a turn: the start-of-turn preview
        self.hold_detail = False      # a step's result is in the detail pane
        self.log_filtering = False    # the log shown by o: its letters go to the filter
        self.redo_event: dict[str, Any] | None = None   # the step just undone (y)
        self.target_index = 0           # which aircraft of a stacked hex is the target (,)
        self.ram_armed: tuple[str, str] | None = None   # (rammer, target): R shown, not rolled
        self.input_mode = ""          # "plan" | "dice" | ""
        self.dice_step: PendingStep | None = None
        self._write_lock = threading.Lock()
        self._writes: list[tuple[int, str, dict[str, Any] | None, int]] = []
        self._writing = False
        self._live_wanted = False     # another process wrote while we were writing

    # -- the door to the app (screens/door.py) ----------------------------------

    @property
    def dice(self) -> Dice:
        """The dice given to the screen, else the app's dice of the air mode
        (``app.air_dice`` in tests, random in play)."""
        return self._dice or door(self).dice("air")

    @property
    def ascii(self) -> bool:
        return door(self).ascii_glyphs

    # -- reading the map and writing the panes ---------------------------------

    def selected(self) -> str | None:
        return self.query_one(HexMap).selected

    def cursor_target(self) -> str | None:
        """An aircraft of another side under the cursor: of a stack, one a shot
        can reach first, the next ones with ``,`` (``Runner.stack_targets``)."""
        if self.runner is None:
            return None
        stack = self.runner.stack_targets(self.selected(), self.query_one(HexMap).cursor)
        return stack[self.target_index % len(stack)] if stack else None

    def show_panel(self, unit_lines: list[str], readout: list[str]) -> None:
        self.query_one(AircraftPanel).show(unit_lines, readout)

    def _detail(self, lines: list[str], *, tall: bool = False) -> None:
        """The detail pane; ``tall`` (a shot's or ram's result: dice, re-rolls,
        damage by location) takes up to 12 lines until the cursor moves."""
        pane = self.query_one("#air-detail", VerticalScroll)
        pane.styles.height = min(12, max(6, len(lines) + 1)) if tall else 6
        self.query_one("#air-detail-text", Static).update(Content("\n".join(lines)))
        pane.scroll_home(animate=False)

    def _status(self, text: str) -> None:
        self.query_one("#air-status", Static).update(Content(text))

    # -- defined by AirScreen --------------------------------------------------

    def refresh_view(self) -> None:
        raise NotImplementedError

    def refresh_overlays(self) -> None:
        raise NotImplementedError

    def _pending(self, *, ram: bool = False) -> PendingStep | None:
        raise NotImplementedError

    def _after(self, step: PendingStep, event: dict[str, Any]) -> None:
        raise NotImplementedError

    def _show_log(self) -> None:
        raise NotImplementedError
