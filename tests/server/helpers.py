"""Real clients of the table server: asyncssh's SSH client on a pty, and
Chromium through Playwright; what each received is kept (every byte) and
drawn on a terminal emulator (pyte), so a test reads the player's screen
and can assert on everything that reached him."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncssh
import pyte
import pytest

from ka_tui.server.table import Listening, ServeOptions, ServerThread, TableServer
from ka_tui.store import table_seats
from ka_tui.store.db import CampaignDB
from tests.ui.pilot_helpers import rows as rows

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]
WAIT = 30.0   # a view's first frame on a loaded 2-core machine


def now() -> datetime:
    return datetime.now(UTC)


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519", comment="player@laptop")


def gm(db: Path) -> CampaignDB:
    """The campaign as the GM's own ka-tui writes to it, through connections
    of its own. Not ``open_campaign``: its header check opens the file
    outside SQLite, and closing that descriptor drops every POSIX lock this
    process holds on the file, the in-process server's included (SQLite's
    documented hazard), after which another process may delete the WAL under
    the server's feet. A real GM's ka-tui is another process."""
    return CampaignDB(db)


def add_key(db: Path, name: str, key: asyncssh.SSHKey) -> None:
    with gm(db) as campaign:
        table_seats.add_key(campaign, name, key.export_public_key().decode(), now())


def join_code(db: Path, name: str) -> str:
    with gm(db) as campaign:
        return table_seats.make_join_code(campaign, name, now())


def link(db: Path, name: str) -> str:
    with gm(db) as campaign:
        return table_seats.make_link(campaign, name, now())


@dataclass
class Table:
    """A table server started in-process for a test module."""

    db: Path
    thread: ServerThread
    listening: Listening
    said: list[str] = field(default_factory=list)

    @property
    def server(self) -> TableServer:
        return self.thread.server

    def web(self, token: str) -> str:
        return f"http://127.0.0.1:{self.listening.web_port}/P/{token}"

    def open_connections(self) -> list[tuple[Any, ...]]:
        return rows(self.db, "SELECT c.id, h.name, c.way FROM table_connection c JOIN "
                             "character h ON h.id = c.character_id WHERE ended_at IS NULL "
                             "ORDER BY c.id")


@contextmanager
def running_table(db: Path, folder: Path, *, ssh: bool = True,
                  web: bool = True) -> Iterator[Table]:
    said: list[str] = []
    server = TableServer(db, ServeOptions(listen="127.0.0.1", ssh_port=0 if ssh else None,
                                          web_port=0 if web else None,
                                          host_key_folder=folder),
                         say=said.append)
    thread = ServerThread(server)
    listening = thread.start()
    try:
        yield Table(db, thread, listening, said)
    finally:
        thread.stop()


def demo_copy(template: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "demo.db"
    shutil.copyfile(template, path)
    os.chmod(path, 0o600)
    return path


class Screen:
    """What a player's terminal shows, from the bytes it received."""

    def __init__(self, cols: int = 80, lines: int = 24) -> None:
        self.screen = pyte.Screen(cols, lines)
        self.stream = pyte.ByteStream(self.screen)
        self.received = bytearray()

    def feed(self, data: bytes) -> None:
        self.received.extend(data)
        self.stream.feed(data)

    def resize(self, cols: int, lines: int) -> None:
        self.screen.resize(lines, cols)

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)


async def wait_until(check: Callable[[], bool], what: Callable[[], str],
                     timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        await asyncio.sleep(0.05)
    assert check(), f"not in time: {what()}"


class _Collect(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.closed = asyncio.Event()

    def data_received(self, data: bytes, datatype: object) -> None:
        self.screen.feed(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()


class Refusals(asyncssh.SSHClient):
    """Keeps what the server says while refusing (keyboard-interactive's
    instruction, as OpenSSH's ssh prints it)."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name: str, instructions: str, lang: str,
                                  prompts: list[tuple[str, bool]]) -> list[str]:
        self.said.append(instructions)
        return [""] * len(prompts)


class SshPlayer:
    """asyncssh's client with a pty and a shell, as ``ssh -p PORT NAME@host``."""

    def __init__(self, table: Table | int, username: str, key: asyncssh.SSHKey,
                 size: tuple[int, int] = (80, 24)) -> None:
        """``table``: a server started here, or the SSH port of one elsewhere."""
        self.port = table if isinstance(table, int) else table.listening.ssh_port
        self.username, self.key, self.size = username, key, size
        self.screen = Screen(*size)
        self.conn: asyncssh.SSHClientConnection | None = None
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None
        self.session: _Collect | None = None

    async def connect(self, **options: Any) -> SshPlayer:
        self.conn = await asyncssh.connect(
            "127.0.0.1", self.port, username=self.username,
            client_keys=[self.key], known_hosts=None, agent_path=None, **options)
        self.chan, self.session = await self.conn.create_session(
            lambda: _Collect(self.screen), term_type="xterm-256color",
            term_size=self.size, encoding=None)
        return self

    async def shows(self, text: str, timeout: float = WAIT) -> None:
        await wait_until(lambda: text in self.screen.text, lambda: self.screen.text, timeout)

    def send(self, data: bytes | str) -> None:
        assert self.chan is not None
        self.chan.write(data.encode() if isinstance(data, str) else data)

    async def keys(self, *keys: str, pause: float = 0.15) -> None:
        """Keys one at a time, as a person types them."""
        for key in keys:
            self.send(KEYS.get(key, key))
            await asyncio.sleep(pause)

    async def ended(self, timeout: float = WAIT) -> int | None:
        assert self.session is not None and self.chan is not None
        await asyncio.wait_for(self.session.closed.wait(), timeout)
        return self.chan.get_exit_status()

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            await self.conn.wait_closed()


KEYS = {"enter": b"\r", "escape": b"\x1b", "tab": b"\t", "backspace": b"\x7f",
        "delete": b"\x1b[3~", "right": b"\x1b[C", "left": b"\x1b[D", "up": b"\x1b[A",
        "down": b"\x1b[B", "ctrl+q": b"\x11", "ctrl+p": b"\x10"}


def need_chromium() -> None:
    """The browser tests need Debian's chromium (README: Quick start); in CI
    (.ci/run installs it) its absence is a failure, elsewhere a skip."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs it (apt-get install chromium)")
        pytest.skip(f"no {CHROMIUM}: apt-get install chromium")


class TerminalProcess:
    """A ka-tui process of its own on an 80x24 pseudo-terminal (the GM at his
    own terminal): keys in, the screen read through the terminal emulator."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        import fcntl
        import struct
        import subprocess
        import termios

        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.screen = Screen(80, 24)
        self.process = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, close_fds=True,
            start_new_session=True, env={**os.environ, "TERM": "xterm-256color", **(env or {})})
        os.close(slave)

    def pump(self, wait: float = 0.05) -> None:
        import select

        while True:
            ready, _, _ = select.select([self.master], [], [], wait)
            if not ready:
                return
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            self.screen.feed(data)
            wait = 0

    def shows(self, text: str, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.pump()
            if text in self.screen.text:
                return
        assert text in self.screen.text, self.screen.text

    def keys(self, *keys: str) -> None:
        for key in keys:
            os.write(self.master, KEYS.get(key, key.encode()))
            self.pump(0.15)

    def close(self) -> None:
        import signal

        if self.process.poll() is None:
            with contextlib.suppress(OSError):
                os.write(self.master, b"\x11")
            try:
                self.process.wait(5)
            except Exception:  # noqa: BLE001 - it did not quit: killed
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)
        os.close(self.master)
