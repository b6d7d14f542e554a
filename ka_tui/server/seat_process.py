"""A player's view as a child process of the table server.

Every connection runs ``seat_app.py`` (``ka-tui``'s player app) in a process
of its own, as the GM's user: it reads and writes the campaign file, the
player gets only its screen. Why a process and not an app in the server's
own loop: Textual runs one app per process (its driver owns the process's
terminal, signals and standard streams); a fault or a flood of bytes in one
player's view ends his process only, never the server nor another player's
view; and a player who leaves costs nothing, his process ending with his
connection.

Its environment is the GM's, reduced to what the app needs (``seat_env``):
nothing the player's client sends (SSH ``env`` requests) is ever in it.
``PtySeat`` runs it on a pseudo-terminal for an SSH connection, in raw mode
from the start (no line discipline between the player's keys and the app),
with window-size changes passed on; ``ViewPipe`` carries back where the
player is (``player_app.SeatView``), for his next connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import json
import os
import signal
import struct
import sys
import termios
import tty
from collections.abc import Callable, Mapping
from pathlib import Path

from ka_tui.server.seat_app import ORDER_FD, VIEW_FD

# The GM's variables a player's app may need; everything else stays out.
_KEPT = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR",
         "PYTHONPATH", "VIRTUAL_ENV", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME",
         "XDG_STATE_HOME", "KA_TUI_FULL_REPAINT", "TEXTUAL_ANIMATIONS")


def seat_argv(db: Path, name: str, view: Mapping[str, object] | None) -> list[str]:
    argv = [sys.executable, "-m", "ka_tui.server.seat_app", "--db", str(db), "--as", name]
    if view:
        argv += ["--view", json.dumps(dict(view))]
    return argv


def spare_argv(db: Path) -> list[str]:
    """A spare view: loaded, waiting for its player (``seat_app --wait``)."""
    return [sys.executable, "-m", "ka_tui.server.seat_app", "--db", str(db), "--wait"]


class SeatOrders:
    """The pipe a spare waits on for its order (``seat_app.ORDER_FD``)."""

    def __init__(self) -> None:
        self.read_fd, self.write_fd = os.pipe()

    def child_started(self) -> None:
        fd, self.read_fd = self.read_fd, -1
        with contextlib.suppress(OSError):
            os.close(fd)

    def send(self, name: str, view: Mapping[str, object] | None,
             env: Mapping[str, str]) -> None:
        """One order, then the pipe is closed (a spare takes one player)."""
        line = json.dumps({"name": name, "view": dict(view) if view else None,
                           "env": dict(env)}) + "\n"
        fd, self.write_fd = self.write_fd, -1
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)

    def close(self) -> None:
        for name in ("read_fd", "write_fd"):
            fd = getattr(self, name)
            setattr(self, name, -1)
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)


def seat_env(extra: Mapping[str, str]) -> dict[str, str]:
    env = {k: os.environ[k] for k in _KEPT if k in os.environ}
    env.setdefault("LANG", "C.UTF-8")
    env.update(extra)
    return env


QUIT_KEY = b"\x11"  # ctrl+q: Textual's quit, a priority binding
# What a Textual app turns on in the player's terminal, turned off again
# (alternate screen, hidden cursor, mouse reports, bracketed paste, focus
# events, the kitty keyboard protocol, colours): sent after the app ends, so
# a view that was killed leaves the player's terminal usable.
TERMINAL_RESET = (b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?2004l"
                  b"\x1b[?1004l\x1b[<u\x1b[0m\x1b[?25h\x1b[?1049l")


class ViewPipe:
    """The child's reports of where the player is: JSON lines on a pipe."""

    def __init__(self, on_view: Callable[[dict[str, object]], None]) -> None:
        self.read_fd, self.write_fd = os.pipe()
        os.set_blocking(self.read_fd, False)
        self._on_view = on_view
        self._buffer = b""
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(self.read_fd, self._readable)

    def child_started(self) -> None:
        """The child has its end: close ours of it."""
        self._close_write()

    def _close_write(self) -> None:
        # each descriptor is closed once: its number may be reused at once (a
        # campaign file's), and a second close would close that one
        fd, self.write_fd = self.write_fd, -1
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)

    def _readable(self) -> None:
        if self.read_fd < 0:
            return
        try:
            data = os.read(self.read_fd, 4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.close()
            return
        self._buffer = (self._buffer + data)[-65536:]
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            try:
                view = json.loads(line)
            except ValueError:
                continue
            if isinstance(view, dict):
                self._on_view(view)

    def close(self) -> None:
        self._close_write()
        fd, self.read_fd = self.read_fd, -1
        if fd >= 0:
            with contextlib.suppress(ValueError, OSError):
                self._loop.remove_reader(fd)
            with contextlib.suppress(OSError):
                os.close(fd)


def set_size(fd: int, cols: int, rows: int) -> None:
    cols, rows = max(1, min(cols, 1000)), max(1, min(rows, 1000))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


class PtySeat:
    """The player's app on a pseudo-terminal: bytes in from the player's
    client (``write``), bytes out to ``on_output``; ``on_exit(code)`` once the
    app has ended and its last bytes are out; ``on_view`` hears where he is.
    Started ``spare`` it waits, loaded, for ``order``."""

    def __init__(self, argv: list[str], env: Mapping[str, str]) -> None:
        self.argv = argv
        self.env = dict(env)
        self.on_output: Callable[[bytes], None] = lambda data: None
        self.on_exit: Callable[[int], None] = lambda code: None
        self.on_view: Callable[[dict[str, object]], None] = lambda view: None
        self._orders: SeatOrders | None = None
        self.process: asyncio.subprocess.Process | None = None
        self.master = -1
        self._pending = b""
        self._reading = False
        self._writing = False
        self._paused = False
        self._ended = False
        self._views: ViewPipe | None = None

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None and \
            not self._ended

    async def start(self, cols: int, rows: int, *, spare: bool = False) -> None:
        loop = asyncio.get_running_loop()
        master, slave = os.openpty()
        try:
            tty.setraw(slave)  # the app's keys as typed, from the first byte on
            set_size(slave, cols, rows)
            self._views = ViewPipe(lambda view: self.on_view(view))
            env = {**self.env, VIEW_FD: str(self._views.write_fd)}
            fds = [self._views.write_fd]
            if spare:
                self._orders = SeatOrders()
                env[ORDER_FD] = str(self._orders.read_fd)
                fds.append(self._orders.read_fd)
            self.process = await asyncio.create_subprocess_exec(
                *self.argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                start_new_session=True, close_fds=True, pass_fds=tuple(fds))
        except BaseException:
            os.close(master)
            if self._views is not None:
                self._views.close()
            if self._orders is not None:
                self._orders.close()
            raise
        finally:
            os.close(slave)
        self._views.child_started()
        if self._orders is not None:
            self._orders.child_started()
        self.master = master
        os.set_blocking(master, False)
        self._watch_output(True)
        loop.create_task(self._reap())

    def order(self, name: str, view: Mapping[str, object] | None, env: Mapping[str, str],
              cols: int, rows: int) -> None:
        """A spare's player: his window's size first, then who he is."""
        assert self._orders is not None, "not a spare"
        self.resize(cols, rows)
        self._orders.send(name, view, env)

    def _watch_output(self, on: bool) -> None:
        loop = asyncio.get_running_loop()
        if on and not self._reading and self.master >= 0:
            loop.add_reader(self.master, self._readable)
            self._reading = True
        elif not on and self._reading:
            loop.remove_reader(self.master)
            self._reading = False

    def _readable(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError as e:  # EIO: every holder of the pty's other end has gone
            if e.errno != errno.EIO:
                raise
            data = b""
        if not data:
            self._watch_output(False)
            return
        self.on_output(data)

    def pause_output(self) -> None:
        """The player's side is not keeping up: stop reading (the app waits)."""
        self._paused = True
        self._watch_output(False)

    def resume_output(self) -> None:
        self._paused = False
        if not self._ended:
            self._watch_output(True)

    def write(self, data: bytes) -> None:
        """The player's keys, as they came; kept in order when the pty is full."""
        if self._ended or self.master < 0:
            return
        self._pending += data
        self._flush()

    def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending:
            try:
                done = os.write(self.master, self._pending[:4096])
            except BlockingIOError:
                break
            except OSError:
                self._pending = b""
                break
            self._pending = self._pending[done:]
        if self._pending and not self._writing:
            loop.add_writer(self.master, self._flush)
            self._writing = True
        elif not self._pending and self._writing:
            loop.remove_writer(self.master)
            self._writing = False

    def resize(self, cols: int, rows: int) -> None:
        if self.master >= 0 and not self._ended:
            with contextlib.suppress(OSError):
                set_size(self.master, cols, rows)

    def stop(self, grace: float = 2.0) -> None:
        """End the app as its quit key does (``ctrl+q``, bound above everything,
        so it puts the player's terminal back as it found it); a hangup if it
        is still there after ``grace`` seconds, then a kill."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        if self._orders is not None and self._orders.write_fd >= 0:
            self._orders.close()   # a spare never ordered: it ends at once
        else:
            self._pending = b""
            self.write(QUIT_KEY)
        loop = asyncio.get_running_loop()

        def signal_group(sig: int) -> None:
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, sig)

        loop.call_later(grace, signal_group, signal.SIGHUP)
        loop.call_later(2 * grace, signal_group, signal.SIGKILL)

    async def _reap(self) -> None:
        assert self.process is not None
        code = await self.process.wait()
        # the last frame (the terminal put back) may still be in the pty
        if self.master >= 0 and not self._paused:
            for _ in range(64):
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    break
                if not data:
                    break
                self.on_output(data)
            self.on_output(TERMINAL_RESET)
        self._ended = True
        self._watch_output(False)
        if self._writing:
            asyncio.get_running_loop().remove_writer(self.master)
            self._writing = False
        with contextlib.suppress(OSError):
            os.close(self.master)
        self.master = -1
        if self._views is not None:
            self._views.close()
        if self._orders is not None:
            self._orders.close()
        self.on_exit(code)
