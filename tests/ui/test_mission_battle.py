"""A mission's air battle started from the mission: in the
mission view ``s`` opens the air mode's setup with the mission's aircraft
already on side Blue; the GM puts the enemy on Red, places both, and the
battle, once started, is linked to the mission in the campaign file."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList

from ka_tui.app import KaApp
from ka_tui.rules.air.profiles import SPITFIRE
from ka_tui.screens.air.screen import AirScreen
from ka_tui.screens.air.setup import AirSetupScreen
from ka_tui.screens.campaign.screen import MissionScreen
from ka_tui.store import missions, roster
from ka_tui.store.db import open_campaign
from tests.campaign_fixtures import DAY, add_enemy
from tests.ui.pilot_helpers import SIZE, rows, settle, wait_for
from tests.ui.test_campaign import _campaign, _on


async def test_s_starts_the_missions_battle_prefilled_and_linked(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        add_enemy(db)
        # (the demo's Spitfire flies in its open exercise: a fresh pair flies this one)
        ann = roster.add_character(db, name="Ann Hale", role="pilot", piloting=5, gunnery=5)
        blue = roster.add_aircraft(db, SPITFIRE, name="Blue 9")
        assert ann.id is not None and blue.id is not None
        roster.assign_pilot(db, blue.id, ann.id)
        mid = missions.create_mission(db, "Bounce", DAY, "intercept",
                                      members=[(ann.id, blue.id)])
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        campaign = await _campaign(pilot)
        campaign.open_mission(mid)
        await _on(pilot, MissionScreen)
        await pilot.press("s")
        setup = await _on(pilot, AirSetupScreen)
        assert setup.mission_id == mid
        assert setup.sides == {blue.id: "Blue"}, str(setup.query_one("#air-setup-status").render())
        options = setup.query_one(OptionList)
        lines = [str(options.get_option_at_index(i).prompt)
                 for i in range(options.option_count)]
        assert any(t.startswith("Blue") and "Blue 9" in t for t in lines)
        assert not any(t.startswith("Blue") and "Blue 9" not in t for t in lines)
        options.highlighted = next(i for i, t in enumerate(lines) if "Red 1" in t)
        await pilot.press("2", "ctrl+s")
        await settle(pilot)
        air = app.screen
        assert isinstance(air, AirScreen) and air.placement is not None
        await pilot.press("g")
        await settle(pilot)
        await pilot.press("g")
        await wait_for(pilot, lambda: air.runner is not None and air.loaded is not None
                       and air.loaded.name == "Bounce")
        assert air.runner is not None and air.loaded is not None
        assert sorted((u.id, u.side) for u in air.runner.state.units) == [
            ("Blue 9", "Blue"), ("Red 1", "Red")]
        bid = air.loaded.battle_id
    assert rows(demo_db, "SELECT battle_id FROM mission_link WHERE mission_id = ?", mid) \
        == [(bid,)]
