"""The hex map widget: flat-top hexes in text with terrain (R-6.1 heights),
strips and carriers (R-10), aircraft with facing, side and altitude level (S0 §Altitude),
overlays set by the screen; Pilot tests of the keys and snapshots of the zooms
(dense, compact, detailed)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widgets import Footer

from ka_tui.rules.air.battle_map import parse_map
from ka_tui.rules.air.hexgrid import Hex
from ka_tui.widgets.hex_map import HexMap, MapAircraft, ReachMark
from tests.ui.pilot_helpers import settle

MAP = parse_map("""
    . . 2 3 . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . .
    ~ ~ f1 . . . . f f f . . . . . . . . . . . . . . . . . . . . . . . . r r . . .
    ~ ~ ~ . . . . . f2 f . . . . . . . . . . . . . . . . . . . . . . . 4 5 r . . .
    r . . . . . . . . . . . . . . ~ ~ ~ ~ . . . . . . . . . . . . . . r r . . . . .
    . . . . . . . . . . . . . . ~ ~ ~ ~ . . . . . . . f f f . . . . . . . . . . . .
    . . . . . . . . . . . . . . . ~ ~ ~ . . . . . . . f1 f1 . . . . . . . . . . . .
    . . . . .2 . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . ~ ~ ~ ~ ~ ~ ~ ~ . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . ~ ~ ~ ~ ~ ~ ~ ~ . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . .
    strip Home 4,3 SE 4 1 prepared
    strip Field 28,9 N 3 1 unprepared
    carrier Ark 16,3 N 3 1 1
    carrier Illustrious 19,8 NE 3 1
