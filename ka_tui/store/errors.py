"""Errors the store raises; each carries a message fit to show the GM as is."""

from __future__ import annotations


class StoreError(Exception):
    """Anything the store refuses or fails to do; ``str(e)`` is the message."""

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
        self.field = field
        self.message = message


class NotFound(StoreError):
    """The row asked for is not in the campaign (deleted meanwhile?)."""
