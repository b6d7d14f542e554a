"""A yes/no question as a modal screen: ``push_screen(ConfirmScreen(...), callback)``.

Dismisses with ``True`` for yes, ``False`` for no or escape. ``y``/``n`` answer
directly; the default focus is on "No" so a stray enter never deletes.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from ka_tui.widgets.form_fields import LightModal


class ConfirmScreen(LightModal[bool]):
    # beside this module, also for subclasses defined elsewhere
    CSS_PATH = Path(__file__).with_name("confirm.tcss")

    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
        Binding("left,right", "app.focus_next", "Switch", show=False, id="confirm.switch"),
    ]

    def __init__(self, question: str, *, yes: str = "Yes", no: str = "No",
                 title: str = "Confirm") -> None:
        super().__init__()
        self.question = question
        self.yes_label = yes
        self.no_label = no
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = self.title_text
            yield Static(self.question, classes="confirm-question", markup=False)
            with Horizontal():
                yield Button(f"{self.yes_label} (y)", id="yes", variant="error", compact=True)
                yield Button(f"{self.no_label} (n)", id="no", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
