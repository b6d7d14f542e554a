"""Who may sit at the table server, how, and who sits there now.

The GM seats a character by giving his player a way in: an SSH public key
(``add_key``), a one-time join code that enrols the key the player connects
with (``make_join_code``), or a browser link with a secret token
(``make_link``). The server (``ka_tui/server``) asks this module whether a
key, a code or a token lets someone in, as whom, and records each
connection; the GM's table screen and ``ka-tui players`` read the same rows
(``table_view``), ask a connection to be dropped (``ask_drop``) and revoke a
player (``revoke_player``); the server, watching the file, acts on it.

Secrets: a join code and a link's token are shown once, when made, and kept
only as the SHA-256 of the secret; a lost link is renewed, not shown again.
Revoked keys and passes stay in the file, refused, so a revoked player is
told why. Plain ``sqlite3`` on ``CampaignDB.connect()``; each change is one
``BEGIN IMMEDIATE`` transaction. Times are UTC, ISO 8601 (``stamp``).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import os
import re
import secrets
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from ka_tui.store.db import CampaignDB, translate_error
from ka_tui.store.errors import NotFound, StoreError, ValidationError
from ka_tui.store.player_data import UnknownPlayer, match_player

JOIN_CODE_MINUTES = 15
# no I, L, O, 0, 1: a code read aloud at the table is typed right
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8             # 31^8: about 40 bits, for 15 minutes and three tries a connection
TOKEN_BYTES = 20            # 160 bits: 32 characters of base32 in the link
KEY_TYPES = ("ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
             "ecdsa-sha2-nistp521", "sk-ssh-ed25519@openssh.com",
             "sk-ecdsa-sha2-nistp256@openssh.com")
KEEP_ENDED = 200            # ended connections kept for the GM's "last seen"


class TableBusy(StoreError):
    """Another table server runs for this campaign."""


class NotAdmitted(StoreError):
    """A key, code or token that lets no one in; the message says why, in one line."""


def stamp(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("ascii", "replace")).hexdigest()


# ------------------------------------------------------------------ keys


@dataclass(frozen=True)
class PublicKey:
    """An SSH public key as an ``authorized_keys`` line names it."""

    algorithm: str
    blob: str       # base64, as in the line
    comment: str = ""

    @property
    def text(self) -> str:
        return f"{self.algorithm} {self.blob}"

    @property
    def fingerprint(self) -> str:
        """As ``ssh-keygen -l`` prints it: ``SHA256:`` and unpadded base64."""
        raw = hashlib.sha256(base64.b64decode(self.blob)).digest()
        return "SHA256:" + base64.b64encode(raw).decode().rstrip("=")


def parse_public_key(text: str) -> PublicKey:
    """``ALGORITHM BASE64 [COMMENT]`` (one line of a ``.pub`` file or of
    ``authorized_keys`` without options). Raises ``ValidationError`` on the
    field ``key`` with what is wrong."""
    line = text.strip()
    if "PRIVATE KEY" in line:
        raise ValidationError("key", "this is a private key: give the player's .pub file "
                                     "(the private one never leaves his computer)")
    lines = [ln for ln in line.splitlines() if ln.strip() and not ln.startswith("#")]
    if len(lines) != 1:
        raise ValidationError("key", "one public key, on one line (a .pub file), please")
    words = lines[0].split(None, 2)
    if not words or words[0] not in KEY_TYPES:
        raise ValidationError("key", "not an SSH public key (it starts with ssh-ed25519, "
                                     "ssh-rsa or ecdsa-…)")
    if len(words) < 2:
        raise ValidationError("key", "the key's base64 part is missing")
    algorithm, blob = words[0], words[1]
    try:
        raw = base64.b64decode(blob, validate=True)
    except (binascii.Error, ValueError):
        raise ValidationError("key", "the key's base64 part is damaged") from None
    name_len = int.from_bytes(raw[:4], "big") if len(raw) >= 4 else -1
    if raw[4:4 + name_len] != algorithm.encode() or len(raw) < 4 + name_len + 16:
        raise ValidationError("key", "the key's base64 part does not match its type")
    comment = words[2].strip()[:200] if len(words) > 2 else ""
    return PublicKey(algorithm, blob, comment)


# ------------------------------------------------------------------ views


@dataclass(frozen=True)
class KeyInfo:
    id: int
    character_id: int
    key: PublicKey
    added_at: str
    added_by: str
    revoked_at: str | None


@dataclass(frozen=True)
class Connection:
    id: int
    character_id: int
    name: str
    way: str            # ssh | web
    peer: str
    started_at: str
    ended_at: str | None
    ended_why: str
    drop_asked: bool
    server_pid: int


@dataclass(frozen=True)
class Seat:
    """One character and his ways to the table (every character has a row)."""

    character_id: int
    name: str
    login: str          # the name before @ in ``ssh -p PORT login@host``
    keys: tuple[KeyInfo, ...]
    link: bool          # a live browser link
    code_until: str | None  # an open join code's expiry
    revoked: bool       # had a way in, none is left
    connections: tuple[Connection, ...]
    last_seen: str | None

    @property
    def live_keys(self) -> tuple[KeyInfo, ...]:
        return tuple(k for k in self.keys if k.revoked_at is None)

    @property
    def seated(self) -> bool:
        return bool(self.live_keys or self.link or self.code_until)


@dataclass(frozen=True)
class ServerInfo:
    pid: int
    host: str
    ssh_port: int | None
    web_url: str | None
    started_at: str
    stopped_at: str | None
    running: bool       # its process is alive on this machine


@dataclass(frozen=True)
class TableView:
    server: ServerInfo | None
    seats: tuple[Seat, ...]

    @property
    def connections(self) -> tuple[Connection, ...]:
        found = [c for s in self.seats for c in s.connections]
        return tuple(sorted(found, key=lambda c: (c.started_at, c.id)))

    def seat(self, name_or_id: str | int) -> Seat:
        for seat in self.seats:
            if seat.character_id == name_or_id or seat.name == name_or_id:
                return seat
        raise NotFound(f"no character {name_or_id!r} in this campaign")


# ------------------------------------------------------------------ plumbing


@contextlib.contextmanager
def _write(db: CampaignDB) -> Iterator[sqlite3.Connection]:
    """One change: ``BEGIN IMMEDIATE`` … commit, or roll back; database
    failures as the store's one-line errors."""
    db.refuse_if_read_only()
    try:
        con = db.connect()
    except sqlite3.Error as e:
        raise translate_error(e) from None
    try:
        con.execute("PRAGMA foreign_keys = ON")
        con.execute("BEGIN IMMEDIATE")
        try:
            yield con
        except BaseException:
            con.execute("ROLLBACK")
            raise
        con.execute("COMMIT")
    except sqlite3.Error as e:
        raise translate_error(e) from None
    finally:
        con.close()


