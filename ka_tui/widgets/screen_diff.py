"""Send the terminal only the cells that changed (issue 13: a thin SSH link).

Textual repaints a widget's whole region when it refreshes: a cursor move in
a table rewrites every row of it, a detail pane drawn twice in one key is sent
twice. ``ScreenShadow`` keeps what the terminal shows (one cell = character
and style) and turns each partial update (``ChopsUpdate``) into only the runs
of cells that differ, each run one cursor move and its text.

A full-screen update (``LayoutUpdate``: start, resume, resize, a new screen)
is always sent whole and becomes the new shadow, so anything else that drew on
the terminal (a suspended shell, a resize) is repainted in full as before.
The app uses it in ``KaApp._display`` (real terminals only: Pilot and the
snapshots never write to a terminal and are not affected).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual._compositor import ChopsUpdate, CompositorUpdate, LayoutUpdate
from textual.strip import Strip

Cell = tuple[str, Style | None]
# A run of cells shorter than this gap between two changes is sent rather than
# skipped: a cursor move costs about as much as a few cells.
_GAP = 6


def _cells(strip: Iterable[Segment]) -> list[Cell]:
    """One entry per terminal cell; a wide character's second cell is ``""``."""
    cells: list[Cell] = []
    for segment in strip:
        if segment.control:
            continue
        style = segment.style
        for char in segment.text:
            width = cell_len(char)
            if width == 0:
                if cells:
                    cells[-1] = (cells[-1][0] + char, cells[-1][1])
                continue
            cells.append((char, style))
            if width == 2:
                cells.append(("", style))
    return cells


def _pieces(update: ChopsUpdate) -> Iterator[tuple[int, int, Strip]]:
    """(y, x, strip) for every fragment a ``ChopsUpdate`` would write, cropped to
    its spans exactly as ``ChopsUpdate.render_segments`` crops them."""
    for y, x1, x2 in update.spans:
        line = update.chops[y]
        for end, (x, strip) in zip(update.chop_ends[y], line.items()):
            if strip is None or x > x2 or end <= x1:
                continue
            start, stop = max(x, x1), min(end, x2)
            if start >= stop:
                continue
            if start == x and stop == end:
                yield y, x, strip
            else:
                yield y, start, strip.crop(start - x, stop - x)


class ScreenShadow:
    """What the terminal shows, to send only what changed."""

    def __init__(self) -> None:
        self.lines: dict[int, list[Cell | None]] = {}
        self.width = 0

    def reset(self) -> None:
        self.lines.clear()

    def render(self, update: CompositorUpdate, console: Console) -> str:
        """The terminal bytes for ``update`` (before Textual's cursor move)."""
        if isinstance(update, ChopsUpdate):
            return self._render_chops(update, console)
        text = update.render_segments(console)
        if isinstance(update, LayoutUpdate):
            self._record_layout(update)
        else:
            self.reset()
        return text

    def _line(self, y: int) -> list[Cell | None]:
        line = self.lines.get(y)
        if line is None:
            line = self.lines[y] = [None] * self.width
        return line

    def _record_layout(self, update: LayoutUpdate) -> None:
        region = update.region
        if region.x == 0 and region.y == 0 and region.width != self.width:
            self.width = region.width
            self.lines.clear()
        for y, line in enumerate(update.strips, region.y):
            x = region.x
            for strip in line:
                cells = _cells(strip)
                self._store(y, x, cells)
                x += len(cells)

    def _store(self, y: int, x: int, cells: list[Cell]) -> None:
        line = self._line(y)
        if x + len(cells) > len(line):
            line.extend([None] * (x + len(cells) - len(line)))
        line[x:x + len(cells)] = cells

    def _render_chops(self, update: ChopsUpdate, console: Console) -> str:
        out: list[str] = []
        for y, x, strip in _pieces(update):
            cells = _cells(strip)
            line = self._line(y)
            if x + len(cells) > len(line):
                line.extend([None] * (x + len(cells) - len(line)))
            for start, stop in _changed_runs(cells, line[x:x + len(cells)]):
                out.append(f"\x1b[{y + 1};{x + start + 1}H")
                out.append(_render_cells(cells[start:stop], console))
            line[x:x + len(cells)] = cells
        return "".join(out)


def _changed_runs(new: list[Cell], old: list[Cell | None]) -> Iterator[tuple[int, int]]:
    """Runs ``[start, stop)`` of ``new`` that differ from ``old``, joined across
    gaps shorter than ``_GAP``; never starting or ending inside a wide character."""
    run_start = run_stop = -1
    for i, cell in enumerate(new):
        if old[i] == cell:
            continue
        if run_start < 0:
            run_start = i
        elif i - run_stop >= _GAP:
            yield _whole(new, run_start, run_stop)
            run_start = i
        run_stop = i + 1
    if run_start >= 0:
        yield _whole(new, run_start, run_stop)


def _whole(cells: list[Cell], start: int, stop: int) -> tuple[int, int]:
    while start > 0 and cells[start][0] == "":
        start -= 1
    while stop < len(cells) and cells[stop][0] == "":
        stop += 1
    return start, stop


def _render_cells(cells: list[Cell], console: Console) -> str:
    segments: list[Segment] = []
    text: list[str] = []
    style: Style | None = None
    for char, cell_style in cells:
        if cell_style != style and text:
            segments.append(Segment("".join(text), style))
            text = []
        style = cell_style
        text.append(char)
    if text:
        segments.append(Segment("".join(text), style))
    return Strip(segments).render(console)
