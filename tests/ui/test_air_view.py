"""Aiming and seeing on the air-battle screen, as a GM at 80x24 (and 60x20):
the dense zoom shows the demo's whole 20-column map beside the side column,
the side column folds away or goes below, the map follows the selected
aircraft and selects the next one to move, ``tab`` takes the side that acts
first, the legend words every mark, the figure menu gives each R-9 figure's
cost, difficulty and G and greys the ones this aircraft may not fly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import OptionList

from ka_tui.screens.air.screen import AirScreen
from ka_tui.widgets.hex_map import FACING_GLYPHS, HexMap
from tests.ui.pilot_helpers import settle, wait_for
from tests.ui.test_air_battle import BEAU, IL2, SPIT, TEMP, make_app, open_air, select


async def _demo(pilot: Pilot[Any]) -> AirScreen:
    screen = await open_air(pilot)
    await wait_for(pilot, lambda: screen.runner is not None)
    await settle(pilot)
    return screen


def _view(screen: AirScreen) -> tuple[int, int, int, int]:
    """(columns shown, map columns, rows shown, map rows) of the map's view."""
    m = screen.query_one(HexMap)
    view = m.scrollable_content_region
    cols = (view.width - 3) // 2 + 1 if m.zoom == "dense" else view.width // 4
    rows = (view.height - 1) // 2
    return cols, m.battle_map.cols, rows, m.battle_map.rows


async def test_at_80x24_the_whole_width_of_the_demo_map_and_nine_rows_show(
        demo_db: Path) -> None:
    app, _dice = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _demo(pilot)
        cols, map_cols, rows, _map_rows = _view(screen)
        assert cols >= map_cols == 20 and rows >= 9
        assert screen.query_one("#air-side").region.x > 0            # the side beside it
        assert "Tempest KA-A plan" in str(screen.query_one("#air-detail-text").render())


async def test_at_60x20_the_side_column_goes_below_and_b_folds_it(demo_db: Path) -> None:
    app, _dice = make_app(demo_db)
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await _demo(pilot)
        side = screen.query_one("#air-side")
        hex_map = screen.query_one(HexMap)
        assert side.region.y > hex_map.region.y and side.region.width == 60
        cols, map_cols, rows, _ = _view(screen)
        assert cols >= map_cols and rows >= 4
        await pilot.press("b")                                      # folded away
        await settle(pilot)
        assert not side.display and _view(screen)[2] >= 7
        assert "folded away" in str(screen.query_one("#air-status").render())
        await pilot.press("b")                                      # beside, as chosen
        await settle(pilot)
        assert side.display and side.region.x > 0


async def test_after_a_move_the_next_aircraft_is_selected_and_the_map_follows_it(
        demo_db: Path) -> None:
    app, _dice = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _demo(pilot)
        assert screen.selected() == TEMP
        await pilot.press("space", "g")
        await settle(pilot)
        assert screen.runner is not None
        spit = screen.runner.unit(SPIT)
        assert spit is not None and screen.selected() == SPIT
        hex_map = screen.query_one(HexMap)
        assert hex_map.cursor == spit.hex                            # the cursor is on it
        shown = hex_map.scrollable_content_region.size
        region = hex_map._hex_region(spit.hex)
        assert region.x >= hex_map.scroll_offset.x and region.y >= hex_map.scroll_offset.y
        assert region.right <= hex_map.scroll_offset.x + shown.width
        assert region.bottom <= hex_map.scroll_offset.y + shown.height
        assert "Tempest KA-A flies" in str(screen.query_one("#air-detail-text").render())


async def test_a_ram_that_cannot_happen_is_refused_with_the_reason_not_armed(
        demo_db: Path) -> None:
    """R-7: ramming needs the same hex and level. R at an aircraft elsewhere
    says why and arms nothing (it said 'ram armed: … R or g rolls'); R again
    writes nothing."""
    from tests.ui.test_air_battle import goto, kinds

    app, _dice = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _demo(pilot)
        for _ in range(2):
            await pilot.press("space", "g")
            await settle(pilot)
        await pilot.press("g")                       # Blue's movement ends
        await settle(pilot)
        await select(pilot, SPIT)
        runner = screen.runner
        assert runner is not None
        beau = runner.unit(BEAU)
        assert beau is not None and beau.hex != runner.unit(SPIT).hex  # type: ignore[union-attr]
        await goto(pilot, *beau.hex.to_offset())
        before = kinds(demo_db)
        await pilot.press("R")
        await settle(pilot)
        status = str(screen.query_one("#air-status").render())
        assert status.startswith("cannot ram:") and "same hex" in status
        assert screen.ram_armed is None
        await pilot.press("R")
        await settle(pilot)
        assert kinds(demo_db) == before


