"""Each Textual trick on and off (``ka_tui/textual_compat``): does it still pay?

Usage: ``.venv/bin/python benchmarks/tricks.py [--quick]``

For every trick of ``textual_compat.tricks`` the figure it is there for,
measured with the trick on (as shipped) and off (``only_tricks_off``: plain
Textual for that part), in the same process or on the same pty, rounds
interleaved so a change in the machine's load hits both alike:

- screen shadow: bytes the terminal receives (fresh ``python -m ka_tui`` on
  an 80x24 pty, ``KA_TUI_TRICKS_OFF=screen-shadow`` for "off"): a roster
  cursor move, the delete dialog and the character form opening;
- the form tricks (quiet footer, one layout, first resize skipped, shared
  Input styles, quiet first values, drawn tab row, single restyle): CPU ms of
  this process from the key to the first frame of the opened character form
  (headless, the real app on the demo campaign, median), each alone off,
  and all of them off; the delete dialog for the single restyle;
- fixed Input width: CPU ms per key typed in the character form's name;
- the CSS tricks (styled mode screen, parse cache): CPU ms from an F-key to
  the first frame of the mode (headless, a fresh app per round: they act as
  the app and its screens are built): the air battle's first visit, back to
  the roster, the air battle's later visit; each alone off, both off;
- tolerant input: its cost, parsing typed text and escape sequences against
  Textual's own decoder and parser (its gain is that the app keeps running);
- light dialog repaint: dormant (no screen sets ``LIGHT``): no figure.

A row's verdict is ``ok`` when the trick pays (off costs more than on),
``MISS`` when it does not, none for context rows.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (  # noqa: E402
    PYTHON, PtySession, Row, median, print_table, row, section, user_env)
from ka_tui.textual_compat.tricks import Trick, only_tricks_off  # noqa: E402

SIZE = (80, 24)
FORM_TRICKS = (Trick.QUIET_FOOTER, Trick.ONE_LAYOUT_OPEN, Trick.FIRST_RESIZE_SKIP,
               Trick.SHARED_INPUT_STYLES, Trick.QUIET_INPUT_OPEN, Trick.DRAWN_TAB_ROW,
               Trick.SINGLE_RESUME_RESTYLE)
Config = tuple[Trick, ...]


def _pays(name: str, figure: str, on: float, off: float, unit: str,
          judged: bool = True) -> list[Row]:
    """One row: the figure on / off (what the trick saves), ``ok`` if it pays."""
    def shown(value: float) -> str:
        if unit == "B":
            return f"{value / 1024:.2f}" if max(on, off) >= 1024 else f"{value:.0f}"
        return f"{value:.1f}" if max(on, off) < 100 else f"{value:.0f}"
    big = unit == "B" and max(on, off) >= 1024
    text = f"{shown(on)} / {shown(off)} {'KB' if big else unit}"
    return [row(f"{name}: {figure}, on / off", text, "", "off > on" if judged else "-",
                off > on if judged else None)]


# ---------------------------------------------------------------- headless


async def _wait_loaded(app: Any, pilot: Any) -> None:
    for _ in range(400):
        await pilot.pause()
        screen = app.screen
        if type(screen).__name__ == "RosterScreen" and getattr(screen, "loaded", False):
            break
    await pilot.pause(1.5)  # the roster's warm-up (1 s after its first frame)


async def _open_once(app: Any, pilot: Any, key: str) -> float:
    """CPU ms from ``key`` (posted as the driver posts it) to the end of the
    first frame drawn with the opened screen mounted and focused."""
    from textual import events

    roster = app.screen
    drawn = asyncio.Event()
    c0 = time.process_time()
    app.post_message(events.Key(key, key))
    deadline = time.perf_counter() + 5
    while (app.screen is roster or not app.screen.is_mounted
           or app.focused is None) and time.perf_counter() < deadline:
        await asyncio.sleep(0.001)
    app.screen.call_after_refresh(drawn.set)
    await asyncio.wait_for(drawn.wait(), 5)
    took = (time.process_time() - c0) * 1000
    await pilot.pause(0.1)
    await pilot.press("escape" if key != "d" else "n")
    await pilot.pause(0.1)
    if app.screen is not roster:  # a form that asks before closing
        await pilot.press("y")
        await pilot.pause(0.1)
    return took


async def _opening(db: Path, key: str, configs: Sequence[Config], runs: int
                   ) -> dict[Config, float]:
    from ka_tui.app import KaApp

    app = KaApp(db)
    times: dict[Config, list[float]] = {c: [] for c in configs}
    async with app.run_test(size=SIZE) as pilot:
        await _wait_loaded(app, pilot)
        for config in configs:  # a warm-up opening each
            with only_tricks_off(*config):
                await _open_once(app, pilot, key)
        for _ in range(runs):
            for config in configs:
                with only_tricks_off(*config):
                    times[config].append(await _open_once(app, pilot, key))
    return {c: statistics.median(t) for c, t in times.items()}


async def _typing(db: Path, configs: Sequence[Config], keys: int) -> dict[Config, float]:
    """CPU ms per key typed in the character form's name (to its frame)."""
    from textual import events

    from ka_tui.app import KaApp

    app = KaApp(db)
    out: dict[Config, list[float]] = {c: [] for c in configs}
    async with app.run_test(size=SIZE) as pilot:
        await _wait_loaded(app, pilot)
        for config in configs:
            with only_tricks_off(*config):
                await pilot.press("e")
                for _ in range(200):
                    await pilot.pause()
                    if type(app.screen).__name__ == "CharacterForm" and app.focused:
                        break
                await pilot.pause(0.3)
                for n in range(keys + 2):
                    drawn = asyncio.Event()
                    c0 = time.process_time()
                    app.post_message(events.Key("x", "x") if n % 2 == 0
                                     else events.Key("backspace", None))
                    await pilot.pause(0)
                    app.screen.call_after_refresh(drawn.set)
                    await asyncio.wait_for(drawn.wait(), 5)
                    if n >= 2:
                        out[config].append((time.process_time() - c0) * 1000)
                    await pilot.pause(0.02)
                await pilot.press("escape")
                await pilot.pause(0.1)
                if type(app.screen).__name__ != "RosterScreen":
                    await pilot.press("y")
                    await pilot.pause(0.1)
    return {c: statistics.median(t) for c, t in out.items()}


