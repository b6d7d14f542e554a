"""House-rule settings: absurd values are refused by the rules, every option has
a human name and a rule, and the opposed table is edited as a table that refuses
absurd rows (RULES-NOTES A)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from ka_tui.app import KaApp
from ka_tui.rules.core.options import HouseRules
from ka_tui.screens.settings import SettingsScreen, TableForm, options_of
from tests.ui.pilot_helpers import rows, settle
from tests.ui.test_roller import (
    SIZE,
)


def test_absurd_values_are_refused_by_the_rules() -> None:
    """``skills.opposed_table = 0: 99999999999999999999`` used to be saved."""
    import pytest

    for section, name, value, part in (
            ("skills", "opposed_table", {"0": 99999999999999999999}, "1 to 40"),
            ("cqc", "default_ap", 10 ** 12, "0 to 30"),
            ("air", "firepower_hit_on", 7, "1 to 6"),
            ("air", "hit_locations", {"13": "cockpit"}, "2 to 12"),
            ("air", "range_band_mods", [0] * 11, "1 to 10 numbers"),
            ("air", "weather", "x" * 61, "at most 60")):
        with pytest.raises(ValueError) as err:
            HouseRules.from_dict({section: {name: value}})
        assert part in str(err.value)
    HouseRules.from_dict(HouseRules().to_dict())  # every default within its bounds


def test_every_option_has_a_human_name_and_a_rule() -> None:
    options = options_of(HouseRules())
    by_key = {o.key: o for o in options}
    assert by_key["cqc.loser_defence_blocks_and_retains"].title == \
        "Loser's Defence blocks and retains"
    assert by_key["cqc.loser_defence_blocks_and_retains"].refs == "S0 §2.2 Defence"
    assert by_key["air.long_range_mod"].refs == "RULES-NOTES D"  # its group's
    assert all("_" not in o.title for o in options)
    assert all(o.refs for o in options)


async def test_opposed_table_edited_as_a_table_refuses_absurd_rows(
        demo_db: Path) -> None:
    """The table is a table (one row per skill difference); the absurd value
    of the night is refused at the field and nothing is saved."""
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        assert str(screen.query_one("#options").get_row_at(1)[0]).startswith(
            " Opposed test")
        await pilot.press("down", "e")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, TableForm) and len(form.rows) == 41
        form.query_one("#cells").move_cursor(row=20)  # difference 0
        await pilot.press("enter")
        await pilot.pause()
        form.query_one("#cell-input", Input).value = "99999999999999999999"
        await pilot.press("enter")
        await pilot.pause()
        assert "must be 1 to 40" in form.error and form.rows[20] == ("0", "7")
        await pilot.press("escape", "escape")  # leave the field, then the table
        await pilot.pause()
        assert app.screen is screen and screen.values == screen.saved
    assert "opposed_table" not in rows(demo_db, "SELECT house_rules FROM campaign")[0][0]

