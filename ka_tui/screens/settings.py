"""House-rule settings: every option of ``HouseRules`` with its value, editable.

Generic over the dataclass fields (``rules/core/options.py``), so options added later
appear here by themselves, with the comment written above them in the source
as their explanation. Changes stay pending (marked ``*``) until ctrl+s saves
them in one transaction; every value is validated by ``HouseRules.from_dict``.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from ka_tui.rules.core.options import HouseRules
from ka_tui.screens.confirm import ConfirmScreen
from ka_tui.screens.door import CampaignChanged, Change, door
from ka_tui.store.damage import load_failure
from ka_tui.store.campaign import house_rules, set_house_rules
from ka_tui.store.errors import StoreError
from ka_tui.widgets.form_fields import CheckField, ChoiceField, FormScreen, IntField, TextField



@dataclass(frozen=True)
class Option:
    section: str
    name: str
    default: Any
    doc: str

    @property
    def key(self) -> str:
        return f"{self.section}.{self.name}"


def options_of(rules: HouseRules) -> list[Option]:
    """Every option of every section, in source order, with its comment."""
    out: list[Option] = []
    defaults = HouseRules()
    for section in fields(rules):
        cls = type(getattr(rules, section.name))
        docs = option_docs(cls)
        for f in fields(cls):
            out.append(Option(section.name, f.name, getattr(getattr(defaults, section.name), f.name),
                              docs.get(f.name, "")))
    return out


_FIELD_LINE = re.compile(r"^\s+(\w+)\s*:")


def option_docs(cls: type) -> dict[str, str]:
    """The ``#`` comment lines written just above each field of ``cls``."""
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return {}
    docs: dict[str, str] = {}
    pending: list[str] = []
    for line in source.splitlines()[1:]:
        stripped = line.strip()
        if stripped.startswith("#"):
            pending.append(stripped.lstrip("#").strip())
            continue
        match = _FIELD_LINE.match(line)
        if match and not stripped.startswith(("def ", "@")):
            name = match.group(1)
            inline = line.split("#", 1)[1].strip() if "#" in line else ""
            docs.setdefault(name, " ".join(pending + ([inline] if inline else [])))
            pending = []
        elif stripped:
            pending = [] if not stripped.endswith(("(", ",", "[", "{")) else pending
    return docs


def show_value(value: Any) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    return str(value)


def parse_value(default: Any, text: str) -> Any:
    """Text from the edit field back to the JSON form ``from_dict`` takes."""
    text = text.strip()
    if isinstance(default, tuple):
        if not text:
            return []
        try:
            return [int(p) for p in re.split(r"[,\s]+", text) if p]
        except ValueError:
            raise ValueError("a list of whole numbers, e.g. 0, 1, 2") from None
    if isinstance(default, dict):
        sample = next(iter(default.values()), 0)
        out: dict[str, Any] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, sep, value = part.partition(":")
            if not sep:
                raise ValueError(f"{part!r}: write key: value")
            value = value.strip()
            if isinstance(sample, int):
                try:
                    out[key.strip()] = int(value)
                except ValueError:
                    raise ValueError(f"{part!r}: the value must be a whole number") from None
            else:
                out[key.strip()] = value
        return out
    return text


class OptionForm(FormScreen[Any]):
    """Edit one option; checked with ``HouseRules.from_dict`` as you type."""

    HELP_TITLE = "Edit option"

    def __init__(self, option: Option, current: Any, rules: dict[str, Any]) -> None:
        super().__init__()
        self.option = option
        self.current = current
        self.rules = rules

    def compose(self) -> ComposeResult:
        o, v = self.option, self.current
        with Vertical(classes="form-box") as box:
            box.border_title = o.key
            label = "Value"
            if isinstance(v, Enum):
                yield ChoiceField(label, [(str(m.value), m) for m in type(v)], v, key="value")
            elif isinstance(v, bool):
                yield CheckField(label, v, key="value")
            elif isinstance(v, int):
                yield IntField(label, v, key="value", check=self._check)
            else:
                yield TextField(label, show_value(v), key="value", check=self._check)
            yield Static(o.doc or "(no note in options.py)", classes="option-doc", markup=False)
            yield Static(f"Default: {show_value(o.default)}", classes="form-status",
                         markup=False)
        yield Footer()

    def _converted(self, value: Any) -> Any:
        if isinstance(value, Enum):
            return value.value
        if isinstance(self.current, (tuple, dict, str)) and not isinstance(value, Enum):
            return parse_value(self.current, str(value))
        return value

    def _check(self, value: Any) -> str | None:
        try:
            trial = {s: dict(v) for s, v in self.rules.items()}
            trial[self.option.section][self.option.name] = self._converted(value)
            HouseRules.from_dict(trial)
        except ValueError as error:
            return str(error).removeprefix("house rules: ").removeprefix(self.option.key + " ")
        return None

    def dismiss(self, result: Any = None) -> Any:
        if isinstance(result, dict):
            result = self._converted(result["value"])
        return super().dismiss(result)


VALUE_WIDTH = 34  # the value column at 80 columns; the whole value shows below the table


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


