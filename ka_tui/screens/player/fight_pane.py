"""The player's close-combat pane (S0 §Close combat): the fight he
is in as he may see it, and, at step 2, his own CQC card in the GM's editor.

Mounted the first time it is shown (``PlayerScreen``): the rules and the
card editor it needs are not loaded for the player's first frame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from ka_tui.rules.cqc.log import FightStep, card_order, cards_in_text
from ka_tui.screens.combat.report import (
    damage_lines,
    fighter_lines,
    resolve_lines,
    revealed_lines,
    step_bar,
)
from ka_tui.widgets.cqc_card import CqcCardEditor

if TYPE_CHECKING:
    from ka_tui.rules.cqc.log import FightProgress


def _join(lines: list[Content]) -> Content:
    return Content("\n").join(lines)


class FightPane(VerticalScroll):
    """Steps, fighters, what happens now, and his card when he fills one in."""

    def __init__(self, *, ascii_glyphs: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii_glyphs = ascii_glyphs
        self.editing: tuple[int, int, str] | None = None  # (fight, round, owner) in the editor

    def compose(self) -> ComposeResult:
        yield Static("", id="fight-steps")
        yield Static("", id="fight-strip")
        yield Static("", id="fight-info")
        yield CqcCardEditor(id="card", ascii_glyphs=self.ascii_glyphs)

    def on_mount(self) -> None:
        self.editor.display = False

    @property
    def editor(self) -> CqcCardEditor:
        return self.query_one(CqcCardEditor)

    def can_send(self) -> bool:
        return self.editor.display and self.editor.draft is not None

    def show(self, p: FightProgress | None, own: tuple[str, ...], *, index: int, count: int,
             focus: bool) -> bool:
        """Show ``p`` (None: no fight); ``own``: his fighters there. True when
        his card is in the editor (the screen then says what it costs)."""
        editor = self.editor
        info = self.query_one("#fight-info", Static)
        strip = self.query_one("#fight-strip", Static)
        steps = self.query_one("#fight-steps", Static)
        if p is None:
            steps.update("")
            strip.update("")
            info.update(Content("You are in no fight."))
            editor.display = False
            self.editing = None
            return False
        fight = p.fight
        mine_here = [fid for fid in own if fid in card_order(fight)]
        step = p.step
        planning = (not p.ended and not p.over and step in (FightStep.PLAN, FightStep.REVEAL,
                                                              FightStep.DAMAGE)
                    and not p.needs_order and p.initiative is not None)
        rnd = fight.round
        steps.update(step_bar(2 if planning and step == FightStep.DAMAGE else int(step),
                              ascii_glyphs=self.ascii_glyphs))
        entered = p.sent if planning and step != FightStep.DAMAGE else ()
        strip.update(_join(fighter_lines(fight, entered=entered, show_cards=planning,
                                         ascii_glyphs=self.ascii_glyphs)))
        info.update(_join(self._lines(p, mine_here, planning, index, count)))
        if planning and mine_here:
            owner = mine_here[0]
            key = (p.fight_id, rnd, owner)
            if self.editing != key:
                mine = p.cards.get(owner, ()) if step != FightStep.DAMAGE else ()
                editor.load(fight, owner, p.rules.cqc, mine)
                self.editing = key
            editor.display = True
            if focus:
                editor.focus()
            return True
        editor.display = False
        self.editing = None
        return False

    @staticmethod
    def _lines(p: FightProgress, own: list[str], planning: bool, index: int,
               count: int) -> list[Content]:
        fight, step, rnd = p.fight, p.step, p.fight.round
        title = f"{p.name} · round {rnd if planning else p.round}"
        lines: list[Content] = [Content(title).stylize("bold")]
        if count > 1:
            lines.append(Content(f"(fight {index + 1} of {count}; l: next)")
                         .stylize("$text-muted"))
        if step == FightStep.DAMAGE and p.reports:
            lines += damage_lines(p.before_last or p.start, fight, p.reports[-1])
        if p.ended:
            lines.append(Content("The fight has ended.").stylize("bold"))
        elif p.initiative is None or p.needs_order:
            lines.append(Content(f"Round {rnd}: the GM rolls the order of combat."))
        elif step == FightStep.ROLL:
            lines += revealed_lines(fight, p.round_cards)
            lines.append(Content("The cards are revealed; the GM rolls the dice.")
                         .stylize("$text-muted"))
        elif step == FightStep.RESOLVE and p.rolled is not None:
            lines += resolve_lines(fight, p.rolled, p.typed_dice)
            lines.append(Content("The GM applies the round.").stylize("$text-muted"))
        elif planning:
            lines.append(Content(cards_in_text(p) if step != FightStep.DAMAGE
                                 else f"0 of {len(card_order(fight))} cards in"))
            for fid in own:
                mine = p.cards.get(fid, ()) if step != FightStep.DAMAGE else ()
                name = fight.fighter(fid).name
                if mine:
                    shown = "; ".join(c.summary() for c in mine)
                    lines.append(Content(f"Your card is sent: {shown}").stylize("$success"))
                    lines.append(Content("It stays hidden until the GM reveals; change it "
                                         "and press enter to send it again.")
                                 .stylize("$text-muted"))
                else:
                    lines.append(Content(f"Fill in {name}'s card for round {rnd}, then press "
                                         "enter to send it.").stylize("bold $accent"))
            if not own:
                lines.append(Content("You have no opponent this round.")
                             .stylize("$text-muted"))
        elif p.over:
            lines.append(Content("The fight is over; the GM writes the outcome back.")
                         .stylize("bold"))
        return lines
