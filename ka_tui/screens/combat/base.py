"""What every part of the close-combat screen shares: the runner, the door
to the app (the dice, the glyphs), the panes, and how a step is shown
(``steps.step_view``). ``CombatScreen`` (screen.py: keys and actions) is
built on ``FightIO`` (io.py: reads and writes in a worker) on this base."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Header

from ka_tui.rules.core.dice import Dice
from ka_tui.rules.cqc.log import FightStep
from ka_tui.screens.combat.panes import RoundDiceField, LinesView, StatusLine, StepBar
from ka_tui.screens.combat.runner import CombatRunner
from ka_tui.screens.combat.steps import step_view
from ka_tui.screens.door import door
from ka_tui.widgets.cqc_card import CqcCardEditor
from ka_tui.widgets.quiet_footer import QuietFooter

if TYPE_CHECKING:
    from ka_tui.rules.cqc.log import FightProgress
    from ka_tui.widgets.cqc_draft import CardDraft


class CombatBase(Screen[None]):
    def __init__(self, *, dice: Dice | None = None) -> None:
        super().__init__()
        self._dice = dice
        self.runner = CombatRunner()

    # -- what tests and the app read -----------------------------------------

    @property
    def progress(self) -> FightProgress | None:
        return self.runner.progress

    @property
    def view_step(self) -> FightStep | None:
        return self.runner.step

    @property
    def loaded(self) -> bool:
        return self.runner.loaded

    @property
    def dice(self) -> Dice:
        if self._dice is None:
            self._dice = door(self).dice("combat")
        return self._dice

    @property
    def ascii(self) -> bool:
        return door(self).ascii_glyphs

    # -- layout ------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield StepBar(id="steps", ascii_glyphs=self.ascii)
        yield LinesView(id="fighters")
        with ContentSwitcher(initial="pane-info", id="panes"):
            with VerticalScroll(id="pane-info"):
                yield LinesView("Loading…", id="info")
            with Vertical(id="pane-card"):
                # how many cards are in stays in sight while the pane below
                # scrolls to the focused row of the card
                yield LinesView(id="card-count")
                with VerticalScroll(id="card-scroll"):
                    yield LinesView(id="card-note")
                    yield CqcCardEditor(id="card", ascii_glyphs=self.ascii)
        yield RoundDiceField(entered=self.faces_entered)
        yield StatusLine(id="status")
        yield QuietFooter(compact=True)

    # -- showing the runner ----------------------------------------------------

    def show(self, *, refused: str = "", typed: CardDraft | None = None) -> None:
        """Every pane from the runner's step (``steps.step_view``); ``refused``:
        why the last write was not saved; ``typed``: the card the GM was
        typing, kept when it is still the one to fill in."""
        view = step_view(self.runner, ascii_glyphs=self.ascii)
        self.sub_title = view.title
        self.query_one(StepBar).step = view.bar
        strip = self.query_one("#fighters", LinesView)
        strip.display = view.fighters is not None
        if view.fighters is not None:
            strip.lines = view.fighters
        faces = self.query_one(RoundDiceField)
        faces.show(view.dice is not None, view.dice or "")
        if view.info is not None:
            self._info(view.info)
        editor = self.query_one(CqcCardEditor)
        if view.card is not None:
            editor.show_draft(self.runner.keep_card(typed, view.card) or view.card,
                              quiet=True)
            self.query_one("#card-count", LinesView).lines = \
                () if view.count is None else (view.count,)
            note = self.query_one("#card-note", LinesView)
            note.display = bool(view.note)
            note.lines = view.note or ()
            self.query_one(ContentSwitcher).current = "pane-card"
        if view.status is not None:
            self._status(view.status, error=view.error)
        if view.hint:
            self._hint_next_die("")
        target = {"dice": faces.input, "card": editor,
                  "blank": self.query_one("#pane-info")}.get(view.focus)
        if target is not None:
            self.set_focus(target)
        for note_text in (view.broken, refused):
            if note_text:
                self._status(note_text, error=True)
                if self.runner.step is FightStep.PLAN:  # over the card's first change
                    self.runner.stale_note = note_text
        if view.card is not None:
            self.card_changed()
        self.refresh_bindings()

    def faces_entered(self, text: str) -> None:
        """Enter in the dice field (``CombatScreen`` takes the faces)."""

    def card_changed(self) -> None:
        """The card changed (or a new one is up): what it costs, or why it
        cannot be handed in; a refused write's message stays once over it."""
        draft = self.query_one(CqcCardEditor).draft
        r = self.runner
        if draft is None or r.step is not FightStep.PLAN:
            return
        if r.stale_note:
            note, r.stale_note = r.stale_note, ""
            self._status(note, error=True)
            return
        errors = draft.errors()
        name = draft.fighter.name
        if errors:
            self._status(f"{name}: {draft.budget_text()} · cannot hand in: "
                         f"{errors[0].message}", error=True)
        else:
            self._status(f"{name}: {draft.budget_text()} · enter: hand in the card "
                         "(it stays hidden)")

    def _info(self, lines: tuple[Content, ...]) -> None:
        self.query_one("#info", LinesView).lines = lines
        self.query_one(ContentSwitcher).current = "pane-info"
        self.query_one("#pane-info", VerticalScroll).scroll_home(animate=False)

    def _status(self, text: str, *, error: bool = False) -> None:
        self.query_one(StatusLine).say(text, error=error)

    def _dice_error(self, message: str | None) -> None:
        self.query_one(RoundDiceField).set_error(message)

    def _hint_next_die(self, text: str) -> None:
        """The typed faces checked one by one; the next die needed named."""
        if self.runner.progress is None:
            return
        problem, status = self.runner.faces_hint(text)
        self._dice_error(problem or None)
        self._status(status, error=bool(problem))

