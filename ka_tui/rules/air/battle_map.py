"""The air-battle map: terrain heights and surfaces, strips and carriers (R-6.1, R-10).

Hexes come from ``hexgrid`` (flat-top axial, facing 0 = N, clockwise). A hex's
terrain has a surface and a height in altitude levels (level 0 is the ground,
RULES-NOTES D); an aircraft ending at the terrain's height crashes (R-6.1)
unless landing. Strips and carriers are straight runs of hexes along a facing,
with a length and width in hexes (R-10).

``parse_map`` reads the small maps written as text inside tests and demos::

    . . 2 . .        one token per hex, rows top to bottom, odd-q offset columns
    ~ ~ f1 . .       . open  ~ water  f forest  r rough; a number = height (3 = hill 3)
    strip Home 1,2 SE 5 1 prepared     name col,row facing length width surface [height]
    carrier Ark 0,1 N 4 1              name col,row facing length width [deck height]

It is also the map file a person reads and edits (the map editor imports and
exports it): ``format_map`` writes a map back as that text, and a line that
cannot be read is refused with its line and column (``MapError.line/.column``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from ka_tui.rules.air.hexgrid import FACING_NAMES, Hex, opposite


class Surface(str, Enum):
    """R-10 landing surfaces (its modifier table names each)."""

    OPEN = "open"              # open ground off any strip: R-10 "rough ground"
    ROUGH = "rough"
    WATER = "water"
    FOREST = "forest"
    PREPARED = "prepared"      # a prepared strip
    UNPREPARED = "unprepared"  # an unprepared strip
    CARRIER = "carrier"

    @property
    def label(self) -> str:
        return {"open": "open ground", "rough": "rough ground", "water": "water",
                "forest": "forest", "prepared": "prepared strip",
                "unprepared": "unprepared strip", "carrier": "carrier deck"}[self.value]


@dataclass(frozen=True)
class Terrain:
    surface: Surface = Surface.OPEN
    height: int = 0


OPEN_GROUND = Terrain()


@dataclass(frozen=True)
class Strip:
    """A runway (R-10): ``length`` hexes from ``start`` along ``facing``."""

    name: str
    start: Hex
    facing: int
    length: int
    width: int = 1
    surface: Surface = Surface.PREPARED
    height: int = 0

    def hexes(self) -> tuple[Hex, ...]:
        out = [self.start]
        for _ in range(self.length - 1):
            out.append(out[-1].neighbour(self.facing))
        return tuple(out)

    def end_hex(self, facing: int) -> Hex:
        """The hex a landing along ``facing`` stops in (R-10: at the end of the strip)."""
        cells = self.hexes()
        return cells[-1] if facing == self.facing else cells[0]

    def along(self, facing: int) -> bool:
        return facing in (self.facing, opposite(self.facing))


@dataclass(frozen=True)
class Carrier:
    """A carrier deck as a map feature (R-10: +4 to land; four-engine craft barred)."""

    name: str
    stern: Hex
    facing: int
    length: int = 4
    width: int = 1
    height: int = 0

    def as_strip(self) -> Strip:
        return Strip(self.name, self.stern, self.facing, self.length, self.width,
                     Surface.CARRIER, self.height)


@dataclass(frozen=True)
class LandingSite:
    """Where a landing along a facing would come down (R-10)."""

    name: str
    surface: Surface
    length: int
    width: int | None      # None: open terrain, the width does not limit
    height: int
    end: Hex
    carrier: bool = False


# Off a strip, the run of alike terrain counted as the "strip" is capped here:
# R-10's longest requirement is 12 hexes, so more never matters.
MAX_RUN = 12


@dataclass(frozen=True)
class BattleMap:
    cols: int = 0
    rows: int = 0
    terrain: dict[Hex, Terrain] = field(default_factory=dict)
    strips: tuple[Strip, ...] = ()
    carriers: tuple[Carrier, ...] = ()
    # hex → the strip or carrier deck on it, built once (previews run per keypress)
    _decks: dict[Hex, Strip] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        decks: dict[Hex, Strip] = {}
        for s in self._all_strips():
            for h in s.hexes():
                decks.setdefault(h, s)
        object.__setattr__(self, "_decks", decks)

    def terrain_at(self, h: Hex) -> Terrain:
        s = self._decks.get(h)
        if s is not None:
            return Terrain(s.surface, s.height)
        return self.terrain.get(h, OPEN_GROUND)

    def height(self, h: Hex) -> int:
        """R-6.1: terrain height in altitude levels (0 off the map)."""
        return self.terrain_at(h).height

    def in_bounds(self, h: Hex) -> bool:
        col, row = h.to_offset()
        return 0 <= col < self.cols and 0 <= row < self.rows

    def _all_strips(self) -> tuple[Strip, ...]:
        return (*self.strips, *(c.as_strip() for c in self.carriers))

    def strip_at(self, h: Hex) -> Strip | None:
        return self._decks.get(h)

    def landing_site(self, h: Hex, facing: int) -> LandingSite:
        """R-10: the strip or carrier under ``h`` if flown along it, else the terrain."""
        s = self.strip_at(h)
        if s is not None and s.along(facing):
            return LandingSite(s.name, s.surface, s.length, s.width, s.height,
                               s.end_hex(facing), s.surface is Surface.CARRIER)
        here = self.terrain_at(h)
        run, end = 1, h
        while run < MAX_RUN:
            nxt = end.neighbour(facing)
            if self.terrain_at(nxt) != here or not self.in_bounds(nxt):
                break
            run, end = run + 1, nxt
        return LandingSite(here.surface.label, here.surface, run, None, here.height, end)

    def runway_ahead(self, h: Hex, facing: int) -> int:
        """R-10 take-off: hexes from ``h`` (itself included) ahead along ``facing``
        on the same strip, or on alike terrain off a strip (capped at MAX_RUN)."""
        s = self.strip_at(h)
        if s is not None:
            if not s.along(facing):
                return 1
            cells = s.hexes() if facing == s.facing else tuple(reversed(s.hexes()))
            return len(cells) - cells.index(h)
        here = self.terrain_at(h)
        run, cur = 1, h
        while run < MAX_RUN:
            cur = cur.neighbour(facing)
            if not self.in_bounds(cur) or self.terrain_at(cur) != here or self.strip_at(cur):
                break
            run += 1
        return run


# ---------------------------------------------------------------- text maps

_SURFACE_CODES = {".": Surface.OPEN, "~": Surface.WATER, "f": Surface.FOREST, "r": Surface.ROUGH}


class MapError(ValueError):
    """A text map that cannot be read. The message names the line (and column);
    ``line`` and ``column`` (1-based, 0 = unknown) give the place to the UI."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