@contextlib.contextmanager
def _read(db: CampaignDB) -> Iterator[sqlite3.Connection]:
    try:
        con = db.connect()
    except sqlite3.Error as e:
        raise translate_error(e) from None
    try:
        con.execute("BEGIN")
        yield con
    except sqlite3.Error as e:
        raise translate_error(e) from None
    finally:
        con.close()


def _character(con: sqlite3.Connection, name: str | int) -> tuple[int, str]:
    if isinstance(name, int):
        row = con.execute("SELECT id, name FROM character WHERE id = ?", (name,)).fetchone()
        if row is None:
            raise NotFound(f"no character with id {name} in this campaign")
        return int(row[0]), str(row[1])
    try:
        return match_player(con, name)
    except UnknownPlayer as e:
        raise NotFound(str(e)) from None


def find_character(db: CampaignDB, name: str) -> int:
    """The id of the character ``name`` names (full or unambiguous first name)."""
    with _read(db) as con:
        return _character(con, name)[0]


def login_names(con: sqlite3.Connection) -> dict[int, str]:
    """Each character's SSH login: his first name in lower case when no other
    character has it, else his full name with dots for spaces."""
    rows = [(int(i), str(n)) for i, n in con.execute("SELECT id, name FROM character")]
    firsts: dict[str, int] = {}
    for _, name in rows:
        first = name.split()[0].casefold()
        firsts[first] = firsts.get(first, 0) + 1
    out = {}
    for cid, name in rows:
        first = name.split()[0].casefold()
        out[cid] = first if firsts[first] == 1 else ".".join(name.split()).casefold()
    return out


