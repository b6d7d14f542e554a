"""Send the terminal only the cells that changed (a thin SSH link).

Textual repaints a widget's whole region when it refreshes, and the whole
screen when a screen is pushed or popped (a dialog opening is two to four
full-screen repaints of the same picture). ``ScreenShadow`` keeps what the
terminal shows (one cell = character and its SGR parameters) and turns every
update, partial (``ChopsUpdate``) or full-screen (``LayoutUpdate``), into only
the runs of cells that differ.

The runs are written compactly: a style is sent only when it changes (not
once per segment with a reset after it; only the attributes and colours that
change when that is shorter), and the cursor jumps over unchanged cells with
the shortest move (``CSI n C`` on the line, ``CR LF`` to the next line, else
``CSI y;x H``) unless re-sending them is shorter. A blank cell (a space with
no reverse, line or hyperlink) shows its background only: it is written in the
style in force when that has the same background, and where terminfo says the
terminal erases in the current background ("bce", as ncurses asks) a stretch
of blanks is erased (``EL`` to the end of the line, ``ECH`` inside it).

The shadow is trusted only while it is known to match the terminal: after
``reset`` (resize, suspend, resume; the app calls it) partial updates are
written whole, as Textual writes them, and the next full-screen update sends
every cell and becomes the new shadow. An update that reaches outside the
shadow's screen (a resize the app has not been told of yet) does the same.
The app writes every update through it (``textual_compat.display``; real
terminals only: Pilot and the snapshots never write to a terminal and are not
affected). It reads Textual's updates and Rich's styles through
``textual_compat.compositor``; ``KA_TUI_TRICKS_OFF=screen-shadow`` (or
``KA_TUI_FULL_REPAINT=1``) turns it off, to tell a drawing fault of the
shadow from one of a widget.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any

from rich.cells import cell_len
from rich.color import ColorSystem
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from ka_tui.textual_compat.compositor import (
    Parts,
    chops_pieces,
    chops_screen_size,
    color_system,
    is_chops_update,
    is_layout_update,
    layout_lines,
    layout_region,
    render_whole,
    style_parts,
)

# A cell: its character ("" for the second half of a wide one) and its style
# key: the SGR parameters Textual would send for it ("" = none), with
# "\0" + URL appended for a hyperlink.
Cell = tuple[str, str]
# A style key's ``Parts``: attribute codes, foreground codes, background codes, link.

_RESET = "\x1b[0m"
# Unchanged cells between two changed runs of a line are re-sent when that is
# shorter than moving the cursor over them: never worth it past this many.
_GAP_MAX = 32
_LINK_END = "\x1b]8;;\x1b\\"
# SGR attributes that show on a blank cell (reverse, the lines): such a blank
# is sent as spaces, never erased (an erased cell takes the background only).
_SHOWN_ON_BLANK = {"4", "7", "9", "21", "51", "52", "53"}


class _Styles:
    """Style -> key, and key -> parts, as Textual renders them (Strip.render)."""

    def __init__(self) -> None:
        self.keys: dict[tuple[Style, ColorSystem], str] = {}
        self.parts: dict[str, Parts] = {"": ("", "", "", "")}

    def key(self, style: Style | None, system: ColorSystem) -> str:
        if style is None:
            return ""
        cached = self.keys.get((style, system))
        if cached is not None:
            return cached
        if len(self.keys) > 8192:  # styles carry meta (mouse offsets): bound it
            self.keys.clear()
        attrs, fg, bg, link = style_parts(style, system)
        key = ";".join(p for p in (attrs, fg, bg) if p)
        if link:
            key += "\0" + link
        self.keys[(style, system)] = key
        self.parts.setdefault(key, (attrs, fg, bg, link))
        return key


def _cells(strip: Iterable[Segment], styles: _Styles, system: ColorSystem) -> list[Cell]:
    """One entry per terminal cell; a wide character's second cell is ``""``."""
    cells: list[Cell] = []
    append = cells.append
    for text, style, control in strip:
        if control:
            continue
        key = styles.key(style, system)
        if text.isascii() and text.isprintable():
            cells.extend([(char, key) for char in text])
            continue
        for char in text:
            width = cell_len(char)
            if width == 0:
                if cells:
                    cells[-1] = (cells[-1][0] + char, cells[-1][1])
                continue
            append((char, key))
            if width == 2:
                append(("", key))
    return cells


def background_erase(term: str | None = None) -> bool:
    """Whether the terminal (``$TERM``) erases in the current background
    colour (terminfo's "bce" flag), as ncurses asks before it erases."""
    term = os.environ.get("TERM", "") if term is None else term
    if not term:
        return False
    try:
        import curses  # here: not on Windows, and only a real terminal asks
    except ImportError:
        return False
    fd = os.open(os.devnull, os.O_WRONLY)  # not the app's terminal: no side effect
    try:
        curses.setupterm(term, fd)  # Python reads terminfo once per process
        return bool(curses.tigetflag("bce") == 1)
    except curses.error:  # an unknown terminal: spaces, as before
        return False
    finally:
        os.close(fd)