def _error(line_no: int, column: int, what: str) -> MapError:
    where = f" (column {column})" if column else ""
    return MapError(f"line {line_no}: {what}{where}", line_no, column)


def _facing(word: str, line_no: int, column: int = 0) -> int:
    w = word.upper()
    if w in FACING_NAMES:
        return FACING_NAMES.index(w)
    if w.isdigit() and int(w) < 6:
        return int(w)
    raise _error(line_no, column, f"'{word}' is not a facing (N NE SE S SW NW or 0-5)")


def _cell(token: str, line_no: int, column: int = 0) -> Terrain:
    code, digits = token[0], token[1:]
    if code.isdigit():
        code, digits = "r", token
    if code not in _SURFACE_CODES or (digits and not digits.isdigit()):
        raise _error(line_no, column, f"'{token}' is not a terrain cell")
    return Terrain(_SURFACE_CODES[code], int(digits) if digits else 0)


def _hex_at(text: str, line_no: int, column: int = 0) -> Hex:
    try:
        col, row = (int(v) for v in text.split(","))
    except ValueError:
        raise _error(line_no, column, f"'{text}' is not col,row") from None
    if col < 0 or row < 0:
        raise _error(line_no, column, f"'{text}' is not col,row")
    return Hex.from_offset(col, row)


_WORD = re.compile(r"\S+")


def parse_map(text: str) -> BattleMap:
    """Read a map written as text (see the module docstring). A line that cannot
    be read raises ``MapError`` naming its line and column."""
    terrain: dict[Hex, Terrain] = {}
    strips: list[Strip] = []
    carriers: list[Carrier] = []
    rows = cols = 0
    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#")[0]
        found = [(m.group(), m.start() + 1) for m in _WORD.finditer(line)]
        if not found:
            continue
        words = [w for w, _ in found]
        columns = [c for _, c in found]
        if words[0] in ("strip", "carrier"):
            if words[0] == "strip":
                strips.append(_strip(words, columns, line_no))
            else:
                carriers.append(_carrier(words, columns, line_no))
            continue
        for col, (token, column) in enumerate(found):
            cell = _cell(token, line_no, column)
            if cell != OPEN_GROUND:
                terrain[Hex.from_offset(col, rows)] = cell
        cols = max(cols, len(words))
        rows += 1
    return BattleMap(cols, rows, terrain, tuple(strips), tuple(carriers))


