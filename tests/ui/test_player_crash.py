"""A crash in a player's view shows him one line: no traceback, no install
paths, no local variables (the GM's app keeps Textual's traceback)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ka_tui.app import KaApp
from ka_tui.player_app import PlayerApp
from ka_tui.textual_compat.tricks import Trick, tricks_off
from tests.ui.pilot_helpers import SIZE, settle


class SecretError(RuntimeError):
    pass


def boom() -> None:
    olga_card = "Olga's hidden card: Deliberate Attack"  # noqa: F841 -- a local to leak
    raise SecretError("x")


async def crashed(app: KaApp | PlayerApp, capsys: pytest.CaptureFixture[str]) -> str:
    """What the app printed to its terminal as it ended."""
    capsys.readouterr()
    with pytest.raises(SecretError):
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            app.call_later(boom)
            await pilot.pause()
            await settle(pilot)
    captured = capsys.readouterr()
    return captured.out + captured.err


async def test_a_player_s_crash_shows_him_one_line(
        demo_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = await crashed(PlayerApp(demo_db, "Kasia Nowak"), capsys)
    assert text.strip().count("\n") <= 1, text
    assert "SecretError" in text and "nothing is lost" in text
    assert "hidden card" not in text and "site-packages" not in text and ".py" not in text


async def test_with_the_trick_off_and_in_the_gm_s_app_textual_s_traceback(
        demo_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with tricks_off(Trick.ONE_LINE_CRASH):
        text = await crashed(PlayerApp(demo_db, "Kasia Nowak"), capsys)
    assert "hidden card" in text and "SecretError: x" in text
    assert "hidden card" in await crashed(KaApp(demo_db), capsys)
