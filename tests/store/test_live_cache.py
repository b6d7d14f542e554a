"""The roster's live state of an open battle is kept between starts
(``store/live_cache.py``): the same log under the same house rules and code
is not replayed again, so a start on it imports no air rules; a log that
moved on is replayed; a kept answer that cannot be read is no answer. The
first character's service line (the detail pane of the first frame) is
kept the same way, until a row it is derived from changes.

Real parts: the demo campaign (an open battle, R-1) in a real SQLite file,
fresh processes for the starts, the cache in the test's own cache folder.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ka_tui.store import live_cache
from ka_tui.store.demo import create_demo
from ka_tui.store.startup_read import read_roster

ROOT = Path(__file__).resolve().parent.parent.parent

START = r"""
import json, sys
from pathlib import Path
from ka_tui.store.startup_read import read_roster
data = read_roster(Path(sys.argv[1]))
print(json.dumps({"air_rules": "ka_tui.rules.air.battle" in sys.modules,
                  "campaign_rules": "ka_tui.store.campaign_state" in sys.modules,
                  "service": data.first_detail[1]["service"],
                  "where": [p.where for p in data.in_progress],
                  "hull": sorted((a["name"], a.get("live_hull_hits")) for a in data.aircraft)}))
"""


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    path = tmp_path / "demo.db"
    create_demo(path).close()
    return path


def _start(path: Path) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", START, str(path)], cwd=ROOT, timeout=120,
                          capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def _kept(*, service: bool = False) -> list[Path]:
    """The answers kept: the live states of logs (a JSON object each), or
    with ``service`` the service lines (a string each)."""
    folder = live_cache.cache_dir()
    found = sorted(folder.glob("*.json")) if folder.is_dir() else []
    return [p for p in found
            if isinstance(json.loads(p.read_text()).get("value"), str) == service]


def test_a_second_start_takes_the_first_characters_service_line_kept(demo: Path) -> None:
    """His service line is derived by the campaign rules (``campaign_state``,
    about 40 ms to import): kept, a second start imports none of them."""
    first = _start(demo)
    second = _start(demo)
    assert first["campaign_rules"] is True
    assert str(first["service"]).startswith("Service: 1 sortie, 1 kill")
    assert second["campaign_rules"] is False
    assert second["service"] == first["service"]


def test_the_kept_service_line_is_shown_until_one_of_his_rows_changes(demo: Path) -> None:
    line = read_roster(demo).first_detail[1]["service"]  # type: ignore[index]
    [kept] = _kept(service=True)
    found = json.loads(kept.read_text())
    found["value"] = "Service: as kept"
    kept.write_text(json.dumps(found))
    assert read_roster(demo).first_detail[1]["service"] == "Service: as kept"  # type: ignore[index]
    with sqlite3.connect(demo) as con:  # he is wounded: his row changes
        con.execute("UPDATE character SET wounds = 2 WHERE name = 'Arthur Hale'")
    again = read_roster(demo).first_detail[1]["service"]  # type: ignore[index]
    assert again != "Service: as kept" and again != line
    assert again.startswith("Service: 1 sortie, 1 kill")
    assert len(_kept(service=True)) == 2


def test_a_second_start_on_the_same_battle_imports_no_air_rules(demo: Path) -> None:
    first = _start(demo)
    second = _start(demo)
    assert first["air_rules"] is True          # replayed and kept
    assert first["where"] == ["turn 1"]
    assert second["air_rules"] is False        # the kept answer, no replay
    assert (second["where"], second["hull"]) == (first["where"], first["hull"])


def test_the_kept_answer_is_what_the_roster_shows_until_the_log_moves_on(demo: Path) -> None:
    assert [p.where for p in read_roster(demo).in_progress] == ["turn 1"]
    [kept] = _kept()
    found = json.loads(kept.read_text())
    found["value"]["where"] = "turn 99"
    kept.write_text(json.dumps(found))
    assert [p.where for p in read_roster(demo).in_progress] == ["turn 99"]
    with sqlite3.connect(demo) as con:  # the log moves on: one more event in it
        (seq,), = con.execute("SELECT seq FROM battle_event WHERE kind = 'turn_started'")
        con.execute("DELETE FROM battle_event WHERE kind = 'turn_started' AND seq = ?", (seq,))
    after = read_roster(demo).in_progress
    assert [p.where for p in after] != ["turn 99"]   # replayed again, not the kept answer
    assert len(_kept()) == 2


def test_a_kept_answer_that_cannot_be_read_is_replayed(demo: Path) -> None:
    assert [p.where for p in read_roster(demo).in_progress] == ["turn 1"]
    [kept] = _kept()
    kept.write_text("{not json")
    assert [p.where for p in read_roster(demo).in_progress] == ["turn 1"]
    json.loads(kept.read_text())  # written again whole


def test_other_house_rules_are_another_answer(demo: Path) -> None:
    read_roster(demo)
    with sqlite3.connect(demo) as con:
        con.execute("UPDATE campaign SET house_rules = json_set(house_rules, '$.x', 1)")
    read_roster(demo)
    assert len(_kept()) == 2
