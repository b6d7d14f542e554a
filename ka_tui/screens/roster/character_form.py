"""Add / edit a character: scalar fields, skills and weapons, in one modal.

Three tabs (ctrl+t cycles): *Character* (name, role, characteristics, AP,
K-points, wounds, air ratings, the five Base skills — S0 §Skills), *Skills*
and *Weapons* (tables with a/e/d for add, edit, delete through sub-forms).
Every field validates as the user types with the store's ranges
(``ka_tui/store/limits.py``); the whole character is written by one
``write(values)`` call (one transaction) supplied by the caller.

``values`` handed to ``write``: the character's fields by model name, plus
``"skills"`` and ``"weapons"``: lists of dicts (model field names; ``id`` kept
for rows that already exist).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Static, TabbedContent, TabPane

from ka_tui.screens.roster.view import pool_text
from ka_tui.store.errors import ValidationError
from ka_tui.store.field_checks import character_errors, skill_errors, weapon_errors
from ka_tui.store.limits import (
    BASE_SKILLS,
    CHARACTER_RANGES,
    LEVEL_NAMES,
    LEVELS,
    NAME_MAX,
    QUICK_SLOTS,
    ROLES,
    SKILL_KINDS,
    SKILL_RANGES,
    TEXT_MAX,
    WEAPON_RANGES,
)
from ka_tui.widgets.form_fields import (
    CheckField,
    ChoiceField,
    FormField,
    FormScreen,
    IntField,
    TabbedFormScreen,
    TextField,
)
from ka_tui.widgets.form_tabs import FormTabs
from ka_tui.widgets.quiet_footer import QuietFooter

Values = dict[str, Any]


def unique_name_check(taken: Collection[str], what: str = "name") -> Callable[[Any], str | None]:
    """A field check: ``value`` must not be one of ``taken`` (case-insensitive)."""
    lowered = {t.casefold() for t in taken}

    def check(value: Any) -> str | None:
        if isinstance(value, str) and value.strip().casefold() in lowered:
            return f"{what} already used"
        return None
    return check


def store_errors(errors: list[ValidationError]) -> dict[str, str]:
    """The store's check results as {field: first message}."""
    out: dict[str, str] = {}
    for e in errors:
        out.setdefault(e.field, e.message)
    return out


def skill_cross_errors(values: Values) -> dict[str, str]:
    """RULES-NOTES A: upgrades bounded by the level's maximum; Legendary exactly at L
    (the store's ``skill_errors``, so the form and the database agree)."""
    return store_errors(skill_errors(values))


class SkillForm(FormScreen[Values]):
    """Sub-form for one skill (S0 §Skills); returns its values, writes nothing."""

    HELP_TITLE = "Skill form"
    DRAWN_FIELDS = True
    QUIET_OPEN = True
    ASK_BEFORE_DISCARD = True

    CSS_PATH = "character_form.tcss"

    def __init__(self, skill: Values | None, taken: Collection[str]) -> None:
        super().__init__()
        self.skill = dict(skill or {})
        self.taken = taken

    def compose(self) -> ComposeResult:
        s = self.skill
        with Vertical(classes="form-box") as box:
            box.border_title = "Edit skill" if s.get("name") else "New skill"
            yield TextField("Name", s.get("name", ""), key="name", required=True,
                            max_length=NAME_MAX, check=unique_name_check(self.taken, "skill"))
            yield ChoiceField("Kind", [(k.capitalize(), k) for k in SKILL_KINDS],
                              s.get("kind", "active"), key="kind")
            lo, hi = SKILL_RANGES["number"]
            yield IntField("Number", s.get("number", 3), key="number", lo=lo, hi=hi)
            yield ChoiceField("Level", [(f"{k} {LEVEL_NAMES[k]}", k) for k in LEVELS],
                              s.get("level", "B"), key="level")
            lo, hi = SKILL_RANGES["upgrades"]
            yield IntField("Upgrades", s.get("upgrades", 0), key="upgrades", lo=lo, hi=hi)
            yield CheckField("Legendary", bool(s.get("legendary", False)), key="legendary")
            yield Static("", classes="form-status")
        yield QuietFooter()

    def on_mount(self) -> None:
        self._show_kind(self.query_one("#field-kind", ChoiceField).value)

    _PASSIVE_HIDDEN = ("#field-level", "#field-upgrades", "#field-legendary")

    def _show_kind(self, kind: str) -> None:
        """S0 §Skills: a Passive skill adds its number to a d12 Base or
        characteristic roll; it has no level, no upgrades."""
        passive = kind == "passive"
        for selector in self._PASSIVE_HIDDEN:
            self.query_one(selector).set_class(passive, "-passive-hidden")
        number = self.query_one("#field-number", IntField)
        number.label = "Bonus (+d12)" if passive else "Number"
        number.refresh()
        if passive:
            level = self.query_one("#field-level", ChoiceField)
            if level.value != "B":
                level.value = "B"
            upgrades = self.query_one("#field-upgrades", IntField)
            if upgrades.value != 0:
                upgrades.set_text("0")

    def cross_errors(self, values: Values) -> dict[str, str]:
        return skill_cross_errors(values)

    def on_form_field_changed(self, event: FormField.Changed) -> None:
        if event.key == "kind":
            self._show_kind(event.field.value)
        if event.key == "level":
            legendary = self.query_one("#field-legendary", CheckField)
            if legendary.value != (event.field.value == "L"):
                legendary.value = event.field.value == "L"  # posts its own Changed
        super().on_form_field_changed(event)

    def dismiss(self, result: Values | None = None) -> Any:
        if result is not None and "id" in self.skill:
            result = {**result, "id": self.skill["id"]}
        return super().dismiss(result)


