"""The scene order mode: actors in bands by initiative, the current actor and
the rounds (S0 §Close combat 1: the fastest goes first)."""

from __future__ import annotations

from pathlib import Path

from ka_tui.app import KaApp
from ka_tui.screens.scene_order import SceneOrderScreen
from tests.ui.pilot_helpers import settle
from tests.ui.test_roller import (
    SIZE,
)


async def test_scene_order_mode_bands_current_actor_and_rounds(demo_db: Path) -> None:
    """S0 §Close combat 1: aircraft, then ground ranged, then close combat,
    each by initiative; the current actor is marked, rounds are counted. A
    mode on key 6 and in the palette."""
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SceneOrderScreen)
        for entry in ("Mike Dunn c 3 4", "Arthur Hale a 2", "Olga Petrova g 1",
                      "Kasia Nowak a 4"):
            await pilot.press(*entry, "enter")
        await pilot.press(*"Bad x 1", "enter")
        await pilot.pause()
        assert "not a band" in str(screen.query_one("#scene-error").render())
        # typing in the Add line: its letters are typed, the footer says the way out
        shown = {b.binding.id for b in screen.active_bindings.values() if b.enabled}
        assert "scene.to_list" in shown and "scene.next" not in shown
        await pilot.press("escape")
        await pilot.pause()
        shown = {b.binding.id for b in screen.active_bindings.values() if b.enabled}
        assert "scene.to_list" not in shown and "scene.next" in shown
        table = screen.query_one("#scene-table")
        names = [str(table.get_row_at(i)[2]) for i in range(table.row_count)]
        assert names == ["Kasia Nowak", "Arthur Hale", "Olga Petrova", "Mike Dunn"]
        assert str(table.get_row_at(0)[0]) == ">"
        await pilot.press("n", "n", "n", "n")
        await pilot.pause()
        assert str(screen.query_one("#scene-round").render()) == \
            "Round 2 · now: Kasia Nowak (aircraft)"
        await pilot.press("n")
        await pilot.pause()
        assert str(table.get_row_at(1)[0]) == ">" and str(table.get_row_at(0)[0]) == ""
        assert "mode.scene" in {b.id for b in app.BINDINGS if hasattr(b, "id")}  # type: ignore[attr-defined]

