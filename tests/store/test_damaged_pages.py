"""A campaign file damaged inside its pages: ``PRAGMA quick_check`` passes it,
``PRAGMA integrity_check`` does not (a row missing from an index, a text value
that is not UTF-8: the demo with 20 bytes of a character's row flipped). It
is found before anything writes to it (on open, once a day with the daily
backup, and before any backup or restore) and opened read-only with one line
that says so and names the newest good backup; ``backup`` refuses it and
creates nothing; ``export`` reads what it can.

Real parts: the demo in a real SQLite file, the real command line, and for
the TUI and ``play`` the real apps started by it in a fresh process,
headless."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ka_tui import cli
from ka_tui.store import backups
from ka_tui.store.db import open_campaign
from ka_tui.store.errors import StoreError
from ka_tui.store.files import DAMAGED

ROOT = Path(__file__).resolve().parents[2]


def damage_pages(path: Path) -> None:
    """Flip 20 bytes of the first character's row (its name): the table and
    its name index disagree, the name is no longer UTF-8."""
    con = sqlite3.connect(path)
    name = con.execute("SELECT name FROM character ORDER BY id").fetchone()[0]
    con.close()
    data = bytearray(path.read_bytes())
    at = data.find(name.encode())
    for i in range(at, at + 20):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))
    look = sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True)
    try:
        assert look.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        assert look.execute("PRAGMA integrity_check").fetchone()[0] != "ok"
    finally:
        look.close()


@pytest.fixture
def damaged(tmp_path: Path, demo_db: Path) -> Path:
    path = tmp_path / "c" / "damaged.db"
    path.parent.mkdir()
    shutil.copyfile(demo_db, path)
    damage_pages(path)
    return path


def beside(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir())


def test_opening_it_finds_the_damage_and_opens_read_only(damaged: Path) -> None:
    with open_campaign(damaged, daily_backup=True) as db:
        assert db.read_only == DAMAGED
        with db.plain_read() as read:  # the rows around the damage still read
            names = [n for (n,) in read.execute("SELECT name FROM character ORDER BY id")]
        assert "\ufffd" in names[0] and "Kasia Nowak" in names
        with pytest.raises(StoreError, match="Read-only campaign .*damaged"):
            db.refuse_if_read_only()
    assert beside(damaged) == ["damaged.db"]  # no backup, no -wal, no -shm


def test_backup_refuses_it_and_creates_nothing(damaged: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    before = damaged.read_bytes()
    assert cli.main(["backup", "--db", str(damaged)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "is damaged inside" in err and "no backup was taken" in err, err
    assert beside(damaged) == ["damaged.db"]
    assert damaged.read_bytes() == before


def test_the_line_names_the_newest_good_backup(tmp_path: Path, demo_db: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    good = backups.take_backup(demo_db, "manual")
    damage_pages(demo_db)
    assert cli.main(["backup", "--db", str(demo_db)]) == 2
    err = capsys.readouterr().err
    assert f"restore the newest good backup: ka-tui restore {good.path}" in err, err


def test_export_reads_what_it_can_and_says_nothing_of_writing(
        damaged: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.json"
    code = cli.main(["export", str(out), "--db", str(damaged)])
    err = capsys.readouterr().err
    assert "could not be written" not in err and "nothing was saved" not in err, err
    assert code == 0, err
    assert "damaged inside" in err
    assert json.loads(out.read_text())["characters"]
    assert beside(damaged) == ["damaged.db"]


def test_serve_refuses_it_in_one_line(damaged: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", "--db", str(damaged)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "damaged inside" in err, err


def test_restore_puts_a_good_backup_over_it_and_keeps_it_as_it_was(
        demo_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = backups.take_backup(demo_db, "manual")
    damage_pages(demo_db)
    damaged_bytes = demo_db.read_bytes()
    assert cli.main(["restore", str(good.path), "--db", str(demo_db)]) == 0
    with open_campaign(demo_db) as db:
        assert db.read_only is None
    kept = [b for b in backups.list_backups(demo_db) if b.reason == "damaged-before-restore"]
    assert len(kept) == 1 and kept[0].path.read_bytes()[100:] == damaged_bytes[100:]
    assert backups.newest_good(demo_db) is not None
    assert backups.newest_good(demo_db).path != kept[0].path  # type: ignore[union-attr]


def test_a_damaged_backup_is_not_restored(demo_db: Path, tmp_path: Path) -> None:
    good = backups.take_backup(demo_db, "manual")
    damage_pages(good.path)
    before = demo_db.read_bytes()
    with pytest.raises(StoreError, match="is damaged inside .*choose another backup"):
        backups.restore(good.path, demo_db)
    assert demo_db.read_bytes() == before


CHILD = r"""
import json, sys
from textual.app import App
import ka_tui.cli
ka_tui.cli._need_terminal = lambda **_: None  # headless here: no terminal to need
seen = {}

def record(app):
    db = app.campaign_db()
    seen.update(title=app.title, read_only=db.read_only)
    app.exit()

import ka_tui.app as app_module
init = app_module.KaApp.__init__
def patched_init(self, *args, **kwargs):
    init(self, *args, **kwargs)
    self.on_roster_ready = lambda: self.call_later(record, self)
app_module.KaApp.__init__ = patched_init
app_module.KaApp.run = lambda self: App.run(self, headless=True, size=(80, 24))

import ka_tui.player_app as player_module
from ka_tui.screens.player import screen as player_screen
player_module.PlayerApp.run = lambda self: App.run(self, headless=True, size=(80, 24))
shown = player_screen.PlayerScreen._loaded
def patched_loaded(self, view, first):
    shown(self, view, first)
    self.app.call_later(record, self.app)
player_screen.PlayerScreen._loaded = patched_loaded

code = ka_tui.cli.main(sys.argv[1:])
print("RESULT " + json.dumps({"code": code, **seen}))
"""


def run_app(args: list[str], home: Path) -> tuple[dict[str, object], str]:
    env = {**os.environ, "XDG_DATA_HOME": str(home), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CHILD, *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"the app did not start: {done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return json.loads(lines[-1][len("RESULT "):]), done.stderr


def test_the_tui_opens_it_read_only_with_one_line(damaged: Path, tmp_path: Path) -> None:
    result, err = run_app(["--db", str(damaged)], tmp_path / "home")
    assert result["code"] == 0
    assert result["read_only"] == DAMAGED
    assert "READ-ONLY" in str(result["title"])
    [line] = err.splitlines()
    assert "is damaged inside" in line and "opening it read-only" in line, err
    assert beside(damaged) == ["damaged.db"]


def test_play_opens_it_read_only_with_one_line(damaged: Path, tmp_path: Path) -> None:
    result, err = run_app(["play", "--as", "Kasia", "--db", str(damaged)], tmp_path / "home")
    assert result["code"] == 0
    assert result["read_only"] == DAMAGED
    [line] = err.splitlines()
    assert "is damaged inside" in line and "read-only" in line, err
    assert beside(damaged) == ["damaged.db"]