class WeaponForm(FormScreen[Values]):
    """Sub-form for one weapon (S0 §Close combat: quick slots, damage, firearm)."""

    HELP_TITLE = "Weapon form"
    DRAWN_FIELDS = True
    QUIET_OPEN = True
    ASK_BEFORE_DISCARD = True

    def __init__(self, weapon: Values | None, taken_slots: Collection[int]) -> None:
        super().__init__()
        self.weapon = dict(weapon or {})
        self.taken_slots = set(taken_slots)

    def compose(self) -> ComposeResult:
        w = self.weapon
        with Vertical(classes="form-box") as box:
            box.border_title = "Edit weapon" if w.get("name") else "New weapon"
            yield TextField("Name", w.get("name", ""), key="name", required=True,
                            max_length=NAME_MAX)
            lo, hi = WEAPON_RANGES["damage"]
            yield IntField("Damage", w.get("damage", 1), key="damage", lo=lo, hi=hi)
            yield CheckField("Firearm", bool(w.get("is_firearm", False)), key="is_firearm")
            lo, hi = WEAPON_RANGES["quick_slot"]
            yield IntField("Quick slot", w.get("quick_slot"), key="quick_slot", lo=lo, hi=hi,
                           required=False, check=self._slot_free)
            yield TextField("Notes", w.get("notes", ""), key="notes", max_length=TEXT_MAX)
            yield Static(f"Quick slot: 1..{QUICK_SLOTS} or empty (carried, not at hand).",
                         classes="form-status")
        yield QuietFooter()

    def cross_errors(self, values: Values) -> dict[str, str]:
        return store_errors(weapon_errors(values))

    def _slot_free(self, value: Any) -> str | None:
        if value is not None and value in self.taken_slots:
            return f"slot {value} is taken"
        return None

    def dismiss(self, result: Values | None = None) -> Any:
        if result is not None and "id" in self.weapon:
            result = {**result, "id": self.weapon["id"]}
        return super().dismiss(result)


_LEFT = ("strength", "agility", "endurance", "resistance", "armour", "ap",
         "k_points", "k_points_max", "wounds")
_LABELS = {
    "strength": "Strength", "agility": "Agility", "endurance": "Endurance",
    "resistance": "Resistance", "armour": "Armour", "ap": "AP pool",
    "k_points": "K-points", "k_points_max": "K-points max", "wounds": "Wounds",
    "piloting": "Piloting 2d6", "gunnery": "Gunnery 2d6",
    "base_weapons": "Weapons base", "base_tech": "Tech base",
    "base_survival": "Survival base", "base_communication": "Comms base",
    "base_psy": "Psy base",
}
_RIGHT = tuple(f"base_{b}" for b in BASE_SKILLS) + ("piloting", "gunnery")


