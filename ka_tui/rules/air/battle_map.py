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
"""

from __future__ import annotations

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
    """A text map that cannot be read; the message names the line."""


def _facing(word: str, line_no: int) -> int:
    w = word.upper()
    if w in FACING_NAMES:
        return FACING_NAMES.index(w)
    if w.isdigit() and int(w) < 6:
        return int(w)
    raise MapError(f"line {line_no}: '{word}' is not a facing (N NE SE S SW NW or 0-5)")


def _cell(token: str, line_no: int) -> Terrain:
    code, digits = token[0], token[1:]
    if code.isdigit():
        code, digits = "r", token
    if code not in _SURFACE_CODES or (digits and not digits.isdigit()):
        raise MapError(f"line {line_no}: '{token}' is not a terrain cell")
    return Terrain(_SURFACE_CODES[code], int(digits) if digits else 0)


def _hex_at(text: str, line_no: int) -> Hex:
    try:
        col, row = (int(v) for v in text.split(","))
    except ValueError:
        raise MapError(f"line {line_no}: '{text}' is not col,row") from None
    return Hex.from_offset(col, row)


def parse_map(text: str) -> BattleMap:
    """Read a map written as text (see the module docstring)."""
    terrain: dict[Hex, Terrain] = {}
    strips: list[Strip] = []
    carriers: list[Carrier] = []
    rows = cols = 0
    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#")[0].strip()
        if not line:
            continue
        words = line.split()
        if words[0] in ("strip", "carrier"):
            try:
                if words[0] == "strip":
                    strips.append(_strip(words, line_no))
                else:
                    carriers.append(_carrier(words, line_no))
            except (IndexError, ValueError) as exc:
                if isinstance(exc, MapError):
                    raise
                raise MapError(f"line {line_no}: cannot read '{line}'") from None
            continue
        for col, token in enumerate(words):
            cell = _cell(token, line_no)
            if cell != OPEN_GROUND:
                terrain[Hex.from_offset(col, rows)] = cell
        cols = max(cols, len(words))
        rows += 1
    return BattleMap(cols, rows, terrain, tuple(strips), tuple(carriers))


def _strip(w: list[str], n: int) -> Strip:
    surface = Surface(w[6]) if len(w) > 6 else Surface.PREPARED
    if surface not in (Surface.PREPARED, Surface.UNPREPARED):
        raise MapError(f"line {n}: a strip is prepared or unprepared")
    return Strip(w[1], _hex_at(w[2], n), _facing(w[3], n), int(w[4]), int(w[5]), surface,
                 int(w[7]) if len(w) > 7 else 0)


def _carrier(w: list[str], n: int) -> Carrier:
    return Carrier(w[1], _hex_at(w[2], n), _facing(w[3], n), int(w[4]), int(w[5]),
                   int(w[6]) if len(w) > 6 else 0)
