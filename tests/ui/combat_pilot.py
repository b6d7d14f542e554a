"""Driving the close-combat screen through Pilot (the real app on a real
campaign file): open it, start a fight, type keys and wait for their work,
read what a pane shows. The faces below are the demo fighters' (see
tests/store/test_fights.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from ka_tui.app import KaApp
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.screens.combat.screen import CombatScreen
from tests.ui.pilot_helpers import rows, settle

SIZE = (80, 24)
# S0 §1: Mike's 4d12 Combat Initiative @5, then the other's Active Agility
# test, 2d8 (house rule cqc.agility_test).
INIT = [10, 10, 10, 10, 2, 2]
# S0 §4: Mike's 3d12+1d20 beat the other's 2d10 (which fail).
MIKE_WINS = [8, 8, 8, 8, 2, 2]
ROUND1 = MIKE_WINS + [2, 12]  # Olga's saves: fail (-4), a 12 saves
ROUND2 = MIKE_WINS + [3, 3]   # fail, fail: 6 -> 0, out (RULES-NOTES B)


def kinds(db: Path) -> list[str]:
    return [k for (k,) in rows(db, "SELECT kind FROM fight_event ORDER BY seq")]


def make_app(db: Path, faces: list[int] | None = None) -> KaApp:
    app = KaApp(db)
    if faces is not None:
        app.combat_dice = ScriptedDice.of(faces)  # type: ignore[attr-defined]
    return app


async def open_combat(pilot: Pilot[Any]) -> CombatScreen:
    await settle(pilot)
    await pilot.press("3")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, CombatScreen) and screen.loaded
    return screen


async def new_fight(pilot: Pilot[Any], *pairs: tuple[str, str]) -> CombatScreen:
    """n, then pick each pair by name in the setup list, then ctrl+s."""
    await pilot.press("n")
    await settle(pilot)
    people = pilot.app.screen.query_one(OptionList)
    names = [str(people.get_option_at_index(i).prompt) for i in range(people.option_count)]
    for pair in pairs:
        for name in pair:
            people.highlighted = next(i for i, n in enumerate(names) if n.startswith(name))
            await pilot.press("enter")
    await pilot.press("ctrl+s")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, CombatScreen)
    return screen


async def keys(pilot: Pilot[Any], *presses: str) -> None:
    await pilot.press(*presses)
    await settle(pilot)


def text_of(screen: CombatScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def mike_vs(pilot: Pilot[Any], other: str) -> CombatScreen:
    screen = await open_combat(pilot)
    screen = await new_fight(pilot, ("Mike Dunn", other))
    assert screen.view_step == 1
    await keys(pilot, "r")  # S0 §1 with the scripted INIT faces
    assert screen.view_step == 2
    return screen


def footer_keys(screen: Any) -> set[str]:
    """Binding ids the footer shows now (check_action truthy, show=True)."""
    return {b.binding.id for b in screen.active_bindings.values()
            if b.binding.show and b.enabled and b.binding.id}


async def two_rounds_to_the_end(pilot: Pilot[Any]) -> CombatScreen:
    """Mike vs Olga: round 1 Mike's two Basic Attacks (Sten gun; S0 §2.2: each
    lands once, a save each) and Disarm, Olga a Basic Feint (her TT pistol
    chosen, but no Attack carries it); round 2 Mike attacks twice again, Olga
    feints; she is out; enter ends the fight."""
    screen = await mike_vs(pilot, "Olga Petrova")
    await keys(pilot, "a", "b", "b", "s", "b", "w", "enter")
    await keys(pilot, "f", "b", "w", "enter", "v", "r", "enter", "enter")
    await keys(pilot, "a", "b", "b", "enter", "f", "b", "enter", "v", "r", "enter")
    assert screen.progress is not None and screen.progress.over
    await keys(pilot, "enter")
    assert screen.progress is not None and screen.progress.ended
    return screen
