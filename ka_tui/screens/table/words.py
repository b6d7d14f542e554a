"""How the table server's seats and addresses are said, the same in the
Table mode and on the command line (``ka-tui serve``, ``ka-tui players``)."""

from __future__ import annotations

import socket
from datetime import UTC, datetime

from ka_tui.store.table_seats import Seat, TableView

DEFAULT_SSH_PORT = 2222
DEFAULT_WEB_PORT = 8022


def local_time(stamp: str | None) -> str:
    """An ISO UTC stamp as the GM's local time of day (``20:50``)."""
    if not stamp:
        return ""
    try:
        when = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    except ValueError:
        return stamp
    return f"{when.astimezone():%H:%M}"


def seat_ways(seat: Seat) -> str:
    """``2 keys · link · code until 20:50``, or ``revoked``, or ``-``."""
    parts = []
    keys = len(seat.live_keys)
    if keys:
        parts.append(f"{keys} key{'s' if keys > 1 else ''}")
    if seat.link:
        parts.append("link")
    if seat.code_until:
        parts.append(f"code until {local_time(seat.code_until)}")
    if not parts:
        return "revoked" if seat.revoked else "-"
    return " · ".join(parts)


def ssh_command(login: str, port: int | None, host: str | None = None) -> str:
    host = host or socket.gethostname()
    return f"ssh {'' if port in (None, 22) else f'-p {port} '}{login}@{host}"


def ssh_port(view: TableView) -> int:
    server = view.server
    return server.ssh_port if server is not None and server.ssh_port else DEFAULT_SSH_PORT


def lan_address() -> str:
    """This machine's address on its network (no packet is sent), else 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only the route is looked up
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def web_base(view: TableView) -> str:
    """Where players' browsers reach the server: the running (or last) server's
    address, else this machine's with the default port."""
    server = view.server
    if server is not None and server.web_url:
        return server.web_url
    return f"http://{lan_address()}:{DEFAULT_WEB_PORT}"
