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

from ka_tui.rules.core.dice import RandomDice
from ka_tui.rules.cqc import initiative_order
from ka_tui.screens.combat.setup import FightSetupScreen, ROW_WIDTH
from ka_tui.store import fights, roster
from ka_tui.store.db import open_campaign
from ka_tui.widgets.cqc_card import CqcCardEditor
from tests.ui.combat_pilot import (
    INIT, SIZE, keys, make_app, mike_vs, new_fight, open_combat, text_of,
)
from tests.ui.key_scripts import screen_text
from tests.ui.pilot_helpers import commit_sql, rows, settle


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


def _four_fighters_at_step_2(db_file: Path,
                             olga: str = "Olga Petrova-Fairweathers") -> None:
    """Kasia vs Mike, Olga vs Jeanne, the order rolled (S0 §Close combat 1):
    step 2, four cards wanted. Olga's longer name widens the order's lines."""
    commit_sql(db_file, "UPDATE character SET name = ? WHERE name = 'Olga Petrova'", olga)
    ids = {n.split()[0]: i for i, n in rows(db_file, "SELECT id, name FROM character")}
    with open_campaign(db_file) as db:
        fid = fights.start_fight(db, [(ids["Kasia"], ids["Mike"]), (ids["Olga"], ids["Jeanne"])])
        p = fights.load_progress(db, fid)
        init = initiative_order(p.start.fighters, RandomDice(3), p.rules)
        fights.record_initiative(db, fid, init, False, expect_seq=p.seq)


async def test_the_cards_in_line_stays_in_sight_over_the_card(demo_db: Path) -> None:
    """S0 §Close combat 2: with four fighters at 80x24 the GM reads how many
    cards are in above the card he fills in, whichever row he is on."""
    _four_fighters_at_step_2(demo_db)
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_combat(pilot)
        assert screen.view_step == 2
        shown = screen_text(app)
        assert "0 of 4 cards in; waiting for Mike, Jeanne, Kasia, Olga" in shown, shown
        assert "AP: spent 0 / 8" in shown
        # the pane scrolls to the focused card, as Textual does when focus
        # comes to it once the pane is laid out (on a loaded machine, say)
        screen.query_one(CqcCardEditor).scroll_visible(animate=False)
        await settle(pilot)
        shown = screen_text(app)
        assert "0 of 4 cards in; waiting for Mike" in shown, shown
        await keys(pilot, "c", "S")                  # Mike: a Special Control, the last row
        shown = screen_text(app)
        assert "0 of 4 cards in; waiting for Mike" in shown, shown
        assert "Control [c] Special" in shown and "AP: spent 8 / 8" in shown
        await keys(pilot, "enter")
        shown = screen_text(app)
        assert "1 of 4 cards in (Mike); waiting for Jeanne, Kasia, Olga" in shown, shown
        assert "Jeanne Moreau against Olga Petrova-Fairweathers" in shown


async def test_a_long_name_is_cut_in_the_fighters_strip(demo_db: Path) -> None:
    """Four fighters, one with a 46-character name: each fighter keeps one
    line of the strip at 80 columns (it showed three, the lines wrapped);
    the name reads whole over the card."""
    long = "Olga Petrova-Fairweather-Montgomery de Saint-Cyr"
    _four_fighters_at_step_2(demo_db, long)
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_combat(pilot)
        strip = screen.query_one("#fighters", Static)
        assert strip.size.height == 4
        shown = screen_text(app).splitlines()
        assert [line[:4] for line in shown[2:6]] == [" 1. ", " 2. ", " 3. ", " 4. "]
        assert any("4. Olga Petrova-Fairweathe…  AP 6/6" in line and "vs Jeanne" in line
                   for line in shown[2:6]), "\n".join(shown)
        assert "Jeanne Moreau: Agility" in screen_text(app)
        await keys(pilot, "enter", "enter")          # Mike's and Jeanne's cards, empty
        assert "Kasia Nowak against Mike Dunn" in screen_text(app)
        await keys(pilot, "enter")
        assert f"{long} against Jeanne Moreau" in screen_text(app)


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
