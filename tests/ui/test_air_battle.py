"""The air-battle screen through the real app and a real SQLite file.

One short battle played with the keyboard over the demo roster on the coast
map: two aircraft a side; the Il-2 stalls at the start of the turn (R-3.2)
and lands on the strip (R-10); the Beaufighter flies a half-roll (R-9); the
Tempest hits it with a critical, its faces typed from the table's dice
(RULES-NOTES D); the Spitfire rams it (R-7); then the heat (R-1.4) and end
phases (R-1.4, R-5). The database is checked after each phase. Also: quit and
resume mid-turn, undo a move and a shot, refusals at the field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, OptionList

from ka_tui.app import KaApp
from ka_tui.rules.air.hexgrid import Hex
from ka_tui.screens.air.screen import AirScreen
from ka_tui.screens.air.runner import Runner
from ka_tui.widgets.hex_map import HexMap
from tests.ui.pilot_helpers import SIZE, rows, settle, wait_for


class QueueDice:
    """The faces in ``queue`` first, then ``default`` (never above the die)."""

    def __init__(self, default: int = 6) -> None:
        self.queue: list[int] = []
        self.default = default

    def roll(self, sides: int) -> int:
        return self.queue.pop(0) if self.queue else min(self.default, sides)


BEAU, IL2, SPIT, TEMP = "Beaufighter KA-C", "Il-2 KA-D", "Spitfire KA-B", "Tempest KA-A"

# (aircraft, side key, col, row, facing presses "]", level presses "d", speed presses "-")
PLACES = {BEAU: (12, 2, 0, 1, 0), IL2: (14, 11, 3, 1, 1),
          SPIT: (12, 9, 0, 1, 0), TEMP: (12, 12, 0, 1, 0)}
SIDE_KEY = {BEAU: "2", IL2: "2", SPIT: "1", TEMP: "1"}


def make_app(db: Path) -> tuple[KaApp, QueueDice]:
    app = KaApp(db)
    dice = QueueDice()
    app.air_dice = dice  # type: ignore[attr-defined]
    return app, dice


NEWEST = "(SELECT max(id) FROM battle)"


def events(db: Path) -> list[tuple[str, dict[str, Any]]]:
    """The newest battle's events (the demo's own battle is older)."""
    return [(k, json.loads(p)) for k, p in
            rows(db, f"SELECT kind, payload FROM battle_event WHERE battle_id = {NEWEST} "
                 "ORDER BY seq")]


def kinds(db: Path) -> list[str]:
    return [k for k, _ in events(db)]


async def open_air(pilot: Pilot[Any]) -> AirScreen:
    await settle(pilot)
    await pilot.press("4")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, AirScreen)
    return screen


async def goto(pilot: Pilot[Any], col: int, row: int) -> None:
    hex_map = pilot.app.screen.query_one(HexMap)
    c, r = hex_map.cursor.to_offset()
    keys = (["right"] * (col - c) + ["left"] * (c - col)
            + ["down"] * (row - r) + ["up"] * (r - row))
    if keys:
        await pilot.press(*keys)
    await pilot.pause()
    assert hex_map.cursor == Hex.from_offset(col, row)


async def select(pilot: Pilot[Any], uid: str) -> None:
    screen = pilot.app.screen
    assert isinstance(screen, AirScreen)
    for _ in range(8):
        if screen.selected() == uid:
            return
        await pilot.press("tab")
        await pilot.pause()
    assert screen.selected() == uid


async def end_demo_battle(pilot: Pilot[Any], screen: AirScreen) -> None:
    """The mode opens on the demo's battle in progress; E ends it (its
    aircraft are busy while it is open)."""
    await wait_for(pilot, lambda: screen.runner is not None)
    assert screen.loaded is not None and screen.loaded.name == "Exercise: Blue vs Red"
    await pilot.press("E")
    await settle(pilot)
    await pilot.press("y")
    await settle(pilot)
    await wait_for(pilot, lambda: screen.runner is None)
    assert "outcome written" in str(screen.query_one("#air-status").render())


async def setup_battle(pilot: Pilot[Any]) -> AirScreen:
    """n: sides from the roster (Meteor refused: no pilot), the coast map,
    then each aircraft placed with the keys."""
    screen = await open_air(pilot)
    await end_demo_battle(pilot, screen)
    await pilot.press("n")
    await settle(pilot)
    options = pilot.app.screen.query_one(OptionList)
    names = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    for i, text in enumerate(names):
        options.highlighted = i
        await pilot.pause()
        if "Meteor" in text:
            await pilot.press("1")
            status = str(pilot.app.screen.query_one("#air-setup-status").render())
            assert "refused: Meteor KA-F has no pilot seated" in status
            continue
        for name, key in SIDE_KEY.items():
            if name in text:
                await pilot.press(key)
    await pilot.press("m", "m", "ctrl+s")
    await settle(pilot)
    assert screen.placement is not None
    for _ in range(4):
        uid = screen.placement.current.id
        col, row, turns, down, slower = PLACES[uid]
        await goto(pilot, col, row)
        await pilot.press(*(["right_square_bracket"] * turns), *(["d"] * down),
                          *(["minus"] * slower), "g")
        await settle(pilot)
    await wait_for(pilot, lambda: screen.runner is not None)
    return screen


async def test_a_short_battle_through_the_keyboard(demo_db: Path) -> None:
    """R-1.1 initiative, R-3.2 stall, R-9 half-roll, R-10 landing, RULES-NOTES D
    shot with a critical (table dice), R-7 ram, R-1.4 heat and end phase."""
    app, dice = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await setup_battle(pilot)
        assert kinds(demo_db) == ["battle_started"]
        start = events(demo_db)[0][1]["data"]
        assert [u["id"] for u in start["units"]] == [BEAU, IL2, SPIT, TEMP]
        assert rows(demo_db, f"SELECT status FROM battle WHERE id = {NEWEST}") == [("open",)]
        runner = screen.runner
        assert runner is not None

        # Initiative: Red 6+6, Blue 1+1; the Il-2 (speed 5 -> 0) stalls and passes.
        dice.queue = [6, 6, 1, 1]
        await pilot.press("g")
        await settle(pilot)
        assert kinds(demo_db)[-1] == "turn_started"
        log = "\n".join(events(demo_db)[-1][1]["log"])
        assert "Il-2 KA-D stalls" in log and "initiative order: Red, Blue" in log
        assert runner.unit(IL2).altitude == 1  # type: ignore[union-attr]

        # Red moves: the Beaufighter half-rolls (m), flies the rest straight.
        await select(pilot, BEAU)
        await pilot.press("m")
        await settle(pilot)
        figures = pilot.app.screen.query_one(OptionList)
        figures.highlighted = next(i for i in range(figures.option_count)
                                   if "Half-roll" in str(figures.get_option_at_index(i).prompt))
        await pilot.press("enter", "space")
        await settle(pilot)
        detail = str(screen.query_one("#air-detail-text").render())
        assert "Half-roll" in detail and "%" in detail   # the check and its odds, before rolling
        await pilot.press("g")
        await settle(pilot)
        moved = events(demo_db)[-1][1]["data"]
        assert moved["unit"] == BEAU
        assert moved["plan"][0] == {"step": "Figure", "kind": "half_roll"}
        # The Il-2 lands on the strip (L, g): R-10.
        await select(pilot, IL2)
        await pilot.press("L", "g")
        await settle(pilot)
        assert runner.unit(IL2).landed  # type: ignore[union-attr]
        await pilot.press("g")          # end of Red's movement
        await settle(pilot)
        assert events(demo_db)[-1][1]["data"] == {"phase": "movement"}
        await pilot.press("x")          # Red does not shoot
        await settle(pilot)

        await blue_flies_straight(pilot)   # both straight ahead (space, g)
        assert kinds(demo_db).count("move_committed") == 4
        assert runner.unit(SPIT).hex == runner.unit(BEAU).hex  # type: ignore[union-attr]

        # Blue shoots: the Tempest at the Beaufighter, faces typed (t).
        await select(pilot, TEMP)
        col, row = runner.unit(BEAU).hex.to_offset()  # type: ignore[union-attr]
        await goto(pilot, col, row)
        detail = str(screen.query_one("#air-detail-text").render())
        assert "to hit" in detail and "a critical" in detail and "destroyed" in detail
        await pilot.press("t")
        await pilot.pause()
        step = screen.dice_step
        assert step is not None
        # Every die names its roll, whose it is, its target and odds (RULES-NOTES 3).
        status = str(screen.query_one("#air-status").render())
        assert f"{TEMP} to hit {BEAU} (R-2): die 1 of 2, a d6" in status
        detail = str(screen.query_one("#air-detail-text").render())
        assert "Table dice for" in detail and f"{TEMP} firepower" in detail and "%" in detail
        assert f"{TEMP} to hit {BEAU} (R-2): die 1 of 2, a d6 — 2d6 vs" in status
        assert status.rstrip().endswith("%")
        await pilot.press("6", "space", "6", "space")
        await pilot.pause()
        assert f"{TEMP} firepower" in str(screen.query_one("#air-status").render())
        # A filled roll keeps its name and faces only, so the one being typed
        # stays in the pane's view at 80x24.
        detail = str(screen.query_one("#air-detail-text").render())
        assert f"✓ {TEMP} to hit {BEAU} (R-2): 6 6" in detail
        assert f"▸ {TEMP} firepower" in detail
        await pilot.press(*["backspace"] * 4)
        faces = [6, 6, 6, 1, 1, 1, 1]     # to hit; Firepower 4d6 (one critical); Evasion 1d6
        while (sides := runner.needs(step, faces)) is not None:
            faces.append(min(3, sides))
        await pilot.press("9")            # a d6 cannot show 9: refused at the field
        assert "not a face of a d6" in str(screen.query_one("#air-status").render())
        await pilot.press("backspace", "x")  # not a number: refused at the field
        assert "'x' is not a face" in str(screen.query_one("#air-status").render())
        await pilot.press("backspace")
        keys: list[str] = []
        for f in faces:
            keys += [str(f), "space"]
        await pilot.press(*keys)
        await pilot.pause()
        assert screen.query_one("#air-cmd", Input).value.split() == [str(f) for f in faces]
        assert "enough faces" in str(screen.query_one("#air-status").render())
        await pilot.press("enter")
        await settle(pilot)
        kind, shot = events(demo_db)[-1]
        assert kind == "shot_resolved"
        assert [f for _, f in shot["faces"]] == faces
        assert any("1 critical(s)" in line for line in shot["log"])
        # The Spitfire rams it (R): R-7.
        await select(pilot, SPIT)
        await goto(pilot, col, row)
        await pilot.press("R")          # R-7 preview first: target, odds, hits, rolls
        await settle(pilot)
        assert kinds(demo_db)[-1] == "shot_resolved"
        detail = str(screen.query_one("#air-detail-text").render())
        assert f"ram {BEAU} (R-7)" in detail and "%" in detail
        assert f"{SPIT} rams {BEAU} (R-7): 2d6 vs" in detail and "on a success" in detail
        await pilot.press("t")          # the table's dice name the ram's roll
        await pilot.pause()
        assert f"{SPIT} rams {BEAU} (R-7): die 1 of 2" in \
            str(screen.query_one("#air-status").render())
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("R")
        await settle(pilot)
        assert kinds(demo_db)[-1] == "ram_resolved"
        await pilot.press("x")
        await settle(pilot)
        assert events(demo_db)[-1][1]["data"] == {"phase": "shooting"}

        # Heat and end phase.
        await pilot.press("g")
        await settle(pilot)
        assert events(demo_db)[-1][1]["data"] == {"phase": "heat"}
        await pilot.press("g")
        await settle(pilot)
        kind, end = events(demo_db)[-1]
        assert end["data"] == {"phase": "end"}
        assert any(line.startswith(f"{TEMP}: ") and "fuel" in line for line in end["log"])
        detail = str(screen.query_one("#air-detail-text").render())
        assert "end phase of turn 1" in detail

        # End the battle: the outcome goes back to the campaign.
        await pilot.press("E")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert rows(demo_db, f"SELECT status FROM battle WHERE id = {NEWEST}") == [("ended",)]
        assert kinds(demo_db)[-1] == "battle_ended"
        fuel = rows(demo_db, "SELECT fuel_left FROM aircraft WHERE name = ?", TEMP)[0][0]
        assert fuel == runner.unit(TEMP).fuel  # type: ignore[union-attr]


def seed_battle(db: Path) -> int:
    """The same four aircraft placed as above, started through the store (the
    screen resumes the newest open battle by default)."""
    from dataclasses import replace

    from ka_tui.screens.air import data
    from ka_tui.screens.air.setup import SIDES
    from ka_tui.store import battles
    from ka_tui.store.db import open_campaign

    campaign = open_campaign(db)
    try:
        for b in battles.list_battles(campaign):
            if b.open:
                battles.end_battle(campaign, b.id)
        units = []
        aircraft = {}
        for c in data.load_candidates(campaign):
            if c.name not in PLACES:
                continue
            assert c.unit is not None
            col, row, turns, down, slower = PLACES[c.name]
            side = SIDES[int(SIDE_KEY[c.name]) - 1]
            facing = ((0 if side == "Blue" else 3) + turns) % 6
            units.append(replace(c.unit, side=side, hex=Hex.from_offset(col, row), facing=facing,
                                 altitude=c.unit.altitude - down,
                                 speed=c.unit.speed - slower))
            aircraft[c.name] = c.aircraft_id
        name, text = data.BUILTIN_MAPS[1]
        loaded = data.start_battle(campaign, units, aircraft, data.MapChoice(name, text))
        return loaded.battle_id
    finally:
        campaign.close()


async def test_quit_and_resume_mid_turn(demo_db: Path) -> None:
    """DESIGN.md: every step is saved as it is done; a restart replays the log
    (rules/air/battle.replay) and the turn goes on where it was (R-1.2)."""
    seed_battle(demo_db)
    app, dice = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_air(pilot)
        await wait_for(pilot, lambda: screen.runner is not None)
        dice.queue = [6, 6, 1, 1]
        await pilot.press("g")
        await settle(pilot)
        await select(pilot, BEAU)
        await pilot.press("f", "f")           # a plan half built is not saved
        await pilot.press("space", "g")
        await settle(pilot)
        before = screen.runner.state      # type: ignore[union-attr]
    assert kinds(demo_db) == ["battle_started", "turn_started", "move_committed"]
    app2, _ = make_app(demo_db)
    async with app2.run_test(size=SIZE) as pilot:
        screen = await open_air(pilot)
        await wait_for(pilot, lambda: screen.runner is not None)
        runner = screen.runner
        assert runner is not None
        assert runner.state == before
        assert runner.next().units == (IL2,)
        assert "Red moves: Il-2 KA-D" in str(screen.query_one("#air-next").render())
        # The log pane, filtered: every roll with its breakdown (R-3.2 stall check).
        await pilot.press("o")
        await pilot.press(*"stall")
        await pilot.pause()
        shown = str(screen.query_one("#air-log").render()).splitlines()
        assert shown and all("stall" in line.lower() for line in shown)
        assert any("2d6 6+6 = 12 vs" in line for line in shown)
        await pilot.press("escape", "o")
        assert screen.query_one("#air-main").display


async def blue_first(pilot: Pilot[Any], dice: Any) -> tuple[AirScreen, Runner]:
    """The seeded battle open, turn 1's initiative rolled with Blue first."""
    screen = await open_air(pilot)
    await wait_for(pilot, lambda: screen.runner is not None)
    runner = screen.runner
    assert runner is not None
    dice.queue = [1, 1, 6, 6]
    await pilot.press("g")
    await settle(pilot)
    return screen, runner


