"""Players send their aircraft's move plans, with real app
instances on one real campaign file: the GM's ``KaApp`` on the air-battle
screen and two players' ``PlayerApp``s, each with its own connection and the
live watcher (store/watch.py), as separate processes would have.

The flight model is plan, reveal, execute: each player plans his
own aircraft (R-1.2; R-3 … R-10 checked by the engine) and sends it; the GM
sees who has sent, executes the plan (pre-filled) and everyone sees the move.
A player never sees another aircraft's plan (asserted on the rendered text).
The demo battle: turn 1 begun, Blue (Arthur's Tempest, Jeanne's Spitfire)
to move.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Static

from ka_tui.app import KaApp
from ka_tui.player_app import PlayerApp
from ka_tui.screens.air.screen import AirScreen
from ka_tui.screens.player.air_plan import AirPlanPane
from ka_tui.screens.player.screen import PlayerScreen
from tests.ui.pilot_helpers import SIZE, rows, settle, steady_cursors, wait_for

TEMPEST, SPITFIRE = "Tempest KA-A", "Spitfire KA-B"
JEANNES_PLAN = "+2 F F F F F F"   # legal for the Spitfire at speed 4 (R-3.1 thrust)


def text(app: Any) -> str:
    """Everything the current screen's Statics render (hidden ones too)."""
    return "\n".join(str(w.render()) for w in app.screen.query(Static))


def kinds(db: Path) -> list[str]:
    return [k for (k,) in rows(db, "SELECT kind FROM battle_event WHERE battle_id = "
                                   "(SELECT min(id) FROM battle) ORDER BY seq")]


def moves(db: Path) -> list[str]:
    """The first log line of each move (what the GM's engine wrote)."""
    import json

    return [json.loads(p)["log"][0] for (p,) in
            rows(db, "SELECT payload FROM battle_event WHERE kind = 'move_committed' "
                     "ORDER BY id")]


async def battles_pane(pilot: Pilot[Any]) -> AirPlanPane:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, PlayerScreen)
                   and pilot.app.screen.player is not None)
    await pilot.press("4")
    pane = pilot.app.screen.query_one(AirPlanPane)
    await wait_for(pilot, lambda: pane.runner is not None)
    return pane


async def gm_air(pilot: Pilot[Any]) -> AirScreen:
    await settle(pilot)
    await pilot.press("4")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, AirScreen)
                   and pilot.app.screen.runner is not None)
    screen = pilot.app.screen
    assert isinstance(screen, AirScreen)
    return screen


