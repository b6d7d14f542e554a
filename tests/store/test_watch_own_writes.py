"""This process's own writes never come back as another process's: a write
announced to the watcher before its transaction (``begin_write``) is held
back however soon the watcher looks after the commit, and taken as seen when
it is over (``end_write``); a change there that is not ours is still reported
(store/watch.py). Real parts: the demo campaign in a real SQLite file, plain
``sqlite3`` connections writing to it, the watcher's own thread."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ka_tui.store.watch import CampaignWatcher
from tests.store.test_watch_baseline import INTERVAL, Reports, _polled, _until
from tests.ui.pilot_helpers import commit_sql

ROSTER_WRITE = "UPDATE character SET strength = strength + 1 WHERE id = 1"


@pytest.fixture
def watching(demo_db: Path) -> Iterator[tuple[CampaignWatcher, Reports]]:
    reports = Reports()
    watcher = CampaignWatcher(lambda: sqlite3.connect(demo_db), reports, interval=INTERVAL)
    watcher.start()
    assert _until(_polled(watcher, 2))
    yield watcher, reports
    watcher.stop()


def _looks(watcher: CampaignWatcher, n: int = 4) -> Callable[[], bool]:
    return _polled(watcher, n)


def test_a_write_announced_before_its_commit_is_never_reported(
        demo_db: Path, watching: tuple[CampaignWatcher, Reports]) -> None:
    watcher, reports = watching
    watcher.begin_write("roster")
    commit_sql(demo_db, ROSTER_WRITE)  # committed; the watcher looks before it is over
    assert _until(_looks(watcher))
    time.sleep(INTERVAL * 2)  # a slow worker between its commit and telling the watcher
    watcher.end_write("roster", wrote=True)
    assert _until(_looks(watcher))
    assert reports.seen == []


def test_a_write_that_did_not_happen_lets_anothers_change_through(
        demo_db: Path, watching: tuple[CampaignWatcher, Reports]) -> None:
    watcher, reports = watching
    watcher.begin_write("roster")
    commit_sql(demo_db, ROSTER_WRITE)  # another process's, while ours was refused
    assert _until(_looks(watcher))
    assert reports.seen == []  # held back while a write of ours is in flight
    watcher.end_write("roster", wrote=False)
    assert _until(lambda: reports.areas() == {"roster"}), reports.seen


def test_other_areas_are_reported_while_one_is_written_here(
        demo_db: Path, watching: tuple[CampaignWatcher, Reports]) -> None:
    watcher, reports = watching
    watcher.begin_write("roster")
    commit_sql(demo_db, "UPDATE campaign SET house_rules = json_set(house_rules, '$.m', 1)")
    assert _until(lambda: reports.areas() == {"house_rules"}), reports.seen
    watcher.end_write("roster", wrote=False)
