"""A night at the table through ``ka-tui serve``: the GM at his own ka-tui,
Kasia over SSH, Olga in a browser; a close-combat round and an air-battle
turn. The campaign file stays 0600 and the GM's; neither player ever
received the other's secret (her card before the reveal, her plan before
the GM executed it), checked on every byte each client received, as it
arrived, on a terminal emulator.

The server is the real command (``ka-tui serve``, another process, as the
GM runs it); the GM's app runs here, through Pilot."""

from __future__ import annotations

import asyncio
import json
import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from ka_tui.app import KaApp
from ka_tui.screens.air.screen import AirScreen
from ka_tui.screens.combat.screen import CombatScreen
from tests.server.helpers import CHROMIUM, CHROMIUM_FLAGS, Screen, SshPlayer, \
    demo_copy, need_chromium, new_key, rows, wait_until
from tests.ui.pilot_helpers import SIZE, settle, wait_for
from tests.ui.test_air_battle import select
from tests.ui.test_players import start_fight, text

OLGAS_CARD = "Deliberate Attack, 3x Basic Defence"


def ka(*args: str, env: dict[str, str] | None = None, stdin: str | None = None) -> str:
    done = subprocess.run([sys.executable, "-m", "ka_tui", *args], capture_output=True,
                          text=True, timeout=60, input=stdin, env=env, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


@pytest.fixture
def serve(demo_db: Path, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str, int]]:
    """``ka-tui serve`` on free ports; (process, its opening words, ssh port)."""
    os.chmod(demo_db, 0o600)
    start_fight(demo_db)
    process = subprocess.Popen(
        [sys.executable, "-m", "ka_tui", "serve", "--db", str(demo_db), "--listen",
         "127.0.0.1", "--ssh-port", "0", "--web-port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    words = []
    for line in process.stdout:
        words.append(line)
        if "Table mode (7)" in line:
            break
    said = "".join(words)
    found = re.search(r"ssh -p (\d+) NAME@", said)
    assert found, said
    try:
        yield process, said, int(found.group(1))
    finally:
        process.send_signal(2)   # ctrl+c
        rest, _ = process.communicate(timeout=30)
        assert "the table is closed" in rest
        assert process.returncode == 0


def ever_shown(chunks: Sequence[bytes], secret: str, size: tuple[int, int]) -> bool:
    """Whether ``secret`` was in the bytes, or on the screen at any moment
    (replayed chunk by chunk, as the client drew them)."""
    if secret.encode() in b"".join(chunks):
        return True
    screen = Screen(*size)
    for chunk in chunks:
        screen.feed(chunk)
        if secret in screen.text.replace("\n", " "):
            return True
    return False


class Chunks(SshPlayer):
    """An SSH player whose received chunks are kept one by one."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.chunks: list[bytes] = []
        feed = self.screen.feed

        def keep(data: bytes) -> None:
            self.chunks.append(bytes(data))
            feed(data)

        self.screen.feed = keep  # type: ignore[method-assign]


async def test_two_players_and_the_gm_play_a_round_and_a_turn_through_serve(
        serve: tuple[subprocess.Popen[str], str, int], demo_db: Path, tmp_path: Path) -> None:
    need_chromium()
    from playwright.async_api import async_playwright

    _process, said, ssh_port = serve
    assert "Over SSH:" in said and "Browser:" in said
    key = new_key()
    (tmp_path / "kasia.pub").write_bytes(key.export_public_key())
    assert "Kasia Nowak may now join over SSH" in ka("players", "add-key", "Kasia",
                                                     str(tmp_path / "kasia.pub"), "--db",
                                                     str(demo_db))
    printed = ka("players", "link", "Olga", "--db", str(demo_db))
    url = re.search(r"http://127\.0\.0\.1:\d+/P/[A-Z2-7]{32}", printed)
    assert url, printed

    gm = KaApp(demo_db)
    async with gm.run_test(size=SIZE) as pg, async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM,
                                                   args=CHROMIUM_FLAGS)
        page = await browser.new_page(viewport={"width": 1000, "height": 560})
        frames: list[bytes] = []
        olga_screen = Screen(200, 60)

        def frame(payload: bytes | str) -> None:
            if isinstance(payload, bytes):
                frames.append(payload)
                olga_screen.feed(payload)

        page.on("websocket", lambda ws: ws.on("framereceived", frame))
        await page.goto(url.group(0))
        kasia = await Chunks(ssh_port, "kasia", key).connect()

        async def olga_shows(what: str) -> None:
            await wait_until(lambda: what in olga_screen.text, lambda: olga_screen.text)

        async def olga_keys(*keys: str) -> None:
            await page.focus(".xterm-helper-textarea")
            for k in keys:
                await page.keyboard.press(k)
                await asyncio.sleep(0.12)

        # -- the close-combat round: cards in secret, the reveal, the dice --------
        await kasia.shows("Fill in Kasia Nowak's card for round 1")
        await olga_shows("Fill in Olga Petrova's card for round 1")
        await settle(pg)
        await pg.press("3")
        await wait_for(pg, lambda: isinstance(gm.screen, CombatScreen)
                       and gm.screen.progress is not None)
        await kasia.keys("a", "b", "b", "d", "b", "b", "b", "b", "enter")
        await kasia.shows("Your card is sent: ")
        sent = re.search(r"Your card is sent: (\S.*\S)", kasia.screen.text)
        assert sent is not None
        kasias_card = sent.group(1)
        await olga_keys("a", "D", "d", "b", "b", "b", "Enter")
        await olga_shows(f"Your card is sent: {OLGAS_CARD}")
        await wait_for(pg, lambda: "2 of 4 cards in" in text(gm), timeout=10)
        await kasia.shows("2 of 4 cards in")
        before_reveal = (list(kasia.chunks), list(frames))
        await pg.press("a", "b", "b", "b", "b", "d", "b", "b", "b", "b", "enter")   # Mike
        await wait_for(pg, lambda: "3 of 4 cards in" in text(gm))
        await pg.press("a", "b", "b", "b", "d", "b", "b", "b", "enter")             # Jeanne
        await wait_for(pg, lambda: "every card is in" in text(gm))
        await pg.press("v")
        await wait_for(pg, lambda: "Cards revealed" in text(gm))
        await kasia.shows(OLGAS_CARD)           # after the reveal both see every card
        await olga_shows(kasias_card)
        await pg.press("r")
        await settle(pg)
        await pg.press("enter")
        await settle(pg)
        assert "round_resolved" in [k for (k,) in rows(demo_db, "SELECT kind FROM "
                                                              "fight_event")]
        assert not ever_shown(before_reveal[0], OLGAS_CARD, (80, 24))
        assert not ever_shown(before_reveal[1], kasias_card, (200, 60))

        # -- the air-battle turn: plans in secret, executed by the GM ----------------
        await kasia.keys("4")
        await olga_keys("4")
        await kasia.shows("Plan Beaufighter KA-C's move")
        await olga_shows("Plan Il-2 KA-D's move")
        await kasia.keys(" ", "enter")
        await olga_keys("+", "Space", "Enter")     # more thrust, then straight on
        await olga_shows("Sent: ")
        await kasia.shows("Sent: ")
        olgas_plan, kasias_plan = (re.search(r"Sent: ([^.]*\S)\.", shown)
                                   for shown in (olga_screen.text, kasia.screen.text))
        assert olgas_plan is not None and kasias_plan is not None
        assert olgas_plan.group(1) != kasias_plan.group(1)
        await settle(pg)
        await pg.press("4")
        await wait_for(pg, lambda: isinstance(gm.screen, AirScreen)
                       and gm.screen.runner is not None)
        await wait_for(pg, lambda: "2 of 4 plans in" in text(gm), timeout=10)
        before_moves = (list(kasia.chunks), list(frames))
        for uid in ("Tempest KA-A", "Spitfire KA-B"):   # absent players: the GM flies them
            await select(pg, uid)
            await pg.press("space", "g")
            await settle(pg)
        await pg.press("g", "x")                        # Blue's movement ends; no shots
        await settle(pg)
        for uid in ("Beaufighter KA-C", "Il-2 KA-D"):   # the players' plans, pre-filled
            await select(pg, uid)
            await pg.press("g")
            await settle(pg)
        await pg.press("g", "x", "g", "g")              # movement, shooting, heat, end
        await settle(pg)
        moved = [p for (p,) in rows(demo_db, "SELECT payload FROM battle_event WHERE kind = "
                                             "'move_committed' ORDER BY id")]
        units = {json.loads(p)["data"]["unit"]: json.loads(p) for p in moved}
        assert list(units) == ["Tempest KA-A", "Spitfire KA-B", "Beaufighter KA-C", "Il-2 KA-D"]
        assert "thrust +1" in " ".join(units["Il-2 KA-D"]["log"])   # Olga's plan, as sent
        assert len(units["Beaufighter KA-C"]["data"]["plan"]) == \
            len(kasias_plan.group(1).split())                        # Kasia's
        kinds = [k for (k,) in rows(demo_db, "SELECT kind FROM battle_event ORDER BY seq")]
        assert kinds[-1] == "phase_ended" and kinds.count("move_committed") == 4
        assert not ever_shown(before_moves[0], olgas_plan.group(1), (80, 24))
        assert not ever_shown(before_moves[1], kasias_plan.group(1), (200, 60))

        await kasia.close()
        await browser.close()
    mode = stat.S_IMODE(demo_db.stat().st_mode)
    assert mode == 0o600 and demo_db.stat().st_uid == os.getuid()
    for side in (Path(f"{demo_db}-wal"), Path(f"{demo_db}-shm")):
        if side.exists():
            assert stat.S_IMODE(side.stat().st_mode) == 0o600
