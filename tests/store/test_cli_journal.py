"""``ka-tui journal FILE [--mission ID]``: the journal or one
mission's debrief as Markdown a GM pastes to the players."""

from __future__ import annotations

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
