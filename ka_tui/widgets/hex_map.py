"""The air-battle hex map, drawn in text.

Flat-top hexes (``rules/air/hexgrid.py``: axial ``Hex(q, r)``, odd-q offset
columns, facing 0 = N clockwise) drawn with ``/ \\ _``. Three zoom levels:

* dense (pitch 2 columns x 2 lines, no outlines; 38 hex columns on 80 cells):
  each hex is its 3-character token alone, odd columns half a hex lower, so
  a line holds every other column::

     ~~~ ↘B3  ·   f1
       ·   o   ·   ·

  The tokens are the compact zoom's (open ground without height is ``·``);
  the overlay mark sits on the line below the token's middle, between the
  neighbours' tokens, and the ``[ ]`` / ``( )`` brackets in the gaps.

* compact (pitch 4 columns x 2 lines; 20 hex columns on 80 cells)::

     ___     ___
    /^A3\\___/f1 \\___
    \\_o_/~~~\\___/   \\

  a hex holds 3 characters: an aircraft ``^A3`` (facing, side letter,
  altitude level), a stack ``*3A`` (count, side letter or ``!`` for mixed
  sides), or the terrain (``~~~`` water, ``f1`` forest of height 1, ``r``
  rough, ``3`` a hill of height 3, ``.2`` open ground at height 2, ``===``
  a prepared strip, ``=-=`` an unprepared one, ``CV1`` a carrier deck at
  height 1). The middle of the bottom edge carries the overlay mark.
* detailed (pitch 6 x 4 lines): terrain on the first line, the aircraft
  (facing, side, label) on the second, ``a3 s12`` (altitude, speed) on the
  third, the overlay with its odds on the bottom edge (``?72%``).

Facings: ``↑ ↗ ↘ ↓ ↙ ↖`` (ASCII ``^ / > v < \\``). The cursor hex has
``[ ]`` for sides, the selected aircraft's hex ``( )``: shape and letter carry
the meaning, colour only helps (16 colours, ``NO_COLOR``, ``--ascii``).

Overlay marks (bottom edge): ``o`` path (detailed: its step number), ``+``
reach without a check, ``?`` reach with a check (detailed: the worst odds),
``x`` out of reach, ``T`` a target (detailed: its odds label).

The widget only draws and reports: the screen gives it the map, the aircraft
(``MapAircraft``) and the overlays as data; it computes no rule. Built on the
Line API: ``render_line`` draws one line from the visible hexes only, through an
LRU cache keyed on what the line shows, and a cursor move refreshes only the
two hexes' cells.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ka_tui.rules.air.battle_map import BattleMap, Surface, Terrain
from ka_tui.rules.air.hexgrid import Hex

Zoom = Literal["dense", "compact", "detailed"]
ReachKind = Literal["free", "check", "out"]

FACING_GLYPHS = ("↑", "↗", "↘", "↓", "↙", "↖")
FACING_ASCII = ("^", "/", ">", "v", "<", "\\")
# the overlay marks on a hex's bottom edge (the legend words them)
MARKS = {"target": "T", "path": "o", "free": "+", "check": "?", "out": "x"}
STACK = "*"          # *3B: three aircraft in the hex
MIXED = "!"          # *3!: of several sides
OPEN_DOT = ("·", ".")   # open ground without height in the dense zoom (ASCII second)


@dataclass(frozen=True)
class MapAircraft:
    """What the map shows of one aircraft (the screen builds these from its units)."""

    key: str               # the screen's id for it (AirUnit.id)
    hex: Hex
    facing: int            # 0 = N, clockwise
    side: str              # side name; its letter and colour come from the widget
    altitude: int          # altitude level (0 = ground)
    speed: int = 0
    label: str = ""        # a short name for the detailed zoom (4 characters shown)


@dataclass(frozen=True)
class ReachMark:
    """One hex of the reach overlay, as the engine computed it."""

    kind: ReachKind        # free: no check; check: a check needed; out: out of reach
    odds: str = ""         # for "check": the worst odds, e.g. "72%"


@dataclass(frozen=True)
class _Geometry:
    pitch: int                     # columns from one hex column to the next
    height: int                    # lines from one hex row to the next
    half: int                      # odd columns are this many lines lower
    width: int                     # cells across one hex outline
    lines: tuple[str, ...]         # outline per local line 0..height (' ' = see-through)
    slots: tuple[tuple[int, int, int], ...]  # (line, x, width) content slots
    mark: tuple[int, int, int]     # the overlay slot on the bottom edge
    sides: tuple[tuple[int, int, int], ...]  # (line, left x, right x) for [ ] / ( )
    skip: int = 0                  # blank lines above the first row, not drawn


DENSE = _Geometry(2, 2, 1, 5, ("     ", "     ", "     "), ((1, 1, 3),), (2, 2, 1),
                  ((1, 0, 4),), skip=1)
COMPACT = _Geometry(4, 2, 1, 5, (" ___ ", "/   \\", "\\___/"),
                    ((1, 1, 3),), (2, 2, 1), ((1, 0, 4),))
DETAILED = _Geometry(6, 4, 2, 8,
                     ("  ____  ", " /    \\ ", "/      \\", "\\      /", " \\____/ "),
                     ((1, 2, 4), (2, 1, 6), (3, 1, 6)), (4, 2, 4),
                     ((2, 0, 7), (3, 0, 7)))
GEOMETRY: dict[str, _Geometry] = {"dense": DENSE, "compact": COMPACT, "detailed": DETAILED}
ZOOMS: tuple[Zoom, ...] = ("compact", "detailed")

# Style ids (index into the per-render style table).
(_GRID, _OPEN, _WATER, _FOREST, _ROUGH, _STRIP, _CARRIER, _CURSOR, _SELECTED,
 _PATH, _FREE, _CHECK, _OUT, _TARGET, _SIDE0) = range(15)
_SIDES = 4
_COMPONENTS = ("grid", "open", "water", "forest", "rough", "strip", "carrier", "cursor",
               "selected", "path", "reach-free", "reach-check", "reach-out", "target",
               "side-0", "side-1", "side-2", "side-3")


class HexMap(ScrollView, can_focus=True):
    """A scrollable hex map of a ``BattleMap`` with aircraft and overlays."""

    HELP_TITLE = "Map"

    DEFAULT_CSS = """
    HexMap {
        height: 1fr;
        background: $surface;
        scrollbar-size: 1 1;
    }
    HexMap > .hex-map--grid { color: #767676; }
    HexMap > .hex-map--open { color: #af875f; }
    HexMap > .hex-map--water { color: #5f87d7; }
    HexMap > .hex-map--forest { color: #5faf5f; }
    HexMap > .hex-map--rough { color: #af875f; }
    HexMap > .hex-map--strip { color: #d0d0d0; text-style: bold; }
    HexMap > .hex-map--carrier { color: #5fafaf; text-style: bold; }
    HexMap > .hex-map--cursor { color: $block-cursor-foreground;
                                background: $block-cursor-background; text-style: bold; }
    HexMap > .hex-map--selected { text-style: bold underline; }
    HexMap > .hex-map--path { color: #ffd75f; text-style: bold; }
    HexMap > .hex-map--reach-free { color: #87ff87; text-style: bold; }
    HexMap > .hex-map--reach-check { color: #ffd75f; text-style: bold; }
    HexMap > .hex-map--reach-out { color: #d75f5f; }
    HexMap > .hex-map--target { color: #ff5f5f; text-style: bold reverse; }
    HexMap > .hex-map--side-0 { color: #87d7ff; text-style: bold; }
    HexMap > .hex-map--side-1 { color: #ff5f5f; text-style: bold; }
    HexMap > .hex-map--side-2 { color: #ffff5f; text-style: bold; }
    HexMap > .hex-map--side-3 { color: #ff87ff; text-style: bold; }
    """

    COMPONENT_CLASSES = {f"hex-map--{name}" for name in _COMPONENTS}

    BINDINGS = [
        Binding("up,k", "move(0, -1)", "Up", show=False, id="hexmap.up"),
        Binding("down,j", "move(0, 1)", "Down", show=False, id="hexmap.down"),
        Binding("left,h", "move(-1, 0)", "Left", show=False, id="hexmap.left"),
        Binding("right,l", "move(1, 0)", "Right", show=False, id="hexmap.right"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="hexmap.page_up"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="hexmap.page_down"),
        Binding("tab", "next_aircraft(1)", "Next aircraft", show=False,
                id="hexmap.next_aircraft"),
        Binding("shift+tab", "next_aircraft(-1)", "Previous aircraft", show=False,
                id="hexmap.previous_aircraft"),
        Binding("ctrl+l", "centre", "Centre", show=False, id="hexmap.centre"),
        Binding("z", "zoom", "Zoom", show=False, id="hexmap.zoom"),
        Binding("enter", "pick", "Pick aircraft or target", show=False, id="hexmap.pick"),
    ]

    class CursorMoved(Message):
        """The cursor is on a new hex; ``by_key``: moved by the map's own keys
        (not by ``select``, the screen or the map following an aircraft)."""

        def __init__(self, hex_map: HexMap, hex: Hex, by_key: bool = False) -> None:
            super().__init__()
            self.hex_map = hex_map
            self.hex = hex
            self.by_key = by_key

        @property
        def control(self) -> HexMap:
            return self.hex_map

    class AircraftSelected(Message):
        """The selected aircraft changed (``key`` None: none selected)."""

        def __init__(self, hex_map: HexMap, key: str | None,
                     aircraft: MapAircraft | None) -> None:
            super().__init__()
            self.hex_map = hex_map
            self.key = key
            self.aircraft = aircraft

        @property
        def control(self) -> HexMap:
            return self.hex_map

    class StackListed(Message):
        """The aircraft in one hex, asked for with ``enter`` on a stack, in the
        order ``enter`` goes through them (highest level first); ``selected``:
        the one this press selected."""

        def __init__(self, hex_map: HexMap, hex: Hex,
                     aircraft: tuple[MapAircraft, ...], selected: str = "") -> None:
            super().__init__()
            self.hex_map = hex_map
            self.hex = hex
            self.aircraft = aircraft
            self.selected = selected

        @property
        def control(self) -> HexMap:
            return self.hex_map

    class TargetPicked(Message):
        """``enter`` on a hex marked as a target (``set_targets``): the screen
        aims at it; the selection (the shooter) stays."""

        def __init__(self, hex_map: HexMap, hex: Hex) -> None:
            super().__init__()
            self.hex_map = hex_map
            self.hex = hex

        @property
        def control(self) -> HexMap:
            return self.hex_map

    def __init__(self, battle_map: BattleMap | None = None,
                 aircraft: Iterable[MapAircraft] = (), *, zoom: Zoom = "compact",
                 zooms: Sequence[Zoom] = ZOOMS,
                 ascii: bool | None = None, sides: Sequence[str] = (),
                 id: str | None = None, classes: str | None = None) -> None:
        """``zooms``: the levels ``z`` goes through, in order (``zoom`` first
        if it is not one of them)."""
        super().__init__(id=id, classes=classes)
        self._map = battle_map or BattleMap(1, 1)
        self._zoom: Zoom = zoom
        self._zooms: tuple[Zoom, ...] = tuple(zooms) if zoom in zooms else (zoom, *zooms)
        self._ascii_setting = ascii
        self._ascii = bool(ascii)
        self._cursor = Hex(0, 0)
        self._selected: str | None = None
        self._aircraft: tuple[MapAircraft, ...] = ()
        self._tab: tuple[str, ...] = ()   # the keys tab goes through, in order
        self._by_key: dict[str, MapAircraft] = {}
        self._by_hex: dict[Hex, tuple[MapAircraft, ...]] = {}
        self._side_order: list[str] = list(sides)
        self._side_letter: dict[str, str] = {}
        self._path: dict[Hex, int] = {}
        self._path_list: tuple[Hex, ...] = ()
        self._reach: dict[Hex, ReachMark] = {}
        self._targets: dict[Hex, str] = {}
        self._static: dict[tuple[Hex, str, bool], tuple[tuple[str, int], ...]] = {}
        self._lines: LRUCache[tuple[Any, ...], Strip] = LRUCache(2048)
        self._styles: list[Style] | None = None
        self._version = 0
        self.render_count = 0   # lines drawn (cache misses), for tests and benchmarks
        self.set_aircraft(aircraft)

    # ------------------------------------------------------------------ data in

    @property
    def battle_map(self) -> BattleMap:
        return self._map

    def set_map(self, battle_map: BattleMap) -> None:
        """Show another map (the cursor is kept on the map)."""
        self._map = battle_map
        self._static.clear()
        self._changed(all_lines=True)
        self._cursor = self._clamp(self._cursor)
        self._resize()

    def set_aircraft(self, aircraft: Iterable[MapAircraft],
                     tab: Iterable[str] | None = None) -> None:
        """Replace the aircraft shown. ``tab``: the keys ``tab`` goes through,
        in order (None: every aircraft, in their order). The map follows the
        selected aircraft: when it has moved, the cursor that was on it goes
        with it and the view scrolls to keep it in sight."""
        was = self._by_key.get(self._selected) if self._selected else None
        self._aircraft = tuple(aircraft)
        self._by_key = {a.key: a for a in self._aircraft}
        self._tab = tuple(k for k in (tab if tab is not None else self._by_key)
                          if k in self._by_key)
        by_hex: dict[Hex, list[MapAircraft]] = {}
        for a in self._aircraft:
            by_hex.setdefault(a.hex, []).append(a)
            if a.side not in self._side_order:
                self._side_order.append(a.side)
        self._by_hex = {h: tuple(v) for h, v in by_hex.items()}
        self._side_letter = _side_letters(self._side_order)
        if self._selected not in self._by_key:
            self._selected = None
        self.refresh()
        now = self._by_key.get(self._selected) if self._selected else None
        if was is not None and now is not None and now.hex != was.hex:
            if self._cursor == was.hex:
                self.move_cursor(now.hex, scroll=False)
            self._follow(now.hex)

    def set_path(self, hexes: Sequence[Hex]) -> None:
        """The planned path, drawn ``o`` (numbered by step in the detailed zoom)."""
        self._path_list = tuple(hexes)
        self._path = {}
        for step, h in enumerate(hexes):
            self._path.setdefault(h, step)
        self.refresh()

    def set_reach(self, reach: Mapping[Hex, ReachMark]) -> None:
        """The reach overlay: hex → no check / check with odds / out of reach."""
        self._reach = dict(reach)
        self.refresh()

    def set_targets(self, targets: Mapping[Hex, str]) -> None:
        """Target marks: hex → a short label (the odds, e.g. ``"41%"``)."""
        self._targets = dict(targets)
        self.refresh()

    def clear_overlays(self) -> None:
        self._path, self._path_list, self._reach, self._targets = {}, (), {}, {}
        self.refresh()

    @property
    def path(self) -> tuple[Hex, ...]:
        return self._path_list

    @property
    def reach(self) -> dict[Hex, ReachMark]:
        return dict(self._reach)

    @property
    def targets(self) -> dict[Hex, str]:
        return dict(self._targets)

    @property
    def aircraft(self) -> tuple[MapAircraft, ...]:
        return self._aircraft

    def stack_at(self, h: Hex) -> tuple[MapAircraft, ...]:
        """The aircraft in hex ``h``, in the order ``set_aircraft`` gave them."""
        return self._by_hex.get(h, ())

    def side_letter(self, side: str) -> str:
        return self._side_letter.get(side, "?")

    # ------------------------------------------------------------------ state

    @property
    def cursor(self) -> Hex:
        return self._cursor

    @property
    def selected(self) -> str | None:
        return self._selected

    @property
    def zoom(self) -> Zoom:
        return self._zoom

    @zoom.setter
    def zoom(self, value: Zoom) -> None:
        if value != self._zoom:
            self._zoom = value
            self._changed(all_lines=True)
            self._resize()
            self.centre_on(self._cursor)

    @property
    def ascii(self) -> bool:
        return self._ascii

    @ascii.setter
    def ascii(self, value: bool) -> None:
        self._ascii_setting = value
        if value != self._ascii:
            self._ascii = value
            self._changed(all_lines=True)

    def move_cursor(self, h: Hex, *, scroll: bool = True, by_key: bool = False) -> None:
        """Put the cursor on ``h`` (kept on the map); posts ``CursorMoved``."""
        h = self._clamp(h)
        if h == self._cursor:
            return
        old, self._cursor = self._cursor, h
        self._refresh_hex(old)
        self._refresh_hex(h)
        if scroll:
            self._scroll_to_hex(h)
        self.post_message(self.CursorMoved(self, h, by_key))

    def select(self, key: str | None, *, move: bool = True, by_key: bool = False) -> None:
        """Select an aircraft (None: none); the cursor goes to it unless ``move``
        is False (``by_key``: for the map's own keys). Posts ``AircraftSelected``."""
        if key is not None and key not in self._by_key:
            raise KeyError(key)
        old = self._by_key.get(self._selected) if self._selected else None
        self._selected = key
        plane = self._by_key.get(key) if key else None
        if old is not None:
            self._refresh_hex(old.hex)
        if plane is not None:
            self._refresh_hex(plane.hex)
            if move:
                self.move_cursor(plane.hex, by_key=by_key)
        self.post_message(self.AircraftSelected(self, key, plane))

    def centre_on(self, h: Hex) -> None:
        """Scroll so that ``h`` is in the middle of the view."""
        if not self.scrollable_content_region.width:   # not laid out yet
            self.call_after_refresh(self.centre_on, h)
            return
        region = self._hex_region(h)
        x = region.x + region.width // 2 - self.scrollable_content_region.width // 2
        y = region.y + region.height // 2 - self.scrollable_content_region.height // 2
        self.scroll_to(max(0, x), max(0, y), animate=False, immediate=True)

    # ------------------------------------------------------------------ actions

    def action_move(self, dcol: int, drow: int) -> None:
        col, row = self._cursor.to_offset()
        self.move_cursor(Hex.from_offset(col + dcol, row + drow), by_key=True)

    def action_page(self, direction: int) -> None:
        rows = max(1, self.scrollable_content_region.height // GEOMETRY[self._zoom].height - 1)
        self.action_move(0, direction * rows)

    def action_next_aircraft(self, step: int) -> None:
        keys = list(self._tab)
        if not keys:
            return
        if self._selected in keys:
            index = (keys.index(self._selected) + step) % len(keys)
        else:
            index = 0 if step > 0 else len(keys) - 1
        self.select(keys[index], by_key=True)

    def action_centre(self) -> None:
        plane = self._by_key.get(self._selected) if self._selected else None
        self.centre_on(plane.hex if plane else self._cursor)

    def action_zoom(self) -> None:
        """The next zoom level of ``zooms``."""
        at = self._zooms.index(self._zoom) if self._zoom in self._zooms else -1
        self.zoom = self._zooms[(at + 1) % len(self._zooms)]

    def action_pick(self) -> None:
        """``enter``: on a hex marked as a target, aim at it (``TargetPicked``;
        the selected shooter stays); else select the aircraft under the cursor;
        on a stack, the next one on each press, highest level first, each
        press listed (``StackListed``)."""
        if self._cursor in self._targets:
            self.post_message(self.TargetPicked(self, self._cursor))
            return
        stack = tuple(sorted(self.stack_at(self._cursor), key=lambda a: -a.altitude))
        if not stack:
            return
        keys = [a.key for a in stack]
        index = (keys.index(self._selected) + 1) % len(keys) if self._selected in keys else 0
        if len(stack) > 1:
            self.post_message(self.StackListed(self, self._cursor, stack, keys[index]))
        self.select(keys[index], move=False)

    # ------------------------------------------------------------------ geometry

    def _clamp(self, h: Hex) -> Hex:
        col, row = h.to_offset()
        col = max(0, min(col, self._map.cols - 1))
        row = max(0, min(row, self._map.rows - 1))
        return Hex.from_offset(col, row)

    def _hex_region(self, h: Hex) -> Region:
        """The hex's outline in virtual (scrolled) coordinates."""
        g = GEOMETRY[self._zoom]
        col, row = h.to_offset()
        return Region(col * g.pitch, g.half * (col & 1) + row * g.height - g.skip, g.width,
                      g.height + 1)

    def _resize(self) -> None:
        g = GEOMETRY[self._zoom]
        cols, rows = self._map.cols, self._map.rows
        width = cols * g.pitch + (g.width - g.pitch)
        height = rows * g.height + 1 + (g.half if cols > 1 else 0) - g.skip
        if Size(width, height) != self.virtual_size:
            self.virtual_size = Size(width, height)
            self.refresh(layout=True)   # a width of ``auto`` follows the zoom

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """The map's width, with room for the vertical scrollbar when it is
        taller than its place: a width of ``auto`` then never scrolls sideways."""
        width = self.virtual_size.width
        if self.virtual_size.height > container.height:
            width += self.styles.scrollbar_size_vertical
        return width

    def _refresh_hex(self, h: Hex) -> None:
        """Redraw the lines of ``h`` that the cursor or the selection change (the
        lines with its ``[ ]`` sides; the rest of the hex never changes with them)."""
        g = GEOMETRY[self._zoom]
        region = self._hex_region(h).translate(-self.scroll_offset)
        lines = sorted({line for line, _, _ in g.sides})
        self.refresh(Region(region.x, region.y + lines[0], region.width,
                            lines[-1] - lines[0] + 1))

    def _follow(self, h: Hex) -> None:
        """Centre on ``h`` when it is out of sight (a hex half in view is kept)."""
        if not self.is_mounted or not self.scrollable_content_region.width:
            return
        view = Region(*self.scroll_offset, *self.scrollable_content_region.size)
        if not view.contains_region(self._hex_region(h)):
            self.centre_on(h)

    def _scroll_to_hex(self, h: Hex) -> None:
        if self.is_mounted:
            self.scroll_to_region(self._hex_region(h), animate=False, immediate=True,
                                  spacing=None)

    def _changed(self, *, all_lines: bool) -> None:
        self._version += 1
        self._lines.clear()
        self.refresh()

    def on_mount(self) -> None:
        if self._ascii_setting is None:
            from ka_tui.widgets.glyphs import ascii_wanted

            self._ascii = ascii_wanted()
        self._resize()

    def on_resize(self) -> None:
        self._scroll_to_hex(self._cursor)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None
        self._lines.clear()

    # ------------------------------------------------------------------ drawing

    def _style_table(self) -> list[Style]:
        if self._styles is None:
            base = self.rich_style
            self._styles = [base + self.get_component_rich_style(f"hex-map--{name}",
                                                                 partial=True)
                            for name in _COMPONENTS]
            self._styles.append(base)
        return self._styles

    def _entries(self, vy: int, x0: int, x1: int) -> list[tuple[int, int, int]]:
        """(col, row, local line) of every hex outline line drawn on virtual line
        ``vy`` between virtual columns ``x0`` and ``x1``."""
        g = GEOMETRY[self._zoom]
        cols, rows = self._map.cols, self._map.rows
        first = max(0, (x0 - g.width) // g.pitch)
        last = min(cols - 1, x1 // g.pitch)
        out: list[tuple[int, int, int]] = []
        for col in range(first, last + 1):
            rel = vy - g.half * (col & 1)
            if rel < 0:
                continue
            row, ly = divmod(rel, g.height)
            if ly == 0:
                if 0 < row <= rows:
                    out.append((col, row - 1, g.height))
                if row == 0 and rows:
                    out.append((col, 0, 0))
            elif row < rows:
                out.append((col, row, ly))
        return out

    def _token(self, h: Hex) -> tuple[Any, ...]:
        """Everything about hex ``h`` that changes what it shows (but its terrain)."""
        selected = self._selected is not None and any(
            a.key == self._selected for a in self._by_hex.get(h, ()))
        return (self._by_hex.get(h), self._path.get(h), self._reach.get(h),
                self._targets.get(h), h == self._cursor, selected)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        sx, sy = self.scroll_offset
        vy = sy + y + GEOMETRY[self._zoom].skip
        entries = self._entries(vy, sx, sx + width)
        key = (vy, sx, width, self._zoom, self._ascii, self._version,
               tuple((c, r, ly, self._token(Hex.from_offset(c, r))) for c, r, ly in entries))
        cached = self._lines.get(key)
        if cached is not None:
            return cached
        strip = self._draw_line(entries, sx, width)
        self._lines[key] = strip
        self.render_count += 1
        return strip

    def _draw_line(self, entries: list[tuple[int, int, int]], sx: int, width: int) -> Strip:
        g = GEOMETRY[self._zoom]
        styles = self._style_table()
        plain = len(styles) - 1
        chars = [" "] * width
        kinds = [plain] * width
        marked: list[tuple[int, int, int, Hex]] = []

        def put(x: int, text: str, kind: int) -> None:
            for i, ch in enumerate(text):
                cx = x + i - sx
                if 0 <= cx < width:
                    chars[cx] = ch
                    kinds[cx] = kind

        for col, row, ly in entries:
            h = Hex.from_offset(col, row)
            x = col * g.pitch
            outline = g.lines[ly]
            for i, ch in enumerate(outline):
                if ch != " ":
                    put(x + i, ch, _GRID)
            for line, sx_, w in g.slots:
                if line == ly:
                    for text, kind in self._content(h, line, w):
                        put(x + sx_, text, kind)
                        sx_ += len(text)
            if ly == g.mark[0]:
                mark = self._mark(h, g.mark[2])
                if mark is not None:
                    put(x + g.mark[1], mark[0], mark[1])
            if h == self._cursor or self._is_selected_hex(h):
                marked.append((col, row, ly, h))
        # The cursor and selection brackets last: they sit on shared edges.
        for col, row, ly, h in marked:
            x = col * g.pitch
            cursor = h == self._cursor
            left, right = ("[", "]") if cursor else ("(", ")")
            for line, lx, rx in g.sides:
                if line == ly:
                    kind = _CURSOR if cursor else _SELECTED
                    put(x + lx, left, kind)
                    put(x + rx, right, kind)
            if cursor:
                for line, sx_, w in g.slots:
                    if line == ly and any(side[0] == line for side in g.sides):
                        for i in range(w):
                            cx = x + sx_ + i - sx
                            if 0 <= cx < width and kinds[cx] != _TARGET:
                                kinds[cx] = _CURSOR
        segments: list[Segment] = []
        start = 0
        for i in range(1, width + 1):
            if i == width or kinds[i] != kinds[start]:
                segments.append(Segment("".join(chars[start:i]), styles[kinds[start]]))
                start = i
        return Strip(segments, width)

    def _is_selected_hex(self, h: Hex) -> bool:
        plane = self._by_key.get(self._selected) if self._selected else None
        return plane is not None and plane.hex == h

    def _facing(self, facing: int) -> str:
        return (FACING_ASCII if self._ascii else FACING_GLYPHS)[facing % 6]

    def _side_kind(self, side: str) -> int:
        try:
            return _SIDE0 + self._side_order.index(side) % _SIDES
        except ValueError:
            return _SIDE0

    def _top(self, stack: tuple[MapAircraft, ...]) -> MapAircraft:
        for a in stack:
            if a.key == self._selected:
                return a
        return stack[0]

    def _content(self, h: Hex, line: int, w: int) -> tuple[tuple[str, int], ...]:
        """The text (with style ids) of content slot ``line`` of hex ``h``."""
        stack = self._by_hex.get(h, ())
        if self._zoom != "detailed":
            if stack:
                return ((self._compact_aircraft(stack), self._side_kind(self._top(stack).side)),)
            return self._terrain(h, w)
        if line == 1:
            return self._terrain(h, w)
        if stack:
            top = self._top(stack)
            kind = self._side_kind(top.side)
            if line == 2:
                text = self._facing(top.facing) + self.side_letter(top.side)
                text += f" *{min(len(stack), 9)}" if len(stack) > 1 else " " + top.label
                return ((text[:w].ljust(w), kind),)
            return ((f"a{_digits(top.altitude, 2)} s{_digits(top.speed, 2)}".ljust(w)[:w],
                     kind),)
        if line == 2:
            return ((" " * w, _GRID),)
        site = self._map.strip_at(h)
        # the name on the strip's first hex (a carrier's stern) only
        name = site.name[:w] if site is not None and site.hexes()[0] == h else ""
        return ((name.center(w), _CARRIER if site and site.surface is Surface.CARRIER
                 else _STRIP),)

    def _compact_aircraft(self, stack: tuple[MapAircraft, ...]) -> str:
        if len(stack) == 1:
            a = stack[0]
            return self._facing(a.facing) + self.side_letter(a.side) + _digits(a.altitude, 1)
        sides = {a.side for a in stack}
        letter = self.side_letter(stack[0].side) if len(sides) == 1 else MIXED
        return f"{STACK}{min(len(stack), 9)}{letter}"

    def _terrain(self, h: Hex, w: int) -> tuple[tuple[str, int], ...]:
        key = (h, self._zoom, self._ascii)
        cached = self._static.get(key)
        if cached is None:
            text, kind = _terrain_text(self._map, h, w)
            if not text and self._zoom == "dense":   # no outline: a dot marks the hex
                text = OPEN_DOT[self._ascii]
            # a blank cell takes the grid's style: one segment for a run of them
            cached = ((text.center(w)[:w], kind if text else _GRID),)
            self._static[key] = cached
        return cached

    def _mark(self, h: Hex, w: int) -> tuple[str, int] | None:
        """The overlay mark on the bottom edge: target, then path, then reach."""
        detailed = w > 1
        label = self._targets.get(h)
        if label is not None:
            t = MARKS["target"]
            return ((t + label)[:w].ljust(w, "_") if detailed else t), _TARGET
        step = self._path.get(h)
        if step is not None:
            o = MARKS["path"]
            return (f"{o}{step}"[:w].ljust(w, "_") if detailed else o), _PATH
        reach = self._reach.get(h)
        if reach is not None:
            char = MARKS[reach.kind]
            kind = {"free": _FREE, "check": _CHECK, "out": _OUT}[reach.kind]
            if detailed:
                text = char + (reach.odds if reach.kind == "check" else "")
                return text[:w].ljust(w, "_"), kind
            return char, kind
        return None


def _digits(value: int, width: int) -> str:
    text = str(value)
    return text if len(text) <= width else "+" * width


def _side_letters(sides: Sequence[str]) -> dict[str, str]:
    """Each side's letter: its initial if no other side shares it, else A, B, C…"""
    out: dict[str, str] = {}
    initials = [s[:1].upper() or "?" for s in sides]
    spare = (chr(c) for c in range(ord("A"), ord("Z") + 1))
    used = {i for i in initials if initials.count(i) == 1 and i.isalpha()}
    for side, initial in zip(sides, initials):
        if initial in used and initial not in out.values():
            out[side] = initial
        else:
            for letter in spare:
                if letter not in used and letter not in out.values():
                    out[side] = letter
                    break
    return out


def _terrain_text(battle_map: BattleMap, h: Hex, w: int) -> tuple[str, int]:
    """A hex's terrain as text of at most ``w`` cells, and its style id."""
    site = battle_map.strip_at(h)
    if site is not None:
        height = str(site.height) if site.height else ""
        if site.surface is Surface.CARRIER:
            return ("CV" + height)[:w], _CARRIER
        fill = "=" if site.surface is Surface.PREPARED else "=-"
        return ((fill * w)[:w - len(height)] + height), _STRIP
    cell: Terrain = battle_map.terrain.get(h, Terrain())
    height = str(cell.height) if cell.height else ""
    if cell.surface is Surface.WATER:
        return (("~" * w)[:w - len(height)] + height), _WATER
    if cell.surface is Surface.FOREST:
        return "f" + height, _FOREST
    if cell.surface is Surface.ROUGH:
        return (height or "r"), _ROUGH
    return ("." + height if height else ""), _OPEN
