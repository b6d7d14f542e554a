"""``ka-tui serve`` and ``ka-tui players``: what the GM types and reads.

``serve`` says in plain words how players join, then one line per event
(who joined, by which way, who left); never a token or a code. ``players``
changes the seats (the same store calls as the Table mode in ka-tui) and
prints a code or a link once, when it is made.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from datetime import UTC, datetime
from pathlib import Path

from ka_tui.screens.table.words import local_time, seat_ways, ssh_command, ssh_port, web_base
from ka_tui.server.table import Listening, ServeOptions, TableError, TableServer
from ka_tui.store import table_seats
from ka_tui.store.db import CampaignDB, open_campaign
from ka_tui.store.files import is_shared
from ka_tui.store.table_seats import Seat, TableView


def _out(line: str = "") -> None:
    print(line, flush=True)


def _now() -> datetime:
    return datetime.now(UTC)


def how_to_join(view: TableView, listening: Listening, campaign: str, path: Path) -> list[str]:
    """The server's opening words."""
    host = socket.gethostname()
    lines = [f"ka-tui: the table is open for {campaign!r} ({path}); ctrl+c closes it.", ""]
    if listening.ssh_port is not None:
        lines += [f"  Over SSH:   {ssh_command('NAME', listening.ssh_port, host)}",
                  "              NAME is the character's first name, in lower case "
                  "(kasia, olga, ...)",
                  f"              this server's key: {listening.host_key}"]
    if listening.web_url is not None:
        lines += [f"  Browser:    each player's own link, at {listening.web_url}/P/...",
                  "              make one with: ka-tui players link NAME (it prints a QR code)"]
    seated = [s for s in view.seats if s.seated]
    lines.append("")
    if seated:
        lines.append("  Seated:     " + "; ".join(f"{s.name} ({seat_ways(s)})" for s in seated))
    else:
        lines.append("  Nobody is seated yet.")
    lines += ["  Seat one:   ka-tui players code NAME (a one-time join code for SSH),",
              "              ka-tui players add-key NAME FILE, ka-tui players link NAME,",
              "              or the Table mode (7) in ka-tui.", ""]
    return lines


def serve(path: Path, *, listen: str, ssh_port: int | None, web_port: int | None,
          public_url: str | None, web_listen: str | None = None) -> int:
    options = ServeOptions(listen=listen, web_listen=web_listen, ssh_port=ssh_port,
                           web_port=web_port, public_url=public_url)
    if is_shared(path):
        print(f"ka-tui: note: {path} is shared with its group (--shared-group): anyone in the "
              "group reads every secret in it, whatever the table server does; "
              f"chmod 600 {path} makes it the GM's alone", file=sys.stderr)
    server = TableServer(path, options, say=_out)

    async def run() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        import signal

        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(sig, stop.set)
        listening = await server.start()
        try:
            view = await server.in_thread(lambda db: table_seats.table_view(db, _now()))
            name = await server.in_thread(_campaign_name)
            for line in how_to_join(view, listening, name, path):
                _out(line)
            await stop.wait()
            _out("ka-tui: closing the table...")
        finally:
            await server.stop()

    try:
        asyncio.run(run())
    except OSError as error:
        raise TableError(f"cannot listen: {error.strerror or error} (another program on the "
                        "port? choose one with --ssh-port or --web-port)") from None
    finally:
        server.close()
    _out("ka-tui: the table is closed.")
    return 0


def _campaign_name(db: CampaignDB) -> str:
    with db.plain_read() as read:
        found = read.execute("SELECT name FROM campaign WHERE id = 1").fetchall()
    return str(found[0][0]) if found else "?"


def _read_key(text: str) -> str:
    if text == "-":
        return sys.stdin.read()
    if text.split(None, 1)[0] in table_seats.KEY_TYPES:
        return text
    path = Path(os.path.expanduser(text))
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise TableError(f"cannot read {path}: {error.strerror}") from None


def players(path: Path, action: str, name: str | None, key: str | None) -> int:
    now = _now()
    with open_campaign(path) as db:
        view = table_seats.table_view(db, now)
        if action == "list":
            _list(view)
            return 0
        assert name is not None
        seat = view.seat(table_seats.find_character(db, name))
        if action == "add-key":
            assert key is not None
            added = table_seats.add_key(db, seat.character_id, _read_key(key), now)
            _out(f"ka-tui: {seat.name} may now join over SSH with key {added.key.fingerprint}"
                 f" ({added.key.algorithm}{', ' + added.key.comment if added.key.comment else ''})")
            _out(f"        {ssh_command(seat.login, ssh_port(view), socket.gethostname())}")
        elif action == "code":
            code = table_seats.make_join_code(db, seat.character_id, now)
            _out(f"ka-tui: join code for {seat.name}: {code}  (once, for "
                 f"{table_seats.JOIN_CODE_MINUTES} minutes)")
            _out(f"        {seat.name.split()[0]} connects with: "
                 f"{ssh_command(seat.login, ssh_port(view), socket.gethostname())}")
            _out("        and types the code; the key that connects is then enrolled.")
        elif action == "link":
            from ka_tui.screens.table.qr import qr_for_terminal

            token = table_seats.make_link(db, seat.character_id, now)
            url = table_seats.link_url(web_base(view), token)
            colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
            _out(qr_for_terminal(url, colour=colour))
            _out(f"ka-tui: {seat.name}'s link (keep it private; the old one no longer works):")
            _out(f"        {url}")
        elif action == "unlink":
            gone = table_seats.revoke_link(db, seat.character_id, now)
            _out(f"ka-tui: {seat.name}'s browser link "
                 f"{'no longer works' if gone else 'was not set'}")
        elif action == "revoke":
            count = table_seats.revoke_player(db, seat.character_id, now)
            _out(f"ka-tui: revoked {count} way{'s' if count != 1 else ''} in for {seat.name}; "
                 "his connections are being closed")
        elif action == "drop":
            dropped = [c for c in seat.connections if table_seats.ask_drop(db, c.id)]
            _out(f"ka-tui: {len(dropped)} connection{'s' if len(dropped) != 1 else ''} of "
                 f"{seat.name} closing")
    return 0


def _list(view: TableView) -> None:
    server = view.server
    if server is not None and server.running:
        ways = ", ".join(w for w in (f"ssh port {server.ssh_port}" if server.ssh_port else "",
                                     server.web_url or "") if w)
        _out(f"table server: running since {local_time(server.started_at)} (process "
             f"{server.pid}; {ways})")
    else:
        _out("table server: not running (start it with: ka-tui serve)")
    seated = [s for s in view.seats if s.seated or s.revoked or s.connections]
    if not seated:
        _out("nobody is seated yet: ka-tui players code NAME, add-key NAME FILE or link NAME")
        return
    width = max(len(s.name) for s in seated)
    for seat in seated:
        now = ", ".join(f"{c.way} from {c.peer or '?'} since {local_time(c.started_at)}"
                        for c in seat.connections)
        _out(f"  {seat.name:<{width}}  {seat.login:<12} {seat_ways(seat):<28} "
             f"{now or 'not connected'}")
