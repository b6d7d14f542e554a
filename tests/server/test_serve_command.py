"""The GM's commands for the table: ``ka-tui serve`` (its words, one server
per campaign, its usage errors) and ``ka-tui players`` (seats from the
command line); and ``ka-tui play`` for a player whose account cannot open
the file. Each a real process, as the GM types them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import asyncssh
import pytest

from ka_tui import cli
from tests.server.helpers import rows


def ka(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ka_tui", *args], capture_output=True,
                          text=True, timeout=60, input=stdin, check=False)


def test_one_table_server_per_campaign_and_it_says_how_players_join(demo_db: Path) -> None:
    first = subprocess.Popen([sys.executable, "-m", "ka_tui", "serve", "--db", str(demo_db),
                              "--listen", "127.0.0.1", "--ssh-port", "0", "--no-web"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert first.stdout is not None
    said = ""
    for line in first.stdout:
        said += line
        if "Table mode (7)" in line:
            break
    try:
        assert said.startswith("ka-tui: the table is open for \"King's Angels (demo)\"")
        assert re.search(r"Over SSH: +ssh -p \d+ NAME@", said)
        assert "this server's key: SHA256:" in said and "Browser:" not in said
        assert "Nobody is seated yet." in said
        second = ka("serve", "--db", str(demo_db), "--ssh-port", "0", "--no-web")
        assert second.returncode == 2
        assert second.stderr.startswith("ka-tui: a table server already runs for this "
                                        f"campaign (process {first.pid}; ssh port ")
        assert second.stderr.count("\n") == 1
    finally:
        first.send_signal(2)
        rest, _ = first.communicate(timeout=30)
    assert first.returncode == 0 and rest.rstrip().endswith("ka-tui: the table is closed.")
    assert rows(demo_db, "SELECT stopped_at IS NOT NULL FROM table_server") == [(1,)]


@pytest.mark.parametrize(("args", "says"), [
    (["serve", "--no-ssh", "--no-web"], "with --no-ssh and --no-web nobody could join"),
    (["serve", "--ssh-port", "70000"], "no such port: 70000"),
    (["serve", "--read-only"], "cannot be written (opened with --read-only)"),
    (["export", "x.json", "--listen", "0.0.0.0"], "--listen goes with the serve command"),
    (["players", "code"], "players code needs a NAME"),
    (["players", "add-key", "Kasia"], "players add-key needs the public key"),
    (["players", "code", "Nobody"], "no character called 'Nobody'"),
    (["players", "evict", "Kasia"], "invalid choice: 'evict'"),
])
def test_usage_errors_are_one_line(demo_db: Path, args: list[str], says: str) -> None:
    done = ka(*args, "--db", str(demo_db))
    assert done.returncode == 2 and says in done.stderr and done.stderr.count("\n") == 1


def test_players_are_seated_from_the_command_line(demo_db: Path, tmp_path: Path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519", comment="kasia@laptop")
    public = key.export_public_key().decode()
    added = ka("players", "add-key", "Kasia", "-", "--db", str(demo_db), stdin=public)
    assert added.returncode == 0
    assert "Kasia Nowak may now join over SSH with key SHA256:" in added.stdout
    assert "ssh -p 2222 kasia@" in added.stdout
    private = tmp_path / "id_ed25519"
    private.write_bytes(key.export_private_key())
    refused = ka("players", "add-key", "Olga", str(private), "--db", str(demo_db))
    assert refused.returncode == 2 and "this is a private key" in refused.stderr

    code = ka("players", "code", "Olga", "--db", str(demo_db))
    found = re.search(r"join code for Olga Petrova: ([A-Z2-9]{4}-[A-Z2-9]{4})", code.stdout)
    assert found and "ssh -p 2222 olga@" in code.stdout
    link = ka("players", "link", "Jeanne", "--db", str(demo_db))
    url = re.search(r"http://\S+:8022/P/([A-Z2-7]{32})", link.stdout)
    assert url and ("\u2584" in link.stdout or "\u2580" in link.stdout)   # the QR code
    secret_free = str(rows(demo_db, "SELECT * FROM player_pass"))
    assert found.group(1).replace("-", "") not in secret_free and url.group(1) not in secret_free

    listed = ka("players", "--db", str(demo_db)).stdout
    assert "table server: not running (start it with: ka-tui serve)" in listed
    assert re.search(r"Kasia Nowak +kasia +1 key +not connected", listed)
    assert re.search(r"Olga Petrova +olga +code until \d\d:\d\d", listed)
    assert re.search(r"Jeanne Moreau +jeanne +link", listed)
    assert "no longer works" in ka("players", "unlink", "Jeanne", "--db", str(demo_db)).stdout
    revoked = ka("players", "revoke", "Kasia", "--db", str(demo_db)).stdout
    assert "revoked 1 way in for Kasia Nowak" in revoked
    assert re.search(r"Kasia Nowak +kasia +revoked",
                     ka("players", "--db", str(demo_db)).stdout)


def test_a_player_whose_account_cannot_open_the_file_is_told_in_one_line(
        demo_db: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """As another account would (the suite may run as root, whom no mode stops)."""
    import ka_tui.store.player_data as player_data

    def cannot(path: Path, name: str, **_: object) -> str:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(player_data, "check_player", cannot)
    assert cli.main(["play", "--as", "Kasia", "--db", str(demo_db)]) == 2
    said = capsys.readouterr().err
    assert said.startswith(f"ka-tui: you cannot open {demo_db} (no read access for this "
                           "account)") and said.count("\n") == 1
    assert "PermissionError" not in said and "unexpected" not in said
    assert os.path.exists(demo_db)
