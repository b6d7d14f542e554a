"""A stacked hex in the shooting phase and in the others, through the real
app: the Spitfire (level 3) and the Tempest (level 2) share a hex in front
of the Beaufighter (level 3), Red shooting first (R-1.2). ``enter`` on the
stack aims the selected shooter at it, the one a shot reaches first (the
same level, S0 §Altitude and combat) first, the next on each press; the
shooter stays selected. Where no target is marked, ``enter`` on a stack
selects its aircraft in turn, highest level first, each press naming them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from ka_tui.rules.air.hexgrid import Hex
from ka_tui.screens.air.screen import AirScreen
from ka_tui.widgets.hex_map import HexMap
from tests.ui.pilot_helpers import settle, wait_for
from tests.ui.test_air_battle import BEAU, SPIT, TEMP, goto, make_app, open_air

STACK = (10, 3)


def _seed_stack(db: Path, *, shooting: bool = True) -> None:
    """On the open sea: the Beaufighter (Red) at 10,8 facing N, level 3,
    speed 8 (3 once it decays, R-3.2); the Spitfire (level 3) and the Tempest (level 2) of Blue both at
    10,3. Red wins the initiative (1+1 against 6+6, R-1.1); with ``shooting``
    the Beaufighter flies straight on to 10,5 and Red's movement ends
    (R-1.2: Red moves, then shoots)."""
    from ka_tui.rules.core.dice import ScriptedDice
    from ka_tui.screens.air import data
    from ka_tui.screens.air.runner import Runner
    from ka_tui.store import battles
    from ka_tui.store.db import open_campaign

    with open_campaign(db) as campaign:
        for b in battles.list_battles(campaign):
            if b.open:
                battles.end_battle(campaign, b.id)
        places = {BEAU: ("Red", 10, 8, 0, 3), SPIT: ("Blue", *STACK, 3, 3),
                  TEMP: ("Blue", *STACK, 3, 2)}
        units, aircraft = [], {}
        for c in data.load_candidates(campaign):
            if c.name in places and c.unit is not None:
                side, col, row, facing, level = places[c.name]
                units.append(replace(c.unit, side=side, hex=Hex.from_offset(col, row),
                                     facing=facing, altitude=level, speed=8))
                aircraft[c.name] = c.aircraft_id
        name, text = data.BUILTIN_MAPS[0]
        loaded = data.start_battle(campaign, units, aircraft, data.MapChoice(name, text))
        loaded.battle.begin_turn(ScriptedDice.of([6, 6, 1, 1] + [6] * 30))
        battles.commit(campaign, loaded.battle_id, loaded.battle.events[-1])
        assert loaded.state.active_side == "Red"
        if shooting:
            runner = Runner(loaded.battle)
            runner.plans[BEAU] = runner.straight(BEAU)
            for uid in (BEAU, None):   # its move, then the end of Red's movement
                runner.do(runner.pending(uid), ScriptedDice.of([6] * 30))
                battles.commit(campaign, loaded.battle_id, loaded.battle.events[-1])
            assert SPIT in runner.targets(BEAU) and TEMP not in runner.targets(BEAU)


async def _open(pilot: Pilot[Any]) -> AirScreen:
    screen = await open_air(pilot)
    await wait_for(pilot, lambda: screen.runner is not None)
    await settle(pilot)
    return screen


def _status(screen: AirScreen) -> str:
    return str(screen.query_one("#air-status").render())


async def test_enter_on_a_stack_aims_at_its_target_and_keeps_the_shooter(
        demo_db: Path) -> None:
    _seed_stack(demo_db)
    app, _dice = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot)
        await pilot.press("tab")
        assert screen.selected() == BEAU
        await goto(pilot, *STACK)
        await settle(pilot)
        assert Hex.from_offset(*STACK) in screen.query_one(HexMap).targets   # marked T
        await pilot.press("enter")
        await settle(pilot)
        assert screen.selected() == BEAU                 # the shooter stays
        assert screen.cursor_target() == SPIT            # its level first
        assert f"target: {SPIT} (1 of 2 here)" in _status(screen)
        assert f"{BEAU} at {SPIT}: to hit" in str(
            screen.query_one("#air-detail-text").render())
        await pilot.press("enter")
        await settle(pilot)
        assert screen.selected() == BEAU and screen.cursor_target() == TEMP
        assert f"target: {TEMP} (2 of 2 here)" in _status(screen)
        assert f"{BEAU} cannot shoot {TEMP}" in str(
            screen.query_one("#air-detail-text").render())
        await pilot.press("enter")                       # round again
        await settle(pilot)
        assert screen.selected() == BEAU and screen.cursor_target() == SPIT


async def test_enter_on_a_stack_with_no_target_selects_each_in_turn_highest_first(
        demo_db: Path) -> None:
    """The movement phase (Red moves): no target marks, so enter selects the
    stack's aircraft, the Spitfire (level 3) then the Tempest (level 2), and
    the status lists them with the selected one in ( )."""
    _seed_stack(demo_db, shooting=False)
    app, _dice = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot)
        await goto(pilot, *STACK)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.selected() == SPIT
        assert (f"10,3 highest first: ({SPIT}, Blue, level 3) · {TEMP}, Blue, level 2"
                in _status(screen))
        await pilot.press("enter")
        await settle(pilot)
        assert screen.selected() == TEMP
        assert f"{SPIT}, Blue, level 3 · ({TEMP}, Blue, level 2)" in _status(screen)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.selected() == SPIT


async def test_the_table_dice_list_fills_in_face_by_face(demo_db: Path) -> None:
    """t on the shot at the Spitfire (R-2 to hit, then its firepower): each
    face typed shows in the list at once, and the detail pane is as tall as
    a fresh layout makes it (a face over a "_" lays nothing out again)."""
    _seed_stack(demo_db)
    app, _dice = make_app(demo_db)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open(pilot)
        await pilot.press("tab")
        await goto(pilot, *STACK)
        await pilot.press("enter", "t")
        await settle(pilot)
        pane, text = screen.query_one("#air-detail"), screen.query_one("#air-detail-text")
        for face, shown in (("4", "4 _"), ("space", "4 _"), ("5", "4 5")):
            await pilot.press(face)
            await settle(pilot)
            assert f"{BEAU} to hit {SPIT}" in str(text.render())
            assert shown in str(text.render()), face
            height = pane.region.height
            screen.refresh(layout=True)
            await settle(pilot)
            assert pane.region.height == height, face
