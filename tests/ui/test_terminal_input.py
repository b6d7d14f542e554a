"""Any bytes from a terminal leave the app running (``textual_compat.terminal_input``).

The input layer the app's driver reads through, fed random bytes in random
reads (hypothesis): it never raises, and what it hands the app can be shown.
Then the real ``ka-tui`` (the GM's app and a player's) in a pseudo-terminal:
a Latin-1 ``é`` and a 22-byte escape sequence used to kill it with a
traceback (``UnicodeDecodeError``; ``ValueError: chr() arg not in range``);
now it goes on and answers the next key.
"""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual import events
from textual.drivers.linux_driver import LinuxDriver

from ka_tui.textual_compat.terminal_input import MAX_CELLS, PENDING_S, TerminalInput, tolerant_driver
from ka_tui.textual_compat.tricks import Trick, tricks_off

LATIN1_E = bytes.fromhex("e920")  # tmux send-keys -H e9 20
HUGE_MOVE = b"\x1b[999999999;999999999H"  # 22 bytes
NASTY = [LATIN1_E, HUGE_MOVE, b"\x1b[97;1;1114112u", b"\x1b[55296u", b"\x1b[1:u",
         b"\x1b[48;99999;99999;1;1t", b"\x1b[<0;999999999;999999999M", b"\xff\xfe\x80",
         b"\x1b[200~\xe9\x00\x1b[201~", b"\x1b\x1b[[[\xc3"]

# bytes a terminal sends, with the parser's favourite characters over-represented
_PIECES = st.sampled_from([b"\x1b", b"[", b"<", b";", b":", b"?", b"$", b"~", b"u", b"M",
                           b"m", b"t", b"H", b"R", b"y", b"A", b"1", b"9", b"48", b"200~",
                           b"201~", b"\xe9", b"\xc3", b"\xa9", b"\x80", b"\xff", b"\x00",
                           b"a", b" ", b"\r", b"\x7f"])
_BYTES = st.one_of(st.binary(max_size=64),
                   st.lists(_PIECES, max_size=40).map(b"".join))


def _showable(message: events.Event) -> None:
    if isinstance(message, events.Key):
        message.key.encode("utf-8")
        if message.character is not None:
            message.character.encode("utf-8")
    if isinstance(message, events.Paste):
        message.text.encode("utf-8")
    if isinstance(message, events.Resize):
        assert 0 < message.size.width <= MAX_CELLS and 0 < message.size.height <= MAX_CELLS


@given(st.lists(_BYTES, min_size=1, max_size=8))
def test_any_bytes_in_any_reads_never_raise_and_give_showable_input(reads: list[bytes]) -> None:
    terminal = TerminalInput()
    for data in reads:
        for message in terminal.feed(data):
            _showable(message)  # type: ignore[arg-type]
        for message in terminal.tick():
            _showable(message)  # type: ignore[arg-type]
    for message in terminal.end():
        _showable(message)  # type: ignore[arg-type]
    assert terminal.restarts == 0  # the known faults are handled, not caught late


@pytest.mark.parametrize("data", NASTY, ids=lambda d: d.hex())
def test_what_used_to_stop_the_app_leaves_the_next_key_alone(data: bytes) -> None:
    terminal = TerminalInput()
    terminal.feed(data)
    keys = [m.key for m in terminal.feed(b"\x1b[Bq") if isinstance(m, events.Key)]
    assert keys[-2:] == ["down", "q"]


def test_a_latin1_letter_arrives_as_typed() -> None:
    terminal = TerminalInput()
    keys = [m.character for m in terminal.feed(LATIN1_E) if isinstance(m, events.Key)]
    assert keys == ["é", " "]


def test_a_utf8_letter_split_over_two_reads_arrives_once() -> None:
    terminal = TerminalInput()
    assert terminal.feed(b"\xc3") == []
    keys = [m.character for m in terminal.feed(b"\xa9") if isinstance(m, events.Key)]
    assert keys == ["é"]