def match_login(con: sqlite3.Connection, username: str) -> tuple[int, str]:
    """The character an SSH user name names: his login (``login_names``), or
    his name as ``play --as`` takes it, with dots or underscores for spaces."""
    wanted = re.sub(r"[._]+", " ", username).strip()
    if not wanted or len(wanted) > 120:
        raise NotAdmitted(f"no player {username[:40]!r} at this table")
    logins = login_names(con)
    for cid, login in logins.items():
        if login == username.strip().casefold():
            return _character(con, cid)
    try:
        return match_player(con, wanted)
    except UnknownPlayer:
        same = sorted(login for login in logins.values()
                      if login.split(".")[0] == wanted.casefold())
        if len(same) > 1:
            raise NotAdmitted(f"{len(same)} characters are called {username[:40]!r}: "
                              f"connect as {' or '.join(same)}") from None
        raise NotAdmitted(f"no player {username[:40]!r} at this table; connect as your "
                          "character's first name (ssh -p PORT kasia@host)") from None


# ------------------------------------------------------------------ the GM


def _insert_key(con: sqlite3.Connection, cid: int, key: PublicKey, now: datetime,
                added_by: str) -> int:
    cur = con.execute("INSERT INTO player_key (character_id, key, comment, added_at, added_by) "
                      "VALUES (?, ?, ?, ?, ?)", (cid, key.text, key.comment, stamp(now),
                                                 added_by))
    return int(cur.lastrowid or 0)


def add_key(db: CampaignDB, name: str | int, text: str, now: datetime) -> KeyInfo:
    """Bind a public key to a character (again, if it was revoked). A key
    already bound to another character is refused, naming him."""
    key = parse_public_key(text)
    with _write(db) as con:
        cid, _full = _character(con, name)
        row = con.execute("SELECT p.id, p.character_id, c.name FROM player_key p JOIN "
                          "character c ON c.id = p.character_id WHERE p.key = ?",
                          (key.text,)).fetchone()
        if row is not None and int(row[1]) != cid:
            raise ValidationError("key", f"this key is already {row[2]}'s; a key is one "
                                         "player's")
        if row is None:
            key_id = _insert_key(con, cid, key, now, "gm")
        else:
            key_id = int(row[0])
            con.execute("UPDATE player_key SET revoked_at = NULL, comment = ? WHERE id = ?",
                        (key.comment, key_id))
        return KeyInfo(key_id, cid, key, stamp(now), "gm", None)


def make_join_code(db: CampaignDB, name: str | int, now: datetime,
                   minutes: int = JOIN_CODE_MINUTES) -> str:
    """A new one-time code for the character (an older open one is revoked):
    ``XXXX-XXXX``; shown once, kept as its digest."""
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    with _write(db) as con:
        cid, _full = _character(con, name)
        con.execute("UPDATE player_pass SET revoked_at = ? WHERE character_id = ? AND "
                    "kind = 'join' AND revoked_at IS NULL AND used_at IS NULL",
                    (stamp(now), cid))
        con.execute("INSERT INTO player_pass (character_id, kind, digest, made_at, "
                    "expires_at) VALUES (?, 'join', ?, ?, ?)",
                    (cid, digest(code), stamp(now), stamp(now + timedelta(minutes=minutes))))
    return f"{code[:4]}-{code[4:]}"


def normal_code(typed: str) -> str:
    """A typed join code as it was made: capitals, no dashes or spaces."""
    return re.sub(r"[^A-Z0-9]", "", typed.upper())


def make_link(db: CampaignDB, name: str | int, now: datetime) -> str:
    """A new secret token for the character's browser link; the old link stops
    working and the browser sessions that came in with it are dropped."""
    token = base64.b32encode(secrets.token_bytes(TOKEN_BYTES)).decode().rstrip("=")
    with _write(db) as con:
        cid, _full = _character(con, name)
        _revoke_links(con, cid, now)
        con.execute("INSERT INTO player_pass (character_id, kind, digest, made_at) "
                    "VALUES (?, 'web', ?, ?)", (cid, digest(token), stamp(now)))
    return token


def link_url(base: str, token: str) -> str:
    """The player's link: the server's address and ``/P/TOKEN`` (capitals and
    digits only, so a QR code of it is small)."""
    return f"{base.rstrip('/')}/P/{token}"


