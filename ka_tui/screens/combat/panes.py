"""The close-combat screen's panes: each a widget that repaints itself when
its reactive attribute is set (the screen sets them from a ``StepView``).

``StepBar`` the six steps with the current one marked; ``LinesView`` lines
of styled text (the fighters, the step's pane, the card's note);
``StatusLine`` what the keys do now, or what went wrong; ``RoundDiceField`` the
table's faces (steps 1 and 4). The player's fight pane shows the same bar.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from ka_tui.screens.combat.report import step_bar
from ka_tui.screens.ordered_keys import OrderedInput
from ka_tui.screens.roller.fields import RollKeyInput, RollTextField

FACE_CHARS = r"[0-9 ,;]"

Lines = tuple[Content, ...]


class StepBar(Static):
    """``1 Order · 2 Plan · [3 Reveal] · …`` (None: blank, before a fight is read)."""

    step: reactive[int | None] = reactive(None)

    def __init__(self, *, ascii_glyphs: bool = False, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.ascii_glyphs = ascii_glyphs

    def watch_step(self, step: int | None) -> None:
        self.update("" if step is None else step_bar(step, ascii_glyphs=self.ascii_glyphs))


class LinesView(Static):
    """Lines of styled text, one under the other."""

    lines: reactive[Lines] = reactive((), always_update=True)

    def __init__(self, *lines: Content | str, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.set_reactive(LinesView.lines, tuple(Content(x) if isinstance(x, str) else x
                                                 for x in lines))

    def watch_lines(self, lines: Lines) -> None:
        self.update(Content("\n").join(lines))


class StatusLine(Static):
    """What the keys do now (muted), or what went wrong (bold, the error colour)."""

    message: reactive[tuple[str, bool]] = reactive(("", False), always_update=True)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)

    def say(self, text: str, *, error: bool = False) -> None:
        self.message = (text, error)

    @property
    def text(self) -> str:
        return self.message[0]

    def watch_message(self, message: tuple[str, bool]) -> None:
        text, error = message
        self.update(Content(text).stylize("bold $error" if error else "$text-muted"))


class FacesInput(OrderedInput, RollKeyInput):
    """The faces typed in the screen's key order; enter hands them to the
    screen at once (not by a message the next key would overtake)."""

    def __init__(self, *, entered: Callable[[str], None], **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.entered = entered

    async def action_submit(self) -> None:
        self.entered(self.value)


class RoundDiceField(RollTextField):
    """The faces the table's dice show (steps 1 and 4), checked at the field;
    ``entered`` takes them when enter is pressed."""

    PLACEHOLDER = "table's faces, or r to roll"

    def __init__(self, *, entered: Callable[[str], None]) -> None:
        super().__init__("Dice", key="dice", allowed=FACE_CHARS, placeholder=self.PLACEHOLDER,
                         label_width=6, id="field-dice")
        self.entered = entered

    def compose(self) -> ComposeResult:
        yield self.compose_label()
        yield FacesInput(entered=self.entered, placeholder=self.PLACEHOLDER, compact=True,
                         select_on_focus=False, id=f"input-{self.key}", allowed=FACE_CHARS)
        yield self.compose_error()

    def on_mount(self) -> None:  # (Textual calls the base class's on_mount too)
        self.display = False

    @property
    def text(self) -> str:
        return self.input.value

    def validate_value(self) -> str:
        """The screen checks the faces as they are typed (the engine names the
        die each one is for): the field keeps the error it was given."""
        return self.error

    def set_error(self, message: str | None) -> None:
        """The error, laid out again so a long one wraps whole at 80 columns
        instead of being cut."""
        super().set_error(message)
        if self.is_mounted:
            self.query_one(".ff-error", Static).refresh(layout=True)

    def show(self, on: bool, placeholder: str = "") -> None:
        """Shown empty (with ``placeholder``), or hidden."""
        self.display = on
        self.input.value = ""
        self.set_error(None)
        if placeholder:
            self.input.placeholder = placeholder
