"""The table server's seats in the campaign file: keys, join codes, links,
connections and the running server (store/table_seats.py), on a real file."""

from __future__ import annotations

import base64
import hashlib
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ka_tui.store import table_seats as seats
from ka_tui.store.db import open_campaign
from ka_tui.store.errors import NotFound, ValidationError
from ka_tui.store.table_seats import NotAdmitted, PublicKey, TableBusy

T0 = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)


def key_line(seed: bytes, comment: str = "kasia@laptop") -> str:
    """A well-formed ssh-ed25519 public key line (32 bytes of key)."""
    blob = (len(b"ssh-ed25519").to_bytes(4, "big") + b"ssh-ed25519" +
            (32).to_bytes(4, "big") + hashlib.sha256(seed).digest())
    return f"ssh-ed25519 {base64.b64encode(blob).decode()} {comment}"


def rows(path: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    con = sqlite3.connect(path)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def test_a_public_key_line_is_read_and_anything_else_refused_at_the_field() -> None:
    key = seats.parse_public_key(key_line(b"k") + "\n")
    assert key.algorithm == "ssh-ed25519" and key.comment == "kasia@laptop"
    assert key.fingerprint.startswith("SHA256:") and "=" not in key.fingerprint
    for text, says in (("-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl", "private key"),
                       ("hello", "not an SSH public key"),
                       ("ssh-ed25519", "base64 part is missing"),
                       ("ssh-ed25519 !!!!", "damaged"),
                       ("ssh-rsa " + key_line(b"k").split()[1], "does not match its type"),
                       (key_line(b"a") + "\n" + key_line(b"b"), "one public key")):
        with pytest.raises(ValidationError) as refused:
            seats.parse_public_key(text)
        assert refused.value.field == "key" and says in refused.value.message


def test_a_key_is_one_players_and_lets_him_in_by_his_login(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        added = seats.add_key(db, "Kasia", key_line(b"k"), T0)
        key = added.key
        assert seats.admit_key(db, "kasia", key).name == "Kasia Nowak"
        assert seats.admit_key(db, "Kasia.Nowak", key).key_id == added.id
        with pytest.raises(ValidationError, match="already Kasia Nowak's"):
            seats.add_key(db, "Olga", key_line(b"k"), T0)
        with pytest.raises(NotAdmitted, match="not Olga Petrova's"):
            seats.admit_key(db, "olga", key)
        with pytest.raises(NotAdmitted, match="no player 'bob'"):
            seats.admit_key(db, "bob", key)
        with pytest.raises(NotAdmitted, match="not at this table for Kasia Nowak"):
            seats.admit_key(db, "kasia", seats.parse_public_key(key_line(b"other")))
        with pytest.raises(NotFound):
            seats.add_key(db, "Nobody", key_line(b"n"), T0)


def test_a_join_code_enrols_one_key_once_and_expires(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        code = seats.make_join_code(db, "Olga", T0)
        assert len(code) == 9 and code[4] == "-"
        assert all(c in seats.CODE_ALPHABET for c in code.replace("-", ""))
        key = seats.parse_public_key(key_line(b"olga"))
        olga = seats.join_code_open(db, "olga", key, T0)
        with pytest.raises(NotAdmitted, match="wrong join code"):
            seats.use_join_code(db, olga.character_id, "AAAA-AAAA", key, T0)
        done = seats.use_join_code(db, olga.character_id, code.lower().replace("-", " "),
                                   key, T0 + timedelta(minutes=1))
        assert seats.admit_key(db, "olga", key).key_id == done.key_id
        with pytest.raises(NotAdmitted, match="used or replaced"):
            seats.use_join_code(db, olga.character_id, code,
                                seats.parse_public_key(key_line(b"x")), T0)
        late = seats.make_join_code(db, "Olga", T0)
        with pytest.raises(NotAdmitted, match="expired"):
            seats.use_join_code(db, olga.character_id, late, key,
                                T0 + timedelta(minutes=seats.JOIN_CODE_MINUTES))
        with pytest.raises(NotAdmitted, match="no open join code"):
            seats.join_code_open(db, "olga", seats.parse_public_key(key_line(b"y")),
                                 T0 + timedelta(minutes=seats.JOIN_CODE_MINUTES))
        first = seats.make_join_code(db, "Olga", T0)
        seats.make_join_code(db, "Olga", T0)   # a new code replaces the open one
        with pytest.raises(NotAdmitted, match="used or replaced"):
            seats.use_join_code(db, olga.character_id, first, key, T0)
    # the codes are kept as digests only
    digests = [d for (d,) in rows(demo_db, "SELECT digest FROM player_pass")]
    assert code.replace("-", "") not in str(digests)
    assert seats.digest(code.replace("-", "")) in digests


def test_a_link_is_renewed_and_revoked_and_only_its_digest_is_kept(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        token = seats.make_link(db, "Jeanne", T0)
        assert len(token) == 32 and token.isalnum() and token == token.upper()
        assert seats.admit_token(db, token).name == "Jeanne Moreau"
        assert seats.admit_token(db, token.lower()).name == "Jeanne Moreau"
        assert seats.link_url("http://10.0.0.2:8022/", token) == \
            f"http://10.0.0.2:8022/P/{token}"
        renewed = seats.make_link(db, "Jeanne", T0)
        with pytest.raises(NotAdmitted, match="renewed"):
            seats.admit_token(db, token)
        assert seats.revoke_link(db, "Jeanne", T0)
        with pytest.raises(NotAdmitted):
            seats.admit_token(db, renewed)
        with pytest.raises(NotAdmitted, match="not valid"):
            seats.admit_token(db, "../../etc/passwd")
    assert token not in str(rows(demo_db, "SELECT * FROM player_pass"))


def test_revoking_a_player_revokes_every_way_in_and_asks_his_connections_to_drop(
        demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        added = seats.add_key(db, "Kasia", key_line(b"k"), T0)
        token = seats.make_link(db, "Kasia", T0)
        seats.make_join_code(db, "Kasia", T0)
        who = seats.admit_key(db, "kasia", added.key)
        ssh = seats.connection_opened(db, who, "ssh", "10.0.0.5", 4242, T0)
        web = seats.connection_opened(db, seats.admit_token(db, token), "web", "10.0.0.6",
                                      4242, T0)
        assert seats.drops_asked(db, 4242) == []
        assert seats.revoke_player(db, "Kasia", T0) == 3
        assert sorted(seats.drops_asked(db, 4242)) == [ssh, web]
        with pytest.raises(NotAdmitted, match="revoked this key"):
            seats.admit_key(db, "kasia", added.key)
        with pytest.raises(NotAdmitted, match="revoked this key"):
            seats.join_code_open(db, "kasia", added.key, T0)
        seat = seats.table_view(db, T0, alive=lambda pid: True).seat("Kasia Nowak")
        assert seat.revoked and not seat.seated
        seats.add_key(db, "Kasia", key_line(b"k"), T0)   # the GM lets him back
        assert seats.admit_key(db, "kasia", added.key).name == "Kasia Nowak"


def test_renewing_a_link_drops_the_sessions_that_came_with_the_old_one(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        token = seats.make_link(db, "Olga", T0)
        web = seats.connection_opened(db, seats.admit_token(db, token), "web", "", 7, T0)
        seats.make_link(db, "Olga", T0)
        assert seats.drops_asked(db, 7) == [web]


def test_the_table_view_says_who_is_connected_to_a_live_server_only(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        seats.server_started(db, 111, "gm-laptop", 2222, "http://10.0.0.2:8022", T0,
                             alive=lambda pid: False)
        added = seats.add_key(db, "Kasia", key_line(b"k"), T0)
        cid = seats.connection_opened(db, seats.admit_key(db, "kasia", added.key), "ssh",
                                      "10.0.0.5", 111, T0)
        live = seats.table_view(db, T0, alive=lambda pid: pid == 111)
        assert live.server is not None and live.server.running
        assert [(c.id, c.name, c.way, c.peer) for c in live.connections] == \
            [(cid, "Kasia Nowak", "ssh", "10.0.0.5")]
        assert live.seat("Kasia Nowak").login == "kasia"
        dead = seats.table_view(db, T0, alive=lambda pid: False)
        assert dead.server is not None and not dead.server.running
        assert dead.connections == ()
        # a second server refuses while the first lives; once it is gone it takes over
        with pytest.raises(TableBusy, match="already runs .*process 111; ssh port 2222"):
            seats.server_started(db, 222, "gm-laptop", 2223, None, T0, alive=lambda p: True)
        seats.server_started(db, 222, "gm-laptop", 2223, None, T0, alive=lambda p: False)
        assert rows(demo_db, "SELECT ended_why FROM table_connection") == \
            [("the server stopped",)]
        seats.server_stopped(db, 222, T0)
        assert seats.table_view(db, T0, alive=lambda p: True).server.running is False


def test_logins_are_first_names_unless_two_characters_share_one(db_path: Path) -> None:
    from ka_tui.store import roster

    with open_campaign(db_path) as db:
        for name in ("Anna Berg", "Anna Kowal", "Piotr Lis"):
            roster.add_character(db, name=name, role="pilot")
        logins = sorted(seats.table_view(db, T0).seats, key=lambda s: s.name)
        assert [s.login for s in logins] == ["anna.berg", "anna.kowal", "piotr"]
        with pytest.raises(NotAdmitted, match="2 characters are called 'anna': connect as "
                                              "anna.berg or anna.kowal"):
            seats.join_code_open(db, "anna", PublicKey("ssh-ed25519", "AAAA"), T0)
