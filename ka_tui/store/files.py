"""Writing a whole file atomically (light module: no SQLModel).

DESIGN.md: an export never leaves a half-written file; a reader sees the old
file or the new one. Used by the campaign export and the profile export.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to a temporary file beside ``path``, fsync it and
    rename it over ``path``. On ``OSError`` the temporary file is removed and
    the error raised again, for the caller to word."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".new", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
