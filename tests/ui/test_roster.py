"""Roster screen: Pilot tests that add, edit, copy, filter and delete
characters and aircraft and then read the SQLite file to see what was written.

Fields and ranges come from S0 §Skills (characteristics, Base skills, skill
levels), RULES-NOTES A (upgrades per level) and B (AP, K-points), R-5 (wounds).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from ka_tui.app import KaApp
from ka_tui.screens.roster.character_form import CharacterForm
from ka_tui.screens.confirm import ConfirmScreen
from ka_tui.screens.roster.screen import RosterScreen
from ka_tui.widgets.fast_table import FastTable
from tests.ui.pilot_helpers import SIZE, rows, settle

async def roster(pilot: Pilot[None]) -> RosterScreen:
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, RosterScreen)
    assert screen.loaded
    return screen


def table_names(screen: RosterScreen, tab: str = "characters") -> list[str]:
    table = screen.query_one(f"#{tab}-table", FastTable)
    return [str(table.get_row_at(i)[0]) for i in range(table.row_count)]


async def select_name(pilot: Pilot[None], screen: RosterScreen, name: str,
                      tab: str = "characters") -> None:
    names = table_names(screen, tab)
    table = screen.query_one(f"#{tab}-table", FastTable)
    table.move_cursor(row=names.index(name))
    await pilot.pause()


async def test_roster_lists_demo_characters_and_aircraft(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        in_db = sorted(r[0] for r in rows(demo_db, "SELECT name FROM character"))
        assert table_names(screen) == sorted(in_db, key=str.casefold)
        aircraft = rows(demo_db, "SELECT name FROM aircraft")
        assert table_names(screen, "aircraft") == []  # filled when its tab shows
        await pilot.press("t")
        await pilot.pause()
        assert len(table_names(screen, "aircraft")) == len(aircraft)
        assert any("Tempest" in n for n in table_names(screen, "aircraft"))


async def test_filter_by_name_and_clear(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        total = len(table_names(screen))
        await pilot.press("slash", *"ol")
        await pilot.pause()
        shown = table_names(screen)
        assert shown and all("ol" in n.casefold() for n in shown)
        assert len(shown) < total
        await pilot.press("enter")  # back to the table, filter kept
        assert isinstance(app.focused, FastTable)
        assert table_names(screen) == shown
        await pilot.press("escape")
        await pilot.pause()
        assert len(table_names(screen)) == total
        assert not screen.query_one("#filter", Input).display


async def test_sort_cycles_columns_and_reverses(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        by_name = table_names(screen)
        await pilot.press("o")  # Role
        await pilot.pause()
        table = screen.query_one("#characters-table", FastTable)
        roles = [str(table.get_row_at(i)[1]) for i in range(table.row_count)]
        assert roles == sorted(roles)
        await pilot.press("O")
        await pilot.pause()
        roles_rev = [str(table.get_row_at(i)[1]) for i in range(table.row_count)]
        assert roles_rev == sorted(roles, reverse=True)
        assert set(table_names(screen)) == set(by_name)


async def test_add_character_through_the_form_writes_it(demo_db: Path) -> None:
    """S0 §Skills: a skill with kind, number, level and upgrades; a weapon in a quick slot."""
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await roster(pilot)
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, CharacterForm)
        await pilot.press(*"Zoe Quill", "tab", "right")  # role: ground -> pilot
        await pilot.press("tab", "5")  # strength
        await pilot.press("ctrl+t", "a")
        await pilot.pause()
        await pilot.press(*"Gunnery", "tab", "tab", "8", "tab", "right", "tab", "2",
                          "ctrl+s")  # Trained, 2 upgrades (RULES-NOTES A: T <= 2)
        await pilot.pause()
        await pilot.press("ctrl+t", "a")
        await pilot.pause()
        await pilot.press(*"Pistol", "tab", "4", "tab", "space", "tab", "1", "ctrl+s")
        await pilot.pause()
        await pilot.press("ctrl+s")
        screen = await roster(pilot)
        assert "Zoe Quill" in table_names(screen)
    (cid, role, strength), = rows(demo_db, "SELECT id, role, strength FROM character "
                                           "WHERE name = 'Zoe Quill'")
    assert (role, strength) == ("pilot", 5)
    assert rows(demo_db, "SELECT name, kind, number, level, upgrades, legendary FROM skill "
                         "WHERE character_id = ?", cid) == [("Gunnery", "active", 8, "T", 2, 0)]
    assert rows(demo_db, "SELECT name, damage, is_firearm, quick_slot FROM weapon "
                         "WHERE character_id = ?", cid) == [("Pistol", 4, 1, 1)]


async def test_invalid_form_cannot_be_saved_and_writes_nothing(demo_db: Path) -> None:
    """R-5: wounds 0..6; an out-of-range value blocks the save."""
    before = rows(demo_db, "SELECT * FROM character ORDER BY id")
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await roster(pilot)
        await pilot.press("a")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, CharacterForm)
        await pilot.press(*"Nobody")
        form.query_one("#input-wounds", Input).value = "9"
        await pilot.pause()
        assert form.query_one("#field-wounds").error == "must be 0..6"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form  # still open
        assert app.focused is form.query_one("#input-wounds")
        await pilot.press("escape")
        await settle(pilot)
    assert rows(demo_db, "SELECT * FROM character ORDER BY id") == before


async def test_duplicate_name_is_refused_beside_the_field(demo_db: Path) -> None:
    before = rows(demo_db, "SELECT count(*) FROM character")
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        existing = table_names(screen)[0]
        await pilot.press("a")
        await pilot.pause()
        await pilot.press(*existing.upper())
        await pilot.pause()
        assert app.screen.query_one("#field-name").error == "name already used"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, CharacterForm)
    assert rows(demo_db, "SELECT count(*) FROM character") == before


async def test_edit_character_changes_only_that_row(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        name = table_names(screen)[1]
        cid, = rows(demo_db, "SELECT id FROM character WHERE name = ?", name)[0]
        skills_before = rows(demo_db, "SELECT * FROM skill WHERE character_id = ? ORDER BY id",
                             cid)
        others = rows(demo_db, "SELECT * FROM character WHERE id != ? ORDER BY id", cid)
        await select_name(pilot, screen, name)
        await pilot.press("e")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, CharacterForm)
        form.query_one("#input-armour", Input).value = "4"
        form.query_one("#input-notes", Input).value = "edited"
        await pilot.press("ctrl+s")
        await roster(pilot)
    assert rows(demo_db, "SELECT armour, notes FROM character WHERE id = ?", cid) == [
        (4, "edited")]
    assert rows(demo_db, "SELECT * FROM character WHERE id != ? ORDER BY id", cid) == others
    assert rows(demo_db, "SELECT * FROM skill WHERE character_id = ? ORDER BY id",
                cid) == skills_before


async def test_edit_removes_a_skill_and_swaps_quick_slots(demo_db: Path) -> None:
    """Two weapons may swap quick slots in one save (S0 §Close combat quick slots)."""
    cid, name = rows(demo_db, "SELECT c.id, c.name FROM character c WHERE "
                              "(SELECT count(*) FROM weapon w WHERE w.character_id = c.id "
                              "AND w.quick_slot IS NOT NULL) >= 2 ORDER BY c.name")[0]
    weapons = dict(rows(demo_db, "SELECT name, quick_slot FROM weapon WHERE character_id = ? "
                                 "AND quick_slot IS NOT NULL ORDER BY quick_slot", cid)[:2])
    skills = rows(demo_db, "SELECT name FROM skill WHERE character_id = ? ORDER BY name", cid)
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        await select_name(pilot, screen, name)
        await pilot.press("e")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, CharacterForm)
        (a, sa), (b, sb) = weapons.items()
        for w in form.weapons:
            if w["name"] == a:
                w["quick_slot"] = sb
            elif w["name"] == b:
                w["quick_slot"] = sa
        await pilot.press("ctrl+t")  # skills tab, cursor on the first skill
        await pilot.press("d")
        await pilot.pause()
        assert len(form.skills) == len(skills) - 1
        await pilot.press("ctrl+s")
        await roster(pilot)
    after = dict(rows(demo_db, "SELECT name, quick_slot FROM weapon WHERE character_id = ?", cid))
    assert (after[a], after[b]) == (sb, sa)
    left = rows(demo_db, "SELECT name FROM skill WHERE character_id = ? ORDER BY name", cid)
    assert left == skills[1:]


async def test_duplicate_character_copies_skills_and_weapons(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        name = table_names(screen)[0]
        await pilot.press("c")
        await settle(pilot)
        copies = [n for n in table_names(screen) if n != name and n.startswith(name)]
        assert len(copies) == 1
    (orig,), (copy,) = (rows(demo_db, "SELECT id FROM character WHERE name = ?", n)[0]
                        for n in (name, copies[0]))
    q = "SELECT name, kind, number, level, upgrades FROM skill WHERE character_id = ? ORDER BY name"
    assert rows(demo_db, q, copy) == rows(demo_db, q, orig) != []


async def test_delete_asks_first_and_no_keeps_the_row(demo_db: Path) -> None:
    before = rows(demo_db, "SELECT count(*) FROM character")
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await roster(pilot)
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await settle(pilot)
    assert rows(demo_db, "SELECT count(*) FROM character") == before


async def test_delete_character_removes_skills_and_weapons(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        name = table_names(screen)[0]
        cid, = rows(demo_db, "SELECT id FROM character WHERE name = ?", name)[0]
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        assert name not in table_names(screen)
    assert rows(demo_db, "SELECT count(*) FROM character WHERE id = ?", cid) == [(0,)]
    assert rows(demo_db, "SELECT count(*) FROM skill WHERE character_id = ?", cid) == [(0,)]
    assert rows(demo_db, "SELECT count(*) FROM weapon WHERE character_id = ?", cid) == [(0,)]


async def test_aircraft_duplicate_and_delete(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        await pilot.press("t")
        await pilot.pause()
        assert screen.active_tab == "aircraft"
        first = table_names(screen, "aircraft")[0]
        full, = rows(demo_db, "SELECT name FROM aircraft WHERE name LIKE ?", first + "%")[0]
        await pilot.press("c")
        await settle(pilot)
        assert len(rows(demo_db, "SELECT id FROM aircraft WHERE name LIKE ?", full + "%")) == 2
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
    names = [r[0] for r in rows(demo_db, "SELECT name FROM aircraft")]
    assert len([n for n in names if n.startswith(full)]) == 1


async def test_detail_pane_shows_skills_with_pools(demo_db: Path) -> None:
    """S0 §Skills: the detail pane lists each skill's number, level and dice pool."""
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        await settle(pilot)
        text = str(screen.query_one("#detail-text").render())
        name = table_names(screen)[0]
        assert name in text
        cid, = rows(demo_db, "SELECT id FROM character WHERE name = ?", name)[0]
        skills = rows(demo_db, "SELECT name, kind, level FROM skill WHERE character_id = ?", cid)
        assert skills
        for skill, kind, level in skills:
            prefix = "Lore: " if kind == "lore" else ""
            assert (prefix + skill)[:12] in text
        # S0 §Skills: Master is 4d12, +1d20 when upgraded; Expert 3d10 (+1d12)
        levels = {level for _, _, level in skills}
        if "M" in levels:
            assert "4d12" in text
        if "E" in levels:
            assert "3d10" in text
        assert "Skills" in text and "Weapons" in text


