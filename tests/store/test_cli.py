"""The command line: first run, --demo, --new, --db, --where,
export/import; user errors are one line on stderr with exit code 2."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ka_tui import cli
from ka_tui.store.db import check_file
from ka_tui.store.migrations import SCHEMA_VERSION
from ka_tui.store.paths import data_dir, list_campaign_files


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[Path | None]:
    """Records what the app would have opened instead of starting it."""
    seen: list[Path | None] = []
    monkeypatch.setattr(cli, "_run_app", lambda path, flags: seen.append(path) or 0)
    return seen


def test_first_run_creates_the_demo_in_the_data_dir_and_says_so(
        opened: list[Path | None], capsys: pytest.CaptureFixture[str]) -> None:
    assert list_campaign_files() == []
    assert cli.main([]) == 0
    assert opened == [data_dir() / "demo.db"]
    assert check_file(data_dir() / "demo.db").name.startswith("King's Angels")
    assert "first run" in capsys.readouterr().err
    assert cli.main([]) == 0  # second run: opens it, creates nothing new
    assert list_campaign_files() == [data_dir() / "demo.db"]


def test_several_campaigns_open_the_picker(opened: list[Path | None]) -> None:
    cli.main(["--demo"])
    cli.main(["--new", "Operation Jubilee"])
    assert opened[-1] == data_dir() / "operation-jubilee.db"
    cli.main([])
    assert opened[-1] is None


def test_new_refuses_an_existing_campaign(opened: list[Path | None],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    cli.main(["--new", "Jubilee"])
    assert cli.main(["--new", "jubilee"]) == 2
    assert "already exists" in capsys.readouterr().err


def test_db_path_that_does_not_exist_gets_the_demo(tmp_path: Path,
                                                   opened: list[Path | None]) -> None:
    path = tmp_path / "mine.db"
    assert cli.main(["--db", str(path), "--demo"]) == 0
    assert opened == [path] and check_file(path).version == SCHEMA_VERSION
    assert list_campaign_files() == []  # nothing in the data dir


def test_where_prints_the_data_dir(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--where"]) == 0
    out = capsys.readouterr().out
    assert str(data_dir()) in out
    assert not data_dir().exists()  # --where creates nothing


@pytest.mark.parametrize("content", [b"hello", b""])
def test_not_a_campaign_is_one_line_exit_2_and_untouched(
        tmp_path: Path, opened: list[Path | None], capsys: pytest.CaptureFixture[str],
        content: bytes) -> None:
    path = tmp_path / "x.db"
    path.write_bytes(content)
    assert cli.main(["--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ka-tui: ") and err.count("\n") == 1 and "Traceback" not in err
    assert path.read_bytes() == content and opened == []


def test_newer_campaign_is_refused_with_versions(db_path: Path, opened: list[Path | None],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    con = sqlite3.connect(db_path)
    con.execute("PRAGMA user_version = 99")
    con.commit()
    con.close()
    assert cli.main(["--db", str(db_path)]) == 2
    assert "version 99" in capsys.readouterr().err


def test_an_old_campaign_is_upgraded_before_the_app_starts(
        tmp_path: Path, opened: list[Path | None], capsys: pytest.CaptureFixture[str]) -> None:
    from ka_tui.store.db import create_campaign

    path = tmp_path / "old.db"
    create_campaign(path, "Old", schema=1).close()
    assert cli.main(["--db", str(path)]) == 0
    assert check_file(path).version == SCHEMA_VERSION
    assert "before-upgrade-from-v1" in capsys.readouterr().err


def test_export_then_import_by_campaign_name(tmp_path: Path, demo_db: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "c.json"
    assert cli.main(["export", str(out), "--db", str(demo_db)]) == 0
    assert json.loads(out.read_text())["campaign"]["name"].startswith("King's Angels")
    assert cli.main(["import", str(out)]) == 0
    target = data_dir() / "kings-angels-demo.db"
    assert check_file(target).version == SCHEMA_VERSION
    assert cli.main(["import", str(out)]) == 2
    assert "--force" in capsys.readouterr().err
    assert cli.main(["import", str(out), "--force"]) == 0
    assert list((data_dir() / "backups" / "kings-angels-demo").glob("*-before-import.db"))


def test_import_of_a_bad_file_names_the_field(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "ka-tui-campaign", "schema_version": 1,
                               "campaign": {"name": "X"},
                               "characters": [{"id": 1, "name": "A", "role": "pilot",
                                               "wounds": 8}]}))
    assert cli.main(["import", str(bad)]) == 2
    assert "characters[0].wounds" in capsys.readouterr().err
    assert list_campaign_files() == []


@pytest.mark.parametrize("argv, message", [
    (["export"], "needs a FILE"),
    (["--demo", "--new", "X"], "one of"),
    (["export", "x.json"], "no campaign yet"),
])
def test_usage_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_python_m_ka_tui_reports_errors_without_a_traceback(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_text("not a campaign")
    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"), "PATH": "/usr/bin"}
    run = subprocess.run([sys.executable, "-m", "ka_tui", "--db", str(junk)],
                         capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 2
    assert "not a ka-tui campaign" in run.stderr and "Traceback" not in run.stderr
    where = subprocess.run([sys.executable, "-m", "ka_tui", "--where"],
                           capture_output=True, text=True, env=env, timeout=60)
    assert where.returncode == 0 and str(tmp_path / "data" / "ka-tui") in where.stdout


def test_export_to_stdout(demo_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["export", "-", "--db", str(demo_db)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "ka-tui-campaign" and len(doc["aircraft"]) == 6


def test_new_with_an_overlong_name_is_refused(opened: list[Path | None],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--new", "X" * 61]) == 2
    assert "at most 60" in capsys.readouterr().err
    assert list_campaign_files() == [] and opened == []


def test_version_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    from ka_tui import __version__

    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"ka-tui {__version__}"


@pytest.mark.parametrize("argv", [
    ["export", "-", "--db", "DB"],
    ["--db", "DB", "export", "-"],
])
def test_the_global_options_go_before_or_after_the_command(
        argv: list[str], demo_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [str(demo_db) if a == "DB" else a for a in argv]
    assert cli.main(argv) == 0
    assert json.loads(capsys.readouterr().out)["format"] == "ka-tui-campaign"


@pytest.mark.parametrize("argv, message", [
    (["bogus"], "unknown command 'bogus' (commands: export, import, journal"),
    (["--as", "Arthur"], "--as goes with the play command"),
    (["export", "-", "--keep", "1,1"], "--keep goes with the backups command"),
    (["--mission", "3"], "--mission goes with the journal command"),
    (["play"], "play needs --as NAME"),
    (["--where", "backups"], "one of"),
    (["restore"], "restore needs a BACKUP (try: ka-tui restore"),
])
def test_usage_errors_name_the_command(argv: list[str], message: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("ka-tui: ") and err.count("\n") == 1 and message in err


def test_a_closed_pipe_is_a_normal_end(demo_db: Path, tmp_path: Path) -> None:
    """``ka-tui export - | head``: the reader leaves early; no error, exit 0."""
    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"), "PATH": "/usr/bin"}
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the export writes a byte
    try:
        run = subprocess.run([sys.executable, "-m", "ka_tui", "export", "-", "--db",
                              str(demo_db)], stdout=write, capture_output=False,
                             stderr=subprocess.PIPE, env=env, timeout=60)
    finally:
        os.close(write)
    assert run.returncode == 0, run.stderr
    assert run.stderr == b""


def test_a_player_without_a_terminal_is_told_his_ssh_command(demo_db: Path,
                                                             tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"), "PATH": "/usr/bin",
           "SSH_CONNECTION": "10.0.0.7 51234 10.0.0.2 2222", "USER": "olga",
           "LOGNAME": "olga"}
    run = subprocess.run([sys.executable, "-m", "ka_tui", "play", "--as", "Arthur", "--db",
                          str(demo_db)], stdin=subprocess.DEVNULL, capture_output=True,
                         text=True, env=env, timeout=60)
    assert run.returncode == 2
    assert run.stderr.strip() == ("ka-tui: the player's view needs a terminal, but its input "
                                  "is not one; connect with: ssh -t -p 2222 olga@10.0.0.2")
