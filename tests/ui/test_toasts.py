"""Toasts at 80x24: the whole message shows, wrapped, as plain text (names
with brackets in them are names, not styles)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Static

from ka_tui.app import KaApp
from tests.ui.key_scripts import screen_text
from tests.ui.pilot_helpers import SIZE, commit_sql, rows, wait_for
from tests.ui.roster_pilot import roster


def _toasts(app: Any) -> list[str]:
    return [" ".join(str(toast.render()).split()) for toast in app.screen.query("Toast")
            if isinstance(toast, Static)]


def _on_screen(app: Any) -> str:
    """The terminal's text with the toasts' wrapping undone (the toast column)."""
    return " ".join(line.split("▌", 1)[1] for line in screen_text(app).splitlines()
                    if "▌" in line)


async def test_a_long_toast_shows_its_last_word_at_80x24(demo_db: Path) -> None:
    said = ("aircraft: Tempest KA-A flies “Escort the Mitchell” that day; Spitfire KA-B "
            "is damaged (1/3 hull), repair 1 day; Il-2 KA-D is under repair, ready in "
            "3 days; Meteor KA-F has no pilot aboard")
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await roster(pilot)
        app.notify(said, title="Not done", severity="warning")
        await wait_for(pilot, lambda: "aboard" in screen_text(app))
        assert f"Not done {said}" in " ".join(_on_screen(app).split())


async def test_a_copied_name_with_brackets_is_said_whole(demo_db: Path) -> None:
    commit_sql(demo_db, "UPDATE character SET name = 'Arthur [KA-A] Hale' "
                        "WHERE name = 'Arthur Hale'")
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await roster(pilot)
        await pilot.press("c")
        await wait_for(pilot, lambda: any("Copied as" in t for t in _toasts(app)))
        copy = rows(demo_db, "SELECT name FROM character WHERE name LIKE 'Arthur [KA-A] Hale%' "
                             "AND name != 'Arthur [KA-A] Hale'")[0][0]
        assert f"Copied as {copy}." in _toasts(app)
        assert f"Copied as {copy}." in " ".join(_on_screen(app).split())


async def test_a_closing_tag_in_a_name_leaves_the_app_running(demo_db: Path) -> None:
    commit_sql(demo_db, "UPDATE character SET name = 'Arthur [/b] Hale' "
                        "WHERE name = 'Arthur Hale'")
    app = KaApp(demo_db)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await roster(pilot)
        await pilot.press("c")
        await wait_for(pilot, lambda: "Copied as Arthur [/b] Hale" in _on_screen(app))
        assert app.is_running