class SettingsScreen(Screen[None]):
    HELP_TITLE = "Settings"

    BINDINGS = [
        Binding("e", "edit", "Edit", id="settings.edit"),
        Binding("space", "flip", "Toggle", id="settings.toggle"),
        Binding("r", "reset", "Default", id="settings.reset"),
        Binding("ctrl+s", "save", "Save", id="settings.save"),
        Binding("escape", "close", "Back", id="settings.close"),
    ]

    DEFAULT_CSS = """
    SettingsScreen DataTable {
        height: 1fr;
    }
    SettingsScreen #option-doc {
        height: auto;
        max-height: 8;
        border-top: hkey $primary;
        padding: 0 1;
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self.saved: dict[str, Any] = HouseRules().to_dict()
        self.values: dict[str, Any] = HouseRules().to_dict()
        self.options = options_of(HouseRules())
        self.loaded = False

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield DataTable(id="options", cursor_type="row", zebra_stripes=True)
        yield Static("Loading the house rules…", id="option-doc", markup=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.sub_title = "house rules"
        table = self.query_one(DataTable)
        table.add_column("Option", width=40, key="option")
        table.add_column("Value", key="value")
        table.focus()
        self.load()

    @work(thread=True, exclusive=True, group="settings", exit_on_error=False)
    def load(self) -> None:
        try:
            rules = house_rules(door(self).campaign_db())
        except Exception as error:  # noqa: BLE001 — any failure: one message (issue 11)
            message = str(load_failure("the house rules", error, door(self)))
            self.app.call_from_thread(self.query_one("#option-doc", Static).update, message)
            self.app.call_from_thread(self.notify, message, severity="error")
            return
        self.app.call_from_thread(self._loaded, rules.to_dict())

    def _loaded(self, values: dict[str, Any]) -> None:
        self.saved = values
        self.values = {s: dict(v) for s, v in values.items()}
        self.loaded = True
        self._fill()

    def _value(self, option: Option) -> Any:
        section = getattr(HouseRules.from_dict(self.values), option.section)
        return getattr(section, option.name)

    def _fill(self) -> None:
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        for option in self.options:
            value = self._value(option)
            changed = self.values[option.section][option.name] != \
                self.saved[option.section][option.name]
            marker = "*" if changed else (" " if value == option.default else "~")
            table.add_row(f"{marker}{option.key}", _cut(show_value(value), VALUE_WIDTH),
                          key=option.key)
        if self.options:
            table.move_cursor(row=min(row, len(self.options) - 1))
        self._show_doc()

    def _current(self) -> Option | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        return self.options[table.cursor_row]

    def _show_doc(self) -> None:
        option = self._current()
        doc = self.query_one("#option-doc", Static)
        if option is None:
            doc.update("" if self.loaded else "Loading the house rules…")
            return
        value = show_value(self._value(option))
        shown = f"Value: {value}\n" if len(value) > VALUE_WIDTH else ""
        doc.update(f"{option.doc or '(no note)'}\n{shown}"
                   f"Default: {_cut(show_value(option.default), 60)}"
                   "   (* unsaved, ~ changed from default)")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_doc()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_edit()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("edit", "flip", "reset", "save") and not self.loaded:
            return None
        if action == "save":
            return self.values != self.saved or None
        return True

    def _set(self, option: Option, json_value: Any) -> None:
        trial = {s: dict(v) for s, v in self.values.items()}
        trial[option.section][option.name] = json_value
        try:
            self.values = HouseRules.from_dict(trial).to_dict()
        except ValueError as error:
            self.notify(str(error), severity="error")
            return
        self._fill()
        self.refresh_bindings()

    def action_edit(self) -> None:
        option = self._current()
        if option is None:
            return
        current = self._value(option)

        def done(result: Any) -> None:
            if result is not None:
                self._set(option, result)

        self.app.push_screen(OptionForm(option, current, self.values), done)

    def action_flip(self) -> None:
        option = self._current()
        if option is None:
            return
        value = self._value(option)
        if isinstance(value, bool):
            self._set(option, not value)
        elif isinstance(value, Enum):
            members = list(type(value))
            self._set(option, members[(members.index(value) + 1) % len(members)].value)
        else:
            self.action_edit()

    def action_reset(self) -> None:
        option = self._current()
        if option is not None:
            self._set(option, HouseRules().to_dict()[option.section][option.name])

    def action_save(self) -> None:
        self._save(HouseRules.from_dict(self.values))

    @work(thread=True, exclusive=True, group="settings", exit_on_error=False)
    def _save(self, rules: HouseRules) -> None:
        try:
            set_house_rules(door(self).campaign_db(), rules)
        except StoreError as error:
            self.app.call_from_thread(self.notify, str(error), title="Not saved",
                                      severity="error")
            return
        self.app.call_from_thread(self._saved, rules.to_dict())

    def _saved(self, values: dict[str, Any]) -> None:
        self.saved = values
        door(self).campaign_changed(CampaignChanged(Change.HOUSE_RULES, self))
        self._fill()
        self.refresh_bindings()
        self.notify("House rules saved.", timeout=2)

    def unsaved_changes(self) -> str | None:
        """What quitting now would lose (the app asks before ``q``)."""
        return "unsaved house-rule changes" if self.values != self.saved else None

    def action_close(self) -> None:
        if self.values == self.saved:
            self.dismiss(None)
            return
        def answered(discard: bool | None) -> None:
            if discard:
                self.dismiss(None)

        self.app.push_screen(ConfirmScreen("Discard the unsaved house-rule changes?",
                                           yes="Discard", title="Unsaved changes"), answered)
