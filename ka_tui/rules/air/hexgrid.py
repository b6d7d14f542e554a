"""Hex geometry for the air-combat map (R-3 movement, R-6 same-hex rules).

Flat-topped hexes in axial coordinates ``(q, r)``. Facing 0 is north (up the
screen) and facings count clockwise: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW.
Display uses "odd-q" offset columns (col, row), as on a printed hex map.
"""

from __future__ import annotations

from dataclasses import dataclass

FACINGS = 6
FACING_NAMES = ("N", "NE", "SE", "S", "SW", "NW")

_DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, -1),   # N
    (1, -1),   # NE
    (1, 0),    # SE
    (0, 1),    # S
    (-1, 1),   # SW
    (-1, 0),   # NW
)


@dataclass(frozen=True, order=True)
class Hex:
    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def neighbour(self, facing: int) -> Hex:
        dq, dr = _DIRECTIONS[facing % FACINGS]
        return Hex(self.q + dq, self.r + dr)

    def neighbours(self) -> tuple[Hex, ...]:
        return tuple(self.neighbour(f) for f in range(FACINGS))

    def ahead(self, facing: int) -> Hex:
        """The hex straight ahead."""
        return self.neighbour(facing)

    def front_left(self, facing: int) -> Hex:
        return self.neighbour(facing - 1)

    def front_right(self, facing: int) -> Hex:
        return self.neighbour(facing + 1)

    def to_offset(self) -> tuple[int, int]:
        """(col, row) in odd-q offset coordinates."""
        col = self.q
        row = self.r + (self.q - (self.q & 1)) // 2
        return col, row

    @staticmethod
    def from_offset(col: int, row: int) -> Hex:
        q = col
        r = row - (col - (col & 1)) // 2
        return Hex(q, r)


def distance(a: Hex, b: Hex) -> int:
    return (abs(a.q - b.q) + abs(a.r - b.r) + abs(a.s - b.s)) // 2


def turn(facing: int, sides: int) -> int:
    """Facing after turning ``sides`` hex sides (positive = clockwise/right)."""
    return (facing + sides) % FACINGS


def facing_change(a: int, b: int) -> int:
    """Fewest hex sides between two facings (0..3)."""
    d = (b - a) % FACINGS
    return min(d, FACINGS - d)


def opposite(facing: int) -> int:
    return (facing + 3) % FACINGS


def _round_cube(q: float, r: float) -> Hex:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def line(a: Hex, b: Hex) -> list[Hex]:
    """Hexes on the straight line from a to b, both ends included."""
    n = distance(a, b)
    if n == 0:
        return [a]
    eps = 1e-6
    out = []
    for i in range(n + 1):
        t = i / n
        q = a.q + eps + (b.q - a.q) * t
        r = a.r + eps + (b.r - a.r) * t
        out.append(_round_cube(q, r))
    return out


def direction_to(a: Hex, b: Hex) -> int | None:
    """The facing whose straight line from a passes through b, if any."""
    if a == b:
        return None
    for f in range(FACINGS):
        dq, dr = _DIRECTIONS[f]
        n = distance(a, b)
        if Hex(a.q + dq * n, a.r + dr * n) == b:
            return f
    return None


def ring(center: Hex, radius: int) -> list[Hex]:
    if radius == 0:
        return [center]
    out = []
    h = Hex(center.q + _DIRECTIONS[4][0] * radius, center.r + _DIRECTIONS[4][1] * radius)
    for f in range(FACINGS):
        for _ in range(radius):
            out.append(h)
            h = h.neighbour(f)
    return out
