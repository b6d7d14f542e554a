"""Text a GM types for a dice pool, and the faces the table rolled.

Pool notation (case and spaces don't matter)::

    3d10+1d12 @7      Expert with its upgrade, skill number 7
    d12+4 @6          a Passive +4 on a Base/characteristic of 6 (S0 §Skills)
    [E1] @7           a level with its upgrades: B, T, E, M, L (+ 0–4 upgrades)
    2d8 -1 @5         a penalty
    4d12              no '@': the number is left to the caller

A level written as a letter ("[L2]") is expanded with ``skills.level_pool``;
writing ``L`` marks the pool Legendary (opposed tests against it become
Challenging, S0 §Skills). Errors name what is wrong and the column.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ka_tui.rules.core.skills import (
    LEVEL_POOLS, SKILL_DICE, Level, Pool, SkillError, level_pool, pool_text,
)

MAX_DICE = 8
MAX_ABS_NUMBER = 40
MAX_ABS_BONUS = 20
EXAMPLE = "3d10+1d12 @7"


class NotationError(ValueError):
    """A pool text that cannot be read; ``column`` is 1-based (0: the whole text)."""

    def __init__(self, message: str, column: int = 0) -> None:
        super().__init__(message if column == 0 else f"column {column}: {message}")
        self.message = message
        self.column = column


@dataclass(frozen=True)
class PoolSpec:
    pool: Pool
    number: int | None = None
    bonus: int = 0
    legendary: bool = False

    def render(self) -> str:
        text = pool_text(self.pool)
        if self.bonus:
            text += f"{self.bonus:+d}"
        if self.number is not None:
            text += f" @{self.number}"
        return text


_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<dice>(?P<count>\d*)\s*[dD]\s*(?P<sides>\d+))
  | (?P<level>\[\s*(?P<lv1>[A-Za-z])\s*(?P<up1>\d*)\s*\]|(?P<lv2>[BTEMLbteml])(?P<up2>\d?)(?![A-Za-z]))
  | (?P<num>\d+)
  | (?P<sign>[+-])
  | (?P<at>@)
""", re.VERBOSE)


_KINDS = ("ws", "dice", "level", "num", "sign", "at")


@dataclass(frozen=True)
class _Tok:
    kind: str
    text: str
    column: int


def _tokens(text: str) -> list[_Tok]:
    out: list[_Tok] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            bad = re.match(r"\S+", text[pos:])
            word = bad.group(0) if bad else text[pos]
            raise NotationError(f"'{word}' is not part of a pool (try {EXAMPLE})", pos + 1)
        kind = next(k for k in _KINDS if m.group(k) is not None)
        if kind != "ws":
            out.append(_Tok(kind, m.group(0), pos + 1))
        pos = m.end()
    return out


def _dice(tok: _Tok) -> Pool:
    m = re.fullmatch(r"(\d*)\s*[dD]\s*(\d+)", tok.text)
    assert m is not None
    count = int(m.group(1)) if m.group(1) else 1
    sides = int(m.group(2))
    allowed = ", ".join(f"d{s}" for s in SKILL_DICE)
    if sides not in SKILL_DICE:
        raise NotationError(f"'{tok.text}': d{sides} is not a skill die ({allowed})", tok.column)
    if count < 1:
        raise NotationError(f"'{tok.text}': at least one die", tok.column)
    if count > MAX_DICE:
        raise NotationError(f"'{tok.text}': at most {MAX_DICE} dice", tok.column)
    return (sides,) * count


def _level(tok: _Tok) -> tuple[Pool, bool]:
    m = re.fullmatch(r"\[?\s*([A-Za-z])\s*(\d*)\s*\]?", tok.text)
    assert m is not None
    letter, digits = m.group(1).upper(), m.group(2)
    try:
        level = Level(letter)
    except ValueError:
        raise NotationError(f"'{tok.text}': {letter} is not a level (B, T, E, M or L)",
                            tok.column) from None
    upgrades = int(digits) if digits else 0
    try:
        return level_pool(level, upgrades), level is Level.LEGENDARY
    except SkillError:
        top = LEVEL_POOLS[level].max_upgrades
        raise NotationError(f"'{tok.text}': {level.label} takes 0–{top} upgrades",
                            tok.column) from None


