"""The watcher started from the startup read's fingerprints (the first
frame): the app starts watching 0.5 s after the first frame, so a change
another process commits between the read and the watch's start must still be
reported (``CampaignWatcher(..., baseline=...)``, store/watch.py).

Real parts: the demo campaign in a real SQLite file, a second plain
``sqlite3`` connection writing to it, the watcher's own thread.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

from ka_tui.store.watch import CampaignWatcher, fingerprints
from tests.ui.pilot_helpers import commit_sql

INTERVAL = 0.05


def _prints(path: Path) -> dict[str, int]:
    con = sqlite3.connect(path, isolation_level=None)
    try:
        return fingerprints(con)
    finally:
        con.close()


def _until(pred: Callable[[], bool], timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            return False
        time.sleep(INTERVAL)
    return True


class Reports:
    """What the watcher reported, from its thread."""

    def __init__(self) -> None:
        self.seen: list[frozenset[str]] = []
        self._lock = threading.Lock()

    def __call__(self, areas: frozenset[str]) -> None:
        with self._lock:
            self.seen.append(areas)

    def areas(self) -> set[str]:
        with self._lock:
            return set().union(*self.seen)


@pytest.fixture
def watch(demo_db: Path) -> Iterator[Callable[..., tuple[CampaignWatcher, Reports]]]:
    started: list[CampaignWatcher] = []

    def start(baseline: Callable[[], Mapping[str, int] | None] | None = None,
              interval: float = INTERVAL) -> tuple[CampaignWatcher, Reports]:
        reports = Reports()
        watcher = CampaignWatcher(lambda: sqlite3.connect(demo_db), reports,
                                  interval=interval, baseline=baseline)
        started.append(watcher)
        watcher.start()
        return watcher, reports

    yield start
    for watcher in started:
        watcher.stop()


def _polled(watcher: CampaignWatcher, looks: int) -> Callable[[], bool]:
    first = watcher.polls
    return lambda: watcher.polls >= first + looks


def test_a_change_committed_before_the_watch_starts_is_reported_from_the_baseline(
        demo_db: Path, watch: Callable[..., tuple[CampaignWatcher, Reports]]) -> None:
    """First frame. The read's fingerprints, then another connection's
    commit, then the watch: the roster hears of it without a key press."""
    base = _prints(demo_db)
    commit_sql(demo_db, "UPDATE character SET strength = strength + 1 WHERE id = 1")
    watcher, reports = watch(baseline=lambda: base)
    assert _until(lambda: "roster" in reports.areas()), reports.seen
    assert reports.seen == [frozenset({"roster"})]
    # reported once: the file as it is now is what has been seen
    assert _until(_polled(watcher, 4))
    assert reports.seen == [frozenset({"roster"})]


def test_without_a_baseline_the_same_change_is_taken_as_seen(
        demo_db: Path, watch: Callable[..., tuple[CampaignWatcher, Reports]]) -> None:
    """First frame. What the baseline is for: a watch that starts from
    the file as it finds it misses a commit made before it started."""
    commit_sql(demo_db, "UPDATE character SET strength = strength + 1 WHERE id = 1")
    watcher, reports = watch()
    assert _until(_polled(watcher, 4))
    assert reports.seen == []


@pytest.mark.parametrize("area, sql", [
    ("house_rules", "UPDATE campaign SET house_rules = json_set(house_rules, '$.marker', 1)"),
    ("rolls", ("INSERT INTO roll_log (who, what, pool, faces, result) "
               "VALUES ('Ann', 'Piloting', '2d10', '[[10, 3], [10, 9]]', 'pass')")),
], ids=["house_rules", "rolls"])
def test_the_area_changed_before_the_start_is_the_one_reported(
        demo_db: Path, watch: Callable[..., tuple[CampaignWatcher, Reports]],
        area: str, sql: str) -> None:
    """First frame. Not only the roster: each area is compared."""
    base = _prints(demo_db)
    commit_sql(demo_db, sql)
    assert _prints(demo_db)[area] != base[area], "the write changed the area"
    _, reports = watch(baseline=lambda: base)
    assert _until(lambda: bool(reports.seen)), reports.seen
    assert reports.seen == [frozenset({area})]


def test_a_baseline_equal_to_the_file_reports_nothing_and_later_changes_still_show(
        demo_db: Path, watch: Callable[..., tuple[CampaignWatcher, Reports]]) -> None:
    """First frame. Nothing changed since the read: nothing to tell."""
    base = _prints(demo_db)
    watcher, reports = watch(baseline=lambda: base)
    assert _until(_polled(watcher, 4))
    assert reports.seen == []
    commit_sql(demo_db, "UPDATE character SET notes = 'later' WHERE id = 1")
    assert _until(lambda: bool(reports.seen))
    assert reports.seen == [frozenset({"roster"})]


def test_the_baseline_may_wait_for_the_read_in_the_watch_thread(
        demo_db: Path, watch: Callable[..., tuple[CampaignWatcher, Reports]]) -> None:
    """First frame. The app's baseline waits for the startup read's
    future; a change committed while it waits is still reported."""
    base = _prints(demo_db)
    ready = threading.Event()
    asked_in: list[threading.Thread] = []

    def baseline() -> Mapping[str, int]:
        asked_in.append(threading.current_thread())
        assert ready.wait(5)
        return base

    _, reports = watch(baseline=baseline)
    assert _until(lambda: bool(asked_in))
    commit_sql(demo_db, "UPDATE character SET strength = strength + 1 WHERE id = 1")
    ready.set()
    assert _until(lambda: bool(reports.seen)), reports.seen
    assert reports.seen == [frozenset({"roster"})]
    assert asked_in[0] is not threading.main_thread()


def test_a_baseline_that_gives_none_takes_the_file_as_it_is(
        demo_db: Path, watch: Callable[..., tuple[CampaignWatcher, Reports]]) -> None:
    """First frame. The startup read failed (the app's baseline is
    None): the roster reads again itself, so the watch starts from the file."""
    commit_sql(demo_db, "UPDATE character SET strength = strength + 1 WHERE id = 1")
    watcher, reports = watch(baseline=lambda: None)
    assert _until(_polled(watcher, 4))
    assert reports.seen == []


def test_a_write_of_this_process_taken_as_seen_is_not_reported_back(
        demo_db: Path, watch: Callable[..., tuple[CampaignWatcher, Reports]]) -> None:
    """``written_here`` takes the area as it is now as seen, so this process's
    own write does not come back as another process's; another process's later
    write does."""
    # 0.3 s between looks: room for the write and written_here right after one
    watcher, reports = watch(baseline=lambda: _prints(demo_db), interval=0.3)
    assert _until(_polled(watcher, 1))  # a look has just been taken
    commit_sql(demo_db, "UPDATE character SET strength = strength + 1 WHERE id = 1")
    watcher.written_here("roster")
    watcher.interval = INTERVAL
    assert _until(_polled(watcher, 2))  # the next look has been taken, and one more
    assert reports.seen == []
    commit_sql(demo_db, "UPDATE character SET notes = 'elsewhere' WHERE id = 1")
    assert _until(lambda: bool(reports.seen))
    assert reports.seen == [frozenset({"roster"})]


def test_this_process_s_write_before_the_baseline_is_in_is_not_reported_back(
        demo_db: Path, watch: Callable[..., tuple[CampaignWatcher, Reports]]) -> None:
    """This process writes and says so while the watch still
    waits for the startup read's fingerprints: its own write is not reported
    back as another process's (every view would read again for nothing)."""
    base = _prints(demo_db)
    release = threading.Event()

    def baseline() -> Mapping[str, int]:
        release.wait(5)
        return base

    watcher, reports = watch(baseline=baseline)
    commit_sql(demo_db, "UPDATE character SET strength = strength + 1 WHERE id = 1")
    watcher.written_here("roster")
    release.set()
    assert _until(_polled(watcher, 4))
    assert reports.seen == []
    commit_sql(demo_db, "UPDATE character SET strength = strength + 1 WHERE id = 1")
    assert _until(lambda: "roster" in reports.areas()), "a later change by another still shows"


def test_areas_written_before_the_watch_was_made_are_taken_as_seen(demo_db: Path) -> None:
    """The app's write in the half second before its watch
    starts (``written=``) is this process's, not another's."""
    base = _prints(demo_db)
    commit_sql(demo_db, "UPDATE character SET strength = strength + 1 WHERE id = 1")
    commit_sql(demo_db, "INSERT INTO roll_log (who, what, pool, faces, result) "
                        "VALUES ('Ann', 'x', '1d12', '[[12, 3]]', 'pass')")
    reports = Reports()
    watcher = CampaignWatcher(lambda: sqlite3.connect(demo_db), reports, interval=INTERVAL,
                              baseline=lambda: base, written={"roster"})
    watcher.start()
    try:
        assert _until(lambda: bool(reports.seen)), "the roll is another's: reported"
        assert _until(_polled(watcher, 4))
        assert reports.seen == [frozenset({"rolls"})]
    finally:
        watcher.stop()
