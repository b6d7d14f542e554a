"""A healthy campaign on a disk with no room: it is read (the journal, an
export) without creating anything beside it, opened read-only saying "the
disk is full", and every refusal says so in one line — never "not a readable
ka-tui campaign (disk I/O error)" nor "unexpected error: OperationalError".

Two ways to have no room: a real 1 MB tmpfs filled to 100 % (where this
machine lets the test ``mount``: root in a sandbox), and everywhere a
file-size limit (``RLIMIT_FSIZE``, ``ulimit -f``) in a subprocess."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from ka_tui import cli

ROOT = Path(__file__).resolve().parents[2]


def beside(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir())


@pytest.fixture
def full_disk(tmp_path: Path, demo_db: Path, request: pytest.FixtureRequest) -> Iterator[Path]:
    """The demo on a 1 MB tmpfs filled to the last byte (``request.param``
    "left": with the side files a GM's window left as the disk filled, its
    -shm cut short)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    try:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)],
                                 capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        mounted = False
    if not mounted:
        pytest.skip("mount is not allowed here (the file-size limit tests below still run)")
    try:
        campaign = disk / "c" / "demo.db"
        campaign.parent.mkdir()
        shutil.copyfile(demo_db, campaign)
        if getattr(request, "param", "") == "left":
            Path(f"{campaign}-wal").write_bytes(b"")
            Path(f"{campaign}-shm").write_bytes(b"\0\0\0")
        fd = os.open(disk / "fill", os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:
            pass
        finally:
            os.close(fd)
        st = os.statvfs(disk)
        assert st.f_bavail == 0
        yield campaign
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True, timeout=30)


def _no_bad_words(err: str) -> None:
    assert "not a readable" not in err and "unexpected error" not in err, err
    assert "disk I/O error" not in err, err


def test_a_full_disk_reads_the_campaign_creating_nothing(
        full_disk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["journal", "-", "--db", str(full_disk)]) == 0
    assert cli.main(["journal", "-", "--mission", "1", "--db", str(full_disk)]) == 0
    assert cli.main(["export", "-", "--db", str(full_disk)]) == 0
    out, err = capsys.readouterr()
    assert "# Journal: demo" in out and "# Mission: Dawn patrol" in out
    _no_bad_words(err)
    assert beside(full_disk) == ["demo.db"]


def test_a_full_disk_says_so(full_disk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["backup", "--db", str(full_disk)]) == 2
    err = capsys.readouterr().err
    assert "the disk is full" in err and err.count("\n") == 1, err
    assert beside(full_disk) == ["demo.db"]
    cli._checked(full_disk, cli.Flags())
    err = capsys.readouterr().err
    assert "read-only (the disk is full)" in err, err


@pytest.mark.parametrize("full_disk", ["left"], indirect=True)
def test_a_full_disk_with_a_windows_side_files_says_so(
        full_disk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["journal", "-", "--db", str(full_disk)]) == 2
    err = capsys.readouterr().err
    _no_bad_words(err)
    assert "the disk is full" in err and err.count("\n") == 1, err


def _limited(limit: int) -> object:
    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return small_files


def _ka_tui(args: list[str], home: Path, limit: int = 1000) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ka_tui", *args], preexec_fn=_limited(limit),
                          capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "HOME": str(home), "PYTHONPATH": str(ROOT)})


def test_under_a_file_size_limit_the_campaign_is_read_creating_nothing(
        demo_db: Path, tmp_path: Path) -> None:
    run = _ka_tui(["journal", "-", "--db", str(demo_db)], tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("# Journal: demo")
    _no_bad_words(run.stderr)
    assert beside(demo_db) == ["demo.db"]


def test_under_a_file_size_limit_a_backup_says_why_in_one_line(demo_db: Path,
                                                              tmp_path: Path) -> None:
    run = _ka_tui(["backup", "--db", str(demo_db)], tmp_path)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "files are limited to 1000 bytes" in run.stderr, \
        run.stderr
    assert beside(demo_db) == ["demo.db"]
