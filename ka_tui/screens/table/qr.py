"""A QR code of a player's link, drawn with text (segno makes the code).

Two rows of modules per line of text, in half blocks, so a link's code
(version 3 or 4 with a quiet zone of 2: 33 to 37 modules) fits 19 lines of
an 80x24 terminal. A phone reads dark modules on a light ground, so the
lines are drawn black on white; without colour (``NO_COLOR``) the light
modules are the drawn ones instead, right on a dark terminal.
"""

from __future__ import annotations

import segno

QUIET_ZONE = 2
_HALVES = {(False, False): " ", (True, False): "\u2580", (False, True): "\u2584",
           (True, True): "\u2588"}


def qr_payload(url: str) -> str:
    """What the code holds: the link with its scheme and host in capitals
    (both are case-blind), so a link whose path is capitals and digits too
    (``/P/TOKEN``) fits QR's alphanumeric mode: version 3, 17 lines, where
    the same link in small letters needs version 4 and 19."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    host, slash, path = rest.partition("/")
    return f"{scheme.upper()}://{host.upper()}{slash}{path}"


def qr_rows(text: str) -> list[list[bool]]:
    """The code's modules (True = dark), quiet zone included."""
    code = segno.make(qr_payload(text), error="l", micro=False)
    return [[bool(m) for m in row] for row in code.matrix_iter(scale=1, border=QUIET_ZONE)]


def qr_lines(text: str, *, dark_drawn: bool = True) -> list[str]:
    """The code as lines of half blocks: ``dark_drawn`` draws the dark modules
    (for black on white), else the light ones (for a plain dark terminal)."""
    rows = qr_rows(text)
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        lines.append("".join(_HALVES[(t == dark_drawn, b == dark_drawn)]
                             for t, b in zip(top, bottom, strict=True)))
    return lines


def qr_for_terminal(text: str, *, colour: bool = True) -> str:
    """The code for printing on a terminal (``ka-tui players link``)."""
    if not colour:
        return "\n".join(qr_lines(text, dark_drawn=False))
    return "\n".join(f"\x1b[30;107m{line}\x1b[0m" for line in qr_lines(text))
