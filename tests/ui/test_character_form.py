"""Character form and the reusable form fields: validation as the user types
(S0 §Skills levels, RULES-NOTES A upgrades per level, R-5 wounds), sub-forms for
skills and weapons, and a store error keeping the form open."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Input

from ka_tui.screens.roster.character_form import CharacterForm, SkillForm, WeaponForm
from ka_tui.store.errors import StoreError, ValidationError
from ka_tui.widgets.form_fields import (
    CheckField,
    ChoiceField,
    FormScreen,
    IntField,
    TextField,
    collect,
    range_error,
    show_errors,
)

SIZE = (80, 24)


class Host(App[None]):
    def __init__(self, screen: Any) -> None:
        super().__init__()
        self.form = screen
        self.result: Any = "not dismissed"

    def on_mount(self) -> None:
        self.push_screen(self.form, self._done)

    def _done(self, result: Any) -> None:
        self.result = result


def test_range_error_messages() -> None:
    assert range_error(7, 0, 6) == "must be 0..6"
    assert range_error(-1, 0, None) == "must be at least 0"
    assert range_error(13, None, 12) == "must be at most 12"
    assert range_error(3, 0, 6) is None


async def test_fields_validate_as_you_type_and_collect() -> None:
    class Form(FormScreen[dict[str, Any]]):
        def compose(self) -> ComposeResult:
            yield TextField("Name", key="name", required=True)
            yield IntField("Wounds", 0, key="wounds", lo=0, hi=6)
            yield IntField("Slot", None, key="slot", lo=1, hi=4, required=False)
            yield ChoiceField("Level", [("Basic", "B"), ("Trained", "T"), ("Expert", "E")],
                              "B", key="level")
            yield CheckField("Firearm", False, key="firearm")

    form = Form()
    app = Host(form)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*"Ann", "tab", "9")
        await pilot.pause()
        assert form.query_one("#field-wounds").error == "must be 0..6"
        await pilot.press("backspace", "6", "tab", "tab", "right", "e")  # Trained, then Expert
        await pilot.press("tab", "space")
        await pilot.pause()
        values, errors = collect(form)
        assert errors == {}
        assert values == {"name": "Ann", "wounds": 6, "slot": None, "level": "E",
                          "firearm": True}
        assert show_errors(form, {"name": "taken", "nowhere": "x"}) == ["nowhere"]
        assert form.query_one("#field-name").error == "taken"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.result == "not dismissed"  # an error is showing: no save
        form.query_one("#input-name", Input).value = "Bea"
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.result["name"] == "Bea"


async def test_skill_form_upgrades_bounded_by_level() -> None:
    """RULES-NOTES A: B <= 1, T <= 2, E <= 1, M <= 1, L <= 4 upgrades."""
    form = SkillForm(None, taken=["Brawl"])
    app = Host(form)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*"Gunnery")
        form.query_one("#input-upgrades", Input).value = "2"
        await pilot.pause()
        assert "at most 1" in form.query_one("#field-upgrades").error
        level = form.query_one("#field-level", ChoiceField)
        level.value = "T"
        await pilot.pause()
        assert form.query_one("#field-upgrades").error == ""
        level.value = "L"  # Legendary follows level L (S0 §Skills)
        await pilot.pause()
        assert form.query_one("#field-legendary", CheckField).value is True
        form.query_one("#input-upgrades", Input).value = "5"
        await pilot.pause()
        assert form.query_one("#field-upgrades").error == "must be 0..4"
        form.query_one("#input-upgrades", Input).value = "4"
        form.query_one("#input-name", Input).value = "brawl"
        await pilot.pause()
        assert form.query_one("#field-name").error == "skill already used"
        form.query_one("#input-name", Input).value = "Gunnery"
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.result == {"name": "Gunnery", "kind": "active", "number": 3, "level": "L",
                          "upgrades": 4, "legendary": True}


async def test_weapon_form_refuses_a_taken_quick_slot() -> None:
    form = WeaponForm({"name": "Knife", "damage": 2, "quick_slot": 2, "id": 7},
                      taken_slots=[1])
    app = Host(form)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        form.query_one("#input-quick_slot", Input).value = "1"
        await pilot.pause()
        assert form.query_one("#field-quick_slot").error == "slot 1 is taken"
        form.query_one("#input-quick_slot", Input).value = ""
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.result["quick_slot"] is None and app.result["id"] == 7


async def test_store_error_keeps_the_form_open_with_the_message() -> None:
    """A full disk (or any store failure) is shown; the form stays and can retry."""
    calls: list[dict[str, Any]] = []

    def write(values: dict[str, Any]) -> int:
        calls.append(values)
        if len(calls) == 1:
            raise StoreError("database or disk is full")
        if len(calls) == 2:
            raise ValidationError("name", "another character has this name")
        return 42

    form = CharacterForm(None, taken_names=[], write=write)
    app = Host(form)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*"Ann")
        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen is form
        assert "disk is full" in str(form.query_one(".form-status").render())
        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen is form
        assert form.query_one("#field-name").error == "another character has this name"
        form.query_one("#input-name", Input).value = "Anne"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert app.result == 42
    assert calls[-1]["name"] == "Anne" and calls[-1]["skills"] == []


async def test_any_failure_of_a_save_is_shown_and_the_form_stays_usable() -> None:
    """Not only StoreError: a bug or an unexpected exception in ``write`` must not
    leave the form stuck on "Saving…"; the message shows and a retry works."""
    calls: list[dict[str, Any]] = []

    def write(values: dict[str, Any]) -> int:
        calls.append(values)
        if len(calls) == 1:
            raise RuntimeError("the disk went away")
        if len(calls) == 2:
            raise KeyError("skills")
        return 7

    form = CharacterForm(None, taken_names=[], write=write)
    app = Host(form)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*"Bo")
        for expected in ("RuntimeError: the disk went away", "KeyError: 'skills'"):
            await pilot.press("ctrl+s")
            await app.workers.wait_for_complete()
            await pilot.pause()
            status = str(form.query_one(".form-status").render())
            assert app.screen is form and not form.saving
            assert "Saving" not in status and expected in status
            assert "Not saved" in status
        await pilot.press("b")  # the form still takes keys
        await pilot.pause()
        assert form.query_one("#input-name", Input).value == "Bob"
        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert app.result == 7
    assert [c["name"] for c in calls] == ["Bo", "Bo", "Bob"]


async def test_invalid_form_is_not_written_whatever_the_keys() -> None:
    """Typing fast (no pause between keys) still leaves the error at the field and
    the save refused: checks per field are immediate (S0 §Skills ranges)."""
    calls: list[dict[str, Any]] = []
    form = CharacterForm(None, taken_names=[], write=lambda v: calls.append(v) or 1)
    app = Host(form)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press(*"Cy", "tab", "tab", "9", "9", "ctrl+s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen is form
        assert form.query_one("#field-strength").error
    assert calls == []
