"""A campaign file changed outside ka-tui so that one flown mission's stored
debrief is not a debrief (a pilot that is not a table, a pilot without his
name, kills that are not a number): the roster opens, the screen that cannot
read the mission names it, and the rest of the app works — no traceback, no
"cannot open this campaign", no empty table without a message. The command
line's ``journal --mission`` says it in one line.

Real parts: the demo in a real SQLite file changed with plain ``sqlite3``, the
real app under Pilot, the real command line."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from ka_tui import cli
from ka_tui.app import KaApp
from ka_tui.screens.campaign.screen import CampaignScreen, MissionScreen, RecordScreen
from ka_tui.screens.roster.screen import RosterScreen
from ka_tui.store.db import open_campaign
from ka_tui.store.journal import entries
from ka_tui.widgets.fast_table import FastTable
from tests.ui.pilot_helpers import SIZE, settle, wait_for

BREAKS = {
    "a pilot that is not a table": (lambda d: d["pilots"].append("x"), "pilots[2]: expected an object"),
    "a pilot without his name": (lambda d: d["pilots"][0].pop("name"), "pilots[0].name: is missing"),
    "kills that are not a number": (lambda d: d["pilots"][0].update(kills="x"),
                                    "pilots[0].kills: expected a whole number"),
}


def break_debrief(path: Path, how: str) -> int:
    """The first flown mission's debrief changed as ``how`` says; its id."""
    con = sqlite3.connect(path)
    try:
        mid, raw = con.execute("SELECT id, debrief FROM mission WHERE status = 'flown' "
                               "ORDER BY id").fetchone()
        d = json.loads(raw)
        BREAKS[how][0](d)
        con.execute("UPDATE mission SET debrief = ? WHERE id = ?", (json.dumps(d), mid))
        con.commit()
    finally:
        con.close()
    return int(mid)


def _text(widget: Any) -> str:
    return str(widget.render())


def _shown(app: Any, cls: type, wid: str) -> bool:
    """The screen on top is a ``cls`` whose ``#wid`` has loaded."""
    return isinstance(app.screen, cls) and bool(app.screen.query(f"#{wid}")) and \
        "Loading" not in _text(app.screen.query_one(f"#{wid}"))


@pytest.mark.parametrize("how", list(BREAKS))
async def test_the_mission_and_its_records_name_the_bad_value_and_the_app_works(
        demo_db: Path, how: str) -> None:
    mid = break_debrief(demo_db, how)
    said = BREAKS[how][1]
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE, notifications=True) as pilot:  # the toasts shown
        await settle(pilot)
        roster = app.screen
        assert isinstance(roster, RosterScreen)
        await wait_for(pilot, lambda: roster.loaded)
        assert roster.query_one(FastTable).row_count > 0
        await pilot.press("5")
        await wait_for(pilot, lambda: isinstance(app.screen, CampaignScreen)
                       and app.screen.loaded > 0)
        campaign = app.screen
        assert isinstance(campaign, CampaignScreen)
        campaign.open_mission(mid)
        await wait_for(pilot, lambda: _shown(app, MissionScreen, "mission-text"))
        text = " ".join(_text(app.screen.query_one("#mission-text")).split())
        assert f'mission {mid} "Dawn patrol", debrief.{said}' in text, text
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is campaign)
        await pilot.press("v")          # the service records: a message, not an empty table
        await wait_for(pilot, lambda: any(f"debrief.{said}" in " ".join(str(t.render()).split())
                                          for t in campaign.query("Toast")))
        await pilot.press("j")          # the journal still reads
        await wait_for(pilot, lambda: campaign.query_one("#journal-table", FastTable)
                       .row_count > 0)
        app.push_screen(RecordScreen(1))
        await wait_for(pilot, lambda: _shown(app, RecordScreen, "record-text"))
        assert f"debrief.{said}" in _text(app.screen.query_one("#record-text", Static))
        assert app.is_running


@pytest.mark.parametrize("how", list(BREAKS))
def test_the_debrief_markdown_says_which_mission_in_one_line(
        demo_db: Path, how: str, capsys: pytest.CaptureFixture[str]) -> None:
    mid = break_debrief(demo_db, how)
    assert cli.main(["journal", "-", "--mission", str(mid), "--db", str(demo_db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unexpected error" not in err, err
    assert f"mission {mid} “Dawn patrol”" in err and f"debrief.{BREAKS[how][1]}" in err
    assert cli.main(["journal", "-", "--db", str(demo_db)]) == 0  # the whole journal reads


def test_a_journal_entry_that_is_not_an_entry_is_named_and_the_rest_read(
        demo_db: Path) -> None:
    con = sqlite3.connect(demo_db)
    con.execute("INSERT INTO journal_event (journal_id, seq, kind, payload) VALUES "
                "(1, (SELECT max(seq) + 1 FROM journal_event), 'note', "
                "'{\"day\": \"1944-06-09\", \"text\": \"x\", \"characters\": \"all\"}')")
    con.commit()
    con.close()
    with open_campaign(demo_db) as db:
        found = entries(db)
        assert len(found) > 1
        bad = [e for e in found if "cannot be read" in e.text]
        assert len(bad) == 1 and "characters must be a list of ids" in bad[0].text
        assert entries(db, character=1)  # the filters still run