def _revoke_pass(con: sqlite3.Connection, pass_id: int, now: datetime) -> None:
    con.execute("UPDATE player_pass SET revoked_at = ? WHERE id = ?", (stamp(now), pass_id))
    con.execute("UPDATE table_connection SET drop_asked = 1 WHERE pass_id = ? AND "
                "ended_at IS NULL", (pass_id,))


def _revoke_links(con: sqlite3.Connection, cid: int, now: datetime) -> list[int]:
    """The character's browser links still in force, revoked; their ids."""
    old = [int(r[0]) for r in con.execute(
        "SELECT id FROM player_pass WHERE character_id = ? AND kind = 'web' AND "
        "revoked_at IS NULL", (cid,))]
    for pass_id in old:
        _revoke_pass(con, pass_id, now)
    return old


def revoke_link(db: CampaignDB, name: str | int, now: datetime) -> bool:
    """The character's browser link stops working (its sessions are dropped)."""
    with _write(db) as con:
        cid, _full = _character(con, name)
        old = _revoke_links(con, cid, now)
    return bool(old)


def revoke_player(db: CampaignDB, name: str | int, now: datetime) -> int:
    """Every way in of the character revoked (keys, codes, link) and his
    connections asked to drop. Returns how many ways were revoked."""
    with _write(db) as con:
        cid, _full = _character(con, name)
        keys = con.execute("UPDATE player_key SET revoked_at = ? WHERE character_id = ? AND "
                           "revoked_at IS NULL", (stamp(now), cid)).rowcount
        passes = con.execute("UPDATE player_pass SET revoked_at = ? WHERE character_id = ? "
                             "AND revoked_at IS NULL AND used_at IS NULL",
                             (stamp(now), cid)).rowcount
        con.execute("UPDATE table_connection SET drop_asked = 1 WHERE character_id = ? AND "
                    "ended_at IS NULL", (cid,))
    return int(keys) + int(passes)


def ask_drop(db: CampaignDB, connection_id: int) -> bool:
    """Ask the server to close a connection; False if it has ended already."""
    with _write(db) as con:
        done = con.execute("UPDATE table_connection SET drop_asked = 1 WHERE id = ? AND "
                           "ended_at IS NULL", (connection_id,)).rowcount
    return bool(done)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def table_view(db: CampaignDB, now: datetime,
               alive: Callable[[int], bool] = _alive) -> TableView:
    """The table as the GM sees it: the server, every character's seat, and
    who is connected (only the connections of a server that is alive)."""
    now_text = stamp(now)
    with _read(db) as con:
        srow = con.execute("SELECT pid, host, ssh_port, web_url, started_at, stopped_at "
                           "FROM table_server WHERE id = 1").fetchone()
        server = None
        if srow is not None:
            running = srow[5] is None and alive(int(srow[0]))
            server = ServerInfo(int(srow[0]), str(srow[1]), srow[2], srow[3], str(srow[4]),
                                srow[5], running)
        logins = login_names(con)
        chars = [(int(i), str(n)) for i, n in
                 con.execute("SELECT id, name FROM character ORDER BY name COLLATE NOCASE")]
        keys: dict[int, list[KeyInfo]] = {}
        for kid, cid, text, comment, added_at, added_by, revoked_at in con.execute(
                "SELECT id, character_id, key, comment, added_at, added_by, revoked_at "
                "FROM player_key ORDER BY id"):
            algorithm, blob = str(text).split(" ", 1)
            keys.setdefault(int(cid), []).append(KeyInfo(
                int(kid), int(cid), PublicKey(algorithm, blob, str(comment)), str(added_at),
                str(added_by), revoked_at))
        links = {int(c) for (c,) in con.execute(
            "SELECT character_id FROM player_pass WHERE kind = 'web' AND revoked_at IS NULL")}
        codes = {int(c): str(e) for c, e in con.execute(
            "SELECT character_id, max(expires_at) FROM player_pass WHERE kind = 'join' AND "
            "revoked_at IS NULL AND used_at IS NULL AND expires_at > ? GROUP BY character_id",
            (now_text,))}
        passes = {int(c) for (c,) in con.execute("SELECT DISTINCT character_id FROM player_pass")}
        live_pid = server.pid if server is not None and server.running else None
        conns: dict[int, list[Connection]] = {}
        last: dict[int, str] = {}
        names = dict(chars)
        for row in con.execute(
                "SELECT id, character_id, way, peer, started_at, ended_at, ended_why, "
                "drop_asked, server_pid FROM table_connection ORDER BY id"):
            c = Connection(int(row[0]), int(row[1]), names.get(int(row[1]), "?"), str(row[2]),
                           str(row[3]), str(row[4]), row[5], str(row[6]), bool(row[7]),
                           int(row[8]))
            last[c.character_id] = max(last.get(c.character_id, ""), c.ended_at or now_text)
            if c.ended_at is None and c.server_pid == live_pid:
                conns.setdefault(c.character_id, []).append(c)
    seats = []
    for cid, name in chars:
        mine = tuple(keys.get(cid, ()))
        had = bool(mine) or cid in passes
        seat = Seat(cid, name, logins[cid], mine, cid in links, codes.get(cid), False,
                    tuple(conns.get(cid, ())), last.get(cid))
        seats.append(replace(seat, revoked=had and not seat.seated))
    return TableView(server, tuple(seats))


