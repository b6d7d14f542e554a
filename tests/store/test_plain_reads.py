"""Reads without SQLModel (the first frame): the event log, the house
rules and a flight card are read by plain SQL (``CampaignDB.plain_read``), so
the roster's and a player's startup reads never import SQLAlchemy (about
0.3 s); inside a ``batch()`` the same reads see the batch's own writes.

Real parts: real SQLite files; the import checks run in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from ka_tui.store import campaign_state, journal, missions
from ka_tui.store import events as ev
from ka_tui.store.aircraft_view import load_aircraft_view
from ka_tui.store.campaign import house_rules
from ka_tui.store.db import CampaignDB, open_campaign
from ka_tui.store.demo import create_demo
from ka_tui.store.errors import StoreError
from ka_tui.store.events import LogEvent, LogKind, LogRef
from ka_tui.store.roster_reads import load_roster

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, sys
from pathlib import Path
from ka_tui.store.startup_read import read_player, read_roster
roster = read_roster(Path(sys.argv[1]))
view = read_player(Path(sys.argv[1]), "Arthur Hale")
rules = sorted(m for m in sys.modules if m.startswith("ka_tui.rules.air"))
progress, seen = view.details()
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("sqlmodel", "sqlalchemy"))
print("RESULT " + json.dumps({"heavy": heavy, "characters": len(roster.characters),
                              "fights": len(view.fights), "battles": len(view.battles),
                              "seen": seen is not None, "prints": bool(view.prints),
                              "deferred": view.later is None and seen is view.seen}))
"""


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("plain") / "demo.db"
    create_demo(path).close()
    return path


def test_the_startup_reads_import_no_sqlalchemy(demo_file: Path) -> None:
    """The roster's and a player's whole first read, in a fresh interpreter (the
    forked child that does them starts as bare as the command line)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", PROBE, str(demo_file)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    lines = [x for x in done.stdout.splitlines() if x.startswith("RESULT ")]
    assert lines, done.stderr[-2000:]
    result = json.loads(lines[-1][len("RESULT "):])
    assert result["heavy"] == []
    assert result["characters"] == 11 and result["prints"]
    assert result["battles"] >= 1 and result["seen"]  # Arthur flies in the demo's battle
    assert result["deferred"]


def _run_probe(probe: str, db: Path) -> subprocess.CompletedProcess[str]:
    """``probe`` in a fresh Python (nothing imported yet) on the campaign ``db``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", probe, str(db)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)


def test_a_deferred_player_view_unpickles_without_the_rules_engine(demo_file: Path) -> None:
    """The player's startup read comes back from its child pickled; its rules
    objects (the fight, the battle) stay pickled until a pane needs them."""
    probe = (
        "import pickle, sys\n"
        "from pathlib import Path\n"
        "from ka_tui.store.startup_read import read_player\n"
        "blob = pickle.dumps(read_player(Path(sys.argv[1]), 'Arthur Hale'))\n"
        "for m in [m for m in sys.modules if m.startswith('ka_tui')]:\n"
        "    del sys.modules[m]\n"
        "view = pickle.loads(blob)\n"
        "print('RULES', sorted(m for m in sys.modules if m.startswith('ka_tui.rules')))\n"
        "print('SEEN', view.details()[1] is not None)\n")
    done = _run_probe(probe, demo_file)
    assert "RULES []" in done.stdout, done.stdout + done.stderr[-2000:]
    assert "SEEN True" in done.stdout


