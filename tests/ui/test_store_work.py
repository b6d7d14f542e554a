"""The one way a screen works on the campaign file (``screens/store_work.py``):
the job runs off the app's thread, its result comes back on it, the change is
published to the other views, and an expected error reaches ``failed``."""

from __future__ import annotations

import threading
from pathlib import Path

from ka_tui.app import KaApp
from ka_tui.screens.door import CampaignChanged, Change, door
from ka_tui.screens.store_work import store_work
from ka_tui.store.db import CampaignDB
from ka_tui.store.errors import StoreError
from tests.ui.pilot_helpers import SIZE, settle, wait_for


async def test_job_runs_in_a_thread_and_done_on_the_app_thread(demo_db: Path) -> None:
    app = KaApp(demo_db)
    threads: dict[str, int] = {}
    got: list[str] = []
    published: list[CampaignChanged] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        door(screen).on_campaign_changed(screen,
                                         published.append)

        def job(db: CampaignDB) -> str:
            threads["job"] = threading.get_ident()
            return db.path.name

        def done(name: str) -> None:
            threads["done"] = threading.get_ident()
            got.append(name)

        store_work(screen, job, group="test", done=done, publish=Change.ROLLS)
        await wait_for(pilot, lambda: bool(got) and bool(published))
    assert got == ["demo.db"]
    assert threads["job"] != threads["done"] == threading.main_thread().ident
    assert [(c.change, c.source) for c in published] == [(Change.ROLLS, screen)]


async def test_an_expected_error_reaches_failed_and_nothing_is_published(
        demo_db: Path) -> None:
    app = KaApp(demo_db)
    errors: list[Exception] = []
    published: list[CampaignChanged] = []
    done: list[object] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        door(screen).on_campaign_changed(screen, published.append)

        def job(db: CampaignDB) -> None:
            raise StoreError("the disk is full")

        store_work(screen, job, group="test", done=done.append, failed=errors.append,
                   publish=Change.ROSTER)
        await wait_for(pilot, lambda: bool(errors))
        await settle(pilot)
    assert [str(e) for e in errors] == ["the disk is full"]
    assert done == [] and published == []


async def test_a_job_that_wrote_nothing_publishes_nothing(demo_db: Path) -> None:
    app = KaApp(demo_db)
    published: list[CampaignChanged] = []
    got: list[int] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        door(screen).on_campaign_changed(screen, published.append)
        for n in (0, 2):
            store_work(screen, lambda db, n=n: n, group=f"test{n}", done=got.append,
                       publish=Change.CAMPAIGN, wrote=bool)
        await wait_for(pilot, lambda: len(got) == 2)
        await settle(pilot)
    assert sorted(got) == [0, 2]
    assert [c.change for c in published] == [Change.CAMPAIGN]


async def test_a_failed_read_is_one_message_for_the_gm(demo_db: Path) -> None:
    """``diagnose``: any error of the job (not only the store's) reaches
    ``failed`` as ``load_failure``'s one message."""
    app = KaApp(demo_db)
    errors: list[Exception] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)

        def job(db: CampaignDB) -> None:
            raise KeyError("face")

        store_work(app.screen, job, group="test", failed=errors.append,
                   diagnose="the roll log")
        await wait_for(pilot, lambda: bool(errors))
    assert isinstance(errors[0], StoreError)
    assert str(errors[0]).startswith("Cannot load the roll log (KeyError: 'face').")


async def test_a_read_superseded_by_a_newer_one_hands_nothing_back(demo_db: Path) -> None:
    """``exclusive``: the older read of a group, still running when a newer one
    starts, never shows over it."""
    app = KaApp(demo_db)
    shown: list[str] = []
    release = threading.Event()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)

        def slow(db: CampaignDB) -> str:
            release.wait(10)
            return "old"

        store_work(app.screen, slow, group="view", exclusive=True, done=shown.append)
        store_work(app.screen, lambda db: "new", group="view", exclusive=True,
                   done=shown.append)
        await wait_for(pilot, lambda: shown == ["new"])
        release.set()
        await settle(pilot)
    assert shown == ["new"]


async def test_the_watcher_takes_a_jobs_write_as_this_processs_own(demo_db: Path) -> None:
    """The write is taken as seen in the worker, right after the commit: no
    ``CampaignChanged`` from ELSEWHERE comes back for it, however soon the
    watcher looks, even while ``done`` keeps the app's thread busy (a long
    repaint: the watcher looks meanwhile)."""
    import time

    from ka_tui.screens.door import ELSEWHERE
    from ka_tui.store import journal

    app = KaApp(demo_db)
    app.watch_interval = 0.01
    published: list[CampaignChanged] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        door(screen).on_campaign_changed(screen, published.append)
        await wait_for(pilot, lambda: app._watcher is not None and app._watcher.polls > 2)
        for n in range(5):
            store_work(screen, lambda db, n=n: journal.note(db, f"note {n}"),
                       group=f"note{n}", publish=Change.CAMPAIGN,
                       done=lambda _: time.sleep(0.1))
            await wait_for(pilot, lambda n=n: len(published) == n + 1)
        polls = app._watcher.polls
        await wait_for(pilot, lambda: app._watcher is not None
                       and app._watcher.polls > polls + 5)
    assert [c.source for c in published] == [screen] * 5
    assert all(c.source is not ELSEWHERE for c in published)


async def test_a_view_that_breaks_after_a_write_says_so_and_the_others_still_hear(
        demo_db: Path) -> None:
    """A screen's own code failing after its write was saved: the GM is told
    (the write stands), and the other views still get the change; in the
    worker's thread the error vanished without a word."""
    app = KaApp(demo_db)
    published: list[CampaignChanged] = []
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        screen = app.screen
        door(screen).on_campaign_changed(screen, published.append)

        def done(_: object) -> None:
            raise KeyError("Spitfire")

        store_work(screen, lambda db: 1, group="test", done=done, publish=Change.ROLLS)
        await wait_for(pilot, lambda: bool(published) and any(
            "Saved, but this screen could not show it (KeyError" in " ".join(
                str(t.render()).split()) for t in app.screen.query("Toast")))
        assert [c.change for c in published] == [Change.ROLLS]
