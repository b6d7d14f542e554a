"""The table server's SSH side, on asyncssh.

``ssh -p PORT kasia@host``: the name before ``@`` is the character (his first
name, or his full name with dots), the key is the proof. Sign-in is by
public key only:

- a key the GM bound to that character (``store/table_seats.py``) lets the
  player in at once;
- a key the table does not know is let in only while the character has an
  open join code, and then only as far as a prompt for that code: the right
  code enrols the key (the one the client has just proved it holds) and
  starts the view; three wrong tries close the connection;
- anything else is refused, and the reason is said in one line (as the
  instruction of a keyboard-interactive round that asks nothing, which
  OpenSSH's ``ssh`` prints after its keys were refused).

A connection may open one session, with a pty and a shell: the player's
view (``seat_process.PtySeat``), with his window size passed on. Everything
else SSH offers is refused: exec (``ssh host cmd``), subsystems (sftp, scp),
port forwarding either way, agent and X11 forwarding; the client's
environment requests are never passed to the view.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import asyncssh

from ka_tui.store import table_seats
from ka_tui.store.errors import StoreError
from ka_tui.store.table_seats import Admitted, NotAdmitted, PublicKey

if TYPE_CHECKING:
    from ka_tui.server.table import TableServer

NO_KEY = ("the table takes SSH keys only: make one with `ssh-keygen -t ed25519`, then ask "
          "the GM to add it or for a join code")
NO_TERMINAL = "the player's view needs a terminal: connect with ssh -t"
JOIN_TRIES = 3
_REASON_ORDER = ("revoked", "'s", "")


def public_key(key: asyncssh.SSHKey) -> PublicKey:
    data = key.public_data
    return PublicKey(key.algorithm.decode("ascii"), base64.b64encode(data).decode("ascii"),
                     key.get_comment() or "")


class TableSSHServer(asyncssh.SSHServer):
    """One SSH connection to the table: who it is, once signed in."""

    def __init__(self, table: TableServer) -> None:
        self.table = table
        self.conn: asyncssh.SSHServerConnection | None = None
        self.peer = ""
        self.who: Admitted | None = None           # in, as this character
        self.joining: tuple[Admitted, PublicKey] | None = None  # in as far as the code prompt
        self._pending: tuple[Admitted | None, tuple[Admitted, PublicKey] | None] = (None, None)
        self._reasons: list[str] = []
        self._explained = False
        self.session: PlayerSession | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.peer = str(peer[0]) if peer else ""

    def connection_lost(self, exc: Exception | None) -> None:
        if self.session is not None:
            self.session.hang_up()

    # -- signing in ------------------------------------------------------------------

    def begin_auth(self, username: str) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Called for the client's offer and again with its signature; what the
        last call found is what the connection gets (``auth_completed``)."""
        self._pending = (None, None)
        offered = public_key(key)
        try:
            who = await self.table.in_thread(
                lambda db: table_seats.admit_key(db, username, offered))
        except NotAdmitted:
            try:
                join = await self.table.in_thread(
                    lambda db: table_seats.join_code_open(db, username, offered,
                                                          self.table.now()))
            except NotAdmitted as why:  # says more than admit_key's refusal
                self._reasons.append(str(why))
                return False
            except StoreError as error:
                self._reasons.append(str(error))
                return False
            self._pending = (None, (join, offered))
            return True
        except StoreError as error:
            self._reasons.append(str(error))
            return False
        self._pending = (who, None)
        return True

    def auth_completed(self) -> None:
        self.who, self.joining = self._pending

    def kbdint_auth_supported(self) -> bool:
        """Only to say, once, why the keys were refused (it asks nothing)."""
        return not self._explained

    def get_kbdint_challenge(self, username: str, lang: str,
                             submethods: str) -> tuple[str, str, str, list[tuple[str, bool]]]:
        self._explained = True
        return "", f"ka-tui: {self.refusal()}", "en-US", []

    def validate_kbdint_response(self, username: str, responses: Sequence[str]) -> bool:
        return False

    def refusal(self) -> str:
        """The one line that says why: the most telling reason heard."""
        if not self._reasons:
            return NO_KEY
        for word in _REASON_ORDER:
            for reason in self._reasons:
                if word in reason:
                    return reason
        return self._reasons[0]

    # -- what a signed-in player may open: one session, nothing else ----------------

    def session_requested(self) -> asyncssh.SSHServerSession[bytes] | bool:
        if self.session is not None or (self.who is None and self.joining is None):
            return False
        self.session = PlayerSession(self)
        return self.session

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str,
                             orig_port: int) -> bool:
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        return False


