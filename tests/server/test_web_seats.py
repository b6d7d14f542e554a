"""Players join the table server in a browser: Chromium, driven by
Playwright, on the private link (textual-serve's front end). The link's
token lets in one character's view and nothing else; a bad, renewed or
revoked link shows one line; the token is in no log. One server and one
browser for the module."""

from __future__ import annotations

import json
import logging
import os
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ka_tui.store import table_seats
from tests.server.helpers import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    Screen,
    Table,
    TerminalProcess,
    demo_copy,
    gm,
    link,
    need_chromium,
    now,
    rows,
    running_table,
)
from tests.ui.test_players import start_fight

OLGAS_CARD = "Deliberate Attack, 3x Basic Defence"


@pytest.fixture(scope="module")
def table(_demo_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    folder = tmp_path_factory.mktemp("web-table")
    db = demo_copy(_demo_template, folder)
    start_fight(db)   # Kasia vs Mike, Olga vs Jeanne: cards wanted (before the server opens it)
    with running_table(db, folder, ssh=False) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium; Playwright gives each launch a fresh profile
    (user-data-dir) of its own, and each test a context of its own."""
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


class BrowserPlayer:
    """One page on a player's link; every websocket frame it received is kept
    and drawn on a terminal emulator of the page's size."""

    def __init__(self, browser: Any, url: str) -> None:
        self.context = browser.new_context(viewport={"width": 1000, "height": 560})
        self.page = self.context.new_page()
        self.frames: list[bytes] = []
        self.screen = Screen(200, 60)
        self.page.on("websocket", self._socket)
        self.response = self.page.goto(url)

    def _socket(self, socket: Any) -> None:
        socket.on("framereceived", self._frame)

    def _frame(self, payload: bytes | str) -> None:
        data = payload if isinstance(payload, bytes) else payload.encode()
        self.frames.append(data)
        if isinstance(payload, bytes):
            self.screen.feed(payload)

    @property
    def received(self) -> bytes:
        return b"".join(self.frames)

    def shows(self, text: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.screen.text:
                return
            self.page.wait_for_timeout(50)
        assert text in self.screen.text, self.screen.text

    def keys(self, *keys: str) -> None:
        self.page.focus(".xterm-helper-textarea")   # xterm.js takes keys when focused
        for key in keys:
            self.page.keyboard.press(key)
            self.page.wait_for_timeout(120)

    def close(self) -> None:
        self.context.close()


def test_a_link_opens_the_players_view_and_his_card_reaches_the_gms_screen(
        table: Table, browser: Any) -> None:
    token = link(table.db, "Olga")
    gm_screen = TerminalProcess([sys.executable, "-m", "ka_tui", "--db", str(table.db)])
    olga = BrowserPlayer(browser, table.web(token))
    try:
        assert olga.response.status == 200
        assert olga.response.headers["referrer-policy"] == "no-referrer"
        olga.shows("playing Olga Petrova")
        olga.shows("Fill in Olga Petrova's card for round 1")
        gm_screen.shows("Characters (11)")
        gm_screen.keys("3")
        gm_screen.shows("0 of 4 cards in")
        olga.keys("a", "D", "d", "b", "b", "b", "Enter")
        olga.shows(f"Your card is sent: {OLGAS_CARD}")
        gm_screen.shows("1 of 4 cards in (Olga)")   # over the card pane, never scrolled away
        gm_screen.shows("Olga Petrova   AP 6/6    K 10  vs Jeanne         card entered")
        assert OLGAS_CARD not in gm_screen.screen.text   # in, not what
        assert [(name, way) for _, name, way in table.open_connections()] == \
            [("Olga Petrova", "web")]
    finally:
        olga.close()
        gm_screen.close()


def test_a_bad_renewed_or_revoked_link_shows_one_line_and_starts_nothing(
        table: Table, browser: Any) -> None:
    old = link(table.db, "Kasia")
    new = link(table.db, "Kasia")
    for token, says in (("AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH", "this link is not valid"),
                        (old, "the GM has renewed it"), ("x" * 5, "this link is not valid")):
        page = browser.new_page()
        response = page.goto(table.web(token))
        assert response.status == 404
        assert page.inner_text("body").startswith("ka-tui: ")
        assert says in page.inner_text("body")
        assert "\n" not in page.inner_text("body").strip()
        page.close()
    with pytest.raises(urllib.error.HTTPError) as refused:   # the websocket's route too
        urllib.request.urlopen(table.web(old) + "/ws")
    assert refused.value.code == 404
    with gm(table.db) as db:
        table_seats.revoke_link(db, "Kasia", now())
    page = browser.new_page()
    assert page.goto(table.web(new)).status == 404
    page.close()
    assert not [c for c in table.open_connections() if c[1] == "Kasia Nowak"]


def test_nothing_but_the_players_view_is_served(table: Table) -> None:
    base = f"http://127.0.0.1:{table.listening.web_port}"
    with urllib.request.urlopen(base + "/") as root:
        assert b"Open the link your GM gave you" in root.read()
    for path in ("/download/anything", "/ws", "/P/", "/static/../demo.db"):
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(base + path)
    with urllib.request.urlopen(base + "/static/js/textual.js") as script:
        assert script.status == 200


def test_the_token_is_in_no_log_nor_in_the_page_served(table: Table, browser: Any,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    for name in ("aiohttp.access", "aiohttp.server", "aiohttp.web"):
        logging.getLogger(name).setLevel(logging.DEBUG)
    token = link(table.db, "Jeanne")
    jeanne = BrowserPlayer(browser, table.web(token))
    try:
        jeanne.shows("playing Jeanne Moreau")
        with urllib.request.urlopen(table.web(token)) as served:
            assert token.encode() not in served.read()
        with pytest.raises(urllib.error.HTTPError):   # a bad request, logged by aiohttp
            urllib.request.urlopen(table.web(token.lower()[:20]))
    finally:
        jeanne.close()
    logged = "\n".join(r.getMessage() for r in caplog.records) + "\n".join(table.said)
    assert token not in logged and token.lower()[:20] not in logged
    assert "Jeanne Moreau joined over the web" in logged


def test_renewing_the_link_closes_the_browser_session_and_he_comes_back_where_he_was(
        table: Table, browser: Any) -> None:
    token = link(table.db, "Arthur")
    arthur = BrowserPlayer(browser, table.web(token))
    try:
        arthur.shows("playing Arthur Hale")
        arthur.keys("3")
        deadline = time.monotonic() + 30
        cid = rows(table.db, "SELECT id FROM character WHERE name = 'Arthur Hale'")[0][0]
        while table.server.views.get(cid, {}).get("pane") != "aircraft":
            assert time.monotonic() < deadline, table.server.views
            arthur.page.wait_for_timeout(50)
        new = link(table.db, "Arthur")   # the GM renews it: the old session closes
        arthur.page.wait_for_selector("body.-closed", timeout=30_000)
        assert "Session ended" in arthur.page.inner_text(".closed-dialog")
    finally:
        arthur.close()
    back = BrowserPlayer(browser, table.web(new))
    try:
        back.shows("playing Arthur Hale")
        back.shows("Tempest KA-A")   # pane 3, his flight card, as he left it
        assert json.loads(json.dumps(table.server.views[cid]))["pane"] == "aircraft"
    finally:
        back.close()


def test_malformed_messages_from_a_browser_leave_the_server_running(
        table: Table, browser: Any) -> None:
    """Whatever a page sends down its websocket: bad JSON, binary frames,
    unknown kinds, odd sizes, broken text; the view may end, the server goes on."""
    import asyncio

    import aiohttp

    token = link(table.db, "Ruth")

    async def hammer() -> None:
        async with aiohttp.ClientSession() as client, client.ws_connect(
                table.web(token).replace("http", "ws") + "/ws?width=x&height=99999") as ws:
            for junk in ("not json", "[]", "{}", '["stdin"]', '["stdin", 5]',
                         '["resize", {"width": -4, "height": "a"}]', '["resize", 7]',
                         '["stdin", "\\udc80\\u00e9\\u001b[999999999;999999999H"]',
                         json.dumps(["stdin", os.urandom(300).decode("latin-1")])):
                await ws.send_str(junk)
            await ws.send_bytes(os.urandom(2048))
            await asyncio.sleep(1)

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as other:   # Playwright's own loop runs in this thread
        other.submit(asyncio.run, hammer()).result(60)
    ruth = BrowserPlayer(browser, table.web(token))
    try:
        ruth.shows("playing Ruth Adler")
    finally:
        ruth.close()
