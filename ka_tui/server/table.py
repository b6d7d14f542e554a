"""The table server: SSH and the browser in one asyncio loop, for one campaign.

It runs as the GM's own user and keeps the campaign private (0600): no
player process ever opens the file, only the views it starts for them. It
records each connection in the file (``store/table_seats.py``), so the GM's
ka-tui (the Table mode) and ``ka-tui players`` show who is connected, by
which way and since when, from another process. They ask for a connection
to be dropped, or revoke a player, by writing the file too; the server
watches it (``store/watch.py``, as every view does) and acts within a
second. Why two processes rather than the server inside the GM's app: the
table stays up while the GM's own screen is closed, restarted or opened on
another campaign, and the GM's app keeps its terminal to itself.

Where each player was in his view (pane, fight, battle) is kept here, in
memory, for as long as the server runs: a player who drops and comes back
finds his view as it was (a card typed and not sent is gone; a sent card is
in the file and never lost).
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

from ka_tui.screens.table.words import DEFAULT_SSH_PORT, DEFAULT_WEB_PORT, lan_address
from ka_tui.store import table_seats
from ka_tui.store.db import CampaignDB, open_campaign
from ka_tui.store.table_seats import Admitted

T = TypeVar("T")

SSH_PORT = DEFAULT_SSH_PORT
WEB_PORT = DEFAULT_WEB_PORT


class TableError(Exception):
    """Something the GM can fix (a port in use, a key file he cannot read);
    said in one line by the command line."""


class Droppable(Protocol):
    def drop(self, why: str) -> None: ...


@dataclass
class ServeOptions:
    """How ``ka-tui serve`` listens. A port of None turns that way off; 0 picks
    a free port (tests)."""

    listen: str = ""                 # "" = every address of this machine
    web_listen: str | None = None    # the browser side's own address (None: listen's)
    ssh_port: int | None = SSH_PORT
    web_port: int | None = WEB_PORT
    public_url: str | None = None    # the address players' browsers use (a TLS proxy's)
    host_key_folder: Path | None = None
    watch_interval: float = 0.25


@dataclass
class Listening:
    """Where the server listens, once started."""

    ssh_port: int | None = None
    web_port: int | None = None
    web_url: str | None = None
    host_key: str = ""
    addresses: list[str] = field(default_factory=list)


class TableServer:
    """``ka-tui serve`` for the campaign at ``db_path`` (see the module doc)."""

    def __init__(self, db_path: Path, options: ServeOptions | None = None, *,
                 say: Callable[[str], None] | None = None,
                 clock: Callable[[], datetime] | None = None) -> None:
        self.db_path = db_path
        self.options = options or ServeOptions()
        self._say = say
        self._clock = clock
        self.db: CampaignDB = open_campaign(db_path)
        self.pid = os.getpid()
        self.listening = Listening()
        self.sessions: dict[int, Droppable] = {}
        self.views: dict[int, dict[str, object]] = {}
        self._names: dict[int, str] = {}
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="ka-table")
        self._ssh: Any = None
        self._web: Any = None
        self._watcher: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._spares: dict[str, Any] = {}   # "ssh"/"web": a view loaded, waiting
        self._stopping = False

    # -- helpers the two sides use ---------------------------------------------------

    def now(self) -> datetime:
        return self._clock() if self._clock is not None else datetime.now(UTC)

    def say(self, line: str) -> None:
        """One line on the GM's console (never a token or a code)."""
        if self._say is not None:
            self._say(f"{self.now().astimezone():%H:%M:%S} {line}")

    async def in_thread(self, job: Callable[[CampaignDB], T]) -> T:
        """Store work off the loop (a write may wait for another's lock)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, job, self.db)

    def seat_argv(self, who: Admitted) -> list[str]:
        from ka_tui.server.seat_process import seat_argv

        return seat_argv(self.db_path, who.name, self.views.get(who.character_id))

    def seat_env(self, extra: Mapping[str, str]) -> dict[str, str]:
        from ka_tui.server.seat_process import seat_env

        return seat_env(extra)

    def remember_view(self, character_id: int, view: dict[str, object]) -> None:
        self.views[character_id] = view

    # -- views, started ahead (seat_app --wait) -----------------------------------

    async def pty_seat(self, who: Admitted, term: str, cols: int, rows: int,
                       on_output: Callable[[bytes], None],
                       on_exit: Callable[[int], None]) -> Any:
        """An SSH player's view: the spare, told who he is, else a new one."""
        from ka_tui.server.seat_process import PtySeat

        spare = self._spares.pop("ssh", None)
        self._refill("ssh")
        if spare is not None and spare.alive:
            seat = spare
        else:
            seat = PtySeat(self.seat_argv(who), self.seat_env({"TERM": term}))
        seat.on_output, seat.on_exit = on_output, on_exit
        seat.on_view = lambda view: self.remember_view(who.character_id, view)
        if seat is spare:
            seat.order(who.name, self.views.get(who.character_id), {"TERM": term}, cols, rows)
        else:
            await seat.start(cols, rows)
        return seat

    async def web_seat(self, who: Admitted, width: int, height: int) -> Any:
        """A browser player's view: the spare, told who he is, else a new one."""
        from ka_tui.server.web import WebSeat

        spare = self._spares.pop("web", None)
        self._refill("web")
        if spare is not None and spare.alive:
            seat = spare
            seat.on_view = lambda view: self.remember_view(who.character_id, view)
            seat.order(who.name, self.views.get(who.character_id), width, height)
            return seat
        seat = WebSeat(self.seat_argv(who), self.seat_env({}))
        seat.on_view = lambda view: self.remember_view(who.character_id, view)
        await seat.start(width, height)
        return seat

    def spare_pids(self) -> set[int]:
        """The processes of the views waiting for a player (benchmarks)."""
        return {s.process.pid for s in self._spares.values() if s.process is not None}

    def _refill(self, way: str) -> None:
        if self._loop is not None and not self._stopping:
            self._loop.create_task(self._make_spare(way))

    async def _make_spare(self, way: str) -> None:
        from ka_tui.server.seat_process import PtySeat, spare_argv

        if self._stopping or way in self._spares:
            return
        seat: Any
        if way == "ssh":
            seat = PtySeat(spare_argv(self.db_path), self.seat_env({"TERM": "xterm-256color"}))
            await seat.start(80, 24, spare=True)
        else:
            from ka_tui.server.web import WebSeat

            seat = WebSeat(spare_argv(self.db_path), self.seat_env({}), spare=True)
            await seat.start(80, 24)
        if self._stopping or way in self._spares:
            await self._end_spare(seat)
            return
        self._spares[way] = seat

    async def _end_spare(self, seat: Any) -> None:
        from ka_tui.server.web import WebSeat

        if isinstance(seat, WebSeat):
            await seat.end()
        else:
            seat.stop()

    async def opened(self, who: Admitted, way: str, peer: str, session: Droppable) -> int:
        connection_id = await self.in_thread(lambda db: table_seats.connection_opened(
            db, who, way, peer, self.pid, self.now()))
        self.sessions[connection_id] = session
        self._names[connection_id] = who.name
        self.say(f"{who.name} joined over {'SSH' if way == 'ssh' else 'the web'}"
                 f"{f' from {peer}' if peer else ''}")
        return connection_id

    async def closed(self, connection_id: int, why: str) -> None:
        if self.sessions.pop(connection_id, None) is None:
            return
        await self.in_thread(lambda db: table_seats.connection_closed(db, connection_id, why,
                                                                      self.now()))
        name = self._names.pop(connection_id, "?")
        self.say(f"{name} left" if why == "left" else f"{name}'s connection ended: {why}")

    # -- running ---------------------------------------------------------------------

    async def start(self) -> Listening:
        """Listen on the ways asked for; refuses (``TableBusy``) when another
        server runs for this campaign."""
        self._loop = asyncio.get_running_loop()
        options = self.options
        host = options.listen
        ip = lan_address()
        # first the claim on the file: a second server stops here, listening nowhere
        await self.in_thread(lambda db: table_seats.server_started(
            db, self.pid, socket.gethostname(), None, None, self.now()))
        try:
            if options.ssh_port is not None:
                await self._start_ssh(host, options.ssh_port)
            if options.web_port is not None:
                web_host = options.web_listen if options.web_listen is not None else host
                await self._start_web(web_host, options.web_port, ip)
        except BaseException:
            await self.stop()
            raise
        listening = self.listening
        await self.in_thread(lambda db: table_seats.server_started(
            db, self.pid, socket.gethostname(), listening.ssh_port, listening.web_url,
            self.now()))
        self._watch()
        for way, port in (("ssh", listening.ssh_port), ("web", listening.web_port)):
            if port is not None:
                self._refill(way)
        return listening

    async def _start_ssh(self, host: str, port: int) -> None:
        import asyncssh

        from ka_tui.server.host_key import fingerprint, load_host_key
        from ka_tui.server.ssh import TableSSHServer

        key = load_host_key(self.options.host_key_folder)
        self._ssh = await asyncssh.create_server(
            lambda: TableSSHServer(self), host or None, port, server_host_keys=[key],
            encoding=None, line_editor=False, allow_pty=True, agent_forwarding=False,
            x11_forwarding=False, allow_scp=False, sftp_factory=None, login_timeout=60,
            keepalive_interval=15, keepalive_count_max=4)
        self.listening.ssh_port = int(self._ssh.sockets[0].getsockname()[1])
        self.listening.host_key = fingerprint(key)

    async def _start_web(self, host: str, port: int, ip: str) -> None:
        from ka_tui.server.web import TableWeb

        self._web = TableWeb(self, host, port, self.options.public_url or "")
        addresses = await self._web.start()
        self.listening.web_port = addresses[0][1] if addresses else port
        shown = host if host not in ("", "0.0.0.0", "::") else ip  # noqa: S104 - a comparison
        if ":" in shown:
            shown = f"[{shown}]"
        self.listening.web_url = (self.options.public_url or
                                  f"http://{shown}:{self.listening.web_port}").rstrip("/")

    def _watch(self) -> None:
        from ka_tui.store.watch import CampaignWatcher

        loop = self._loop
        assert loop is not None

        def changed(areas: frozenset[str]) -> None:
            if "table" in areas:
                loop.call_soon_threadsafe(lambda: loop.create_task(self.apply_drops()))

        self._watcher = CampaignWatcher(self.db.connect, changed,
                                        interval=self.options.watch_interval)
        self._watcher.start()

    async def apply_drops(self) -> None:
        """Close the connections the GM asked to drop (or whose way in he revoked)."""
        asked = await self.in_thread(lambda db: table_seats.drops_asked(db, self.pid))
        for connection_id in asked:
            session = self.sessions.get(connection_id)
            if session is not None:
                session.drop("the GM closed your connection")
            else:  # not ours to end gracefully any more: just mark it
                await self.in_thread(self._mark_dropped(connection_id))

    def _mark_dropped(self, connection_id: int) -> Callable[[CampaignDB], None]:
        return lambda db: table_seats.connection_closed(db, connection_id, "dropped",
                                                        self.now())

    async def stop(self) -> None:
        """Every view closed, every connection ended, the file told."""
        self._stopping = True
        for seat in list(self._spares.values()):
            await self._end_spare(seat)
        self._spares.clear()
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher = None
        for session in list(self.sessions.values()):
            session.drop("the table server stopped")
        for _ in range(50):  # the views end (each puts its terminal back) within 5 s
            if not self.sessions:
                break
            await asyncio.sleep(0.1)
        if self._ssh is not None:
            self._ssh.close()
            await self._ssh.wait_closed()
            self._ssh = None
        if self._web is not None:
            await self._web.stop()
            self._web = None
        await self.in_thread(lambda db: table_seats.server_stopped(db, self.pid, self.now()))

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self.db.close()

    async def serve_until_stopped(self) -> None:
        """Start, then run until SIGINT or SIGTERM (ctrl+c), then stop."""
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(sig, stop.set)
        await self.start()
        await stop.wait()
        await self.stop()


class ServerThread:
    """The table server in a thread of its own, with its own event loop
    (tests and benchmarks run it in-process beside their clients)."""

    def __init__(self, server: TableServer) -> None:
        self.server = server
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="ka-table-server",
                                        daemon=True)

    def start(self, timeout: float = 30) -> Listening:
        self._thread.start()
        return asyncio.run_coroutine_threadsafe(self.server.start(), self.loop).result(timeout)

    def call(self, make: Callable[[], Any], timeout: float = 30) -> Any:
        """Run a coroutine made by ``make`` on the server's loop; its result."""
        async def run() -> Any:
            return await make()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout)

    def stop(self, timeout: float = 30) -> None:
        try:
            asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(timeout)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(timeout)
            self.server.close()