async def test_tab_goes_through_the_side_that_acts_first(demo_db: Path) -> None:
    """Blue moves (R-1.2): tab goes through the aircraft of the side that
    still act in this step (after the Tempest flies, the Spitfire only: the
    status says "select an aircraft that moves now (tab)"), shift+tab the
    other way, never to Red's aircraft listed after them; when none of the
    side is left to act, the whole side; between the phases' sides (heat,
    end) every one."""
    app, _dice = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _demo(pilot)
        await pilot.press("space", "g")
        await settle(pilot)
        assert screen.selected() == SPIT
        seen = []
        for _ in range(4):
            await pilot.press("tab")
            seen.append(screen.selected())
        assert seen == [SPIT, SPIT, SPIT, SPIT]
        await pilot.press("shift+tab", "shift+tab")
        assert screen.selected() == SPIT
        assert screen.runner is not None
        sides = [screen.runner.unit(a.key).side  # type: ignore[union-attr]
                 for a in screen.query_one(HexMap).aircraft]
        assert sides == sorted(sides, key=lambda s: s != "Blue")
        await pilot.press("space", "g", "g")     # the Spitfire flies, Blue's movement ends
        await settle(pilot)
        await pilot.press("x")                   # and its shooting
        await settle(pilot)
        assert screen.runner.state.active_side == "Red"
        red = [screen.selected()]
        for _ in range(3):
            await pilot.press("tab")
            red.append(screen.selected())
        assert set(red) == {BEAU, IL2}           # Red moves now: Red's only
        while screen.selected() != IL2:
            await pilot.press("tab")
        await pilot.press("space", "g")          # the Il-2 flies; the Beaufighter is left
        await settle(pilot)
        after = []
        for _ in range(2):
            await pilot.press("tab")
            after.append(screen.selected())
        assert after == [BEAU, BEAU]


async def test_i_shows_the_legend_of_every_mark(demo_db: Path) -> None:
    from ka_tui.screens.air.legend import LegendScreen
    from ka_tui.widgets.hex_map import MARKS

    app, _dice = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        await _demo(pilot)
        await pilot.press("i")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, LegendScreen))
        screen = pilot.app.screen
        assert isinstance(screen, LegendScreen)
        text = "\n".join(screen.lines)
        for mark in (*MARKS.values(), *FACING_GLYPHS, "[ ]", "( )", "~~~", "===", "CV1"):
            assert mark in text, mark
        assert "B Blue" in text and "R Red" in text
        box = screen.query_one("#legend-box")
        assert box.region.height <= 24 and box.region.width <= 80
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, AirScreen))


async def test_m_lists_the_figures_with_cost_difficulty_g_and_why_not(demo_db: Path) -> None:
    """The Tempest at level 3 of a ceiling of 4: the loop with its thrust 4,
    difficulty +1 and G 3 and the odds of its roll; the Immelmann greyed
    (it would climb above the ceiling, S0 §Altitude explained)."""
    from ka_tui.screens.air.figures import FigureMenu

    app, _dice = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _demo(pilot)
        await select(pilot, TEMP)
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, FigureMenu))
        menu = pilot.app.screen
        assert isinstance(menu, FigureMenu)
        rows = {r.code: r for r in menu.rows}
        loop = rows["loop"]
        assert (loop.thrust, loop.difficulty, loop.g_rating, loop.min_speed) == (4, 1, 3, 4)
        assert loop.allowed and loop.odds.endswith("%")
        assert not rows["immelmann"].allowed and "ceiling" in rows["immelmann"].refusal
        options = menu.query_one(OptionList)
        texts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert any("thrust 4  diff +1  G 3" in t for t in texts)
        assert options.get_option("immelmann").disabled
        options.highlighted = list(rows).index("half_roll")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, AirScreen))
        assert screen.runner is not None and screen.runner.plan_text(TEMP).startswith("HALF")


