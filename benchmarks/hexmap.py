"""The hex map widget on a 100x100 map with 40 aircraft: cursor key to frame,
bytes per cursor move, first frame, peak memory, each against its budget.

Usage: ``.venv/bin/python benchmarks/hexmap.py [--presses 200] [--zoom compact]``
       ``.venv/bin/python benchmarks/hexmap.py --serve`` shows the demo full screen
       in your own terminal (the app the pty part drives; ``ctrl+q`` quits).

Headless: the app under Textual's Pilot (the same compositor, no terminal);
the time is ``press`` + ``pause`` (the key handled and the screen refreshed).

Pseudo-terminal: a fresh ``python`` process runs the demo app on an 80x24 pty
(the real Linux driver, ``TERM=xterm-256color``). This process writes a cursor
key to the pty and reads what the app writes back: the frame is over when no
byte has come for ``--quiet`` ms, and its time is that of its last byte. The
cursor walks a loop inside the view (right, down, left, up), as a GM moves it.
The child reports its first frame (``call_after_refresh`` after mounting the
map) and its peak RSS (``ru_maxrss``) through a pipe.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import resource
import select
import statistics
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ka_tui.rules.air.battle_map import BattleMap, Carrier, Strip, Surface, Terrain  # noqa: E402
from ka_tui.rules.air.hexgrid import Hex  # noqa: E402

KEY_MS = 16.0
BYTES = 1024
MEMORY_MB = 150.0
SIZE = (80, 24)
# Loops that stay in the view around its centre (no scrolling), per zoom.
LOOPS = {"compact": ["up"] * 3 + ["right"] * 4 + ["down"] * 3 + ["left"] * 4,
         "detailed": ["up"] * 2 + ["right"] * 3 + ["down"] * 2 + ["left"] * 3}
KEYS = {"right": b"\x1b[C", "left": b"\x1b[D", "up": b"\x1b[A", "down": b"\x1b[B",
        "tab": b"\t", "quit": b"\x11"}


def make_map(cols: int = 100, rows: int = 100) -> BattleMap:
    """A deterministic 100x100 map: lakes, woods, hills, two strips, a carrier."""
    terrain: dict[Hex, Terrain] = {}
    for col in range(cols):
        for row in range(rows):
            n = (col * 7919 + row * 104729) % 97
            if (col // 10 + row // 12) % 5 == 0 and n < 60:
                cell = Terrain(Surface.WATER)
            elif n < 12:
                cell = Terrain(Surface.FOREST, n % 3)
            elif n < 16:
                cell = Terrain(Surface.ROUGH, n % 5)
            else:
                continue
            terrain[Hex.from_offset(col, row)] = cell
    strips = (Strip("Home", Hex.from_offset(20, 30), 2, 6),
              Strip("Forward", Hex.from_offset(70, 60), 0, 4, surface=Surface.UNPREPARED))
    carriers = (Carrier("Ark", Hex.from_offset(50, 80), 1, 4, 1, 1),)
    return BattleMap(cols, rows, terrain, strips, carriers)


def make_aircraft(count: int = 40) -> list[Any]:
    from ka_tui.widgets.hex_map import MapAircraft

    sides = ("RAF", "Luftwaffe", "USAAF", "Regia")
    out = []
    for i in range(count):
        col, row = 5 + (i * 37) % 90, 5 + (i * 53) % 90
        if i % 8 == 7:   # some stacks
            col, row = 5 + ((i - 1) * 37) % 90, 5 + ((i - 1) * 53) % 90
        out.append(MapAircraft(f"u{i}", Hex.from_offset(col, row), i % 6, sides[i % 4],
                               1 + i % 6, 3 + i % 10, f"A{i:02d}"))
    return out


def demo_app(zoom: str = "compact", report_fd: int | None = None) -> Any:
    from textual.app import App, ComposeResult
    from textual.binding import Binding

    from ka_tui.widgets.hex_map import HexMap

    class HexMapDemo(App[None]):
        """The map full screen, the first aircraft selected and centred."""

        BINDINGS = [Binding("ctrl+q", "leave", "Quit", id="demo.quit")]

        def compose(self) -> ComposeResult:
            self.hex_map = HexMap(make_map(), make_aircraft(), zoom=zoom)  # type: ignore[arg-type]
            yield self.hex_map

        def on_mount(self) -> None:
            self.hex_map.focus()
            self.hex_map.select("u1")       # mid-map: the view is centred on it
            self.hex_map.centre_on(self.hex_map.cursor)
            self.call_after_refresh(self._first_frame)

        def _first_frame(self) -> None:
            if report_fd is not None:
                os.write(report_fd, f"first {time.time()}\n".encode())

        def action_leave(self) -> None:
            if report_fd is not None:
                rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                os.write(report_fd, f"rss {rss}\n".encode())
            self.exit()

    return HexMapDemo()


# ---------------------------------------------------------------- headless


async def headless(presses: int, zoom: str) -> dict[str, float]:
    """Key events sent to the app's driver as a terminal's would be; the frame is
    the screen's next compositor update (what the driver would write)."""
    import asyncio

    from textual import events

    from ka_tui.textual_compat.app_state import send_as_driver
    from ka_tui.textual_compat.compositor import compositor_of

    app = demo_app(zoom)
    start = time.perf_counter()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        first = time.perf_counter() - start
        compositor = compositor_of(app.screen)
        render_update = compositor.render_update
        stamps: list[float] = []

        def timed(*args: Any, **kwargs: Any) -> Any:
            update = render_update(*args, **kwargs)
            if update is not None:
                stamps.append(time.perf_counter())
            return update

        compositor.render_update = timed
        times = []
        for i in range(presses):
            key = LOOPS[zoom][i % len(LOOPS[zoom])]
            stamps.clear()
            t0 = time.perf_counter()
            send_as_driver(app, events.Key(key, None))
            while not stamps and time.perf_counter() - t0 < 2:
                await asyncio.sleep(0.0005)
            if stamps:
                times.append(stamps[0] - t0)
            await pilot.pause()
        lines = app.hex_map.render_count
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"key_ms": statistics.median(times) * 1000, "key_max_ms": max(times) * 1000,
            "first_ms": first * 1000, "rss_mb": rss, "lines": lines}


