"""What Textual hands the terminal, read cell by cell (trick ``SCREEN_SHADOW``).

Textual's compositor turns a refresh into a ``CompositorUpdate``
(``textual._compositor``): a ``LayoutUpdate`` (the whole screen, line by line)
or a ``ChopsUpdate`` (fragments of lines: ``chops`` by line and offset, their
``chop_ends``, and the ``spans`` to write). The screen shadow
(``widgets/screen_diff.py``) reads them here to send only the cells that
changed, and reads each Rich ``Style`` as the SGR parameters Textual would
send for it (``Style._attributes``/``_set_attributes``/``_color``/
``_bgcolor``/``_link``, as ``Style._make_ansi_codes`` does, so the bytes are
Textual's own). Nothing here decides anything: it only reads, so the diff
itself lives with the widgets and this file stays small.

Also here, for the tests and benchmarks that look at what a terminal shows:
building updates (``layout_update``, ``chops_update``), the text of a full
repaint of the current screen (``full_repaint``), its text (``screen_lines``),
and a screen's compositor
(``compositor_of``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.color import ColorSystem
from rich.console import Console, ConsoleOptions, RenderResult
from rich.style import Style
from textual._compositor import ChopsUpdate, CompositorUpdate, LayoutUpdate
from textual.geometry import Region, Size
from textual.strip import SGR_STYLES, Strip

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

# A style's SGR parts: attribute codes, foreground codes, background codes, link.
Parts = tuple[str, str, str, str]
# (y, x, strip): a fragment of a line as the update would write it.
Piece = tuple[int, int, Strip]


def is_update(renderable: object) -> bool:
    """Whether ``renderable`` is a compositor update (what the shadow reads)."""
    return isinstance(renderable, CompositorUpdate)


def is_layout_update(update: object) -> bool:
    return isinstance(update, LayoutUpdate)


def is_chops_update(update: object) -> bool:
    return isinstance(update, ChopsUpdate)


def render_whole(update: Any, console: Console) -> str:
    """The terminal bytes Textual writes for ``update`` (before its cursor move)."""
    text: str = update.render_segments(console)
    return text


def chops_pieces(update: Any) -> Iterator[Piece]:
    """Every fragment a ``ChopsUpdate`` writes, cropped to its spans exactly as
    ``ChopsUpdate.render_segments`` crops them."""
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


def chops_screen_size(update: Any) -> tuple[int, int] | None:
    """(width, height) when a ``ChopsUpdate`` covers every cell of a screen of
    that size (Textual's first frames are such), else None."""
    height = len(update.chops)
    ends = [line_ends[-1] if line_ends else 0 for line_ends in update.chop_ends]
    if not height or len(ends) != height or len(set(ends)) != 1 or not ends[0]:
        return None
    width = ends[0]
    covered = {y for y, x1, x2 in update.spans if x1 <= 0 and x2 >= width}
    return (width, height) if len(covered) == height else None


def layout_region(update: Any) -> Region:
    region: Region = update.region
    return region


def layout_lines(update: Any) -> Iterator[tuple[int, Iterable[Strip]]]:
    """(y, strips of that line) of a ``LayoutUpdate``, from its region's top."""
    yield from enumerate(update.strips, update.region.y)


def style_parts(style: Style, system: ColorSystem) -> Parts:
    """The SGR parameters Textual sends for ``style`` (as ``Strip.render``
    does, through ``Style._make_ansi_codes``), split into attributes,
    foreground and background, and the hyperlink."""
    attributes = style._attributes & style._set_attributes
    attrs = ";".join(SGR_STYLES[bit] for bit in range(attributes.bit_length())
                     if attributes & (1 << bit))
    fg = bg = ""
    if style._color is not None:
        fg = ";".join(style._color.downgrade(system).get_ansi_codes())
    if style._bgcolor is not None:
        bg = ";".join(style._bgcolor.downgrade(system).get_ansi_codes(False))
    return attrs, fg, bg, style._link or ""


def color_system(console: Console) -> ColorSystem:
    """The console's colour system (truecolor when it has none)."""
    return console._color_system or ColorSystem.TRUECOLOR


class RenderedUpdate(CompositorUpdate):
    """A compositor update already turned into terminal bytes (by the shadow):
    ``App._display`` writes it, then moves the cursor, as for any update."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        return iter(())

    def render_segments(self, console: Console) -> str:
        return self.text


# ---------------------------------------------------------------- for tests


def layout_update(lines: list[Iterable[Strip]], region: Region) -> Any:
    """A full-region update, as Textual's compositor makes one."""
    return LayoutUpdate(lines, region)


def chops_update(chops: Sequence[Mapping[int, Strip | None]],
                 spans: list[tuple[int, int, int]], chop_ends: list[list[int]]) -> Any:
    """A partial update (fragments of lines), as Textual's compositor makes one."""
    return ChopsUpdate(chops, spans, chop_ends)


def compositor_of(screen: Screen[Any]) -> Any:
    """The screen's compositor (``render_update``, ``size``, ``render_strips``)."""
    return screen._compositor


def compositor_size(screen: Screen[Any]) -> Size:
    size: Size = screen._compositor.size
    return size


def screen_lines(app: App[Any]) -> list[str]:
    """The text the terminal shows now, line by line (with the screens under
    a dialog), read from the compositor. Unlike ``App.export_screenshot``, it
    renders no style: Rich keeps a style's SGR codes for the first colour
    system it is drawn in (``Style._ansi``), so a truecolor screenshot would
    colour every later update of the same styles in this process."""
    from textual._compositor import visible_screen_stack  # type: ignore[attr-defined]

    compositor = app.screen._compositor
    visible_screen_stack.set(app._background_screens)
    return [strip.text for strip in compositor.render_strips()]


def full_repaint(app: App[Any]) -> str:
    """The bytes a full repaint of the current screen writes (with the
    screens under a dialog, as Textual draws them)."""
    from textual._compositor import visible_screen_stack  # type: ignore[attr-defined]

    compositor = app.screen._compositor
    visible_screen_stack.set(app._background_screens)
    strips = compositor.render_strips()
    update = LayoutUpdate([[s] for s in strips], compositor.size.region)
    return update.render_segments(app.console)
