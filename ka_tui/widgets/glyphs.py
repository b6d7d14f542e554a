"""ASCII mode: one switch for every glyph the app draws.

``--ascii`` or ``KA_TUI_ASCII=1`` turn it on (``KA_TUI_ASCII=0`` forces it
off). ``NO_COLOR`` does not: it asks for no colour, not for plain characters,
and Textual already honours it. In ASCII mode the app's terminal driver passes
every frame through ``to_ascii`` (one character for one cell, so layout is
untouched); widgets with a plainer ASCII form of their own (the roller's
histogram, the flight card, the CQC card) also read ``app.ascii_glyphs``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

from rich.cells import cell_len

from ka_tui.textual_compat.app_state import running_app

ENV_VAR = "KA_TUI_ASCII"

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


def ascii_from_env(environ: Mapping[str, str] | None = None) -> bool:
    env = os.environ if environ is None else environ
    return env.get(ENV_VAR, "").strip() not in ("", "0")


def to_ascii(text: str) -> str:
    """``text`` with every non-ASCII character replaced, cell for cell."""
    out = text.translate(_TABLE)
    if out.isascii():
        return out
    return _OTHER.sub(lambda m: "?" * max(1, cell_len(m.group())), out)


def ascii_wanted() -> bool:
    """The running app's switch, or the environment outside an app."""
    app = running_app()
    if app is None:
        return ascii_from_env()
    flag = getattr(app, "ascii_glyphs", None)
    return ascii_from_env() if flag is None else bool(flag)


def ascii_driver(base: type[Any]) -> type[Any]:
    """A subclass of the driver class ``base`` that writes ASCII only."""

    class AsciiDriver(base):  # type: ignore[misc]
        def write(self, data: str) -> None:
            super().write(to_ascii(data))

    AsciiDriver.__name__ = f"Ascii{base.__name__}"
    return AsciiDriver
