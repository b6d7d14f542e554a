"""ASCII mode: one switch for every glyph the app draws.

``--ascii`` or ``KA_TUI_ASCII=1`` turn it on (the command line reads both and
passes the app ``ascii_glyphs``). ``NO_COLOR`` does not: it asks for no colour, not for plain characters,
and Textual already honours it. In ASCII mode the app's terminal driver passes
every frame through ``to_ascii`` (one character for one cell, so layout is
untouched); widgets with a plainer ASCII form of their own (the roller's
histogram, the flight card, the CQC card) also read ``app.ascii_glyphs``.
"""

from __future__ import annotations

import re
from typing import Any

from rich.cells import cell_len

from ka_tui.textual_compat.app_state import running_app

# Width-1 glyphs to one ASCII character each (box drawing, blocks, arrows, marks).
_MAP: dict[str, str] = {}
for chars, plain in (
    ("─━┄┅┈┉╌╍═╶╴╺╸▁▔", "-"),
    ("│┃┆┇┊┋╎╏║╵╷╹╻▏▕▎▍▌▐", "|"),
    ("┌┍┎┏┐┑┒┓└┕┖┗┘┙┚┛├┝┞┟┠┡┢┣┤┥┦┧┨┩┪┫┬┭┮┯┰┱┲┳┴┵┶┷┸┹┺┻┼┽┾┿╀╁╂╃╄╅╆╇╈╉╊╋"
     "╒╓╔╕╖╗╘╙╚╛╜╝╞╟╠╡╢╣╤╥╦╧╨╩╪╫╬╭╮╯╰", "+"),
    ("█▉▊▋▇▆▅▄▃▂▀▓▒░■", "#"),
    ("·•∙◦●○", "."), ("…", "~"), ("–—―‐", "-"),
    ("→▶▸►❯›»", ">"), ("←◀◂◄❮‹«", "<"), ("↑▲▴", "^"), ("↓▼▾", "v"),
    ("✓✔", "+"), ("✗✘×", "x"), ("≤", "<"), ("≥", ">"), ("±", "+"),
    ("□", "-"), ("↖", "\\"), ("↗", "/"), ("↰", "<"), ("↱", ">"),
    ("“”„″", '"'), ("‘’‚′", "'"), ("°", "o"), ("\u00a0", " "),
):
    for ch in chars:
        _MAP[ch] = plain
_TABLE = str.maketrans(_MAP)
_OTHER = re.compile(r"[^\x00-\x7f]")


def to_ascii(text: str) -> str:
    """``text`` with every non-ASCII character replaced, cell for cell."""
    out = text.translate(_TABLE)
    if out.isascii():
        return out
    return _OTHER.sub(lambda m: "?" * max(1, cell_len(m.group())), out)


def ascii_wanted() -> bool:
    """The running app's switch (off outside an app)."""
    return bool(getattr(running_app(), "ascii_glyphs", False))


def ascii_driver(base: type[Any]) -> type[Any]:
    """A subclass of the driver class ``base`` that writes ASCII only."""

    class AsciiDriver(base):  # type: ignore[misc]
        def write(self, data: str) -> None:
            super().write(to_ascii(data))

    AsciiDriver.__name__ = f"Ascii{base.__name__}"
    return AsciiDriver