async def test_a_plan_sent_reaches_the_gm_live_is_executed_and_stays_secret(
        demo_db: Path) -> None:
    """Arthur builds his Tempest's plan with the GM's keys and sends it: the
    GM's air screen says "1 of 4 plans in: Arthur" within one second, no key
    pressed there. Jeanne sends hers; Arthur's screens never show it. The GM
    executes Arthur's plan, pre-filled, with g: all three views show the move."""
    gm, arthur, jeanne = KaApp(demo_db), PlayerApp(demo_db, "Arthur"), \
        PlayerApp(demo_db, "Jeanne")
    async with gm.run_test(size=SIZE) as pg, arthur.run_test(size=SIZE) as pa, \
            jeanne.run_test(size=SIZE) as pj:
        air = await gm_air(pg)
        assert "plans in" not in text(gm)   # no player has sent: nothing about plans
        pane_a = await battles_pane(pa)
        pane_j = await battles_pane(pj)
        assert pane_a.can_plan() and pane_a.unit_id == TEMPEST
        assert f"Plan {TEMPEST}'s move" in text(arthur)

        await pa.press("f", "f", "enter")   # too short: the engine's reason, nothing sent
        await pa.pause()
        assert "speed 4 must fly 4 (R-3.1)" in text(arthur)
        assert "plan_sent" not in kinds(demo_db)
        await pa.press("right_square_bracket", "space", "enter")
        await wait_for(pa, lambda: "Sent: F F R F F" in text(arthur))
        sent_at = time.monotonic()
        await wait_for(pg, lambda: "1 of 4 plans in: Arthur" in text(gm), timeout=5)
        assert time.monotonic() - sent_at < 1.0, "the GM saw the plan more than 1 s late"

        await pj.press("p", "plus", "2", "space")   # typed, in the notation
        jeanne.screen.query_one("#plan-cmd", Input).value = JEANNES_PLAN
        await pj.press("enter", "enter")
        await wait_for(pj, lambda: f"Sent: {JEANNES_PLAN}" in text(jeanne))
        await wait_for(pg, lambda: "2 of 4 plans in: Arthur, Jeanne" in text(gm), timeout=2)
        await wait_for(pa, lambda: len(pane_a.runner.battle.events) == 4 if pane_a.runner
                       else False, timeout=2)   # Arthur's view has read her plan_sent …
        for key in ("1", "2", "3", "4"):        # … and no pane of his shows what it is
            await pa.press(key)
            await settle(pa)
            assert JEANNES_PLAN not in text(arthur)
        assert f"{SPITFIRE}: a plan is in" in "\n".join(
            line for ev in pane_a.runner.battle.events for line in ev["log"])

        # the GM moves to the Tempest: its plan is filled from Arthur's; g executes it
        while air.selected() != TEMPEST:
            await pg.press("tab")
        await pg.pause()
        assert air.runner is not None and air.runner.plan_text(TEMPEST) == "F F R F F"
        assert "Arthur's plan (sent): F F R F F · g executes it" in text(gm)
        await pg.press("g")
        await wait_for(pg, lambda: "done and saved: move Tempest KA-A: F F R F F "
                       "(Arthur's plan)" in text(gm))
        await wait_for(pa, lambda: f"{TEMPEST} has moved this turn (R-1.2)" in text(arthur),
                       timeout=2)
        moved_line = moves(demo_db)[-1]
        assert moved_line in text(arthur) and moved_line in text(gm)   # both show the move
        await wait_for(pj, lambda: "1 of" not in text(jeanne) and pane_j.runner is not None
                       and pane_j.runner.unit(TEMPEST).moved, timeout=2)
        assert "[Movement] → Shooting → Heat → End · 1 of 3 plans in" in text(gm)
        await pg.press("right")   # the move's result is held until the cursor moves
        await wait_for(pg, lambda: "1 of 3 plans in: Jeanne; waiting for Kasia, Olga"
                       in text(gm), timeout=2)
        assert JEANNES_PLAN not in text(arthur)
    assert kinds(demo_db)[-3:] == ["plan_sent", "plan_sent", "move_committed"]


async def test_only_the_pilot_sends_and_not_before_the_turn(demo_db: Path) -> None:
    """Sam crews the Beaufighter: he sees the battle, plans nothing. Kasia
    pilots it: Red moves second (R-1.2) but she may plan now."""
    sam, kasia = PlayerApp(demo_db, "Sam"), PlayerApp(demo_db, "Kasia")
    async with sam.run_test(size=SIZE) as ps, kasia.run_test(size=SIZE) as pk:
        pane = await battles_pane(ps)
        assert not pane.can_plan()
        assert "Only Beaufighter KA-C's pilot sends its plan" in text(sam)
        await ps.press("f", "enter")
        assert "plan_sent" not in kinds(demo_db)
        pane_k = await battles_pane(pk)
        assert pane_k.can_plan() and pane_k.unit_id == "Beaufighter KA-C"


