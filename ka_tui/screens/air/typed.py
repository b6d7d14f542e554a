"""Typed input of the air-battle screen: a plan in the notation (``p``) and
the faces of the table's dice (``t``), each face checked at the field against
the die the step needs next (``Battle.needs``), refused with the reason."""

from __future__ import annotations

from textual.widgets import Input

from ka_tui.rules.core.dice import DiceError
from ka_tui.screens.air.base import AirBase
from ka_tui.widgets.hex_map import HexMap


class TypedInput(AirBase):

    def action_type_plan(self) -> None:
        uid = self.selected()
        if self.runner is None or uid is None:
            return
        self._open_input("plan", self.runner.plan_text(uid),
                         "plan: +1 F F R F C D LOOP LAND … (enter)")

    def action_table_dice(self) -> None:
        if self.runner is None:
            return
        step = self._pending()
        if step is None:
            return
        self.dice_step = step
        self._open_input("dice", "", f"faces for: {step.label} (enter; esc: back)")
        self._check_faces("")

    def _open_input(self, mode: str, value: str, placeholder: str) -> None:
        field = self.query_one("#air-cmd", Input)
        self.input_mode = mode
        field.value = value
        field.placeholder = placeholder
        field.display = True
        field.focus()
        field.cursor_position = len(value)

    def _close_input(self) -> None:
        field = self.query_one("#air-cmd", Input)
        field.display = False
        self.input_mode = ""
        self.query_one(HexMap).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "air-log-filter":
            self._show_log()
        elif event.input.id == "air-cmd" and self.input_mode == "dice":
            self._check_faces(event.value)
        elif event.input.id == "air-cmd" and self.input_mode == "plan":
            uid = self.selected()
            if uid and self.runner is not None:
                self.hold_detail = False
                errors = self.runner.set_text(uid, event.value)
                self._status("; ".join(errors))
                self.refresh_overlays()

    def _faces(self, text: str) -> list[int]:
        return [int(w) for w in text.replace(",", " ").split() if w.isdigit()]

    def _check_faces(self, text: str) -> str | None:
        """Each face checked at the field: the roll the next face goes to (its
        name, whose it is, its target and odds; the whole list in the detail
        pane, ``dice_lines``), or why not."""
        from ka_tui.screens.air.dice_lines import due_lines, due_status

        assert self.runner is not None and self.dice_step is not None
        bad = [w for w in text.replace(",", " ").split() if not w.isdigit()]
        if bad:
            msg = f"'{bad[0]}' is not a face (numbers only)"
        else:
            try:
                due = self.runner.dice_due(self.dice_step, self._faces(text))
            except (DiceError, ValueError) as error:
                msg = f"refused: {error}"
            else:
                msg = due_status(due)
                lines = due_lines(self.dice_step.label, due)
                self._detail(lines, tall=len(lines) > 5)
        self._status(msg)
        return msg

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "air-cmd":
            return
        event.stop()
        if self.input_mode == "plan":
            self._close_input()
            return
        if self.input_mode == "dice" and self.runner is not None and self.dice_step:
            msg = self._check_faces(event.value)
            if msg is None or not msg.startswith("enough faces"):
                self.app.bell()
                return
            step = self.dice_step
            try:
                saved = self.runner.do_faces(step, self._faces(event.value))
            except (DiceError, ValueError) as error:
                self._status(f"refused: {error}")
                return
            self._close_input()
            self.dice_step = None
            self._after(step, saved)
