"""Any bytes from a terminal leave the app running (trick ``TOLERANT_INPUT``).

What: Textual's terminal drivers decode the keyboard's bytes as strict UTF-8
and hand the text to ``XTermParser`` (``textual._xterm_parser``) in their
input thread (``LinuxDriver.run_input_thread``, ``WebDriver.run_input_thread``);
an exception there ends the thread, and the Linux driver then stops the app
with a traceback. Found over SSH, true for the GM's own terminal too:

- one byte that is not UTF-8 (a Latin-1 terminal's ``é``, ``e9``):
  ``UnicodeDecodeError`` in the decoder;
- a Kitty-style key sequence naming no character (``ESC[999999999;999999999H``,
  ``ESC[97;1;1114112u``, ``ESC[1:u``): ``ValueError`` in
  ``XTermParser._sequence_to_key_events`` (``chr()`` or ``int()``); one naming
  a surrogate (``ESC[55296u``) made a key no terminal can show;
- an in-band resize report of any size (``ESC[48;99999;99999;1;1t``) resized
  the app to it.

``TerminalInput`` is the input layer instead: bytes that are not UTF-8 are
read as Latin-1 (a Latin-1 or cp1252 terminal's letters arrive as typed; the
C1 range as U+FFFD), also when the byte ends a read and nothing follows
(flushed by ``tick`` after ``PENDING_S``); a key sequence the parser cannot
read, or one naming a surrogate, is dropped (an ignored key, as Textual
drops the sequences it ignores); an in-band resize outside
1..``MAX_CELLS`` is dropped; and anything else the parser raises restarts it
(what it held is lost, the app goes on). ``tolerant_driver(base)`` is the
app's driver class with an input thread that reads through it -- a copy of
Textual's ``run_input_thread`` with the decoder and parser replaced and each
read guarded (the canary holds the copied method's digest).

Why: a player on another machine, a terminal in another encoding, line
noise over SSH or a hostile sequence must never stop the GM's table, nor
show a player a traceback with the install paths in it.

Gain: the app keeps running; none in speed. Its cost (``benchmarks/tricks.py``,
typed text, keys, mouse and Kitty sequences through it against Textual's own
decoder and parser): 1.0x to 1.25x the CPU, some microseconds a byte.

Switch: ``KA_TUI_TRICKS_OFF=tolerant-input``: Textual's own input thread.
"""

from __future__ import annotations

import codecs
import os
import selectors
import time
from collections.abc import Callable
from typing import Any

from textual import events
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver
from textual.keys import Keys
from textual.message import Message

from ka_tui.textual_compat.tricks import Trick, trick_on

ERRORS = "ka-tui-latin1"
"""The codec error handler: bytes that are not UTF-8, read as Latin-1."""
MAX_CELLS = 4096
"""The largest terminal side an in-band resize report may give."""
PENDING_S = 0.1
"""How long a byte that may begin a UTF-8 character waits for the rest."""

# sha256 of ``inspect.getsource`` of the Textual methods the drivers below copy
# (textual 8.2.8); the canary compares them.
COPIED_RUN_INPUT_THREAD = {
    "textual.drivers.linux_driver.LinuxDriver.run_input_thread":
        "d796af6d69db337d6fa6bd463984f7d17188d991dbb22f60efb92a8a9619507c",
    "textual.drivers.web_driver.WebDriver.run_input_thread":
        "3864aaf4ca91174934d9bf5c5bcc85ba8c2b26d904a78fbcf50509b8f4db1065",
}


def _as_latin1(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeDecodeError):
        raise error
    bad = error.object[error.start:error.end]
    return "".join(chr(b) if b >= 0xA0 else "\ufffd" for b in bad), error.end


codecs.register_error(ERRORS, _as_latin1)


def _showable(text: str | None) -> bool:
    return text is None or not any(0xD800 <= ord(c) <= 0xDFFF for c in text)


def _sane(message: Message) -> bool:
    if isinstance(message, events.Resize):
        width, height = message.size
        return 0 < width <= MAX_CELLS and 0 < height <= MAX_CELLS
    return True


class TolerantParser(XTermParser):
    """Textual's parser; a key sequence it cannot read is an ignored key."""

    def _sequence_to_key_events(self, sequence: str, alt: bool = False) -> Any:
        if len(sequence) == 1:  # a character the decoder gave: never a surrogate
            return super()._sequence_to_key_events(sequence, alt)
        return self._checked_keys(sequence, alt)

    def _checked_keys(self, sequence: str, alt: bool) -> Any:
        try:
            keys = list(super()._sequence_to_key_events(sequence, alt))
        except (ValueError, OverflowError, TypeError, KeyError, IndexError):
            keys = [events.Key(Keys.Ignore, None)]
        for key in keys:
            if _showable(key.key) and _showable(key.character):
                yield key
            else:
                yield events.Key(Keys.Ignore, None)

    def parse_mouse_code(self, code: str) -> Message | None:
        try:
            return super().parse_mouse_code(code)
        except (ValueError, OverflowError, ZeroDivisionError):
            return None


