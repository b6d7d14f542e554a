"""Add / edit an aircraft: the ONE aircraft form, also used by the roster.

Four tabs (ctrl+t cycles): *Card* (S0 §Flight card: class, engines, Move,
dive maximum, Roll/Loop/Immelmann, ceiling and test echelons, Firepower, Hull,
Evasion, the manoeuvre dial as ``A1 A2 T1 !H1``), *Hex combat* (R-3…R-10:
thrust and afterburner "(n)", water-methanol, G-rating, turn mode as
``1:1 4:2 7:3``, landing, take-off, fuel, ammo, airframe parts), *Traits*
(S0 §Traits: the eight as a checklist, space toggles, 1–6 sets the dice) and
*Status* (hull hits, fuel and ammo left, overheat, notes).

Fields check ranges as the user types (``store/limits.py``); the whole profile
is checked by ``rules.aircraft.validate_profile`` on every change, so the form
and the database give the same messages. Nothing is written while any field
shows an error; a save is one transaction (``roster.add_aircraft`` /
``update_aircraft``).

``open_aircraft_form(screen, aircraft_row_or_None, on_saved)`` is the entry
point the roster and the flight-card screen call; ``on_saved`` gets the id.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static, TabbedContent, TabPane

from ka_tui.rules.air.aircraft import (
    AircraftClass,
    AircraftProfile,
    Echelon,
    EngineKind,
    Trait,
    validate_profile,
)
from ka_tui.rules.air.flight_notation import (
    format_dial,
    format_turn_mode,
    parse_dial,
    parse_turn_mode,
)
from ka_tui.rules.air.flight_status import FlightStatus
from ka_tui.rules.air.profiles import LIBRARY
from ka_tui.rules.air.traits import TRAIT_RULES
from ka_tui.screens.door import door
from ka_tui.screens.store_work import store_work
from ka_tui.store.rows_to_rules import from_profile
from ka_tui.store.aircraft_view import AircraftView, load_aircraft_view
from ka_tui.store.errors import StoreError
from ka_tui.store.limits import AIRCRAFT_RANGES, ENGINE_COUNTS, NAME_MAX, TEXT_MAX
from ka_tui.store.profiles_io import free_name
from ka_tui.widgets.form_fields import (
    CheckField,
    ChoiceField,
    FormField,
    IntField,
    TabbedFormScreen,
    TextField,
)
from ka_tui.widgets.form_tabs import FormTabs
from ka_tui.widgets.quiet_footer import QuietFooter

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

Values = dict[str, Any]
V = TypeVar("V")

# A new aircraft that passes validate_profile before the GM types anything.
BLANK = replace(AircraftProfile(name=""),
                manoeuvres=parse_dial("A1 A2 A3 A4 T1 T2 T3 !H1 H2")[0],
                turn_mode=parse_turn_mode("1:1 4:2 7:3")[0])

LABELS: dict[str, str] = {
    "move": "Move", "dive_max": "Dive max", "firepower": "Firepower", "hull": "Hull",
    "evasion": "Evasion", "thrust": "Thrust", "afterburner_thrust": "Afterburner",
    "wm_thrust": "W-M thrust", "wm_uses": "W-M uses", "wm_altitude_limit": "W-M to lvl",
    "g_rating": "G-rating", "landing_speed": "Landing spd", "takeoff_run": "Take-off run",
    "fuel": "Fuel", "ammo": "Ammo", "control_surfaces": "Control surf",
    "gear_legs": "Gear legs", "hull_hits": "Hull hits", "fuel_left": "Fuel left",
    "ammo_left": "Ammo left", "overheat": "Overheat",
}
TAB_TITLES = {"tab-card": "Card · S0", "tab-hex": "Hex combat · R-3…R-10",
              "tab-traits": "Traits", "tab-status": "Status"}
FIRST_TAB = "tab-card"
ECHELON_SHORT = {Echelon.DECK: "Deck", Echelon.HILL: "Hill", Echelon.MOUNTAIN: "Mtn",
                 Echelon.TOP: "Top", Echelon.CEILING: "Ceil", Echelon.EDGE: "Edge"}
_OPTIONAL = ("afterburner_thrust", "wm_thrust", "wm_altitude_limit")
_S0_INTS = ("move", "dive_max", "firepower", "hull", "evasion")
_HEX_INTS = ("thrust", "afterburner_thrust", "wm_thrust", "wm_uses", "wm_altitude_limit",
             "g_rating", "landing_speed", "takeoff_run", "fuel", "ammo",
             "control_surfaces", "gear_legs")
_LIVE_INTS = ("hull_hits", "fuel_left", "ammo_left", "overheat")
_NOT_PROFILE = ("id", "template", "hull_hits", "fuel_left", "ammo_left", "overheat", "notes")


# --------------------------------------------------------------- list fields

class _ListControl(Static, Generic[V], can_focus=True):
    """The focusable control of a list field: a cursor over ``items``."""

    DEFAULT_CSS = """
    _ListControl {
        height: auto;
        background: $surface;
    }
    _ListControl:focus {
        background: $accent 20%;
    }
    _ListControl {
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    def __init__(self, owner: _ListField[V], *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self.owner = owner

    def render(self) -> Text:
        return self.owner.render_items(self.has_focus)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


class _ListField(FormField, Generic[V]):
    """Base of the echelon and trait pickers: a cursor, space toggles."""

    DEFAULT_CSS = """
    _ListField {
        height: auto;  /* the traits list has a line per trait */
    }
    """

    cursor = 0
    items: Sequence[Any] = ()

    def compose_control(self) -> ComposeResult:
        yield _ListControl(self, id=f"list-{self.key}")

    def render_items(self, focused: bool) -> Text:
        raise NotImplementedError

    def _redraw(self) -> None:
        if self.is_mounted:
            self.query_one(_ListControl).refresh()  # same number of lines: no layout pass

    def move(self, delta: int) -> None:
        self.cursor = max(0, min(len(self.items) - 1, self.cursor + delta))
        self._redraw()

    def edited(self) -> None:
        self._redraw()
        self._changed()


class EchelonsField(_ListField[frozenset[Echelon]]):
    """S0 §Altitude explained: which echelons need a test (the red/grey boxes).
    ←/→ move, space toggles."""

    BINDINGS = [
        Binding("left", "move(-1)", "Previous", show=False, id="echelons.previous"),
        Binding("right", "move(1)", "Next", show=False, id="echelons.next"),
        Binding("space", "flip", "Toggle", show=False, id="echelons.toggle"),
    ]
    items = tuple(Echelon)

    def __init__(self, label: str, value: frozenset[Echelon], *, key: str,
                 **kwargs: Any) -> None:
        super().__init__(label, key=key, **kwargs)
        self._value = frozenset(value)

    @property
    def value(self) -> frozenset[Echelon]:
        return self._value

    @value.setter
    def value(self, new: frozenset[Echelon]) -> None:
        self._value = frozenset(new)
        self.edited()

    def action_move(self, delta: int) -> None:
        self.move(delta)

    def action_flip(self) -> None:
        e = self.items[self.cursor]
        self.value = self._value - {e} if e in self._value else self._value | {e}

    def render_items(self, focused: bool) -> Text:
        out = Text()
        for i, e in enumerate(self.items):
            name = ECHELON_SHORT[e]
            on = e in self._value
            label = f"[!{name}]" if on else f" {name} "
            style = "bold reverse red" if on else ""
            if focused and i == self.cursor:
                style += " underline"
            out.append(label, style=style.strip())
        return out


class TraitsField(_ListField[tuple[tuple[Trait, int | None], ...]]):
    """S0 §Traits as a checklist: ↑/↓ move, space toggles, 1–6 sets the dice,
    0 clears them (a dice trait without a number uses the engine's default)."""

    BINDINGS = [
        Binding("up", "move(-1)", "Previous", show=False, id="traits.previous"),
        Binding("down", "move(1)", "Next", show=False, id="traits.next"),
        Binding("space", "flip", "Toggle", show=False, id="traits.toggle"),
    ]
    items = tuple(Trait)

    def __init__(self, label: str, value: tuple[tuple[Trait, int | None], ...], *,
                 key: str, **kwargs: Any) -> None:
        super().__init__(label, key=key, **kwargs)
        self._chosen: dict[Trait, int | None] = dict(value)

    @property
    def value(self) -> tuple[tuple[Trait, int | None], ...]:
        return tuple((t, self._chosen[t]) for t in Trait if t in self._chosen)

    @value.setter
    def value(self, new: tuple[tuple[Trait, int | None], ...]) -> None:
        self._chosen = dict(new)
        self.edited()

    def action_move(self, delta: int) -> None:
        self.move(delta)

    def action_flip(self) -> None:
        t = self.items[self.cursor]
        if t in self._chosen:
            del self._chosen[t]
        else:
            self._chosen[t] = 1 if TRAIT_RULES[t].takes_dice else None
        self.edited()

    def on_key(self, event: events.Key) -> None:
        char = event.character or ""
        if len(char) == 1 and char.isdigit():
            event.stop()
            t = self.items[self.cursor]
            self._chosen[t] = None if char == "0" else int(char)
            self.edited()

    def render_items(self, focused: bool) -> Text:
        out = Text()
        for i, t in enumerate(self.items):
            rule = TRAIT_RULES[t]
            on = t in self._chosen
            n = self._chosen.get(t)
            line = Text()
            line.append("[x] " if on else "[ ] ", style="bold" if on else "dim")
            line.append(rule.name.ljust(14), style="bold" if on else "")
            dice = "" if n is None else str(n)
            line.append(dice.rjust(2) + "  ", style="bold")
            line.append(rule.summary, style="dim")
            if focused and i == self.cursor:
                line.stylize("reverse")
            if i:
                out.append("\n")
            out.append(line)
        out.no_wrap = True
        out.overflow = "ellipsis"
        return out


# ----------------------------------------------------------------- the form

def _dial_check(text: Any) -> str | None:
    _, errors = parse_dial(str(text))
    return errors[0].message if errors else None


def _turn_mode_check(text: Any) -> str | None:
    _, errors = parse_turn_mode(str(text))
    return errors[0].message if errors else None


def _columns(fields: Sequence[FormField]) -> Horizontal:
    """Two columns; tab goes down the first, then the second."""
    half = (len(fields) + 1) // 2
    return Horizontal(Vertical(*fields[:half], classes="form-column"),
                      Vertical(*fields[half:], classes="form-column"),
                      classes="form-columns")


def profile_from_values(values: Values, base: AircraftProfile = BLANK) -> AircraftProfile:
    """The profile the form's values describe; fields still invalid keep ``base``'s."""
    changes: dict[str, Any] = {}
    for key, value in values.items():
        if key in _NOT_PROFILE:
            continue
        if key == "manoeuvres":
            dial, errors = parse_dial(str(value))
            if not errors:
                changes[key] = dial
        elif key == "turn_mode":
            bands, errors = parse_turn_mode(str(value))
            if not errors:
                changes[key] = bands
        elif value is not None or key in _OPTIONAL:
            changes[key] = value
    return replace(base, **changes)


def form_errors(values: Values, base: AircraftProfile = BLANK) -> dict[str, str]:
    """S0/R-3…R-10 checks of the whole profile (``validate_profile``) and the
    live-status bounds, by field key; the first message per field."""
    errors: dict[str, str] = {}
    for fe in validate_profile(profile_from_values(values, base)):
        errors.setdefault(fe.field, fe.message)
    for live, limit in (("hull_hits", "hull"), ("fuel_left", "fuel"), ("ammo_left", "ammo")):
        a, b = values.get(live), values.get(limit)
        if isinstance(a, int) and isinstance(b, int) and a > b:
            errors.setdefault(live, f"cannot exceed {LABELS[limit].lower()} ({b})")
    return errors


class AircraftForm(TabbedFormScreen[Any]):
    """The aircraft add/edit modal; ``write(values)`` stores it and returns the id."""

    HELP_TITLE = "Aircraft form"
    AUTO_FOCUS = "#input-name"
    DRAWN_FIELDS = True
    QUIET_OPEN = True
    ASK_BEFORE_DISCARD = True
    TAB_ORDER = tuple(TAB_TITLES)

    BINDINGS = [
        Binding("ctrl+t", "next_tab", "Next tab", id="aircraft_form.next_tab",
                priority=True),
    ]

    CSS_PATH = "form.tcss"

    def __init__(self, aircraft: AircraftView | None = None, *,
                 write: Callable[[Values], Any] | None = None,
                 taken_names: Collection[str] = (),
                 library: Sequence[AircraftProfile] = LIBRARY) -> None:
        super().__init__()
        self.aircraft = aircraft
        self.profile = aircraft.profile if aircraft is not None else BLANK
        self.status = aircraft.status if aircraft is not None else FlightStatus()
        self.notes = aircraft.notes if aircraft is not None else ""
        self.write = write
        self.taken_names = {n.casefold() for n in taken_names}
        self._template_name = ""   # the name the last "Start from" put in the form
        self.library = list(library)
        self._pane_fields: dict[str, list[FormField]] = {}
        self._pending: dict[str, Widget] = {}

    # -- layout ----------------------------------------------------------

    def compose(self) -> ComposeResult:
        self._build_panes()
        with Vertical(classes="form-box") as box:
            box.border_title = f"Edit {self.profile.name}" if self.aircraft else "New aircraft"
            with FormTabs(id="aircraft-tabs"):
                for pane_id, title in TAB_TITLES.items():
                    with TabPane(f"{title}  ", id=pane_id):
                        if pane_id == FIRST_TAB:
                            yield self._pending.pop(pane_id)
            yield Static("", classes="form-status")
        yield QuietFooter()

    def _build_panes(self) -> None:
        """Every tab's fields are built now (the form validates and saves them all),
        but only the first tab is mounted: the others mount when first shown. About
        three quarters of the widgets then cost nothing until needed."""
        p, s = self.profile, self.status
        card: list[FormField] = [TextField("Name", p.name, key="name", required=True,
                                           max_length=NAME_MAX, check=self._name_free)]
        if self.aircraft is None:
            card.append(ChoiceField("Start from", [("Blank", "")] +
                                    [(lp.name, lp.name) for lp in self.library],
                                    "", key="template"))
        card.append(ChoiceField("Class", [(c.label, c) for c in AircraftClass],
                                p.aircraft_class, key="aircraft_class"))
        card_grid: list[FormField] = [
            ChoiceField("Engines", [(str(n), n) for n in ENGINE_COUNTS],
                        p.engines, key="engines", label_width=13),
            ChoiceField("Engine kind", [(k.value.capitalize(), k) for k in EngineKind],
                        p.engine_kind, key="engine_kind", label_width=13),
            *(self._int(key, getattr(p, key)) for key in _S0_INTS),
            ChoiceField("Ceiling", [(e.label, e) for e in Echelon],
                        p.ceiling, key="ceiling", label_width=13),
            CheckField("Roll", p.roll, key="roll", label_width=13),
            CheckField("Loop", p.loop, key="loop", label_width=13),
            CheckField("Immelmann", p.immelmann, key="immelmann", label_width=13),
        ]
        card_tail: list[FormField] = [
            EchelonsField("Test boxes", p.test_echelons, key="test_echelons"),
            TextField("Manoeuvres", format_dial(p.manoeuvres), key="manoeuvres",
                      check=_dial_check),
        ]
        hex_grid = [self._int(key, getattr(p, key)) for key in _HEX_INTS]
        turn_mode = TextField("Turn mode", format_turn_mode(p.turn_mode),
                              key="turn_mode", check=_turn_mode_check)
        traits = TraitsField("Traits", p.traits, key="traits", label_width=7)
        status_grid = [self._int("hull_hits", s.damage.hull_hits),
                       self._int("fuel_left", s.fuel(p)),
                       self._int("ammo_left", s.ammo(p)),
                       self._int("overheat", s.overheat)]
        notes = TextField("Notes", self.notes, key="notes", max_length=TEXT_MAX)
        self._pane_fields = {
            "tab-card": [*card, *card_grid, *card_tail],
            "tab-hex": [*hex_grid, turn_mode],
            "tab-traits": [traits],
            "tab-status": [*status_grid, notes],
        }
        self._pending = {
            "tab-card": VerticalScroll(
                *card, _columns(card_grid), *card_tail,
                Static("Dial: A ahead, T turn, H hard turn + speed; ! = Stressful "
                       "(e.g. A1 A2 T2 !H1). Test boxes: ←/→, space.", classes="form-hint")),
            "tab-hex": VerticalScroll(
                _columns(hex_grid), turn_mode,
                Static("Turn mode: speed:hexes from that speed up, e.g. 1:1 4:2 "
                       "7:3. Afterburner is total thrust (n); empty = none.",
                       classes="form-hint")),
            "tab-traits": VerticalScroll(
                traits, Static("↑/↓ move, space on/off, 1–6 dice, 0 no number "
                               "(S0 §Traits).", classes="form-hint")),
            "tab-status": VerticalScroll(_columns(status_grid), notes),
        }

    def form_fields(self) -> list[FormField]:
        """All fields, mounted or not (see ``_build_panes``)."""
        return [f for fields in self._pane_fields.values() for f in fields]

    async def ensure_pane(self, pane_id: str) -> None:
        """Mount a tab's fields the first time it is shown."""
        content = self._pending.pop(pane_id, None)
        if content is not None:
            await self.query_one(f"#{pane_id}", TabPane).mount(content)

    async def on_tabbed_content_tab_activated(self,
                                              event: TabbedContent.TabActivated) -> None:
        if event.pane.id:
            await self.ensure_pane(event.pane.id)

    def _int(self, key: str, value: int | None) -> IntField:
        lo, hi = AIRCRAFT_RANGES[key]
        return IntField(LABELS[key], value, key=key, lo=lo, hi=hi,
                        required=key not in _OPTIONAL, label_width=13)

    def _name_free(self, value: Any) -> str | None:
        own = self.aircraft.profile.name.casefold() if self.aircraft else None
        name = str(value).strip().casefold()
        if name in self.taken_names and name != own:
            return "another aircraft has this name"
        return None

    # -- checks ----------------------------------------------------------

    def cross_errors(self, values: Values) -> dict[str, str]:
        """Whole-profile checks on the fields that pass their own checks (a field
        with its own error keeps the profile's value, so one typo gives one message)."""
        bad = {f.key for f in self.form_fields() if f.own_error() is not None}
        good = {k: v for k, v in values.items() if k not in bad}
        return {k: m for k, m in form_errors(good, self.profile).items() if k not in bad}

    def on_form_field_changed(self, event: FormField.Changed) -> None:
        """A template fills every field; the whole form is re-checked once per
        burst of changes (``FormScreen``), then the tabs are marked."""
        if event.key == "template" and event.field.value:
            self.fill(next(p for p in self.library if p.name == event.field.value))
        super().on_form_field_changed(event)

    def check_form(self, field: FormField) -> None:
        super().check_form(field)
        self._mark_tabs()

    def _mark_tabs(self) -> None:
        """A tab holding a field in error gets a ``!`` so errors on hidden tabs show."""
        tabs = self.query_one(TabbedContent)
        for pane_id, title in TAB_TITLES.items():
            bad = any(f.error for f in self._pane_fields.get(pane_id, ()))
            # Same width either way: a tab that changes width moves the underline,
            # whose animation cost ~0.5 s per key stroke that toggled the mark.
            label = f"{title} !" if bad else f"{title}  "
            tab = tabs.get_tab(pane_id)
            if tab.label_text != label:
                tab.label = label

    def fill(self, profile: AircraftProfile) -> None:
        """Put a library profile in every field (a new aircraft starts full); a
        name the GM typed stays (only a name a template put there is replaced)."""
        typed = next((str(f.value).strip() for f in self.form_fields() if f.key == "name"), "")
        if typed and typed != self._template_name:
            name = typed
        else:
            name = self._template_name = free_name(profile.name, set(self.taken_names))
        values: Values = {
            **{k: getattr(profile, k) for k in _S0_INTS + _HEX_INTS},
            "name": name, "aircraft_class": profile.aircraft_class,
            "engines": profile.engines, "engine_kind": profile.engine_kind,
            "ceiling": profile.ceiling, "roll": profile.roll, "loop": profile.loop,
            "immelmann": profile.immelmann, "test_echelons": profile.test_echelons,
            "manoeuvres": format_dial(profile.manoeuvres),
            "turn_mode": format_turn_mode(profile.turn_mode), "traits": profile.traits,
            "hull_hits": 0, "fuel_left": profile.fuel, "ammo_left": profile.ammo,
            "overheat": 0,
        }
        for f in self.form_fields():
            if f.key not in values:
                continue
            new = values[f.key]
            if isinstance(f, (TextField, IntField)):
                f.set_text("" if new is None else str(new))
            else:
                field: Any = f
                field.value = new

    def values(self) -> tuple[Values, dict[str, str]]:
        values, errors = super().values()
        values.pop("template", None)
        errors.pop("template", None)
        if self.aircraft is not None:
            values["id"] = self.aircraft.id
        return values, errors

    # -- tabs (TabbedFormScreen) -------------------------------------------

    def pane_of(self, field: FormField) -> str | None:
        return next(p for p, fields in self._pane_fields.items() if field in fields)


def aircraft_columns(values: Values) -> Values:
    """The form's values as aircraft row columns (one reading: ``from_profile``)."""
    profile = profile_from_values(values)
    cols = from_profile(profile)
    for key in ("hull_hits", "fuel_left", "ammo_left", "overheat", "notes"):
        if key in values:
            cols[key] = values[key]
    return cols


def open_aircraft_form(screen: Screen[Any], aircraft: Values | None,
                       on_saved: Callable[[int | None], None],
                       taken_names: Collection[str] | None = None) -> None:
    """Load what the form needs off the UI thread, then show it over ``screen``.
    ``aircraft`` is None for a new one, or a mapping with its ``id``;
    ``taken_names``: every aircraft's name when the caller has them (the
    roster), else they are read too."""
    aircraft_id = None if aircraft is None else aircraft["id"]
    taken = None if taken_names is None else list(taken_names)

    def job(db: CampaignDB) -> tuple[AircraftView | None, list[str]]:
        from ka_tui.store import roster  # the write half (SQLModel): loaded on use only

        view = None if aircraft_id is None else load_aircraft_view(db, aircraft_id)
        return view, taken if taken is not None else [a.name for a in roster.list_aircraft(db)]

    def write(values: Values) -> int:
        from ka_tui.store import roster

        try:
            return roster.save_aircraft(door(screen).campaign_db(),
                                        {**aircraft_columns(values), "id": values.get("id")})
        except StoreError:
            raise
        except Exception as error:  # noqa: BLE001 - the form must never hang on "Saving…"
            raise StoreError(f"the aircraft could not be saved ({error})") from error

    def show(got: tuple[AircraftView | None, list[str]]) -> None:
        view, names = got
        screen.app.push_screen(AircraftForm(view, write=write, taken_names=names), on_saved)

    store_work(screen, job, group="aircraft-form", exclusive=True, done=show,
               failed=lambda e: screen.notify(str(e), title="Aircraft", severity="error"))