def form_rows(db: Path, quick: bool) -> list[Row]:
    runs = 3 if quick else 7
    configs: list[Config] = [(), *((t,) for t in FORM_TRICKS), FORM_TRICKS]
    form = asyncio.run(_opening(db, "e", configs, runs))
    dialog = asyncio.run(_opening(db, "d", [(), (Trick.SINGLE_RESUME_RESTYLE,)], runs))
    out: list[Row] = []
    for trick in FORM_TRICKS:
        if trick is Trick.SINGLE_RESUME_RESTYLE:
            out += _pays(trick.value, "delete dialog opens, CPU", dialog[()],
                         dialog[(trick,)], "ms", judged=False)
        out += _pays(trick.value, "character form opens, CPU", form[()], form[(trick,)], "ms")
    out += _pays("all form tricks", "character form opens, CPU", form[()],
                 form[FORM_TRICKS], "ms")
    typing = asyncio.run(_typing(db, [(), (Trick.FIXED_INPUT_WIDTH,)], 10 if quick else 30))
    out += _pays(Trick.FIXED_INPUT_WIDTH.value, "a key typed in a form field, CPU",
                 typing[()], typing[(Trick.FIXED_INPUT_WIDTH,)], "ms")
    return out


# ---------------------------------------------------------------- mode visits

CSS_TRICKS = (Trick.STYLED_MODE_SCREEN, Trick.CSS_PARSE_CACHE)
VISITS = (("f4", "air battle, first visit"), ("f1", "roster, back"),
          ("f4", "air battle, later visit"))


async def _switch_once(app: Any, pilot: Any, key: str) -> float:
    """CPU ms from an F-key to the first frame drawn with that mode's screen."""
    from textual import events

    before = app.screen
    drawn = asyncio.Event()
    c0 = time.process_time()
    app.post_message(events.Key(key, None))
    deadline = time.perf_counter() + 5
    while (app.screen is before or not app.screen.is_mounted) \
            and time.perf_counter() < deadline:
        await asyncio.sleep(0.001)
    app.screen.call_after_refresh(drawn.set)
    await asyncio.wait_for(drawn.wait(), 5)
    took = (time.process_time() - c0) * 1000
    await app.workers.wait_for_complete()
    await pilot.pause(0.3)
    return took


async def _visits(db: Path, config: Config) -> list[float]:
    """A fresh app (the tricks act as it and its screens are built): CPU ms
    of each of ``VISITS``."""
    from ka_tui.app import KaApp

    with only_tricks_off(*config):
        app = KaApp(db)
        async with app.run_test(size=SIZE) as pilot:
            await _wait_loaded(app, pilot)
            return [await _switch_once(app, pilot, key) for key, _ in VISITS]


def css_rows(db: Path, quick: bool) -> list[Row]:
    configs: list[Config] = [(), *((t,) for t in CSS_TRICKS), CSS_TRICKS]
    found: dict[Config, list[list[float]]] = {c: [] for c in configs}
    for _ in range(2 if quick else 4):
        for config in configs:
            found[config].append(asyncio.run(_visits(db, config)))
    out: list[Row] = []
    for i, (_, what) in enumerate(VISITS):
        on = median([r[i] for r in found[()]])
        for config in configs[1:]:
            name = config[0].value if len(config) == 1 else "both CSS tricks"
            # judged where it is meant to pay: both on a mode's visits, the
            # styled screen on a later visit (alone, each covers part of the
            # other's absence on a first visit; the roster's way back reloads it)
            judged = i != 1 and (len(config) == 2 or (i == 2 and config[0] is
                                                      Trick.STYLED_MODE_SCREEN))
            out += _pays(name, f"{what}, CPU", on, median([r[i] for r in found[config]]),
                         "ms", judged=judged)
    return out


