"""Backups a GM can use: SQLite online backups, checked when
written, one a day on open and one before every risky step, kept in rotation
(7 daily + 4 weekly by default, a per-campaign setting), listed and restored
(the current file backed up first); SIGKILL during a backup or a restore
leaves the campaign and the backup whole."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from types import SimpleNamespace

import pytest

from ka_tui import cli
from ka_tui.store.backups import (
    daily_backup,
    folder_for,
    keep_setting,
    list_backups,
    restore,
    rotate,
    set_keep,
    take_backup,
)
from ka_tui.store.db import check_file, create_campaign, open_campaign
from ka_tui.store.errors import NotACampaign, StoreError
from ka_tui.store.transfer import export_campaign

ROOT = Path(__file__).resolve().parent.parent.parent
DAY1 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)  # a Monday


def _names(path: Path) -> list[str]:
    con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return [r[0] for r in con.execute("SELECT name FROM character ORDER BY id")]
    finally:
        con.close()


def _add(path: Path, name: str) -> None:
    con = sqlite3.connect(path)
    con.execute("INSERT INTO character (name, role) VALUES (?, 'ground')", (name,))
    con.commit()
    con.close()


def _integrity(path: Path) -> str:
    con = sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True)
    try:
        return str(con.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        con.close()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ------------------------------------------------------------------ taking

def test_a_backup_is_a_checked_copy_in_the_backups_folder(demo_db: Path) -> None:
    b = take_backup(demo_db, "manual", now=DAY1)
    assert b.path == folder_for(demo_db) / "2026-03-02T090000Z-manual.db"
    assert folder_for(demo_db) == demo_db.parent / "backups" / "demo"
    assert check_file(b.path).name == check_file(demo_db).name
    assert _names(b.path) == _names(demo_db)
    assert _integrity(b.path) == "ok"
    assert not [p for p in b.path.parent.iterdir() if p.name.startswith(".")]


def test_a_damaged_campaign_gives_no_backup(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    create_campaign(path, "C").close()
    data = bytearray(path.read_bytes())
    data[100:108] = b"\x0d\xff\xff\xff\xff\xff\xff\xff"
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="is damaged inside .*malformed.*no backup was taken"):
        take_backup(path, "manual")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.db"]  # no backups folder


def test_one_backup_a_day_when_opened(demo_db: Path) -> None:
    assert daily_backup(demo_db, now=DAY1) is not None
    assert daily_backup(demo_db, now=DAY1 + timedelta(hours=5)) is None
    assert daily_backup(demo_db, now=DAY1 + timedelta(days=1)) is not None
    assert [b.reason for b in list_backups(demo_db)] == ["daily", "daily"]


def test_opening_with_the_cli_takes_the_days_backup(demo_db: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # the app's startup read (a forked child) takes the day's backup
    monkeypatch.setattr(cli, "_need_terminal", lambda: None)
    monkeypatch.setattr(cli, "gm_app",
                        lambda path, flags, read: SimpleNamespace(run=read.result))
    assert cli.main(["--db", str(demo_db)]) == 0
    assert cli.main(["--db", str(demo_db)]) == 0
    assert [b.reason for b in list_backups(demo_db)] == ["daily"]


def test_risky_steps_back_up_first(tmp_path: Path, demo_db: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "_run_app", lambda p, flags: 0)
    out = tmp_path / "c.json"
    with open_campaign(demo_db) as db:
        export_campaign(db, out)
    assert cli.main(["import", str(out), "--db", str(demo_db), "--force"]) == 0
    assert cli.main(["--demo", "--db", str(demo_db), "--force"]) == 0
    old = tmp_path / "old.db"
    create_campaign(old, "Old", schema=1).close()
    assert cli.main(["--db", str(old)]) == 0
    assert {b.reason for b in list_backups(demo_db)} >= {"before-import", "before-demo-reset"}
    assert "before-upgrade-from-v1" in {b.reason for b in list_backups(old)}
    for b in list_backups(demo_db) + list_backups(old):
        assert _integrity(b.path) == "ok"


# ---------------------------------------------------------------- rotation

def test_rotation_keeps_seven_daily_and_four_weekly(demo_db: Path) -> None:
    for day in range(60):
        take_backup(demo_db, "daily", now=DAY1 + timedelta(days=day), rotate_after=False)
    take_backup(demo_db, "before-import", now=DAY1 + timedelta(days=58, hours=2),
                rotate_after=False)
    gone = rotate(demo_db)
    left = list_backups(demo_db)
    assert len(gone) == 61 - len(left)
    days = [b.taken.date() for b in left]
    newest = (DAY1 + timedelta(days=59)).date()
    assert days[:7] == [newest - timedelta(days=n) for n in range(7)]
    # day 58's newest backup is the before-import one (kept; its daily is not)
    assert [b.reason for b in left[:7]].count("before-import") == 1
    weeks = {b.taken.isocalendar()[:2] for b in left[7:]}
    assert len(left) == 7 + 4 and len(weeks) == 4
    assert all(b.taken.date() < days[6] for b in left[7:])


def test_the_rotation_setting_is_kept_in_the_campaign(
        demo_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert keep_setting(demo_db) == (7, 4)
    for day in range(30):
        take_backup(demo_db, "daily", now=DAY1 + timedelta(days=day), rotate_after=False)
    assert cli.main(["backups", "--keep", "3,1", "--db", str(demo_db)]) == 0
    assert keep_setting(demo_db) == (3, 1)
    assert len([b for b in list_backups(demo_db)]) <= 3 + 1 + 1  # + the day's own, if new
    out = capsys.readouterr()
    assert "rotation keeps 3 daily and 1 weekly" in out.err
    assert "restore with: ka-tui restore FILE" in out.out
    with pytest.raises(StoreError):
        set_keep(demo_db, 0, 1)
    assert cli.main(["backups", "--keep", "x", "--db", str(demo_db)]) == 2


# ----------------------------------------------------------------- restore

def test_restore_puts_the_backup_back_and_keeps_the_current_file(demo_db: Path) -> None:
    b = take_backup(demo_db, "manual", now=DAY1)
    before = _names(demo_db)
    _add(demo_db, "Zed After")
    done = restore(b.path)
    assert done.campaign == demo_db
    assert _names(demo_db) == before
    assert done.previous is not None and "Zed After" in _names(done.previous.path)
    assert _digest(b.path) == _digest(b.path)  # the backup itself untouched (read only)
    assert check_file(demo_db).version == check_file(b.path).version
    with open_campaign(demo_db) as db, db.transaction():
        pass  # writable again, WAL and all


def test_restore_is_refused_while_the_campaign_is_open_elsewhere(demo_db: Path) -> None:
    b = take_backup(demo_db, "manual", now=DAY1)
    _add(demo_db, "Zed")
    other = sqlite3.connect(demo_db)
    other.execute("BEGIN")
    other.execute("SELECT count(*) FROM character").fetchall()
    try:
        with pytest.raises(StoreError, match="open in another ka-tui"):
            restore(b.path)
    finally:
        other.close()
    assert "Zed" in _names(demo_db)


def test_restore_refuses_what_is_not_a_backup(tmp_path: Path, demo_db: Path) -> None:
    junk = folder_for(demo_db) / "2026-03-02T090000Z-manual.db"
    junk.parent.mkdir(parents=True)
    junk.write_text("not a database")
    with pytest.raises(NotACampaign):
        restore(junk)
    with pytest.raises(StoreError, match="not in a ka-tui backups folder"):
        restore(tmp_path / "elsewhere.db")


def test_backups_and_restore_from_the_command_line(
        demo_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["backups", "--db", str(demo_db)]) == 0
    assert "no backups" in capsys.readouterr().out
    assert cli.main(["backup", "--db", str(demo_db)]) == 0
    _add(demo_db, "Zed")
    assert cli.main(["backups", "--db", str(demo_db)]) == 0
    listing = capsys.readouterr().out
    [line] = [ln for ln in listing.splitlines() if "manual" in ln]
    path = line.split()[-1]
    assert cli.main(["restore", path]) == 0
    err = capsys.readouterr().err
    assert "restored" in err and "before-restore" in err
    assert "Zed" not in _names(demo_db)
    assert cli.main(["restore"]) == 2


# ------------------------------------------------------------------ SIGKILL

_CHILD = r"""
import sys
from pathlib import Path
from ka_tui.store.backups import restore, take_backup
what, path = sys.argv[1], Path(sys.argv[2])
print("go", flush=True)
if what == "backup":
    take_backup(path, "manual")
