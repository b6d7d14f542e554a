"""Any dice, not only skill pools: the table's other rolls.

Every air check is 2d6 against a target number (R-2: "equal to or greater
than"), Firepower and Evasion are pools of d6 counted against a face
(S0 §Firepower / §Evasion; RULES-NOTES D ``firepower_hit_on``, ``evasion_cancel_on``).
The notation a GM types::

    2d6+1 @8          total of the dice and the modifier, at least 8 (R-2)
    4d6 ≥4            count the dice showing 4 or more (also ``>=4``)
    3d10+1d12         no check: the total and its spread
    2d6 @7            a 2d6 check against 7

``parse_dice`` reads it (or raises ``DiceNotationError`` with the column);
``dice_odds`` gives exact ``Fraction`` odds; ``roll_dice`` rolls it on any
``Dice`` (typed faces through ``ScriptedDice``). ``rating_check`` builds the
2d6 check from a character's Piloting or Gunnery rating (R-2) with named
modifiers as an engine ``TargetNumber``. Pure: no I/O, dice injectable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ka_tui.rules.core.dice import Dice
from ka_tui.rules.core.target import TargetNumber

MAX_DICE = 30
# The dice a table has (a d7 is a typo, not a die).
TABLE_DICE: tuple[int, ...] = (2, 3, 4, 6, 8, 10, 12, 20, 100)
MAX_ABS_MODIFIER = 100
EXAMPLE = "2d6+1 @8"


class DiceNotationError(ValueError):
    """Text that is not a dice expression; ``column`` is 1-based (0: the whole text)."""

    def __init__(self, message: str, column: int = 0) -> None:
        super().__init__(message if column == 0 else f"column {column}: {message}")
        self.message = message
        self.column = column


@dataclass(frozen=True)
class DiceExpr:
    """``groups``: (count, sides) as typed; ``at_least``: a total to reach
    (``@``); ``face_at_least``: count the dice at or above this face (``≥``)."""

    groups: tuple[tuple[int, int], ...]
    modifier: int = 0
    at_least: int | None = None
    face_at_least: int | None = None

    @property
    def dice(self) -> tuple[int, ...]:
        """Die sizes in rolling (and typing) order."""
        return tuple(s for n, s in self.groups for _ in range(n))

    def render(self) -> str:
        text = "+".join(f"{n}d{s}" for n, s in self.groups)
        if self.modifier:
            text += f"{self.modifier:+d}"
        if self.at_least is not None:
            text += f" @{self.at_least}"
        if self.face_at_least is not None:
            text += f" >={self.face_at_least}"
        return text


_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<dice>(?P<count>\d*)[dD](?P<sides>\d+))
  | (?P<num>\d+)
  | (?P<sign>[+-])
  | (?P<at>@)
  | (?P<ge>≥|>=|>)
""", re.VERBOSE)


