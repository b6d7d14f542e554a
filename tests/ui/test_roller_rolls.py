"""The dice roller at the table: an opposed roll defaults to the same skill and
never the roller himself, an empty campaign says why nothing rolls, any dice
with odds and typed faces, a piloting check with its named modifiers (R-2),
striking a mistaken roll and undoing the last, and an older campaign's strikes
kept in the export."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from textual.widgets import Input, Select

from ka_tui.rules.core.any_dice import dice_odds, parse_dice
from ka_tui.rules.core.dice import RandomDice
from ka_tui.rules.core.odds import percent
from ka_tui.screens.roller.screen import NOBODY, RollerScreen
from ka_tui.widgets.dice_panel import DicePanel, OddsView
from tests.ui.pilot_helpers import rows, settle, wait_for
from tests.ui.test_roller import (
    SIZE,
    character_id,
    choose,
    field_error,
    make_app,
    open_roller,
    skill_key,
    type_into,
)


def _versus_ids(screen: RollerScreen) -> list[object]:
    return [value for _, value in screen.model.picks["versus"].options]


async def test_opposed_defaults_to_the_same_skill_and_never_himself(
        demo_db: Path) -> None:
    """S0 §Close combat 4: Close Combat against Close Combat. Picking Olga as
    the opponent of Mike's Close Combat picks her Close Combat (it used to be
    her first skill, Ground-attack Piloting); Mike is not in his own versus list."""
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        mike, olga = character_id(screen, "Mike Dunn"), character_id(screen, "Olga Petrova")
        await choose(pilot, screen, "who", mike)
        await choose(pilot, screen, "skill", skill_key(screen, "Mike Dunn", "Close Combat"))
        assert mike not in _versus_ids(screen) and olga in _versus_ids(screen)
        await choose(pilot, screen, "versus", olga)
        assert screen.query_one("#select-vskill", Select).value == \
            skill_key(screen, "Olga Petrova", "Close Combat")
        assert screen.setup is not None and screen.setup.b is not None
        assert screen.setup.b.what == "Close Combat"
        # A's skill changes: B follows when he has it (Weapons is a Base skill of both)
        await choose(pilot, screen, "skill", skill_key(screen, "Mike Dunn", "Weapons"))
        assert screen.query_one("#select-vskill", Select).value == \
            skill_key(screen, "Olga Petrova", "Weapons")
        # the roller becomes the opponent: the opponent goes back to nobody
        await choose(pilot, screen, "who", olga)
        assert olga not in _versus_ids(screen)
        assert screen.query_one("#select-versus", Select).value == NOBODY


async def test_empty_campaign_r_says_why_nothing_rolls(db_path: Path) -> None:
    """No characters: the pool field's placeholder reads as an instruction,
    and ``r`` says why nothing was rolled, in the result panel and at the field."""
    app = make_app(db_path, RandomDice(1))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        assert screen.query_one("#input-pool_a", Input).placeholder.startswith("type")
        await pilot.press("r")
        await settle(pilot)
        panel = screen.query_one(DicePanel)
        assert panel.border_title == "Cannot roll"
        assert "roster" in str(panel.query_one("#dice-head").render())
        assert "type dice" in field_error(screen, "field-pool-a")
    assert rows(db_path, "SELECT count(*) FROM roll_log") == [(0,)]


async def test_any_dice_odds_typed_faces_and_the_log(demo_db: Path) -> None:
    """``2d6+1 @8`` was refused ("d6 is not a skill die"); R-2: a total at or
    above the target succeeds. Exact odds before, typed faces, the log."""
    app = make_app(demo_db, RandomDice(3))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        await type_into(pilot, screen, "pool_a", "2d6+1 @8")
        assert field_error(screen, "field-pool-a") == ""
        assert screen.query_one(OddsView).lines[0] == "2d6+1 @8 · pass 58.3% · mean 8.0"
        await type_into(pilot, screen, "faces", "3 9")
        assert "9 is not a face of a d6" in field_error(screen, "field-faces")
        await type_into(pilot, screen, "faces", "3 4")
        await pilot.press("enter")
        await settle(pilot)
        await type_into(pilot, screen, "pool_a", "4d6 >=4")
        assert screen.query_one(OddsView).lines[0] == "4d6 >=4 · dice at 4+ · mean 2.0"
        await pilot.press("r")
        await settle(pilot)
    logged = rows(demo_db, "SELECT pool, faces, result FROM roll_log ORDER BY id")
    assert logged[0] == ("2d6+1 @8", "[[6, 3], [6, 4]]",
                         "PASS 8 vs 8 (+0)")
    assert logged[1][0] == "4d6 >=4" and logged[1][2].endswith(" at 4+")


async def test_piloting_check_with_named_modifiers_r2(demo_db: Path) -> None:
    """A 2d6 check from Arthur's Piloting rating with a named modifier: the
    engine's TargetNumber, rendered in the odds and the log (R-2)."""
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        arthur = character_id(screen, "Arthur Hale")
        await choose(pilot, screen, "who", arthur)
        await choose(pilot, screen, "skill", "check:piloting")
        character = screen.data.character(arthur)
        assert character is not None
        rating = next(c.skill.number for c in character.choices if c.check == "piloting")
        assert screen.query_one("#input-pool_a", Input).value == f"2d6 @{rating}"
        assert screen.query_one("#field-mods").display
        mods = screen.query_one("#input-mods", Input)
        mods.focus()
        await pilot.press(*"+2 long range")
        await settle(pilot)
        target = rating + 2
        p = dice_odds(parse_dice(f"2d6 @{target}")).p_pass
        assert p is not None and p < Fraction(1)
        lines = screen.query_one(OddsView).lines
        assert lines[0].startswith(f"2d6 @{target} · pass {percent(p)}")
        assert lines[1] == (f"target {rating} (arthur hale piloting, R-2) "
                            f"+ 2 (long range, GM) = {target}")
        await type_into(pilot, screen, "faces", "6 6")
        await pilot.press("enter")
        await settle(pilot)
    (what, result, explanation), = rows(demo_db,
                                        "SELECT what, result, explanation FROM roll_log")
    assert what == "piloting check · table dice" and result.startswith("PASS")
    assert "long range, GM" in explanation