# ---------------------------------------------------------------- pseudo-terminal


def _read_until_quiet(fd: int, quiet: float, limit: float = 5.0) -> tuple[int, float]:
    """Bytes read until ``quiet`` seconds pass with none, and the last byte's time."""
    total, last = 0, time.perf_counter()
    deadline = last + limit
    while time.perf_counter() < deadline:
        ready, _, _ = select.select([fd], [], [], quiet)
        if not ready:
            break
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        total += len(data)
        last = time.perf_counter()
    return total, last


def pty_run(presses: int, zoom: str, quiet_ms: float) -> dict[str, float]:
    quiet = quiet_ms / 1000
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
    read_end, write_end = os.pipe()
    env = {**os.environ, "TERM": "xterm-256color", "TEXTUAL_ANIMATIONS": "none",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    env.pop("NO_COLOR", None)
    start = time.time()
    child = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--serve", "--report-fd",
         str(write_end), "--zoom", zoom],
        stdin=slave, stdout=slave, stderr=slave, pass_fds=(write_end,), env=env,
        close_fds=True)
    os.close(write_end)
    os.close(slave)
    report = os.fdopen(read_end)
    try:
        first_line = ""
        deadline = time.time() + 60
        while not first_line.startswith("first") and time.time() < deadline:
            ready, _, _ = select.select([master, read_end], [], [], 1)
            if master in ready:
                os.read(master, 65536)
            if read_end in ready:
                first_line = report.readline()
                if not first_line:
                    break
        if not first_line.startswith("first"):
            raise RuntimeError("the demo app did not report a first frame")
        first = float(first_line.split()[1]) - start
        _read_until_quiet(master, 0.5)           # the first frame and any late output
        times, sizes = [], []
        for i in range(presses):
            key = KEYS[LOOPS[zoom][i % len(LOOPS[zoom])]]
            t0 = time.perf_counter()
            os.write(master, key)
            size, last = _read_until_quiet(master, quiet)
            if size:
                times.append(last - t0)
                sizes.append(size)
        os.write(master, KEYS["quit"])
        rss_line = ""
        deadline = time.time() + 20
        while not rss_line and time.time() < deadline:
            ready, _, _ = select.select([master, read_end], [], [], 1)
            if master in ready:
                try:
                    os.read(master, 65536)
                except OSError:
                    pass
            if read_end in ready:
                rss_line = report.readline()
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
        report.close()
        os.close(master)
    rss = float(rss_line.split()[1]) / 1024 if rss_line.startswith("rss") else float("nan")
    return {"key_ms": statistics.median(times) * 1000, "key_max_ms": max(times) * 1000,
            "bytes": statistics.median(sizes), "bytes_max": max(sizes),
            "frames": len(times), "first_ms": first * 1000, "rss_mb": rss}


