"""An idle form sends nothing over the wire: a text field's cursor stays lit
instead of blinking (a blink is a repaint twice a second, over SSH a few dozen
bytes each, while nothing changes). Real app, demo campaign in a real file."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from ka_tui.app import KaApp
from ka_tui.screens.roster.character_form import CharacterForm
from tests.ui.pilot_helpers import SIZE, settle, wait_for


async def test_a_form_field_keeps_its_cursor_lit_without_blinking(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, CharacterForm)
                       and isinstance(app.focused, Input))
        first = app.focused
        assert isinstance(first, Input)
        await wait_for(pilot, lambda: not first.cursor_blink)
        for _ in range(12):  # tab on to the next text field
            await pilot.press("tab")
            if isinstance(app.focused, Input) and app.focused is not first:
                break
        second = app.focused
        assert isinstance(second, Input) and second is not first
        await wait_for(pilot, lambda: not second.cursor_blink)