async def test_add_and_edit_aircraft_through_the_aircraft_form(demo_db: Path) -> None:
    """The roster opens the one aircraft form (flight-card helper's) and lists the result."""
    from ka_tui.screens.aircraft.form import AircraftForm

    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        await pilot.press("t", "a")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, AircraftForm)
        form.query_one("#input-name", Input).value = "Hurricane KA-Z"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await roster(pilot)
        assert "Hurricane KA-Z" in table_names(screen, "aircraft")
        await select_name(pilot, screen, "Hurricane KA-Z", "aircraft")
        await pilot.press("e")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, AircraftForm)
        form.query_one("#input-name", Input).value = "Hurricane KA-Y"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await roster(pilot)
    assert rows(demo_db, "SELECT count(*) FROM aircraft WHERE name LIKE 'Hurricane%'") == [(1,)]
    assert rows(demo_db, "SELECT name FROM aircraft WHERE name LIKE 'Hurricane%'") == [
        ("Hurricane KA-Y",)]


async def test_seat_pilot_and_crew_moves_them_from_other_aircraft(demo_db: Path) -> None:
    """R-1 status per aircraft: each character sits in one aircraft; one save, one transaction."""
    from ka_tui.screens.roster.crew import CrewScreen

    aircraft_id, name = rows(demo_db, "SELECT id, name FROM aircraft WHERE pilot_id IS NULL "
                                      "ORDER BY name")[0]
    pilot_id, pilot_name, old_plane = rows(
        demo_db, "SELECT c.id, c.name, a.id FROM character c JOIN aircraft a "
                 "ON a.pilot_id = c.id ORDER BY c.name")[0]
    crew_id, crew_name = rows(demo_db, "SELECT id, name FROM character WHERE id NOT IN "
                                       "(SELECT pilot_id FROM aircraft WHERE pilot_id IS NOT NULL) "
                                       "AND id NOT IN (SELECT character_id FROM aircraft_crew) "
                                       "ORDER BY name")[0]
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        await pilot.press("t")
        await select_name(pilot, screen, name, "aircraft")
        await pilot.press("p")
        await pilot.pause()
        seats = app.screen
        assert isinstance(seats, CrewScreen)
        table = seats.query_one(FastTable)
        table.move_cursor(row=table.get_row_index(str(pilot_id)))
        await pilot.press("p")
        table.move_cursor(row=table.get_row_index(str(crew_id)))
        await pilot.press("space", "ctrl+s")
        await roster(pilot)
    assert rows(demo_db, "SELECT pilot_id FROM aircraft WHERE id = ?", aircraft_id) == [(pilot_id,)]
    assert rows(demo_db, "SELECT pilot_id FROM aircraft WHERE id = ?", old_plane) == [(None,)]
    # The unpiloted demo aircraft is a single-seat fighter: the crewman is refused
    # (seats from the profile); the pilot's move is saved.
    assert rows(demo_db, "SELECT character_id FROM aircraft_crew WHERE aircraft_id = ?",
                aircraft_id) == []