# ------------------------------------------------------------------ the server


@dataclass(frozen=True)
class Admitted:
    """Who a key, code or token lets in."""

    character_id: int
    name: str
    key_id: int | None = None
    pass_id: int | None = None


def server_started(db: CampaignDB, pid: int, host: str, ssh_port: int | None,
                   web_url: str | None, now: datetime,
                   alive: Callable[[int], bool] = _alive) -> None:
    """Record this server as the campaign's; refuse when another one runs.
    Connections a stopped or killed server left open are ended."""
    with _write(db) as con:
        row = con.execute("SELECT pid, ssh_port, web_url FROM table_server WHERE id = 1 AND "
                          "stopped_at IS NULL").fetchone()
        if row is not None and int(row[0]) != pid and alive(int(row[0])):
            ways = ", ".join(w for w in (f"ssh port {row[1]}" if row[1] else "",
                                         str(row[2] or "")) if w)
            raise TableBusy(f"a table server already runs for this campaign (process "
                            f"{row[0]}{'; ' + ways if ways else ''}); stop it first")
        con.execute("UPDATE table_connection SET ended_at = ?, ended_why = 'the server "
                    "stopped' WHERE ended_at IS NULL", (stamp(now),))
        con.execute("DELETE FROM table_connection WHERE ended_at IS NOT NULL AND id NOT IN "
                    "(SELECT id FROM table_connection ORDER BY id DESC LIMIT ?)", (KEEP_ENDED,))
        con.execute("INSERT OR REPLACE INTO table_server (id, pid, host, ssh_port, web_url, "
                    "started_at, stopped_at) VALUES (1, ?, ?, ?, ?, ?, NULL)",
                    (pid, host, ssh_port, web_url, stamp(now)))


def server_stopped(db: CampaignDB, pid: int, now: datetime) -> None:
    with _write(db) as con:
        con.execute("UPDATE table_connection SET ended_at = ?, ended_why = 'the server "
                    "stopped' WHERE ended_at IS NULL AND server_pid = ?", (stamp(now), pid))
        con.execute("UPDATE table_server SET stopped_at = ? WHERE id = 1 AND pid = ?",
                    (stamp(now), pid))


def admit_key(db: CampaignDB, username: str, key: PublicKey) -> Admitted:
    """The character ``username`` names, if ``key`` is his and not revoked.
    Raises ``NotAdmitted`` saying why."""
    with _read(db) as con:
        cid, name = match_login(con, username)
        row = con.execute("SELECT id, character_id, revoked_at FROM player_key WHERE key = ?",
                          (key.text,)).fetchone()
    if row is None:
        raise NotAdmitted(f"this key is not at this table for {name}; ask the GM to add it, "
                          "or for a join code")
    if int(row[1]) != cid:
        raise NotAdmitted(f"this key is not {name}'s")
    if row[2] is not None:
        raise NotAdmitted("the GM has revoked this key")
    return Admitted(cid, name, key_id=int(row[0]))


