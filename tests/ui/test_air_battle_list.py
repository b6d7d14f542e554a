"""The air screen's battle list (l) and its log (o): the list opens from the
empty screen and from a battle, key or palette, and an ended battle opens
read back from its log; in the log, typed letters are the filter's, never
commands."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from ka_tui.screens.air.screen import AirScreen
from ka_tui.screens.air.setup import BattleListScreen
from tests.ui.pilot_helpers import SIZE, settle, wait_for
from tests.ui.test_air_battle import end_demo_battle, make_app, open_air


async def test_l_lists_the_battles_from_the_empty_screen_and_opens_an_ended_one(
        demo_db: Path) -> None:
    app, _ = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_air(pilot)
        await wait_for(pilot, lambda: screen.runner is not None)
        screen.query_one("HexMap").focus()        # the map's own l moves its cursor
        await pilot.pause()
        assert "Battles" in {c.title for c in app.get_system_commands(screen)}
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, BattleListScreen))
        await pilot.press("escape")
        await settle(pilot)
        await end_demo_battle(pilot, screen)
        assert screen.runner is None
        screen.query_one("HexMap").focus()
        await pilot.pause()
        commands = {c.title for c in app.get_system_commands(screen)}   # the palette
        assert "Battles" in commands
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, BattleListScreen))
        await pilot.press("enter")                # the demo's battle, ended
        await settle(pilot)
        assert isinstance(app.screen, AirScreen)
        await wait_for(pilot, lambda: screen.runner is not None)
        assert screen.loaded is not None and screen.loaded.name == "Exercise: Blue vs Red"
        await pilot.press("o")
        await pilot.pause()
        assert str(screen.query_one("#air-log").render()).strip()


async def test_letters_in_the_log_never_run_commands(demo_db: Path) -> None:
    """A filter word typed after the filter lost the focus (escape) runs no
    command: no table dice (t), no undo (u), no new battle (n), no list (l)."""
    app, _ = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_air(pilot)
        await wait_for(pilot, lambda: screen.runner is not None)
        events = len(screen.runner.battle.events)  # type: ignore[union-attr]
        await pilot.press("o")
        await pilot.press(*"stall")
        await pilot.pause()
        assert screen.query_one("#air-log-filter", Input).value == "stall"
        await pilot.press("escape", *"tunlg")
        await settle(pilot)
        assert app.screen is screen and screen.input_mode == ""
        assert len(screen.runner.battle.events) == events  # type: ignore[union-attr]
        assert screen.query_one("#air-log-view").display
        await pilot.press("o")
        assert screen.query_one("#air-main").display