def test_the_players_first_view_imports_no_air_rules(demo_file: Path) -> None:
    """His first frame is his sheet: ``first_view`` (his sheet, fights and
    open battles, in the forked child of ``ka-tui play``) loads no module of
    the air rules; the battle it leaves out (``seen``) is the one
    ``player_view`` replays, given when asked (``begin_player_read``)."""
    probe = (
        "import sys\n"
        "from pathlib import Path\n"
        "from ka_tui.store.db import open_campaign\n"
        "from ka_tui.store.player_data import first_view\n"
        "with open_campaign(Path(sys.argv[1])) as db:\n"
        "    view = first_view(db, 'Arthur Hale')\n"
        "print('AIR', sorted(m for m in sys.modules if m.startswith('ka_tui.rules.air')))\n"
        "print('VIEW', [b.name for b in view.battles], view.seen, view.progress)\n")
    done = _run_probe(probe, demo_file)
    assert "AIR []" in done.stdout, done.stdout + done.stderr[-2000:]
    assert "VIEW ['Exercise: Blue vs Red'] None None" in done.stdout
    from ka_tui.store.players import player_view
    from ka_tui.store.startup_read import begin_player_read

    view = begin_player_read(demo_file, "Arthur Hale").result(timeout=60)
    assert view.seen is None and view.prints
    progress, seen = view.details()
    with open_campaign(demo_file) as db:
        whole = player_view(db, "Arthur Hale")
    assert progress is None and seen is not None and whole.seen is not None
    assert seen.battle.state == whole.seen.battle.state
    assert seen.battle.events == whole.seen.battle.events


def test_a_log_read_inside_a_batch_sees_the_batch_s_own_writes(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    create_demo(path).close()
    with open_campaign(path) as db:
        head = ev.new_log(db, LogKind.JOURNAL, "Notes")
        ref = LogRef(LogKind.JOURNAL, head.id)
        count = "SELECT count(*) FROM journal_event WHERE journal_id = ?"
        with db.batch():
            ev.append(db, ref, LogEvent("note", {"text": "one"}), None, checked=False)
            assert [e.payload for e in ev.events(db, ref)] == [{"text": "one"}]
            assert ev.last_seq(db, ref) == 1
            # another connection does not see it before the commit
            con = db.connect()
            try:
                assert con.execute(count, (head.id,)).fetchone()[0] == 0
            finally:
                con.close()
        assert ev.last_seq(db, ref) == 1
        assert [h.name for h in ev.heads(db, LogKind.JOURNAL)][-1] == "Notes"


def test_plain_reads_turn_database_failures_into_store_errors(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    create_demo(path).close()
    with open_campaign(path) as db:
        with pytest.raises(StoreError, match="cannot read"), db.plain_read() as read:
            read.execute("SELECT * FROM no_such_table")


def test_house_rules_and_a_flight_card_read_by_plain_sql(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    create_demo(path).close()
    with open_campaign(path) as db:
        con = db.connect()
        try:
            con.execute("UPDATE campaign SET house_rules = ? WHERE id = 1",
                        (json.dumps({"cqc": {"default_ap": 9}}),))
            aircraft_id, name, pilot = con.execute(
                "SELECT id, name, pilot_id FROM aircraft WHERE pilot_id IS NOT NULL "
                "ORDER BY id").fetchone()
        finally:
            con.close()
        assert house_rules(db).cqc.default_ap == 9
        card = load_aircraft_view(db, aircraft_id)
        assert card.profile.name == name and card.pilot_id == pilot
        assert card.status.pilot is not None
        with pytest.raises(StoreError, match="no aircraft with id 999"):
            load_aircraft_view(db, 999)



@pytest.mark.parametrize("read, table", [
    (campaign_state.overview, "journal_event"),
    (journal.entries, "journal_event"),
    (missions.list_missions, "mission_member"),
    (load_roster, "mission_member"),
], ids=["campaign overview", "journal", "missions", "roster"])
def test_every_plain_read_fails_the_same_way_naming_the_file(
        tmp_path: Path, read: Callable[[CampaignDB], object], table: str) -> None:
    """One plain-read path (``CampaignDB.plain_read``): the campaign mode's,
    the journal's and the roster's reads all turn a database failure into
    ``cannot read FILE: …`` (the campaign mode's raised sqlite3's own)."""
    path = tmp_path / "c.db"
    create_demo(path).close()
    con = sqlite3.connect(path)
    try:  # a table the read needs is gone (a damaged file)
        con.execute(f"DROP TABLE {table}")
    finally:
        con.close()
    with open_campaign(path) as db:
        with pytest.raises(StoreError, match=f"cannot read {path}: no such table: {table}"):
            read(db)
