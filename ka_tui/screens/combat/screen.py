"""Close combat (S0 §Close combat, RULES-NOTES B): the six steps of a round
with the current one always on top.

1 Order: roll the order of combat (or type the table's faces). 2 Plan: each
combatant fills in his CQC card in turn, in the order of combat; the others'
cards stay masked, so the GM can hand the keyboard over. 3 Reveal. 4 Roll:
the exact odds of each pairing, then roll or type the dice (each face is
checked at the field; the next die needed is named). 5 Resolve: the round
report. 6 Damage: saves, AP and K-points, who is out; then the next round,
or the end of the fight with the outcome written back to the characters.
House rule ``cqc.initiative_reroll``: every round opens with step 1 again,
or the GM presses ``o`` at the start of a later round to re-roll the order
(the same roll-or-type entry); never, under ``once``.

The screen is a thin layer over the runner (``runner.py``: the step machine,
what each step allows, the card to fill in, the dice, the odds and each
step's write, all through the engine); ``steps.py`` says what each step
shows and ``panes.py`` holds the widgets that show it. ``store/fights``
keeps each step as one event and rebuilds the fight by replaying them, so a
fight resumes exactly where it was after a restart. ``u`` undoes the last
round once the GM confirms; ``y`` then puts it back (redo), until anything
else is written. On an ended fight ``u`` says why it cannot undo. ``h``
shows the fight's whole history, round by round, and exports it
(``screens/history.py``). Each fighter's card starts with the weapon of his
last card. Every read and write of the campaign runs in a worker
(``screens/store_work.py``); the fight follows other windows and the
players' cards live. No key is lost: the screen takes every key in the
order typed (``screens/ordered_keys.KeyOrder``), and those typed while a
step is saved wait for it (``screens/key_queue.py``), so typing speed never
changes the result.

The dice are injectable: ``CombatScreen(dice=…)`` or the door's
``dice("combat")`` (``app.combat_dice`` in tests). A fight plays under the
house rules recorded when it started.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import events
from textual.containers import VerticalScroll
from textual.widgets import ContentSwitcher, Input

from ka_tui.rules.cqc.log import FightStep
from ka_tui.screens.combat import keys
from ka_tui.screens.combat.io import FightIO, load_failure_of
from ka_tui.screens.combat.panes import RoundDiceField
from ka_tui.screens.combat.permits import ENDED_NOTE
from ka_tui.screens.combat.runner import Declined, Write
from ka_tui.screens.door import door
from ka_tui.widgets.cqc_card import CqcCardEditor

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB
    from ka_tui.store.fights import FighterCandidate


class CombatScreen(FightIO):
    HELP_TITLE = "Close combat"
    CSS_PATH = "combat.tcss"
    BINDINGS = keys.BINDINGS
    PALETTE_HELP = keys.PALETTE_HELP

    def on_mount(self) -> None:
        self.sub_title = "Close combat"
        door(self).on_campaign_changed(self, self._fight_changed_elsewhere)
        # followed at once, before the next key (a message would come after it)
        self.watch(self.query_one(CqcCardEditor), "changes", self.card_changed, init=False)
        self.watch(self.query_one(RoundDiceField).input, "value", self._faces_typed, init=False)
        self.load()

    # -- keys ----------------------------------------------------------------------

    async def on_key(self, event: events.Key) -> None:
        """Every key in the order typed, those typed during a save after it."""
        await self.key_order.key(event)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.runner.permit(action).state

    def unsaved_changes(self) -> str | None:
        """What quitting now would lose: table dice typed and not applied (a
        stray ``q`` in the dice field reaches the app's Quit; it asks first)."""
        field = self.query(RoundDiceField)
        return "dice typed and not rolled" if field and field.first().text.strip() else None

    def _try(self, make: Callable[[], Write], *, at_dice: bool) -> None:
        """Write what ``make`` gives; a step the runner declines says why."""
        try:
            write = make()
        except Declined as why:
            self.app.bell()
            if at_dice:
                self._dice_error(str(why))
            else:
                self._status(str(why), error=True)
            return
        self._write(write)

    def action_roll(self) -> None:
        r = self.runner
        if r.busy:
            return
        if r.step is FightStep.ORDER:
            self._try(lambda: r.order(self.dice, typed=False), at_dice=True)
        elif r.step is FightStep.ROLL:
            self._try(lambda: r.round_rolled(self.dice), at_dice=True)

    def action_focus_dice(self) -> None:
        self.set_focus(self.query_one("#input-dice", Input))  # at once: the next key types

    def _faces_typed(self, text: str) -> None:
        if self.runner.step is FightStep.ROLL:
            self._hint_next_die(text)
        elif self.runner.step is FightStep.ORDER:
            self._dice_error(None)

    def faces_entered(self, text: str) -> None:
        """Enter in the dice field: the table's faces for this step."""
        r = self.runner
        if r.step is FightStep.ORDER:
            self._try(lambda: r.order_typed(text), at_dice=True)
        elif r.step is FightStep.ROLL:
            self._try(lambda: r.round_typed(text), at_dice=True)

    def action_card_done(self) -> None:
        draft = self.query_one(CqcCardEditor).draft
        if self.runner.progress is None or draft is None or self.runner.busy:
            return
        self._try(lambda: self.runner.hand_in(draft), at_dice=False)

    def _step(self, make: Callable[[], Write]) -> None:
        if self.runner.progress is not None and not self.runner.busy:
            self._try(make, at_dice=False)

    def action_reveal(self) -> None:
        self._step(self.runner.reveal)

    def action_to_damage(self) -> None:
        p = self.runner.progress
        if p is not None and p.rolled is not None and p.rolled_after is not None:
            self._step(self.runner.to_damage)

    def action_finish(self) -> None:
        self._step(self.runner.finish)

    def action_next_round(self) -> None:
        if self.runner.progress is not None:
            self.runner.next_round()
            self.show()

    def action_reorder(self) -> None:
        """Re-roll the order of combat at the start of this round (S0 §Close
        combat 1, step 6 "determine next step"), or keep it."""
        if self.runner.progress is not None and not self.runner.busy:
            self.runner.toggle_reorder()
            self.show()

    def action_detail(self) -> None:
        self.runner.detail = not self.runner.detail
        if self.runner.progress is not None:
            self.runner.show(self.runner.progress)
            self.show()

    def action_undo(self) -> None:
        """Undo asks first (a whole round goes with one key); ``y`` puts it
        back right after."""
        r = self.runner
        if r.progress is None or r.busy:
            return
        from ka_tui.screens.combat.undo_question import UndoQuestion

        write = r.undo()

        def answered(yes: bool | None) -> None:
            if yes:
                self._write(write)
            else:
                self._status("Nothing undone.")

        self.key_order.push(UndoQuestion(r.undo_question()), answered)

    def action_undo_refused(self) -> None:
        """An ended fight's outcome is on the roster; say so."""
        self.app.bell()
        self._status(ENDED_NOTE, error=True)
        self.notify(ENDED_NOTE, title="Cannot undo", severity="warning")

    def action_redo(self) -> None:
        if self.runner.redo is not None:
            self._step(self.runner.redo_write)

    def action_history_quiet(self) -> None:
        self.action_history()

    def action_history(self) -> None:
        """The fight's whole history, round by round."""
        from ka_tui.screens.history import HistoryScreen
        from ka_tui.store.events import LogRef

        fight_id = self.runner.fight_id()
        if fight_id is not None:
            self.key_order.push(HistoryScreen(LogRef.fight(fight_id)))

    def action_page(self, direction: int) -> None:
        pane = self.query_one(ContentSwitcher).current or "pane-info"
        scroller = self.query_one(f"#{pane}", VerticalScroll)
        if direction < 0:
            scroller.scroll_page_up(animate=False)
        else:
            scroller.scroll_page_down(animate=False)

    def action_reload(self) -> None:
        self.load(self.runner.fight_id())

    def action_new_fight_quiet(self) -> None:
        self.action_new_fight()

    def action_new_fight(self) -> None:
        def job(db: CampaignDB) -> list[FighterCandidate] | Exception:
            from ka_tui.store.fights import load_candidates

            try:
                return load_candidates(db)[0]
            except Exception as error:  # noqa: BLE001 — any failure: one message
                return load_failure_of("the roster", error, db)

        self._read(job, "Cannot read the roster", "the roster", self._pick_pairs)

    def _pick_pairs(self, candidates: list[FighterCandidate]) -> None:
        from ka_tui.screens.combat.setup import FightSetupScreen

        def chosen(pairs: list[tuple[int, int]] | None) -> None:
            if pairs:
                self._write(self.runner.start(pairs))

        self.key_order.push(FightSetupScreen(candidates), chosen)

    def action_list_fights(self) -> None:
        def job(db: CampaignDB) -> list[tuple[int, str, str]] | Exception:
            from ka_tui.store.fights import open_fights

            try:
                return open_fights(db)
            except Exception as error:  # noqa: BLE001 — any failure: one message
                return load_failure_of("the fights", error, db)

        self._read(job, "Cannot list the fights", "the fights", self._pick_fight)

    def _pick_fight(self, fights: list[tuple[int, str, str]]) -> None:
        from ka_tui.screens.combat.setup import FightListScreen

        if not fights:
            self.notify("No fights yet: press n to start one.")
            return

        def chosen(fight_id: int | None) -> None:
            if fight_id:
                self.load(fight_id)

        self.key_order.push(FightListScreen(fights), chosen)