def parse_pool(text: str, *, require_number: bool = False) -> PoolSpec:
    """Read pool notation (see the module docstring) or raise ``NotationError``."""
    toks = _tokens(text)
    if not toks:
        raise NotationError(f"empty: type a pool like {EXAMPLE}")
    pool: list[int] = []
    bonus = 0
    legendary = False
    number: int | None = None
    i = 0
    sign: _Tok | None = None
    expect_term = True
    while i < len(toks):
        tok = toks[i]
        if tok.kind == "at":
            if expect_term and sign is not None:
                raise NotationError(f"'{sign.text}' needs a die or a number after it",
                                    sign.column)
            number, i = _number_after_at(toks, i)
            break
        if tok.kind == "sign":
            if sign is not None and expect_term:
                raise NotationError(f"two signs in a row ('{sign.text}{tok.text}')", tok.column)
            sign, expect_term = tok, True
            i += 1
            continue
        if not expect_term:
            raise NotationError(f"'{tok.text}': join terms with '+' (e.g. {EXAMPLE})", tok.column)
        negative = sign is not None and sign.text == "-"
        if tok.kind == "dice":
            if negative:
                raise NotationError(f"'-{tok.text}': dice cannot be taken away", sign.column
                                    if sign else tok.column)
            pool.extend(_dice(tok))
        elif tok.kind == "level":
            if negative:
                raise NotationError(f"'-{tok.text}': a level cannot be taken away",
                                    sign.column if sign else tok.column)
            dice, legendary_here = _level(tok)
            pool.extend(dice)
            legendary = legendary or legendary_here
        elif tok.kind == "num":
            if sign is None:
                raise NotationError(
                    f"'{tok.text}': a bonus needs a sign (+{tok.text}); dice need a 'd' "
                    f"(e.g. 2d10)", tok.column)
            bonus += -int(tok.text) if negative else int(tok.text)
        sign, expect_term = None, False
        i += 1
    else:
        if sign is not None:
            raise NotationError(f"'{sign.text}' at the end needs a die or a number after it",
                                sign.column)
    if not pool:
        raise NotationError(f"no dice: type a pool like {EXAMPLE}")
    if len(pool) > MAX_DICE:
        raise NotationError(f"{len(pool)} dice: at most {MAX_DICE}")
    if abs(bonus) > MAX_ABS_BONUS:
        raise NotationError(f"bonus {bonus:+d}: at most ±{MAX_ABS_BONUS}")
    if require_number and number is None:
        raise NotationError(f"add the skill number with '@' (e.g. {pool_text(tuple(pool))} @7)")
    return PoolSpec(tuple(pool), number, bonus, legendary)


def _number_after_at(toks: Sequence[_Tok], i: int) -> tuple[int, int]:
    at = toks[i]
    rest = list(toks[i + 1:])
    negative = False
    if rest and rest[0].kind == "sign":
        negative = rest[0].text == "-"
        rest = rest[1:]
    if not rest or rest[0].kind != "num":
        raise NotationError("a skill number must follow '@' (e.g. @7)", at.column)
    value = -int(rest[0].text) if negative else int(rest[0].text)
    if abs(value) > MAX_ABS_NUMBER:
        raise NotationError(f"skill number {value}: at most ±{MAX_ABS_NUMBER}", rest[0].column)
    if len(rest) > 1:
        extra = rest[1]
        hint = " (a second '@'?)" if extra.kind == "at" else (
            " — put a bonus before '@' (e.g. d12+4 @6)" if extra.kind == "sign" else "")
        raise NotationError(f"'{extra.text}' after the skill number{hint}", extra.column)
    return value, len(toks)


def pool_error(text: str) -> str | None:
    """The error message for ``text``, or None when it reads as a pool."""
    try:
        parse_pool(text)
    except NotationError as err:
        return str(err)
    return None


# --- faces the table rolled -------------------------------------------------


@dataclass(frozen=True)
class FaceError:
    """An error about the whole entry (``index`` None) or about one die."""

    index: int | None
    message: str


@dataclass(frozen=True)
class FacesCheck:
    faces: tuple[int, ...] | None
    errors: tuple[FaceError, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def message(self) -> str:
        return "; ".join(e.message for e in self.errors)


def check_faces(pool: Pool, faces: Sequence[int] | str) -> FacesCheck:
    """Check faces rolled at the table for ``pool``, in the pool's order.

    ``faces`` is a list of ints or text like ``"3 7 10 12"`` (commas allowed).
    """
    errors: list[FaceError] = []
    values: list[int | None] = []
    if isinstance(faces, str):
        for n, word in enumerate(w for w in re.split(r"[\s,;]+", faces.strip()) if w):
            try:
                values.append(int(word))
            except ValueError:
                errors.append(FaceError(n, f"'{word}' is not a number (die {n + 1})"))
                values.append(None)
    else:
        values = list(faces)
    if len(values) != len(pool):
        errors.insert(0, FaceError(
            None, f"{len(pool)} face{'s' if len(pool) != 1 else ''} expected for "
                  f"{pool_text(pool)}, got {len(values)}"))
    for n, (sides, face) in enumerate(zip(pool, values)):
        if face is not None and not 1 <= face <= sides:
            errors.append(FaceError(n, f"{face} is not a face of a d{sides} (die {n + 1})"))
    if errors:
        return FacesCheck(None, tuple(errors))
    return FacesCheck(tuple(v for v in values if v is not None))
