"""The map's legend (``i`` on the air screen): what every mark of the hex map
means — aircraft and stacks, the cursor and the selection, the path, the
reach and the targets, the terrain, the zooms — in the glyphs the map draws
(``widgets/hex_map.py``'s own constants; ``--ascii`` shows the ASCII ones)."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from ka_tui.widgets.hex_map import (
    FACING_ASCII, FACING_GLYPHS, MARKS, MIXED, OPEN_DOT, STACK,
)
from ka_tui.widgets.quiet_footer import QuietFooter

FACING_WORDS = ("N", "NE", "SE", "S", "SW", "NW")


def legend_lines(*, ascii: bool = False,
                 sides: Sequence[tuple[str, str]] = ()) -> list[str]:
    """The legend's lines; ``sides``: (letter, side name) as the map letters them."""
    faces = FACING_ASCII if ascii else FACING_GLYPHS
    first = faces[1]
    letters = "  ".join(f"{letter} {name}" for letter, name in sides) or "B Blue  R Red"
    m = MARKS
    return [
        "Aircraft",
        f"  {first}B3   facing, side letter, altitude level (0 the ground)",
        "         facings " + "  ".join(f"{g} {w}" for g, w in zip(faces, FACING_WORDS)),
        f"  {STACK}3B   three aircraft in the hex ({STACK}3{MIXED}: of several sides);"
        " enter picks",
        f"         sides: {letters}",
        "  a3 s12 altitude level and speed (the detailed zoom)",
        "Cursor and selection",
        "  [ ]    the cursor          ( )  the selected aircraft (tab: the next)",
        "Marks (below the hex: the dense zoom; on its bottom edge: the others)",
        f"  {m['path']}      the planned path (detailed: its step number)",
        f"  {m['free']}      reach without a check             v: show or hide the reach",
        f"  {m['check']}      reach with a check (detailed: the worst odds)",
        f"  {m['out']}      out of reach",
        f"  {m['target']}      a target that may be shot now (detailed: the odds of a hit)",
        "Terrain (heights R-6.1; strips and carriers R-10)",
        "  ~~~ water   f1 forest of height 1   r rough   3 a hill of height 3",
        f"  .2 open ground at height 2   {OPEN_DOT[ascii]} open ground (dense zoom)",
        "  === prepared strip   =-= unprepared strip   CV1 carrier deck at height 1",
        "Zoom (z): dense (every hex, no outlines) > compact > detailed",
    ]


class LegendScreen(ModalScreen[None]):
    """The map legend over the battle; ``i`` or escape closes it."""

    HELP_TITLE = "Map legend"
    CSS_PATH = "legend.tcss"
    BINDINGS = [Binding("escape,i", "close", "Close", id="air_legend.close")]
    PALETTE_HELP = {"air_legend.close": "Close the legend, back to the map"}

    def __init__(self, *, ascii: bool = False,
                 sides: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__()
        self.lines = legend_lines(ascii=ascii, sides=sides)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="legend-box"):
            yield Static(Content("\n".join(self.lines)), id="legend-text")
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#legend-box").border_title = "Map legend (i or escape closes)"

    def action_close(self) -> None:
        self.dismiss(None)
