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


async def test_explain_words_the_error_in_the_worker_thread(demo_db: Path) -> None:
    """A read's failure is worded off the app's thread (``load_failure`` may
    look into the file); ``failed`` gets the worded error."""
    app = KaApp(demo_db)
    threads: dict[str, int] = {}
    errors: list[Exception] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)

        def job(db: CampaignDB) -> None:
            raise ValueError("bad row")

        def explain(error: Exception) -> Exception:
            threads["explain"] = threading.get_ident()
            return StoreError(f"Cannot load the test: {error}")

        store_work(app.screen, job, group="test", failed=errors.append,
                   errors=(Exception,), explain=explain)
        await wait_for(pilot, lambda: bool(errors))
    assert [str(e) for e in errors] == ["Cannot load the test: bad row"]
    assert threads["explain"] != threading.main_thread().ident