else:
    restore(path)
print("done", flush=True)
"""


def _big_campaign(path: Path) -> None:
    create_campaign(path, "Big").close()
    con = sqlite3.connect(path)
    con.executemany("INSERT INTO roll_log (who, what, explanation) VALUES (?, ?, ?)",
                    [("Ann", f"roll {i}", json.dumps(["x" * 2000])) for i in range(15000)])
    con.commit()
    con.close()


def _killed_during(what: str, arg: Path, delay: float) -> bool:
    """Run a backup/restore in a child, SIGKILL it ``delay`` s after it starts;
    True if it was killed before it finished."""
    child = subprocess.Popen([sys.executable, "-c", _CHILD, what, str(arg)],
                             stdout=subprocess.PIPE, text=True, cwd=ROOT,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "go"
    time.sleep(delay)
    child.send_signal(signal.SIGKILL)
    rest = child.stdout.read()
    child.wait()
    return "done" not in rest


def _whole(campaign: Path, names: list[str] | None = None) -> None:
    assert _integrity(campaign) == "ok"
    assert check_file(campaign).name == "Big"
    for b in list_backups(campaign):
        assert _integrity(b.path) == "ok", b.path


def test_sigkill_during_a_backup_leaves_campaign_and_backups_whole(tmp_path: Path) -> None:
    path = tmp_path / "big.db"
    _big_campaign(path)
    digest = _digest(path)
    killed = 0
    for delay in (0.0, 0.01, 0.03, 0.06, 0.1, 0.2, 0.4):
        killed += _killed_during("backup", path, delay)
        _whole(path)
        assert _digest(path) == digest
    assert killed >= 1


def test_sigkill_during_a_restore_leaves_campaign_and_backup_whole(tmp_path: Path) -> None:
    path = tmp_path / "big.db"
    _big_campaign(path)
    backup = take_backup(path, "manual")
    backup_digest = _digest(backup.path)
    _add(path, "Zed")
    killed = 0
    for delay in (0.0, 0.01, 0.03, 0.06, 0.1, 0.2, 0.4):
        killed += _killed_during("restore", backup.path, delay)
        _whole(path)
        assert _digest(backup.path) == backup_digest
        assert sorted(p.name for p in path.parent.iterdir() if p.name.endswith(".partial")) \
            in ([], [".big.db.restore.partial"])
    assert killed >= 1
    restore(backup.path)
    assert "Zed" not in _names(path)


# ----------------------------------------------------------------- palette

async def test_the_palettes_backup_commands(demo_db: Path) -> None:
    """List, back up now, and restore the newest from inside the app."""
    from textual.widgets import Static

    from ka_tui.app import KaApp
    from tests.ui.pilot_helpers import SIZE, settle, wait_for

    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        names = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Backups: list", "Backups: back up now",
                "Backups: restore the newest"} <= names
        app.action_backup_now()
        await wait_for(pilot, lambda: any(b.reason == "manual" for b in list_backups(demo_db)))
        app.action_list_backups()
        await settle(pilot)
        body = str(app.screen.query_one(".message-body", Static).render())
        assert "manual" in body  # (the day's daily gave way to it: newest of the day)
        await pilot.press("escape")
        await settle(pilot)
        _add(demo_db, "Zed")
        app.action_restore_newest()
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert "Zed" not in _names(demo_db)
        assert "before-restore" in {b.reason for b in list_backups(demo_db)}