""")


def at(col: int, row: int) -> Hex:
    return Hex.from_offset(col, row)


AIRCRAFT = (
    MapAircraft("t1", at(2, 3), 1, "RAF", 3, 8, "Tmp1"),
    MapAircraft("t2", at(3, 3), 0, "RAF", 2, 6, "Tmp2"),
    MapAircraft("b1", at(8, 4), 4, "Luftwaffe", 3, 9, "109a"),
    MapAircraft("b2", at(8, 4), 5, "Luftwaffe", 4, 9, "109b"),
    MapAircraft("b3", at(10, 2), 3, "Luftwaffe", 1, 4, "109c"),
    MapAircraft("s1", at(30, 6), 2, "Italy", 6, 12, "C202"),
)


class MapApp(App[None]):
    """The widget full screen with a footer, as the battle screen will hold it."""

    def __init__(self, battle_map: Any = MAP, aircraft: Any = AIRCRAFT, *,
                 zoom: Any = "compact", ascii: bool = False, overlays: bool = True) -> None:
        super().__init__()
        self.hex_map = HexMap(battle_map, aircraft, zoom=zoom, ascii=ascii)
        self.overlays = overlays
        self.messages: list[Any] = []

    def compose(self) -> ComposeResult:
        yield self.hex_map
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if self.overlays:
            self.hex_map.set_path([at(2, 3), at(3, 3), at(4, 2), at(5, 2)])
            self.hex_map.set_reach({at(5, 5): ReachMark("free"),
                                    at(6, 5): ReachMark("check", "72%"),
                                    at(7, 5): ReachMark("out")})
            self.hex_map.set_targets({at(8, 4): "41%"})
        self.hex_map.focus()

    def on_hex_map_cursor_moved(self, message: HexMap.CursorMoved) -> None:
        self.messages.append(("cursor", message.hex))

    def on_hex_map_aircraft_selected(self, message: HexMap.AircraftSelected) -> None:
        self.messages.append(("selected", message.key))

    def on_hex_map_stack_listed(self, message: HexMap.StackListed) -> None:
        self.messages.append(("stack", message.hex, tuple(a.key for a in message.aircraft),
                              message.selected))

    def on_hex_map_target_picked(self, message: HexMap.TargetPicked) -> None:
        self.messages.append(("target", message.hex))


def screen_text(widget: HexMap) -> list[str]:
    return [widget.render_line(y).text for y in range(widget.size.height)]


async def test_cursor_moves_with_arrows_and_hjkl_and_stays_on_the_map() -> None:
    app = MapApp()
    async with app.run_test(size=(80, 24)) as pilot:
        m = app.hex_map
        assert m.cursor == at(0, 0)
        await pilot.press("right", "right", "down", "l", "j", "j")
        assert m.cursor.to_offset() == (3, 3)
        await pilot.press("h", "k", "left", "up")
        assert m.cursor.to_offset() == (1, 1)
        await pilot.press("up", "up", "left", "left")       # stops at the map's edge
        assert m.cursor == at(0, 0)
        await settle(pilot)
        moves = [msg[1].to_offset() for msg in app.messages if msg[0] == "cursor"]
        assert moves[:3] == [(1, 0), (2, 0), (2, 1)] and moves[-1] == (0, 0)
        assert "[" in screen_text(m)[1] and "]" in screen_text(m)[1]  # the cursor's sides


async def test_tab_and_shift_tab_jump_between_aircraft() -> None:
    app = MapApp()
    async with app.run_test(size=(80, 24)) as pilot:
        m = app.hex_map
        await pilot.press("tab")
        assert m.selected == "t1" and m.cursor == at(2, 3)
        await pilot.press("tab", "tab")
        assert m.selected == "b1" and m.cursor == at(8, 4)
        await pilot.press("shift+tab", "shift+tab", "shift+tab")
        assert m.selected == "s1" and m.cursor == at(30, 6)   # wraps to the last
        assert m.scroll_offset.x > 0                            # scrolled to show it
        await settle(pilot)
        assert [msg[1] for msg in app.messages if msg[0] == "selected"] == [
            "t1", "t2", "b1", "t2", "t1", "s1"]


async def test_centre_key_puts_the_selected_aircraft_in_the_middle() -> None:
    big = parse_map("\n".join([" ".join(["."] * 100)] * 100))
    plane = MapAircraft("x", at(60, 70), 0, "A", 2)
    app = MapApp(big, [plane], overlays=False)
    async with app.run_test(size=(80, 24)) as pilot:
        m = app.hex_map
        await pilot.press("tab")
        await pilot.press("right", "right")                    # the cursor leaves it
        await pilot.press("ctrl+l")
        await settle(pilot)
        view = m.scrollable_content_region
        x, y = 60 * 4 + 2 - m.scroll_offset.x, 1 + 70 * 2 - m.scroll_offset.y
        assert abs(x - view.width // 2) <= 2 and abs(y - view.height // 2) <= 2
        row = screen_text(m)[y]
        assert "(↑A2)" in row                                  # selected, cursor elsewhere


async def test_zoom_toggles_between_compact_and_detailed() -> None:
    app = MapApp()
    async with app.run_test(size=(80, 24)) as pilot:
        m = app.hex_map
        assert m.zoom == "compact" and m.virtual_size.width == 40 * 4 + 1
        await pilot.press("tab", "z")
        await settle(pilot)
        assert m.zoom == "detailed" and m.virtual_size.width == 40 * 6 + 2
        text = "\n".join(screen_text(m))
        assert "a3 s8" in text and "↗R Tmp" in text           # altitude and speed shown
        await pilot.press("z")
        assert m.zoom == "compact"


async def test_the_dense_zoom_draws_every_other_column_on_a_line_without_outlines() -> None:
    """Pitch 2: a 20-column map is 43 cells wide; odd columns half a hex
    lower; open ground a dot, the overlay marks below the token's middle."""
    twenty = parse_map("\n".join([" ".join(["."] * 20)] * 12))
    planes = [MapAircraft("a", at(0, 0), 2, "RAF", 3), MapAircraft("b", at(1, 0), 0, "Axis", 1)]
    app = MapApp(twenty, planes, zoom="dense", overlays=False)
    async with app.run_test(size=(80, 24)) as pilot:
        m = app.hex_map
        assert m.virtual_size == (20 * 2 + 3, 12 * 2 + 1)
        assert m.scrollable_content_region.width >= m.virtual_size.width   # all columns
        m.set_path([at(0, 0), at(1, 0)])
        m.set_targets({at(1, 0): "41%"})
        await pilot.press("tab")
        await settle(pilot)
        text = screen_text(m)
        assert text[0].startswith("[↘R3] ·   ·") and "/" not in text[0]   # selected + cursor
        assert text[1].startswith("  o↑A1  ·") and text[2].startswith("  · T ·")


async def test_zoom_goes_through_the_levels_it_is_given() -> None:
    app = MapApp()
    app.hex_map = HexMap(MAP, AIRCRAFT, zoom="dense", zooms=("dense", "compact", "detailed"))
    async with app.run_test(size=(80, 24)) as pilot:
        m = app.hex_map
        assert m.virtual_size.width == 40 * 2 + 3
        seen = []
        for _ in range(3):
            await pilot.press("z")
            seen.append(m.zoom)
        assert seen == ["compact", "detailed", "dense"]


async def test_the_map_follows_the_selected_aircraft_when_it_moves() -> None:
    """The selected aircraft moved out of sight: the view scrolls to it, and
    the cursor that was on it goes with it (another cursor stays put)."""
    app = MapApp(overlays=False)
    async with app.run_test(size=(80, 24)) as pilot:
        m = app.hex_map
        await pilot.press("tab")
        assert m.selected == "t1" and m.scroll_offset == (0, 0)
        moved = (MapAircraft("t1", at(36, 11), 1, "RAF", 3, 8, "Tmp1"), *AIRCRAFT[1:])
        m.set_aircraft(moved)
        await settle(pilot)
        assert m.cursor == at(36, 11)
        view = Region(*m.scroll_offset, *m.scrollable_content_region.size)
        assert view.contains_region(m._hex_region(at(36, 11)))
        await pilot.press("tab")                                # t2; the cursor on it
        m.set_aircraft((*moved[:1], MapAircraft("t2", at(4, 3), 0, "RAF", 2), *moved[2:]))
        await settle(pilot)
        assert m.cursor == at(4, 3)