def parse_dice(text: str) -> DiceExpr:
    """Read a dice expression (module docstring) or raise ``DiceNotationError``."""
    pos, tokens = 0, []
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            bad = re.match(r"\S+", text[pos:])
            raise DiceNotationError(
                f"'{bad.group(0) if bad else text[pos]}' is not part of a dice roll "
                f"(try {EXAMPLE} or 4d6 >=4)", pos + 1)
        if m.lastgroup != "ws":
            kind = next(k for k in ("dice", "num", "sign", "at", "ge") if m.group(k) is not None)
            tokens.append((kind, m.group(0), pos + 1, m.group("count") or "",
                           m.group("sides") or ""))
        pos = m.end()
    if not tokens:
        raise DiceNotationError(f"empty: type dice like {EXAMPLE}")
    groups: list[tuple[int, int]] = []
    modifier = 0
    sign: str | None = None
    expect = True
    i = 0
    at_least: int | None = None
    face: int | None = None
    while i < len(tokens):
        kind, word, col, count_text, sides_text = tokens[i]
        if kind in ("at", "ge"):
            if sign is not None:
                raise DiceNotationError(f"'{sign}' needs a die or a number after it", col)
            rest = tokens[i + 1:]
            if not rest or rest[0][0] != "num":
                what = "a total (e.g. @8)" if kind == "at" else "a face (e.g. >=4)"
                raise DiceNotationError(f"'{word}' needs {what} after it", col)
            value = int(rest[0][1])
            if kind == "at":
                if at_least is not None or face is not None:
                    raise DiceNotationError("one check only: @TOTAL or >=FACE", col)
                at_least = value
            else:
                if at_least is not None or face is not None:
                    raise DiceNotationError("one check only: @TOTAL or >=FACE", col)
                face = value + (1 if word == ">" else 0)
            i += 2
            continue
        if at_least is not None or face is not None:
            raise DiceNotationError(f"'{word}' after the check: put it before '@'", col)
        if kind == "sign":
            if sign is not None:
                raise DiceNotationError(f"two signs in a row ('{sign}{word}')", col)
            sign, expect = word, True
            i += 1
            continue
        if not expect:
            raise DiceNotationError(f"'{word}': join terms with '+' (e.g. 3d10+1d12)", col)
        if kind == "dice":
            if sign == "-":
                raise DiceNotationError(f"'-{word}': dice cannot be taken away", col)
            count = int(count_text) if count_text else 1
            sides = int(sides_text)
            if count < 1:
                raise DiceNotationError(f"'{word}': at least one die", col)
            if sides not in TABLE_DICE:
                known = " ".join(f"d{d}" for d in TABLE_DICE)
                raise DiceNotationError(f"'{word}': d{sides} is not a die ({known})", col)
            groups.append((count, sides))
        else:
            if sign is None:
                raise DiceNotationError(f"'{word}': a modifier needs a sign (+{word}); "
                                        f"dice need a 'd' (e.g. 2d6)", col)
            modifier += -int(word) if sign == "-" else int(word)
        sign, expect = None, False
        i += 1
    if sign is not None:
        raise DiceNotationError(f"'{sign}' at the end needs a die or a number after it")
    if not groups:
        raise DiceNotationError(f"no dice: type dice like {EXAMPLE}")
    count = sum(n for n, _ in groups)
    if count > MAX_DICE:
        raise DiceNotationError(f"{count} dice: at most {MAX_DICE}")
    if abs(modifier) > MAX_ABS_MODIFIER:
        raise DiceNotationError(f"modifier {modifier:+d}: at most ±{MAX_ABS_MODIFIER}")
    expr = DiceExpr(tuple(groups), modifier, at_least, face)
    if face is not None:
        if modifier:
            raise DiceNotationError("a modifier does nothing when dice are counted (>=)")
        if not 1 <= face <= max(expr.dice):
            raise DiceNotationError(f">={face}: no die here shows that face")
    return expr


# --------------------------------------------------------------- odds

@lru_cache(maxsize=256)
def total_distribution(dice: tuple[int, ...], modifier: int = 0) -> dict[int, Fraction]:
    """Exact distribution of the total of ``dice`` plus ``modifier``."""
    ways: dict[int, int] = {0: 1}
    for sides in dice:
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + n
        ways = nxt
    space = 1
    for sides in dice:
        space *= sides
    return {t + modifier: Fraction(n, space) for t, n in sorted(ways.items())}


@lru_cache(maxsize=256)
def count_distribution(dice: tuple[int, ...], face: int) -> dict[int, Fraction]:
    """Exact distribution of how many of ``dice`` show ``face`` or more."""
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for sides in dice:
        p = Fraction(max(0, sides - face + 1), sides)
        nxt: dict[int, Fraction] = {}
        for k, q in dist.items():
            nxt[k] = nxt.get(k, Fraction(0)) + q * (1 - p)
            nxt[k + 1] = nxt.get(k + 1, Fraction(0)) + q * p
        dist = nxt
    return dist


@dataclass(frozen=True)
class DiceOdds:
    """``dist``: total (or count of dice) → exact chance; ``p_pass``: the
    chance to reach the ``@`` total (None without one)."""

    dist: dict[int, Fraction]
    p_pass: Fraction | None
    counting: bool

    @property
    def mean(self) -> Fraction:
        return sum((k * p for k, p in self.dist.items()), Fraction(0))


def dice_odds(expr: DiceExpr) -> DiceOdds:
    """Exact odds of ``expr`` before rolling (R-2 for an ``@`` total)."""
    if expr.face_at_least is not None:
        return DiceOdds(count_distribution(expr.dice, expr.face_at_least), None, True)
    dist = total_distribution(expr.dice, expr.modifier)
    p = None
    if expr.at_least is not None:
        p = sum((q for t, q in dist.items() if t >= expr.at_least), Fraction(0))
    return DiceOdds(dist, p, False)


