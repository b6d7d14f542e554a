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

from rich.cells import cell_len
from textual import events
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from ka_tui.rules.core.dice import Dice
from ka_tui.screens.door import door
from ka_tui.screens.air.drafts import DraftKeeper
from ka_tui.screens.air.layout import SidePlace, layout_classes, next_place, side_place
from ka_tui.screens.air.runner import PendingStep, Runner
from ka_tui.widgets.air_panel import AircraftPanel
from ka_tui.widgets.hex_map import HexMap

if TYPE_CHECKING:
    from ka_tui.screens.air.placement import Placement
    from ka_tui.store.battles import LoadedBattle

def _shape(text: str) -> tuple[tuple[int, ...], ...]:
    """What the wrapping of ``text`` depends on: each line's words' widths."""
    return tuple(tuple(cell_len(w) for w in x.split(" ")) for x in text.split("\n"))


def line(static: Static, text: str | Content) -> None:
    """A one-line Static (the phase bar, the next-step line, the status): one
    line tall whatever it holds, so its new text needs no layout of the screen."""
    static.update(Content(text) if isinstance(text, str) else text, layout=False)


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
        self.target_named = False       # enter has named the target in the cursor's hex
        self.ram_armed: tuple[str, str] | None = None   # (rammer, target): R shown, not rolled
        self.input_mode = ""          # "plan" | "dice" | ""
        self.dice_step: PendingStep | None = None
        self._write_lock = threading.Lock()
        self._writes: list[tuple[int, str, dict[str, Any] | None, int]] = []
        self._writing = False
        self._live_wanted = False     # another process wrote while we were writing
        self.side_chosen: SidePlace | None = None   # b: the GM's place for the side column
        self.drafts = DraftKeeper()   # the plans being built, kept in the campaign
        self._detail_shown: tuple[str, bool] | None = None   # what the detail pane shows

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
        """The detail pane, at the top of the side column, as tall as its lines;
        ``tall`` (a shot's or ram's result: dice, re-rolls, damage by location)
        may push the aircraft below further down until the cursor moves."""
        pane = self.query_one("#air-detail", VerticalScroll)
        text = "\n".join(lines)
        if (text, tall) == self._detail_shown:
            return   # a key that changes nothing here costs no layout
        static = self.query_one("#air-detail-text", Static)
        was, self._detail_shown = self._detail_shown, (text, tall)
        pane.set_class(tall, "-tall")
        # words of the same widths wrap the same: the pane keeps its height, so
        # no layout (a table-dice face typed over a "_" of the same list)
        same = was is not None and was[1] == tall and _shape(was[0]) == _shape(text)
        static.update(Content(text), layout=not same)
        pane.scroll_home(animate=False)

    # -- the layout (layout.py, air.tcss) ------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        self._lay_out()

    def on_screen_resume(self) -> None:
        self._lay_out()   # the terminal may have changed size in another mode

    def _lay_out(self) -> SidePlace:
        place = side_place(self.size, self.side_chosen)
        for name, on in layout_classes(self.size, place).items():
            self.set_class(on, name)
        return place

    def action_side_panel(self) -> None:
        """``b``: the side column beside the map, below it, or folded away."""
        self.side_chosen = next_place(side_place(self.size, self.side_chosen))
        self._status(f"side panel {self._lay_out().said} (b: "
                     f"{next_place(self.side_chosen).said})")

    def action_legend(self) -> None:
        from ka_tui.screens.air.legend import LegendScreen

        hex_map = self.query_one(HexMap)
        sides = dict.fromkeys(a.side for a in hex_map.aircraft)
        self.app.push_screen(LegendScreen(ascii=hex_map.ascii, sides=[
            (hex_map.side_letter(s), s) for s in sides]))

    def _status(self, text: str) -> None:
        line(self.query_one("#air-status", Static), text)

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
