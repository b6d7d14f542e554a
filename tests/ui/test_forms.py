"""The forms: keys typed quickly after opening a form, Passive skills without
level or upgrades (S0 §Skills "Skill types"), escape asks before throwing a
changed form away, tab goes down columns and the focused field is marked. Real app, demo campaign in a real SQLite file."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual import events
from textual.widgets import DataTable, Input, TabbedContent

from ka_tui.app import KaApp
from ka_tui.screens.roster.character_form import CharacterForm, SkillForm
from ka_tui.screens.roster.screen import RosterScreen
from ka_tui.textual_compat.app_state import send_as_driver
from ka_tui.widgets.form_fields import DiscardScreen, FormField
from tests.ui.pilot_helpers import SIZE, rows, settle, wait_for


async def _roster(pilot: Any) -> RosterScreen:
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, RosterScreen)
    return screen


async def test_keys_right_after_opening_go_to_the_shown_tab(demo_db: Path) -> None:
    """#1: ``e``, ``ctrl+t``, ``a`` 0.3 s apart: the ``a`` adds a skill on the
    Skills tab; the hidden Name field is untouched."""
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await _roster(pilot)
        send_as_driver(app, events.Key("e", "e"))
        while not isinstance(app.screen, CharacterForm):  # pushed, still opening
            await asyncio.sleep(0.001)
        # as a terminal sends them: not waiting for the form to settle
        send_as_driver(app, events.Key("ctrl+t", None))
        await asyncio.sleep(0.05)
        send_as_driver(app, events.Key("a", "a"))
        await settle(pilot)
        form = next(s for s in app.screen_stack if isinstance(s, CharacterForm))
        name = form.query_one("#input-name", Input).value
        assert name == form.character["name"]
        assert form.query_one(TabbedContent).active == "tab-skills"
        assert isinstance(app.screen, SkillForm)


async def test_tab_goes_down_the_first_column_then_the_second(demo_db: Path) -> None:
    """#20: Strength, Agility, Endurance… then Weapons base, Tech base…"""
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await _roster(pilot)
        await pilot.press("a")
        await settle(pilot)
        order = []
        for _ in range(12):
            await pilot.press("tab")
            await pilot.pause()
            node: Any = app.focused
            while node is not None and not isinstance(node, FormField):
                node = node.parent
            order.append(node.key if node else None)
        assert order[:11] == ["role", "strength", "agility", "endurance", "resistance",
                              "armour", "ap", "k_points", "k_points_max", "wounds",
                              "base_weapons"]


async def test_the_focused_field_label_is_reversed(demo_db: Path) -> None:
    """#20: visible without colour (NO_COLOR, 16 colours): the label is reversed."""
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await _roster(pilot)
        await pilot.press("a")
        await settle(pilot)
        name = app.screen.query_one("#field-name", FormField)
        role = app.screen.query_one("#field-role", FormField)
        assert name.render().spans[0].style.reverse  # type: ignore[union-attr]
        assert not role.render().spans[0].style.reverse  # type: ignore[union-attr]


async def test_escape_asks_before_discarding_a_changed_form(demo_db: Path) -> None:
    """#10: an unchanged form closes at once; a changed one asks; ``n`` keeps it,
    ``y`` throws it away; ctrl+s still saves at once."""
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await _roster(pilot)
        await pilot.press("a")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, RosterScreen)
        await pilot.press("a")
        await settle(pilot)
        await pilot.press(*"Zed")
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, DiscardScreen)
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, CharacterForm)
        assert app.screen.query_one("#input-name", Input).value == "Zed"
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, RosterScreen)
        assert rows(demo_db, "SELECT id FROM character WHERE name = 'Zed'") == []
        await pilot.press("a")
        await settle(pilot)
        await pilot.press(*"Zed", "ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, RosterScreen))
    assert len(rows(demo_db, "SELECT id FROM character WHERE name = 'Zed'")) == 1


async def test_passive_skill_form_has_no_level_or_upgrades(demo_db: Path) -> None:
    """#7 (S0 §Skills): choosing Passive hides Level, Upgrades and Legendary and
    stores B/0; the skills table shows the bonus, not a pool."""
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await _roster(pilot)
        await pilot.press("e")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, CharacterForm)
        await pilot.press("ctrl+t")
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        skill = app.screen
        assert isinstance(skill, SkillForm)
        await pilot.press(*"Stoic", "tab", "p")  # kind: Passive
        await settle(pilot)
        for key in ("level", "upgrades", "legendary"):
            assert not skill.query_one(f"#field-{key}").display
        await pilot.press("tab", "2")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form, [(f.key, f.value, f.error) for f in skill.form_fields()]
        stoic = next(s for s in form.skills if s["name"] == "Stoic")
        assert (stoic["kind"], stoic["level"], stoic["upgrades"]) == ("passive", "B", 0)
        table = form.query_one("#skills-table", DataTable)
        row = table.get_row("Stoic")
        assert row[3] == "-" and row[5] == f"+{stoic['number']} to d12"
