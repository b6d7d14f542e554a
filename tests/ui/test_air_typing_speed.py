"""No key is lost in an air battle, however fast it is typed: a turn's
first steps played slowly (settled after every key) and in one burst on
copies of the demo campaign with the same battle seeded; both must leave the
same battle log and screen (``key_scripts.py``). Each step is saved as it is
done (the screen's write queue, ``screens/air/io.py``); the keys typed
meanwhile wait in the app's key gate (``widgets/key_gate.py``).

R-1.1 initiative (Red 6+6 against Blue 1+1), then Red's aircraft fly
straight ahead (R-3.1), one move undone and flown again (R-1.2), the end
of Red's movement; the Il-2 stalls at the start of the turn (R-3.2). The
same turn typed from the roster behind ``4``, the switch to the mode.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot

from ka_tui.screens.air.screen import AirScreen
from ka_tui.screens.roster.screen import RosterScreen
from tests.ui.key_scripts import KeyScript, same_at_any_speed
from tests.ui.pilot_helpers import wait_for
from tests.ui.test_air_battle import BEAU, IL2, SPIT, TEMP, make_app, open_air, seed_battle

BATTLE_TABLES = (
    "SELECT battle_id, seq, kind, payload FROM battle_event ORDER BY battle_id, seq",
    "SELECT id, name, status FROM battle ORDER BY id",
)


def air_app(db: Path) -> App[Any]:
    seed_battle(db)
    app, dice = make_app(db)
    dice.queue = [6, 6, 1, 1]  # Red 6+6, Blue 1+1
    return app


async def the_seeded_battle(pilot: Pilot[Any]) -> None:
    screen = await open_air(pilot)
    await wait_for(pilot, lambda: screen.runner is not None)


async def the_roster(pilot: Pilot[Any]) -> None:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, RosterScreen)
                   and pilot.app.screen.loaded)


def air_idle(app: App[Any]) -> bool:
    """No step of the screen's own on its way to the file."""
    screen = app.screen
    return not isinstance(screen, AirScreen) or not screen._writing


TURN = (
    "g",                 # the turn starts: initiative, the stall checks
    "space", "g",        # Red: the Beaufighter flies straight ahead (the Il-2 is next)
    "u", "y",            # its move undone (the undo asks first)
    "space", "g",        # the Il-2 (stalled, speed 0) stays
    "f", "f", "f", "g",  # the Beaufighter flies F F F, built key by key
    "g", "x",            # the end of Red's movement; Red does not shoot
    "space", "g",        # Blue: the Spitfire, then the Tempest, straight ahead
    "space", "g",
    "g",                 # the end of Blue's movement
)


async def test_a_turn_with_an_undo_typed_in_one_go(demo_db: Path, tmp_path: Path) -> None:
    """R-1.1, R-1.2, R-3.1: a turn's movement with an undo, typed slowly and
    in one burst: the same battle log, the same screen."""
    script = KeyScript("air-turn", TURN, air_app, the_seeded_battle, BATTLE_TABLES,
                       idle=air_idle)
    slow = await same_at_any_speed(script, demo_db, tmp_path)
    newest = slow.tables[BATTLE_TABLES[1]][-1][0]
    log = [(kind, json.loads(payload)) for battle, _, kind, payload
           in slow.tables[BATTLE_TABLES[0]] if battle == newest]
    assert [kind for kind, _ in log] == [
        "battle_started", "turn_started", "move_committed", "move_committed", "phase_ended",
        "phase_ended", "move_committed", "move_committed", "phase_ended"]
    moved = [event["data"]["unit"] for kind, event in log if kind == "move_committed"]
    assert moved == [IL2, BEAU, SPIT, TEMP]


async def test_the_mode_and_the_turn_typed_in_one_go_from_the_roster(
        demo_db: Path, tmp_path: Path) -> None:
    """``4`` from the roster, then the turn: the air screen takes every key
    typed after the switch, once it shows the battle it resumes."""
    script = KeyScript("air-from-roster", ("4", *TURN), air_app, the_roster, BATTLE_TABLES,
                       idle=air_idle)
    slow = await same_at_any_speed(script, demo_db, tmp_path)
    newest = slow.tables[BATTLE_TABLES[1]][-1][0]
    kinds = [kind for battle, _, kind, _ in slow.tables[BATTLE_TABLES[0]] if battle == newest]
    assert kinds.count("move_committed") == 4 and kinds[-1] == "phase_ended"