def test_a_lone_latin1_byte_at_the_end_of_a_read_comes_when_nothing_follows() -> None:
    terminal = TerminalInput()
    assert terminal.feed(b"Jos\xe9")[-1].key == "s"  # type: ignore[attr-defined]
    time.sleep(PENDING_S * 1.5)  # at least that long without a byte
    assert [m.character for m in terminal.tick()] == ["é"]  # type: ignore[attr-defined]


def test_the_app_reads_its_terminal_through_it_unless_switched_off() -> None:
    driver = tolerant_driver(LinuxDriver)
    assert issubclass(driver, LinuxDriver) and driver is not LinuxDriver
    assert driver.run_input_thread is not LinuxDriver.run_input_thread
    with tricks_off(Trick.TOLERANT_INPUT):
        assert tolerant_driver(LinuxDriver) is LinuxDriver


# ---------------------------------------------------------------- the real app


class _Pty:
    """``ka-tui ARGS`` on an 80x24 pseudo-terminal."""

    def __init__(self, args: list[str], home: Path) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "XDG_DATA_HOME": str(home),
               "XDG_STATE_HOME": str(home), "XDG_CONFIG_HOME": str(home)}
        env.pop("NO_COLOR", None)
        self.child = subprocess.Popen(
            [sys.executable, "-m", "ka_tui", *args], stdin=slave, stdout=slave,
            stderr=slave, env=env, start_new_session=True)
        os.close(slave)
        self.seen = b""

    def wait_for(self, marker: bytes, timeout: float = 30) -> bool:
        """Read until ``marker`` has come since the last wait (or the end)."""
        start = len(self.seen)
        deadline = time.monotonic() + timeout
        while marker not in self.seen[start:] and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    self.seen += os.read(self.master, 65536)
                except OSError:
                    break
            elif self.child.poll() is not None:
                break
        return marker in self.seen[start:]

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self) -> None:
        if self.child.poll() is None:
            self.child.kill()
        self.child.wait(timeout=10)
        os.close(self.master)


@pytest.mark.parametrize("player", [None, "Kasia Nowak"], ids=["gm", "player"])
def test_the_real_app_survives_what_a_terminal_sends(demo_db: Path, tmp_path: Path,
                                                     player: str | None) -> None:
    args = ["--db", str(demo_db)] if player is None else \
        ["play", "--as", player, "--db", str(demo_db)]
    app = _Pty(args, tmp_path)
    try:
        assert app.wait_for(b"palette"), app.seen[-2000:]  # the footer: drawn
        time.sleep(0.5)  # the first view's data and the footer settle
        for data in (LATIN1_E, HUGE_MOVE, b"\x1b[55296u", b"\x1b[48;99999;99999;1;1t"):
            app.send(data)
        app.send(b"?")
        assert app.wait_for(b"Keys"), app.seen[-2000:].decode(errors="replace")
        assert app.child.poll() is None
        assert b"Traceback" not in app.seen and b"site-packages" not in app.seen
    finally:
        app.close()


@pytest.mark.parametrize("player", [None, "Kasia Nowak"], ids=["gm", "player"])
def test_the_real_app_ends_when_its_terminal_goes_away(demo_db: Path, tmp_path: Path,
                                                      player: str | None) -> None:
    """The terminal closed under the app with no hang-up signal (``nohup``, a
    terminal that is not its controlling one): its input ends, and the app
    ends too, instead of reading an empty input forever at a full core and
    keeping the campaign open."""
    args = ["--db", str(demo_db)] if player is None else \
        ["play", "--as", player, "--db", str(demo_db)]
    app = _Pty(args, tmp_path)
    try:
        assert app.wait_for(b"palette"), app.seen[-2000:]
        os.close(app.master)
        app.master = os.open(os.devnull, os.O_RDONLY)   # closed by app.close()
        app.child.wait(timeout=30)
    finally:
        app.close()
