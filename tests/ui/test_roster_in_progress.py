"""The roster during a fight or an air battle: it follows the fight's K-points
live, shows who flies in the open battle, and opening mid-fight says so and how
to resume. Fight state comes from the fight's own log (S0 §Close combat;
RULES-NOTES B: K-points at 0 is out of the fight), battle state from the
battle's (R-5 wounds and consciousness). Real app (Pilot) on a real demo
campaign file."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from ka_tui.app import MODE_SPECS, KaApp
from ka_tui.screens.door import CampaignChanged, Change
from ka_tui.store.db import open_campaign
from tests.store.test_fights import MIKE_WINS, play_round, started
from tests.ui.pilot_helpers import SIZE, commit_sql, wait_for
from tests.ui.roster_pilot import column, detail, roster


async def test_the_roster_follows_a_fight_live(demo_db: Path) -> None:
    """A fight going on in the close-combat mode (RULES-NOTES B): the roster
    shows who is in it and the K-points there, reloading on the fight's
    ``CampaignChanged`` (main kept the K-points from before the fight)."""
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        assert column(screen, "K")["Olga Petrova"] == "10/10"
        db = open_campaign(demo_db)
        try:
            fight_id, p = started(db)
            mike, olga = p.fight.order
            play_round(db, fight_id, {mike: {"attack": "2b", "disarm": "1b", "weapon": "Sten gun"},
                                      olga: {"feint": "1b"}}, MIKE_WINS + [2, 12])
            app.campaign_changed(CampaignChanged(Change.FIGHT, None))
            await wait_for(pilot, lambda: column(screen, "K")["Olga Petrova"] == "6/10")
            assert column(screen, "Now")["Olga Petrova"] == "fight"
            assert column(screen, "Now")["Mike Dunn"] == "fight"
            play_round(db, fight_id, {mike: {"attack": "2b", "weapon": "Sten gun"},
                                      olga: {"feint": "1b"}}, MIKE_WINS + [3, 3])
        finally:
            db.close()
        app.campaign_changed(CampaignChanged(Change.FIGHT, None))
        await wait_for(pilot, lambda: column(screen, "K")["Olga Petrova"] == "0/10")
        assert column(screen, "Now")["Olga Petrova"] == "KO"
        screen.select("characters", 4)  # Olga
        await pilot.pause()
        text = detail(screen)
        assert "FIGHT" in text and "Mike Dunn vs Olga Petrova" in text
        assert "out of the fight" in text and "roster K 10" in text
        assert "Seat: pilot of Il-2 KA-D" in text


async def test_the_roster_shows_who_flies_in_the_open_battle(demo_db: Path) -> None:
    """The demo's battle in progress (R-1): its airmen and aircraft say so, with
    the live hull of each aircraft (R-1.3) and each airman's state (R-5)."""
    async with KaApp(demo_db).run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        now = column(screen, "Now")
        assert now["Arthur Hale"] == "air" and now["Sam Okoro"] == "air"
        assert now["Tom Reilly"] == ""  # the Mitchell is not in it
        assert "AIR" in detail(screen) and "Exercise: Blue vs Red" in detail(screen)
        await pilot.press("t")
        await pilot.pause()
        assert column(screen, "Now", "aircraft")["Tempest KA-A"] == "air"
        assert column(screen, "Now", "aircraft")["Meteor KA-F"] == ""


async def test_opening_mid_fight_says_so_and_how_to_resume(demo_db: Path) -> None:
    """The app opens on the roster (the choice made here); a line under the
    title names the open fight and the key of the close-combat mode, and the
    demo's open battle."""
    db = open_campaign(demo_db)
    try:
        started(db)
    finally:
        db.close()
    async with KaApp(demo_db).run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        line = screen.query_one("#in-progress", Static)
        text = str(line.render())
        combat_key = next(spec.key for spec in MODE_SPECS if spec.name == "combat")
        assert line.display
        assert "Fight in progress: Mike Dunn vs Olga Petrova" in text
        air_key = next(spec.key for spec in MODE_SPECS if spec.name == "air")
        assert f"— {combat_key} resumes it" in text
        assert f"Battle in progress: Exercise: Blue vs Red, turn 1 — {air_key}" in text
        await pilot.press(combat_key)
        await pilot.pause()
        assert type(pilot.app.screen).__name__ == "CombatScreen"


async def test_no_line_when_nothing_is_open(demo_db: Path) -> None:
    commit_sql(demo_db, "UPDATE battle SET status = 'ended'")
    async with KaApp(demo_db).run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        assert not screen.query_one("#in-progress").display


async def test_back_on_the_roster_it_reads_the_open_battle_again(demo_db: Path) -> None:
    """The air mode publishes a roster change only when a battle ends; coming
    back to the roster reads the open battle's log again (R-1.3 hull hits)."""
    from ka_tui.store import battles

    async with KaApp(demo_db).run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        await pilot.press("t")
        await pilot.pause()
        before = column(screen, "Hull", "aircraft")["Tempest KA-A"]
        db = open_campaign(demo_db)
        try:
            loaded = battles.load_battle(db, 1)
            events = len(loaded.battle.events)
            commit_sql(demo_db, "UPDATE battle SET name = 'Exercise: renamed' WHERE id = 1")
        finally:
            db.close()
        assert events >= 2
        await pilot.press("2")
        await pilot.pause()
        await pilot.press("f1")
        await wait_for(pilot, lambda: "Exercise: renamed" in str(
            screen.query_one("#in-progress", Static).render()))
        assert column(screen, "Hull", "aircraft")["Tempest KA-A"] == before