async def blue_flies_straight(pilot: Pilot[Any]) -> None:
    """Both Blue aircraft fly straight ahead (space, g), then Blue's movement ends."""
    for uid in (SPIT, TEMP):
        await select(pilot, uid)
        await pilot.press("space", "g")
        await settle(pilot)
    await pilot.press("g")
    await settle(pilot)


async def test_undo_a_move_and_a_shot(demo_db: Path) -> None:
    """u drops the last step from the campaign and replays the rest (R-1.2:
    the aircraft moves again; the shot is gone with its damage)."""
    seed_battle(demo_db)
    app, dice = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen, runner = await blue_first(pilot, dice)
        await select(pilot, SPIT)
        await pilot.press("space", "g")
        await settle(pilot)
        assert kinds(demo_db)[-1] == "move_committed"
        moved_to = runner.unit(SPIT).hex       # type: ignore[union-attr]
        await pilot.press("u")                 # asks first, in words; n keeps it
        await settle(pilot)
        asked = str(pilot.app.screen.query_one(".confirm-question").render())
        assert f"Undo the last step: {SPIT} flies" in asked and "seq" not in asked
        await pilot.press("n")
        await settle(pilot)
        assert kinds(demo_db)[-1] == "move_committed"
        await pilot.press("u")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert kinds(demo_db)[-1] == "turn_started"
        assert not runner.unit(SPIT).moved     # type: ignore[union-attr]
        assert f"undone: {SPIT} flies" in str(screen.query_one("#air-detail-text").render())
        await pilot.press("y")                 # y right after puts it back, same move
        await settle(pilot)
        assert kinds(demo_db)[-1] == "move_committed"
        assert runner.unit(SPIT).hex == moved_to  # type: ignore[union-attr]
        await pilot.press("u")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert kinds(demo_db)[-1] == "turn_started"
        await blue_flies_straight(pilot)
        await select(pilot, TEMP)
        col, row = runner.unit(SPIT).hex.to_offset()  # type: ignore[union-attr]
        target = next((u for u in runner.state.units if u.side == "Red"), None)
        assert target is not None
        hull = target.hull_left
        await goto(pilot, *runner.unit(BEAU).hex.to_offset())  # type: ignore[union-attr]
        dice.queue = [6, 6, 6, 6, 6, 6, 1]
        await pilot.press("g")
        await settle(pilot)
        assert kinds(demo_db)[-1] == "shot_resolved"
        assert runner.unit(BEAU).hull_left < hull  # type: ignore[union-attr]
        await pilot.press("u")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert kinds(demo_db)[-1] == "phase_ended"
        assert runner.unit(BEAU).hull_left == hull  # type: ignore[union-attr]
        assert not runner.unit(TEMP).shot      # type: ignore[union-attr]
        assert f"undone: {TEMP} " in str(screen.query_one("#air-status").render())