def _count(words: list[str], columns: list[int], i: int, n: int, what: str,
           default: int | None = None, least: int = 1) -> int:
    """Word ``i`` as a whole number >= ``least`` (``default`` when absent)."""
    if i >= len(words):
        if default is None:
            end = columns[-1] + len(words[-1])
            raise _error(n, end, f"cannot read '{' '.join(words)}': {what} missing")
        return default
    if not words[i].isdigit() or int(words[i]) < least:
        raise _error(n, columns[i], f"'{words[i]}' is not a {what} (a whole number "
                                    f"from {least})")
    return int(words[i])


def _head(words: list[str], columns: list[int], n: int) -> tuple[str, Hex, int]:
    if len(words) < 4:
        end = columns[-1] + len(words[-1])
        raise _error(n, end, f"cannot read '{' '.join(words)}': "
                             f"{words[0]} name col,row facing length width expected")
    return words[1], _hex_at(words[2], n, columns[2]), _facing(words[3], n, columns[3])


def _strip(w: list[str], c: list[int], n: int) -> Strip:
    name, start, facing = _head(w, c, n)
    length = _count(w, c, 4, n, "length")
    width = _count(w, c, 5, n, "width")
    surface = Surface.PREPARED
    if len(w) > 6:
        if w[6] not in (Surface.PREPARED.value, Surface.UNPREPARED.value):
            raise _error(n, c[6], "a strip is prepared or unprepared")
        surface = Surface(w[6])
    height = _count(w, c, 7, n, "height", default=0, least=0)
    if len(w) > 8:
        raise _error(n, c[8], f"'{w[8]}' is one word too many")
    return Strip(name, start, facing, length, width, surface, height)


def _carrier(w: list[str], c: list[int], n: int) -> Carrier:
    name, stern, facing = _head(w, c, n)
    length = _count(w, c, 4, n, "length")
    width = _count(w, c, 5, n, "width")
    height = _count(w, c, 6, n, "deck height", default=0, least=0)
    if len(w) > 7:
        raise _error(n, c[7], f"'{w[7]}' is one word too many")
    return Carrier(name, stern, facing, length, width, height)


# Codes written for each surface a map cell can have (strips and carriers are lines).
_CODE_OF = {surface: code for code, surface in _SURFACE_CODES.items()}


def cell_token(cell: Terrain) -> str:
    """The text token of one map cell: ``.`` ``~`` ``f`` ``r``, a height after the
    code (``f1``), a rough cell with a height as the bare number (``3``)."""
    code = _CODE_OF.get(cell.surface)
    if code is None:
        raise ValueError(f"a map cell cannot be {cell.surface.label}")
    if cell.height == 0:
        return code
    return str(cell.height) if code == "r" else f"{code}{cell.height}"


def _name_ok(name: str) -> str:
    if not name or any(ch.isspace() for ch in name) or "#" in name:
        raise ValueError(f"'{name}': a strip or carrier name is one word without '#'")
    return name


def format_map(battle_map: BattleMap) -> str:
    """The text ``parse_map`` reads back to the same map: one row of cells per
    line (columns aligned), then one ``strip`` / ``carrier`` line each.

    Raises ``ValueError`` for what the text cannot hold (a name with a space or
    ``#``, a cell with a strip surface)."""
    tokens = [[cell_token(battle_map.terrain.get(Hex.from_offset(col, row), OPEN_GROUND))
               for col in range(battle_map.cols)] for row in range(battle_map.rows)]
    width = max((len(t) for line in tokens for t in line), default=1)
    lines = [" ".join(t.ljust(width) for t in line).rstrip() for line in tokens]
    for s in battle_map.strips:
        col, row = s.start.to_offset()
        words = ["strip", _name_ok(s.name), f"{col},{row}", FACING_NAMES[s.facing],
                 str(s.length), str(s.width), s.surface.value]
        if s.height:
            words.append(str(s.height))
        lines.append(" ".join(words))
    for c in battle_map.carriers:
        col, row = c.stern.to_offset()
        words = ["carrier", _name_ok(c.name), f"{col},{row}", FACING_NAMES[c.facing],
                 str(c.length), str(c.width)]
        if c.height:
            words.append(str(c.height))
        lines.append(" ".join(words))
    return "\n".join(lines) + "\n"