def _drafts(db: Path) -> list[tuple[Any, ...]]:
    from tests.ui.pilot_helpers import rows

    return rows(db, "SELECT unit, plan, evasive FROM battle_draft ORDER BY unit")


async def test_a_plan_built_and_not_flown_survives_quitting_and_reopening(
        demo_db: Path) -> None:
    """The Tempest's plan built with keys (two forward, evasive, R-8) is back
    after q and reopening, as the battle is; flown, it is kept no more."""
    app, _dice = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _demo(pilot)
        await select(pilot, TEMP)
        await pilot.press("f", "f", "e")
        await wait_for(pilot, lambda: [u for u, *_ in _drafts(demo_db)] == [TEMP]
                       and _drafts(demo_db)[0][2] == 1)
        await pilot.press("q")
    app2, _ = make_app(demo_db)
    async with app2.run_test(size=(80, 24)) as pilot:
        screen = await _demo(pilot)
        runner = screen.runner
        assert runner is not None
        assert runner.plan_text(TEMP) == "F F" and TEMP in runner.evasive
        assert "kept: " + TEMP in str(screen.query_one("#air-status").render())
        await select(pilot, TEMP)
        await pilot.press("space", "g")
        await settle(pilot)
        assert runner.unit(TEMP).moved  # type: ignore[union-attr]
        await wait_for(pilot, lambda: not _drafts(demo_db))


def _seed_crash(db: Path) -> None:
    """The Il-2 (Olga Petrova) at level 1 and speed 0 beside the Spitfire on
    the coast map; the turn's start: Blue first, the Il-2 stalls (R-3.2),
    fails 1+1 and crashes on the ground (R-6.1)."""
    from dataclasses import replace

    from ka_tui.rules.air.hexgrid import Hex
    from ka_tui.rules.core.dice import ScriptedDice
    from ka_tui.screens.air import data
    from ka_tui.store import battles
    from ka_tui.store.db import open_campaign

    with open_campaign(db) as campaign:
        for b in battles.list_battles(campaign):
            if b.open:
                battles.end_battle(campaign, b.id)
        places = {SPIT: ("Blue", 12, 3, 3, 4), "Il-2 KA-D": ("Red", 14, 6, 1, 0)}
        units, aircraft = [], {}
        for c in data.load_candidates(campaign):
            if c.name in places and c.unit is not None:
                side, col, row, level, speed = places[c.name]
                units.append(replace(c.unit, side=side, hex=Hex.from_offset(col, row),
                                     altitude=level, speed=speed))
                aircraft[c.name] = c.aircraft_id
        name, text = data.BUILTIN_MAPS[1]
        loaded = data.start_battle(campaign, units, aircraft, data.MapChoice(name, text))
        loaded.battle.begin_turn(ScriptedDice.of([6, 6, 1, 1, 1, 1] + [6] * 30))
        battles.commit(campaign, loaded.battle_id, loaded.battle.events[-1])
        assert loaded.state.unit("Il-2 KA-D").crashed


async def test_ending_a_battle_with_a_crash_asks_the_gm_about_the_crew(demo_db: Path) -> None:
    """campaign.crash_crew = gm_asks: E, y, then the GM is asked what became
    of Olga Petrova (the Il-2 crashed, R-6.1); escape ends nothing, the
    answer "missing" is written with the outcome."""
    from ka_tui.screens.air.setup import CrashCrewScreen
    from tests.ui.pilot_helpers import rows

    _seed_crash(demo_db)
    app, _dice = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _demo(pilot)
        await pilot.press("E")
        await settle(pilot)
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, CrashCrewScreen))
        box = pilot.app.screen.query_one("#picker-box")
        assert "what became of Olga Petrova" in str(box.border_title)
        await pilot.press("escape")
        await wait_for(pilot, lambda: pilot.app.screen is screen)
        assert "NOT ended" in str(screen.query_one("#air-status").render())
        assert screen.loaded is not None and not screen.loaded.ended
        await pilot.press("E")
        await settle(pilot)
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, CrashCrewScreen))
        await pilot.press("down", "down", "down", "enter")     # missing
        await wait_for(pilot, lambda: screen.runner is None)
    assert rows(demo_db, "SELECT p.missing FROM person_state p JOIN character c ON "
                         "c.id = p.character_id WHERE c.name = 'Olga Petrova'") == [(1,)]
