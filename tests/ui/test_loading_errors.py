"""No screen hangs on a load: a campaign damaged in a way the open
checks miss still opens, each screen names the damaged row and says what the
GM can do, and the rest of the app keeps working. A read-only campaign says so
in the header, rolls without logging (and says so), and refuses writes in one
line. Rules touched: S0 §Skills (a roll), S0 §Close combat (a fight's log).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from textual.widgets import Static

from ka_tui.app import KaApp
from ka_tui.rules.core.dice import RandomDice
from ka_tui.screens.combat.screen import CombatScreen
from ka_tui.screens.roller.screen import RollerScreen
from ka_tui.store import fights
from ka_tui.store.db import open_campaign
from ka_tui.store.roll_log import RollEntry, append_roll
from ka_tui.widgets.dice_panel import DicePanel
from tests.ui.pilot_helpers import SIZE, commit_sql, rows, settle, wait_for


def _damaged_roll(demo_db: Path) -> int:
    """A logged roll whose face is not a whole number (the issue's import-bad-roll)."""
    with open_campaign(demo_db) as db:
        roll = append_roll(db, RollEntry("Ann", "Piloting", "2d10", ((10, 3), (10, 9)), "pass"))
    commit_sql(demo_db, "UPDATE roll_log SET faces = ? WHERE id = ?", '[["", 1]]', roll.id)
    return roll.id


def _damaged_fight(demo_db: Path) -> int:
    """An open fight whose house rules are not a table (the issue's import-bad-fight)."""
    with open_campaign(demo_db) as db:
        fid = fights.start_fight(db, [(1, 6)])
    con = sqlite3.connect(demo_db)
    try:  # events are append-only (no UPDATE): drop the event, write the damaged one
        (payload,) = con.execute("SELECT json_set(payload, '$.rules.cqc', 1) FROM fight_event "
                                 "WHERE fight_id = ?", (fid,)).fetchone()
        con.execute("DELETE FROM fight_event WHERE fight_id = ?", (fid,))
        con.execute("INSERT INTO fight_event (fight_id, seq, kind, payload) VALUES "
                    "(?, 1, 'fight_started', ?)", (fid, payload))
        con.commit()
    finally:
        con.close()
    return fid


async def test_a_damaged_roll_log_row_is_named_and_the_roller_still_rolls(demo_db: Path) -> None:
    """S0 §Skills: the roller keeps rolling; the damaged log row is named."""
    rid = _damaged_roll(demo_db)
    app = KaApp(demo_db)
    app.roller_dice = RandomDice(5)  # type: ignore[attr-defined]
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RollerScreen)
        await wait_for(pilot, lambda: screen.loaded)
        panel = screen.query_one(DicePanel)
        text = str(panel.query_one("#dice-head", Static).render())
        assert f"roll log row {rid}" in text and "faces" in text, text
        assert "restore a backup" in text
        screen.query_one("#input-faces").focus()
        await pilot.press("r")
        await settle(pilot)
        assert "Cannot roll" not in str(panel.query_one("#dice-head", Static).render())
        await wait_for(pilot, lambda: len(rows(demo_db, "SELECT id FROM roll_log")) == 2)
        await pilot.press("escape", "1")  # the rest of the app works
        await settle(pilot)
        assert app.screen.__class__.__name__ == "RosterScreen"


async def test_a_fight_that_does_not_replay_is_named_on_the_close_combat_screen(
        demo_db: Path) -> None:
    """S0 §Close combat: a log that cannot be replayed shows why, never 'Loading…'."""
    fid = _damaged_fight(demo_db)
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, CombatScreen)

        def info() -> str:
            return str(screen.query_one("#info", Static).render())

        await wait_for(pilot, lambda: "Loading" not in info())
        assert f"fight {fid}" in info() and "rules.cqc" in info(), info()
        assert "expected an object" in info()
        assert "Cannot read the fight" in str(screen.query_one("#status", Static).render())


async def test_a_fight_without_its_first_event_is_named(demo_db: Path) -> None:
    """S0 §Close combat: a log missing its fight_started event."""
    with open_campaign(demo_db) as db:
        fid = fights.start_fight(db, [(1, 6)])
    commit_sql(demo_db, "DELETE FROM fight_event WHERE fight_id = ?", fid)
    commit_sql(demo_db, "INSERT INTO fight_event (fight_id, seq, kind, payload) VALUES (?, 2, "
                  "'cards_revealed', '{\"round\": 1}')", fid)
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        screen = app.screen
        await wait_for(pilot, lambda: "Loading" not in str(
            screen.query_one("#info", Static).render()))
        text = str(screen.query_one("#info", Static).render())
        assert f"fight {fid}" in text, text


async def test_damaged_house_rules_show_on_the_settings_screen(demo_db: Path) -> None:
    commit_sql(demo_db, "UPDATE campaign SET house_rules = ?", '{"cqc": 1}')
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        doc = app.screen.query_one("#option-doc", Static)
        await wait_for(pilot, lambda: "Loading" not in str(doc.render()))
        assert "Cannot load the house rules" in str(doc.render())


async def test_a_read_only_campaign_says_so_and_rolls_without_logging(
        demo_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The read-only path (SQLite ``mode=ro``; root ignores file modes, so it is
    asked for, as ``--read-only`` does). S0 §Skills roll."""
    before = rows(demo_db, "SELECT count(*) FROM roll_log")
    app = KaApp(demo_db, read_only=True)
    app.roller_dice = RandomDice(5)  # type: ignore[attr-defined]
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "READ-ONLY" in app.title
        bar = str(app.screen.query_one("#title-bar", Static).render())
        assert "READ-ONLY" in bar
        await pilot.press("2")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RollerScreen)
        await wait_for(pilot, lambda: screen.loaded)
        screen.query_one("#input-faces").focus()
        await pilot.press("r")
        panel = screen.query_one(DicePanel)
        await wait_for(pilot, lambda: "NOT LOGGED" in str(panel.border_title))
        assert rows(demo_db, "SELECT count(*) FROM roll_log") == before
        assert app._db is not None and app._db.read_only == "opened with --read-only"