def join_code_open(db: CampaignDB, username: str, key: PublicKey, now: datetime) -> Admitted:
    """``username``'s character has an open join code, and ``key`` may be
    enrolled with it (not revoked, not another's): the connection may ask for
    the code. Raises ``NotAdmitted`` saying why not."""
    with _read(db) as con:
        cid, name = match_login(con, username)
        row = con.execute("SELECT character_id, revoked_at FROM player_key WHERE key = ?",
                          (key.text,)).fetchone()
        if row is not None and row[1] is not None:
            raise NotAdmitted("the GM has revoked this key")
        if row is not None and int(row[0]) != cid:
            raise NotAdmitted(f"this key is not {name}'s")
        open_code = con.execute(
            "SELECT 1 FROM player_pass WHERE character_id = ? AND kind = 'join' AND "
            "revoked_at IS NULL AND used_at IS NULL AND expires_at > ?",
            (cid, stamp(now))).fetchone()
    if open_code is None:
        raise NotAdmitted(f"this key is not at this table for {name}, and {name} has no "
                          "open join code; ask the GM for one")
    return Admitted(cid, name)


def use_join_code(db: CampaignDB, character_id: int, code: str, key: PublicKey,
                  now: datetime) -> Admitted:
    """Enrol ``key`` for the character with his open join code ``code`` (used
    up by it). Raises ``NotAdmitted`` for a wrong, used or expired code."""
    with _write(db) as con:
        cid, name = _character(con, character_id)
        row = con.execute(
            "SELECT id, expires_at, used_at, revoked_at FROM player_pass WHERE digest = ? "
            "AND kind = 'join' AND character_id = ?",
            (digest(normal_code(code)), cid)).fetchone()
        if row is None:
            raise NotAdmitted("wrong join code")
        if row[2] is not None or row[3] is not None:
            raise NotAdmitted("this join code has been used or replaced; ask the GM for a "
                              "new one")
        if str(row[1]) <= stamp(now):
            raise NotAdmitted("this join code has expired; ask the GM for a new one")
        con.execute("UPDATE player_pass SET used_at = ? WHERE id = ?", (stamp(now), row[0]))
        found = con.execute("SELECT id, character_id, revoked_at FROM player_key WHERE "
                            "key = ?", (key.text,)).fetchone()
        if found is not None and (int(found[1]) != cid or found[2] is not None):
            raise NotAdmitted("this key cannot be enrolled (revoked, or another player's)")
        if found is None:
            key_id = _insert_key(con, cid, key, now, "join code")
        else:
            key_id = int(found[0])
    return Admitted(cid, name, key_id=key_id)


def admit_token(db: CampaignDB, token: str) -> Admitted:
    """Whose browser link ``token`` is (live). Raises ``NotAdmitted``."""
    wanted = token.strip().upper()
    if not re.fullmatch(r"[A-Z2-7]{16,64}", wanted):
        raise NotAdmitted("this link is not valid")
    with _read(db) as con:
        row = con.execute("SELECT p.id, p.character_id, c.name, p.revoked_at FROM player_pass "
                          "p JOIN character c ON c.id = p.character_id WHERE p.digest = ? "
                          "AND p.kind = 'web'", (digest(wanted),)).fetchone()
    if row is None or row[3] is not None:
        raise NotAdmitted("this link is not valid (or the GM has renewed it); ask the GM "
                          "for the new one")
    return Admitted(int(row[1]), str(row[2]), pass_id=int(row[0]))


def connection_opened(db: CampaignDB, who: Admitted, way: str, peer: str, pid: int,
                      now: datetime) -> int:
    with _write(db) as con:
        cur = con.execute("INSERT INTO table_connection (character_id, way, peer, key_id, "
                          "pass_id, server_pid, started_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                          (who.character_id, way, peer[:100], who.key_id, who.pass_id, pid,
                           stamp(now)))
        return int(cur.lastrowid or 0)


def connection_closed(db: CampaignDB, connection_id: int, why: str, now: datetime) -> None:
    with _write(db) as con:
        con.execute("UPDATE table_connection SET ended_at = ?, ended_why = ? WHERE id = ? "
                    "AND ended_at IS NULL", (stamp(now), why[:200], connection_id))


def drops_asked(db: CampaignDB, pid: int) -> list[int]:
    """Open connections of server ``pid`` the GM asked to drop."""
    with _read(db) as con:
        return [int(i) for (i,) in con.execute(
            "SELECT id FROM table_connection WHERE server_pid = ? AND ended_at IS NULL AND "
            "drop_asked = 1", (pid,))]
