"""``ka-tui journal FILE [--mission ID]``: the journal or one
mission's debrief as Markdown a GM pastes to the players."""

from __future__ import annotations

import os
import resource
import signal
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ka_tui import cli


def test_journal_to_a_file_and_not_over_one(tmp_path: Path, demo_db: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "journal.md"
    assert cli.main(["journal", str(out), "--db", str(demo_db)]) == 0
    text = out.read_text()
    assert text.startswith("# Journal: demo\n")
    assert "## 1944-06-05\n\n- *wound* Night raid on the airfield" in text
    assert cli.main(["journal", str(out), "--db", str(demo_db)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert cli.main(["journal", str(out), "--db", str(demo_db), "--force"]) == 0


def test_one_missions_debrief_to_stdout(demo_db: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["journal", "-", "--mission", "1", "--db", str(demo_db)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# Mission: Dawn patrol\n")
    assert "- Arthur Hale: 1 kill" in text


def test_journal_needs_a_file_and_a_known_mission(demo_db: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["journal", "--db", str(demo_db)]) == 2
    assert cli.main(["journal", "-", "--mission", "99", "--db", str(demo_db)]) == 2
    assert cli.main(["export", "-", "--mission", "1", "--db", str(demo_db)]) == 2
    err = capsys.readouterr().err
    assert "journal needs a FILE" in err and "no mission with id 99" in err
    assert "--mission goes with the journal command" in err


def test_the_journal_file_is_private(tmp_path: Path, demo_db: Path) -> None:
    """Files the app writes for the GM are 0600, like exports."""
    out = tmp_path / "journal.md"
    assert cli.main(["journal", str(out), "--db", str(demo_db)]) == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o600


def test_a_journal_that_cannot_be_finished_leaves_no_file(tmp_path: Path,
                                                          demo_db: Path) -> None:
    """A write that fails half-way (here the file-size limit; a full disk alike)
    leaves nothing, so the next run is not told the file already exists."""
    out = tmp_path / "journal.md"
    keep_open = sqlite3.connect(demo_db)  # its -shm exists already: only the journal grows
    keep_open.execute("SELECT count(*) FROM character").fetchall()

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))

    try:
        run = subprocess.run([sys.executable, "-m", "ka_tui", "journal", str(out), "--db",
                              str(demo_db)], preexec_fn=small_files, capture_output=True,
                             text=True, timeout=60, env={**os.environ, "HOME": str(tmp_path)})
    finally:
        keep_open.close()
    assert run.returncode == 2 and "cannot write" in run.stderr, run.stderr
    assert list(tmp_path.glob("journal.md*")) == [] and list(tmp_path.glob(".journal.md*")) == []