def _row(figure: str, measured: str, budget: str, ok: bool | None) -> str:
    verdict = "" if ok is None else ("ok" if ok else "MISS")
    return f"{figure:<44} {measured:>12} {budget:>10}  {verdict}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--zoom", choices=("compact", "detailed"), default="compact")
    parser.add_argument("--quiet", type=float, default=40.0,
                        help="ms without output that ends a frame (pty)")
    parser.add_argument("--serve", action="store_true", help="run the demo app")
    parser.add_argument("--report-fd", type=int, default=None)
    args = parser.parse_args()
    if args.serve:
        demo_app(args.zoom, args.report_fd).run()
        return 0
    import asyncio

    h = asyncio.run(headless(args.presses, args.zoom))
    p = pty_run(args.presses, args.zoom, args.quiet)
    print(f"hex map: 100x100 map, 40 aircraft, {args.zoom} zoom, 80x24, "
          f"{args.presses} cursor presses; {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f}")
    print(_row("figure", "measured", "budget", None))
    print(_row("headless: key -> frame (median)", f"{h['key_ms']:.1f} ms", f"{KEY_MS:.0f} ms",
               h["key_ms"] <= KEY_MS))
    print(_row("headless: key -> frame (slowest)", f"{h['key_max_ms']:.1f} ms", "-", None))
    print(_row("headless: first frame (app start)", f"{h['first_ms']:.0f} ms", "-", None))
    print(_row("headless: peak memory (this process)", f"{h['rss_mb']:.0f} MB",
               f"{MEMORY_MB:.0f} MB", h["rss_mb"] <= MEMORY_MB))
    print(_row("pty: key -> last byte of frame (median)", f"{p['key_ms']:.1f} ms",
               f"{KEY_MS:.0f} ms", p["key_ms"] <= KEY_MS))
    print(_row("pty: key -> last byte (slowest)", f"{p['key_max_ms']:.1f} ms", "-", None))
    print(_row("pty: bytes written per cursor move (median)", f"{p['bytes']:.0f} B",
               f"{BYTES} B", p["bytes"] <= BYTES))
    print(_row("pty: bytes per cursor move (largest)", f"{p['bytes_max']:.0f} B", "-", None))
    print(_row("pty: spawn -> first frame of the map", f"{p['first_ms']:.0f} ms", "-", None))
    print(_row("pty: peak memory of the app (ru_maxrss)", f"{p['rss_mb']:.0f} MB",
               f"{MEMORY_MB:.0f} MB", p["rss_mb"] <= MEMORY_MB))
    print(f"(pty frames seen: {p['frames']} of {args.presses}; "
          f"headless lines drawn: {h['lines']:.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
