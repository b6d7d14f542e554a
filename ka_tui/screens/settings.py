"""House-rule settings: every option of ``HouseRules`` with its value, editable.

Generic over the dataclass fields (``rules/core/options.py``), so options added later
appear here by themselves, with the comment written above them in the source
as their explanation. Changes stay pending (marked ``*``) until ctrl+s saves
them in one transaction; every value is validated by ``HouseRules.from_dict``
(bounded: the message shows at the field).

Each option shows a human name (``Loser's Defence blocks
and retains``, not ``cqc.loser_defence_blocks_and_retains``), its seed
reference (S0 §…, R-…, RULES-NOTES …) and what it changes; tables and lists
are edited as tables, a row at a time (``TableForm``).
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Header, Input, Label, Static

from ka_tui.rules.core.options import HouseRules
from ka_tui.screens.confirm import ConfirmScreen
from ka_tui.screens.door import Change
from ka_tui.screens.store_work import store_work
from ka_tui.store.campaign import house_rules, set_house_rules
from ka_tui.widgets.form_fields import CheckField, ChoiceField, FormScreen, IntField, TextField
from ka_tui.widgets.quiet_footer import QuietFooter



@dataclass(frozen=True)
class Option:
    section: str
    name: str
    default: Any
    doc: str
    inherited: str = ""  # the seed references of the group it is written in

    @property
    def key(self) -> str:
        return f"{self.section}.{self.name}"

    @property
    def title(self) -> str:
        """The option's human name."""
        return human_name(self.name)

    @property
    def section_title(self) -> str:
        return SECTION_TITLES.get(self.section, self.section.capitalize())

    @property
    def refs(self) -> str:
        """The seed sections its comment cites: ``S0 §Close combat 4 · RULES-NOTES B``
        (an option without a comment: its group's, from the comment above)."""
        own = seed_refs(self.doc)
        if own:
            return own
        return self.inherited or "house rule (the seeds are silent)"


SECTION_TITLES = {"skills": "Skills", "cqc": "Close combat", "air": "Air combat",
                  "roller": "Dice roller"}
# Words the field names abbreviate.
_WORDS = {"ap": "AP", "cqc": "close combat", "gload": "G-load", "wm": "water-methanol",
          "s0": "S0", "mod": "modifier", "mods": "modifiers", "crit": "critical",
          "hp": "HP", "max": "most", "min": "least"}
# Names that read better written out.
_NAMES = {
    "crit_fail_rule": "What a 1 does (critical fail)",
    "opposed_table": "Opposed test: face needed by skill difference",
    "challenging_table": "Challenging test: face needed by skill difference",
    "lore_share_bonus": "Lore successes help an ally",
    "loser_defence_blocks": "Loser's Defence blocks",
    "loser_defence_blocks_and_retains": "Loser's Defence blocks and retains",
    "loser_attacks_land": "Loser's Attacks land",
    "attack_hits": "Hits per Attack (Basic, Deliberate, Special)",
    "echelon_of_level": "Echelon of each altitude level",
    "hit_locations": "Hit locations (2d6 from the nose)",
    "range_band_mods": "Range band modifiers (to hit)",
    "passive_fight_skills": "Passive skills in fights",
    "opposed_tiebreak": "Tie-break of an opposed roll",
    "crit_cancel": "What a cancelled critical keeps",
    "spent_crit_wins": "A critical spent on a 1 still wins",
    "save_stat": "Number added to the save d12",
    "multi_opponent": "Several opponents",
    "losing_special_as_deliberate": "A losing Special counts as Deliberate",
    "feint_counts_in_tiebreak": "Feint bonuses count in the tie-break",
    "special_min_ap": "Least AP for a Special",
    "initiative_reroll": "When the order of combat is rolled",
    "ram_rammer_min": "Least ram damage to the rammer",
    "random_move_max_sides": "Random move: most hex sides turned",
    "long_range_max_band": "Long range: last band",
    "s0_hexes_per_level": "Hexes per level (S0 altitude model)",
}
_REF = re.compile(r"S0 §[\w.]+(?: [A-Za-z]+)*(?: \d+(?:\.\d+)?)?|R-\d+(?:\.\d+)?|"
                  r"RULES-NOTES(?: [A-E]\b)?")
_REF_END = re.compile(r"\s(?:is|are|breaks|gives|says|as|does|names|multiplies|lists|ties|"
                      r"and|or|the|a|an|on|of|for|when|with|by|vs|tie)\b.*$")


def human_name(name: str) -> str:
    """``loser_defence_blocks_and_retains`` → ``Loser's Defence blocks and retains``."""
    if name in _NAMES:
        return _NAMES[name]
    words = [_WORDS.get(w, w) for w in name.split("_")]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def seed_refs(doc: str) -> str:
    """The seed sections a comment cites, in order, once each."""
    found: list[str] = []
    for m in _REF.finditer(doc):
        ref = _REF_END.sub("", m.group(0)).strip().rstrip(",.")
        if ref not in found:
            found.append(ref)
    return " · ".join(found)