class ScreenShadow:
    """What the terminal shows, to send only what changed."""

    def __init__(self, erase: bool | None = None) -> None:
        self.lines: list[list[Cell | None]] = []
        self.width = self.height = 0
        self.trusted = False  # the lines are what the terminal shows
        # Blank runs may be erased (ECH, EL) rather than sent as spaces: only
        # for a terminal that erases in the current background ("bce"; None:
        # ask terminfo on the first update).
        self.erase = erase
        self._styles = _Styles()
        # cells of a strip by its terminal text (Textual keeps a widget's strips
        # and their text between repaints: a full repaint reuses most of them)
        self._strip_cells: dict[str, list[Cell]] = {}

    def reset(self) -> None:
        """Forget the terminal's content: the next full-screen update sends
        every cell (call it when something else may have drawn on it)."""
        self.trusted = False
        self.lines = []
        self.width = self.height = 0

    def render(self, update: Any, console: Console) -> str:
        """The terminal bytes for ``update``, a Textual compositor update
        (before Textual's cursor move)."""
        system = color_system(console)
        if self.erase is None:
            self.erase = background_erase()
        if is_layout_update(update):
            return self._render_layout(update, console, system)
        chops = is_chops_update(update)
        if chops and not self.trusted:
            self._take_size_of(update)
        if chops and self.trusted:
            pieces = list(chops_pieces(update))
            if all(y < self.height and x + strip.cell_length <= self.width
                   for y, x, strip in pieces):
                return self._render_pieces(pieces, console, system)
        self.reset()  # something the shadow cannot follow: written whole
        return render_whole(update, console)

    def _take_size_of(self, update: Any) -> None:
        """A partial update that covers every cell of the screen (Textual's
        first frames are such) starts the shadow as a full one would, so the
        frames after it are diffed instead of written whole."""
        size = chops_screen_size(update)
        if size is None:
            return
        self.width, self.height = size
        self.lines = [[None] * self.width for _ in range(self.height)]
        self.trusted = True

    def _render_layout(self, update: Any, console: Console, system: ColorSystem) -> str:
        region = layout_region(update)
        if region.x or region.y:  # not a full-screen update: never seen; written whole
            self.reset()
            return _whole(update, system, self._styles)
        if (not self.trusted or region.width != self.width
                or region.height != self.height):
            self.width, self.height = region.width, region.height
            self.lines = [[None] * self.width for _ in range(self.height)]
            self.trusted = True
        pieces: list[tuple[int, int, Strip]] = []
        for y, line in layout_lines(update):  # the region's top is 0 here
            x = 0
            for strip in line:
                pieces.append((y, x, strip))
                x += strip.cell_length
        return self._render_pieces(pieces, console, system)

    def _strip_cells_of(self, strip: Strip, console: Console, system: ColorSystem
                        ) -> list[Cell]:
        text = strip.render(console)
        cells = self._strip_cells.get(text)
        if cells is None:
            cells = _cells(strip, self._styles, system)
            if len(self._strip_cells) > 1024:
                self._strip_cells.clear()
            if not any(segment.control for segment in strip):
                self._strip_cells[text] = cells
        return cells

    def _render_pieces(self, pieces: list[tuple[int, int, Strip]], console: Console,
                       system: ColorSystem) -> str:
        # the new content of each line, then one pass per changed line
        changed: dict[int, list[tuple[int, list[Cell]]]] = {}
        for y, x, strip in pieces:
            changed.setdefault(y, []).append((x, self._strip_cells_of(strip, console, system)))
        writer = _Writer(self._styles.parts, self.height, bool(self.erase))
        for y in sorted(changed):
            line = self.lines[y]
            new = line[:]
            for x, cells in changed[y]:
                new[x:x + len(cells)] = cells
            del new[self.width:]
            if new == line:
                continue
            runs = list(_changed_runs(new, line))
            if runs:
                writer.line(y, new, runs)
            self.lines[y] = new
        return writer.finish()


def _changed_runs(new: list[Cell | None], old: list[Cell | None]) -> Iterator[tuple[int, int]]:
    """Maximal runs ``[start, stop)`` where ``new`` differs from ``old`` (a
    cell no update drew is left alone), never starting or ending inside a wide
    character."""
    start = -1
    for i, (a, b) in enumerate(zip(new, old)):
        if a is not None and a != b:
            if start < 0:
                start = i
        elif start >= 0:
            yield _whole_chars(new, start, i)
            start = -1
    if start >= 0:
        yield _whole_chars(new, start, len(new))


