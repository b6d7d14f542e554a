"""A small terminal model for the screen-shadow tests.

It reads what the app writes to a terminal and keeps the screen: per cell the
character and the graphic rendition in force (attributes, foreground,
background, hyperlink), as an xterm with line wrap off (Textual turns it off)
would. It understands what Textual and ``widgets/screen_diff.py`` write:
cursor position (CUP), cursor forward (CUF), CR, LF, SGR (each parameter in
turn: 0, attributes on and off, 30-37/90-97/38;5;n/38;2;r;g;b/39 and the
background ones), OSC 8 hyperlinks, wide characters, erase characters (ECH)
and erase to the end of the line (EL) in the current background ("bce"). Private modes and other
OSC strings (Textual's mouse pointer shape) change no cell and are skipped.
Anything else fails the test: the model must not guess.

``resize`` fills the screen with a "garbage" cell, as if the terminal had
drawn anything at all: whatever the app does not redraw afterwards shows. From
then on the model also takes what an app that has not yet heard of the resize
writes for its old size, as a terminal with line wrap off does (a character
past the right edge lands in the last column, a line feed on the last row
scrolls); before, either fails the test.
"""

from __future__ import annotations

import re

from rich.cells import cell_len

Rendition = tuple[frozenset[int], str, str, str]  # attributes, fg, bg, link
Cell = tuple[str, Rendition]
PLAIN: Rendition = (frozenset(), "", "", "")
GARBAGE: Cell = ("\u2591", (frozenset({9}), "31", "43", ""))

TOKEN = re.compile(
    r"\x1b\[(\??)([0-9;]*)([A-Za-z])"   # CSI
    r"|\x1b\](.*?)(?:\x07|\x1b\\)"      # OSC
    r"|(\r)|(\n)"
    r"|(\x1b.?)"                        # any other escape: refused
    r"|([\x00-\x1f])"                   # any other control: refused
    r"|(.)", re.DOTALL)

# SGR codes that turn attributes off, and the attributes they clear.
OFF = {22: {1, 2}, 23: {3}, 24: {4, 21}, 25: {5, 6}, 27: {7}, 28: {8}, 29: {9},
       54: {51, 52}, 55: {53}}
ON = {1, 2, 3, 4, 5, 6, 7, 8, 9, 21, 51, 52, 53}


SHOWN_ON_BLANK = frozenset({4, 7, 9, 21, 51, 52, 53})


def visible(cell: Cell) -> Cell:
    char, (attrs, fg, bg, link) = cell
    if char != " " or link:
        return cell
    shown = attrs & SHOWN_ON_BLANK
    return (char, (shown, fg if shown else "", bg, link))


class Terminal:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells = [[(" ", PLAIN)] * width for _ in range(height)]
        self.y = self.x = 0
        self.attrs: set[int] = set()
        self.fg = self.bg = self.link = ""
        self.strict = True

    def resize(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells = [[GARBAGE] * width for _ in range(height)]
        self.strict = False
        self.y = min(self.y, height - 1)
        self.x = min(self.x, width - 1)

    def visible(self) -> list[list[Cell]]:
        """The cells as they look: a blank cell shows its background only,
        unless an attribute that draws on it (reverse, the lines) is on."""
        return [[visible(cell) for cell in line] for line in self.cells]

    def text(self) -> list[str]:
        return ["".join(c for c, _ in line) for line in self.cells]

    def feed(self, data: str) -> None:
        for match in TOKEN.finditer(data):
            private, params, final, osc, cr, lf, esc, control, char = match.groups()
            if final is not None:
                self._csi(private, params, final)
            elif osc is not None:
                if osc.startswith("8;"):
                    self.link = osc.split(";", 2)[2]
            elif cr is not None:
                self.x = 0
            elif lf is not None:
                if self.y < self.height - 1:
                    self.y += 1
                else:
                    assert not self.strict, "a line feed on the last row scrolls"
                    self.cells = self.cells[1:] + [[(" ", PLAIN)] * self.width]
            elif esc is not None or control is not None:
                raise AssertionError(f"unexpected sequence {match.group()!r}")
            else:
                self._put(char)

    def _put(self, char: str) -> None:
        width = cell_len(char)
        if width == 0:
            assert self.x > 0
            c, r = self.cells[self.y][self.x - 1]
            self.cells[self.y][self.x - 1] = (c + char, r)
            return
        if self.x + width > self.width:
            assert not self.strict, f"written past the right edge: {char!r}"
            self.x = self.width - width  # line wrap off: the last column again
        rendition = (frozenset(self.attrs), self.fg, self.bg, self.link)
        self.cells[self.y][self.x] = (char, rendition)
        if width == 2:
            self.cells[self.y][self.x + 1] = ("", rendition)
        self.x += width

    def _csi(self, private: str, params: str, final: str) -> None:
        if private:
            return  # modes: line wrap, mouse, sync output, ...
        numbers = [int(p) if p else 0 for p in params.split(";")] if params else []
        if final == "H":
            row = numbers[0] if numbers and numbers[0] else 1
            col = numbers[1] if len(numbers) > 1 and numbers[1] else 1
            self.y = min(row, self.height) - 1
            self.x = min(col, self.width) - 1
        elif final == "C":
            step = numbers[0] if numbers and numbers[0] else 1
            self.x = min(self.x + step, self.width - 1)
        elif final == "m":
            self._sgr(numbers or [0])
        elif final in "XK":  # erase characters / to the end of the line, with
            # the current background (a terminal with "bce"), attributes none
            if final == "X":
                stop = min(self.x + (numbers[0] if numbers and numbers[0] else 1), self.width)
            else:
                assert not numbers or numbers == [0], f"unexpected EL {params}"
                stop = self.width
            blank = (" ", (frozenset(), "", self.bg, ""))
            self.cells[self.y][self.x:stop] = [blank] * (stop - self.x)
        else:
            raise AssertionError(f"unexpected CSI {params}{final}")

    def _sgr(self, codes: list[int]) -> None:
        i = 0
        while i < len(codes):
            code = codes[i]
            if code == 0:
                self.attrs.clear()
                self.fg = self.bg = ""
            elif code in ON:
                self.attrs.add(code)
            elif code in OFF:
                self.attrs -= OFF[code]
            elif code in (38, 48):
                n = 3 if codes[i + 1] == 5 else 5
                colour = ";".join(map(str, codes[i:i + n]))
                if code == 38:
                    self.fg = colour
                else:
                    self.bg = colour
                i += n - 1
            elif 30 <= code <= 37 or 90 <= code <= 97:
                self.fg = str(code)
            elif 40 <= code <= 47 or 100 <= code <= 107:
                self.bg = str(code)
            elif code == 39:
                self.fg = ""
            elif code == 49:
                self.bg = ""
            else:
                raise AssertionError(f"unexpected SGR {code}")
            i += 1