class PlayerSession(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """The one session of a connection: a pty and a shell, the player's view."""

    def __init__(self, server: TableSSHServer) -> None:
        self.server = server
        self.table = server.table
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term = "xterm-256color"
        self.size = (80, 24)
        self.has_pty = False
        self.seat: Any = None
        self.connection_id: int | None = None
        self.goodbye = ""
        self._typed = ""
        self._held = b""
        self.seat_starting = False
        self._tries = 0
        self._checking = False
        self._closed = False

    # -- asyncssh's calls -----------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: object) -> bool:
        self.has_pty = True
        if term_type and term_type.isprintable() and len(term_type) < 60:
            self.term = term_type
        if term_size[0] and term_size[1]:
            self.size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def break_received(self, msec: int) -> bool:
        return False

    def signal_received(self, signal: str) -> None:
        return None

    def session_started(self) -> None:
        if not self.has_pty:
            self._say_and_close(NO_TERMINAL, 1)
            return
        if self.server.joining is not None:
            join, _key = self.server.joining
            self._write(f"ka-tui: joining the table as {join.name}.\r\n"
                        "Type the join code the GM gave you: ")
            return
        asyncio.get_running_loop().create_task(self._start_view())

    def data_received(self, data: bytes, datatype: int | None) -> None:
        if self.seat is not None:
            self.seat.write(data)
        elif self._checking or self.seat_starting:
            self._held += data   # typed while a code is checked or the view starts
        elif self.server.joining is not None:
            self._typed_code(data)

    def eof_received(self) -> bool:
        self.hang_up()
        return False

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        if width and height:
            self.size = (width, height)
            if self.seat is not None:
                self.seat.resize(width, height)

    def pause_writing(self) -> None:
        if self.seat is not None:
            self.seat.pause_output()

    def resume_writing(self) -> None:
        if self.seat is not None:
            self.seat.resume_output()

    def connection_lost(self, exc: Exception | None) -> None:
        self.hang_up()

    # -- the join code --------------------------------------------------------------

    def _typed_code(self, data: bytes) -> None:
        for i, byte in enumerate(data):
            char = chr(byte)
            if char in "\r\n":
                self._checking = True
                self._held = data[i + 1:]
                asyncio.get_running_loop().create_task(self._check_code(self._typed))
                self._typed = ""
                return
            if char in "\x03\x04":
                self._say_and_close("no code typed; bye", 1)
                return
            if char in "\x7f\x08":
                if self._typed:
                    self._typed = self._typed[:-1]
                    self._write("\b \b")
            elif char.isascii() and (char.isalnum() or char in "- ") and len(self._typed) < 24:
                self._typed += char
                self._write(char.upper())

    async def _check_code(self, code: str) -> None:
        assert self.server.joining is not None
        join, key = self.server.joining
        try:
            who = await self.table.in_thread(
                lambda db: table_seats.use_join_code(db, join.character_id, code, key,
                                                     self.table.now()))
        except StoreError as error:
            self._tries += 1
            left = JOIN_TRIES - self._tries
            if left <= 0 or "wrong" not in str(error):
                self._say_and_close(str(error), 1)
                return
            self._write(f"\r\nka-tui: {error} ({left} {'try' if left == 1 else 'tries'} "
                        "left)\r\nType the join code the GM gave you: ")
            self._checking = False
            held, self._held = self._held, b""
            if held:
                self._typed_code(held)
            return
        self.server.who, self.server.joining = who, None
        self._checking = False
        self._held = b""   # the code's line is done; the view gets what comes next
        self.table.say(f"{who.name} enrolled a key with a join code ({key.fingerprint})")
        self._write(f"\r\nka-tui: welcome, {who.name}. Your key is enrolled: from now on "
                    "this same ssh command lets you straight in.\r\n")
        await self._start_view()

    # -- the view ------------------------------------------------------------------

    async def _start_view(self) -> None:
        who = self.server.who
        if who is None or self._closed:
            return
        self.seat_starting = True
        self.connection_id = await self.table.opened(who, "ssh", self.server.peer, self)
        if self._closed:
            await self.table.closed(self.connection_id, "left")
            return
        try:
            self.seat = await self.table.pty_seat(who, self.term, *self.size,
                                                  on_output=self._write_bytes,
                                                  on_exit=self._view_ended)
            held, self._held = self._held, b""
            if held:   # keys typed before the view was there: in order, first
                self.seat.write(held)
        except OSError as error:
            self.seat = None
            await self.table.closed(self.connection_id, f"could not start: {error}")
            self._say_and_close("the table could not start your view; tell the GM", 1)

    def _view_ended(self, code: int) -> None:
        if self.connection_id is not None:
            why = self.goodbye or ("left" if code == 0 else f"the view failed (exit code {code})")
            asyncio.get_running_loop().create_task(self.table.closed(self.connection_id, why))
        if self.goodbye:
            self._say_and_close(self.goodbye, 1)
        else:
            self._close(0 if code == 0 else 1)

    def drop(self, why: str) -> None:
        """The GM (or the server stopping) ends this connection; the view is
        closed first, so the player's terminal is put back, then he is told."""
        self.goodbye = why
        if self.seat is not None:
            self.seat.stop()
        else:
            self._say_and_close(why, 1)

    def hang_up(self) -> None:
        """The player's side went away: end his view."""
        if self._closed:
            return
        self._closed = True
        if self.seat is not None:
            self.seat.stop()

    # -- writing -------------------------------------------------------------------

    def _write_bytes(self, data: bytes) -> None:
        if self.chan is not None and not self._closed:
            with contextlib.suppress(OSError, asyncssh.Error):
                self.chan.write(data)

    def _write(self, text: str) -> None:
        self._write_bytes(text.encode("utf-8", "replace"))

    def _say_and_close(self, line: str, code: int) -> None:
        self._write(f"\r\nka-tui: {line}\r\n")
        self._close(code)

    def _close(self, code: int) -> None:
        if self.chan is None:
            return
        with contextlib.suppress(OSError, asyncssh.Error):
            self.chan.exit(code)
        self._closed = True
