"""Players join the table server over SSH (asyncssh's client, a real
connection to the server started in-process): a join code enrols the key,
a key lets its player in as his character and nothing else, and every
other way in is refused in one line. One server for the module; each test
seats its own characters."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from pathlib import Path

import asyncssh
import pytest

from ka_tui.store import table_seats
from tests.server.helpers import (
    Refusals,
    SshPlayer,
    Table,
    add_key,
    demo_copy,
    gm,
    join_code,
    new_key,
    now,
    rows,
    running_table,
    wait_until,
)


@pytest.fixture(scope="module")
def table(_demo_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    folder = tmp_path_factory.mktemp("ssh-table")
    with running_table(demo_copy(_demo_template, folder), folder, web=False) as running:
        yield running


async def refused(table: Table, username: str, key: asyncssh.SSHKey | None) -> str:
    """Connect as ``username`` with ``key`` (or none): refused; what it said."""
    client = Refusals()
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect("127.0.0.1", table.listening.ssh_port, username=username,
                               client_keys=[key] if key else [], known_hosts=None,
                               agent_path=None, client_factory=lambda: client,
                               password=None)
    assert len(client.said) == 1, client.said
    line = client.said[0]
    assert "\n" not in line and line.startswith("ka-tui: ")
    return line


async def test_a_join_code_enrols_the_key_it_came_with_then_the_key_alone_lets_in(
        table: Table) -> None:
    code = join_code(table.db, "Olga")
    key = new_key()
    olga = await SshPlayer(table, "olga", key).connect()
    await olga.shows("Type the join code the GM gave you:")
    await olga.keys(*"ABCD-EFGH", "enter")
    await olga.shows("wrong join code (2 tries left)")
    await olga.keys(*code.lower().replace("-", " "), "enter")   # as typed: any case, a space
    await olga.shows("playing Olga Petrova")
    enrolled = rows(table.db, "SELECT added_by FROM player_key k JOIN character c ON "
                              "c.id = k.character_id WHERE c.name = 'Olga Petrova'")
    assert enrolled == [("join code",)]
    await olga.keys("q")
    assert await olga.ended() == 0
    await olga.close()

    again = await SshPlayer(table, "olga", key).connect()   # the key alone, no prompt
    await again.shows("playing Olga Petrova")
    assert "join code" not in again.screen.text
    await again.close()
    # the code is used up: another key cannot come in with it
    assert "no open join code" in await refused(table, "olga", new_key())


async def test_three_wrong_codes_close_the_connection(table: Table) -> None:
    join_code(table.db, "Tom")
    tom = await SshPlayer(table, "tom", new_key()).connect()
    await tom.shows("Type the join code")
    for _ in range(3):
        tom.send("WRONGCODE\r")   # a line at once, as a paste
        await asyncio.sleep(0.3)
    assert await tom.ended() == 1
    assert "ka-tui: wrong join code\r\n" in tom.screen.received.decode()
    assert rows(table.db, "SELECT count(*) FROM player_key k JOIN character c ON "
                          "c.id = k.character_id WHERE c.name = 'Tom Reilly'") == [(0,)]


async def test_two_players_at_once_each_get_their_own_characters_view(table: Table) -> None:
    kasia_key, arthur_key = new_key(), new_key()
    add_key(table.db, "Kasia", kasia_key)
    add_key(table.db, "Arthur", arthur_key)
    kasia = await SshPlayer(table, "kasia", kasia_key).connect()
    arthur = await SshPlayer(table, "Arthur", arthur_key).connect()
    await kasia.shows("playing Kasia Nowak")
    await arthur.shows("playing Arthur Hale")
    assert "Arthur Hale" not in kasia.screen.text.split("\n", 1)[0]
    live = {(name, way) for _, name, way in table.open_connections()}
    assert {("Kasia Nowak", "ssh"), ("Arthur Hale", "ssh")} <= live
    with gm(table.db) as db:
        seen = table_seats.table_view(db, now())
    assert seen.server is not None and seen.server.running
    assert [c.way for c in seen.seat("Kasia Nowak").connections] == ["ssh"]
    for player in (kasia, arthur):
        await player.close()


async def test_a_wrong_key_or_name_is_refused_in_one_line(table: Table) -> None:
    add_key(table.db, "Eddie", new_key())
    assert (await refused(table, "eddie", new_key())).startswith(
        "ka-tui: this key is not at this table for Eddie Baker")
    assert "no player 'bob' at this table" in await refused(table, "bob", new_key())
    assert "takes SSH keys only" in await refused(table, "eddie", None)
    someone_elses = new_key()
    add_key(table.db, "Yusuf", someone_elses)
    assert await refused(table, "eddie", someone_elses) == "ka-tui: this key is not Eddie Baker's"


async def test_revoking_a_player_closes_his_connection_and_his_key_stays_refused(
        table: Table) -> None:
    key = new_key()
    add_key(table.db, "Jeanne", key)
    jeanne = await SshPlayer(table, "jeanne", key).connect()
    await jeanne.shows("playing Jeanne Moreau")
    with gm(table.db) as db:   # the GM, from his own ka-tui (another process)
        assert table_seats.revoke_player(db, "Jeanne", now()) == 1
    started = time.monotonic()
    assert await jeanne.ended(timeout=15) == 1
    assert time.monotonic() - started < 10
    assert "ka-tui: the GM closed your connection" in jeanne.screen.text
    assert "\x1b[?1049l" in jeanne.screen.received.decode("latin-1")  # his terminal put back
    await jeanne.close()
    assert await refused(table, "jeanne", key) == "ka-tui: the GM has revoked this key"
    join_code(table.db, "Jeanne")   # a new code does not let the revoked key in either
    assert await refused(table, "jeanne", key) == "ka-tui: the GM has revoked this key"


async def test_exec_scp_sftp_and_forwarding_are_refused(table: Table) -> None:
    key = new_key()
    add_key(table.db, "Ruth", key)
    async with asyncssh.connect("127.0.0.1", table.listening.ssh_port, username="ruth",
                                client_keys=[key], known_hosts=None,
                                agent_path=None) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.run("cat /etc/passwd")
        with pytest.raises((asyncssh.SFTPError, asyncssh.ChannelOpenError)):
            await conn.start_sftp_client()
        with pytest.raises((asyncssh.SFTPError, asyncssh.ChannelOpenError, OSError)):
            await asyncssh.scp((conn, str(table.db)), str(table.db) + ".stolen")
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1",
                                         table.listening.ssh_port or 22)
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_unix_connection("/tmp/.X11-unix/X0")
    assert not Path(str(table.db) + ".stolen").exists()


async def test_the_clients_environment_never_reaches_the_view(table: Table) -> None:
    key = new_key()
    add_key(table.db, "Ilse", key)
    ilse = SshPlayer(table, "ilse", key)
    ilse.conn = await asyncssh.connect("127.0.0.1", table.listening.ssh_port,
                                       username="ilse", client_keys=[key], known_hosts=None,
                                       agent_path=None)
    from tests.server.helpers import _Collect

    ilse.chan, ilse.session = await ilse.conn.create_session(
        lambda: _Collect(ilse.screen), term_type="xterm-256color", term_size=(80, 24),
        encoding=None, env={"LD_PRELOAD": "/tmp/evil.so", "KA_TUI_READ_ONLY": "1",
                            "PYTHONSTARTUP": "/tmp/evil.py"})
    await ilse.shows("playing Ilse Brandt")
    pids = [s.seat.pid for s in list(table.server.sessions.values())
            if getattr(getattr(s, "server", None), "who", None) is not None
            and s.server.who.name == "Ilse Brandt"]
    assert len(pids) == 1
    environ = Path(f"/proc/{pids[0]}/environ").read_bytes().split(b"\0")
    names = {entry.split(b"=", 1)[0] for entry in environ if entry}
    assert not names & {b"LD_PRELOAD", b"KA_TUI_READ_ONLY", b"PYTHONSTARTUP"}
    assert b"TERM=xterm-256color" in environ
    await ilse.close()


async def test_without_a_terminal_the_player_is_told_in_one_line(table: Table) -> None:
    key = new_key()
    add_key(table.db, "Mike", key)
    async with asyncssh.connect("127.0.0.1", table.listening.ssh_port, username="mike",
                                client_keys=[key], known_hosts=None, agent_path=None) as conn:
        done = await conn.run(None, encoding=None)   # a shell, no pty (ssh host < file)
    assert done.exit_status == 1
    assert done.stdout == b"\r\nka-tui: the player's view needs a terminal: connect with " \
                          b"ssh -t\r\n"


async def test_a_window_change_reaches_the_view(table: Table) -> None:
    key = new_key()
    add_key(table.db, "Sam", key)
    sam = await SshPlayer(table, "sam", key).connect()
    await sam.shows("playing Sam Okoro")
    sam.screen.resize(100, 30)
    assert sam.chan is not None
    sam.chan.change_terminal_size(100, 30)
    await wait_until(lambda: sam.screen.screen.display[29].rstrip().endswith("^p palette")
                     and len(sam.screen.screen.display[29].rstrip()) > 90,
                     lambda: sam.screen.text)
    await sam.close()


async def test_a_dropped_player_comes_back_to_the_pane_he_was_on(table: Table) -> None:
    key = new_key()
    add_key(table.db, "Yusuf", key)
    yusuf = await SshPlayer(table, "yusuf", key).connect()
    await yusuf.shows("playing Yusuf Karim")
    assert current_tab(yusuf) == "1 Sheet"
    await yusuf.keys("3")
    await wait_until(lambda: current_tab(yusuf) == "3 Aircraft", lambda: yusuf.screen.text)
    await wait_until(lambda: table.server.views.get(_cid(table, "Yusuf Karim"), {}).get(
        "pane") == "aircraft", lambda: str(table.server.views))
    (connection,) = [c for c, name, _way in table.open_connections() if name == "Yusuf Karim"]
    with gm(table.db) as db:   # the GM drops him, from another process
        assert table_seats.ask_drop(db, connection)
    assert await yusuf.ended(timeout=15) == 1
    assert "ka-tui: the GM closed your connection" in yusuf.screen.text
    await yusuf.close()
    back = await SshPlayer(table, "yusuf", key).connect()
    await back.shows("playing Yusuf Karim")
    await wait_until(lambda: current_tab(back) == "3 Aircraft", lambda: back.screen.text)
    await back.close()


def current_tab(player: SshPlayer) -> str:
    """The pane tab drawn in reverse video on the tab line (line 2)."""
    line = player.screen.screen.buffer[1]
    return "".join(line[x].data for x in range(player.screen.screen.columns)
                   if line[x].reverse).strip()


def _cid(table: Table, name: str) -> int:
    return int(rows(table.db, "SELECT id FROM character WHERE name = ?", name)[0][0])


async def test_bad_bytes_from_one_player_leave_the_server_and_the_others_running(
        table: Table) -> None:
    """A Latin-1 byte, a 22-byte cursor move out of range, and noise: at worst
    his own view ends; the server and another player's view go on."""
    noisy_key, calm_key = new_key(), new_key()
    add_key(table.db, "Kasia", noisy_key)
    add_key(table.db, "Arthur", calm_key)
    noisy = await SshPlayer(table, "kasia", noisy_key).connect()
    calm = await SshPlayer(table, "arthur", calm_key).connect()
    await noisy.shows("playing Kasia Nowak")
    await calm.shows("playing Arthur Hale")
    for junk in (b"\xe9 ", b"\x1b[999999999;999999999H", os.urandom(4096), b"\xff" * 512):
        try:
            noisy.send(junk)
        except BrokenPipeError:   # his own view ended: allowed, and his alone
            break
        await asyncio.sleep(0.2)
    await asyncio.sleep(1)
    await calm.keys("2")
    await calm.shows("You are in no fight")
    third = await SshPlayer(table, "kasia", noisy_key).connect()   # the server still answers
    await third.shows("playing Kasia Nowak")
    for player in (noisy, calm, third):
        await player.close()