class CharacterForm(TabbedFormScreen[Any]):
    """The character add/edit modal. ``write(values)`` stores it (see module doc)."""

    HELP_TITLE = "Character form"
    DRAWN_FIELDS = True
    QUIET_OPEN = True
    ASK_BEFORE_DISCARD = True

    TAB_ORDER = ("tab-main", "tab-skills", "tab-weapons")  # ctrl+t cycles them
    # Focus the first field as the form composes, not later: keys typed before the
    # form finished opening then go to it in order.
    AUTO_FOCUS = "#input-name"

    BINDINGS = [
        # priority: run by the app before the next key is routed
        Binding("ctrl+t", "next_tab", "Next tab", id="character_form.next_tab",
                priority=True),
        Binding("a", "add_row", "Add", id="character_form.add"),
        Binding("e", "edit_row", "Edit", id="character_form.edit"),
        Binding("d,delete", "delete_row", "Delete", id="character_form.delete"),
    ]

    CSS_PATH = "character_form.tcss"

    def __init__(self, character: Values | None, *, taken_names: Collection[str],
                 write: Callable[[Values], Any], default_ap: int = 6) -> None:
        super().__init__()
        self.character = dict(character or {})
        self.taken_names = taken_names
        self.write = write
        self.default_ap = default_ap
        self.skills: list[Values] = [dict(s) for s in self.character.get("skills", [])]
        self.weapons: list[Values] = [dict(w) for w in self.character.get("weapons", [])]

    def compose(self) -> ComposeResult:
        c = self.character
        with Vertical(classes="form-box") as box:
            box.border_title = f"Edit {c['name']}" if c.get("name") else "New character"
            with FormTabs(id="character-tabs"):
                with TabPane("Character", id="tab-main"):
                    yield TextField("Name", c.get("name", ""), key="name", required=True,
                                    max_length=NAME_MAX,
                                    check=unique_name_check(self.taken_names))
                    yield ChoiceField("Role", [(r.capitalize(), r) for r in ROLES],
                                      c.get("role", "ground"), key="role")
                    # Two columns, tab goes DOWN each one.
                    with Horizontal(classes="form-columns"):
                        with Vertical(classes="form-column"):
                            for key in _LEFT:
                                yield self._int_field(key)
                        with Vertical(classes="form-column"):
                            for key in _RIGHT:
                                yield self._int_field(key)
                            yield CheckField("Conscious", bool(c.get("conscious", True)),
                                             key="conscious")
                    yield TextField("Notes", c.get("notes", ""), key="notes",
                                    max_length=TEXT_MAX)
                # Built when first shown (ensure_pane): the first view is the
                # Character tab, and a form opens faster without them.
                yield TabPane("Skills", id="tab-skills")
                yield TabPane("Weapons", id="tab-weapons")
            yield Static("", classes="form-status")
        yield QuietFooter()

    def _int_field(self, key: str) -> IntField:
        lo, hi = CHARACTER_RANGES[key]
        defaults = {"ap": self.default_ap, "k_points": 10, "k_points_max": 10, "wounds": 0,
                    "armour": 0, "piloting": 6, "gunnery": 6}
        value = self.character.get(key, defaults.get(key, 3))
        return IntField(_LABELS[key], value, key=key, lo=lo, hi=hi)

    _TABLES = {"tab-skills": ("skills-table", ("Skill", "Kind", "No", "Level", "Upg", "Pool")),
               "tab-weapons": ("weapons-table",
                               ("Weapon", "Damage", "Firearm", "Slot", "Notes"))}

    async def ensure_pane(self, pane_id: str) -> None:
        """Mount the Skills or Weapons table the first time its tab is shown."""
        if pane_id not in self._TABLES or self.query(f"#{self._TABLES[pane_id][0]}"):
            return
        table_id, columns = self._TABLES[pane_id]
        table: DataTable[str] = DataTable(id=table_id, cursor_type="row", zebra_stripes=True)
        await self.query_one(f"#{pane_id}", TabPane).mount(
            table, Static("a add  e/enter edit  d delete  (kept when you save)",
                          classes="form-hint"))
        table.add_columns(*columns)
        self._fill_tables()

    def _fill_tables(self) -> None:
        if self.query("#skills-table"):
            self._fill_skills()
        if self.query("#weapons-table"):
            self._fill_weapons()

    def _fill_skills(self) -> None:
        skills = self.query_one("#skills-table", DataTable)
        row = skills.cursor_row
        skills.clear()
        for s in sorted(self.skills, key=lambda s: s["name"].casefold()):
            if s["kind"] == "passive":  # S0 §Skills: a bonus on a d12 roll, no level
                skills.add_row(s["name"], s["kind"], str(s["number"]), "-", "-",
                               f"+{s['number']} to d12", key=s["name"])
                continue
            level = s["level"] + (" Leg" if s.get("legendary") else "")
            skills.add_row(s["name"], s["kind"], str(s["number"]), level,
                           str(s["upgrades"]),
                           pool_text(s["level"], s["upgrades"]),
                           key=s["name"])
        if self.skills:
            skills.move_cursor(row=min(row, len(self.skills) - 1))

    def _fill_weapons(self) -> None:
        weapons = self.query_one("#weapons-table", DataTable)
        row = weapons.cursor_row
        weapons.clear()
        for i, w in enumerate(self.weapons):
            weapons.add_row(w["name"], str(w["damage"]), "yes" if w.get("is_firearm") else "no",
                            "-" if w.get("quick_slot") is None else str(w["quick_slot"]),
                            (w.get("notes") or "")[:20], key=str(i))
        if self.weapons:
            weapons.move_cursor(row=min(row, len(self.weapons) - 1))

    def cross_errors(self, values: Values) -> dict[str, str]:
        """K-points within the maximum, six wounds is death (R-5): the store's checks."""
        return store_errors(character_errors(values))

    def values_extra(self) -> Values:
        return {"skills": self.skills, "weapons": self.weapons}

    def values(self) -> tuple[Values, dict[str, str]]:
        values, errors = super().values()
        values["skills"] = [dict(s) for s in self.skills]
        values["weapons"] = [dict(w) for w in self.weapons]
        if "id" in self.character:
            values["id"] = self.character["id"]
        return values, errors

    # -- tabs and the skill / weapon tables ----------------------------------

    def _active_tab(self) -> str:
        return self.query_one(TabbedContent).active

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("add_row", "edit_row", "delete_row"):
            return self._active_tab() in ("tab-skills", "tab-weapons")
        return True

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_edit_row()

    async def on_tabbed_content_tab_activated(self,
                                              event: TabbedContent.TabActivated) -> None:
        self.refresh_bindings()
        if event.pane.id in ("tab-skills", "tab-weapons"):
            await self.ensure_pane(event.pane.id)
            self.set_focus(event.pane.query_one(DataTable))

    def _selected(self, table_id: str) -> int | None:
        table = self.query_one(table_id, DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        if table_id == "#skills-table":
            return next(i for i, s in enumerate(self.skills) if s["name"] == key)
        return int(key or 0)

    def action_add_row(self) -> None:
        if self._active_tab() == "tab-skills":
            taken = [s["name"] for s in self.skills]
            self.app.push_screen(SkillForm(None, taken), self._skill_done(None))
        elif self._active_tab() == "tab-weapons":
            slots = [w["quick_slot"] for w in self.weapons if w.get("quick_slot") is not None]
            self.app.push_screen(WeaponForm(None, slots), self._weapon_done(None))

    def action_edit_row(self) -> None:
        if self._active_tab() == "tab-skills":
            i = self._selected("#skills-table")
            if i is None:
                return self.action_add_row()
            taken = [s["name"] for j, s in enumerate(self.skills) if j != i]
            self.app.push_screen(SkillForm(self.skills[i], taken), self._skill_done(i))
        elif self._active_tab() == "tab-weapons":
            i = self._selected("#weapons-table")
            if i is None:
                return self.action_add_row()
            slots = [w["quick_slot"] for j, w in enumerate(self.weapons)
                     if j != i and w.get("quick_slot") is not None]
            self.app.push_screen(WeaponForm(self.weapons[i], slots), self._weapon_done(i))

    def action_delete_row(self) -> None:
        if self._active_tab() == "tab-skills":
            i = self._selected("#skills-table")
            if i is not None:
                removed = self.skills.pop(i)
                self.notify(f"Skill {removed['name']} removed (on save).")
        elif self._active_tab() == "tab-weapons":
            i = self._selected("#weapons-table")
            if i is not None:
                removed = self.weapons.pop(i)
                self.notify(f"Weapon {removed['name']} removed (on save).")
        self._fill_tables()

    def _skill_done(self, index: int | None) -> Callable[[Values | None], None]:
        def done(values: Values | None) -> None:
            if values is None:
                return
            if index is None:
                self.skills.append(values)
            else:
                self.skills[index] = values
            self._fill_tables()
            self._move_to("#skills-table", values["name"])
        return done

    def _weapon_done(self, index: int | None) -> Callable[[Values | None], None]:
        def done(values: Values | None) -> None:
            if values is None:
                return
            if index is None:
                self.weapons.append(values)
                index_now = len(self.weapons) - 1
            else:
                self.weapons[index] = values
                index_now = index
            self._fill_tables()
            self._move_to("#weapons-table", str(index_now))
        return done

    def _move_to(self, table_id: str, key: str) -> None:
        table = self.query_one(table_id, DataTable)
        try:
            table.move_cursor(row=table.get_row_index(key))
        except Exception:  # noqa: BLE001 - a missing row only leaves the cursor
            pass
        table.focus()

