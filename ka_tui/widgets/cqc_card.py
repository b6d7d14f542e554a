"""The CQC card (S0 §Close combat step 2) as a keyboard editor, and its
masked and revealed views.

The editor holds a draft: how many Basic / Deliberate / Special of each of
the six actions, per opponent (house rule ``multi_opponent``). Every change
is checked at once by the engine (``validate_round_cards``, ``card_budget``);
the widget shows the engine's "spent / left" figure and its reasons and
computes no rule itself. The screen asks ``errors`` before accepting a card.

Keys: ``a d f s e c`` pick the action row (Attack, Defence, Feint, diSarm,
Evade, Control), ``up/down`` move, ``b`` (or ``+``) adds a Basic, ``D`` a
Deliberate, ``S`` makes it the Special, ``-`` takes the last one off,
``delete`` clears the row, ``x`` clears the card, ``w`` the weapon, ``t``
what a Disarm takes, ``g`` disengage, ``o`` the card against the next
opponent. No digit: the app's keys rule (a digit switches mode except in a
text field) holds on the card too (issue 12 item 2), so a GM pressing ``1``
for the roster never adds an action to a hidden card.

The weapon (``w``) is the fighter's choice for his Attacks: a card carries
it while it has an Attack (S0 §2.2: a weapon goes with an Attack), so the
choice is never lost when the Attack row is cleared and filled again.
``load(..., weapon=)`` starts with a choice already made (the screen passes
the one of his last round, issue 12 item 13).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, replace

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ka_tui.rules.cqc import (
    ActionKind, CardError, CardLine, CqcCard, Fight, Fighter, Grade, card_budget, card_cost,
    validate_round_cards,
)
from ka_tui.rules.core.options import CqcOptions, MultiOpponent

ROW_KEYS = {"a": ActionKind.ATTACK, "d": ActionKind.DEFENCE, "f": ActionKind.FEINT,
            "s": ActionKind.DISARM, "e": ActionKind.EVADE, "c": ActionKind.CONTROL}
KEY_OF = {kind: key for key, kind in ROW_KEYS.items()}


def card_with(card: CqcCard, kind: ActionKind, counts: dict[Grade, int]) -> CqcCard:
    """``card`` with the row ``kind`` replaced by ``counts`` (card order kept)."""
    lines = [ln for ln in card.lines if ln.kind is not kind]
    lines += [CardLine(kind, g, n) for g, n in counts.items() if n > 0]
    order = {(k, g): i for i, (k, g) in enumerate((k, g) for k in ActionKind for g in Grade)}
    return replace(card, lines=tuple(sorted(lines, key=lambda ln: order[(ln.kind, ln.grade)])))


def row_counts(card: CqcCard, kind: ActionKind) -> dict[Grade, int]:
    return {g: card.count(kind, g) for g in Grade if card.count(kind, g)}


def row_text(card: CqcCard, kind: ActionKind) -> str:
    """``2x Basic, 1x Deliberate`` or ``—`` for an empty row."""
    parts = [f"{n}x {g.label}" if n > 1 else g.label
             for g, n in row_counts(card, kind).items()]
    return ", ".join(parts) or "—"


@dataclass(frozen=True)
class Draft:
    """The cards a fighter is filling in: one per opponent (SPLIT) or one
    for all (EACH)."""

    owner: str
    cards: tuple[CqcCard, ...]

    def card(self, i: int) -> CqcCard:
        return self.cards[i]

    def with_card(self, i: int, card: CqcCard) -> Draft:
        return replace(self, cards=(*self.cards[:i], card, *self.cards[i + 1:]))


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

    row: reactive[int] = reactive(0)
    index: reactive[int] = reactive(0)

    class Changed(Message):
        """The draft changed (the screen refreshes its status line)."""

        def __init__(self, editor: CqcCardEditor) -> None:
            super().__init__()
            self.editor = editor

    def __init__(self, *, id: str | None = None, ascii_glyphs: bool = False) -> None:
        super().__init__(id=id)
        self.fight: Fight | None = None
        self.options = CqcOptions()
        self.draft: Draft | None = None
        self.refusal = ""
        self.ascii_glyphs = ascii_glyphs
        self.weapon_choice: str | None = None  # his Attacks' weapon (None: unarmed)

    # -- state ------------------------------------------------------------

    def load(self, fight: Fight, owner: str, options: CqcOptions,
             cards: Sequence[CqcCard] = (), *, weapon: str | None = None) -> None:
        """Start ``owner``'s card(s) for the round of ``fight`` (blank, or
        ``cards``); blank cards attack with ``weapon`` when he still holds it."""
        self.fight, self.options = fight, options
        opponents = fight.opponents_of(owner)
        if options.multi_opponent is MultiOpponent.EACH:
            against = opponents[:1]
        else:
            against = opponents
        given = {c.against: c for c in cards}
        held = weapon if weapon is not None and fight.fighter(owner).weapon(weapon) else None
        self.weapon_choice = next((c.weapon for c in cards if c.weapon), held)
        self.draft = Draft(owner, tuple(given.get(o, CqcCard(owner, o)) for o in against))
        self.row = 0
        self.index = 0
        self.refusal = ""
        self._changed()

    @property
    def fighter(self) -> Fighter:
        assert self.fight is not None and self.draft is not None
        return self.fight.fighter(self.draft.owner)

    @property
    def card(self) -> CqcCard:
        assert self.draft is not None
        return self.draft.card(self.index)

    @property
    def cards(self) -> tuple[CqcCard, ...]:
        return self.draft.cards if self.draft is not None else ()

    @property
    def kind(self) -> ActionKind:
        return list(ActionKind)[self.row]

    def errors(self) -> tuple[CardError, ...]:
        """The engine's reasons these cards cannot be played (S0 §2)."""
        if self.fight is None or self.draft is None:
            return ()
        return validate_round_cards(self.fight, self.draft.cards, self.options)

    def budget_text(self) -> str:
        """``spent 4 / 6, left 2`` over all his cards (they share the pool)."""
        b = card_budget(self.cards, self.fighter.pool)
        if b.over:
            return f"spent {b.spent} / {b.pool}, {b.over} over"
        return f"spent {b.spent} / {b.pool}, left {b.left}"

    def _armed(self, card: CqcCard) -> CqcCard:
        """The card with his weapon choice when it has an Attack, else none."""
        weapon = self.weapon_choice if card.count(ActionKind.ATTACK) else None
        return card if card.weapon == weapon else replace(card, weapon=weapon)

    def _set_card(self, card: CqcCard) -> None:
        assert self.draft is not None
        self.draft = self.draft.with_card(self.index, self._armed(card))
        self.refusal = ""
        self._changed()

    def _changed(self) -> None:
        self.refresh(layout=True)
        self.post_message(self.Changed(self))

    # -- actions ----------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.draft is None:
            return False
        if action == "next_card":
            return len(self.draft.cards) > 1
        return True

    def action_row(self, kind: str) -> None:
        self.row = list(ActionKind).index(ActionKind(kind))

    def action_move(self, delta: int) -> None:
        self.row = (self.row + delta) % len(ActionKind)

    def action_add(self, grade: str) -> None:
        g = Grade(grade)
        counts = row_counts(self.card, self.kind)
        if g is Grade.SPECIAL:
            counts = {Grade.SPECIAL: 1}  # a Special is the whole row (S0 §2: all AP)
        else:
            counts.pop(Grade.SPECIAL, None)
            counts[g] = counts.get(g, 0) + 1
        self._set_card(card_with(self.card, self.kind, counts))

    def action_remove(self) -> None:
        counts = row_counts(self.card, self.kind)
        if not counts:
            self.app.bell()
            return
        last = list(counts)[-1]
        counts[last] -= 1
        self._set_card(card_with(self.card, self.kind, counts))

    def action_clear_row(self) -> None:
        self._set_card(card_with(self.card, self.kind, {}))

    def action_clear_card(self) -> None:
        c = self.card
        self._set_card(CqcCard(c.owner, c.against))

    def _cycle(self, current: str | None, names: Sequence[str]) -> str | None:
        choices: list[str | None] = [None, *names]
        i = choices.index(current) if current in choices else 0
        return choices[(i + 1) % len(choices)]

    def action_weapon(self) -> None:
        names = [w.name for w in self.fighter.weapons]
        if not names:
            self.refusal = f"{self.fighter.name} has no weapon in a quick slot"
            self.app.bell()
            self.refresh()
            return
        self.weapon_choice = self._cycle(self.weapon_choice, names)
        self._set_card(self.card)

    def action_disarm_pick(self) -> None:
        assert self.fight is not None
        opponent = self.fight.fighter(self.card.against)
        names = [w.name for w in opponent.weapons]
        if not names:
            self.refusal = f"{opponent.name} has no weapon in a quick slot to take"
            self.app.bell()
            self.refresh()
            return
        self._set_card(replace(self.card, disarm_pick=self._cycle(self.card.disarm_pick, names)))

    def action_disengage(self) -> None:
        self._set_card(replace(self.card, disengage=not self.card.disengage))

    def action_next_card(self) -> None:
        if self.draft is not None and len(self.draft.cards) > 1:
            self.index = (self.index + 1) % len(self.draft.cards)
            self._changed()

    # -- drawing ----------------------------------------------------------

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self._lines(width))

    def render(self) -> Content:
        return Content("\n").join(self._lines(self.content_region.width))

    def _lines(self, width: int = 0) -> list[Content]:
        if self.draft is None or self.fight is None:
            return [Content("No card to fill in.")]
        me, card = self.fighter, self.card
        opp = self.fight.fighter(card.against)
        each = self.options.multi_opponent is MultiOpponent.EACH and len(
            self.fight.opponents_of(me.id)) > 1
        against = "every opponent" if each else opp.name
        n = len(self.draft.cards)
        which = f"  card {self.index + 1}/{n} (o: next)" if n > 1 else ""
        out = [Content.assemble(Content(f"{me.name}").stylize("bold"),
                                f" against {against}{which}")]
        errors = self.errors()
        bad_rows = {e.field for e in errors if e.owner == me.id}
        pointer = ">" if self.ascii_glyphs else "▸"
        for i, kind in enumerate(ActionKind):
            here = i == self.row
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
        weapon = me.weapon(self.weapon_choice)
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
        b = card_budget(self.cards, me.pool)
        budget_style = "bold reverse $error" if b.over else "bold"
        kept = f" (incl. {me.ap_retained} kept)" if me.ap_retained else ""
        out.append(Content.assemble(Content("AP: ").stylize("$text-muted"),
                                    Content(self.budget_text()).stylize(budget_style),
                                    Content(f"{kept} · unspent AP are lost (S0 §2)")
                                    .stylize("$text-muted")))
        # issue 12 item 9: the reason reads whole at 80 columns (wrapped)
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
