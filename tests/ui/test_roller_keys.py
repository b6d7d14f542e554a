"""The dice roller's keys as a GM at the table uses them: a digit right after
arriving still switches mode (the focus is on the roll log, not in a text
field), ``p`` reaches the Pool field, ``d`` strikes a roll only from the log
(never from a dropdown ``shift+tab`` lands on), a typed pool is logged as
the GM's, and the help names what the GM sees, never a widget's class."""

from __future__ import annotations

from pathlib import Path

from textual.widget import Widget
from textual.widgets import Input

from ka_tui.rules.core.dice import RandomDice
from ka_tui.screens.combat.screen import CombatScreen
from ka_tui.screens.help import key_rows
from ka_tui.screens.roller.screen import RollerScreen
from ka_tui.widgets.roll_log_pane import RollLogPane
from tests.ui.pilot_helpers import SIZE, rows, settle
from tests.ui.test_roller import make_app, open_roller


async def test_two_digits_on_arriving_switch_to_the_roller_then_to_close_combat(
        demo_db: Path) -> None:
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        assert app.focused is screen.query_one(RollLogPane).table
        await pilot.press("3")
        await settle(pilot)
        assert isinstance(app.screen, CombatScreen)
        assert screen.query_one("#input-faces", Input).value == ""
        await pilot.press("2", "f", "3")  # f: the faces field, where a digit is a face
        await settle(pilot)
        assert app.screen is screen and screen.query_one("#input-faces", Input).value == "3"


async def test_p_types_the_pool_and_d_strikes_only_from_the_log(demo_db: Path) -> None:
    """``shift+tab`` from Faces lands on a dropdown (Versus, or the odds);
    a ``d`` there, or in the faces field, strikes nothing."""
    app = make_app(demo_db, RandomDice(4))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert rows(demo_db, "SELECT count(*) FROM roll_log") == [(1,)]
        await pilot.press("f", "shift+tab", "d")
        await settle(pilot)
        await pilot.press("f", "d")
        await settle(pilot)
        assert rows(demo_db, "SELECT count(*) FROM roll_log WHERE struck_at IS NOT NULL") \
            == [(0,)]
        await pilot.press("p")
        pool = screen.query_one("#input-pool_a", Input)
        assert app.focused is pool
        pool.value = ""
        await pilot.press(*"3d10 @6", "r")
        await settle(pilot)
        assert rows(demo_db, "SELECT who, what, pool FROM roll_log WHERE id = 2") \
            == [("GM", "typed pool", "3d10 @6")]  # not the name the list shows
        await pilot.press("f", "l", "d")  # (l would be typed in Pool: [L2] pools)
        await settle(pilot)
        assert rows(demo_db, "SELECT id FROM roll_log WHERE struck_at IS NOT NULL") == [(2,)]


async def test_the_rollers_help_names_panes_never_widget_classes(demo_db: Path) -> None:
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        assert isinstance(screen, RollerScreen)
        classes = {cls.__name__.removesuffix("Screen") for node in screen.walk_children()
                   for cls in type(node).__mro__ if issubclass(cls, Widget)}
        stops = list(screen.focus_chain)
        assert len(stops) >= 6
        seen: set[str] = set()
        for stop in stops:
            stop.focus()
            await pilot.pause()
            assert app.focused is stop
            sections = {row.section for row in key_rows(app, screen)}
            assert not sections & classes, f"{stop!r}: {sections & classes}"
            seen |= sections
        assert {"Odds", "Roll log", "Dice roller", "Dropdown", "Text field"} <= seen
