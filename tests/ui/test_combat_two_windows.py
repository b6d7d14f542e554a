"""Two windows on one fight, with two real app
instances on one real SQLite file: a step taken on a stale screen is refused
with a message, that window reloads, and the fight stays readable to the end.
A fight already damaged that way (``tests/fixtures/two-windows-fight.db``, the
demo campaign holding the very log the bug wrote) opens, names its first bad
event, and ``u`` undoes back to before it.

Rules: S0 §Close combat steps 1-6 (one card per fighter and round, cards
before the reveal, one roll and one resolution per round), DESIGN.md "Fights
and battles as a log of events".
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

from ka_tui.app import KaApp
from ka_tui.rules.core.dice import RandomDice, ScriptedDice
from ka_tui.screens.combat.screen import CombatScreen
from ka_tui.store.db import open_campaign
from ka_tui.store.fights import load_progress
from tests.ui.pilot_helpers import rows, settle

SIZE = (80, 24)
FIXTURE = Path(__file__).parent.parent / "fixtures" / "two-windows-fight.db"
# S0 §1 faces the fixture's window A rolled: Jeanne Moreau (Agility d12) first.
INIT = [5, 1, 10, 7, 4]
STALE = "Another window changed this fight"


class ThenRandom:
    """Given faces first, then seeded random ones (the table rolls on)."""

    def __init__(self, faces: list[int], seed: int) -> None:
        self.first = ScriptedDice.of(faces)
        self.rest = RandomDice(seed)

    def roll(self, sides: int) -> int:
        return self.first.roll(sides) if self.first.faces else self.rest.roll(sides)


def window(db: Path, faces: list[int], seed: int) -> KaApp:
    app = KaApp(db)
    app.combat_dice = ThenRandom(faces, seed)  # type: ignore[attr-defined]
    # every view is live; these windows stay stale on purpose, as
    # when a step is taken in the second before the other window's change shows
    app.watch_interval = None
    return app


async def keys(pilot: Pilot[Any], *presses: str) -> CombatScreen:
    await pilot.press(*presses)
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, CombatScreen)
    return screen


def status(screen: CombatScreen) -> str:
    return str(screen.query_one("#status", Static).render())


def kinds(db: Path) -> list[str]:
    return [k for (k,) in rows(db, "SELECT kind FROM fight_event ORDER BY seq")]


def last_seq(db: Path) -> int:
    return int(rows(db, "SELECT max(seq) FROM fight_event")[0][0])


async def test_two_windows_on_one_fight_refuse_the_late_step_and_reload(demo_db: Path) -> None:
    """The key sequence a GM with two windows typed, on windows A and B. Each late step is
    refused (nothing written, a message naming the other window) and the
    late window shows the fight as the file holds it; the log replays at
    every point and holds one card per fighter and round."""
    a, b = window(demo_db, INIT, 1), window(demo_db, [], 2)
    async with a.run_test(size=SIZE) as pa, b.run_test(size=SIZE) as pb:
        await settle(pa)
        await settle(pb)
        await keys(pa, "3")
        await pa.press("n")
        await settle(pa)
        people = pa.app.screen.query_one("OptionList")
        names = [str(people.get_option_at_index(i).prompt)  # type: ignore[attr-defined]
                 for i in range(people.option_count)]  # type: ignore[attr-defined]
        for name in ("Jeanne Moreau", "Mike Dunn"):
            people.highlighted = next(  # type: ignore[attr-defined]
                i for i, n in enumerate(names) if n.startswith(name))
            await pa.press("enter")
        await pa.press("ctrl+s")
        await settle(pa)
        sa = await keys(pa, "r")
        assert sa.view_step == 2 and kinds(demo_db) == ["fight_started", "initiative"]
        sb = await keys(pb, "3")
        assert sb.view_step == 2 and sb.progress is not None and sb.progress.seq == 2

        await keys(pa, "a", "D", "d", "D", "enter")        # A: Jeanne's card
        assert kinds(demo_db)[-1] == "card_entered" and last_seq(demo_db) == 3

        sb = await keys(pb, "e", "S", "enter")             # B: Jeanne's card again: late
        assert STALE in status(sb) and "(now round 1, step 2)" in status(sb)
        assert last_seq(demo_db) == 3                      # nothing written
        assert sb.progress is not None and sb.progress.seq == 3  # reloaded
        assert sb.progress.to_enter == (sb.progress.fight.order[1],)

        sb = await keys(pb, "a", "b", "enter")             # B: Mike's card (now current)
        sb = await keys(pb, "v", "r", "enter")             # reveal, roll, resolve
        assert sb.view_step == 6 and last_seq(demo_db) == 7

        sa = await keys(pa, "d", "b", "enter")             # A: Mike's card again: late
        assert STALE in status(sa) and "(now round 1, step 6)" in status(sa)
        assert last_seq(demo_db) == 7 and sa.view_step == 6
        await keys(pa, "enter", "v", "r")                  # A: on to round 2
        await keys(pb, "enter")                            # B: on to round 2
        await keys(pa, "enter")                            # A: round 2's first card
        seq = last_seq(demo_db)
        sb = await keys(pb, "enter")                       # B: the same card: late
        assert STALE in status(sb)
        assert last_seq(demo_db) == seq

        with open_campaign(demo_db) as db:                 # a third window reads it all
            p = load_progress(db, 1)
    assert not p.broken and p.seq == last_seq(demo_db)
    cards = rows(demo_db, "SELECT json_extract(payload, '$.round'), "
                          "json_extract(payload, '$.owner') FROM fight_event "
                          "WHERE kind = 'card_entered'")
    assert len(cards) == len(set(cards))                   # one card per fighter and round
    assert kinds(demo_db).count("dice_rolled") == kinds(demo_db).count("round_resolved") + (
        1 if p.rolled is not None else 0)


async def test_a_fight_damaged_by_two_windows_names_its_first_bad_event_and_undoes(
        tmp_path: Path) -> None:
    """The damaged log (two cards for Jeanne in round 1, event 4) opens at
    the state before it, names event 4, and u drops events 4 to 15: the fight
    goes on from Mike's card."""
    db_file = tmp_path / "two-windows-fight.db"
    shutil.copyfile(FIXTURE, db_file)
    assert last_seq(db_file) == 15
    app = KaApp(db_file)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await keys(pilot, "3")
        assert screen.progress is not None and screen.progress.broken_seq == 4
        assert "event 4 (card_entered) cannot be replayed" in status(screen)
        assert "already in" in status(screen)
        screen = await keys(pilot, "u", "y")
        assert last_seq(db_file) == 3
        p = screen.progress
        assert p is not None and not p.broken and p.step == 2 and p.seq == 3
        assert [p.fight.fighter(f).name for f in p.to_enter] == ["Mike Dunn"]
