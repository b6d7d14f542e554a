"""The CQC card (S0 §Close combat step 2) as a keyboard editor.

The editor shows and changes a ``CardDraft`` (``cqc_draft.py``): how many
Basic / Deliberate / Special of each of the six actions, per opponent (house
rule ``multi_opponent``). Every change is checked at once by the engine
(``validate_round_cards``, ``card_budget``); the widget shows the engine's
"spent / left" figure and its reasons and computes no rule itself. Whoever
hands the card in asks ``errors`` first.

Keys: ``a d f s e c`` pick the action row (Attack, Defence, Feint, diSarm,
Evade, Control), ``up/down`` move, ``b`` (or ``+``) adds a Basic, ``D`` a
Deliberate, ``S`` makes it the Special, ``-`` takes the last one off,
``delete`` clears the row, ``x`` clears the card, ``w`` the weapon, ``t``
what a Disarm takes, ``g`` disengage, ``o`` the card against the next
opponent. No digit: the app's keys rule (a digit switches mode except in a
text field) holds on the card too, so a GM pressing ``1`` for the roster
never adds an action to a hidden card.

``load(..., weapon=)`` starts with a weapon already chosen (the GM's screen
passes the one of his last round); ``draft`` may also be set whole.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ka_tui.rules.core.options import CqcOptions, MultiOpponent
from ka_tui.rules.cqc import (
    ActionKind, CardError, CqcCard, Fight, Fighter, Grade, card_budget, card_cost,
)
from ka_tui.widgets.cqc_draft import (
    ROWS, CardDraft, Unchanged, card_with, row_counts, row_text,
)

ROW_KEYS = {"a": ActionKind.ATTACK, "d": ActionKind.DEFENCE, "f": ActionKind.FEINT,
            "s": ActionKind.DISARM, "e": ActionKind.EVADE, "c": ActionKind.CONTROL}
KEY_OF = {kind: key for key, kind in ROW_KEYS.items()}


class CqcCardEditor(Widget, can_focus=True):
    """Fill in one fighter's CQC card(s) for this round."""

    HELP_TITLE = "CQC card"

    DEFAULT_CSS = """
    CqcCardEditor { height: auto; padding: 0 1; }
    CqcCardEditor:focus { background-tint: $foreground 4%; }
    """

    BINDINGS = [
        *(Binding(k, f"row('{kind.value}')", f"{kind.label} row", show=False,
                  id=f"cqc_card.row_{kind.value}") for k, kind in ROW_KEYS.items()),
        Binding("up", "move(-1)", "Row up", show=False, id="cqc_card.up"),
        Binding("down", "move(1)", "Row down", show=False, id="cqc_card.down"),
        Binding("b,plus", "add('basic')", "Basic", id="cqc_card.basic"),
        Binding("D", "add('deliberate')", "Deliberate", id="cqc_card.deliberate"),
        Binding("S", "add('special')", "Special", id="cqc_card.special"),
        Binding("minus,backspace", "remove", "Take one off", show=False, id="cqc_card.remove"),
        Binding("delete", "clear_row", "Clear row", show=False, id="cqc_card.clear_row"),
        Binding("x", "clear_card", "Clear card", show=False, id="cqc_card.clear_card"),
        Binding("w", "weapon", "Weapon", show=False, id="cqc_card.weapon"),
        Binding("t", "disarm_pick", "Disarm takes", show=False, id="cqc_card.disarm_pick"),
        Binding("g", "disengage", "Disengage", show=False, id="cqc_card.disengage"),
        Binding("o", "next_card", "Next opponent", show=False, id="cqc_card.next_card"),
    ]

    PALETTE_HELP = {
        "cqc_card.basic": "Add a Basic action (1 AP) to the current row (S0 §2)",
        "cqc_card.deliberate": "Add a Deliberate action (3 AP) to the current row (S0 §2)",
        "cqc_card.special": "Make the current row a Special (all AP; alone on the card, S0 §2)",
        "cqc_card.remove": "Take the last action off the current row",
        "cqc_card.clear_row": "Clear the current row",
        "cqc_card.clear_card": "Clear the whole card",
        "cqc_card.weapon": "Choose the quick-slot weapon the Attacks use (or unarmed)",
        "cqc_card.disarm_pick": "Choose which weapon a won Disarm takes (S0 §2.2 Disarm)",
        "cqc_card.disengage": "Declare a disengage: a won round with an Evade ends the fight",
        "cqc_card.next_card": "Edit the card against his next opponent (shared AP pool)",
    }

    draft: reactive[CardDraft | None] = reactive(None, layout=True)
    refusal: reactive[str] = reactive("", layout=True)  # a change it did not take, and why
    # one more each time the card changes (as ``Changed`` is posted): a screen
    # that must follow at once, before the next key, watches it
    changes: reactive[int] = reactive(0, repaint=False, init=False)

    class Changed(Message):
        """The card changed (the screen refreshes its status line)."""

        def __init__(self, editor: CqcCardEditor) -> None:
            super().__init__()
            self.editor = editor

    def __init__(self, *, id: str | None = None, ascii_glyphs: bool = False) -> None:
        super().__init__(id=id)
        self.ascii_glyphs = ascii_glyphs

    # -- state ------------------------------------------------------------

    def load(self, fight: Fight, owner: str, options: CqcOptions,
             cards: Sequence[CqcCard] = (), *, weapon: str | None = None) -> None:
        """Start ``owner``'s card(s) for the round of ``fight`` (blank, or
        ``cards``); blank cards attack with ``weapon`` when he still holds it."""
        self.show_draft(CardDraft.start(fight, owner, options, cards, weapon=weapon))

    def show_draft(self, draft: CardDraft, *, quiet: bool = False) -> None:
        """Edit ``draft`` (a card to fill in); ``quiet``: no change announced
        (the screen says itself what the new card costs)."""
        self.refusal = ""
        self._set(draft, changed=not quiet)

    def _set(self, draft: CardDraft, *, changed: bool = True) -> None:
        self.draft = draft
        if changed:
            self.changes += 1
            self.post_message(self.Changed(self))

    def _change(self, draft: CardDraft | Unchanged) -> None:
        if isinstance(draft, Unchanged):
            self.app.bell()
            if draft.reason:
                self.refusal = draft.reason
            return
        self.refusal = ""
        self._set(draft)

    @property
    def fight(self) -> Fight | None:
        return self.draft.fight if self.draft is not None else None

    @property
    def fighter(self) -> Fighter:
        assert self.draft is not None
        return self.draft.fighter

    @property
    def card(self) -> CqcCard:
        assert self.draft is not None
        return self.draft.card

    @property
    def cards(self) -> tuple[CqcCard, ...]:
        return self.draft.cards if self.draft is not None else ()

    @property
    def weapon_choice(self) -> str | None:
        return self.draft.weapon if self.draft is not None else None

    @property
    def row(self) -> int:
        return self.draft.row if self.draft is not None else 0

    @property
    def index(self) -> int:
        return self.draft.index if self.draft is not None else 0

    def errors(self) -> tuple[CardError, ...]:
        """The engine's reasons these cards cannot be played (S0 §2)."""
        return self.draft.errors() if self.draft is not None else ()

    def budget_text(self) -> str:
        """``spent 4 / 6, left 2`` over all his cards (they share the pool)."""
        assert self.draft is not None
        return self.draft.budget_text()

    # -- actions ----------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.draft is None:
            return False
        if action == "next_card":
            return len(self.draft.cards) > 1
        return True

    def _draft(self) -> CardDraft:
        assert self.draft is not None  # check_action: no action without a draft
        return self.draft

    def action_row(self, kind: str) -> None:
        self._set(self._draft().at_row(ActionKind(kind)), changed=False)

    def action_move(self, delta: int) -> None:
        self._set(self._draft().moved(delta), changed=False)

    def action_add(self, grade: str) -> None:
        self._change(self._draft().added(Grade(grade)))

    def action_remove(self) -> None:
        self._change(self._draft().removed())

    def action_clear_row(self) -> None:
        self._change(self._draft().cleared_row())

    def action_clear_card(self) -> None:
        self._change(self._draft().cleared())

    def action_weapon(self) -> None:
        self._change(self._draft().weapon_cycled())

    def action_disarm_pick(self) -> None:
        self._change(self._draft().disarm_cycled())

    def action_disengage(self) -> None:
        self._change(self._draft().disengage_toggled())

    def action_next_card(self) -> None:
        if self.draft is not None and len(self.draft.cards) > 1:
            self._set(self.draft.next_card())

    # -- drawing ----------------------------------------------------------

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self._lines(width))

    def render(self) -> Content:
        return Content("\n").join(self._lines(self.content_region.width))

    def _lines(self, width: int = 0) -> list[Content]:
        d = self.draft
        if d is None:
            return [Content("No card to fill in.")]
        me, card, fight = d.fighter, d.card, d.fight
        opp = fight.fighter(card.against)
        each = d.options.multi_opponent is MultiOpponent.EACH and len(
            fight.opponents_of(me.id)) > 1
        against = "every opponent" if each else opp.name
        n = len(d.cards)
        which = f"  card {d.index + 1}/{n} (o: next)" if n > 1 else ""
        out = [Content.assemble(Content(f"{me.name}").stylize("bold"),
                                f" against {against}{which}")]
        errors = d.errors()
        bad_rows = {e.field for e in errors if e.owner == me.id}
        pointer = ">" if self.ascii_glyphs else "▸"
        for i, kind in enumerate(ROWS):
            here = i == d.row
            text = row_text(card, kind)
            if self.ascii_glyphs:
                text = text.replace("—", "-")
            mark = f"{pointer} " if here else "  "
            cost = ""
            counts = row_counts(card, kind)
            if counts:
                alone = card_with(CqcCard(card.owner, card.against), kind, counts)
                cost = f"{card_cost(alone, me.pool)} AP"
                if Grade.SPECIAL in counts:
                    cost += " (all)"
            line = Content.assemble(
                Content(mark).stylize("bold $accent"),
                Content(f"{kind.label:<8}").stylize("bold" if here else ""),
                Content(f"[{KEY_OF[kind]}] ").stylize("$text-muted"),
                Content(f"{text:<28}").stylize("bold" if counts else "$text-muted"),
                Content(cost).stylize("$text-muted"),
                Content(" !" if kind.value in bad_rows else "").stylize("bold $error"))
            if here:
                line = line.stylize("reverse", 0, 2)
            out.append(line)
        weapon = me.weapon(d.weapon)
        armed = f"{weapon.name} (damage {weapon.damage})" if weapon else \
            f"unarmed (Strength {me.strength})"
        out.append(Content.assemble(
            Content("Attacks with ").stylize("$text-muted"), armed,
            Content(" [w]").stylize("$text-muted")))
        out.append(Content.assemble(
            Content("Disarm takes ").stylize("$text-muted"), card.disarm_pick or "his best",
            Content(" [t]  ").stylize("$text-muted"),
            Content("Disengage ").stylize("$text-muted"), "yes" if card.disengage else "no",
            Content(" [g]").stylize("$text-muted")))
        b = card_budget(d.cards, me.pool)
        budget_style = "bold reverse $error" if b.over else "bold"
        kept = f" (incl. {me.ap_retained} kept)" if me.ap_retained else ""
        out.append(Content.assemble(Content("AP: ").stylize("$text-muted"),
                                    Content(d.budget_text()).stylize(budget_style),
                                    Content(f"{kept} · unspent AP are lost (S0 §2)")
                                    .stylize("$text-muted")))
        # the reason reads whole at 80 columns (wrapped)
        wrap = max(20, width) if width > 0 else 10_000
        if errors:
            cross = "x" if self.ascii_glyphs else "✗"
            out += [Content(line).stylize("bold $error")
                    for line in textwrap.wrap(f"{cross} {errors[0].message}", wrap)]
        elif self.refusal:
            out += [Content(line).stylize("$warning")
                    for line in textwrap.wrap(self.refusal, wrap)]
        else:
            tick = "ok" if self.ascii_glyphs else "✓"
            out.append(Content(f"{tick} a valid card: enter to hand it in").stylize("$success"))
        return out