async def test_enter_on_a_stack_lists_it_and_cycles_the_selection() -> None:
    """Highest level first (b2 at 4, then b1 at 3), each press listed with
    the one it selected."""
    app = MapApp(overlays=False)
    async with app.run_test(size=(80, 24)) as pilot:
        m = app.hex_map
        assert m.stack_at(at(8, 4)) == AIRCRAFT[2:4]
        await pilot.press(*["right"] * 8, *["down"] * 4)
        assert "*2L" in "\n".join(screen_text(m))               # the stack marker
        await pilot.press("enter")
        assert m.selected == "b2"
        await pilot.press("enter")
        assert m.selected == "b1"
        await pilot.press("enter")
        assert m.selected == "b2"
        await settle(pilot)
        stacks = [msg for msg in app.messages if msg[0] == "stack"]
        assert stacks[0] == ("stack", at(8, 4), ("b2", "b1"), "b2")
        assert stacks[1][3] == "b1"


async def test_enter_on_a_target_mark_picks_the_target_and_keeps_the_selection() -> None:
    app = MapApp()   # a target marked on 8,4
    async with app.run_test(size=(80, 24)) as pilot:
        m = app.hex_map
        await pilot.press("tab")
        assert m.selected == "t1"
        await pilot.press(*["right"] * 6, "down")
        assert m.cursor == at(8, 4)
        await pilot.press("enter", "enter")
        await settle(pilot)
        assert m.selected == "t1"
        assert [msg for msg in app.messages if msg[0] == "target"] == [
            ("target", at(8, 4)), ("target", at(8, 4))]
        assert not [msg for msg in app.messages if msg[0] == "stack"]


async def test_tab_goes_through_the_keys_given_only() -> None:
    """The screen gives the side acting now (R-1.2): tab and shift+tab stay
    on those, in the order given; None again: every aircraft."""
    app = MapApp()
    async with app.run_test(size=(80, 24)) as pilot:
        m = app.hex_map
        m.set_aircraft(AIRCRAFT, tab=["b3", "b1", "gone"])
        seen = []
        for key in ("tab", "tab", "tab", "shift+tab"):
            await pilot.press(key)
            seen.append(m.selected)
        assert seen == ["b3", "b1", "b3", "b1"]
        m.set_aircraft(AIRCRAFT)
        await pilot.press("tab")
        assert m.selected == "b2"


async def test_cursor_move_redraws_only_the_lines_of_two_hexes() -> None:
    """The Line API with a cache: a move draws the lines that changed, no others."""
    app = MapApp()
    async with app.run_test(size=(80, 24)) as pilot:
        m = app.hex_map
        await pilot.press("right")
        await settle(pilot)
        before = m.render_count
        await pilot.press("down")
        await settle(pilot)
        assert 0 < m.render_count - before <= 6                 # 3 + 3 lines, compact


def test_overlays_and_terrain_read_without_colour() -> None:
    """Shape and letter carry the meaning: the marks are characters."""
    app = MapApp()

    async def run() -> list[str]:
        async with app.run_test(size=(80, 24)):
            return screen_text(app.hex_map)

    import asyncio
    text = "\n".join(asyncio.run(run()))
    for mark in ("\\_o_/", "\\_+_/", "\\_?_/", "\\_x_/", "\\_T_/", "~~~", " f1",
                 "===", "CV1", " 3 ", "↗R3", "*2L", "↓L1"):
        assert mark in text, mark


async def test_ascii_mode_draws_only_ascii() -> None:
    app = MapApp(ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        m = app.hex_map
        await pilot.press("tab")
        for zoom in ("compact", "detailed"):
            m.zoom = zoom
            await settle(pilot)
            text = "\n".join(screen_text(m))
            assert text.isascii()
            assert "/R" in text and "^R" in text                # facings NE and N


# ---------------------------------------------------------------- snapshots


async def _select_first(pilot: Any) -> None:
    await pilot.press("tab")
    await settle(pilot)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
@pytest.mark.parametrize("zoom", ["dense", "compact", "detailed"])
def test_snapshot_map(snap_compare: Any, size: tuple[int, int], zoom: str) -> None:
    assert snap_compare(MapApp(zoom=zoom), terminal_size=size, run_before=_select_first)


@pytest.mark.parametrize("zoom", ["compact", "detailed"])
def test_snapshot_map_ascii(snap_compare: Any, zoom: str) -> None:
    assert snap_compare(MapApp(zoom=zoom, ascii=True), terminal_size=(80, 24),
                        run_before=_select_first)
