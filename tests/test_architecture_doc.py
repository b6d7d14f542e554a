"""docs/ARCHITECTURE.md names only what exists: every path it quotes (a
file or a folder, from the repository's root or from ``ka_tui/``) is there,
so the page cannot drift from the code unnoticed."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "ARCHITECTURE.md"
QUOTED = re.compile(r"`([^`\s]+)`")
LOOKS_LIKE_A_PATH = re.compile(r"^[\w.-]+(/[\w.-]*)*(\.(py|md|toml|tcss|json|txt)|/)$")


def named_paths(text: str) -> list[str]:
    """The quoted words that are paths (a seed's file name, ``000_…txt``, is
    quoted for its pattern, not as a path)."""
    return [p for p in QUOTED.findall(text) if "…" not in p
            and (LOOKS_LIKE_A_PATH.match(p) and "/" in p
                 or p.endswith((".py", ".md", ".toml", ".tcss")))]


def test_every_path_the_architecture_page_names_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    names = named_paths(text) + re.findall(r"^ (ka_tui/[\w/.]+)", text, re.M)
    assert len(names) > 30, "the page names the modules it describes"
    missing = [n for n in names
               if not (ROOT / n).exists() and not (ROOT / "ka_tui" / n).exists()]
    assert missing == []


def test_the_check_catches_a_missing_path() -> None:
    names = named_paths("see `store/no_such_module.py` and `screens/air/`")
    assert names == ["store/no_such_module.py", "screens/air/"]
    assert not (ROOT / "ka_tui" / names[0]).exists()


def test_the_page_stays_short() -> None:
    assert len(DOC.read_text(encoding="utf-8").splitlines()) < 250
