"""The table server (``ka-tui serve``): a player's first frame over SSH and in
a browser, bytes per key over each, memory per connected player.

Usage: ``.venv/bin/python benchmarks/table_server.py [--quick]``

The server runs in this process (its own thread and loop), on the demo; the
clients are real: asyncssh's client on an 80x24 pty, and Chromium (Debian's
``/usr/bin/chromium``) through Playwright at the size of an 80x24 terminal.

- First frame: from the client's first step (the TCP connect; the page's
  navigation) to the last byte of the settled first screen (nothing more for
  250 ms), as ``startup.py`` times ``ka-tui play`` locally (spawn to settled
  screen); that reference is measured in this same run, in rounds with the
  others. Median of 20 (``--quick``: 5). Budget: within 1.5x the local
  ``play``. In the browser twice: a returning player (the front end's files
  in his browser's cache, as a phone has them after its first visit) and a
  first visit (an empty profile). The browser runs on this machine, so its
  page load competes with the server for the same cores; a phone's does not.
- Bytes per key: the player switches panes (2 3 4 1, twice), bytes received
  per key, median; over the web the websocket frames' payloads.
- Memory per connected player: four players connected over SSH; the resident
  memory of each player's processes (his view and its children) plus what
  the server grew by, per player. Budget: under 100 MB. After they leave:
  their processes are gone and the server is back within a few MB.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (  # noqa: E402
    PYTHON, QUIET_S, PtySession, Row, median, print_table, row, section, user_env)

RATIO = 1.5
MEMORY_MB = 100.0
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PANES = ["2", "3", "4", "1"] * 2
PLAYERS = ("Arthur", "Jeanne", "Kasia", "Olga")


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants."""
    found, todo = [], [pid]
    while todo:
        here = todo.pop()
        found.append(here)
        kids: list[str] = []
        for task in Path(f"/proc/{here}/task").glob("*"):   # children of every thread
            try:
                kids += (task / "children").read_text().split()
            except OSError:
                pass
        todo += [int(k) for k in kids]
    return found


