"""The Table mode (7): the GM's view of the table server (``ka-tui serve``).

Every character of the campaign, with his login and his ways in (SSH keys,
an open join code, a browser link), and who is connected now, by which way,
from where, since when. From here the GM seats a player (``a`` adds his
public key, ``c`` makes a one-time join code, ``w`` a new browser link with
its QR code), drops a connection (``d``) and revokes a player (``x``: every
way in, and his connections closed). The server is another process; it
acts on what this screen writes to the file within a second, and what it
records (who joined, who left) shows here as soon (the app's watcher). All
reads and writes go through ``store_work`` (``store/table_seats.py``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from ka_tui.screens.door import CampaignChanged, Change, door
from ka_tui.screens.store_work import store_work
from ka_tui.screens.table.words import local_time, seat_ways, ssh_command, ssh_port, web_base
from ka_tui.widgets.quiet_footer import QuietFooter

if TYPE_CHECKING:
    from ka_tui.store.table_seats import Connection, KeyInfo, Seat, TableView


class TableScreen(Screen[None]):
    HELP_TITLE = "Table"

    BINDINGS = [
        Binding("a", "add_key", "Key", id="table.add_key"),
        Binding("c", "join_code", "Code", id="table.join_code"),
        Binding("w", "web_link", "Link", id="table.web_link"),
        Binding("d", "drop", "Drop", id="table.drop"),
        Binding("x", "revoke", "Revoke", id="table.revoke"),
        Binding("u", "unlink", "Unlink", show=False, id="table.unlink"),
        Binding("ctrl+r", "reload", "Reload", show=False, id="table.reload"),
    ]

    PALETTE_HELP = {
        "table.add_key": "Table: bind a public key (pasted, or a .pub file) to the selected "
                         "character",
        "table.join_code": "Table: a one-time join code for the selected character (his ssh "
                           "enrols the key it connects with)",
        "table.web_link": "Table: a new browser link and QR code for the selected character "
                          "(the old link stops working)",
        "table.drop": "Table: close the selected connection (the player may come back)",
        "table.revoke": "Table: revoke the selected player (keys, code, link) and close his "
                        "connections",
        "table.unlink": "Table: the selected character's browser link stops working",
        "table.reload": "Table: read the seats and connections again",
    }

    CSS_PATH = "table.tcss"

    def __init__(self) -> None:
        super().__init__()
        self.view: TableView | None = None
        self._alive: bool | None = None

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Static("Reading the table…", id="table-server", markup=False)
        yield DataTable(id="table-seats", cursor_type="row", zebra_stripes=True)
        yield DataTable(id="table-connections", cursor_type="row", show_cursor=False)
        yield Static("", id="table-status", markup=False)
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        self.sub_title = "Table"
        seats = self.query_one("#table-seats", DataTable)
        for title, width in (("Character", 22), ("Login", 12), ("Ways in", 22),
                             ("Now", 16)):
            seats.add_column(title, width=width)
        connections = self.query_one("#table-connections", DataTable)
        for title, width in (("Connected", 22), ("Way", 5), ("From", 22), ("Since", 6)):
            connections.add_column(title, width=width)
        door(self).on_campaign_changed(self, self._changed)
        self.set_interval(2.0, self._check_server)
        seats.focus()
        self.load()

    def _changed(self, change: CampaignChanged) -> None:
        if change.source is not self and change.change in (Change.TABLE, Change.ROSTER):
            self.load()

    def _check_server(self) -> None:
        """The server's process ending writes nothing when it is killed: look."""
        server = self.view.server if self.view is not None else None
        if server is None or not server.running:
            return
        try:
            os.kill(server.pid, 0)
        except ProcessLookupError:
            self.load()
        except PermissionError:
            pass

    # -- reading ------------------------------------------------------------------

    def load(self) -> None:
        from ka_tui.store.table_seats import table_view

        store_work(self, lambda db: table_view(db, door(self).now()), group="table-read",
                   exclusive=True, done=self._show, title="Cannot read the table")

    def action_reload(self) -> None:
        self.load()

    def _show(self, view: TableView) -> None:
        self.view = view
        server = view.server
        port = ssh_port(view)
        if server is not None and server.running:
            ways = [ssh_command("NAME", server.ssh_port, server.host or None)
                    if server.ssh_port else "",
                    f"browser {server.web_url}" if server.web_url else ""]
            head = (f"Table server: running since {local_time(server.started_at)} · "
                    + " · ".join(w for w in ways if w))
        else:
            head = ("Table server: not running. Start it in another terminal: ka-tui serve "
                    f"(players then: {ssh_command('NAME', port)}, or their links)")
        self.query_one("#table-server", Static).update(head)
        seats = self.query_one("#table-seats", DataTable)
        keep = seats.cursor_row
        seats.clear()
        for seat in view.seats:
            dim = "" if seat.seated or seat.connections else "dim"
            now = ", ".join(sorted({c.way for c in seat.connections})) or \
                (f"seen {local_time(seat.last_seen)}" if seat.last_seen else "")
            seats.add_row(*(Text(cell, style=dim, no_wrap=True, overflow="ellipsis")
                            for cell in (seat.name, seat.login, seat_ways(seat), now)),
                          key=str(seat.character_id))
        if view.seats:
            seats.move_cursor(row=min(max(keep, 0), len(view.seats) - 1))
        connections = self.query_one("#table-connections", DataTable)
        connections.clear()
        for c in view.connections:
            connections.add_row(c.name, c.way, c.peer, local_time(c.started_at),
                                key=str(c.id))
        connections.display = bool(view.connections)
        self.refresh_bindings()

    # -- what is selected ---------------------------------------------------------

    def selected(self) -> Seat | None:
        if self.view is None or not self.view.seats:
            return None
        row = self.query_one("#table-seats", DataTable).cursor_row
        return self.view.seats[row] if 0 <= row < len(self.view.seats) else None

    def selected_connection(self) -> Connection | None:
        """The selected connection: the one under the cursor when that table has
        the focus, else the selected player's newest."""
        if self.view is None:
            return None
        table = self.query_one("#table-connections", DataTable)
        if table.has_focus and self.view.connections:
            row = table.cursor_row
            return self.view.connections[row] if 0 <= row < len(self.view.connections) \
                else None
        seat = self.selected()
        return seat.connections[-1] if seat is not None and seat.connections else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        seat = self.selected()
        if action in ("add_key", "join_code", "web_link"):
            return seat is not None
        if action == "drop":
            return self.selected_connection() is not None
        if action == "revoke":
            return seat is not None and (seat.seated or bool(seat.connections))
        if action == "unlink":
            return seat is not None and seat.link
        return True

    def on_data_table_row_highlighted(self) -> None:
        self.refresh_bindings()

    def _status(self, text: str) -> None:
        self.query_one("#table-status", Static).update(text)

    # -- seating --------------------------------------------------------------------

    def action_add_key(self) -> None:
        from ka_tui.screens.table.dialogs import AddKeyScreen

        seat = self.selected()
        if seat is None:
            return

        def added(key: KeyInfo | None) -> None:
            if key is not None:
                door(self).campaign_changed(CampaignChanged(Change.TABLE, self))
                self._done(f"{seat.name} may now join with key {key.key.fingerprint}: "
                           f"{ssh_command(seat.login, ssh_port(self.view) if self.view else None)}")

        self.app.push_screen(AddKeyScreen(seat.name, seat.character_id), added)

    def action_join_code(self) -> None:
        from ka_tui.store.table_seats import JOIN_CODE_MINUTES, make_join_code

        seat = self.selected()
        if seat is None:
            return

        def show(code: str) -> None:
            from ka_tui.screens.table.dialogs import ShownOnceScreen

            self.load()
            command = ssh_command(seat.login, ssh_port(self.view) if self.view else None)
            self.app.push_screen(ShownOnceScreen(
                f"Join code for {seat.name}", code,
                f"Once, within {JOIN_CODE_MINUTES} minutes: {seat.name.split()[0]} types\n"
                f"{command}\nand then this code; the key that connects is enrolled.\n"
                "Escape closes (the code is not shown again)."))

        store_work(self, lambda db: make_join_code(db, seat.character_id, door(self).now()),
                   group="table-write", publish=Change.TABLE, done=show)

    def action_web_link(self) -> None:
        from ka_tui.store.table_seats import link_url, make_link

        seat, view = self.selected(), self.view
        if seat is None or view is None:
            return
        base = web_base(view)

        def show(token: str) -> None:
            from ka_tui.screens.table.dialogs import ShownOnceScreen

            self.load()
            url = link_url(base, token)
            self.app.push_screen(ShownOnceScreen(
                f"{seat.name}'s link", url,
                f"Anyone with it plays {seat.name}; the old link no longer works.",
                qr=url, plain=bool(os.environ.get("NO_COLOR"))))

        store_work(self, lambda db: make_link(db, seat.character_id, door(self).now()),
                   group="table-write", publish=Change.TABLE, done=show)

    def action_unlink(self) -> None:
        from ka_tui.store.table_seats import revoke_link

        seat = self.selected()
        if seat is not None:
            store_work(self, lambda db: revoke_link(db, seat.character_id, door(self).now()),
                       group="table-write", publish=Change.TABLE,
                       done=lambda _gone: self._done(f"{seat.name}'s link no longer works."))

    def action_drop(self) -> None:
        from ka_tui.store.table_seats import ask_drop

        connection = self.selected_connection()
        if connection is not None:
            store_work(self, lambda db: ask_drop(db, connection.id), group="table-write",
                       publish=Change.TABLE,
                       done=lambda _asked: self._done(
                           f"Closing {connection.name}'s {connection.way} connection (the "
                           "player may come back)."))

    def action_revoke(self) -> None:
        from ka_tui.screens.confirm import ConfirmScreen
        from ka_tui.store.table_seats import revoke_player

        seat = self.selected()
        if seat is None:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                store_work(self, lambda db: revoke_player(db, seat.character_id,
                                                          door(self).now()),
                           group="table-write", publish=Change.TABLE,
                           done=lambda count: self._done(
                               f"Revoked {count} way(s) in for {seat.name}; his "
                               "connections are closing."))

        self.app.push_screen(ConfirmScreen(
            f"Revoke {seat.name}? His keys, join code and link stop working and his "
            "connections close. A key added again lets him back.", yes="Revoke",
            title="Revoke a player"), answered)

    def _done(self, text: str) -> None:
        self._status(text)
        self.load()
