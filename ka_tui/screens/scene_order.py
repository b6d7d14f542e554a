"""The scene order tracker: who acts next in a mixed scene.

S0 §Close combat 1: aircraft first, then ground ranged combat, then close
combat, each band ordered by its own initiative (the Combat Initiative test's
successes, or the Agility test's). The ordering and the round counter are pure
(``rules/core/scene_order.py``); this screen shows them: the current actor
marked ``>`` and highlighted, the round on top. ``n`` next, ``p`` back, ``a``
adds an actor (``Kay a 3 5``: name, band, initiative, Agility), ``d`` takes
the one under the cursor out, ``i`` gives him a new initiative, ``ctrl+n``
starts a new scene. The scene lives while the app runs (a table aid, not a
campaign record).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Header, Input, Label, Static

from ka_tui.rules.core.scene_order import ActorError, Scene, parse_actor
from ka_tui.widgets.quiet_footer import QuietFooter

BAND_SHORT = {"aircraft": "1 aircraft", "ground ranged": "2 ground ranged",
              "close combat": "3 close combat"}


class SceneOrderScreen(Screen[None]):
    HELP_TITLE = "Scene order"

    BINDINGS = [
        Binding("n", "next", "Next", id="scene.next"),
        Binding("p", "previous", "Back", id="scene.previous"),
        Binding("a", "add", "Add", id="scene.add"),
        Binding("d,delete", "remove", "Out", id="scene.remove"),
        Binding("i", "initiative", "Initiative", id="scene.initiative"),
        Binding("ctrl+n", "new_scene", "New scene", show=False, id="scene.new"),
        # while the Add line has the focus its letters are typed: the footer says
        # how to get back to the list's keys
        Binding("escape", "to_list", "To the list", id="scene.to_list"),
    ]

    PALETTE_HELP = {
        "scene.next": "Scene order: the next actor (after the last, a new round)",
        "scene.previous": "Scene order: back one actor",
        "scene.add": "Scene order: add an actor — NAME BAND INITIATIVE [AGILITY]",
        "scene.remove": "Scene order: take the actor under the cursor out of the scene",
        "scene.initiative": "Scene order: a new initiative for the actor under the cursor",
        "scene.new": "Scene order: start a new scene (round 1, nobody in it)",
        "scene.to_list": "Scene order: leave the Add line for the list (n, p, d, i)",
    }

    CSS_PATH = "scene_order.tcss"

    def __init__(self) -> None:
        super().__init__()
        self.scene = Scene()
        self._initiative_for: int | None = None  # row whose initiative is being typed

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Static("", id="scene-round", markup=False)
        yield DataTable(id="scene-table", cursor_type="row", zebra_stripes=True)
        with Horizontal(id="scene-entry-row"):
            yield Label("Add", id="scene-entry-label")
            yield Input(placeholder="NAME BAND INIT [AGILITY], e.g. Kay a 3 5",
                        id="scene-entry", compact=True)
        yield Static("", id="scene-error", markup=False)
        yield Static("S0 §Close combat 1: aircraft, then ground ranged combat, then close "
                     "combat; in each band the most Combat Initiative successes (or "
                     "Agility test) first. Bands: a, g, c. Esc (or enter on an empty "
                     "line) goes to the list: n next, p back, d out, i initiative.",
                     id="scene-help", markup=False)
        yield QuietFooter()

    def on_mount(self) -> None:
        self.sub_title = "Scene order"
        table = self.query_one(DataTable)
        for title, width in (("", 2), ("Band", 16), ("Name", 30), ("Init", 5), ("Agi", 4)):
            table.add_column(title, width=width)
        self.query_one("#scene-entry", Input).cursor_blink = False
        self._show()
        self.query_one("#scene-entry", Input).focus()

    # -- showing -----------------------------------------------------------

    def _show(self) -> None:
        table = self.query_one(DataTable)
        keep = table.cursor_row
        table.clear()
        for i, actor in enumerate(self.scene.actors):
            is_now = i == self.scene.current
            style = "bold reverse" if is_now else ""
            cells = (">" if is_now else "", BAND_SHORT[actor.band.value], actor.name,
                     str(actor.initiative), str(actor.agility))
            table.add_row(*(Text(c, style=style, no_wrap=True, overflow="ellipsis")
                            for c in cells))
        if self.scene.actors:
            table.move_cursor(row=min(max(keep, 0), len(self.scene.actors) - 1))
        current = self.scene.actor
        now = f" · now: {current.name} ({current.band.value})" if current else \
            " · nobody yet: add the actors below"
        self.query_one("#scene-round", Static).update(f"Round {self.scene.round}{now}")

    def _error(self, text: str) -> None:
        self.query_one("#scene-error", Static).update(text)

    # -- entry ---------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if self._initiative_for is not None:
            try:
                value = int(text)
                if not 0 <= value <= 20:
                    raise ValueError
            except ValueError:
                self._error("initiative: the successes, 0 to 20")
                self.app.bell()
                return
            self.scene = self.scene.new_initiative(self._initiative_for, value)
            self._initiative_for = None
            self.query_one("#scene-entry-label", Label).update("Add")
        else:
            if not text:
                self.query_one(DataTable).focus()
                return
            try:
                actor = parse_actor(text)
            except ActorError as error:
                self._error(str(error))
                self.app.bell()
                return
            self.scene = self.scene.add(actor)
        event.input.value = ""
        self._error("")
        self._show()

    # -- actions ---------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "to_list":
            return self.focused is not None and self.focused.id == "scene-entry"
        return True

    def action_to_list(self) -> None:
        self.query_one(DataTable).focus()

    def action_next(self) -> None:
        self.scene = self.scene.next()
        self._show()
        self._follow()

    def action_previous(self) -> None:
        self.scene = self.scene.previous()
        self._show()
        self._follow()

    def _follow(self) -> None:
        if self.scene.actors:
            self.query_one(DataTable).move_cursor(row=self.scene.current)

    def action_add(self) -> None:
        self._initiative_for = None
        self.query_one("#scene-entry-label", Label).update("Add")
        self.query_one("#scene-entry", Input).focus()

    def action_remove(self) -> None:
        table = self.query_one(DataTable)
        if self.scene.actors:
            self.scene = self.scene.remove(table.cursor_row)
            self._show()

    def action_initiative(self) -> None:
        table = self.query_one(DataTable)
        if not self.scene.actors:
            return
        self._initiative_for = table.cursor_row
        name = self.scene.actors[table.cursor_row].name
        self.query_one("#scene-entry-label", Label).update(f"Init {name}"[:12])
        field = self.query_one("#scene-entry", Input)
        field.value = ""
        field.focus()

    def action_new_scene(self) -> None:
        self.scene = Scene()
        self._initiative_for = None
        self._error("")
        self._show()