def _whole_chars(cells: list[Cell | None], start: int, stop: int) -> tuple[int, int]:
    while start > 0 and (cell := cells[start]) is not None and cell[0] == "":
        start -= 1
    while stop < len(cells) and (cell := cells[stop]) is not None and cell[0] == "":
        stop += 1
    return start, stop


# The SGR code that turns an attribute off, and what that code turns off.
_OFF = {"1": "22", "2": "22", "3": "23", "4": "24", "21": "24", "5": "25", "6": "25",
        "7": "27", "8": "28", "9": "29", "51": "54", "52": "54", "53": "55"}
_CLEARS = {off: {a for a, o in _OFF.items() if o == off} for off in set(_OFF.values())}


@lru_cache(maxsize=4096)
def _sgr(old: Parts, new: Parts) -> str:
    """The shortest SGR sequence that turns style ``old`` into ``new``: a
    reset and the whole style, or only what changes (attributes off and on,
    colours)."""
    if old[:3] == new[:3]:
        return ""
    attrs, fg, bg, _ = new
    full = ";".join(p for p in (attrs, fg, bg) if p)
    if not full:
        return _RESET
    whole = f"\x1b[{full}m" if old[:3] == ("", "", "") else f"\x1b[0;{full}m"
    had = set(old[0].split(";")) - {""}
    has = set(attrs.split(";")) - {""}
    offs = {_OFF[a] for a in had - has}
    cleared = set().union(*(_CLEARS[off] for off in offs)) if offs else set()
    on = (has - had) | (has & cleared)
    codes = sorted(offs, key=int) + sorted(on, key=int)
    if old[1] != fg:
        codes.append(fg or "39")
    if old[2] != bg:
        codes.append(bg or "49")
    step = f"\x1b[{';'.join(codes)}m"
    return step if len(step) < len(whole) else whole