# ---------------------------------------------------------------- pseudo-terminal


def _pty_bytes(demo: Path, folder: Path, off: str, quick: bool) -> dict[str, float]:
    copy = folder / f"shadow-{off or 'on'}.db"
    shutil.copy(demo, copy)
    env = user_env(XDG_DATA_HOME=str(folder), KA_TUI_TRICKS_OFF=off)
    s = PtySession([PYTHON, "-m", "ka_tui", "--db", str(copy)], env=env)
    out: dict[str, float] = {}
    try:
        s.first_frame()
        s.settle(1.5, first_wait=1.5)
        n = 4 if quick else 8
        sizes = [s.key(k)[0] for k in ["down"] * n + ["up"] * n]
        out["a roster cursor move"] = median(sizes)
        opened = []
        for _ in range(2 if quick else 4):
            opened.append(s.key("d", quiet=0.3)[0])
            s.key("n", quiet=0.3)
        out["the delete dialog opens"] = median(opened)
        forms = []
        for _ in range(2 if quick else 4):
            forms.append(s.key("e", quiet=0.4)[0])
            s.key("escape", quiet=0.4)
        out["the character form opens"] = median(forms)
    finally:
        s.close(("escape", "ctrl+q"))
    return out


def shadow_rows(demo: Path, folder: Path, quick: bool) -> list[Row]:
    on = _pty_bytes(demo, folder, "", quick)
    off = _pty_bytes(demo, folder, Trick.SCREEN_SHADOW.value, quick)
    out: list[Row] = []
    for figure in on:
        out += _pays(Trick.SCREEN_SHADOW.value, f"bytes, {figure}", on[figure],
                     off[figure], "B")
    return out


# ---------------------------------------------------------------- input


def _typed(size: int) -> bytes:
    unit = ("Ivan Petrovich é ".encode() + b"\x1b[A\x1b[B\r\x7f" + b"\x1b[<0;12;5M"
            + b"\x1b[<0;12;5m" + b"\x1b[1;5C" + "ß→".encode())
    return (unit * (size // len(unit) + 1))[:size]


def _parse_time(feed: Callable[[bytes], Any], data: bytes, chunk: int = 4096) -> float:
    t0 = time.process_time()
    for i in range(0, len(data), chunk):
        feed(data[i:i + chunk])
    return (time.process_time() - t0) * 1000


def input_rows(quick: bool) -> list[Row]:
    from ka_tui.textual_compat.terminal_input import TerminalInput, textual_input

    data = _typed(50_000 if quick else 200_000)
    # cut where a read of a terminal would: never inside a UTF-8 character here
    theirs, ours = [], []
    for _ in range(3 if quick else 5):
        theirs.append(_parse_time(textual_input(), data))
        terminal = TerminalInput()
        ours.append(_parse_time(terminal.feed, data))
    kb = len(data) / 1024
    return [row(f"tolerant-input: parse {kb:.0f} KB of typing, Textual's input", median(theirs),
                "ms"),
            row(f"tolerant-input: parse {kb:.0f} KB of typing, tolerant input", median(ours),
                "ms"),
            row("tolerant-input: its cost, x Textual's", median(ours) / median(theirs), "x",
                "< 2x", median(ours) / median(theirs) < 2),
            row("light-dialog-repaint: no screen sets LIGHT", "dormant", "")]


def rows(demo: Path, folder: Path, quick: bool) -> list[Row]:
    return ([section("Textual tricks on and off (benchmarks/tricks.py; ka_tui/textual_compat)")]
            + shadow_rows(demo, folder, quick) + form_rows(demo, quick) + css_rows(demo, quick)
            + input_rows(quick))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs")
    parser.add_argument("--only", choices=("shadow", "forms", "css", "input"), default=None)
    args = parser.parse_args()
    from ka_tui.store.demo import create_demo

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        demo = folder / "demo.db"
        create_demo(demo).close()
        if args.only == "shadow":
            table = shadow_rows(demo, folder, args.quick)
        elif args.only == "forms":
            table = form_rows(demo, args.quick)
        elif args.only == "css":
            table = css_rows(demo, args.quick)
        elif args.only == "input":
            table = input_rows(args.quick)
        else:
            table = rows(demo, folder, args.quick)
    return 1 if print_table(table) else 0


if __name__ == "__main__":
    raise SystemExit(main())
