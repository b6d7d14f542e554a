"""The settings screen links the readings of the seeds (docs/rules/READINGS.md,
``rules/readings.py``): every place the rules decide what the seeds leave
open, shown in the app with ``g`` (the footer shows the key)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from ka_tui.app import KaApp
from ka_tui.screens.readings import ReadingsScreen
from ka_tui.screens.settings import SettingsScreen
from tests.ui.pilot_helpers import SIZE, settle
from tests.ui.test_settings import open_settings


async def test_g_on_the_settings_screen_shows_the_readings_and_escape_goes_back(
        demo_db: Path) -> None:
    async with KaApp(demo_db).run_test(size=SIZE) as pilot:
        settings = await open_settings(pilot)
        shown = {b.binding.id for b in settings.active_bindings.values()
                 if b.binding.show and b.enabled}
        assert "settings.readings" in shown
        await pilot.press("g")
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, ReadingsScreen)
        text = str(screen.query_one("#readings-text", Static).render())
        assert "house rule air.engine_out_control" in text       # an option's row
        assert "R-6 · reading" in text                            # a listed reading
        assert "Seed: \"If several objects are in one hex" in text
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(pilot.app.screen, SettingsScreen)
