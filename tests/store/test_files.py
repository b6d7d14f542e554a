"""Atomic whole-file writes shared by the campaign and profile exports (DESIGN.md:
an export never leaves a half-written file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ka_tui.store.files import write_text_atomic


def test_write_replaces_the_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    path.write_text("old", encoding="utf-8")
    write_text_atomic(path, "new ☂\n")
    assert path.read_text(encoding="utf-8") == "new ☂\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_failed_rename_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.mkdir()
    (target / "inside").write_text("x", encoding="utf-8")  # a folder rename cannot replace
    with pytest.raises(OSError):
        write_text_atomic(target, "text")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]
    assert (target / "inside").read_text(encoding="utf-8") == "x"