async def test_undo_selects_who_acts_again(demo_db: Path) -> None:
    """After an undo, the side that acts again has its aircraft selected (R-1.2),
    as after any step: a plan typed next goes to an aircraft that may fly."""
    seed_battle(demo_db)
    app, dice = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen, _runner = await blue_first(pilot, dice)
        await blue_flies_straight(pilot)
        await pilot.press("x")                 # end of Blue's shooting: Red moves
        await settle(pilot)
        assert screen.selected() in (BEAU, IL2)
        await pilot.press("u")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert kinds(demo_db)[-1] == "phase_ended"   # back in Blue's shooting
        assert screen.selected() in (SPIT, TEMP)
        assert "undone: Blue: shooting ends" in str(screen.query_one("#air-detail-text").render())


async def test_an_illegal_plan_is_refused_with_the_engines_reason(demo_db: Path) -> None:
    """R-3.1: a plan that does not fly the speed is refused, nothing written."""
    seed_battle(demo_db)
    app, dice = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_air(pilot)
        await wait_for(pilot, lambda: screen.runner is not None)
        dice.queue = [6, 6, 1, 1]
        await pilot.press("g")
        await settle(pilot)
        await select(pilot, BEAU)
        await pilot.press("f", "g")
        await settle(pilot)
        status = str(screen.query_one("#air-status").render())
        assert "plan refused" in status and "must fly" in status
        assert kinds(demo_db) == ["battle_started", "turn_started"]
        await pilot.press("p")                 # the plan so far, in the notation
        assert screen.query_one("#air-cmd", Input).value == "F"
        await pilot.press("space", "Q")
        await pilot.pause()
        assert "'Q' is not a step" in str(screen.query_one("#air-status").render())
        await pilot.press("backspace", "backspace")
        await pilot.pause()
        await pilot.press("space", "R", "space", "2", "F")
        await pilot.pause()
        assert screen.runner is not None and screen.runner.plan_text(BEAU) == "F R F F"
        detail = str(screen.query_one("#air-detail-text").render())
        assert "R-3.4" in detail or "turn needs" in detail