async def test_the_first_frame_is_whole_open_battle_turn_and_first_detail(
        demo_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The startup read brings the live state of the open battle and
    the first row's skills, so what the roster shows from its first data is
    the settled frame (no "loading skills…", no "turn 1" arriving a frame
    later over a thin link). Recorded as the first data is shown."""
    from textual.widgets import Static

    seen: dict[str, str] = {}
    shown = RosterScreen._loaded

    def first_loaded(screen: RosterScreen, data: object) -> None:
        shown(screen, data)  # type: ignore[arg-type]
        if not seen:
            seen["detail"] = str(screen.query_one("#detail-text", Static).render())
            seen["banner"] = str(screen.query_one("#in-progress", Static).render())

    monkeypatch.setattr(RosterScreen, "_loaded", first_loaded)
    async with KaApp(demo_db).run_test(size=SIZE) as pilot:
        await settle(pilot)
    assert "Arthur Hale" in seen["detail"] and "Skills" in seen["detail"]
    assert "loading" not in seen["detail"]
    assert "Exercise: Blue vs Red, turn 1" in seen["banner"]


async def test_typing_a_filter_keeps_the_columns_and_the_detail_pane_in_place(
        demo_db: Path) -> None:
    """The filtered rows keep the widths of all rows, so the table and
    the detail pane beside it do not move under each key (over SSH each move
    re-sent the whole detail pane: ~1.5 KB a key, now ~0.2 KB)."""
    async with KaApp(demo_db).run_test(size=SIZE) as pilot:
        screen = await roster(pilot)
        table = screen.active_table()
        tables = screen.query_one("#roster-tables")
        before = (table.longest, tables.size.width, table.natural_width())
        await pilot.press("slash", "y", "u")        # only Yusuf Karim: shorter cells
        await settle(pilot)
        assert table.row_count == 1
        assert (table.longest, tables.size.width, table.natural_width()) == before
        await pilot.press("escape")
        await settle(pilot)
        assert table.row_count == 11