class Bench:
    def __init__(self, folder: Path) -> None:
        import asyncssh

        from ka_tui.store import table_seats
        from ka_tui.store.db import open_campaign
        from ka_tui.store.demo import create_demo

        self.folder = folder
        self.db = folder / "demo.db"
        create_demo(self.db).close()
        self.keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in PLAYERS}
        now = datetime.now(UTC)
        with open_campaign(self.db) as db:   # before the server opens it (see tests/server)
            for name, key in self.keys.items():
                table_seats.add_key(db, name, key.export_public_key().decode(), now)
            self.token = table_seats.make_link(db, "Olga", now)

    socket_to_frame: list[float]

    def start(self) -> None:
        self.socket_to_frame = []
        from ka_tui.server.table import ServeOptions, ServerThread, TableServer

        os.environ.setdefault("XDG_DATA_HOME", str(self.folder))
        self.thread = ServerThread(TableServer(self.db, ServeOptions(
            listen="127.0.0.1", ssh_port=0, web_port=0, host_key_folder=self.folder)))
        self.listening = self.thread.start()

    def stop(self) -> None:
        self.thread.stop()

    # -- SSH ----------------------------------------------------------------------

    async def ssh_session(self, name: str) -> tuple[object, object, list[tuple[float, int]]]:
        import asyncssh

        got: list[tuple[float, int]] = []

        class Collect(asyncssh.SSHClientSession):  # type: ignore[type-arg]
            def data_received(self, data: bytes, datatype: object) -> None:
                got.append((time.perf_counter(), len(data)))

        conn = await asyncssh.connect("127.0.0.1", self.listening.ssh_port,
                                      username=name.lower(), client_keys=[self.keys[name]],
                                      known_hosts=None, agent_path=None)
        chan, _ = await conn.create_session(Collect, term_type="xterm-256color",
                                            term_size=(80, 24), encoding=None)
        return conn, chan, got

    async def ssh_first_frame(self) -> float:
        started = time.perf_counter()
        conn, _chan, got = await self.ssh_session("Arthur")
        last = await _settled(got)
        conn.close()  # type: ignore[attr-defined]
        await conn.wait_closed()  # type: ignore[attr-defined]
        await asyncio.sleep(0.3)   # his view ends before the next run
        return last - started

    async def ssh_bytes_per_key(self) -> float:
        conn, chan, got = await self.ssh_session("Jeanne")
        await _settled(got)
        sizes = []
        for key in PANES:
            got.clear()
            chan.write(key.encode())  # type: ignore[attr-defined]
            await _settled(got, first=3.0)
            sizes.append(sum(n for _, n in got))
        conn.close()  # type: ignore[attr-defined]
        return median(sizes)

    async def memory(self) -> tuple[float, float, int, float, float]:
        """(MB per player, MB per player the server grew, processes left after
        they went, MB the server kept after they went, MB of the spares)."""
        server_pid = os.getpid()
        server = self.thread.server
        await asyncio.sleep(2)   # the spares (views loaded ahead) are up
        before = _rss_kb(server_pid)
        sessions = [await self.ssh_session(name) for name in PLAYERS]
        for _, _, got in sessions:
            await _settled(got)
        for _, chan, got in sessions:   # every pane once: the heavier panes are built
            for key in ("2", "3", "4", "1"):
                got.clear()
                chan.write(key.encode())  # type: ignore[attr-defined]
                await _settled(got, first=3.0)
        await asyncio.sleep(1.5)   # the views' warm-up after the first frame
        spares = {p for s in server.spare_pids() for p in _tree(s)}
        seats = [k for k in _tree(server_pid) if k != server_pid and k not in spares]
        views = sum(_rss_kb(pid) for pid in seats) / 1024
        grew = max(0, _rss_kb(server_pid) - before) / 1024
        for conn, _, _ in sessions:
            conn.close()  # type: ignore[attr-defined]
        await asyncio.sleep(4)
        spares = {p for s in server.spare_pids() for p in _tree(s)}
        left = [k for k in _tree(server_pid) if k != server_pid and k not in spares]
        kept = max(0, _rss_kb(server_pid) - before) / 1024
        spare_mb = sum(_rss_kb(p) for p in spares) / 1024
        return (views + grew) / len(PLAYERS), grew / len(PLAYERS), len(left), kept, spare_mb

    # -- the browser ------------------------------------------------------------

    def web_first_frame(self, context: object) -> tuple[float, int | None]:
        """(page navigation to the settled first frame, bytes per key or None)
        for one page in ``context``; the pane keys are pressed on the first
        page of a context only."""
        page = context.new_page()  # type: ignore[attr-defined]
        frames: list[tuple[float, int]] = []
        opened: list[float] = []

        def socket(ws: object) -> None:
            opened.append(time.perf_counter())
            ws.on("framereceived", lambda p: frames.append(  # type: ignore[attr-defined]
                (time.perf_counter(), len(p) if isinstance(p, bytes) else 0)))

        page.on("websocket", socket)
        started = time.perf_counter()
        page.goto(f"http://127.0.0.1:{self.listening.web_port}/P/{self.token}")
        last = _settled_sync(page, frames)
        self.socket_to_frame.append(last - opened[0] if opened else float("nan"))
        per_key = None
        if not getattr(context, "_keys_done", False):
            context._keys_done = True  # type: ignore[attr-defined]
            page.focus(".xterm-helper-textarea")
            sizes = []
            for key in PANES:
                frames.clear()
                page.keyboard.press(key)
                _settled_sync(page, frames, first=3.0)
                sizes.append(sum(n for _, n in frames))
            per_key = int(median(sizes))
        page.close()
        time.sleep(0.3)
        return last - started, per_key


class ClientLoop:
    """The SSH clients' event loop, in a thread of its own (Playwright's sync
    API keeps one running in this one)."""

    def __init__(self) -> None:
        import threading

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: object) -> object:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(120)  # type: ignore[arg-type]

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


async def _settled(got: list[tuple[float, int]], first: float = 20.0) -> float:
    """Wait for the first byte, then for ``QUIET_S`` without one; the last byte's time."""
    deadline = time.perf_counter() + first
    while not got and time.perf_counter() < deadline:
        await asyncio.sleep(0.01)
    while got and time.perf_counter() - got[-1][0] < QUIET_S:
        await asyncio.sleep(0.02)
    return got[-1][0] if got else float("nan")


def _settled_sync(page: object, got: list[tuple[float, int]], first: float = 20.0) -> float:
    deadline = time.perf_counter() + first
    while not [g for g in got if g[1]] and time.perf_counter() < deadline:
        page.wait_for_timeout(10)  # type: ignore[attr-defined]
    while got and time.perf_counter() - got[-1][0] < QUIET_S:
        page.wait_for_timeout(20)  # type: ignore[attr-defined]
    return got[-1][0] if got else float("nan")


