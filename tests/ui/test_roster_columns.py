"""The roster's columns at 80x24, 60x20 and 160x50: a sort arrow on every
column, even a one-character one; names cut in the middle that keep their end
and read whole in the detail; the detail pane under the table when the window is
narrow. Real app (Pilot) on a real demo campaign file."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult

from ka_tui.app import KaApp
from ka_tui.widgets.fast_table import FastTable, shorten
from tests.ui.pilot_helpers import SIZE, commit_sql, wait_for
from tests.ui.roster_pilot import detail, lines, roster


class OneTable(App[None]):
    def compose(self) -> ComposeResult:
        yield FastTable(id="t")

    def on_mount(self) -> None:
        table = self.query_one(FastTable)
        table.add_column("Name", 10, max_width=30)
        table.add_column("W", 1)
        table.set_rows([("a", ("Al", "0")), ("b", ("Bo", "3"))])


async def test_sort_arrow_fits_a_one_character_column() -> None:
    app = OneTable()
    async with app.run_test(size=(40, 6)) as pilot:
        table = app.query_one(FastTable)
        table.set_sort(1, reverse=True)
        await pilot.pause()
        assert "W▼" in lines(table)[0]
        table.set_sort(1)
        await pilot.pause()
        assert "W▲" in lines(table)[0]


async def test_every_roster_column_shows_its_sort_arrow(demo_db: Path) -> None:
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


def test_a_name_cut_in_the_middle_keeps_its_end() -> None:
    one, two = "Messerschmitt Bf 109 G-10", "Messerschmitt Bf 109 G-10 (2)"
    assert shorten(one, 16, "middle") != shorten(two, 16, "middle")
    assert shorten(two, 16, "middle").endswith("(2)") and len(shorten(two, 16, "middle")) == 16
    assert shorten("Heavy fighter", 6) == "Heavy~"


async def test_long_names_stay_apart_and_read_whole_at_80x24(demo_db: Path) -> None:
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


async def test_skill_names_are_whole_in_the_detail_at_80x24(demo_db: Path) -> None:
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


async def test_at_60x20_the_detail_pane_goes_under_the_table(demo_db: Path) -> None:
    """Main left the detail pane 10 columns wide at 60x20."""
    async with KaApp(demo_db).run_test(size=(60, 20)) as pilot:
        screen = await roster(pilot)
        pane = screen.query_one("#detail")
        assert pane.size.width >= 50
        table = screen.query_one("#characters-table", FastTable)
        assert pane.region.y > table.region.y and table.size.height >= 5
        assert "Arthur Hale" in detail(screen)


async def test_at_160x50_the_table_grows_and_values_stay_by_their_names(
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


async def test_80x24_keeps_the_important_columns(demo_db: Path) -> None:
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

