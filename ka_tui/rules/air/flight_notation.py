"""Compact text for the manoeuvre dial and the turn-mode table.

The aircraft form edits both as one line of text so a GM can type them fast:

- dial (S0 §Flight card): ``A1 A2 A3 T1 T2 !H1`` — A ahead, T turn, H hard
  turn, then the speed; a leading ``!`` marks a Stressful (red) manoeuvre.
- turn mode (R-3.4): ``1:1 4:2 7:3 10:4`` — from speed 1 fly 1 hex straight
  per facing change, from speed 4 fly 2, and so on.

Parsing returns the values or a list of ``FieldError``s with messages meant
for the GM; it never raises on bad text.
"""

from __future__ import annotations

import re

from ka_tui.rules.air.aircraft import FieldError, Manoeuvre, ManoeuvreKind, TurnBand

KIND_LETTER: dict[ManoeuvreKind, str] = {
    ManoeuvreKind.AHEAD: "A",
    ManoeuvreKind.TURN: "T",
    ManoeuvreKind.HARD_TURN: "H",
}
LETTER_KIND = {v: k for k, v in KIND_LETTER.items()}

_DIAL_TOKEN = re.compile(r"(!?)([ATH])(\d{1,2})", re.IGNORECASE)
_BAND_TOKEN = re.compile(r"(\d{1,2}):(\d{1,2})")


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,;]+", text.strip()) if t]


def manoeuvre_code(m: Manoeuvre) -> str:
    """``!H1`` for a Stressful hard turn at speed 1 (S0 §Flight card)."""
    return f"{'!' if m.stressful else ''}{KIND_LETTER[m.kind]}{m.speed}"


def format_dial(manoeuvres: tuple[Manoeuvre, ...]) -> str:
    return " ".join(manoeuvre_code(m) for m in manoeuvres)


def parse_dial(text: str) -> tuple[tuple[Manoeuvre, ...], list[FieldError]]:
    """S0 §Flight card: read ``A1 T2 !H1``; errors name the bad token."""
    out: list[Manoeuvre] = []
    errors: list[FieldError] = []
    for tok in _tokens(text):
        m = _DIAL_TOKEN.fullmatch(tok)
        if m is None:
            errors.append(FieldError(
                "manoeuvres",
                f"'{tok}' is not a manoeuvre (A, T or H + speed; ! = Stressful)"))
            continue
        out.append(Manoeuvre(LETTER_KIND[m.group(2).upper()], int(m.group(3)),
                             stressful=bool(m.group(1))))
    return tuple(out), errors


def format_turn_mode(bands: tuple[TurnBand, ...]) -> str:
    return " ".join(f"{b.min_speed}:{b.hexes}" for b in bands)


def parse_turn_mode(text: str) -> tuple[tuple[TurnBand, ...], list[FieldError]]:
    """R-3.4: read ``1:1 4:2 7:3``; completeness and order are checked by
    ``validate_turn_mode``, not here."""
    out: list[TurnBand] = []
    errors: list[FieldError] = []
    for tok in _tokens(text):
        m = _BAND_TOKEN.fullmatch(tok)
        if m is None:
            errors.append(FieldError(
                "turn_mode",
                f"'{tok}' is not a band (speed:hexes, e.g. 4:2)"))
            continue
        out.append(TurnBand(int(m.group(1)), int(m.group(2))))
    if not out and not errors:
        errors.append(FieldError("turn_mode", "the turn-mode table is empty"))
    return tuple(out), errors
