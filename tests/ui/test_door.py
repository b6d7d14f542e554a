"""The one door from a screen to the app (``ka_tui/screens/door.py``)
and its "campaign changed" signal, through the real app and a real file.

Rules cited: RULES-NOTES A ``crit_fail_rule`` (S0 §Skills: a 1 is a critical
fail unless negated; the softer house rule fails only when every die shows 1),
S0 §Close combat 4 (the odds of the opposed round).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import DataTable

from ka_tui.app import KaApp
from ka_tui.rules.core.dice import RecordingDice, ScriptedDice
from ka_tui.rules.core.odds import percent, unopposed_odds
from ka_tui.rules.core.options import CritFailRule, HouseRules, SkillOptions
from ka_tui.rules.core.skill_tests import TestResult, unopposed_test
from ka_tui.rules.cqc import round_odds
from ka_tui.screens.combat.screen import CombatScreen
from ka_tui.screens.door import CampaignChanged, Change, Door, NoDoor, door
from ka_tui.screens.roller.screen import TYPED, RollerScreen
from ka_tui.screens.settings import SettingsScreen
from ka_tui.widgets.dice_panel import OddsView
from tests.ui.pilot_helpers import SIZE, rows, settle
from tests.ui.test_combat import INIT, keys, new_fight, text_of
from tests.ui.test_roller import CLOCK, choose, type_into

POOL, NUMBER = (10, 10, 10), 7
FACES = [8, 1, 1]  # the issue's faces: two 1s the 8 cannot negate


def _expected(rule: CritFailRule) -> TestResult:
    result = unopposed_test(POOL, NUMBER, RecordingDice(ScriptedDice.of(FACES)),
                            SkillOptions(crit_fail_rule=rule))
    assert isinstance(result, TestResult)
    return result


def test_the_two_rules_disagree_on_the_issues_faces() -> None:
    """RULES-NOTES A: under ``seed`` the two 1s fail the test, under
    ``all_ones`` the 8 passes it -- so the test below can tell them apart."""
    seed, soft = _expected(CritFailRule.SEED), _expected(CritFailRule.ALL_ONES)
    assert seed.passed != soft.passed


def test_kaapp_is_the_door() -> None:
    app = KaApp(None, ascii_glyphs=True)
    assert isinstance(app, Door)
    assert app.dice("roller") is app.dice("roller")  # one random source per mode
    assert app.dice("roller") is not app.dice("combat")
    app.clock = lambda: CLOCK
    assert app.now() == CLOCK and app.roller_clock is not None


async def test_a_screen_in_another_app_is_told_there_is_no_door() -> None:
    class Host(App[None]):
        pass

    async with Host().run_test(size=SIZE) as pilot:
        try:
            door(pilot.app.screen)
        except NoDoor as error:
            assert "not a ka-tui app" in str(error)
        else:
            raise AssertionError("a plain app passed for the door")


async def test_the_signal_reaches_a_mode_that_is_not_shown(demo_db: Path) -> None:
    """A change published while another mode is on top reaches the roller."""
    app = KaApp(demo_db)
    app.clock = lambda: CLOCK
    seen: list[CampaignChanged] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        roller = pilot.app.screen
        app.on_campaign_changed(roller, seen.append)
        await pilot.press("1")
        await settle(pilot)
        app.campaign_changed(CampaignChanged(Change.ROLLS, None))
        await settle(pilot)
    assert seen == [CampaignChanged(Change.ROLLS, None)]


async def _flip_crit_fail_rule(pilot: Pilot[Any], rule: CritFailRule) -> None:
    """``s``, on ``skills.crit_fail_rule`` ``space`` (seed -> all_ones),
    ``ctrl+s``, ``escape``."""
    await pilot.press("s")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, SettingsScreen) and screen.loaded
    table = screen.query_one(DataTable)
    table.move_cursor(row=[o.key for o in screen.options].index("skills.crit_fail_rule"))
    await pilot.pause()
    await pilot.press("space")
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert screen.saved["skills"]["crit_fail_rule"] == rule.value
    await pilot.press("escape")
    await settle(pilot)


async def test_a_saved_house_rule_reaches_the_open_roller_and_close_combat(
        demo_db: Path) -> None:
    """A bug once seen: roller and close combat open, ``s``, change
    ``skills.crit_fail_rule`` (RULES-NOTES A), ``ctrl+s``; the roller's next
    odds and result, and the next fight's odds, follow the new rule."""
    app = KaApp(demo_db)
    app.clock = lambda: CLOCK
    app.combat_dice = ScriptedDice.of(INIT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("3")                       # close combat open
        await settle(pilot)
        combat = pilot.app.screen
        assert isinstance(combat, CombatScreen) and combat.loaded
        await pilot.press("2")                       # the roller open
        await settle(pilot)
        roller = pilot.app.screen
        assert isinstance(roller, RollerScreen) and roller.loaded
        await choose(pilot, roller, "who", TYPED)
        await type_into(pilot, roller, "pool_a", "3d10 @7")
        old = unopposed_odds(POOL, NUMBER, SkillOptions())
        assert f"pass {percent(old.p_pass)}" in roller.query_one(OddsView).lines[0]

        await _flip_crit_fail_rule(pilot, CritFailRule.ALL_ONES)

        await pilot.press("f2")
        await settle(pilot)
        assert pilot.app.screen is roller
        assert roller.data.options.crit_fail_rule is CritFailRule.ALL_ONES
        new = unopposed_odds(POOL, NUMBER, SkillOptions(crit_fail_rule=CritFailRule.ALL_ONES))
        assert new.p_pass != old.p_pass
        assert roller.query_one(OddsView).lines[0].endswith(f"pass {percent(new.p_pass)}")
        await type_into(pilot, roller, "faces", " ".join(map(str, FACES)))
        await pilot.press("enter")
        await settle(pilot)
        soft = _expected(CritFailRule.ALL_ONES)
        result = roller.last_result
        assert isinstance(result, TestResult)
        assert (result.passed, result.successes) == (soft.passed, soft.successes)
        [(logged,)] = rows(demo_db, "SELECT result FROM roll_log")
        assert logged.startswith("PASS" if soft.passed else "FAIL")

        await pilot.press("f3")                      # the close combat already open
        await settle(pilot)
        assert pilot.app.screen is combat
        combat = await new_fight(pilot, ("Mike Dunn", "Jeanne Moreau"))
        await keys(pilot, "r")                       # S0 §1 order
        await keys(pilot, "f", "b", "enter")         # Mike: Basic Feint
        await keys(pilot, "d", "b", "enter")         # Jeanne: Basic Defence
        await keys(pilot, "v")                       # S0 §3 reveal: the odds of §4
        progress = combat.progress
        assert progress is not None and combat.view_step == 4
        assert progress.rules.skills.crit_fail_rule is CritFailRule.ALL_ONES
        a, b = progress.fight.order
        soft_odds = round_odds(progress.fight, a, b, progress.rules)
        seed_odds = round_odds(progress.fight, a, b, HouseRules())
        assert soft_odds.p_a_crit_fail != seed_odds.p_a_crit_fail
        info = text_of(combat, "#info")
        assert f"{percent(soft_odds.p_a_crit_fail)}, " in info
