"""Where campaign files live; nothing is created until a campaign is written."""

from __future__ import annotations

import re
from pathlib import Path

APP_NAME = "ka-tui"
SUFFIX = ".db"
DEFAULT_NAME = "campaign"
DEMO_FILE = "demo.db"


def data_dir() -> Path:
    """platformdirs' user data dir for ka-tui (e.g. ~/.local/share/ka-tui)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False))


def tighten_data_dir() -> None:
    """Make an existing data folder private (0700), e.g. one an older
    ka-tui made 0755. Nothing is created here."""
    from ka_tui.store.files import private_dir

    folder = data_dir()
    if folder.is_dir():
        private_dir(folder, create=False)


def default_db_path() -> Path:
    """The campaign the first run creates (the demo) and ``--demo`` opens."""
    return data_dir() / DEMO_FILE


def file_for(name: str, folder: Path | None = None) -> Path:
    """A file name for a campaign called ``name`` (lower-case, safe characters)."""
    plain = re.sub(r"['\u2019]", "", name.lower())  # King's -> kings
    slug = re.sub(r"[^a-z0-9]+", "-", plain).strip("-") or DEFAULT_NAME
    return (folder or data_dir()) / f"{slug}{SUFFIX}"


def list_campaign_files(folder: Path | None = None) -> list[Path]:
    """Campaign files in the data dir, sorted by name (not opened or checked)."""
    folder = folder or data_dir()
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix == SUFFIX and p.is_file())
