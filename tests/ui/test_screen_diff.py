"""The screen shadow (widgets/screen_diff.py): sending only the cells
that changed must leave the terminal exactly as sending every update whole.

A small terminal model (tests/ui/vt_model.py) reads both byte streams and the
two screens are compared cell by cell after every update, as they look (a
blank cell shows its background only, unless reverse or a line is on).
"""

from __future__ import annotations

import io
import subprocess
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region
from textual.strip import Strip

from ka_tui.textual_compat.compositor import chops_update, layout_update
from ka_tui.widgets.screen_diff import ScreenShadow
from tests.ui.vt_model import Terminal

W, H = 16, 4
STYLES = (None, Style(color="red"), Style(bgcolor="blue", bold=True),
          Style(color="red", bgcolor="blue", bold=True), Style(color="color(214)",
          bgcolor="color(17)"), Style(color="#ff8800", bgcolor="color(17)"),
          Style(italic=True, underline=True), Style(bold=True, reverse=True,
          color="color(224)", bgcolor="color(131)"), Style(color="red", link="https://x.y"),
          Style(dim=True, color="green"), Style(bold=True, dim=True, strike=True),
          Style(bgcolor="blue", blink=True, overline=True),
          Style(bold=True, dim=True, color="color(100)", bgcolor="color(17)"),
          Style(dim=True, color="color(100)", bgcolor="color(17)"))


def console() -> Console:
    return Console(file=io.StringIO(), color_system="truecolor", force_terminal=True,
                   width=W, legacy_windows=False)


Frame = list[list[tuple[str, int]]]


def strip_of(cells: list[tuple[str, int]]) -> Strip:
    return Strip([Segment(char, STYLES[style]) for char, style in cells])


def layout(frame: Frame, cuts: list[list[int]] | None = None) -> Any:
    """A full-screen update; each line in strips split at ``cuts``."""
    lines = []
    for y, line in enumerate(frame):
        points = sorted({0, W, *(cuts[y] if cuts else [])})
        lines.append([strip_of(line[a:b]) for a, b in pairwise(points)])
    return layout_update(lines, Region(0, 0, W, H))


def chops(frame: Frame, cuts: list[list[int]], spans: list[tuple[int, int, int]]) -> Any:
    lines, ends = [], []
    for y, line in enumerate(frame):
        points = sorted({0, W, *cuts[y]})
        lines.append({a: strip_of(line[a:b]) for a, b in pairwise(points)})
        ends.append(points[1:])
    return chops_update(lines, spans, ends)


def _line(runs: list[tuple[str, int, int]]) -> list[tuple[str, int]]:
    cells = [(char, style) for char, style, n in runs for _ in range(n)]
    return (cells + [(" ", 0)] * W)[:W]


# lines made of runs of one cell: long blank runs (erasable) are common
run = st.tuples(st.sampled_from("ab -xé  "), st.integers(0, len(STYLES) - 1),
                st.integers(1, 12))
frames = st.lists(st.lists(run, min_size=1, max_size=6).map(_line), min_size=H, max_size=H)
cut_lists = st.lists(st.lists(st.integers(1, W - 1), max_size=3), min_size=H, max_size=H)
span = st.tuples(st.integers(0, H - 1), st.integers(0, W - 1), st.integers(1, W)).filter(
    lambda s: s[1] < s[2])


Update = tuple[str, Frame, list[list[int]], list[tuple[int, int, int]]]


def check(first: Frame, updates: list[Update], erase: bool = False) -> int:
    """Feed both terminals; assert they agree after each update; the bytes saved.

    An update is a partial one ("chops": only the spans change), a full-screen
    one ("layout": a new screen, a dialog opening) or "reset" (the app resets
    the shadow, then a partial update); with ``erase`` blank runs may be
    erased. The screens must look the same: a blank shows its background
    only (unless reverse or a line is on), so the shadow may write it in the
    style in force or erase it."""
    out = console()
    whole, shadowed, shadow = Terminal(W, H), Terminal(W, H), ScreenShadow(erase)

    def same() -> bool:
        return shadowed.visible() == whole.visible()

    start = layout(first)
    whole.feed(start.render_segments(out))
    shadowed.feed(shadow.render(start, out))
    assert same()
    saved = 0
    screen = first
    for kind, wanted, cuts, spans in updates:
        update: Any
        if kind == "layout":
            screen = wanted
            update = layout(wanted, cuts)
        else:
            if kind == "reset":
                shadow.reset()
            # Textual's chops hold the line as it is; only the spans changed since
            # the last update (it may write a cell past a span: the same content).
            frame = [line[:] for line in screen]
            for y, x1, x2 in spans:
                frame[y][x1:x2] = wanted[y][x1:x2]
            screen = frame
            update = chops(frame, cuts, sorted(set(spans)))
        full, small = update.render_segments(out), shadow.render(update, out)
        whole.feed(full)
        shadowed.feed(small)
        assert same()
        saved += len(full) - len(small)
    return saved


@settings(max_examples=120, deadline=None)
@given(frames, st.lists(st.tuples(st.sampled_from(["chops", "chops", "layout", "reset"]),
                                  frames, cut_lists, st.lists(span, min_size=1, max_size=6)),
                        min_size=1, max_size=5), st.booleans())
def test_the_shadowed_stream_draws_the_same_screen(first: Frame, updates: list[Update],
                                                   erase: bool) -> None:
    check(first, updates, erase)


