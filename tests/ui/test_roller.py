"""Dice roller screen: odds shown before the roll, rolls with the
app's dice or with faces typed from the table's dice, invalid faces refused at
the field, and every roll in the roll log of the SQLite file.

Rules cited: S0 §Skills (pools, against 13, crits, Passive), S0 §Close combat 4
(opposed round, tie-breaks, d12 roll-off), RULES-NOTES A (tables).
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Select

from ka_tui.app import KaApp
from ka_tui.rules.core.dice import RandomDice
from ka_tui.rules.core.odds import percent, unopposed_odds
from ka_tui.rules.core.options import SkillOptions
from ka_tui.screens.roller.screen import NOBODY, TYPED, RollerScreen
from ka_tui.screens.roller.fields import RollTextField
from ka_tui.widgets.dice_panel import DicePanel, OddsView
from ka_tui.widgets.roll_log_pane import RollLogPane
from tests.ui.pilot_helpers import rows, settle

SIZE = (80, 24)
CLOCK = datetime(2026, 3, 1, 20, 15, tzinfo=timezone.utc)


def make_app(db: Path, dice: Any = None) -> KaApp:
    app = KaApp(db)
    app.roller_dice = dice  # type: ignore[attr-defined]
    app.roller_clock = lambda: CLOCK  # type: ignore[attr-defined]
    return app


async def open_roller(pilot: Pilot[None]) -> RollerScreen:
    await settle(pilot)
    await pilot.press("2")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, RollerScreen)
    assert screen.loaded
    return screen


async def type_into(pilot: Pilot[None], screen: RollerScreen, key: str, text: str) -> None:
    field = screen.query_one(f"#input-{key}", Input)
    field.focus()
    field.value = ""
    await pilot.pause()
    await pilot.press(*text)
    await pilot.pause()


def field_error(screen: RollerScreen, field_id: str) -> str:
    return screen.query_one(f"#{field_id}", RollTextField).error


def pool_text(screen: RollerScreen, side: str = "a") -> str:
    return screen.query_one(f"#input-pool_{side}", Input).value


async def choose(pilot: Pilot[None], screen: RollerScreen, select: str, value: object) -> None:
    """Pick in a Select as the GM does (its Changed message runs the screen)."""
    widget = screen.query_one(f"#select-{select}", Select)
    widget.value = value
    await settle(pilot)


def character_id(screen: RollerScreen, name: str) -> int:
    return next(c.id for c in screen.data.characters if c.name == name)


def skill_key(screen: RollerScreen, who: str, skill: str) -> str:
    character = screen.data.character(character_id(screen, who))
    assert character is not None
    return next(c.key for c in character.choices if c.skill.name == skill)


# --------------------------------------------------------------- odds


async def test_odds_for_the_first_characters_skill_are_shown_s0_skills(demo_db: Path) -> None:
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        assert pool_text(screen) == "2d12+2d20 @7"  # Arthur Hale, Fighter Piloting [L2]
        odds = unopposed_odds((12, 12, 20, 20), 7, SkillOptions())
        lines = screen.query_one(OddsView).lines
        assert lines[0] == f"each die needs 6+ · pass {percent(odds.p_pass)}"
        assert len([line for line in lines if "%" in line]) == 2 + 5  # two heads, 0..4


async def test_odds_update_as_the_gm_types_a_pool(demo_db: Path) -> None:
    """A pool that cannot be read shows why and is never rolled."""
    app = make_app(demo_db, RandomDice(1))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        await type_into(pilot, screen, "pool_a", "2d10 @5")
        odds = unopposed_odds((10, 10), 5, SkillOptions())
        assert screen.query_one(OddsView).lines[0] == (
            f"each die needs 8+ · pass {percent(odds.p_pass)}")
        await type_into(pilot, screen, "pool_a", "2d7 @5")
        assert "d7 is not a die" in field_error(screen, "field-pool-a")
        assert screen.setup is None
        assert screen.query_one(OddsView).has_class("-error")
        await type_into(pilot, screen, "pool_a", "3d10 @")  # '@' without a number
        assert "skill number" in field_error(screen, "field-pool-a")
        await pilot.press("r")
        await settle(pilot)
        assert screen.last_result is None
    assert rows(demo_db, "SELECT count(*) FROM roll_log") == [(0,)]


async def test_passive_skill_rolls_d12_plus_bonus_on_a_base_s0_skills(demo_db: Path) -> None:
    """S0 §Skills: "Brawl: 4 — … roll d12, then add +4"; the Base it adds to is picked."""
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        await choose(pilot, screen, "who", character_id(screen, "Mike Dunn"))
        await choose(pilot, screen, "skill", skill_key(screen, "Mike Dunn", "Brawl"))
        assert screen.query_one("#row-base").display
        assert pool_text(screen) == "1d12+4 @6"  # Weapons base 6
        await choose(pilot, screen, "base", "Strength")
        assert pool_text(screen) == "1d12+4 @6"  # Strength 6 too
        await choose(pilot, screen, "base", "Agility")
        assert pool_text(screen) == "1d12+4 @4"


# ---------------------------------------------------------- rolling


async def test_typed_faces_are_resolved_and_logged_in_the_file_s0_skills(demo_db: Path) -> None:
    """Faces from the table: 1 on d12 negated by the 20 on d20 (S0 §Skills)."""
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        await type_into(pilot, screen, "faces", "1 5 20 12")
        assert field_error(screen, "field-faces") == ""
        await pilot.press("enter")
        await settle(pilot)
        panel = screen.query_one(DicePanel)
        assert panel.summary == "2 successes: passed"
        assert screen.query_one("#input-faces", Input).value == ""
    logged = rows(demo_db, "SELECT who, what, pool, faces, result, explanation, created_at "
                           "FROM roll_log")
    assert len(logged) == 1
    who, what, pool, faces, result, explanation, created_at = logged[0]
    assert (who, what, pool) == ("Arthur Hale", "Fighter Piloting · table dice", "2d12+2d20 @7")
    assert json.loads(faces) == [[12, 1], [12, 5], [20, 20], [20, 12]]
    assert result == "PASS: 2 successes"
    lines = json.loads(explanation)
    assert lines[0] == "Faces typed from the table's dice"
    assert any("negated by the critical on die 3" in line for line in lines)
    assert created_at == "2026-03-01T20:15:00Z"


INVALID_FACES = [
    ("13 5 20 12", "13 is not a face of a d12 (die 1)"),
    ("1 5 20", "4 faces expected for 2d12+2d20, got 3"),
    ("1 5 20 12 7", "4 faces expected for 2d12+2d20, got 5"),
    ("0 5 20 12", "0 is not a face of a d12 (die 1)"),
    ("1 5 21 12", "21 is not a face of a d20 (die 3)"),
]


async def test_invalid_faces_are_refused_at_the_field(demo_db: Path) -> None:
    """Arthur's 2d12+2d20: a face out of range or the wrong count is refused
    at the field, and enter rolls nothing and logs nothing."""
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        for faces, message in INVALID_FACES:
            await type_into(pilot, screen, "faces", faces)
            assert field_error(screen, "field-faces") == message
            await pilot.press("enter")
            await settle(pilot)
            assert field_error(screen, "field-faces") == message
            assert screen.last_result is None
            assert screen.query_one("#input-faces", Input).value == faces
    assert rows(demo_db, "SELECT count(*) FROM roll_log") == [(0,)]


async def test_letters_are_not_typed_as_faces_but_reach_the_keys(demo_db: Path) -> None:
    app = make_app(demo_db, RandomDice(3))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        await type_into(pilot, screen, "faces", "1 x/")
        assert screen.query_one("#input-faces", Input).value == "1 "
        assert screen.query_one(RollLogPane).has_class("-filtering")  # '/' filters the log
        screen.query_one("#input-faces", Input).focus()
        await pilot.press("v")  # the Versus binding, from inside the field
        assert screen.focused is screen.query_one("#select-versus", Select)


async def test_r_rolls_with_the_injected_dice(demo_db: Path) -> None:
    app = make_app(demo_db, RandomDice(11))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        await pilot.press("r")  # the faces field has the focus: r still rolls
        await settle(pilot)
        assert screen.last_result is not None
    expected = RandomDice(11)
    faces = [expected.roll(s) for s in (12, 12, 20, 20)]
    (logged,) = rows(demo_db, "SELECT what, faces FROM roll_log")
    assert logged[0] == "Fighter Piloting"
    assert [f for _, f in json.loads(logged[1])] == faces


# ---------------------------------------------------------- opposed


async def test_opposed_roll_logs_both_sides_faces_s0_close_combat_4(demo_db: Path) -> None:
    """Arthur (L2, 7) vs Mike (Close Combat L1, 7): both Legendary, so both
    use the challenging table (S0 §Skills): 9+ each."""
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        await pilot.press("v", "enter")
        await pilot.press("M", "i", "k", "e", "enter")
        await settle(pilot)
        assert screen.query_one("#select-versus", Select).value == character_id(
            screen, "Mike Dunn")
        await choose(pilot, screen, "vskill", skill_key(screen, "Mike Dunn", "Close Combat"))
        assert pool_text(screen, "b") == "3d12+1d20 @7"
        assert screen.query_one(OddsView).lines[0] == "Arthur needs 9+ · Mike needs 9+"
        await type_into(pilot, screen, "faces", "9 2 2 16 ; 12 5 12 1")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.query_one(DicePanel).summary == "Arthur Hale wins (more successes)"
    (logged,) = rows(demo_db, "SELECT who, what, pool, faces, result FROM roll_log")
    assert logged[0] == "Arthur Hale vs Mike Dunn"
    assert logged[1] == "Fighter Piloting vs Close Combat · table dice"
    assert logged[2] == "2d12+2d20 @7 vs 3d12+1d20 @7"
    assert json.loads(logged[3]) == [[12, 9], [12, 2], [20, 2], [20, 16],
                                     [12, 12], [12, 5], [12, 12], [20, 1]]
    assert logged[4] == "Arthur Hale wins (more successes)"


async def test_a_tie_asks_for_the_d12_roll_off_s0_close_combat_4(demo_db: Path) -> None:
    """Equal successes and no tie-break to compare: "roll off d12. Highest result wins"."""
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        await choose(pilot, screen, "who", TYPED)
        await choose(pilot, screen, "versus", TYPED)
        assert field_error(screen, "field-pool-a") == ""  # empty is a prompt, not an error
        assert screen.query_one(OddsView).lines[0].startswith("Nothing to roll yet")
        await type_into(pilot, screen, "pool_a", "1d12 @5")
        await type_into(pilot, screen, "pool_b", "1d12 @5")
        await type_into(pilot, screen, "faces", "8 8")
        assert field_error(screen, "field-faces") == "a tie: add the d12 roll-off (A's then B's)"
        await pilot.press("enter")
        await settle(pilot)
        assert screen.last_result is None
        await type_into(pilot, screen, "faces", "8 8 4 4 3 9")
        assert field_error(screen, "field-faces") == ""
        await pilot.press("enter")
        await settle(pilot)
        assert screen.query_one(DicePanel).summary == "Opponent wins (d12 roll-off)"
    (logged,) = rows(demo_db, "SELECT faces FROM roll_log")
    assert [f for _, f in json.loads(logged[0])] == [8, 8, 4, 4, 3, 9]


async def test_swap_exchanges_the_sides(demo_db: Path) -> None:
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        mike = character_id(screen, "Mike Dunn")
        await choose(pilot, screen, "versus", mike)
        await type_into(pilot, screen, "pool_a", "2d12+2d20 @4")  # his dice, edited
        await pilot.press("x")
        await settle(pilot)
        assert screen.query_one("#select-who", Select).value == mike
        assert pool_text(screen, "a") == "3d12+1d20 @7"  # Mike's first skill, Close Combat
        assert pool_text(screen, "b") == "2d12+2d20 @4"
        assert screen.setup is not None and screen.setup.b is not None
        assert screen.setup.b.who == "Arthur Hale"
        await choose(pilot, screen, "versus", NOBODY)
        assert not screen.query_one("#field-pool-b").display


# -------------------------------------------------------------- the log


async def test_log_survives_a_restart_and_filters(demo_db: Path) -> None:
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        await type_into(pilot, screen, "faces", "3 4 5 6")
        await pilot.press("enter")
        await settle(pilot)
        await choose(pilot, screen, "who", character_id(screen, "Mike Dunn"))
        await type_into(pilot, screen, "faces", "3 4 5 6")
        await pilot.press("enter")
        await settle(pilot)
    again = make_app(demo_db)
    async with again.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        pane = screen.query_one(RollLogPane)
        assert [r.who for r in pane.rolls] == ["Mike Dunn", "Arthur Hale"]
        assert pane.table.row_count == 2
        await pilot.press("slash")
        await pilot.press(*"arthur")
        await settle(pilot)
        assert [r.who for r in pane.rolls] == ["Arthur Hale"]
        assert pane.border_title == "Roll log: 1 matching \u201carthur\u201d"
        await pilot.press("escape")
        await settle(pilot)
        assert [r.who for r in pane.rolls] == ["Mike Dunn", "Arthur Hale"]


async def test_enter_on_a_log_row_shows_the_roll_in_full(demo_db: Path) -> None:
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        await type_into(pilot, screen, "faces", "3 4 5 6")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("l", "enter")
        await pilot.pause()
        panel = screen.query_one(DicePanel)
        assert panel.border_title.startswith("Logged roll #1")
        assert "faces 3 4 5 6" in panel.summary
        await pilot.press("z")
        assert screen.maximized is screen.query_one(RollLogPane)
        await pilot.press("z")
        assert screen.maximized is None


async def test_roller_is_in_the_command_palette(demo_db: Path) -> None:
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Go to Dice roller" in titles
        screen = await open_roller(pilot)
        titles = [c.title for c in app.get_system_commands(screen)]
        assert {"Roll", "Faces", "Filter", "Versus"} <= set(titles)


async def test_a_stray_q_among_typed_faces_asks_before_quitting(demo_db: Path) -> None:
    """The faces field leaves a letter it does not take to the keys (v, w, /),
    so a slip of ``q`` reached Quit and the typed faces were lost at once: now
    the app asks first (``unsaved_changes``); with nothing typed, q quits."""
    from ka_tui.screens.confirm import ConfirmScreen

    app = make_app(demo_db)
    async with app.run_test() as pilot:
        screen = await open_roller(pilot)
        faces = screen.query_one("#input-faces", Input)
        faces.focus()
        await pilot.press("3", "q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and app.is_running
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is screen and faces.value == "3"
        faces.value = ""
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running
