"""Snapshots of the campaign mode at 80×24: the overview, a
mission, its debrief, a service record, the time-advance preview, the journal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ka_tui.app import KaApp
from tests.ui.pilot_helpers import SIZE, settle, steady_cursors, wait_for


def prepared(*steps: Any) -> Any:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("5")
        await wait_for(pilot, lambda: getattr(pilot.app.screen, "loaded", 0) > 0)
        for step in steps:
            if callable(step):
                step(pilot.app)
            else:
                await pilot.press(step)
            await settle(pilot)
        pilot.app.clear_notifications()
        steady_cursors(pilot.app)
        await settle(pilot)
    return run_before


def _open_mission(mission_id: int) -> Any:
    def run(app: Any) -> None:
        app.screen.open_mission(mission_id)
    return run


def _record(character_id: int) -> Any:
    def run(app: Any) -> None:
        from ka_tui.screens.campaign.screen import RecordScreen

        app.push_screen(RecordScreen(character_id))
    return run


def _four_days(app: Any) -> None:
    field = next(iter(app.screen.query("IntField")))
    field.input.value = "4"


def test_snapshot_campaign_overview(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=prepared())


def test_snapshot_campaign_mission(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE,
                        run_before=prepared(_open_mission(1)))


def test_snapshot_campaign_debrief(snap_compare: Any, demo_db: Path) -> None:
    """A mission flown with scripted dice (tests/campaign_fixtures.py): the
    debrief to confirm, computed from its battle."""
    from ka_tui.store import missions
    from ka_tui.store.db import open_campaign
    from tests.campaign_fixtures import DAY, MOREAU, SPIT, add_enemy, fly_bounce

    with open_campaign(demo_db) as db:
        enemy = add_enemy(db)
        mid = missions.create_mission(db, "Bounce", DAY, "intercept", "",
                                      [(MOREAU, SPIT), (enemy.pilot, enemy.aircraft)])
        fly_bounce(db, mid, enemy)
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE,
                        run_before=prepared(_open_mission(mid), "d"))


def test_snapshot_campaign_service_record(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE,
                        run_before=prepared(_record(1)))


def test_snapshot_campaign_time_preview(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE,
                        run_before=prepared("t", _four_days))


def test_snapshot_campaign_journal(snap_compare: Any, demo_db: Path) -> None:
    assert snap_compare(KaApp(demo_db), terminal_size=SIZE, run_before=prepared("j"))