class TerminalInput:
    """Bytes in, Textual's input messages out (keys, mouse, paste, focus,
    resize); never raises (see the module doc)."""

    def __init__(self, debug: bool = False) -> None:
        self.debug = debug
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors=ERRORS)
        self._parser = TolerantParser(debug)
        self._last_read = 0.0
        self.restarts = 0  # how often the parser failed and was started afresh

    def feed(self, data: bytes, final: bool = False) -> list[Message]:
        """The messages ``data`` completes (the end of a read)."""
        self._last_read = time.monotonic()
        return self._parse(self._decoder.decode(data, final=final))

    def tick(self) -> list[Message]:
        """What waiting completes: a lone escape key, a pending byte read as
        Latin-1 once nothing followed it. Call it a few times a second."""
        out: list[Message] = []
        if self._decoder.getstate()[0] and time.monotonic() - self._last_read >= PENDING_S:
            out += self._parse(self._decoder.decode(b"", final=True))
        try:
            out += [m for m in self._parser.tick() if _sane(m)]
        except Exception:  # noqa: BLE001 - a parser bug must not stop the app
            self._restart()
        return out

    def end(self) -> list[Message]:
        """The end of input: what the parser still held."""
        out = self._parse(self._decoder.decode(b"", final=True))
        try:
            out += [m for m in self._parser.feed("") if _sane(m)]
        except Exception:  # noqa: BLE001 - ending anyway
            pass
        return out

    def _parse(self, text: str) -> list[Message]:
        if not text:
            return []
        out: list[Message] = []
        parser = self._parser
        known = (parser.terminal_size, parser.terminal_pixel_size, parser.mouse_pixels)
        try:
            for message in parser.feed(text):
                if _sane(message):
                    out.append(message)
                else:  # the parser took its size as the terminal's: not so
                    (parser.terminal_size, parser.terminal_pixel_size,
                     parser.mouse_pixels) = known
        except Exception:  # noqa: BLE001 - a parser bug must not stop the app
            self._restart()
        return out

    def _restart(self) -> None:
        self.restarts += 1
        self._parser = TolerantParser(self.debug)


def textual_input(debug: bool = False) -> Callable[[bytes], list[Message]]:
    """Textual's own input layer (strict UTF-8, ``XTermParser``), as its
    drivers read: the reference ``TerminalInput`` is measured against."""
    decode = codecs.getincrementaldecoder("utf-8")().decode
    parser = XTermParser(debug)
    return lambda data: list(parser.feed(decode(data)))


def _read_loop(driver: Any, fileno: int) -> None:
    """The Linux driver's input thread (Textual's ``run_input_thread``) reading
    through ``TerminalInput``, each read guarded."""
    selector = selectors.SelectSelector()
    selector.register(fileno, selectors.EVENT_READ)
    terminal = TerminalInput(getattr(driver, "_debug", False))

    def process(ready: list[tuple[selectors.SelectorKey, int]], final: bool = False) -> bool:
        """Read and hand on what is ready; False at the end of the input."""
        for n, (_key, mask) in enumerate(ready):
            if mask & selectors.EVENT_READ:
                data = os.read(fileno, 1024 * 4)
                if not data:
                    return False
                for message in terminal.feed(data, final=final and n == len(ready) - 1):
                    driver.process_message(message)
        for message in terminal.tick():
            driver.process_message(message)
        return True

    try:
        while not driver.exit_event.is_set():
            try:
                if not process(selector.select(0.1)):
                    _input_ended(driver)
                    return
            except OSError:  # EIO: the terminal hung up
                _input_ended(driver)
                return
            except Exception:  # noqa: BLE001 - never stop the app for what a terminal sent
                continue
        selector.unregister(fileno)
        process(selector.select(0.1), final=True)
    finally:
        selector.close()
        for message in terminal.end():
            pass


def _input_ended(driver: Any) -> None:
    """The terminal is gone (the end of its input, or EIO once it hung up
    and no SIGHUP came: ``nohup``, a terminal that is not the controlling
    one): nobody can type or see, so the app ends, every action being saved
    already, instead of reading an empty input forever at a full core."""
    app = driver._app
    try:
        app.call_from_thread(app.exit)
    except RuntimeError:  # the app's loop is gone already
        pass


def tolerant_driver(base: type[Any]) -> type[Any]:
    """``base`` (the app's driver class) with an input thread that any bytes
    leave running; ``base`` itself when it is not a terminal driver it knows,
    or when the trick is off."""
    if not trick_on(Trick.TOLERANT_INPUT):
        return base
    if issubclass(base, LinuxDriver):

        class TolerantLinuxDriver(base):  # type: ignore[misc]
            def run_input_thread(self) -> None:
                _read_loop(self, self.fileno)

        TolerantLinuxDriver.__name__ = f"Tolerant{base.__name__}"
        return TolerantLinuxDriver
    web = _web_driver()
    if web is not None and issubclass(base, web):
        return _tolerant_web(base)
    return base


def _web_driver() -> type[Any] | None:
    try:
        from textual.drivers.web_driver import WebDriver
    except ImportError:  # pragma: no cover - part of Textual
        return None
    return WebDriver


def _tolerant_web(base: type[Any]) -> type[Any]:
    from textual.drivers._byte_stream import ByteStream
    from textual.drivers.web_driver import _ExitInput

    class TolerantWebDriver(base):  # type: ignore[misc]
        def run_input_thread(self) -> None:
            """Textual's ``WebDriver.run_input_thread`` reading the terminal's
            packets through ``TerminalInput``."""
            input_reader = self._input_reader
            terminal = TerminalInput(getattr(self, "_debug", False))
            byte_stream = ByteStream()
            try:
                for data in input_reader:
                    if data:
                        for packet_type, payload in byte_stream.feed(data):
                            if packet_type == "D":
                                for message in terminal.feed(payload):
                                    self.process_message(message)
                            else:
                                try:
                                    self._on_meta(packet_type, payload)
                                except (ValueError, TypeError, AttributeError):
                                    pass  # a meta packet that is not JSON
                    for message in terminal.tick():
                        self.process_message(message)
            except _ExitInput:
                pass
            finally:
                input_reader.close()

    TolerantWebDriver.__name__ = f"Tolerant{base.__name__}"
    return TolerantWebDriver
