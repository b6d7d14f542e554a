"""Issue 12, the close-combat part: what a GM hit at the table, each through
the real app, a real campaign file and Pilot (80x24).

Items: 2 (no digit on the CQC card: the keys rule holds), 4 (``u`` on an
ended fight says why), 9 (layout: long names in the fight setup, two
fighters sharing a first name, messages read whole at 80 columns), 11
(undo asks, ``y`` redoes), 12 (a fight's whole history, round by round,
readable and exported), 13 (the Attack weapon kept per fighter).

Rules cited: S0 §Close combat 1-6, §2.2 Disarm (a taken weapon is gone from
his quick slots), §3 (cards masked until the reveal); RULES-NOTES B.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from ka_tui.screens.combat.screen import CombatScreen
from ka_tui.screens.combat.setup import FightSetupScreen, ROW_WIDTH
from ka_tui.screens.confirm import ConfirmScreen
from ka_tui.screens.history import HistoryScreen
from ka_tui.store import roster
from ka_tui.store.db import open_campaign
from ka_tui.widgets.cqc_card import CqcCardEditor
from tests.ui.pilot_helpers import rows, settle
from tests.ui.test_combat import (
    INIT, MIKE_WINS, SIZE, keys, kinds, make_app, mike_vs, new_fight, open_combat, text_of,
)

ROUND1 = MIKE_WINS + [2, 12]  # Olga's saves: fail (-4), a 12 saves
ROUND2 = MIKE_WINS + [3, 3]   # fail, fail: 6 -> 0, out (RULES-NOTES B)


def footer_keys(screen: Any) -> set[str]:
    """Binding ids the footer shows now (check_action truthy, show=True)."""
    return {b.binding.id for b in screen.active_bindings.values()
            if b.binding.show and b.enabled and b.binding.id}


async def two_rounds_to_the_end(pilot: Pilot[Any]) -> CombatScreen:
    """Mike vs Olga: round 1 Mike's two Basic Attacks (Sten gun; S0 §2.2: each
    lands once, a save each) and Disarm, Olga a Basic Feint (her TT pistol
    chosen, but no Attack carries it); round 2 Mike attacks twice again, Olga
    feints; she is out; enter ends the fight."""
    screen = await mike_vs(pilot, "Olga Petrova")
    await keys(pilot, "a", "b", "b", "s", "b", "w", "enter")
    await keys(pilot, "f", "b", "w", "enter", "v", "r", "enter", "enter")
    await keys(pilot, "a", "b", "b", "enter", "f", "b", "enter", "v", "r", "enter")
    assert screen.progress is not None and screen.progress.over
    await keys(pilot, "enter")
    assert screen.progress is not None and screen.progress.ended
    return screen


# -- item 2: digits on the card --------------------------------------------------

async def test_item2_a_digit_on_the_card_switches_mode_and_adds_nothing(demo_db: Path) -> None:
    """On main ``1`` added a Basic action to the hidden card; now it goes to
    the roster (the app's keys rule) and the card is as it was."""
    app = make_app(demo_db, INIT)
    async with app.run_test(size=SIZE) as pilot:
        screen = await mike_vs(pilot, "Olga Petrova")
        editor = screen.query_one(CqcCardEditor)
        await keys(pilot, "a")
        assert editor.has_focus and editor.card.lines == ()
        await keys(pilot, "1")
        assert pilot.app.current_mode == "roster"
        await keys(pilot, "3")
        assert pilot.app.screen is screen
        assert editor.card.lines == () and editor.budget_text() == "spent 0 / 8, left 8"
        await keys(pilot, "2")
        assert pilot.app.current_mode == "roller"
        await keys(pilot, "f3")                     # F3 from anywhere (the roller's field)
        assert pilot.app.screen is screen and editor.has_focus
        await keys(pilot, "b", "plus", "D")         # the card's own keys: Basic x2, Deliberate
        assert editor.card.render() == "2x Basic Attack, Deliberate Attack"
        await keys(pilot, "delete")
        assert editor.card.lines == ()
        assert {"cqc_card.basic", "cqc_card.deliberate", "cqc_card.special"} <= \
            footer_keys(screen)
    assert kinds(demo_db) == ["fight_started", "initiative"]


# -- item 4: u on an ended fight ---------------------------------------------------

async def test_item4_undo_on_an_ended_fight_says_why_and_is_not_offered(demo_db: Path) -> None:
    app = make_app(demo_db, INIT + ROUND1 + ROUND2)
    async with app.run_test(size=SIZE) as pilot:
        screen = await two_rounds_to_the_end(pilot)
        assert "combat.undo" not in footer_keys(screen)
        before = kinds(demo_db)
        await keys(pilot, "u")
        assert not isinstance(pilot.app.screen, ConfirmScreen)
        assert "cannot be undone" in text_of(screen, "#status")
        assert kinds(demo_db) == before


# -- item 11: undo asks; redo -----------------------------------------------------

async def test_item11_undo_asks_first_and_y_redoes_the_round(demo_db: Path) -> None:
    app = make_app(demo_db, INIT + ROUND1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await mike_vs(pilot, "Olga Petrova")
        await keys(pilot, "a", "D", "enter", "f", "b", "enter", "v", "r", "enter")
        assert screen.view_step == 6
        played = rows(demo_db, "SELECT seq, kind, payload FROM fight_event ORDER BY seq")
        assert "combat.redo" not in footer_keys(screen)
        await keys(pilot, "u")
        assert isinstance(pilot.app.screen, ConfirmScreen)
        assert "Undo round 1" in str(pilot.app.screen.query_one(".confirm-question",
                                                                  Static).render())
        await keys(pilot, "n")                       # keep: nothing dropped
        assert pilot.app.screen is screen and len(kinds(demo_db)) == len(played)
        await keys(pilot, "u", "y")                  # undo
        assert kinds(demo_db) == ["fight_started", "initiative"]
        assert screen.view_step == 2 and "combat.redo" in footer_keys(screen)
        await keys(pilot, "y")                       # redo: the same events are back
        assert rows(demo_db, "SELECT seq, kind, payload FROM fight_event ORDER BY seq") \
            == played
        assert screen.view_step == 6 and "combat.redo" not in footer_keys(screen)


async def test_item11_no_redo_once_something_else_is_written(demo_db: Path) -> None:
    app = make_app(demo_db, INIT + ROUND1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await mike_vs(pilot, "Olga Petrova")
        await keys(pilot, "a", "D", "enter", "f", "b", "enter", "v", "r", "enter")
        await keys(pilot, "u", "y")
        await keys(pilot, "a", "b", "enter")         # a new card: the redo is gone
        assert "combat.redo" not in footer_keys(screen)
        await keys(pilot, "y")
        assert kinds(demo_db) == ["fight_started", "initiative", "card_entered"]


# -- item 12: history -------------------------------------------------------------

async def test_item12_an_ended_fight_reads_round_by_round_and_exports(demo_db: Path) -> None:
    app = make_app(demo_db, INIT + ROUND1 + ROUND2)
    async with app.run_test(size=SIZE) as pilot:
        await two_rounds_to_the_end(pilot)
        await keys(pilot, "h")
        history = pilot.app.screen
        assert isinstance(history, HistoryScreen) and history.history is not None
        titles = [s.title for s in history.history.sections]
        assert titles == ["Start", "Round 1", "Round 2",
                          "End: the outcome written to the roster"]
        shown = " ".join(str(w.render()) for w in history.query(".history-section"))
        assert "Cards revealed (S0 §Close combat 3)" in shown and "TT pistol goes to" in shown
        await keys(pilot, "right_square_bracket", "right_square_bracket")
        assert history.section == 2
        await keys(pilot, "m", "e")
        md = demo_db.parent / history.history.file_name("markdown")
        txt = demo_db.parent / history.history.file_name("text")
        assert md.is_file() and "\n## Round 2\n" in md.read_text(encoding="utf-8")
        assert "Round 1\n-------" in txt.read_text(encoding="utf-8")
        await keys(pilot, "escape")
        assert isinstance(pilot.app.screen, CombatScreen)


async def test_item12_earlier_fights_open_from_the_list_and_show_their_history(
        demo_db: Path) -> None:
    """A finished fight is no longer only "(ended)": l, enter, h."""
    app = make_app(demo_db, INIT + ROUND1 + ROUND2)
    async with app.run_test(size=SIZE) as pilot:
        await two_rounds_to_the_end(pilot)
        await keys(pilot, "l", "h")                  # straight from the list
        history = pilot.app.screen
        assert isinstance(history, HistoryScreen) and history.history is not None
        assert history.history.status == "ended" and len(history.history.sections) == 4
        await keys(pilot, "escape", "enter", "h")    # or open the fight, then h
        history = pilot.app.screen
        assert isinstance(history, HistoryScreen) and history.history is not None
        assert history.history.status == "ended" and len(history.history.sections) == 4


# -- item 13: the weapon carries over ----------------------------------------------

async def test_item13_each_fighter_keeps_his_weapon_unless_it_was_taken(demo_db: Path) -> None:
    """Round 1: Mike attacks with the Sten gun and his Disarm takes Olga's TT
    pistol (S0 §2.2 Disarm). Round 2: Mike's card starts with the Sten gun;
    Olga's with no weapon (hers is gone), not with a pistol she lost."""
    app = make_app(demo_db, INIT + ROUND1)
    async with app.run_test(size=SIZE) as pilot:
        screen = await mike_vs(pilot, "Olga Petrova")
        editor = screen.query_one(CqcCardEditor)
        await keys(pilot, "a", "D", "s", "b", "w", "enter")
        await keys(pilot, "w", "f", "b")
        assert editor.card.weapon is None                  # no Attack: no weapon on it
        await keys(pilot, "a", "b")
        assert editor.card.weapon == "TT pistol"
        await keys(pilot, "enter", "v", "r", "enter", "enter")
        assert screen.view_step == 2 and "round 2" in screen.sub_title
        assert editor.fighter.name == "Mike Dunn" and editor.weapon_choice == "Sten gun"
        await keys(pilot, "a", "b")
        assert editor.card.weapon == "Sten gun"
        await keys(pilot, "enter")
        assert editor.fighter.name == "Olga Petrova" and editor.weapon_choice is None
        assert "unarmed" in str(editor.render())


# -- item 9: layout -----------------------------------------------------------------

def _long_names(db_file: Path) -> None:
    db = open_campaign(db_file)
    try:
        mike = next(c for c in roster.list_characters(db) if c.name == "Mike Dunn")
        roster.duplicate_character(db, mike.id, name="Billy Kidd")
        roster.duplicate_character(db, mike.id,
                                   name="Billy Bartholomew Fairweather-Montgomery")
    finally:
        db.close()


async def test_item9_long_names_stay_in_their_column_and_read_whole(demo_db: Path) -> None:
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


async def test_item9_a_faces_error_reads_whole_at_80_columns(demo_db: Path) -> None:
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


# -- snapshots at 80x24 (layout is the point) ------------------------------------------

def test_item9_snapshot_setup_with_long_names(demo_db: Path, snap_compare: Any) -> None:
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


def test_item12_snapshot_history_of_an_ended_fight(demo_db: Path, snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await two_rounds_to_the_end(pilot)
        await keys(pilot, "h")
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(make_app(demo_db, INIT + ROUND1 + ROUND2), terminal_size=SIZE,
                        run_before=run_before)