async def test_setup_edits_a_map_and_saves_it_in_the_campaign(demo_db: Path) -> None:
    """Maps: e at setup opens the map editor; ctrl+s there stores the
    map in the campaign (a built-in map as a new one) and setup flies over it."""
    app, _ = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_air(pilot)
        await end_demo_battle(pilot, screen)
        from ka_tui.screens.air.setup import AirSetupScreen
        from ka_tui.screens.map_editor import MapEditorScreen

        await pilot.press("n")
        await settle(pilot)
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, AirSetupScreen))
        await pilot.press("m", "e")            # the built-in "Open sea"
        await settle(pilot)
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, MapEditorScreen))
        await pilot.press("3", "ctrl+s")       # a hill of height 3 at the cursor
        await settle(pilot)
        await wait_for(pilot, lambda: "map saved" in str(
            pilot.app.screen.query_one("#air-setup-status").render()))
        names = [n for (n,) in rows(demo_db, "SELECT name FROM battle_map ORDER BY id")]
        assert names == ["Channel coast", "Open sea 24x14 (1)"]
        text = rows(demo_db, "SELECT text FROM battle_map WHERE name = ?", names[1])[0][0]
        from ka_tui.rules.air.battle_map import parse_map

        assert sorted(t.height for t in parse_map(text).terrain.values())[-2:] == [0, 3]
        assert "map: Open sea 24x14 (1)" in str(
            pilot.app.screen.query_one("#air-setup-status").render())


