"""The map editor: terrain and heights (R-6.1), strips and carriers (R-10)
edited with the keyboard, the map returned by ``dismiss``; the text map imported
and exported, a bad line refused with its line and column and nothing changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App
from textual.widgets import Input

from ka_tui.rules.air.battle_map import (
    BattleMap,
    Carrier,
    Strip,
    Surface,
    Terrain,
    format_map,
    parse_map,
)
from ka_tui.rules.air.hexgrid import Hex
from ka_tui.screens.map_editor import MapEditorScreen, MapFileForm, SiteForm, SizeForm
from tests.ui.pilot_helpers import settle, steady_cursors, wait_for

START = parse_map("""
    . . 2 . . . . .
    ~ ~ f1 . . . . .
    . . . . . . . .
    . . . . . . . .
    strip Home 4,1 S 3 1 prepared
""")


def at(col: int, row: int) -> Hex:
    return Hex.from_offset(col, row)


class EditorApp(App[None]):
    def __init__(self, battle_map: BattleMap | None = START) -> None:
        super().__init__()
        self.start = battle_map
        self.results: list[BattleMap | None] = []

    def on_mount(self) -> None:
        self.push_screen(MapEditorScreen(self.start, title="Valley"), self.results.append)

    @property
    def editor(self) -> MapEditorScreen:
        screen = self.screen_stack[1]
        assert isinstance(screen, MapEditorScreen)
        return screen


async def type_into(pilot: Any, field_id: str, text: str) -> None:
    box = pilot.app.screen.query_one(f"#input-{field_id}", Input)
    box.value = text
    await pilot.pause()


async def test_r6_1_terrain_and_height_keys_then_ctrl_s_returns_the_map() -> None:
    app = EditorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("right", "down")                  # hex 1,1 (water)
        await pilot.press("f", "3", "plus")                 # forest, height 3, then 4
        await pilot.press("right", "right", "right", "down", "tilde")   # 4,2 water...
        await pilot.press("right", "r", "2", "minus", "minus", "minus")  # 5,2 rough 0
        assert "Height is 0" in str(app.editor._status[0])
        await pilot.press("ctrl+s")
        await settle(pilot)
        (result,) = app.results
        assert result is not None
        assert result.terrain[at(1, 1)] == Terrain(Surface.FOREST, 4)
        assert result.terrain[at(4, 2)] == Terrain(Surface.WATER, 0)
        assert result.terrain[at(5, 2)] == Terrain(Surface.ROUGH, 0)
        assert result.terrain[at(2, 0)] == Terrain(Surface.ROUGH, 2)  # untouched
        assert result.strips == START.strips


async def test_r10_new_strip_and_carrier_edit_and_delete() -> None:
    app = EditorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("down", "down")                    # 0,2
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, SiteForm))
        await type_into(pilot, "name", "Home")               # taken: refused at the field
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, SiteForm)
        assert "already used" in app.screen.query_one("#field-name").error
        await type_into(pilot, "name", "West")
        await type_into(pilot, "length", "5")
        app.screen.query_one("#field-facing").value = 2      # SE
        app.screen.query_one("#field-surface").value = Surface.UNPREPARED
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, MapEditorScreen))
        assert app.editor.edited.strips[-1] == Strip("West", at(0, 2), 2, 5, 1,
                                                     Surface.UNPREPARED, 0)
        await pilot.press("right", "c")                      # a carrier at 1,2
        await wait_for(pilot, lambda: isinstance(app.screen, SiteForm))
        await type_into(pilot, "name", "Ark")
        await type_into(pilot, "height", "1")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, MapEditorScreen))
        assert app.editor.edited.carriers == (Carrier("Ark", at(1, 2), 0, 4, 1, 1),)
        app.editor.hex_map.move_cursor(at(4, 2))             # on the strip Home
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, SiteForm))
        await type_into(pilot, "width", "2")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, MapEditorScreen))
        home = [s for s in app.editor.edited.strips if s.name == "Home"]
        assert home == [Strip("Home", at(4, 1), 3, 3, 2)]
        await pilot.press("d")
        await settle(pilot)
        assert [s.name for s in app.editor.edited.strips] == ["West"]
        await pilot.press("d")                               # nothing left there
        assert app.editor._status == ("No strip or carrier here to delete.", True)


async def test_resize_drops_cells_off_the_map() -> None:
    app = EditorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("S")
        await wait_for(pilot, lambda: isinstance(app.screen, SizeForm))
        await type_into(pilot, "cols", "3")
        await type_into(pilot, "rows", "0")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, SizeForm)              # refused at the field
        await type_into(pilot, "rows", "2")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, MapEditorScreen))
        m = app.editor.edited
        assert (m.cols, m.rows) == (3, 2) and m.strips == ()
        assert set(m.terrain) == {at(2, 0), at(0, 1), at(1, 1), at(2, 1)}


async def test_import_refuses_a_bad_line_with_line_and_column_and_changes_nothing(
        tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(". . .\n. ~ .\nstrip A 1,1 N 3 1 tarmac\n")
    good = tmp_path / "good.txt"
    good.write_text("~ ~\nf2 3\ncarrier Ark 0,0 S 2 1\n")
    app = EditorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await wait_for(pilot, lambda: isinstance(app.screen, MapFileForm))
        await type_into(pilot, "file", str(bad))
        await pilot.press("ctrl+s")
        field = app.screen.query_one("#field-file")
        await wait_for(pilot, lambda: bool(field.error))
        assert field.error == "line 3: a strip is prepared or unprepared (column 19)"
        assert isinstance(app.screen, MapFileForm)
        await pilot.press("escape")
        await settle(pilot)
        assert app.editor.edited == START                    # nothing changed
        await pilot.press("i")
        await wait_for(pilot, lambda: isinstance(app.screen, MapFileForm))
        await type_into(pilot, "file", str(good))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, MapEditorScreen))
        assert app.editor.edited == parse_map(good.read_text())


async def test_export_writes_the_text_map_and_refuses_to_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "valley.txt"
    app = EditorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, MapFileForm))
        await type_into(pilot, "file", str(target))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, MapEditorScreen))
        assert target.read_text() == format_map(START)
        assert parse_map(target.read_text()) == START
        target.write_text("keep me")
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, MapFileForm))
        await type_into(pilot, "file", str(target))
        await pilot.press("ctrl+s")
        field = app.screen.query_one("#field-file")
        await wait_for(pilot, lambda: bool(field.error))
        assert "exists" in field.error and target.read_text() == "keep me"


async def test_escape_with_changes_asks_first() -> None:
    from ka_tui.screens.confirm import ConfirmScreen

    app = EditorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape")                          # unchanged: leaves at once
        await settle(pilot)
        assert app.results == [None]
        app.push_screen(MapEditorScreen(START), app.results.append)
        await settle(pilot)
        await pilot.press("f", "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, MapEditorScreen) and len(app.results) == 1
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await settle(pilot)
        assert app.results == [None, None]


def test_snapshot_map_editor(snap_compare: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("right", "down", "f", "2", "right", "right", "right")
        await settle(pilot)

    assert snap_compare(EditorApp(), terminal_size=(80, 24), run_before=run_before)


def test_snapshot_strip_form(snap_compare: Any) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("down", "n")
        await settle(pilot)
        steady_cursors(pilot.app)

    assert snap_compare(EditorApp(), terminal_size=(80, 24), run_before=run_before)
