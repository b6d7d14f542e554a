"""Where the air screen's side column goes, by the terminal's size and the
GM's ``b``: beside the map (72 columns or more), below it (narrower: 60x20),
or folded away. Below 22 lines the header gives its line to the map.

The screen carries the answer as classes (``-side-below``, ``-side-hidden``,
``-short``) that ``air.tcss`` lays out; nothing here draws.
"""

from __future__ import annotations

from enum import StrEnum

from textual.geometry import Size

from ka_tui.widgets.hex_map import Zoom

# ``z`` on the battle map: the dense zoom first (a 20x12 map whole across 80
# columns), then the outlined ones
MAP_ZOOMS: tuple[Zoom, ...] = ("dense", "compact", "detailed")

LAYOUT_HELP = {
    "air.legend": "What the map's marks mean: aircraft, stacks, path, reach, targets, "
                  "terrain, the zooms",
    "air.side_panel": "The side column (the plan or result, the aircraft): beside the map, "
                      "below it, or folded away for more map",
}

# the status line's first words: the keys of this module the footer has no room for
LAYOUT_HINT = "s: suggest a plan · i: legend · b: side column · z: zoom · ?: every key"

NARROW = 72     # columns: narrower than this, the side column goes below the map
SHORT = 22      # lines: shorter than this, no header


class SidePlace(StrEnum):
    BESIDE = "beside"
    BELOW = "below"
    HIDDEN = "hidden"

    @property
    def said(self) -> str:
        return {"beside": "beside the map", "below": "below the map",
                "hidden": "folded away"}[self.value]


ORDER = (SidePlace.BESIDE, SidePlace.BELOW, SidePlace.HIDDEN)


def side_place(size: Size, chosen: SidePlace | None) -> SidePlace:
    """The GM's choice (``b``), else beside the map when there is room."""
    if chosen is not None:
        return chosen
    return SidePlace.BELOW if size.width < NARROW else SidePlace.BESIDE


def next_place(now: SidePlace) -> SidePlace:
    return ORDER[(ORDER.index(now) + 1) % len(ORDER)]


def layout_classes(size: Size, place: SidePlace) -> dict[str, bool]:
    """Each layout class of the screen, on or off."""
    return {"-side-below": place is SidePlace.BELOW,
            "-side-hidden": place is SidePlace.HIDDEN,
            "-short": size.height < SHORT}