async def test_the_plan_status_says_what_to_do_before_it_says_what_is_wrong(
        demo_db: Path) -> None:
    """On arriving, an empty plan is not an error: the status says how to build
    it. A started plan that is not legal yet says why, with the engine's reason
    (R-3.1); a legal one says enter sends it."""
    arthur = PlayerApp(demo_db, "Arthur")
    async with arthur.run_test(size=SIZE) as pa:
        await battles_pane(pa)
        status = str(arthur.screen.query_one("#status").render())
        assert status.startswith("build the plan") and "cannot" not in status
        await pa.press("f")
        await pa.pause()
        status = str(arthur.screen.query_one("#status").render())
        assert status.startswith("not ready to send:") and "must fly 4 (R-3.1)" in status
        await pa.press("space")
        await pa.pause()
        assert str(arthur.screen.query_one("#status").render()).startswith(
            "enter: send the plan")


def test_the_player_plan_pane_snapshot(demo_db: Path, snap_compare: Any) -> None:
    """Pane 4 at 80x24: Jeanne's Spitfire with a plan built (path on the map,
    costs, the R-4 G-load line), before sending."""
    app = PlayerApp(demo_db, "Jeanne")
    app.watch_interval = None

    async def run_before(pilot: Pilot[Any]) -> None:
        pane = await battles_pane(pilot)
        await pilot.press("f", "right_square_bracket", "space")
        await wait_for(pilot, lambda: pane.runner is not None
                       and pane.runner.plan_text(SPITFIRE) == "F R F F F")
        steady_cursors(pilot.app)
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_the_gms_runner_fills_from_sent_plans_and_keeps_his_edits(
        demo_db: Path) -> None:
    """The GM's runner fills an aircraft's plan from the one sent; a reload
    keeps what he changed, unless the player sends a newer plan."""
    from ka_tui.rules.air.move_plan import parse_plan
    from ka_tui.screens.air.runner import Runner
    from ka_tui.store import battles, players
    from ka_tui.store.db import open_campaign

    with open_campaign(demo_db) as db:
        arthur = players.find_player(db, "Arthur")
        mine = players.battles_of(db, arthur)[0]
        players.send_plan(db, arthur, mine, TEMPEST, parse_plan("F F R F F")[0])
        first = Runner(battles.load_battle(db, mine.id).battle)
        assert first.plan_text(TEMPEST) == "F F R F F" and first.plannable(TEMPEST)
        first.set_text(TEMPEST, "F F F F")           # the GM changes it
        again = Runner(battles.load_battle(db, mine.id).battle)
        again.keep_plans(first)
        assert again.plan_text(TEMPEST) == "F F F F"
        players.send_plan(db, arthur, mine, TEMPEST, parse_plan("F F L F F")[0])
        newer = Runner(battles.load_battle(db, mine.id).battle)
        newer.keep_plans(again)
        assert newer.plan_text(TEMPEST) == "F F L F F"   # the newer plan sent wins


async def test_a_gm_step_after_a_plan_he_has_not_seen_is_refused_and_reloads(
        demo_db: Path) -> None:
    """The GM's screen (not watching here, so it stays behind) moves the
    Tempest after Arthur's plan landed: the write is refused with the clear
    message, the screen reloads with Arthur's plan filled in, g executes it."""
    from ka_tui.rules.air.move_plan import parse_plan
    from ka_tui.store import players
    from ka_tui.store.db import open_campaign

    gm = KaApp(demo_db)
    gm.watch_interval = None
    async with gm.run_test(size=SIZE) as pg:
        air = await gm_air(pg)
        with open_campaign(demo_db) as db:   # Arthur's process
            arthur = players.find_player(db, "Arthur")
            players.send_plan(db, arthur, players.battles_of(db, arthur)[0], TEMPEST,
                              parse_plan("F F R F F")[0])
        while air.selected() != TEMPEST:
            await pg.press("tab")
        await pg.press("space", "g")
        await wait_for(pg, lambda: "NOT SAVED" in text(gm))
        await wait_for(pg, lambda: air.runner is not None
                       and air.runner.plan_text(TEMPEST) == "F F R F F")
        await pg.press("g")
        await wait_for(pg, lambda: "(Arthur's plan)" in text(gm))
    assert kinds(demo_db)[-2:] == ["plan_sent", "move_committed"]
