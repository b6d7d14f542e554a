"""The close-combat screen's layout at 80x24, through the real app, a real
campaign file and Pilot: long names are cut in the fight setup's list (read
whole under it) and wrap in its Pairs panel, two fighters sharing a first
name are told apart, and a faces error reads whole (wrapped). S0 §Close
combat 1 and 4."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from ka_tui.screens.combat.setup import FightSetupScreen, ROW_WIDTH
from ka_tui.store import roster
from ka_tui.store.db import open_campaign
from tests.ui.combat_pilot import (
    INIT, SIZE, keys, make_app, mike_vs, new_fight, open_combat, text_of,
)
from tests.ui.pilot_helpers import settle


def _long_names(db_file: Path) -> None:
    db = open_campaign(db_file)
    try:
        mike = next(c for c in roster.list_characters(db) if c.name == "Mike Dunn")
        roster.duplicate_character(db, mike.id, name="Billy Kidd")
        roster.duplicate_character(db, mike.id,
                                   name="Billy Bartholomew Fairweather-Montgomery")
    finally:
        db.close()


async def test_long_names_stay_in_their_column_and_read_whole(demo_db: Path) -> None:
    _long_names(demo_db)
    app = make_app(demo_db, [10, 10, 10, 10, 2, 2, 2, 2])
    async with app.run_test(size=SIZE) as pilot:
        await open_combat(pilot)
        await keys(pilot, "n")
        setup = pilot.app.screen
        assert isinstance(setup, FightSetupScreen)
        people = setup.query_one(OptionList)
        prompts = [str(people.get_option_at_index(i).prompt)
                   for i in range(people.option_count)]
        assert all(len(p) <= ROW_WIDTH for p in prompts)
        assert people.size.width >= ROW_WIDTH
        i = next(i for i, p in enumerate(prompts) if p.startswith("Billy Bart"))
        people.highlighted = i
        await settle(pilot)
        assert "Billy Bartholomew Fairweather-Montgomery: Close Combat" in \
            str(setup.query_one("#setup-status", Static).render())
    app = make_app(demo_db, [10, 10, 10, 10, 2, 2, 2, 2])
    async with app.run_test(size=SIZE) as pilot:
        await open_combat(pilot)
        screen = await new_fight(pilot, ("Billy Kidd", "Billy Bart"))
        await keys(pilot, "r")
        strip = text_of(screen, "#fighters")
        assert "vs Billy Kidd" in strip and "vs Billy Bartholomew" in strip


async def test_a_faces_error_reads_whole_at_80_columns(demo_db: Path) -> None:
    app = make_app(demo_db, INIT)
    async with app.run_test(size=SIZE) as pilot:
        screen = await mike_vs(pilot, "Olga Petrova")
        await keys(pilot, "a", "D", "enter", "f", "b", "enter", "v")
        await pilot.press(*"8 8 8 8 2 13")           # 13 on Olga's second d10
        await settle(pilot)
        error = screen.query_one("#field-dice .ff-error", Static)
        message = str(error.render())
        assert message == ("13 is not a face of a d10 (die 6: Olga Petrova's Close Combat "
                           "against Mike Dunn: d10 (2/2))")
        assert error.size.height > 1 and error.size.height * error.size.width >= len(message)
        status = screen.query_one("#status", Static)
        assert status.size.height == 2 and str(status.render()) == message


def test_snapshot_setup_with_long_names(demo_db: Path, snap_compare: Any) -> None:
    """The long name is cut in its column (the Pairs panel keeps its place)
    and read whole under the list; a pair of long names wraps in Pairs."""
    _long_names(demo_db)

    async def run_before(pilot: Pilot[Any]) -> None:
        await open_combat(pilot)
        await keys(pilot, "n")
        people = pilot.app.screen.query_one(OptionList)
        names = [str(people.get_option_at_index(i).prompt) for i in range(people.option_count)]
        for name in ("Billy Bart", "Billy Kidd", "Billy Bart"):
            people.highlighted = next(i for i, n in enumerate(names) if n.startswith(name))
            await keys(pilot, "enter")
        await pilot.pause()

    assert snap_compare(make_app(demo_db, INIT), terminal_size=SIZE, run_before=run_before)