class _Writer:
    """Terminal bytes for runs of cells, tracking the cursor and the style.

    A blank cell (a space, no hyperlink, no attribute that draws on a blank:
    reverse, the lines) looks like its background alone: it is written in
    whatever style is in force when that has its background and draws nothing
    on a blank either, and a run of such blanks may be erased (``erase``)."""

    def __init__(self, parts: dict[str, Parts], height: int, erase: bool) -> None:
        self.parts = parts
        self.height = height
        self.erase = erase
        self.out: list[str] = []
        self.style: Parts = ("", "", "", "")  # Textual leaves the terminal reset
        self.y = self.x = -1  # cursor unknown

    def _move(self, y: int, x: int) -> str:
        if y == self.y and x == self.x:
            return ""
        if y == self.y and x > self.x >= 0:
            step = x - self.x
            return "\x1b[C" if step == 1 else f"\x1b[{step}C"
        if x == 0 and y == self.y + 1 and self.y >= 0 and y < self.height:
            return "\r\n"
        return f"\x1b[{y + 1}H" if x == 0 else f"\x1b[{y + 1};{x + 1}H"

    def _switch(self, old: Parts, new: Parts) -> str:
        """The bytes that turn style ``old`` (hyperlink included) into ``new``."""
        if old == new:
            return ""
        link = ""
        if old[3] != new[3]:
            link = _LINK_END if old[3] else ""
            if new[3]:
                link += f"\x1b]8;id={abs(hash(new[3]))};{new[3]}\x1b\\"
        return link + _sgr(old, new)

    def _blank_bg(self, cell: Cell | None) -> str | None:
        """The background of a blank cell (its whole look), else None."""
        if cell is None or cell[0] != " ":
            return None
        return _blank_bg(self.parts[cell[1]])

    def _text(self, cells: list[Cell | None], start: int, stop: int,
              style: Parts) -> tuple[str, Parts]:
        """The bytes for cells ``[start, stop)`` from ``style``, and the style
        they end in."""
        out: list[str] = []
        parts = self.parts
        key = None
        new = style
        for i in range(start, stop):
            cell = cells[i]
            assert cell is not None
            char, cell_key = cell
            if cell_key != key:
                key = cell_key
                new = parts[key]
            if new != style:
                if char == " " and (bg := _blank_bg(new)) is not None and bg == _blank_bg(style):
                    out.append(" ")  # looks the same in the style in force
                    continue
                out.append(self._switch(style, new))
                style = new
            out.append(char)  # "" for a wide character's second cell
        return "".join(out), style

    def line(self, y: int, cells: list[Cell | None], runs: list[tuple[int, int]]) -> None:
        """Write the changed ``runs`` of line ``y``; a gap between two runs is
        re-sent when that is shorter than moving over it."""
        if self.erase:
            runs = self._over_blanks(cells, runs)
        for n, (start, stop) in enumerate(runs):
            if (n and self.y == y and start - self.x <= _GAP_MAX
                    and None not in cells[self.x:start]):
                gap, gap_style = self._text(cells, self.x, start, self.style)
                first = cells[start]
                assert first is not None
                first_style = self.parts[first[1]]
                if (len(gap) + len(self._switch(gap_style, first_style))
                        <= len(self._move(y, start)) + len(self._switch(self.style, first_style))):
                    self.out.append(gap)
                    self.style = gap_style
                    self.x = start
            pos = start
            for blank_start, blank_stop in (self._blanks(cells, start, stop) if self.erase
                                            else ()):
                if blank_start > pos:
                    self._write(y, cells, pos, blank_start)
                self._erase(y, cells, blank_start, blank_stop)
                pos = blank_stop
            if pos < stop:
                self._write(y, cells, pos, stop)

    def _write(self, y: int, cells: list[Cell | None], start: int, stop: int) -> None:
        self.out.append(self._move(y, start))
        text, self.style = self._text(cells, start, stop, self.style)
        self.out.append(text)
        self.y, self.x = y, stop

    @staticmethod
    def _worth_erasing(start: int, stop: int, width: int) -> bool:
        n = stop - start
        return n > (3 if stop == width else len(f"\x1b[{n}X\x1b[{n}C"))

    def _over_blanks(self, cells: list[Cell | None], runs: list[tuple[int, int]]
                     ) -> list[tuple[int, int]]:
        """The runs, each widened over the unchanged blanks it starts or ends
        in when the whole stretch is worth erasing (an unchanged blank erased
        looks the same), then joined where they meet."""
        width = len(cells)
        wide: list[tuple[int, int]] = []
        for start, stop in runs:
            bg = self._blank_bg(cells[start])
            if bg is not None:
                a = start
                while a > 0 and self._blank_bg(cells[a - 1]) == bg:
                    a -= 1
                b = start + 1
                while b < width and self._blank_bg(cells[b]) == bg:
                    b += 1
                if a < start and self._worth_erasing(a, b, width):
                    start = a
            bg = self._blank_bg(cells[stop - 1])
            if bg is not None:
                b = stop
                while b < width and self._blank_bg(cells[b]) == bg:
                    b += 1
                a = stop - 1
                while a > 0 and self._blank_bg(cells[a - 1]) == bg:
                    a -= 1
                if b > stop and self._worth_erasing(a, b, width):
                    stop = b
            if wide and start <= wide[-1][1]:
                wide[-1] = (min(start, wide[-1][0]), max(stop, wide[-1][1]))
            else:
                wide.append((start, stop))
        return wide

    def _blanks(self, cells: list[Cell | None], start: int, stop: int
                ) -> Iterator[tuple[int, int]]:
        """Stretches of blanks of one background in ``[start, stop)`` worth
        erasing rather than sending."""
        i = start
        while i < stop:
            bg = self._blank_bg(cells[i])
            if bg is None:
                i += 1
                continue
            j = i + 1
            while j < stop and self._blank_bg(cells[j]) == bg:
                j += 1
            if self._worth_erasing(i, j, len(cells)):
                yield i, j
            i = j

    def _erase(self, y: int, cells: list[Cell | None], start: int, stop: int) -> None:
        """Erase ``[start, stop)`` in the blanks' background: EL to the end of
        the line, else ECH; the cursor stays at ``start``."""
        cell = cells[start]
        assert cell is not None
        self.out.append(self._move(y, start))
        new = self.parts[cell[1]]
        if _blank_bg(self.style) != _blank_bg(new):
            self.out.append(self._switch(self.style, new))
            self.style = new
        n = stop - start
        self.out.append("\x1b[K" if stop == len(cells) else f"\x1b[{n}X")
        self.y, self.x = y, start

    def finish(self) -> str:
        if self.style[3]:
            self.out.append(_LINK_END)
        if self.style[:3] != ("", "", ""):
            self.out.append(_RESET)
        return "".join(self.out)


_blank_bgs: dict[Parts, str | None] = {}


def _blank_bg(style: Parts) -> str | None:
    """The background a blank shows in ``style``; None when the style draws
    on a blank too (a hyperlink, reverse, the lines)."""
    bg = _blank_bgs.get(style, "?")
    if bg == "?":
        attrs, _, background, link = style
        shown = link or set(attrs.split(";")) & _SHOWN_ON_BLANK
        bg = _blank_bgs[style] = None if shown else background
    return bg


def _whole(update: Any, system: ColorSystem, styles: _Styles) -> str:
    """Every cell of ``update``, not recorded (a region the shadow does not keep)."""
    writer = _Writer(styles.parts, 1 << 30, erase=False)
    region = layout_region(update)
    for y, line in layout_lines(update):
        cells: list[Cell | None] = [None] * region.x
        for strip in line:
            cells.extend(_cells(strip, styles, system))
        writer.line(y, cells, [(region.x, len(cells))])
    return writer.finish()
