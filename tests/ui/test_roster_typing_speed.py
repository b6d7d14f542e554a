"""No key is lost on the roster, however fast it is typed (``key_scripts.py``):
add a character through the form, edit him, delete another -- played slowly
and in one burst on copies of the demo campaign; both must leave the same
roster (the app's key gate, ``widgets/key_gate.py``: the form's keys wait
for the edit read and the form, the roster's for the save and the read
after it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot

from ka_tui.app import KaApp
from ka_tui.screens.roster.screen import RosterScreen
from tests.ui.key_scripts import KeyScript, same_at_any_speed, typed
from tests.ui.pilot_helpers import wait_for

ROSTER_TABLES = (
    "SELECT id, name, role, strength, armour, notes FROM character ORDER BY id",
    "SELECT character_id, name, kind, number FROM skill ORDER BY id",
)


async def roster_loaded(pilot: Pilot[Any]) -> None:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, RosterScreen)
                   and pilot.app.screen.loaded)


def roster_idle(app: App[Any]) -> bool:
    screen = app.screen
    return not isinstance(screen, RosterScreen) or screen.loaded


ADD_EDIT_DELETE = (
    "a", *typed("Zoe Quill"), "tab", "right", "tab", "5", "ctrl+s",   # a pilot, Strength 5
    "e", "tab", "tab", "backspace", "6", "ctrl+s",                    # Strength 6
    "up", "d", "y",                                                  # Yusuf Karim, above him, goes
)


async def test_add_edit_and_delete_a_character_typed_in_one_go(demo_db: Path,
                                                               tmp_path: Path) -> None:
    script = KeyScript("roster-add-edit-delete", ADD_EDIT_DELETE, KaApp, roster_loaded,
                       ROSTER_TABLES, idle=roster_idle)
    slow = await same_at_any_speed(script, demo_db, tmp_path)
    people = {name: (role, strength) for _, name, role, strength, _, _
              in slow.tables[ROSTER_TABLES[0]]}
    assert people["Zoe Quill"] == ("pilot", 6) and "Yusuf Karim" not in people
