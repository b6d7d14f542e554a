"""Errors the store raises; each carries a message fit to show the GM as is."""

from __future__ import annotations

import re

# What a one-line message shows escaped: control characters (a tab, a newline,
# ESC…), line and paragraph separators, the bidirectional overrides that would
# reorder the rest of the line, and lone surrogates (undecodable bytes).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e"
                     "\u2066-\u2069\ud800-\udfff]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def one_line(text: str) -> str:
    """``text`` on one line, every character that is not plain text escaped
    (``\\t``, ``\\n``, ``\\x1b``, ``\\u202e``): what a message quotes from a
    file or a document can neither break the line nor drive the terminal."""
    def escape(m: re.Match[str]) -> str:
        ch = m.group()
        return _NAMED.get(ch) or (f"\\x{ord(ch):02x}" if ord(ch) < 0x100
                                  else f"\\u{ord(ch):04x}")
    return _UNSAFE.sub(escape, text)


class StoreError(Exception):
    """Anything the store refuses or fails to do; ``str(e)`` is the message,
    on one line (``one_line``)."""

    def __init__(self, *args: object) -> None:
        super().__init__(*(one_line(a) if isinstance(a, str) else a for a in args))

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as it is (type, message, attributes), without calling
        ``__init__`` again: a subclass whose ``__init__`` takes other arguments
        than its message still comes back whole from the startup read's child
        process (store/startup_read.py)."""
        return (_restore, (type(self), self.args), self.__dict__ or None)


def _restore(cls: type[StoreError], args: tuple[object, ...]) -> StoreError:
    error = cls.__new__(cls)
    error.args = args
    return error


class NotACampaign(StoreError):
    """The file is not a ka-tui campaign (not SQLite, another app's, damaged)."""


class NewerSchema(StoreError):
    """The file was written by a newer ka-tui; it is left untouched."""

    def __init__(self, path: object, found: int, supported: int) -> None:
        super().__init__(
            f"{path} uses campaign schema version {found}, but this ka-tui only "
            f"knows up to version {supported}. Upgrade ka-tui to open it; the "
            f"file was not changed.")
        self.found = found
        self.supported = supported


class ValidationError(StoreError):
    """A value a form can show beside its field: ``field`` and ``message``."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = one_line(field)
        self.message = one_line(message)


class NotFound(StoreError):
    """The row asked for is not in the campaign (deleted meanwhile?)."""


class NoRoom(StoreError):
    """The disk is full (or a file-size limit reached): nothing was changed."""


class DamagedPages(StoreError):
    """The campaign file's pages are damaged (``PRAGMA integrity_check``)."""
