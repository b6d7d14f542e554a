"""A Resize of the size the app already has lays nothing out again
(``textual_compat/resize.py``): the terminal driver sends the size as it
starts, and Textual passed it on to the screen, which laid the roster out
and rendered it again before its first frame. A real resize still lays out.

Real parts: the app on the demo campaign through Pilot at 80x24; the
screen's own Resize handler (the roster fits its panes there) counts the
Resizes that reach it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual.geometry import Size

from ka_tui.app import KaApp
from ka_tui.screens.roster.screen import RosterScreen
from ka_tui.textual_compat.tricks import Trick, tricks_off
from tests.ui.pilot_helpers import SIZE, settle, wait_for


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[Size]:
    seen: list[Size] = []
    fit = RosterScreen.on_resize

    def on_resize(self: RosterScreen, event: events.Resize) -> None:
        seen.append(event.size)
        fit(self)

    monkeypatch.setattr(RosterScreen, "on_resize", on_resize)
    return seen


async def _resized(demo_db: Path, monkeypatch: pytest.MonkeyPatch,
                   size: Size) -> list[Size]:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RosterScreen)
                       and app.screen.loaded)
        await settle(pilot)
        seen = _counting(monkeypatch)
        app.post_message(events.Resize(size, size))
        await settle(pilot)
        await pilot.pause(0.1)  # past Textual's resize timer (1/120 s)
        await settle(pilot)
        return seen


async def test_a_resize_to_the_same_size_reaches_no_screen(
        demo_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert await _resized(demo_db, monkeypatch, Size(*SIZE)) == []


async def test_without_the_trick_the_same_size_lays_the_screen_out_again(
        demo_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with tricks_off(Trick.SAME_SIZE_RESIZE):
        assert Size(*SIZE) in await _resized(demo_db, monkeypatch, Size(*SIZE))


async def test_a_real_resize_still_reaches_the_screen(
        demo_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = await _resized(demo_db, monkeypatch, Size(100, 30))
    assert seen and set(seen) == {Size(100, 30)}
