"""Issue 12 ("a night at the table"), the roster's part: items 9 (the sort
arrow lost on a narrow column), 15 (names cut with no way to read them whole),
16 (the filter matched names only), 18 (the roster stale during a fight or
battle), 19 (a layout that did not adapt to 60x20 or 160x50) and 22 (opening
on the roster without a word about the fight in progress).

Real app (Pilot) on a real demo campaign file. Fight state comes from the
fight's own log (S0 §Close combat; RULES-NOTES B: K-points at 0 is out of the
fight), battle state from the battle's (R-5 wounds and consciousness).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Static

from ka_tui.app import MODE_SPECS, KaApp
from ka_tui.screens.door import CampaignChanged, Change
from ka_tui.screens.roster.screen import RosterScreen
from ka_tui.store.db import open_campaign
from ka_tui.widgets.fast_table import FastTable, shorten
from tests.store.test_fights import MIKE_WINS, play_round, started
from tests.ui.pilot_helpers import SIZE, commit_sql, settle, wait_for


async def roster(pilot: Any) -> RosterScreen:
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, RosterScreen) and screen.loaded
    return screen


def lines(table: FastTable) -> list[str]:
    """What the table draws, line by line (header first)."""
    return [table.render_line(y).text for y in range(min(table.size.height,
                                                         table.row_count + 1))]


def detail(screen: RosterScreen) -> str:
    return str(screen.query_one("#detail-text", Static).render())


def column(screen: RosterScreen, title: str, tab: str = "characters") -> dict[str, str]:
    """Name -> the cell of column ``title`` (as set, before any cut)."""
    table = screen.query_one(f"#{tab}-table", FastTable)
    titles = [c.title for c in table.columns]
    return {table.get_row_at(i)[0]: table.get_row_at(i)[titles.index(title)]
            for i in range(table.row_count)}


# ------------------------------------------------------------------ item 9


class OneTable(App[None]):
    def compose(self) -> ComposeResult:
        yield FastTable(id="t")

    def on_mount(self) -> None:
        table = self.query_one(FastTable)
        table.add_column("Name", 10, max_width=30)
        table.add_column("W", 1)
        table.set_rows([("a", ("Al", "0")), ("b", ("Bo", "3"))])


async def test_item9_sort_arrow_fits_a_one_character_column() -> None:
    app = OneTable()
    async with app.run_test(size=(40, 6)) as pilot:
        table = app.query_one(FastTable)
        table.set_sort(1, reverse=True)
        await pilot.pause()
        assert "W▼" in lines(table)[0]
        table.set_sort(1)
        await pilot.pause()
        assert "W▲" in lines(table)[0]


async def test_item9_every_roster_column_shows_its_sort_arrow(demo_db: Path) -> None:
    """``o`` walks the columns the table shows; each header keeps title and arrow
    (main cut ``Str ^`` to ``St~``)."""
    async with KaApp(demo_db).run_test(size=(160, 50)) as pilot:
        screen = await roster(pilot)
        table = screen.query_one("#characters-table", FastTable)
        seen = []
        for _ in table.columns:
            title = screen.tables["characters"].columns[screen.tables["characters"].sort].title
            header = lines(table)[0]
            assert f"{title}▲" in header, header
            seen.append(title)
            await pilot.press("o")
            await pilot.pause()
        assert {"Str", "Agi", "K", "W"} <= set(seen)


# ------------------------------------------------------------------ item 15


def test_item15_a_name_cut_in_the_middle_keeps_its_end() -> None:
    one, two = "Messerschmitt Bf 109 G-10", "Messerschmitt Bf 109 G-10 (2)"
    assert shorten(one, 16, "middle") != shorten(two, 16, "middle")
    assert shorten(two, 16, "middle").endswith("(2)") and len(shorten(two, 16, "middle")) == 16
    assert shorten("Heavy fighter", 6) == "Heavy~"


async def test_item15_long_names_stay_apart_and_read_whole_at_80x24(demo_db: Path) -> None:
    """Two copies of a library profile: their rows differ on screen, and the
    row under the cursor is readable whole in the detail pane."""
    commit_sql(demo_db, "UPDATE aircraft SET name = 'Messerschmitt Bf 109 G-10 Gustav' WHERE id = 1")
    commit_sql(demo_db, "UPDATE aircraft SET name = 'Messerschmitt Bf 109 G-10 Gustav (2)' "
                 "WHERE id = 2")
    async with KaApp(demo_db).run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        await pilot.press("t")
        await pilot.pause()
        table = screen.query_one("#aircraft-table", FastTable)
        drawn = [line for line in lines(table) if "Messer" in line]
        assert len(drawn) == 2 and drawn[0].split("  ")[0] != drawn[1].split("  ")[0]
        screen.select("aircraft", 2)
        await pilot.pause()
        assert "Messerschmitt Bf 109 G-10 Gustav (2)" in detail(screen)
        assert any(cut for _, _, cut in table.full_cells())
        assert ("Name", "Messerschmitt Bf 109 G-10 Gustav (2)", True) in table.full_cells()


async def test_item15_skill_names_are_whole_in_the_detail_at_80x24(demo_db: Path) -> None:
    """S0 §Skills: the pool and number next to the full skill name (main cut
    "Fighter Pilo~")."""
    async with KaApp(demo_db).run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        await wait_for(pilot, lambda: "Skills" in detail(screen))
        text = detail(screen)
        for name in ("Fighter Piloting", "Combat Initiative", "Lore: Leadership",
                     "Service revolver"):
            assert name in text, text
        assert "~" not in text
        names = lines(screen.query_one("#characters-table", FastTable))
        assert any("Jeanne Moreau" in line for line in names)  # whole at 80 columns


# ------------------------------------------------------------------ item 16


async def filtered(pilot: Any, screen: RosterScreen, needle: str) -> set[str]:
    await pilot.press("escape")  # clear the last filter (or nothing)
    await pilot.press("slash", *needle)
    await pilot.pause()
    table = screen.active_table()
    names = {table.get_row_at(i)[0] for i in range(table.row_count)}
    await pilot.press("enter")
    return names


async def test_item16_filter_on_role_status_seat_and_aircraft_type(demo_db: Path) -> None:
    commit_sql(demo_db, "UPDATE aircraft SET name = 'Messerschmitt Bf 109 G-10' WHERE id = 6")
    commit_sql(demo_db, "UPDATE aircraft SET pilot_id = 9 WHERE id = 6")  # Mike Dunn flies it
    async with KaApp(demo_db).run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        pilots = await filtered(pilot, screen, "pilot")
        assert {"Arthur Hale", "Jeanne Moreau", "Kasia Nowak", "Olga Petrova",
                "Tom Reilly", "Mike Dunn"} == pilots  # role pilot, or seated as pilot
        assert await filtered(pilot, screen, "wounded") == {"Ilse Brandt"}  # 1 wound
        assert await filtered(pilot, screen, "Bf 109") == {"Mike Dunn"}
        assert await filtered(pilot, screen, "unseated") == {"Ilse Brandt", "Yusuf Karim"}
        assert await filtered(pilot, screen, "crew Mitchell") == {"Eddie Baker",
                                                                  "Ruth Adler"}
        battle = await filtered(pilot, screen, "battle")
        assert "Arthur Hale" in battle and "Tom Reilly" not in battle
        assert await filtered(pilot, screen, "ale") == {"Arthur Hale"}  # names: any part
        await pilot.press("escape", "t")
        assert await filtered(pilot, screen, "Bf 109") == {"Messerschmitt Bf 109 G-10"}
        assert await filtered(pilot, screen, "heavy") == {"Beaufighter KA-C"}
        assert await filtered(pilot, screen, "unseated") == set()
        commit_sql(demo_db, "UPDATE aircraft SET pilot_id = NULL WHERE id = 6")
        await pilot.press("escape", "ctrl+r")
        await settle(pilot)
        assert await filtered(pilot, screen, "unseated") == {"Messerschmitt Bf 109 G-10"}


async def test_item16_a_filter_typed_fast_goes_into_the_filter(demo_db: Path) -> None:
    """``/unseated`` arriving in one read from the terminal (a GM who types fast):
    every letter lands in the filter, none runs a roster or app key (the ``s``
    opened the settings, the ``e`` an edit form)."""
    from textual import events

    async with KaApp(demo_db).run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        for ch in "/unseated":
            pilot.app.post_message(events.Key("slash" if ch == "/" else ch, ch))
        await pilot.app.workers.wait_for_complete()
        await pilot.pause(0.3)
        assert pilot.app.screen is screen
        assert screen.tables["characters"].filter == "unseated"
        await wait_for(pilot, lambda: screen.active_table().row_count == 3)


# ------------------------------------------------------------------ item 18


async def test_item18_the_roster_follows_a_fight_live(demo_db: Path) -> None:
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


async def test_item18_the_roster_shows_who_flies_in_the_open_battle(demo_db: Path) -> None:
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


# ------------------------------------------------------------------ item 19


async def test_item19_at_60x20_the_detail_pane_goes_under_the_table(demo_db: Path) -> None:
    """Main left the detail pane 10 columns wide at 60x20."""
    async with KaApp(demo_db).run_test(size=(60, 20)) as pilot:
        screen = await roster(pilot)
        pane = screen.query_one("#detail")
        assert pane.size.width >= 50
        table = screen.query_one("#characters-table", FastTable)
        assert pane.region.y > table.region.y and table.size.height >= 5
        assert "Arthur Hale" in detail(screen)


async def test_item19_at_160x50_the_table_grows_and_values_stay_by_their_names(
        demo_db: Path) -> None:
    """Wide: the optional Seat column shows, and a skill's values sit next to its
    name (main padded them to the pane's far edge)."""
    async with KaApp(demo_db).run_test(size=(160, 50)) as pilot:
        screen = await roster(pilot)
        table = screen.query_one("#characters-table", FastTable)
        assert "Seat" in lines(table)[0] and "Str" in lines(table)[0]
        assert any("Mitchell KA-E (crew)" in line for line in lines(table))
        await wait_for(pilot, lambda: "Skills" in detail(screen))
        skill = next(line for line in detail(screen).splitlines() if "Fighter Piloting" in line)
        assert len(skill.rstrip()) < 40, skill
        assert screen.query_one("#detail").size.width >= 60


async def test_item19_80x24_keeps_the_important_columns(demo_db: Path) -> None:
    """At 80 columns Str and Agi (also in the detail pane) give way to the name,
    K-points, wounds and what the character is doing now."""
    async with KaApp(demo_db).run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        header = lines(screen.query_one("#characters-table", FastTable))[0]
        for title in ("Name", "Role", "K", "W", "Now"):
            assert title in header
        assert "Str" not in header
        await pilot.press("o", "o")  # Role, then K: Str and Agi are skipped
        assert screen.tables["characters"].columns[screen.tables["characters"].sort].title == "K"


# ------------------------------------------------------------------ item 22


async def test_item22_opening_mid_fight_says_so_and_how_to_resume(demo_db: Path) -> None:
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


async def test_item22_no_line_when_nothing_is_open(demo_db: Path) -> None:
    commit_sql(demo_db, "UPDATE battle SET status = 'ended'")
    async with KaApp(demo_db).run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        assert not screen.query_one("#in-progress").display


async def test_item18_back_on_the_roster_it_reads_the_open_battle_again(demo_db: Path) -> None:
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
