"""The Table mode (7): the GM seats players and sees who is connected, on a
real campaign file; the table server is another process, here played by
commits of a connection of its own."""

from __future__ import annotations

import base64
import hashlib
import os
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static

from ka_tui.app import KaApp
from ka_tui.player_app import PlayerApp
from ka_tui.screens.table.dialogs import AddKeyScreen, ShownOnceScreen
from ka_tui.screens.table.qr import qr_lines, qr_rows
from ka_tui.screens.table.screen import TableScreen
from tests.ui.pilot_helpers import SIZE, commit_sql, rows, settle, steady_cursors, wait_for

NOW = datetime(2026, 3, 1, 19, 30, tzinfo=UTC)


def key_line(seed: bytes) -> str:
    blob = (len(b"ssh-ed25519").to_bytes(4, "big") + b"ssh-ed25519" +
            (32).to_bytes(4, "big") + hashlib.sha256(seed).digest())
    return f"ssh-ed25519 {base64.b64encode(blob).decode()} kasia@laptop"


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> None:
    """Times on screen are the GM's local time: UTC here, the same everywhere."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def app_at(db: Path) -> KaApp:
    app = KaApp(db)
    app.clock = lambda: NOW
    return app


async def table_mode(pilot: Pilot[Any]) -> TableScreen:
    await settle(pilot)
    await pilot.press("7")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, TableScreen)
                   and pilot.app.screen.view is not None)
    screen = pilot.app.screen
    assert isinstance(screen, TableScreen)
    return screen


async def select(pilot: Pilot[Any], screen: TableScreen, name: str) -> None:
    table = screen.query_one("#table-seats", DataTable)
    assert screen.view is not None
    table.move_cursor(row=[s.name for s in screen.view.seats].index(name))
    await pilot.pause()


def server_running_here(db: Path, *connections: tuple[str, str, str]) -> None:
    """The table server, as another process records itself and its players."""
    pid = os.getpid()   # alive: the screen takes the server as running
    commit_sql(db, "INSERT INTO table_server (id, pid, host, ssh_port, web_url, started_at) "
                   "VALUES (1, ?, 'gm-laptop', 2222, 'http://192.168.1.20:8022', "
                   "'2026-03-01T19:00:00Z')", pid)
    for name, way, peer in connections:
        commit_sql(db, "INSERT INTO table_connection (character_id, way, peer, server_pid, "
                       "started_at) SELECT id, ?, ?, ?, '2026-03-01T19:05:00Z' FROM character "
                       "WHERE name = ?", way, peer, pid, name)


async def test_the_gm_seats_a_player_with_a_key_a_code_and_a_link(demo_db: Path,
                                                                  utc: None) -> None:
    async with app_at(demo_db).run_test(size=SIZE) as pilot:
        screen = await table_mode(pilot)
        assert len(screen.view.seats) == 11   # type: ignore[union-attr]
        head = str(screen.query_one("#table-server", Static).render())
        assert head.startswith("Table server: not running. Start it in another terminal: "
                               "ka-tui serve")
        await select(pilot, screen, "Kasia Nowak")
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, AddKeyScreen))
        field = pilot.app.screen.query_one(Input)
        field.value = "ssh-ed25519 not-a-key"
        await pilot.press("enter")
        error = pilot.app.screen.query_one("#key-error", Static)
        await wait_for(pilot, lambda: "base64 part is damaged" in str(error.render()))
        assert rows(demo_db, "SELECT count(*) FROM player_key") == [(0,)]   # nothing written
        field.value = "/no/such/kasia.pub"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "cannot read /no/such/kasia.pub" in str(error.render()))
        field.value = key_line(b"kasia")
        await pilot.press("enter")
        await wait_for(pilot, lambda: pilot.app.screen is screen)
        await wait_for(pilot, lambda: "Kasia Nowak may now join with key SHA256:"
                       in str(screen.query_one("#table-status", Static).render()))
        assert rows(demo_db, "SELECT added_by FROM player_key") == [("gm",)]

        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ShownOnceScreen))
        code = str(pilot.app.screen.query_one("#shown-secret", Static).render())
        assert len(code) == 9 and code[4] == "-"
        assert code.replace("-", "") not in str(rows(demo_db, "SELECT * FROM player_pass"))
        await pilot.press("escape")
        await wait_for(pilot, lambda: screen.selected() is not None
                       and screen.selected().code_until is not None)   # type: ignore[union-attr]

        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ShownOnceScreen))
        url = str(pilot.app.screen.query_one("#shown-secret", Static).render())
        assert url.startswith("http://") and ":8022/P/" in url and len(url.split("/P/")[1]) == 32
        qr = str(pilot.app.screen.query_one("#shown-qr", Static).render())
        assert qr.splitlines() == qr_lines(url) and len(qr.splitlines()) <= 19
        await pilot.press("escape")
        await wait_for(pilot, lambda: "1 key · link · code until" in "".join(
            str(c) for c in screen.query_one("#table-seats", DataTable).get_row_at(
                screen.query_one("#table-seats", DataTable).cursor_row)))


async def test_who_is_connected_shows_live_and_the_gm_drops_and_revokes(
        demo_db: Path, utc: None) -> None:
    commit_sql(demo_db, "INSERT INTO player_key (character_id, key, added_at, added_by) "
                        "SELECT id, ?, '2026-03-01T18:00:00Z', 'gm' FROM character WHERE name "
                        "= 'Olga Petrova'", " ".join(key_line(b"olga").split()[:2]))
    async with app_at(demo_db).run_test(size=SIZE) as pilot:
        screen = await table_mode(pilot)
        connections = screen.query_one("#table-connections", DataTable)
        assert not connections.display
        server_running_here(demo_db, ("Olga Petrova", "ssh", "192.168.1.31"))
        started = time.monotonic()
        await wait_for(pilot, lambda: connections.display and connections.row_count == 1,
                       timeout=5)
        assert time.monotonic() - started < 2.5   # the watcher, with no key pressed
        assert "running since 19:00" in str(screen.query_one("#table-server", Static).render())
        await select(pilot, screen, "Olga Petrova")
        await pilot.press("d")
        await wait_for(pilot, lambda: rows(demo_db, "SELECT drop_asked FROM table_connection")
                       == [(1,)])
        await pilot.press("x")
        await settle(pilot)
        await pilot.press("y")
        await wait_for(pilot, lambda: rows(demo_db, "SELECT revoked_at IS NOT NULL FROM "
                                                    "player_key") == [(1,)])
        await wait_for(pilot, lambda: screen.selected() is not None
                       and screen.selected().revoked)   # type: ignore[union-attr]


def test_snapshot_table_mode(snap_compare: Any, demo_db: Path, utc: None) -> None:
    commit_sql(demo_db, "INSERT INTO player_key (character_id, key, added_at, added_by) "
                        "SELECT id, ?, '2026-03-01T18:00:00Z', 'gm' FROM character WHERE name "
                        "= 'Kasia Nowak'", " ".join(key_line(b"kasia").split()[:2]))
    server_running_here(demo_db, ("Kasia Nowak", "ssh", "192.168.1.31"),
                        ("Olga Petrova", "web", "192.168.1.40"))

    async def run_before(pilot: Pilot[Any]) -> None:
        await table_mode(pilot)
        await settle(pilot)
        steady_cursors(pilot.app)

    app = app_at(demo_db)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_a_qr_code_drawn_in_half_blocks_holds_every_module() -> None:
    text = "HTTP://192.168.178.100:8022/P/ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    modules = qr_rows(text)
    lines = qr_lines(text)
    assert len(lines) == (len(modules) + 1) // 2 <= 19
    halves = {" ": (False, False), "\u2580": (True, False), "\u2584": (False, True),
              "\u2588": (True, True)}
    back = [[halves[c][0] for c in line] for line in lines] + [[halves[c][1] for c in line]
                                                               for line in lines]
    redrawn = [row for pair in zip(back[:len(lines)], back[len(lines):], strict=True)
               for row in pair][:len(modules)]
    assert redrawn == modules


async def test_the_players_palette_holds_his_own_actions_only(demo_db: Path) -> None:
    """No Textual theme, maximise, keys panel or screenshot (which would write a
    file on the machine his view runs on: at the table server, the GM's)."""
    app = PlayerApp(demo_db, "Kasia")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: getattr(app.screen, "player", None) is not None)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Help: keys", "Redraw the screen", "Quit", "Sheet", "Fight", "Aircraft",
                "Air battles"} <= titles
        assert not titles & {"Theme", "Screenshot", "Maximize", "Minimize", "Keys",
                             "Focus Next", "Focus Previous", "Copy selected text"}
        await pilot.press("4")
        await settle(pilot)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert "Send plan" in titles and "Screenshot" not in titles
        await pilot.press("2")   # his card's editor has the focus: its keys are his too
        await settle(pilot)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert "Sheet" in titles and "Copy selected text" not in titles