async def test_strike_a_mistaken_roll_and_undo_the_last(demo_db: Path) -> None:
    """``u`` strikes the newest standing roll; ``d`` on a log row strikes it or
    stands it again. Struck rolls stay in the log, marked, with who and when."""
    app = make_app(demo_db, RandomDice(5))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_roller(pilot)
        await type_into(pilot, screen, "pool_a", "2d6 @7")
        for _ in range(3):
            await pilot.press("r")
            await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        struck = rows(demo_db, "SELECT id, struck_at, struck_by FROM roll_log "
                               "WHERE struck_at IS NOT NULL ORDER BY id")
        assert [r[0] for r in struck] == [2, 3]
        assert all(r[1] == "2026-03-01T20:15:00Z" and r[2] for r in struck)
        pane = screen.query_one("#log")
        assert "STRUCK" in str(pane.table.get_row("3")[3])
        screen.action_focus_log()  # the log: the cursor is on the newest roll
        await pilot.pause()
        await pilot.press("d")  # stands it again
        await settle(pilot)
        assert rows(demo_db, "SELECT struck_at FROM roll_log WHERE id = 3") == [(None,)]
        await pilot.press("up", "up", "d")  # roll #1
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert "STRUCK by" in str(screen.query_one(DicePanel).query_one("#dice-lines").render())
    assert rows(demo_db, "SELECT count(*) FROM roll_log") == [(3,)]  # nothing deleted
    assert [r[0] for r in rows(demo_db, "SELECT id FROM roll_log WHERE struck_at IS NOT NULL "
                                        "ORDER BY id")] == [1, 2]


def test_an_older_campaign_migrates_and_strikes_travel_in_the_export(
        tmp_path: Path) -> None:
    """The strike columns come by an appended migration (rolls kept, standing);
    a struck roll keeps who and when through export and import."""
    import sqlite3
    from datetime import datetime, timezone

    from ka_tui.store.db import create_campaign, open_campaign
    from ka_tui.store.migrations import MIGRATIONS
    from ka_tui.store.roll_log import query_rolls, strike_roll
    from ka_tui.store.transfer import campaign_document, import_campaign

    old = tmp_path / "old.db"
    create_campaign(old, "Old", schema=len(MIGRATIONS) - 1).close()
    con = sqlite3.connect(old)
    con.execute("INSERT INTO roll_log (who, what, pool, faces, result) "
                "VALUES ('Kay', 'dice', '2d6 @7', '[[6, 3], [6, 4]]', 'PASS 7 vs 7 (+0)')")
    con.commit()
    con.close()
    with open_campaign(old) as db:
        (roll,) = query_rolls(db)
        assert roll.struck_at is None and roll.result == "PASS 7 vs 7 (+0)"
        struck = strike_roll(db, roll.id, by="gm",
                             at=datetime(2026, 3, 1, 21, 0, tzinfo=timezone.utc))
        assert (struck.struck_at, struck.struck_by) == ("2026-03-01T21:00:00Z", "gm")
        doc = campaign_document(db)
    assert doc["roll_log"][0]["struck_by"] == "gm"
    out = tmp_path / "export.json"
    import json
    out.write_text(json.dumps(doc))
    result = import_campaign(str(out), tmp_path / "copy.db")
    (copied,) = query_rolls(result.db)
    result.db.close()
    assert copied.struck_at == "2026-03-01T21:00:00Z" and copied.struck_by == "gm"



async def test_a_roll_struck_in_one_window_shows_struck_in_the_other(demo_db: Path) -> None:
    """Two GMs' windows on one campaign: a roll struck in one (``u``) reads
    STRUCK in the other's log without a key pressed there, and standing
    again likewise (live views across processes)."""
    first, second = make_app(demo_db, RandomDice(5)), make_app(demo_db)
    async with first.run_test(size=SIZE) as pilot_a, second.run_test(size=SIZE) as pilot_b:
        screen_a = await open_roller(pilot_a)
        screen_b = await open_roller(pilot_b)
        await type_into(pilot_a, screen_a, "pool_a", "2d6 @7")
        await pilot_a.press("r")
        await settle(pilot_a)
        log_b = screen_b.query_one("#log")

        def result_in_b() -> str:
            return str(log_b.table.get_row("1")[3]) if log_b.rolls else ""

        await wait_for(pilot_b, lambda: result_in_b() != "")
        assert "STRUCK" not in result_in_b()
        await pilot_a.press("u")
        await settle(pilot_a)
        await wait_for(pilot_b, lambda: "STRUCK" in result_in_b())
        screen_a.action_focus_log()
        await pilot_a.pause()
        await pilot_a.press("d")  # stands it again
        await settle(pilot_a)
        await wait_for(pilot_b, lambda: "STRUCK" not in result_in_b())