async def test_a_step_written_meanwhile_by_another_window_is_not_overwritten(
        demo_db: Path) -> None:
    """The one event log: each write names the position it expects;
    when another window wrote first, the screen says so and reloads that state."""
    from ka_tui.rules.core.dice import ScriptedDice
    from ka_tui.store import battles
    from ka_tui.store.db import open_campaign

    battle_id = seed_battle(demo_db)
    app, dice = make_app(demo_db)
    app.watch_interval = None  # a screen that has not seen the other write yet
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_air(pilot)
        await wait_for(pilot, lambda: screen.runner is not None)
        other = open_campaign(demo_db)
        try:
            loaded = battles.load_battle(other, battle_id)
            loaded.battle.begin_turn(ScriptedDice.of([1, 1, 6, 6, 6, 6]))
            battles.commit(other, battle_id, loaded.battle.events[-1])
        finally:
            other.close()
        dice.queue = [6, 6, 1, 1]
        await pilot.press("g")
        await settle(pilot)
        await wait_for(pilot, lambda: screen.runner is not None
                       and screen.runner.state.order == ("Blue", "Red"))
        assert "NOT SAVED" in str(screen.query_one("#air-status").render())
        assert kinds(demo_db) == ["battle_started", "turn_started"]
        assert events(demo_db)[-1][1]["faces"][:4] == [[6, 1], [6, 1], [6, 6], [6, 6]]
