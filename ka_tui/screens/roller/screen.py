"""The dice roller: pick who rolls what (or type a pool), see the exact odds,
then roll — or type the faces the table's physical dice show — and read the
result with every die explained. Every roll goes to the campaign's roll log.

The state and its steps are the model's (``model.py``, no Textual): the
screen feeds it the GM's picks and typing, shows its views through the panes'
reactive attributes, and runs the reads and writes with ``store_work`` (each
roll is one transaction, ``store.roll_log.append_roll``). The keys typed
while a roll is being logged wait for it (the app's key gate,
``widgets/key_gate.py``): a strike or undo typed then strikes that roll.

The dice source and the clock are injectable (``RollerScreen(dice=…,
clock=…)``, or through the door: ``door(self).dice("roller")``, ``now()``) so
tests and snapshots are deterministic. A change of the campaign elsewhere (the
house rules saved in settings, the roster edited) reads it again.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, TypeVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header, Input, Select

from ka_tui.rules.core.dice import Dice
from ka_tui.rules.core.roll_choices import RollerData, Setup
from ka_tui.screens.door import CampaignChanged, Change, door
from ka_tui.screens.roller.model import (
    LOG_LIMIT, NOBODY, TEXTS, TYPED, CannotRoll, RollerModel, RollerRead, read_log,
    read_roller, strike, write_roll,
)
from ka_tui.screens.roller.panes import FacesField, OddsBox, RollForm
from ka_tui.screens.store_work import store_work
from ka_tui.store.roll_log import LoggedRoll, RollEntry
from ka_tui.widgets.dice_panel import DicePanel, OddsView
from ka_tui.widgets.form_fields import TextField
from ka_tui.widgets.quiet_footer import QuietFooter
from ka_tui.widgets.roll_log_pane import RollLogPane

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

__all__ = ["NOBODY", "TYPED", "RollerScreen"]

T = TypeVar("T")


class RollerScreen(Screen[None]):
    HELP_TITLE = "Dice roller"
    CSS_PATH = "roller.tcss"

    BINDINGS = [
        Binding("r", "roll", "Roll", id="roller.roll"),
        Binding("f", "focus_faces", "Faces", id="roller.faces"),
        Binding("w", "focus_who", "Who", id="roller.who"),
        Binding("p", "focus_pool", "Pool", id="roller.pool"),
        Binding("v", "focus_versus", "Versus", id="roller.versus"),
        Binding("x", "swap", "Swap", id="roller.swap"),
        Binding("slash", "filter_log", "Filter", show=False, id="roller.filter_log"),
        Binding("l", "focus_log", "Log", show=False, id="roller.log"),
        Binding("z", "zoom_log", "Big log", show=False, id="roller.zoom_log"),
        Binding("ctrl+r", "reload", "Reload", show=False, id="roller.reload"),
        Binding("d,delete", "strike", "Strike", show=False, id="roller.strike"),
        Binding("u", "undo_last", "Undo", id="roller.undo_last"),
    ]

    PALETTE_HELP = {
        "roller.roll": "Roll the pool with the app's dice (r also works in the text fields)",
        "roller.faces": "Type the faces the table's physical dice show, then enter",
        "roller.who": "Choose who rolls",
        "roller.pool": "Type the pool who rolls (a skill pool 3d10 @6, or any dice 2d6+1 @8)",
        "roller.versus": "Choose an opponent for an opposed test (or nobody: against 13)",
        "roller.swap": "Swap the two sides of an opposed test",
        "roller.filter_log": "Filter the roll log by words in who, what, pool or result",
        "roller.log": "Move to the roll log (enter shows a roll in full)",
        "roller.zoom_log": "Show the roll log on the whole screen (again to go back)",
        "roller.reload": "Read characters, skills and house rules from the campaign again",
        "roller.strike": "In the roll log: strike the roll under its cursor (kept, marked "
                         "struck; again to stand it again)",
        "roller.undo_last": "Undo the last roll: strike the newest standing roll (kept, "
                            "marked struck, with who and when)",
    }

    class RollLogged(Message):
        """Posted after a roll is in the campaign file (tests wait for it)."""

        def __init__(self, roll: LoggedRoll) -> None:
            super().__init__()
            self.roll = roll

    class RollStruck(Message):
        """Posted after a roll is struck or stood again (tests wait for it)."""

        def __init__(self, roll: LoggedRoll) -> None:
            super().__init__()
            self.roll = roll

    def __init__(self, *, dice: Dice | None = None,
                 clock: Callable[[], datetime] | None = None) -> None:
        super().__init__()
        self._dice = dice
        self._clock = clock
        self.model = RollerModel()

    # -- the model, as the tests read it -------------------------------------

    @property
    def loaded(self) -> bool:
        return self.model.loaded

    @property
    def data(self) -> RollerData:
        return self.model.data

    @property
    def setup(self) -> Setup | None:
        return self.model.setup

    @property
    def last_result(self) -> object | None:
        return self.model.last_result

    # -- injectables ----------------------------------------------------------

    @property
    def dice(self) -> Dice:
        if self._dice is None:
            self._dice = door(self).dice("roller")
        return self._dice

    def now(self) -> datetime:
        return self._clock() if self._clock is not None else door(self).now()

    @property
    def ascii(self) -> bool:
        return door(self).ascii_glyphs

    # -- layout -----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        with Horizontal(id="roller-top"):
            yield RollForm(id="roller-form")
            with OddsBox(id="odds-box"):
                yield OddsView(id="odds", ascii=self.ascii)
        yield FacesField()
        yield DicePanel(id="result")
        yield RollLogPane(id="log")
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        self._show()
        # the log, not a text field: a digit typed on arriving still switches
        # mode (2 then 3: the roller, then close combat); f goes to the faces
        self.query_one(RollLogPane).table.focus()
        door(self).on_campaign_changed(self, self._campaign_changed)
        self.load()

    def _show(self) -> None:
        """The panes draw what the model holds now."""
        model = self.model
        self.query_one(RollForm).view = model.form_view()
        self.query_one(OddsView).shown = model.odds
        self.query_one(FacesField).view = model.faces_view()
        self.query_one(DicePanel).shown = model.result

    def _take_typing(self) -> None:
        """The text fields as they are this instant (a key may act before the
        fields' change messages reach the screen)."""
        for key in TEXTS:
            self.model.type_text(key, self.query_one(f"#input-{key}", Input).value)

    def _campaign_changed(self, changed: CampaignChanged) -> None:
        """House rules or the roster changed elsewhere: read them again, so the
        next odds and result follow them (as ``ctrl+r`` does)."""
        if changed.source is not self and changed.change in (Change.HOUSE_RULES,
                                                              Change.ROSTER):
            self.model.keep_typed = True
            self.load()
        elif changed.source is not self and changed.change is Change.ROLLS:
            self.query_log(self.model.log_filter)  # another window rolled: its log is ours too

    # -- reading ------------------------------------------------------------------

    def load(self) -> None:
        store_work(self, lambda db: read_roller(db, self.model.log_filter),
                   group="roller-load", exclusive=True, done=self._loaded,
                   failed=self._load_failed, diagnose="the roller")

    def _loaded(self, read: RollerRead) -> None:
        self.model.take_read(read)
        self.sub_title = self.model.title()
        self._show()
        self.query_one(RollLogPane).set_rolls(read.rolls, read.total)
        if read.problem is not None:
            self._load_failed(read.problem)  # only the log: the dice still roll

    def _load_failed(self, error: Exception) -> None:
        log_only = self.model.loaded
        self.model.read_failed(error)
        self._show()
        if log_only:
            self.query_one(RollLogPane).border_title = "Roll log · could not be read"
        self.notify(str(error), title="Dice roller", severity="error", timeout=20)

    def query_log(self, text: str) -> None:
        def filtered(got: tuple[tuple[LoggedRoll, ...], int]) -> None:
            if text == self.model.log_filter:
                self.query_one(RollLogPane).set_rolls(*got)

        store_work(self, lambda db: read_log(db, text), group="roll-log-query",
                   exclusive=True, done=filtered, diagnose="the roll log",
                   failed=lambda error: self.notify(str(error), title="Roll log",
                                                    severity="error"))

    # -- the GM's picks and typing ----------------------------------------------

    def on_select_changed(self, event: Select.Changed) -> None:
        """A pick by the GM (the form's own repaints post no ``Changed``)."""
        name = (event.select.id or "").removeprefix("select-")
        self.model.pick(name, event.value)
        self._show()
        if name in ("who", "versus") and self.model.loaded:
            self.refresh_bindings()  # x Swap: only for an opposed roll

    def on_form_field_changed(self, event: TextField.Changed) -> None:
        if event.key in TEXTS and isinstance(event.field, TextField):
            self.model.type_text(event.key, event.field.raw)
            self._show()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "input-faces":
            event.stop()
            self.roll_typed()
        elif event.input.id in ("input-pool_a", "input-pool_b"):
            event.stop()
            self.focus_next()

    # -- rolling -------------------------------------------------------------------

    def roll_typed(self) -> None:
        """Resolve the faces typed in the faces field (refused at the field if wrong)."""
        self._take_typing()
        self._rolled(self.model.roll_faces())

    def action_roll(self) -> None:
        """Roll with the app's dice (an RNG unless a test injected others)."""
        self._take_typing()
        self._rolled(self.model.roll(self.dice, typed=False))

    def _rolled(self, outcome: RollEntry | CannotRoll) -> None:
        self._show()
        if isinstance(outcome, CannotRoll):
            if not outcome.at_field:
                self.notify(outcome.message, title="Cannot roll", severity="warning")
            self.app.bell()
            return
        self._log(outcome)

    def _log(self, entry: RollEntry) -> None:
        at = self.now()

        def logged(roll: LoggedRoll) -> None:
            if self.model.shows_in_log(roll):
                self.query_one(RollLogPane).add_roll(roll, LOG_LIMIT)
            self.post_message(RollerScreen.RollLogged(roll))

        def not_logged(error: Exception) -> None:
            self.model.not_logged()
            self._show()
            self.notify(str(error), title="The roll was not logged", severity="error")

        self._write(lambda db: write_roll(db, entry, at), logged, not_logged,
                    publish=Change.ROLLS)

    def _write(self, job: Callable[[CampaignDB], T], done: Callable[[T], None],
               failed: Callable[[Exception], None], *, publish: Change | None = None) -> None:
        """One write on the roll log (the keys typed meanwhile wait for it)."""
        store_work(self, job, group="roll-log-write", done=done, failed=failed,
                   publish=() if publish is None else publish)

    # -- striking a mistaken roll ----------------------------------------------------

    def action_strike(self) -> None:
        """Strike the roll under the log's cursor, or stand a struck one again
        (after the rolls still being logged: the cursor is on the newest)."""
        roll = self.query_one(RollLogPane).current()
        if roll is None:
            self.notify("No roll in the log to strike.", title="Roll log", severity="warning")
            return
        self._strike(roll.id, undo=roll.struck)

    def action_undo_last(self) -> None:
        self._strike(None, undo=False)

    def _strike(self, roll_id: int | None, *, undo: bool) -> None:
        at = self.now()

        def struck(roll: LoggedRoll | None) -> None:
            if roll is None:
                self.notify("No roll to undo.", title="Roll log", severity="warning")
                return
            self.query_one(RollLogPane).replace_roll(roll)
            door(self).campaign_changed(CampaignChanged(Change.ROLLS, self))
            text = self.model.struck(roll)
            self._show()
            self.notify(text, title="Roll log", timeout=4)
            self.post_message(RollerScreen.RollStruck(roll))

        self._write(lambda db: strike(db, roll_id, undo=undo, at=at), struck,
                    lambda error: self.notify(str(error), title="Not struck",
                                              severity="error"))

    # -- the log ------------------------------------------------------------------

    def on_roll_log_pane_filter_changed(self, event: RollLogPane.FilterChanged) -> None:
        self.model.log_filter = event.text
        self.query_log(event.text)

    def on_roll_log_pane_picked(self, event: RollLogPane.Picked) -> None:
        self.model.show_logged(event.roll)
        self._show()

    # -- actions ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "strike":  # the roll under the log's cursor: only from the log
            return self.query_one(RollLogPane).table.has_focus
        return self.model.allows(action)

    def unsaved_changes(self) -> str | None:
        """What quitting now would lose: faces typed and not rolled yet (a stray
        ``q`` in the faces field reaches the app's Quit; it asks first)."""
        if self.query("#input-faces"):
            self._take_typing()
            self._show()
        return self.model.unsaved()

    def action_focus_faces(self) -> None:
        self.query_one("#input-faces", Input).focus()

    def action_focus_pool(self) -> None:
        self.query_one("#input-pool_a", Input).focus()

    def action_focus_who(self) -> None:
        self.query_one("#select-who", Select).focus()

    def action_focus_versus(self) -> None:
        self.query_one("#select-versus", Select).focus()

    def action_focus_log(self) -> None:
        self.query_one(RollLogPane).table.focus()

    def action_filter_log(self) -> None:
        self.query_one(RollLogPane).open_filter()

    def action_zoom_log(self) -> None:
        if self.maximized is not None:
            self.minimize()
        else:
            pane = self.query_one(RollLogPane)
            pane.table.focus()
            self.maximize(pane, container=False)

    def action_reload(self) -> None:
        self.load()

    def action_swap(self) -> None:
        """Swap who rolls and who opposes (pools as typed, edits kept)."""
        self._take_typing()
        self.model.swap()
        self._show()