def options_of(rules: HouseRules) -> list[Option]:
    """Every option of every section, in source order, with its comment."""
    out: list[Option] = []
    defaults = HouseRules()
    for section in fields(rules):
        cls = type(getattr(rules, section.name))
        docs = option_docs(cls)
        group = ""
        for f in fields(cls):
            doc = docs.get(f.name, "")
            group = seed_refs(doc) or group
            out.append(Option(section.name, f.name, getattr(getattr(defaults, section.name), f.name),
                              doc, group))
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
            box.border_title = f"{o.section_title} › {o.title}"
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
            yield Static(f"Rule: {o.refs}   ({o.key})", classes="option-doc", markup=False)
            yield Static(f"Default: {show_value(o.default)}", classes="form-status",
                         markup=False)
        yield QuietFooter()

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


VALUE_WIDTH = 18  # the value column at 80 columns; the whole value shows below the table
NAME_WIDTH = 37


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


class SettingsScreen(Screen[None]):
    HELP_TITLE = "Settings"

    BINDINGS = [
        Binding("e", "edit", "Edit", id="settings.edit"),
        Binding("space", "flip", "Toggle", id="settings.toggle"),
        Binding("r", "reset", "Default", id="settings.reset"),
        Binding("g", "readings", "Gaps", id="settings.readings"),
        Binding("ctrl+s", "save", "Save", id="settings.save"),
        Binding("escape", "close", "Back", id="settings.close"),
    ]
    PALETTE_HELP = {"settings.readings": "The readings of the seeds' gaps that are not "
                                         "options here (docs/rules/READINGS.md)"}

    DEFAULT_CSS = """
    SettingsScreen DataTable {
        height: 1fr;
    }
    SettingsScreen #option-doc {
        height: auto;
        max-height: 9;
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
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        self.sub_title = "house rules"
        table = self.query_one(DataTable)
        table.add_column("Option", width=NAME_WIDTH, key="option")
        table.add_column("Value", width=VALUE_WIDTH, key="value")
        table.add_column("Rule", key="rule")
        table.focus()
        self.load()

    def load(self) -> None:
        store_work(self, house_rules, group="settings-load", exclusive=True,
                   done=lambda rules: self._loaded(rules.to_dict()), failed=self._load_failed,
                   diagnose="the house rules")

    def _load_failed(self, error: Exception) -> None:
        self.query_one("#option-doc", Static).update(str(error))
        self.notify(str(error), severity="error")

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
            table.add_row(f"{marker}{_cut(option.title, NAME_WIDTH - 1)}",
                          _cut(show_value(value), VALUE_WIDTH), _cut(option.refs, 24),
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
        shown = f"Value: {_cut(value, 150)}\n" if len(value) > VALUE_WIDTH else ""
        doc.update(f"{option.section_title} › {option.title}  ·  {option.refs}  ·  "
                   f"{option.key}\n{option.doc or '(no note)'}\n{shown}"
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

        if isinstance(current, (dict, tuple)):
            self.app.push_screen(TableForm(option, current, self.values), done)
            return
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

    def action_readings(self) -> None:
        """Every reading of the seeds that is not an option here (docs/rules/READINGS.md)."""
        from ka_tui.screens.readings import ReadingsScreen

        self.app.push_screen(ReadingsScreen())

    def action_save(self) -> None:
        self._save(HouseRules.from_dict(self.values))

    def _save(self, rules: HouseRules) -> None:
        values = rules.to_dict()
        store_work(self, lambda db: set_house_rules(db, rules), group="settings-save",
                   done=lambda _: self._saved(values), publish=Change.HOUSE_RULES,
                   failed=lambda e: self.notify(str(e), title="Not saved", severity="error"))

    def _saved(self, values: dict[str, Any]) -> None:
        self.saved = values
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


def _check_option(option: Option, rules: dict[str, Any], json_value: Any) -> str | None:
    """The message ``HouseRules.from_dict`` gives for ``json_value``, or None."""
    try:
        trial = {sec: dict(v) for sec, v in rules.items()}
        trial[option.section][option.name] = json_value
        HouseRules.from_dict(trial)
    except ValueError as error:
        return str(error).removeprefix("house rules: ")
    return None


class TableForm(ModalScreen[Any]):
    """A table or list option edited as a table, a row at a time:
    enter edits the row's value below the table, ``a`` adds a row,
    ``delete`` removes one, ctrl+s keeps the table, escape leaves it as it was.
    Every row is checked as typed (the message shows at the
    field, the row is not taken)."""

    HELP_TITLE = "Edit a table"

    BINDINGS = [
        Binding("ctrl+s", "done", "Keep", id="table_form.done"),
        Binding("escape", "cancel", "Cancel", id="table_form.cancel"),
        Binding("a", "add", "Add row", id="table_form.add"),
        Binding("delete", "remove", "Remove row", id="table_form.remove"),
    ]

    DEFAULT_CSS = """
    TableForm { align: center middle; }
    TableForm > .form-box {
        width: 78; height: auto; max-height: 22;
        border: round $primary; padding: 0 1; background: $surface;
    }
    TableForm DataTable { height: auto; max-height: 12; }
    TableForm #cell-row { height: 1; margin-top: 1; }
    TableForm #cell-row > Label { width: 12; color: $text-muted; }
    TableForm #cell-input { width: 1fr; background: $boost; }
    TableForm #cell-error { color: $text-error; height: auto; }
    TableForm .option-doc { color: $text-muted; }
    """

    def __init__(self, option: Option, current: dict[Any, Any] | tuple[Any, ...],
                 rules: dict[str, Any]) -> None:
        super().__init__()
        self.option = option
        self.is_list = isinstance(current, tuple)
        self.rows: list[tuple[str, str]] = (
            [(str(i + 1), str(v)) for i, v in enumerate(current)] if isinstance(current, tuple)
            else [(str(k), str(v)) for k, v in current.items()])
        self.rules = rules
        self.editing: int | None = None  # row being edited; None: a new row
        self.error = ""

    def compose(self) -> ComposeResult:
        from textual.containers import Horizontal

        o = self.option
        with Vertical(classes="form-box") as box:
            box.border_title = f"{o.section_title} › {o.title}"
            yield DataTable(id="cells", cursor_type="row", zebra_stripes=True)
            with Horizontal(id="cell-row"):
                yield Label("Value", id="cell-label")
                yield Input(id="cell-input", compact=True)
            yield Static("", id="cell-error", markup=False)
            yield Static(f"{_cut(o.doc, 220)}\nRule: {o.refs}", classes="option-doc",
                         markup=False)
            yield Static("enter edit · a add · delete remove · ctrl+s keep · esc cancel",
                         classes="option-doc", markup=False)
        yield QuietFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("#" if self.is_list else "Key", width=10, key="key")
        table.add_column("Value", key="value")
        self._fill()
        self.query_one("#cell-input", Input).cursor_blink = False
        table.focus()

    def _fill(self, row: int | None = None) -> None:
        table = self.query_one(DataTable)
        keep = table.cursor_row if row is None else row
        table.clear()
        for i, (key, value) in enumerate(self.rows):
            table.add_row(str(i + 1) if self.is_list else key, value, key=str(i))
        if self.rows:
            table.move_cursor(row=max(0, min(keep, len(self.rows) - 1)))

    def json_value(self, rows: list[tuple[str, str]]) -> Any:
        """The rows as ``from_dict`` takes them (numbers where they read as numbers)."""
        def number(text: str) -> Any:
            try:
                return int(text.strip())
            except ValueError:
                return text.strip()
        if self.is_list:
            return [number(v) for _, v in rows]
        return {k.strip(): number(v) for k, v in rows}

    def _show_error(self, text: str) -> None:
        self.error = text
        self.query_one("#cell-error", Static).update(text)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.editing = event.cursor_row
        field = self.query_one("#cell-input", Input)
        self.query_one("#cell-label", Label).update(
            f"{'#' if self.is_list else 'Key'} {self.rows[self.editing][0]}"[:12])
        field.value = self.rows[self.editing][1]
        field.focus()

    def action_add(self) -> None:
        self.editing = None
        self.query_one("#cell-label", Label).update("New value" if self.is_list else "Key: value")
        field = self.query_one("#cell-input", Input)
        field.value = ""
        field.placeholder = "a whole number" if self.is_list else "key: value"
        field.focus()

    def action_remove(self) -> None:
        table = self.query_one(DataTable)
        if not self.rows or self.focused is not table:
            return
        trial = [r for i, r in enumerate(self.rows) if i != table.cursor_row]
        problem = _check_option(self.option, self.rules, self.json_value(trial))
        if problem:
            self._show_error(problem)
            self.app.bell()
            return
        self.rows = trial
        self._show_error("")
        self._fill()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "cell-input":
            trial = self._trial(event.value)
            self._show_error(trial[1] if trial[0] is None else "")

    def _trial(self, text: str) -> tuple[list[tuple[str, str]] | None, str]:
        if self.editing is None:
            if self.is_list:
                key, value = str(len(self.rows) + 1), text
            else:
                key, sep, value = text.partition(":")
                if not sep:
                    return None, "write key: value (e.g. 3: 10)"
            rows = [*self.rows, (key.strip(), value.strip())]
        else:
            rows = list(self.rows)
            rows[self.editing] = (rows[self.editing][0], text.strip())
        problem = _check_option(self.option, self.rules, self.json_value(rows))
        return (None, problem) if problem else (rows, "")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        rows, problem = self._trial(event.value)
        if rows is None:
            self._show_error(problem)
            self.app.bell()
            return
        row = len(rows) - 1 if self.editing is None else self.editing
        self.rows = rows
        self._show_error("")
        event.input.value = ""
        self._fill(row)
        self.query_one(DataTable).focus()

    def action_done(self) -> None:
        value = self.json_value(self.rows)
        problem = _check_option(self.option, self.rules, value)
        if problem:
            self._show_error(problem)
            self.app.bell()
            return
        self.dismiss(value)

    def action_cancel(self) -> None:
        if self.focused is self.query_one("#cell-input", Input):
            self.query_one("#cell-input", Input).value = ""
            self._show_error("")
            self.query_one(DataTable).focus()
            return
        self.dismiss(None)
