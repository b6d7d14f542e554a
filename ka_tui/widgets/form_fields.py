"""Labelled form fields that validate as the user types and show the error beside them.

One line per field: ``label | control | error``. Every field has a ``key`` (the
name the store uses for it), a typed ``value``, an ``error`` (``""`` when the
field is fine) and posts :class:`FormField.Changed` after each edit, so a form
can run cross-field checks (skill level vs upgrades, unique names) and put the
message on the right field with :meth:`FormField.set_error`.

Fields:

- :class:`TextField` — free text; ``required``, ``max_length``.
- :class:`IntField` — whole number; ``lo``/``hi`` range (both inclusive,
  ``None`` = open), ``required`` (otherwise empty means ``None``).
- :class:`ChoiceField` — one of a few values; left/right or space cycles, a
  letter jumps to the first choice starting with it. Fits one line.
- :class:`CheckField` — yes/no; space or enter toggles.

Any field takes ``check=`` — extra callables ``value -> str | None`` run after
the field's own checks (e.g. "name already used").

Helpers for a form (any container holding fields):
``collect(container) -> (values by key, errors by key)`` validates every field;
``show_errors(container, {key: message})`` puts errors from the store on the
fields; ``first_invalid(container)`` to focus it.

Screens: :class:`FormScreen` (a modal form: ctrl+s, escape, enter) and
:class:`TabbedFormScreen` (the same over tabs: ctrl+t cycles them, a save
refused shows the tab of the first field in error) — the character and
aircraft forms.

Opening a form fast takes tricks on Textual's internals (one layout, shared
Input styles, quiet first values, a first Resize ignored, one restyle): they
live in ``ka_tui/textual_compat/forms.py`` (``FormInput``,
``OpensInOneLayout``, ``DialogInternals``), each with its switch.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar

from rich.style import Style
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.containers import ScrollableContainer
from textual.widget import Widget
from textual.message import Message
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Label, Static, TabbedContent, TabPane

from ka_tui.store.errors import StoreError, ValidationError
from ka_tui.widgets.key_gate import KeyHold, hold_keys
from ka_tui.textual_compat.forms import DialogInternals, FormInput, OpensInOneLayout
from ka_tui.textual_compat.tricks import Trick, trick_on

V = TypeVar("V")
Check = Callable[[Any], "str | None"]


class FormField(Widget):
    """Base class: a label, a control, and the current error beside it."""

    DEFAULT_CSS = """
    FormField {
        layout: horizontal;
        height: 1;  /* one line (a list field sets auto): no layout pass per field */
        width: 1fr;
        margin: 0 0 0 0;
    }
    FormField > .ff-label {
        width: 14;
        height: 1;
        color: $text-muted;
    }
    FormField.-required > .ff-label {
        color: $text;
    }
    FormField > .ff-error {
        width: 1fr;
        height: 1;
        color: $text-error;
        padding: 0 0 0 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    FormField > Input {
        width: 24;
        height: 1;
    }
    FormField > Input.-narrow {
        width: 8;
    }
    FormField.-invalid > .ff-label {
        color: $text-error;
        text-style: bold;
    }
    """

    class Changed(Message):
        """Posted after the user edits the field (its own checks have run)."""

        def __init__(self, field: FormField) -> None:
            super().__init__()
            self.field = field

        @property
        def control(self) -> FormField:
            return self.field

        @property
        def key(self) -> str:
            return self.field.key

    error: reactive[str] = reactive("")

    def __init__(
        self,
        label: str,
        *,
        key: str,
        required: bool = False,
        check: Check | Sequence[Check] = (),
        label_width: int | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id or f"field-{key}", classes=classes)
        self.label = label
        self.key = key
        self.required = required
        self.checks: list[Check] = [check] if callable(check) else list(check)
        self._label_width = label_width
        self.set_class(required, "-required", update=False)  # styled once at mount

    @property
    def drawn(self) -> bool:
        """Label and error drawn by the field itself (one widget less each, issue
        13): the forms whose screen sets ``DRAWN_FIELDS``."""
        try:
            return bool(getattr(self.screen, "DRAWN_FIELDS", False))
        except Exception:  # noqa: BLE001 - not attached yet
            return False

    def compose_control(self) -> ComposeResult:
        """The focusable control (between the label and the error)."""
        yield from ()

    def compose(self) -> ComposeResult:
        if self.drawn:
            self.set_class(True, "-drawn", update=False)  # no CSS uses it: no restyle
            for control in self.compose_control():
                control.styles.margin = (0, 0, 0, self.label_width + 1)
                yield control
            return
        yield self.compose_label()
        yield from self.compose_control()
        yield self.compose_error()

    @property
    def label_width(self) -> int:
        return 13 if self._label_width is None else self._label_width - 1

    def render(self) -> Text:
        """Drawn mode: ``label`` left of the control, the error right of it."""
        if not self.has_class("-drawn"):
            return Text("")
        styles = _drawn_styles(self.app.current_theme.error or "red")
        if self.error:
            label_style = styles["invalid"]
        elif self.required:
            label_style = styles["required"]
        else:
            label_style = styles["label"]
        if self.has_focus_within:
            label_style += styles["focus"]
        out = Text(no_wrap=True, overflow="ellipsis", end="")
        out.append(self.label[:self.label_width].ljust(self.label_width), label_style)
        out.append(" ")
        if self.error:
            control = self.children[0] if self.children else None
            right = (self.label_width + 1 if control is None
                     else control.region.right - self.content_region.x)
            out.append(" " * max(0, right - self.label_width))
            out.append(self.error, styles["error"])
        return out

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if self.has_class("-drawn"):
            self.refresh()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if self.has_class("-drawn"):
            self.refresh()

    def compose_label(self) -> Label:
        label = Label(self.label, classes="ff-label")
        if self._label_width is not None:
            label.styles.width = self._label_width
        return label

    def compose_error(self) -> Static:
        return Static("", classes="ff-error", markup=False)

    @property
    def value(self) -> Any:
        raise NotImplementedError

    def own_error(self) -> str | None:
        """The field's own check (required, number, range); ``None`` when fine."""
        return None

    def validate_value(self) -> str:
        """Run the field's own checks then ``check=`` callables; show and return the error."""
        message = self.own_error()
        if message is None:
            for check in self.checks:
                message = check(self.value)
                if message:
                    break
        self.error = message or ""
        return self.error

    def set_error(self, message: str | None) -> None:
        """Show an error found elsewhere (a cross-field check, the store)."""
        self.error = message or ""

    def watch_error(self, message: str) -> None:
        self.set_class(bool(message), "-invalid")
        if self.has_class("-drawn"):
            self.refresh()  # one line, drawn by the field: no layout pass
            self.tooltip = message or None
        elif self.is_mounted:
            # A fixed one-line label: no layout pass needed (keeps typing fast).
            self.query_one(".ff-error", Static).update(message, layout=False)
            self.tooltip = message or None

    def on_mount(self) -> None:
        self.watch_error(self.error)

    def focus_control(self) -> None:
        for widget in self.query("*"):
            if widget.can_focus:
                widget.focus()
                return

    def _changed(self) -> None:
        self.validate_value()
        self.post_message(self.Changed(self))


_STYLES: dict[str, dict[str, Style]] = {}


def _drawn_styles(error_colour: str) -> dict[str, Style]:
    """Rich styles of a drawn field's label and error (no component classes:
    they cost a style pass per field when a form opens). The focused field's
    label is reversed, visible in 16 colours and with NO_COLOR too."""
    if error_colour not in _STYLES:
        error = Style(color=Color.parse(error_colour).rich_color)
        _STYLES[error_colour] = {
            "label": Style(dim=True), "required": Style(),
            "invalid": error + Style(bold=True), "focus": Style(bold=True, reverse=True),
            "error": error,
        }
    return _STYLES[error_colour]


class FieldInput(FormInput):
    """The Input of a text or number field: a fixed box, typed in without a
    layout per key; in a ``QUIET_OPEN`` form it shares its component styles
    and does not report the text it opens with (``textual_compat.forms``)."""

    def update_node_styles(self, animate: bool = True) -> None:
        """Not before it is in the DOM: Input sets its classes (compact, valid)
        in its constructor, and each set restyled the lone Input; it is styled
        when it mounts anyway."""
        if self.parent is not None:
            super().update_node_styles(animate)


class _InputField(FormField):
    _input_type: str = "text"
    _narrow: bool = False
    _input: Input | None = None
    opened_quietly = False
    """Its Input did not report the text it opened with (``FormScreen.QUIET_OPEN``)."""

    def __init__(self, label: str, *, key: str, text: str, placeholder: str = "",
                 max_length: int = 0, **kwargs: Any) -> None:
        super().__init__(label, key=key, **kwargs)
        self._text = text
        self._placeholder = placeholder
        self._max_length = max_length

    def compose_control(self) -> ComposeResult:
        screen: Any = self.screen
        quiet = (bool(getattr(screen, "QUIET_OPEN", False)) and not screen.opened
                 and trick_on(Trick.QUIET_INPUT_OPEN))
        self.opened_quietly = quiet and self._text != ""  # "" is no change: never reported
        self._input = FieldInput(
            self._text,
            quiet=quiet,
            placeholder=self._placeholder,
            type=self._input_type,
            max_length=self._max_length,
            compact=True,
            select_on_focus=self._narrow,  # typing replaces a number, appends to text
            classes="-narrow" if self._narrow else "",
            id=f"input-{self.key}",
        )
        yield self._input

    @property
    def input(self) -> Input:
        if self._input is not None and self._input.parent is self:
            return self._input  # no DOM query per read (the form reads every field per key)
        return self.query_one(Input)

    @property
    def raw(self) -> str:
        return self.input.value if self.is_mounted else self._text

    def set_text(self, text: str) -> None:
        """Replace the text (mounted or not yet: a lazily mounted tab) and re-check."""
        if self.is_mounted:
            self.input.value = text  # posts Input.Changed → checks
        else:
            self._text = text
            self._changed()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._changed()


class TextField(_InputField):
    """Free text. ``value`` is the stripped text."""

    def __init__(self, label: str, value: str = "", *, key: str, max_length: int = 0,
                 placeholder: str = "", **kwargs: Any) -> None:
        super().__init__(label, key=key, text=value, placeholder=placeholder,
                         max_length=max_length, **kwargs)

    @property
    def value(self) -> str:
        return self.raw.strip()

    def own_error(self) -> str | None:
        if self.required and not self.value:
            return "required"
        return None


class IntField(_InputField):
    """A whole number in ``lo..hi``. Empty is ``None`` (an error when ``required``)."""

    _input_type = "integer"
    _narrow = True

    def __init__(self, label: str, value: int | None = None, *, key: str,
                 lo: int | None = None, hi: int | None = None, required: bool = True,
                 **kwargs: Any) -> None:
        super().__init__(label, key=key, text="" if value is None else str(value),
                         required=required, **kwargs)
        self.lo = lo
        self.hi = hi

    @property
    def value(self) -> int | None:
        try:
            return int(self.raw.strip())
        except ValueError:
            return None

    def own_error(self) -> str | None:
        text = self.raw.strip()
        if not text:
            return "required" if self.required else None
        number = self.value
        if number is None:
            return "must be a whole number"
        return range_error(number, self.lo, self.hi)


def range_error(number: int, lo: int | None, hi: int | None) -> str | None:
    """The message for ``number`` outside ``lo..hi`` (inclusive), else ``None``."""
    if lo is not None and hi is not None and not lo <= number <= hi:
        return f"must be {lo}..{hi}"
    if lo is not None and number < lo:
        return f"must be at least {lo}"
    if hi is not None and number > hi:
        return f"must be at most {hi}"
    return None


class _Toggle(Static, can_focus=True):
    """The focusable one-line control of a choice or check field."""

    DEFAULT_CSS = """
    _Toggle {
        width: 24;
        height: 1;
        background: $surface;
    }
    _Toggle:focus {
        background: $accent 40%;
        text-style: bold;
    }
    """


class ChoiceField(FormField, Generic[V]):
    """One value of ``choices`` (``(label, value)`` pairs); ←/→ or space cycles."""

    BINDINGS = [
        Binding("left", "step(-1)", "Previous", show=False, id="choice.previous"),
        Binding("right,space", "step(1)", "Next", show=False, id="choice.next"),
    ]

    def __init__(self, label: str, choices: Sequence[tuple[str, V]], value: V | None = None,
                 *, key: str, **kwargs: Any) -> None:
        super().__init__(label, key=key, **kwargs)
        if not choices:
            raise ValueError("ChoiceField needs at least one choice")
        self.choices = list(choices)
        values = [v for _, v in self.choices]
        self._index = values.index(value) if value in values else 0

    def compose_control(self) -> ComposeResult:
        yield _Toggle(self._render_choice(), id=f"choice-{self.key}", markup=False)

    def _render_choice(self) -> str:
        return f"< {self.choices[self._index][0]} >"

    @property
    def value(self) -> V:
        return self.choices[self._index][1]

    @value.setter
    def value(self, new: V) -> None:
        values = [v for _, v in self.choices]
        self._index = values.index(new)
        self._refresh_choice()

    def _refresh_choice(self) -> None:
        if self.is_mounted:
            self.query_one(_Toggle).update(self._render_choice(), layout=False)
        self._changed()

    def action_step(self, delta: int) -> None:
        self._index = (self._index + delta) % len(self.choices)
        self._refresh_choice()

    def on_key(self, event: events.Key) -> None:
        char = (event.character or "").lower()
        if len(char) != 1 or not char.isalnum():
            return
        for i, (label, _) in enumerate(self.choices):
            if label.lower().startswith(char):
                event.stop()
                self._index = i
                self._refresh_choice()
                return


class CheckField(FormField):
    """Yes / no. Space or enter toggles."""

    BINDINGS = [
        Binding("space,enter", "flip", "Toggle", show=False, id="check.toggle"),
    ]

    def __init__(self, label: str, value: bool = False, *, key: str, **kwargs: Any) -> None:
        super().__init__(label, key=key, **kwargs)
        self._checked = value

    def compose_control(self) -> ComposeResult:
        yield _Toggle(self._render_check(), id=f"check-{self.key}", markup=False)

    def _render_check(self) -> str:
        return "[X] yes" if self._checked else "[ ] no"

    @property
    def value(self) -> bool:
        return self._checked

    @value.setter
    def value(self, new: bool) -> None:
        self._checked = new
        if self.is_mounted:
            self.query_one(_Toggle).update(self._render_check(), layout=False)
        self._changed()

    def action_flip(self) -> None:
        self.value = not self._checked


def fields_of(container: Widget | Iterable[FormField]) -> list[FormField]:
    """The fields of a container (a DOM query), or a list of fields as given
    (a form with lazily mounted tabs keeps its own list)."""
    if isinstance(container, Widget):
        return list(container.query(FormField))
    return list(container)


def collect(container: Widget | Iterable[FormField]) -> tuple[dict[str, Any], dict[str, str]]:
    """Validate every field in ``container``: (values by key, errors by key)."""
    values: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for f in fields_of(container):
        values[f.key] = f.value
        message = f.error or f.validate_value()
        if message:
            errors[f.key] = message
    return values, errors


def show_errors(container: Widget | Iterable[FormField], errors: dict[str, str]) -> list[str]:
    """Show ``errors`` on the matching fields; return the keys no field matched."""
    by_key = {f.key: f for f in fields_of(container)}
    unmatched: list[str] = []
    for key, message in errors.items():
        if key in by_key:
            by_key[key].set_error(message)
        else:
            unmatched.append(key)
    return unmatched


def first_invalid(container: Widget | Iterable[FormField]) -> FormField | None:
    return next((f for f in fields_of(container) if f.error), None)


def _field_of(widget: Any) -> FormField | None:
    """The field holding ``widget`` (its control), if any."""
    node = widget
    while node is not None and not isinstance(node, FormField):
        node = node.parent
    return node


def choices_of(values: Iterable[V], label: Callable[[V], str] = str) -> list[tuple[str, V]]:
    return [(label(v), v) for v in values]


R = TypeVar("R")


class LightModal(DialogInternals, ModalScreen[R], Generic[R]):
    """A dialog over part of the screen that repaints only itself.

    A pushed screen marks the whole terminal dirty twice (on resume and on its
    first layout), and a dimmed background changes every cell: 30-46 KB for a
    dialog. With ``LIGHT = True`` the background stays as it is (see-through,
    the screen under it shows unchanged), and while the terminal has the size it
    had when the dialog opened, a whole-screen repaint becomes a repaint of the
    dialog's own widgets. A resize, or a second resume (a dialog over this one
    closed), repaints everything as before (``textual_compat.forms``; a dialog
    just composed is not restyled again as it is shown, either).
    """

    LIGHT = False
    """Off for now: Textual draws a screen with a see-through background over
    black, not over the screen under it, on a full repaint (a resize) -- see
    the thin-link report; the partial repaint works (delete confirm 8.9 KB)."""

    DEFAULT_CSS = """
    LightModal.-light {
        background: $background 1%;  /* not "transparent": a full repaint (a
                                        resize) then still shows the screen under it */
    }
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.LIGHT:
            self.add_class("-light")


def _may_show_scrollbar(widget: Widget) -> bool:
    """A scroll bar that takes room may appear now: its content overflows (a
    one-line Input's never does)."""
    if isinstance(widget, FieldInput):
        return False
    styles, inner, size = widget.styles, widget.virtual_size, widget.size
    vertical = styles.overflow_y == "scroll" or (
        styles.overflow_y == "auto" and inner.height > size.height)
    horizontal = styles.overflow_x == "scroll" or (
        styles.overflow_x == "auto" and inner.width > size.width)
    return bool((vertical and styles.scrollbar_size_vertical)
                or (horizontal and styles.scrollbar_size_horizontal))


class FormScreen(OpensInOneLayout, LightModal[R], Generic[R]):
    """A modal form: ctrl+s saves, escape cancels, enter moves to the next field.

    Subclasses compose their fields and override:

    - ``cross_errors(values) -> {key: message}`` for checks across fields
      (run on every change and on save);
    - ``write(values) -> R`` to store the values. It runs in a worker thread,
      one call per save (one transaction); raise the store's ``ValidationError``
      (``.field``, ``.message``) to put a message beside a field, or
      ``StoreError`` for anything else (shown in the status line and as a
      notification). Any other exception is shown the same way, named, so a
      bug never leaves the form on "Saving…". The form stays open on any
      error and closes with ``write``'s result on success.
      Without ``write`` (sub-forms that only return values) the form dismisses
      with ``values`` directly.

    Nothing is written while any field shows an error.
    """

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="form.save"),
        Binding("escape", "cancel", "Cancel", id="form.cancel"),
    ]

    DEFAULT_CSS = """
    FormScreen {
        align: center middle;
    }
    FormScreen > .form-box {
        width: 78;
        max-width: 100%;
        height: auto;
        max-height: 22;
        border: round $accent;
        background: $panel;
        padding: 0 1;
    }
    FormScreen .form-status {
        height: auto;  /* a long message wraps (max 3 lines), not cut at 80 columns */
        max-height: 3;
        color: $text-muted;
    }
    FormScreen .form-status.-error {
        color: $text-error;
    }
    """

    saving: reactive[bool] = reactive(False)

    DRAWN_FIELDS = False
    """Fields draw their own label and error (fewer widgets per field)."""

    QUIET_OPEN = False
    """Fields do not report the values they open with: one message per field,
    each bubbling up to the screen. The form checks every field once
    as it mounts instead, as those reports made it do a frame later."""

    opened = False
    """The first check after opening has run (``QUIET_OPEN``)."""

    shared_input_styles: dict[Any, dict[str, Any]] | None = None
    """``QUIET_OPEN``: the Inputs' component styles, shared (``FieldInput``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.QUIET_OPEN:
            self.shared_input_styles = {}

    LIGHT = False
    """See ``LightModal``; the forms that draw their fields set it too."""

    ASK_BEFORE_DISCARD = False
    """Escape asks before throwing away a changed form."""

    _initial: dict[str, Any] | None = None
    _keys_ready: asyncio.Event | None = None

    def may_need_second_layout(self, widget: Widget) -> bool:
        return _may_show_scrollbar(widget)

    def on_mount(self) -> None:
        if self.ASK_BEFORE_DISCARD:
            self.call_after_refresh(self._remember_initial)
        self.call_after_refresh(self._ready_event().set)
        if self.QUIET_OPEN:
            self.call_after_refresh(self.first_frame_drawn)
            self._check_opened()

    def _check_opened(self) -> None:
        """What the fields' first reports did: one whole-form check, the status
        naming the last reporting field's error (else the focused one's). Now,
        so the first frame shows it (the reports ran it a frame later)."""
        self.opened = True
        reported = [f for f in self.form_fields()
                    if isinstance(f, _InputField) and f.opened_quietly]
        if reported:
            self.check_form(reported[-1])

    def _ready_event(self) -> asyncio.Event:
        if self._keys_ready is None:
            self._keys_ready = asyncio.Event()
        return self._keys_ready

    async def wait_ready(self) -> None:
        """Until the form has drawn its first frame. A priority binding (ctrl+t)
        runs in the app's queue, before the keys after it are routed; waiting
        here keeps them in order while the form opens."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._ready_event().wait(), 3)

    def _remember_initial(self) -> None:
        self._initial = copy.deepcopy(self.current_values())

    def current_values(self) -> dict[str, Any]:
        """The values as the form holds them now (no checks run)."""
        values = {f.key: f.value for f in self.form_fields()}
        extra = self.values_extra()
        return {**values, **extra}

    def values_extra(self) -> dict[str, Any]:
        """Values not held by a field (a table of skills), for ``changed``."""
        return {}

    @property
    def changed(self) -> bool:
        return self._initial is not None and self.current_values() != self._initial

    def cross_errors(self, values: dict[str, Any]) -> dict[str, str]:
        return {}

    write: Callable[[dict[str, Any]], Any] | None = None

    _fields: list[FormField] | None = None

    def form_fields(self) -> list[FormField]:
        """Every field of the form, in order. Queried once (a DOM query per key
        stroke made typing slow); a form with lazily mounted tabs overrides it."""
        if self._fields is None:
            found = fields_of(self)
            if not found:
                return found  # not composed yet: do not cache an empty list
            self._fields = found
        return self._fields

    def values(self) -> tuple[dict[str, Any], dict[str, str]]:
        values, errors = collect(self.form_fields())
        for key, message in self.cross_errors(values).items():
            errors.setdefault(key, message)
        return values, errors

    _check_pending = False
    _changed_field: FormField | None = None

    def on_form_field_changed(self, event: FormField.Changed) -> None:
        """Each field checked itself already (the error beside it is immediate);
        the whole-form pass runs once per burst of changes: at mount every Input
        reports its first value, and a template fills every field."""
        self._changed_field = event.field
        if not self._check_pending:
            self._check_pending = True
            self.call_after_refresh(self._check_changed)

    def _check_changed(self) -> None:
        self._check_pending = False
        if self._changed_field is not None:
            self.check_form(self._changed_field)

    def check_form(self, field: FormField) -> None:
        """Every field's own and cross-field error now; ``field``'s in the status line."""
        fields = self.form_fields()
        values = {f.key: f.value for f in fields}
        cross = self.cross_errors(values)
        for f in fields:
            own = f.own_error()
            if own is None:
                for check in f.checks:
                    own = check(f.value)
                    if own:
                        break
            f.set_error(own or cross.get(f.key))
        # The changed field's error; else the focused one's (at mount the last
        # field to report is rarely the one the user is on).
        shown = field if field.error else (_field_of(self.focused) or field)
        if shown.error:
            self.set_status(f"{shown.label}: {shown.error}", error=True)
        else:
            self.set_status("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.focus_next()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The focused field's whole error (the one beside it may be cut short)."""
        node = _field_of(event.widget)
        if node is not None and node.error:
            self.set_status(f"{node.label}: {node.error}", error=True)

    _status_shown: tuple[str, bool] | None = None

    def set_status(self, message: str, *, error: bool = False) -> None:
        if self._status_shown == (message, error):
            return  # unchanged: no repaint per key stroke
        # a layout pass only when the line may wrap (or wrapped): not per key stroke
        was_long = self._status_shown is not None and len(self._status_shown[0]) > 60
        self._status_shown = (message, error)
        for status in self.query(".form-status"):
            assert isinstance(status, Static)
            status.update(message, layout=was_long or len(message) > 60)
            status.set_class(error, "-error")

    def action_cancel(self) -> None:
        if self.ASK_BEFORE_DISCARD and self.changed and not self.saving:
            def answered(yes: bool | None) -> None:
                if yes:
                    self.dismiss(None)
            self.app.push_screen(DiscardScreen(), answered)
            return
        self.dismiss(None)

    _save_hold: KeyHold | None = None

    def action_save(self) -> None:
        values, errors = self.values()
        if errors:
            show_errors(self.form_fields(), errors)
            bad = first_invalid(self.form_fields())
            if bad is not None:
                bad.focus_control()
            count = len(errors)
            self.set_status(f"Not saved: {count} field{'s' if count > 1 else ''} to fix.",
                            error=True)
            return
        if self.write is None:
            self.dismiss(values)  # type: ignore[arg-type]
            return
        self.saving = True
        self.set_status("Saving…")
        # the keys typed meanwhile wait (no second save, none lost): they go on
        # in the form if it is refused, else to the screen under it
        self._save_hold = hold_keys(self)
        self._save_worker(values)

    @work(thread=True, exclusive=True, group="form-save", exit_on_error=False)
    def _save_worker(self, values: dict[str, Any]) -> None:
        assert self.write is not None
        try:
            result = self.write(values)
        except ValidationError as error:
            self.app.call_from_thread(self._failed, error.message, error.field)
        except StoreError as error:
            self.app.call_from_thread(self._failed, str(error), None)
        except Exception as error:  # noqa: BLE001 - never leave the form on "Saving…"
            message = f"the save failed ({type(error).__name__}: {error})"
            self.app.call_from_thread(self._failed, message, None)
        else:
            self.app.call_from_thread(self._saved, result)

    def _release_keys(self) -> None:
        hold, self._save_hold = self._save_hold, None
        if hold is not None:
            hold.release()

    def _failed(self, message: str, field: str | None) -> None:
        self.saving = False
        self.call_later(self._release_keys)  # after the fields show what is wrong
        if field is not None and not show_errors(self.form_fields(), {field: message}):
            bad = first_invalid(self.form_fields())
            if bad is not None:
                bad.focus_control()
            # the whole message: the one beside the field may be cut short
            marked = next((f for f in self.form_fields() if f.key == field), None)
            label = marked.label if marked is not None else field
            self.set_status(f"Not saved: {label}: {message}", error=True)
            return
        text = f"{field}: {message}" if field else message
        self.set_status(f"Not saved: {text}", error=True)
        self.notify(text, title="Not saved", severity="error")

    def _saved(self, result: Any) -> None:
        self.saving = False
        self.dismiss(result)
        self._release_keys()


class DiscardScreen(LightModal[bool]):
    """Escape on a changed form: ``y`` throws the changes away, ``n``/escape
    goes back to the form. Small and over the form's box only."""

    DEFAULT_CSS = """
    DiscardScreen {
        align: center middle;
    }
    DiscardScreen > Static {
        width: 50;
        height: auto;
        border: round $warning;
        background: $panel;
        padding: 0 1;
    }
    """

    BINDINGS = [
        Binding("y", "answer(True)", "Discard", id="discard.yes"),
        Binding("n,escape", "answer(False)", "Keep editing", id="discard.no"),
    ]

    def compose(self) -> ComposeResult:
        box = Static("The form has changes. Throw them away?\n"
                     "y discard   n/escape keep editing   (ctrl+s saves)", markup=False)
        box.border_title = "Discard changes?"
        yield box

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class TabbedFormScreen(FormScreen[R], Generic[R]):
    """A form over the panes of one ``TabbedContent``; ``TAB_ORDER`` lists
    their ids in the order ``action_next_tab`` (bound to ctrl+t by each form,
    with its own binding id) cycles them.

    Hooks: ``ensure_pane(pane_id)`` mounts a pane built lazily (default: they
    are all composed); ``pane_of(field)`` names the pane holding a field, so a
    refused save shows it (default ``None``: the form's fields share one tab).
    """

    TAB_ORDER: tuple[str, ...] = ()

    async def ensure_pane(self, pane_id: str) -> None:
        """Mount pane ``pane_id``'s content if it is built on first show."""

    def pane_of(self, field: FormField) -> str | None:
        return None

    def focus_pane(self, pane: TabPane) -> None:
        """Focus the first focusable widget of ``pane`` (after ctrl+t)."""
        for widget in pane.query("*"):
            if widget.can_focus and (isinstance(widget, DataTable)
                                     or not isinstance(widget, ScrollableContainer)):
                self.set_focus(widget)  # now, not after the keys already queued
                return

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Focus never stays in a hidden tab: keys typed quickly after opening
        the form or switching tabs go to the shown one.
        (Textual runs ``FormScreen.on_descendant_focus`` too.)"""
        tabs = self.query(TabbedContent)
        if not tabs:
            return
        active = tabs.first().active
        node: Any = event.widget
        while node is not None and not isinstance(node, TabPane):
            node = node.parent
        if node is not None and node.id != active and active:
            pane = tabs.first().query_one(f"#{active}", TabPane)
            self.call_later(self.focus_pane, pane)

    async def action_next_tab(self) -> None:
        await self.wait_ready()  # a priority binding: may come before the form shows
        tabs = self.query_one(TabbedContent)
        order = list(self.TAB_ORDER)
        following = order[(order.index(tabs.active) + 1) % len(order)]
        await self.ensure_pane(following)
        tabs.active = following
        self.focus_pane(tabs.query_one(f"#{following}", TabPane))

    def action_save(self) -> None:
        super().action_save()
        self._reveal_first_error()

    def _failed(self, message: str, field: str | None) -> None:
        super()._failed(message, field)
        self._reveal_first_error()

    def _reveal_first_error(self) -> None:
        """Show the tab holding the first field in error and focus that field."""
        bad = first_invalid(self.form_fields())
        pane_id = None if bad is None else self.pane_of(bad)
        if bad is not None and pane_id is not None:
            self.call_later(self._show_field, pane_id, bad)

    async def _show_field(self, pane_id: str, field: FormField) -> None:
        await self.ensure_pane(pane_id)
        self.query_one(TabbedContent).active = pane_id
        self.call_after_refresh(field.focus_control)
