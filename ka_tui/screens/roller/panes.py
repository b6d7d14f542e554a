"""The roller's panes: the form on the left (who, skill, base, mods, pools)
and the faces field, each drawing a view of the model (``model.FormView``,
``model.FacesView``) set on its reactive ``view``."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.reactive import reactive
from textual.widgets import Select

from ka_tui.screens.roller.fields import FACE_CHARS, POOL_CHARS, PickRow, RollTextField
from ka_tui.screens.roller.model import FacesView, FormView
from ka_tui.widgets.form_fields import TextField

# The rows of the form: (id, label, select name, or a text field's key).
_PICKS = (("row-who", "Who", "who"), ("row-skill", "Roll", "skill"), ("row-base", "On", "base"),
          ("row-versus", "Versus", "versus"), ("row-vskill", "Roll", "vskill"),
          ("row-vbase", "On", "vbase"))
_FIELDS = {"mods": "field-mods", "pool_a": "field-pool-a", "pool_b": "field-pool-b"}


class RollForm(Vertical):
    """Who rolls what against whom. Picks change without posting
    ``Select.Changed`` (only the GM's own picks post it); a pool's text is
    written only when the model filled it (``Fill.serial``), never over what
    the GM is typing. Always repainted when set: the fields' own checks clear
    their errors as the GM types, and the view puts them back."""

    DEFAULT_CSS = """
    RollForm {
        width: 44;
        height: auto;
    }
    RollForm RollTextField > Input {
        width: 22;
    }
    """

    view: reactive[FormView | None] = reactive(None, always_update=True, init=False)

    def compose(self) -> ComposeResult:
        rows = {row: PickRow(label, _new_select(name), id=row) for row, label, name in _PICKS}
        yield rows["row-who"]
        yield rows["row-skill"]
        yield rows["row-base"]
        yield TextField("Mods", key="mods", placeholder="+2 long range, -1 tail",
                        label_width=7, id="field-mods")
        yield RollTextField("Pool", key="pool_a", placeholder="type: 2d6 @7",
                            allowed=POOL_CHARS, label_width=7, id="field-pool-a")
        yield rows["row-versus"]
        yield rows["row-vskill"]
        yield rows["row-vbase"]
        yield RollTextField("Pool", key="pool_b", placeholder="type: 2d10 @5",
                            allowed=POOL_CHARS, label_width=7, id="field-pool-b")

    def watch_view(self, old: FormView | None, new: FormView | None) -> None:
        if new is None:
            return
        with self.prevent(Select.Changed):
            for name, pick in new.picks.items():
                select: Select[Any] = self.query_one(f"#select-{name}", Select)
                if old is None or old.picks[name].options != pick.options:
                    select.set_options([(Text(label), value) for label, value in pick.options])
                if select.value != pick.value:
                    select.value = pick.value
        for row, shown in new.rows.items():
            self.query_one(f"#{row}").display = shown
        for key, fill in new.texts.items():
            field = self.query_one(f"#{_FIELDS[key]}", TextField)
            if old is None or old.texts[key].serial != fill.serial:
                field.input.value = fill.text
            field.set_error(new.errors[key] or None)


class OddsBox(VerticalScroll):
    """The odds, scrolled when an opposed roll's lines overflow."""

    HELP_TITLE = "Odds"


class FacesField(RollTextField):
    """The faces the table's dice show: ``r`` still rolls, other letters reach
    the keys (``v``, ``w``, ``/``)."""

    DEFAULT_CSS = """
    FacesField {
        height: 1;
    }
    FacesField > Input {
        width: 30;
    }
    """

    view: reactive[FacesView | None] = reactive(None, always_update=True, init=False)

    def __init__(self) -> None:
        super().__init__("Faces", key="faces", allowed=FACE_CHARS,
                         placeholder="table's dice: 3 7 10, or r", label_width=7,
                         id="field-faces")

    def watch_view(self, old: FacesView | None, new: FacesView | None) -> None:
        if new is None:
            return
        box = self.input
        if old is None or old.fill.serial != new.fill.serial:
            box.value = new.fill.text
        box.placeholder = new.placeholder
        self.set_error(new.error or None)


def _new_select(name: str) -> Select[Any]:
    return Select([("…", 0)], allow_blank=False, compact=True, id=f"select-{name}")