# --------------------------------------------------------------- rolling

@dataclass(frozen=True)
class DiceRoll:
    """A rolled expression: faces as (sides, face) in order, the total (dice +
    modifier), the count of dice at/above the face (``≥``), and whether the
    check passed (None without a check)."""

    expr: DiceExpr
    faces: tuple[tuple[int, int], ...]
    total: int
    counted: int | None
    passed: bool | None

    def short(self) -> str:
        """The log's result column: ``PASS 8 vs 8 (+0)``, ``2 at 4+``, ``total 17``."""
        if self.counted is not None:
            return f"{self.counted} at {self.expr.face_at_least}+"
        if self.passed is None:
            return f"total {self.total}"
        margin = self.total - (self.expr.at_least or 0)
        return f"{'PASS' if self.passed else 'FAIL'} {self.total} vs {self.expr.at_least} " \
               f"({margin:+d})"

    def summary(self) -> str:
        """One line for the log: ``2d6+1: 4+5+1 = 10 vs 8 → success``."""
        shown = "+".join(str(f) for _, f in self.faces)
        if self.counted is not None:
            n = self.counted
            return (f"{self.expr.render()}: {' '.join(str(f) for _, f in self.faces)} → "
                    f"{n} {'dice' if n != 1 else 'die'} at {self.expr.face_at_least}+")
        mod = f"{self.expr.modifier:+d}" if self.expr.modifier else ""
        text = f"{shown}{mod} = {self.total}"
        if self.passed is None:
            return text
        margin = self.total - (self.expr.at_least or 0)
        return f"{text} vs {self.expr.at_least} → {'success' if self.passed else 'failure'} " \
               f"(margin {margin:+d})"


def roll_dice(expr: DiceExpr, dice: Dice) -> DiceRoll:
    """Roll ``expr`` on ``dice`` (R-2: a total ≥ the target succeeds)."""
    faces = tuple((sides, dice.roll(sides)) for sides in expr.dice)
    total = sum(f for _, f in faces) + expr.modifier
    counted = None
    passed: bool | None = None
    if expr.face_at_least is not None:
        counted = sum(1 for _, f in faces if f >= expr.face_at_least)
    elif expr.at_least is not None:
        passed = total >= expr.at_least
    return DiceRoll(expr, faces, total, counted, passed)


# --------------------------------------------------------------- 2d6 checks from ratings

@dataclass(frozen=True)
class NamedModifier:
    value: int
    name: str


_MOD = re.compile(r"^\s*([+-])\s*(\d+)\s*(.*?)\s*$")


def parse_modifiers(text: str) -> tuple[NamedModifier, ...]:
    """``+2 long range, -1 evasive`` → named modifiers (the target number's,
    R-2: a + makes the check harder). Raises ``DiceNotationError``."""
    out: list[NamedModifier] = []
    column = 1
    for part in text.split(","):
        if part.strip():
            m = _MOD.match(part)
            if m is None:
                raise DiceNotationError(
                    f"'{part.strip()}': write a sign, a number and a name (+2 range)", column)
            value = int(m.group(2)) * (-1 if m.group(1) == "-" else 1)
            if abs(value) > 12:
                raise DiceNotationError(f"'{part.strip()}': at most ±12 on a 2d6 check",
                                        column)
            out.append(NamedModifier(value, m.group(3) or "modifier"))
        column += len(part) + 1
    return tuple(out)


def rating_check(rating: int, what: str, modifiers: tuple[NamedModifier, ...] = ()
                 ) -> TargetNumber:
    """The 2d6 target for a Piloting or Gunnery check (R-2): the airman's
    rating plus named modifiers, as the engine's ``TargetNumber``."""
    target = TargetNumber(rating, what.lower(), "R-2")
    for m in modifiers:
        target = target.plus(m.value, m.name, "GM")
    return target


def check_expr(target: TargetNumber) -> DiceExpr:
    """The dice a ``TargetNumber`` is rolled with: 2d6 at least its value (R-2)."""
    return DiceExpr(((2, 6),), 0, target.value)
