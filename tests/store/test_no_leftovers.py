"""Nothing is left beside a campaign: by a command that ends (``backup``
leaves no ``-wal``/``-shm``), by a refusal, or by a backup or restore killed
half-way once the app next opens the campaign (their partial copies are
locked while written; one nobody holds is cleared on open). Files the app
writes for the GM are 0600, like exports.

Real parts: a real SQLite file, the real command line, and real processes
killed with SIGKILL while they hold a partial copy."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ka_tui import cli
from ka_tui.store import backups
from ka_tui.store.db import open_campaign

ROOT = Path(__file__).resolve().parents[2]


def beside(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir())


def test_backup_leaves_no_side_files(demo_db: Path) -> None:
    assert beside(demo_db) == ["demo.db"]
    assert cli.main(["backup", "--db", str(demo_db)]) == 0
    assert beside(demo_db) == ["backups", "demo.db"]
    assert cli.main(["backups", "--db", str(demo_db), "--keep", "3,2"]) == 0
    assert beside(demo_db) == ["backups", "demo.db"]


def test_rotation_reads_the_keep_setting_creating_nothing_beside_it(demo_db: Path) -> None:
    backups.take_backup(demo_db, "manual", rotate_after=False)
    backups.rotate(demo_db)
    assert backups.keep_setting(demo_db) == (backups.KEEP_DAILY, backups.KEEP_WEEKLY)
    assert beside(demo_db) == ["backups", "demo.db"]


HOLD = r"""
import sys, time
from pathlib import Path
from ka_tui.store import backups
with backups._claimed(Path(sys.argv[1]), shared=False):
    Path(sys.argv[1]).write_bytes(b"x" * 4096)   # a copy half made
    print("holding", flush=True)
    time.sleep(60)
"""


def hold_partial(partial: Path) -> subprocess.Popen[str]:
    """A process writing ``partial`` as a backup or restore does (its lock held)."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(partial)], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "holding"
    return proc


@pytest.mark.parametrize("where", ["restore", "backup"])
def test_a_killed_restore_or_backup_is_cleared_on_the_next_open(demo_db: Path,
                                                                where: str) -> None:
    if where == "restore":
        partial = backups.restore_staging(demo_db)
    else:
        folder = backups.folder_for(demo_db)
        folder.mkdir(parents=True)
        partial = folder / f".2026-01-02T030405Z-manual.{os.getpid()}.abcd.partial"
    proc = hold_partial(partial)
    try:
        open_campaign(demo_db).close()
        assert partial.exists()              # a live one is never taken away
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert partial.exists()                  # what the kill left
    open_campaign(demo_db).close()
    assert not partial.exists()
    assert beside(demo_db) == (["demo.db"] if where == "restore" else ["backups", "demo.db"])


def test_a_restore_while_another_is_under_way_is_refused(demo_db: Path) -> None:
    good = backups.take_backup(demo_db, "manual")
    proc = hold_partial(backups.restore_staging(demo_db))
    try:
        with pytest.raises(Exception, match="being restored by another ka-tui"):
            backups.restore(good.path, demo_db)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)


def test_the_markdown_files_for_the_gm_are_private(demo_db: Path) -> None:
    from ka_tui.screens.campaign.data import write_markdown
    from ka_tui.store.events import LogKind, LogRef, heads
    from ka_tui.store.history import export_history, history_of

    os.umask(0o022)
    with open_campaign(demo_db) as db:
        written = [write_markdown(db), write_markdown(db, 1)]
        battle = heads(db, LogKind.BATTLE)[0]
        written.append(export_history(history_of(db, LogRef.battle(battle.id)),
                                      demo_db.parent, "markdown"))
    for path in written:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert not [p for p in demo_db.parent.iterdir() if p.name.endswith(".new")]


def test_a_refused_backup_leaves_no_folder(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    not_ours = tmp_path / "x.db"
    not_ours.write_bytes(b"not a campaign" * 100)
    assert cli.main(["backup", "--db", str(not_ours)]) == 2
    assert beside(not_ours) == ["x.db"]