def test_an_unchanged_repaint_sends_nothing_and_a_one_cell_change_one_cell() -> None:
    frame = [[("a", 0)] * W for _ in range(H)]
    whole_rows = [(y, 0, W) for y in range(H)]
    out, shadow = console(), ScreenShadow(False)
    shadow.render(layout(frame), out)
    assert shadow.render(chops(frame, [[]] * H, whole_rows), out) == ""
    changed = [line[:] for line in frame]
    changed[2][5] = ("b", 0)
    sent = shadow.render(chops(changed, [[4]] * H, whole_rows), out)
    assert sent.startswith("\x1b[3;6H") and sent.count("b") == 1 and "a" not in sent
    assert check(frame, [("chops", frame, [[]] * H, whole_rows),
                         ("chops", changed, [[]] * H, whole_rows)]) > 0


def test_wide_characters_are_sent_whole() -> None:
    out, shadow, whole, shadowed = console(), ScreenShadow(False), Terminal(W, H), Terminal(W, H)
    base = [[("a", 0)] * W for _ in range(H)]
    start = layout(base)
    whole.feed(start.render_segments(out))
    shadowed.feed(shadow.render(start, out))
    line = [Segment("ab"), Segment("漢", STYLES[1]), Segment("a" * (W - 4))]
    update = chops_update([{0: Strip(line)}] + [{0: strip_of(base[y])} for y in range(1, H)],
                         [(0, 0, W)], [[W]] * H)
    whole.feed(update.render_segments(out))
    sent = shadow.render(update, out)
    shadowed.feed(sent)
    assert shadowed.cells == whole.cells and "漢" in sent


def test_a_reset_sends_everything_again() -> None:
    frame = [[("a", 1)] * W for _ in range(H)]
    rows = [(y, 0, W) for y in range(H)]
    out, shadow = console(), ScreenShadow(False)
    shadow.render(layout(frame), out)
    shadow.reset()  # the app calls it on resize, suspend and resume
    assert shadow.render(chops(frame, [[]] * H, rows), out).count("a") == W * H


def test_a_partial_update_covering_the_whole_screen_starts_the_shadow() -> None:
    """Textual's first frames come as partial updates that cover every cell:
    the first is written whole (every cell, on the right lines), the same
    frame again sends nothing; one that leaves a line out starts nothing."""
    frame = [[("a", 1)] * W for _ in range(H)]
    rows = [(y, 0, W) for y in range(H)]
    out, shadow = console(), ScreenShadow(False)
    first = chops(frame, [[]] * H, rows)
    whole, shadowed = Terminal(W, H), Terminal(W, H)
    whole.feed(first.render_segments(out))
    sent = shadow.render(first, out)
    shadowed.feed(sent)
    assert shadow.trusted and sent.count("a") == W * H
    assert shadowed.visible() == whole.visible()
    assert shadow.render(chops(frame, [[]] * H, rows), out) == ""
    shadow.reset()
    assert shadow.render(chops(frame, [[]] * H, rows[1:]), out).count("a") == W * (H - 1)
    assert not shadow.trusted


def test_blank_runs_are_erased_in_their_background_when_the_terminal_can() -> None:
    """bce terminals: a blank run to the end of a line is one EL, a long one
    inside a line one ECH (the cells after it kept); a reverse blank is sent."""
    first = [_line([("a", 1, 14), ("y", 1, 1), ("z", 1, 1)]) for _ in range(H)]
    second = [_line([(" ", 4, W)]),
              _line([("a", 1, 2), (" ", 4, 12), ("c", 4, 2)]),
              _line([(" ", 7, W)]),
              _line([("x", 1, 1), (" ", 4, 13), ("y", 1, 1), ("z", 1, 1)])]
    rows = [(y, 0, W) for y in range(H)]
    sizes = {}
    for erase in (False, True):
        for kind in ("chops", "layout"):
            out, shadow = console(), ScreenShadow(erase)
            shadow.render(layout(first), out)
            update = layout(second) if kind == "layout" else chops(second, [[]] * H, rows)
            sent = shadow.render(update, out)
            sizes[erase, kind] = len(sent)
            assert ("\x1b[K" in sent and "\x1b[12X" in sent and "\x1b[13X" in sent) is erase
            assert check(first, [(kind, second, [[]] * H, rows)], erase) > 0
    assert sizes[True, "layout"] < sizes[False, "layout"]


def test_erasing_is_used_only_where_terminfo_says_the_terminal_erases_in_the_background(
        ) -> None:
    """xterm has "bce", vt100 and GNU screen not (ncurses asks the same);
    one process per terminal: Python's curses reads terminfo once."""
    code = ("import sys; from ka_tui.widgets.screen_diff import background_erase as b; "
            "print(b(sys.argv[1]))")
    root = Path(__file__).resolve().parents[2]  # this checkout's ka_tui
    answers = {term: subprocess.run([sys.executable, "-c", code, term], capture_output=True,
                                    text=True, check=True, cwd=root).stdout.strip()
               for term in ("xterm-256color", "vt100", "screen", "no-such-terminal", "")}
    assert answers == {"xterm-256color": "True", "vt100": "False", "screen": "False",
                       "no-such-terminal": "False", "": "False"}


def test_every_switch_between_two_styles_draws_the_second_one() -> None:
    """Only what changes is sent (attributes off, the ones an off code also
    cleared on again, colours): every ordered pair of the test styles."""
    pairs = [(a, b) for a in range(len(STYLES)) for b in range(len(STYLES)) if a != b]
    frame = [_line([("x", a, 1), ("y", b, 1), ("z", a, 1)]) for a, b in pairs[:H]]
    for n in range(0, len(pairs), H):
        chunk = (pairs[n:n + H] + pairs[:H])[:H]
        wanted = [_line([("x", a, 1), ("y", b, 1), ("z", a, 1)]) for a, b in chunk]
        check(frame, [("layout", wanted, [[]] * H, [(0, 0, W)])])