def local_play(db: Path, folder: Path) -> float:
    s = PtySession([PYTHON, "-m", "ka_tui", "play", "--as", "Arthur", "--db", str(db)],
                   env=user_env(XDG_DATA_HOME=str(folder)))
    took = s.first_frame()
    s.close()
    return took


def rows(quick: bool = False) -> list[Row]:
    runs = 5 if quick else 20
    out = [section(f"Table server (ka-tui serve; first frames: median of {runs}, in rounds "
                   "with the local play --as)")]
    browser_there = os.path.exists(CHROMIUM)
    local: list[float] = []
    ssh: list[float] = []
    web: list[float] = []
    fresh: list[float] = []
    web_key: list[int] = []
    with tempfile.TemporaryDirectory(prefix="ka-table-") as name:
        folder = Path(name)
        bench = Bench(folder)
        local_db = folder / "local.db"
        shutil.copy(bench.db, local_db)
        bench.start()
        clients = ClientLoop()
        try:
            with _browser() as browser:
                returning = browser.new_context(viewport={"width": 820, "height": 460}) \
                    if browser else None
                # a warm-up round: file cache, the spares, the returning browser's cache
                clients.run(bench.ssh_first_frame())
                local_play(local_db, folder)
                if returning is not None:
                    bench.web_first_frame(returning)
                for _ in range(runs):   # in rounds: the machine's load hits all alike
                    local.append(local_play(local_db, folder))
                    ssh.append(clients.run(bench.ssh_first_frame()))  # type: ignore[arg-type]
                    if browser is not None and returning is not None:
                        took, keys = bench.web_first_frame(returning)
                        web.append(took)
                        new = browser.new_context(viewport={"width": 820, "height": 460})
                        took, keys = bench.web_first_frame(new)
                        fresh.append(took)
                        web_key += [keys] if keys is not None else []
                        new.close()
            ssh_key = clients.run(bench.ssh_bytes_per_key())
            per_player, server_part, left, kept, spare_mb = clients.run(  # type: ignore[misc]
                bench.memory())
        finally:
            clients.close()
            bench.stop()
    base = median(local)
    out.append(row("ka-tui play --as Arthur, local pty: first frame (reference)",
                   base * 1000, "ms"))
    out.append(row("over SSH: connect to first frame", median(ssh) * 1000, "ms"))
    out.append(row("over SSH: / local play", median(ssh) / base, "x", f"<= {RATIO}x",
                   median(ssh) / base <= RATIO))
    if not browser_there:
        out.append(row("in a browser: first frame", "no /usr/bin/chromium", "", "-", None))
    else:
        out.append(row("in a browser: page load to first frame (returning player)",
                       median(web) * 1000, "ms"))
        out.append(row("in a browser: / local play", median(web) / base, "x", f"<= {RATIO}x",
                       median(web) / base <= RATIO))
        out.append(row("in a browser, first visit (empty profile): page load to first frame",
                       median(fresh) * 1000, "ms"))
        out.append(row("in a browser, first visit: / local play", median(fresh) / base,
                       "x", f"<= {RATIO}x", median(fresh) / base <= RATIO))
        out.append(row("in a browser: its websocket open to first frame (the page loaded)",
                       median(bench.socket_to_frame) * 1000, "ms"))
        out.append(row("in a browser: bytes per key (pane switch, median)",
                       median(web_key), "B"))
    out.append(row("over SSH: bytes per key (pane switch, median)", ssh_key, "B"))
    out.append(row("memory per connected player (his view + server's share)", per_player,
                   "MB", f"< {MEMORY_MB:.0f} MB", per_player < MEMORY_MB))
    out.append(row("  of which the server's own growth", server_part, "MB"))
    out.append(row("views loaded ahead, waiting (one per way in)", spare_mb, "MB"))
    out.append(row("after the players left: their processes left", left, "",
                   "0", left == 0))
    out.append(row("after the players left: server memory kept", kept, "MB", "< 10 MB",
                   kept < 10))
    return out


@contextlib.contextmanager
def _browser() -> Iterator[object | None]:
    if not os.path.exists(CHROMIUM):
        yield None
        return
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 runs instead of 20")
    args = parser.parse_args()
    return 1 if print_table(rows(args.quick)) else 0


if __name__ == "__main__":
    raise SystemExit(main())
