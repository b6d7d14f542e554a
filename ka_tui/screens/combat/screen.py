"""Close combat (S0 §Close combat, RULES-NOTES B; issue 5): the six steps of
a round with the current one always on top.

1 Order: roll the order of combat (or type the table's faces). 2 Plan: each
combatant fills in his CQC card in turn, in the order of combat; the others'
cards stay masked, so the GM can hand the keyboard over. 3 Reveal. 4 Roll:
the exact odds of each pairing, then roll or type the dice (each face is
checked at the field; the next die needed is named). 5 Resolve: the round
report. 6 Damage: saves, AP and K-points, who is out; then the next round,
or the end of the fight with the outcome written back to the characters.
House rule ``cqc.initiative_reroll`` (issue 17): every round opens with step 1
again, or the GM presses ``o`` at the start of a later round to re-roll the
order (the same roll-or-type entry); never, under ``once``.

The screen computes no rule: the engine (``rules/cqc*``) validates cards,
resolves rounds and gives odds; ``store/fights`` keeps each step as one
event and rebuilds the fight by replaying them, so a fight resumes exactly
where it was after a restart. ``u`` undoes the last round once the GM
confirms; ``y`` then puts it back (redo), until anything else is written
(issue 12 item 11). On an ended fight ``u`` says why it cannot undo (item 4).
``h`` shows the fight's whole history, round by round, and exports it
(``screens/history.py``, item 12). Each fighter's card starts with the
weapon of his last card (item 13).

The dice are injectable: ``CombatScreen(dice=…)`` or the door's
``dice("combat")`` (``app.combat_dice`` in tests). A fight plays under the
house rules recorded when it started; a fight started after the house rules
change follows the new ones (``start_fight`` reads them then).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Header, Input, Static

from ka_tui.rules.cqc import (
    CardsInvalid, initiative_order, next_die, preview_pairing, reroll_order, resolve_round,
    round_odds,
)
from ka_tui.rules.core.dice import Dice, DiceError, DiceFault, ScriptedDice
from ka_tui.rules.core.dice_notation import check_faces
from ka_tui.rules.core.options import InitiativeReroll
from ka_tui.rules.core.skills import pool_text
from ka_tui.rules.cqc.log import cards_in_text
from ka_tui.rules.cqc.initiative import initiative_test
from ka_tui.screens.combat.report import (
    damage_lines, fighter_lines, initiative_lines, odds_lines, preview_lines, resolve_lines,
    revealed_lines, step_bar,
)
from ka_tui.screens.door import CampaignChanged, Change, door
from ka_tui.screens.roller.fields import RollTextField
from ka_tui.widgets.cqc_card import CqcCardEditor
from ka_tui.widgets.quiet_footer import QuietFooter

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB
    from ka_tui.store.events import LogEvent
    from ka_tui.store.fights import Candidate, FightProgress

FACE_CHARS = r"[0-9 ,;]"
_SPLIT = re.compile(r"[\s,;]+")


def _join(lines: list[Content]) -> Content:
    return Content("\n").join(lines)


class CombatScreen(Screen[None]):
    HELP_TITLE = "Close combat"
    CSS_PATH = "combat.tcss"

    BINDINGS = [
        Binding("r", "roll", "Roll", id="combat.roll"),
        Binding("f", "focus_dice", "Table dice", id="combat.dice"),
        Binding("enter", "card_done", "Card done", id="combat.card_done"),
        Binding("enter,v", "reveal", "Reveal", id="combat.reveal"),
        Binding("enter", "to_damage", "Damage", id="combat.to_damage"),
        Binding("enter", "next_round", "Next round", id="combat.next_round"),
        Binding("enter", "finish", "End fight", id="combat.finish"),
        Binding("u", "undo", "Undo", id="combat.undo"),
        Binding("u", "undo_refused", "Undo", show=False, id="combat.undo_refused"),
        Binding("y", "redo", "Redo", id="combat.redo"),
        Binding("h", "history", "History", id="combat.history"),
        # the same at step 2, out of the footer (the card's b D S need the room)
        Binding("h", "history_quiet", "History", show=False, id="combat.history_quiet"),
        Binding("o", "reorder", "Reorder", id="combat.reorder"),
        Binding("t", "detail", "Dice detail", show=False, id="combat.detail"),
        Binding("n", "new_fight", "New fight", id="combat.new"),
        # at step 2 (the card's keys fill the footer) "n" stays, out of the footer
        Binding("n", "new_fight_quiet", "New fight", show=False, id="combat.new_quiet"),
        Binding("l", "list_fights", "Fights", show=False, id="combat.list"),
        Binding("ctrl+r", "reload", "Reload", show=False, id="combat.reload"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="combat.page_up"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="combat.page_down"),
    ]

    PALETTE_HELP = {
        "combat.roll": "Roll the dice this step needs with the app's dice",
        "combat.dice": "Type the faces the table's physical dice show, then enter",
        "combat.card_done": "Hand in this combatant's card (refused while it is invalid)",
        "combat.reveal": "Reveal every card (S0 §Close combat 3) and show the odds",
        "combat.to_damage": "Go on to step 6: saves, AP and K-points lost, who is out",
        "combat.next_round": "Start the next round: new cards, the state carries on",
        "combat.finish": "End the fight and write K-points and taken weapons to the roster",
        "combat.detail": "Show or hide every die of the opposed tests with what it needed",
        "combat.undo": "Undo the last round (or the half-played one), after a yes; y redoes it",
        "combat.undo_refused": "Say why this fight cannot be undone (it has ended)",
        "combat.redo": "Put back the round just undone (until anything else is written)",
        "combat.history": "Every round of this fight, readable and exportable (text, Markdown)",
        "combat.history_quiet": "Every round of this fight, readable and exportable",
        "combat.reorder": "Re-roll the order of combat at the start of this round "
                          "(S0 §Close combat 1; house rule cqc.initiative_reroll); o again "
                          "keeps the order",
        "combat.new": "Start a new fight: pick pairs of opponents from the roster",
        "combat.new_quiet": "Start a new fight: pick pairs of opponents from the roster",
        "combat.list": "Open another fight of this campaign",
        "combat.reload": "Read the fight from the campaign file again",
        "combat.page_up": "Scroll the report, odds or card up (also while typing dice)",
        "combat.page_down": "Scroll the report, odds or card down (also while typing dice)",
    }

    def __init__(self, *, dice: Dice | None = None) -> None:
        super().__init__()
        self._dice = dice
        self.progress: FightProgress | None = None
        self.view_step = 0  # 0: no fight
        self.moved_on = False  # from step 6 on to the next round's cards (not logged)
        self.reordering = False  # the GM asked to re-roll this round's order (issue 17)
        self.loaded = False
        self.busy = False
        self.detail = False
        self._roster_stale = False
        self._stale_note = ""  # a refused write's message, kept over the card editor's first change
        self._write_lock = threading.Lock()
        self._shown = 0  # how many times the fight was shown (issue 14, live reads)
        self._last_weapons: dict[str, str | None] = {}  # issue 12 item 13
        # issue 12 item 11: (fight id, seq after the undo, the dropped events)
        self._redo: tuple[int, int, list[LogEvent]] | None = None

    # -- injectables -------------------------------------------------------

    @property
    def dice(self) -> Dice:
        if self._dice is None:
            self._dice = door(self).dice("combat")
        return self._dice

    @property
    def ascii(self) -> bool:
        return door(self).ascii_glyphs

    def campaign_db(self) -> CampaignDB:
        return door(self).campaign_db()

    # -- layout ------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Static("", id="steps")
        yield Static("", id="fighters")
        with ContentSwitcher(initial="pane-info", id="panes"):
            with VerticalScroll(id="pane-info"):
                yield Static("Loading…", id="info")
            with VerticalScroll(id="pane-card"):
                yield Static("", id="card-note")
                yield CqcCardEditor(id="card", ascii_glyphs=self.ascii)
        yield RollTextField("Dice", key="dice", allowed=FACE_CHARS,
                            placeholder="table's faces, or r to roll", label_width=6,
                            id="field-dice")
        yield Static("", id="status")
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#field-dice").display = False
        self.sub_title = "Close combat"
        door(self).on_campaign_changed(self, self._fight_changed_elsewhere)
        self.load()

    # -- live: players' cards and other windows (issue 14) -------------------

    def _fight_changed_elsewhere(self, changed: CampaignChanged) -> None:
        """A player sent a card, or another window took a step: read the fight
        again (the card the GM is typing is kept if it is still wanted)."""
        if changed.source is self or changed.change is not Change.FIGHT or self.busy:
            return
        self._reload_if_moved(self.progress.fight_id if self.progress else None,
                              self._shown)

    @work(thread=True, exclusive=True, group="combat-live", exit_on_error=False)
    def _reload_if_moved(self, fight_id: int | None, shown: int) -> None:
        from ka_tui.store.fights import load_progress, open_fights

        try:
            db = self.campaign_db()
            if fight_id is None:
                fight_id = next((i for i, _, st in open_fights(db) if st == "open"), None)
                if fight_id is None:
                    return
            progress = load_progress(db, fight_id)
        except Exception:  # noqa: BLE001 — ctrl+r shows the full message
            return
        self.app.call_from_thread(self._live, progress, shown)

    def _live(self, progress: FightProgress, generation: int) -> None:
        shown = self.progress
        if self.busy:  # its own step reads the file once written: that read is newer
            return
        if shown is not None and shown.fight_id == progress.fight_id \
                and shown.seq == progress.seq and not shown.broken:
            return  # nothing new (often the echo of this window's own step)
        if generation != self._shown:  # shown again while this was read: read afresh
            self._reload_if_moved(progress.fight_id, self._shown)
            return
        editor = self.query_one(CqcCardEditor)
        keep = editor.draft if self.view_step == 2 else None
        self.show_progress(progress, moved_on=self.moved_on and progress.step == 6,
                           reorder=self.reordering and progress.step == 2
                           and not progress.cards)
        if keep is not None and self.view_step == 2 and editor.draft is not None \
                and editor.draft.owner == keep.owner:
            editor.draft = keep
            editor.refresh(layout=True)
        self.post_message(FightSaved())

    # -- loading -----------------------------------------------------------

    @work(thread=True, exclusive=True, group="combat-load", exit_on_error=False)
    def load(self, fight_id: int | None = None) -> None:
        """The given fight, else the newest open one (resume), else none."""
        from ka_tui.store.fights import open_fights

        try:
            db = self.campaign_db()
            if fight_id is None:
                fight_id = next((i for i, _, status in open_fights(db) if status == "open"),
                                None)
            progress = self._read_fight(db, fight_id)
        except Exception as error:  # noqa: BLE001 — any failure: one message (issue 11)
            from ka_tui.store.damage import load_failure

            what = f"fight {fight_id}" if fight_id is not None else "the fights"
            failure = load_failure(what, error, self.app)
            self.app.call_from_thread(self._info, [Content(str(failure))])
            self.app.call_from_thread(self._failed, "Cannot read the fight", failure)
            return
        self.app.call_from_thread(self.call_later, self.show_progress, progress)

    def _read_fight(self, db: CampaignDB, fight_id: int | None) -> FightProgress | None:
        """(Worker thread) the fight replayed, and each fighter's last weapon
        (issue 12 item 13), set before the screen shows the fight."""
        from ka_tui.store.fights import load_progress
        from ka_tui.store.history import last_weapons

        if fight_id is None:
            return None
        progress = load_progress(db, fight_id)
        self._last_weapons = last_weapons(db, fight_id)
        return progress

    def _failed(self, title: str, error: Exception) -> None:
        self.busy = False
        self.notify(str(error), title=title, severity="error")
        self._status(f"{title}: {error}", error=True)

    def show_progress(self, progress: FightProgress | None, *, moved_on: bool = False,
                      reorder: bool = False) -> None:
        """Show the fight where its log leaves it (``reorder``: the order-of-
        combat entry for this round, at the GM's request)."""
        self.loaded = True
        self.busy = False
        self._shown += 1  # issue 14: a live read started before this is stale
        self.progress = progress
        self._stale_note = ""
        self.moved_on = moved_on
        self.reordering = reorder and progress is not None
        if progress is None:
            self.view_step = 0
            self.sub_title = "Close combat"
            self.query_one("#steps", Static).update(step_bar(0, ascii_glyphs=self.ascii))
            self.query_one("#fighters", Static).display = False
            self._info([Content("No fight in progress.").stylize("bold"),
                        Content("Press n to start one: pick pairs of opponents from the "
                                "roster. l lists earlier fights.")])
            self._dice_field(False)
            self._status("n: new fight")
            self.refresh_bindings()
            return
        step: int = progress.step
        if step == 6 and moved_on and not progress.over:
            step = 1 if progress.needs_order else 2
        if self.reordering:
            step = 1
        self.view_step = step
        self.sub_title = f"Close combat · {progress.name} · round {self._round_no()}"
        self.query_one("#steps", Static).update(step_bar(step, ascii_glyphs=self.ascii))
        getattr(self, f"_show_step{step}")(progress)
        if progress.broken:  # a damaged log: shown up to its first bad event
            note = (f"Cannot read the whole fight: {progress.broken}. "
                    "u: undo back to before it.")
            self._status(note, error=True)
            if step == 2:
                self._stale_note = note
        self.refresh_bindings()

    def _round_no(self) -> int:
        p = self.progress
        if p is None:
            return 0
        return p.fight.round if self.view_step in (1, 2) and p.step == 6 else p.round

    def _fighters(self, progress: FightProgress, **kw: Any) -> None:
        lines = fighter_lines(progress.fight, ascii_glyphs=self.ascii, **kw)
        strip = self.query_one("#fighters", Static)
        strip.display = True
        strip.update(_join(lines))

    def _info(self, lines: list[Content]) -> None:
        self.query_one("#info", Static).update(_join(lines))
        self.query_one(ContentSwitcher).current = "pane-info"
        self.query_one("#pane-info", VerticalScroll).scroll_home(animate=False)

    def _status(self, text: str, *, error: bool = False) -> None:
        content = Content(text).stylize("bold $error" if error else "$text-muted")
        self.query_one("#status", Static).update(content)

    def _dice_error(self, message: str | None) -> None:
        """The dice field's error, re-laid out so a long one wraps whole at 80
        columns (issue 12 item 9) instead of being cut."""
        self.query_one("#field-dice", RollTextField).set_error(message)
        self.query_one("#field-dice .ff-error", Static).refresh(layout=True)

    def _dice_field(self, on: bool, placeholder: str = "") -> None:
        field = self.query_one("#field-dice", RollTextField)
        field.display = on
        field.input.value = ""
        self._dice_error(None)
        if placeholder:
            field.input.placeholder = placeholder
        if on:
            field.input.focus()

    # -- the steps -----------------------------------------------------------

    def _show_step1(self, p: FightProgress) -> None:
        if p.initiative is not None:
            self._show_reorder(p)
            return
        self._fighters(p)
        lines = [Content("Step 1: the order of combat (S0 §Close combat 1)").stylize("bold"),
                 Content("Each tests Combat Initiative, or Agility without it; the table "
                         "rolls, in this order:")]
        for f in p.start.fighters:
            test = initiative_test(f, p.rules)
            lines.append(Content(f"  {f.name}: {test.skill} {test.number}: "
                                 f"{pool_text(test.pool)}"))
        lines.append(Content("Press r to roll, or type the faces (then d12 roll-offs on a "
                             "tie).").stylize("$text-muted"))
        self._info(lines)
        self._dice_field(True, "initiative faces, or r to roll")
        self._status("r: roll the order of combat · f: type the table's faces")

    def _show_reorder(self, p: FightProgress) -> None:
        """S0 §Close combat 1 again, at the start of a later round (issue 17)."""
        fight = p.fight
        self._fighters(p)
        rule = p.rules.cqc.initiative_reroll.value
        lines = [Content(f"Step 1: the order of combat for round {fight.round} "
                         "(S0 §Close combat 1)").stylize("bold"),
                 Content(f"Rolled again (house rule cqc.initiative_reroll={rule}). "
                         "The table rolls, in this order:")]
        for fid in _card_order(fight):
            f = fight.fighter(fid)
            test = initiative_test(f, p.rules)
            lines.append(Content(f"  {f.name}: {test.skill} {test.number}: "
                                 f"{pool_text(test.pool)}"))
        lines.append(Content("Press r to roll, or type the faces (then d12 roll-offs on a "
                             "tie).").stylize("$text-muted"))
        self._info(lines)
        self._dice_field(True, "initiative faces, or r to roll")
        keep = " · o: keep the order" if self.reordering else ""
        self._status(f"r: roll the order of round {fight.round} · f: type the faces{keep}")

    def _show_step2(self, p: FightProgress) -> None:
        fight = p.fight
        entered = tuple(p.cards) if not self.moved_on else ()
        waiting = next((f for f in _card_order(fight) if f not in entered), None)
        self._fighters(p, entered=entered, waiting=waiting, show_cards=True)
        self._dice_field(False)
        editor = self.query_one(CqcCardEditor)
        if waiting is None:
            return
        editor.load(fight, waiting, p.rules.cqc, weapon=self._last_weapons.get(waiting))
        note = self.query_one("#card-note", Static)
        with_order = (p.initiative is not None and p.order_round == fight.round
                      and not self.moved_on)
        # issue 14: who has sent a card (players at their own terminals), never what
        count = Content(cards_in_text(p) if not self.moved_on else
                        f"0 of {len(_card_order(fight))} cards in").stylize("bold")
        note.display = True
        note.update(_join([count, *(initiative_lines(p.initiative, p.start)
                                    [-len(p.initiative.rolls):]
                                    if with_order and p.initiative is not None else [])]))
        self.query_one(ContentSwitcher).current = "pane-card"
        editor.focus()
        name = fight.fighter(waiting).name
        self._status(f"{name}'s card · a d f s e c: row · b D S: grade · enter: hand in")

    def _show_step3(self, p: FightProgress) -> None:
        fight = p.fight
        self._fighters(p, entered=tuple(p.cards), show_cards=True)
        tick = "ok" if self.ascii else "✓"
        lines = [Content(f"Round {fight.round}: every card is in, face down "
                         "(S0 §Close combat 3)").stylize("bold")]
        for fid in _card_order(fight):
            lines.append(Content(f"  {fight.fighter(fid).name}: card entered {tick}"))
        lines.append(Content("Press v (or enter) to reveal them all.").stylize("$text-muted"))
        self._info(lines)
        self._dice_field(False)
        self.focus_blank()
        self._status("v: reveal the cards · u: undo the round")

    def _show_step4(self, p: FightProgress) -> None:
        fight, rules = p.fight, p.rules
        cards = p.round_cards
        self._fighters(p)
        lines = revealed_lines(fight, cards)
        odds = [round_odds(fight, x.a, x.b, rules, cards) for x in fight.active_pairings]
        lines += odds_lines(fight, odds)
        for x in fight.active_pairings:
            lines += preview_lines(fight, x.a, x.b,
                                   preview_pairing(fight, cards, x.a, x.b, rules.cqc,
                                                   skills=rules.skills))
        self._info(lines)
        self._dice_field(True, "the round's faces, or r to roll")
        self._hint_next_die("")

    def _show_step5(self, p: FightProgress) -> None:
        assert p.rolled is not None
        self._fighters(p)
        self._info(resolve_lines(p.fight, p.rolled, p.typed_dice, detail=self.detail))
        self._dice_field(False)
        self.focus_blank()
        self._status("enter: on to the damage · t: dice detail · u: undo the round")

    def _show_step6(self, p: FightProgress) -> None:
        report = p.reports[-1]
        before = p.before_last or p.start
        self._fighters(p)
        lines = damage_lines(before, p.fight, report)
        if p.ended:
            lines.append(Content("The fight has ended; its outcome is on the roster.")
                         .stylize("bold"))
            lines += [Content(f"  {line}") for line in _outcome_text(p)]
        elif p.over:
            lines.append(Content("The fight is over. Press enter to write K-points and taken "
                                 "weapons back to the characters.").stylize("bold"))
        else:
            lines.append(Content(f"Press enter for round {p.fight.round}.").stylize("$text-muted"))
        self._info(lines)
        self._dice_field(False)
        self.focus_blank()
        self._status("enter: end the fight" if p.over and not p.ended else
                     "n: new fight · l: fights" if p.ended else
                     "enter: next round · u: undo the round")

    def focus_blank(self) -> None:
        self.query_one("#pane-info", VerticalScroll).focus()

    # -- keys ----------------------------------------------------------------

    def unsaved_changes(self) -> str | None:
        """What quitting now would lose: table dice typed and not applied (a
        stray ``q`` in the dice field reaches the app's Quit; it asks first)."""
        field = self.query("#field-dice")
        typed = field.first(RollTextField).input.value.strip() if field else ""
        return "dice typed and not rolled" if typed else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        p, step = self.progress, self.view_step
        if action in ("new_fight", "new_fight_quiet"):
            at_card = p is not None and step == 2
            return at_card == (action == "new_fight_quiet")
        if action in ("list_fights", "reload", "page"):
            return True
        if p is None:
            return False
        if action in ("roll", "focus_dice"):
            return step in (1, 4)
        if action == "card_done":
            return step == 2
        if action == "reveal":
            return step == 3
        if action == "detail":
            return step == 5
        if action == "to_damage":
            return step == 5
        if action == "next_round":
            return step == 6 and not p.over
        if action == "finish":
            return step == 6 and p.over and not p.ended
        if action == "undo":
            if p.broken:
                return True
            if p.ended:
                return False  # item 4: undo_refused says why instead
            return None if step == 1 else True
        if action == "undo_refused":
            return p.ended and not p.broken
        if action == "redo":
            r = self._redo
            return r is not None and r[0] == p.fight_id and r[1] == p.seq
        if action == "history":
            return step != 2
        if action == "history_quiet":
            return step == 2
        if action == "reorder":
            if self.reordering:
                return True
            # the log's rules (rules/cqc/log.py accept) take one re-roll per
            # round, at its start: none yet this round, before any card
            at_start = (step == 2 and not p.over and p.initiative is not None
                        and p.fight.round > 1 and p.order_round < p.fight.round
                        and (self.moved_on or not p.cards))
            if not at_start:
                return False
            return None if p.rules.cqc.initiative_reroll is InitiativeReroll.ONCE else True
        return True

    def action_reorder(self) -> None:
        """Issue 17: re-roll the order of combat at the start of this round
        (S0 §Close combat 1, step 6 "determine next step"), or keep it."""
        p = self.progress
        if p is None or self.busy:
            return
        if self.reordering:
            self.show_progress(p, moved_on=self.moved_on)
        else:
            self.show_progress(p, moved_on=self.moved_on, reorder=True)

    def action_detail(self) -> None:
        self.detail = not self.detail
        if self.progress is not None:
            self.show_progress(self.progress)

    def action_page(self, direction: int) -> None:
        pane = self.query_one(ContentSwitcher).current or "pane-info"
        scroller = self.query_one(f"#{pane}", VerticalScroll)
        if direction < 0:
            scroller.scroll_page_up(animate=False)
        else:
            scroller.scroll_page_down(animate=False)

    def action_focus_dice(self) -> None:
        self.query_one("#input-dice", Input).focus()

    def action_reload(self) -> None:
        self.load(self.progress.fight_id if self.progress else None)

    def action_new_fight_quiet(self) -> None:
        self.action_new_fight()

    def action_new_fight(self) -> None:
        self._load_candidates()

    @work(thread=True, exclusive=True, group="combat-load", exit_on_error=False)
    def _load_candidates(self) -> None:
        from ka_tui.store.fights import load_candidates

        try:
            candidates, _ = load_candidates(self.campaign_db())
        except Exception as error:  # noqa: BLE001 — any failure: one message (issue 11)
            from ka_tui.store.damage import load_failure

            self.app.call_from_thread(self._failed, "Cannot read the roster",
                                      load_failure("the roster", error, self.app))
            return
        self.app.call_from_thread(self.call_later, self._pick_pairs, candidates)

    def _pick_pairs(self, candidates: list[Candidate]) -> None:
        from ka_tui.screens.combat.setup import FightSetupScreen

        def chosen(pairs: list[tuple[int, int]] | None) -> None:
            if pairs:
                self._write(lambda db: _start(db, pairs), "Cannot start the fight", new=True)

        self.app.push_screen(FightSetupScreen(candidates), chosen)

    def action_list_fights(self) -> None:
        self._list_fights()

    @work(thread=True, exclusive=True, group="combat-load", exit_on_error=False)
    def _list_fights(self) -> None:
        from ka_tui.store.fights import open_fights

        try:
            fights = open_fights(self.campaign_db())
        except Exception as error:  # noqa: BLE001 — any failure: one message (issue 11)
            from ka_tui.store.damage import load_failure

            self.app.call_from_thread(self._failed, "Cannot list the fights",
                                      load_failure("the fights", error, self.app))
            return
        self.app.call_from_thread(self.call_later, self._pick_fight, fights)

    def _pick_fight(self, fights: list[tuple[int, str, str]]) -> None:
        from ka_tui.screens.combat.setup import FightListScreen

        if not fights:
            self.notify("No fights yet: press n to start one.")
            return

        def chosen(fight_id: int | None) -> None:
            if fight_id:
                self.load(fight_id)

        self.app.push_screen(FightListScreen(fights), chosen)

    # -- step 1 and 4: dice ----------------------------------------------------

    def on_form_field_changed(self, event: RollTextField.Changed) -> None:
        if event.key != "dice":
            return
        value = self.query_one("#field-dice", RollTextField).input.value
        if self.view_step == 4:
            self._hint_next_die(value)
        elif self.view_step == 1:
            self._dice_error(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "input-dice":
            return
        event.stop()
        if self.view_step == 1:
            self._initiative_typed(event.value)
        elif self.view_step == 4:
            self._round_typed(event.value)

    def action_roll(self) -> None:
        if self.busy:
            return
        if self.view_step == 1:
            self._initiative(self.dice, typed=False)
        elif self.view_step == 4:
            self._resolve(self.dice, typed=False)

    def _initiative_typed(self, text: str) -> None:
        faces = _numbers(text)
        if faces is None:
            self._dice_error("type numbers: the faces in order")
            self.app.bell()
            return
        self._initiative(ScriptedDice.of(faces), typed=True)

    def _initiative(self, dice: Dice, *, typed: bool) -> None:
        """S0 §Close combat 1 through the engine; typed faces must all be used."""
        p = self.progress
        assert p is not None
        again = p.initiative is not None  # issue 17: a later round's order
        try:
            result = (reroll_order(p.fight, dice, p.rules) if again
                      else initiative_order(p.start.fighters, dice, p.rules))
        except DiceError as error:
            more = error.reason is DiceFault.EXHAUSTED
            self._dice_error(f"more faces needed: next a d{error.sides}" if more else str(error))
            self.app.bell()
            return
        if typed and isinstance(dice, ScriptedDice) and not dice.exhausted:
            self._dice_error(f"{len(dice.faces)} face(s) too many")
            self.app.bell()
            return
        from ka_tui.store import fights

        fid, rnd, seq = p.fight_id, p.fight.round, p.seq
        names = ", ".join(p.start.fighter(f).name for f in result.order)
        if again:
            self._write(lambda db: fights.record_reorder(db, fid, rnd, result, typed,
                                                         expect_seq=seq),
                        "The order of combat was not saved",
                        done=f"Order of combat for round {rnd}: {names}")
            return
        self._write(lambda db: fights.record_initiative(db, fid, result, typed, expect_seq=seq),
                    "The order of combat was not saved",
                    done="Order of combat: " + names)

    def _hint_next_die(self, text: str) -> None:
        """Check the typed faces one by one against the dice the round needs
        (the engine's ``next_die``) and name the next one."""
        p = self.progress
        if p is None:
            return
        faces, problem, nxt = self._faces_state(text)
        self._dice_error(problem or None)
        if problem:
            self._status(problem, error=True)
        elif nxt is None:
            self._status("all faces in: enter to resolve the round")
        else:
            done = len(faces or ())
            self._status(f"die {done + 1}: {nxt}  ·  r: roll everything")

    def _faces_state(self, text: str) -> tuple[list[int] | None, str, str | None]:
        """(faces, problem, label of the next die needed or None when complete)."""
        p = self.progress
        assert p is not None
        words = [w for w in _SPLIT.split(text.strip()) if w]
        faces: list[int] = []
        for word in words:
            try:
                need = next_die(p.fight, p.round_cards, faces, p.rules)
            except (DiceError, CardsInvalid) as error:
                return None, str(error), None
            if need is None:
                return None, f"{len(words) - len(faces)} face(s) too many", None
            check = check_faces((need.sides,), word)
            if not check.ok:
                msg = check.message.replace("(die 1)", f"(die {len(faces) + 1}: {need.label})")
                return None, msg, None
            faces.append(int(word))
        try:
            need = next_die(p.fight, p.round_cards, faces, p.rules)
        except (DiceError, CardsInvalid) as error:
            return None, str(error), None
        return faces, "", None if need is None else f"{need.label}"

    def _round_typed(self, text: str) -> None:
        faces, problem, nxt = self._faces_state(text)
        if problem or faces is None:
            self._dice_error(problem or "type the faces")
            self.app.bell()
            return
        if nxt is not None:
            self._dice_error(f"more faces needed: next {nxt}")
            self.app.bell()
            return
        self._resolve(faces, typed=True)

    def _resolve(self, dice: Dice | list[int], *, typed: bool) -> None:
        """S0 steps 4-6 through the engine, then log the faces."""
        p = self.progress
        assert p is not None
        try:
            _, report = resolve_round(p.fight, p.round_cards, dice, p.rules)
        except (DiceError, CardsInvalid) as error:
            self._dice_error(str(error))
            self.app.bell()
            return
        from ka_tui.store import fights

        fid, rnd, seq = p.fight_id, p.fight.round, p.seq
        self._write(lambda db: fights.record_dice(db, fid, rnd, report, typed, expect_seq=seq),
                    "The dice were not saved")

    # -- step 2: cards -----------------------------------------------------------

    def on_cqc_card_editor_changed(self, event: CqcCardEditor.Changed) -> None:
        editor = event.editor
        if editor.draft is None or self.view_step != 2:
            return
        if self._stale_note:  # a refused write: its message stays until the next key
            note, self._stale_note = self._stale_note, ""
            self._status(note, error=True)
            return
        errors = editor.errors()
        name = editor.fighter.name
        if errors:
            self._status(f"{name}: {editor.budget_text()} · cannot hand in: "
                         f"{errors[0].message}", error=True)
        else:
            self._status(f"{name}: {editor.budget_text()} · enter: hand in the card "
                         "(it stays hidden)")

    def action_card_done(self) -> None:
        editor = self.query_one(CqcCardEditor)
        p = self.progress
        if p is None or editor.draft is None or self.busy:
            return
        errors = editor.errors()
        if errors:
            self.app.bell()
            self._status(f"Refused: {errors[0].message}", error=True)
            return
        from ka_tui.store import fights

        fid, rnd, owner, cards = p.fight_id, p.fight.round, editor.draft.owner, editor.cards
        seq = p.seq
        self._write(lambda db: fights.record_card(db, fid, rnd, owner, cards, expect_seq=seq),
                    "The card was not saved")

    # -- steps 3, 5, 6 ---------------------------------------------------------------

    def action_reveal(self) -> None:
        p = self.progress
        if p is None or self.busy:
            return
        from ka_tui.store import fights

        fid, rnd, seq = p.fight_id, p.fight.round, p.seq
        self._write(lambda db: fights.record_reveal(db, fid, rnd, expect_seq=seq),
                    "The reveal was not saved")

    def action_to_damage(self) -> None:
        p = self.progress
        if p is None or p.rolled is None or p.rolled_after is None or self.busy:
            return
        from ka_tui.store import fights

        fid, report, after, seq = p.fight_id, p.rolled, p.rolled_after, p.seq
        self._write(lambda db: fights.record_resolved(db, fid, report, after, expect_seq=seq),
                    "The round was not saved")

    def action_next_round(self) -> None:
        if self.progress is not None:
            self.show_progress(self.progress, moved_on=True)

    def action_finish(self) -> None:
        p = self.progress
        if p is None or self.busy:
            return
        from ka_tui.store import fights

        fid, seq = p.fight_id, p.seq
        self._write(lambda db: fights.finish_fight(db, fid, expect_seq=seq),
                    "The outcome was not written",
                    done="Fight ended: the outcome is on the roster.")
        self._roster_stale = True

    def action_undo(self) -> None:
        """Issue 12 item 11: undo asks first (a whole round goes with one key);
        ``y`` puts it back right after."""
        p = self.progress
        if p is None or self.busy:
            return
        from ka_tui.screens.confirm import ConfirmScreen

        if p.broken_seq is not None:
            question = (f"Drop every event of “{p.name}” from event {p.broken_seq} on "
                        "(the damaged part of its log)?")
        else:
            rnd = p.fight.round if p.step != 6 or p.ended else p.fight.round - 1
            question = (f"Undo round {rnd} of “{p.name}”? Its cards, dice and result "
                        "go; right after, y on the fight puts them back (redo).")

        def answered(yes: bool | None) -> None:
            if yes:
                self._undo(p)
            else:
                self._status("Nothing undone.")

        self.app.push_screen(ConfirmScreen(question, yes="Undo", no="Keep",
                                           title="Undo round"), answered)

    def _undo(self, p: FightProgress) -> None:
        from ka_tui.store.events import LogRef, last_seq
        from ka_tui.store.history import undo_round

        fid, seq = p.fight_id, p.seq
        done = (f"Undone: back to before event {p.broken_seq}." if p.broken_seq is not None
                else "Undone: the last round is gone. y: redo it.")

        def step(db: CampaignDB) -> None:
            dropped = undo_round(db, fid, expect_seq=seq)
            self._redo = (fid, last_seq(db, LogRef.fight(fid)), dropped) if dropped else None

        self._write(step, "Undo failed", done=done)

    def action_undo_refused(self) -> None:
        """Issue 12 item 4: an ended fight's outcome is on the roster; say so."""
        self.app.bell()
        note = ("This fight has ended and its outcome is on the roster: it cannot be "
                "undone. h: its history · n: a new fight")
        self._status(note, error=True)
        self.notify(note, title="Cannot undo", severity="warning")

    def action_redo(self) -> None:
        p, r = self.progress, self._redo
        if p is None or r is None or self.busy:
            return
        from ka_tui.store.history import redo_round

        fid, seq, dropped = r
        self._redo = None

        def step(db: CampaignDB) -> None:
            redo_round(db, fid, dropped, expect_seq=seq)

        self._write(step, "Redo failed", done="Redone: the round is back.")

    def action_history_quiet(self) -> None:
        self.action_history()

    def action_history(self) -> None:
        """Issue 12 item 12: the fight's whole history, round by round."""
        from ka_tui.screens.history import HistoryScreen
        from ka_tui.store.events import LogRef

        p = self.progress
        if p is None:
            return
        self.app.push_screen(HistoryScreen(LogRef.fight(p.fight_id)))

    # -- writing -----------------------------------------------------------------------

    def _write(self, step: Callable[[CampaignDB], object], title: str, *,
               new: bool = False, done: str = "") -> None:
        """Run one store step in a worker (one event = one transaction), then
        reload the fight from the file and show it."""
        self.busy = True
        self._write_step(step, title, new, done)

    @work(thread=True, group="combat-write", exit_on_error=False)
    def _write_step(self, step: Callable[[CampaignDB], object], title: str, new: bool,
                    done: str) -> None:
        from ka_tui.store.errors import StoreError
        from ka_tui.store.fights import FightLogError, Refused, StaleLog

        try:
            with self._write_lock:
                db = self.campaign_db()
                try:
                    result = step(db)
                except (StaleLog, Refused) as stale:
                    # Another window wrote first (or the step no longer fits the
                    # log): nothing was written; show the fight as it is now.
                    fight_id = self.progress.fight_id if self.progress else None
                    progress = self._read_fight(db, fight_id)
                    self.app.call_from_thread(self.call_later, self._reloaded, progress,
                                              title, stale)
                    return
                fight_id = int(result) if new and isinstance(result, int) else (
                    self.progress.fight_id if self.progress else None)
                progress = self._read_fight(db, fight_id)
        except (StoreError, FightLogError, ValueError) as error:
            self.app.call_from_thread(self._failed, title, error)
            return
        self.app.call_from_thread(self.call_later, self._written, progress, done)

    def _reloaded(self, progress: FightProgress | None, title: str, error: Exception) -> None:
        """A refused write (``StaleLog`` / ``Refused``): the fight as the file
        holds it now, and the message saying why the step was not saved."""
        self.show_progress(progress)
        self.notify(str(error), title=title, severity="error")
        self._status(str(error), error=True)
        if self.view_step == 2:  # the card editor's first "changed" would hide it
            self._stale_note = str(error)
        self.post_message(FightSaved())

    def _written(self, progress: FightProgress | None, done: str) -> None:
        self.show_progress(progress)
        changes = door(self)
        changes.campaign_changed(CampaignChanged(Change.FIGHT, self))
        if self._roster_stale and progress is not None and progress.ended:
            self._roster_stale = False
            # The roster shows the K-points and weapons the fight changed.
            changes.campaign_changed(CampaignChanged(Change.ROSTER, self))
        if done:
            self.notify(done)
        self.post_message(FightSaved())


class FightSaved(Message):
    """Posted after each step is in the campaign file (tests wait for it)."""


def _start(db: CampaignDB, pairs: list[tuple[int, int]]) -> int:
    from ka_tui.store.fights import start_fight

    return start_fight(db, pairs)


def _card_order(fight: Any) -> tuple[str, ...]:
    from ka_tui.store.fights import card_order

    return card_order(fight)


def _numbers(text: str) -> list[int] | None:
    words = [w for w in _SPLIT.split(text.strip()) if w]
    if not words or not all(w.isdigit() for w in words):
        return None
    return [int(w) for w in words]


def _outcome_text(p: FightProgress) -> list[str]:
    names = {cid: p.start.fighter(fid).name for fid, cid in p.characters.items()}
    out = [f"{names.get(int(cid), cid)}: K-points now {k}"
           for cid, k in p.outcome.get("k_points", {}).items()]
    out += [f"{name} goes to {names.get(int(owner), owner)}"
            for _, owner, name in p.outcome.get("weapon_moves", [])]
    return out or ["nothing changes on the roster"]
