"""The CQC card being filled in (S0 §Close combat step 2), as a plain value:
whose card, against whom, which action row the keys change, the Attacks'
weapon. No Textual: the GM's close-combat runner hands one to the editor
(``cqc_card.py``) and takes it back at the hand-in; the player's pane fills
his own the same way.

Every change is a new ``CardDraft`` (``added``, ``removed``, ``cleared``…);
every check is the engine's (``validate_round_cards``, ``card_budget``):
this module decides no rule. A change that cannot be made says why
(``Unchanged``: the reason to show, nothing changed).

The weapon is the fighter's choice for his Attacks: a card carries it while
it has an Attack (S0 §2.2: a weapon goes with an Attack), so the choice is
never lost when the Attack row is cleared and filled again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ka_tui.rules.core.options import CqcOptions, MultiOpponent
from ka_tui.rules.cqc import (
    ActionKind, CardError, CardLine, CqcCard, Fight, Fighter, Grade, card_budget,
    validate_round_cards,
)

ROWS = tuple(ActionKind)


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
class Unchanged:
    """A change the draft did not take, and why (shown to the one typing)."""

    reason: str = ""


@dataclass(frozen=True, eq=False)
class CardDraft:
    """One fighter's card(s) for the round of ``fight``: one per opponent
    (house rule ``multi_opponent=split``) or one for all (``each``)."""

    fight: Fight
    options: CqcOptions
    owner: str
    cards: tuple[CqcCard, ...]
    index: int = 0                 # the card shown (against his index-th opponent)
    row: int = 0                   # the action row the keys change
    weapon: str | None = None      # his Attacks' weapon (None: unarmed)

    @classmethod
    def start(cls, fight: Fight, owner: str, options: CqcOptions,
              cards: Sequence[CqcCard] = (), *, weapon: str | None = None) -> CardDraft:
        """``owner``'s card(s) for the round (blank, or ``cards``); blank cards
        attack with ``weapon`` when he still holds it."""
        opponents = fight.opponents_of(owner)
        against = opponents[:1] if options.multi_opponent is MultiOpponent.EACH else opponents
        given = {c.against: c for c in cards}
        held = weapon if weapon is not None and fight.fighter(owner).weapon(weapon) else None
        choice = next((c.weapon for c in cards if c.weapon), held)
        return cls(fight, options, owner,
                   tuple(given.get(o, CqcCard(owner, o)) for o in against), weapon=choice)

    # -- reading ----------------------------------------------------------

    @property
    def fighter(self) -> Fighter:
        return self.fight.fighter(self.owner)

    @property
    def card(self) -> CqcCard:
        return self.cards[self.index]

    @property
    def kind(self) -> ActionKind:
        return ROWS[self.row]

    def errors(self) -> tuple[CardError, ...]:
        """The engine's reasons these cards cannot be played (S0 §2)."""
        return validate_round_cards(self.fight, self.cards, self.options)

    def budget_text(self) -> str:
        """``spent 4 / 6, left 2`` over all his cards (they share the pool)."""
        b = card_budget(self.cards, self.fighter.pool)
        if b.over:
            return f"spent {b.spent} / {b.pool}, {b.over} over"
        return f"spent {b.spent} / {b.pool}, left {b.left}"

    # -- moving ---------------------------------------------------------------

    def at_row(self, kind: ActionKind) -> CardDraft:
        return replace(self, row=ROWS.index(kind))

    def moved(self, delta: int) -> CardDraft:
        return replace(self, row=(self.row + delta) % len(ROWS))

    def next_card(self) -> CardDraft:
        """The card against his next opponent (they share one AP pool)."""
        return replace(self, index=(self.index + 1) % len(self.cards))

    # -- changing the card ------------------------------------------------------

    def _with_card(self, card: CqcCard) -> CardDraft:
        """The card with his weapon choice when it has an Attack, else none."""
        weapon = self.weapon if card.count(ActionKind.ATTACK) else None
        armed = card if card.weapon == weapon else replace(card, weapon=weapon)
        return replace(self, cards=(*self.cards[:self.index], armed,
                                    *self.cards[self.index + 1:]))

    def added(self, grade: Grade) -> CardDraft:
        counts = row_counts(self.card, self.kind)
        if grade is Grade.SPECIAL:
            counts = {Grade.SPECIAL: 1}  # a Special is the whole row (S0 §2: all AP)
        else:
            counts.pop(Grade.SPECIAL, None)
            counts[grade] = counts.get(grade, 0) + 1
        return self._with_card(card_with(self.card, self.kind, counts))

    def removed(self) -> CardDraft | Unchanged:
        counts = row_counts(self.card, self.kind)
        if not counts:
            return Unchanged()
        last = list(counts)[-1]
        counts[last] -= 1
        return self._with_card(card_with(self.card, self.kind, counts))

    def cleared_row(self) -> CardDraft:
        return self._with_card(card_with(self.card, self.kind, {}))

    def cleared(self) -> CardDraft:
        c = self.card
        return self._with_card(CqcCard(c.owner, c.against))

    def weapon_cycled(self) -> CardDraft | Unchanged:
        """His next quick-slot weapon for the Attacks (then unarmed again)."""
        names = [w.name for w in self.fighter.weapons]
        if not names:
            return Unchanged(f"{self.fighter.name} has no weapon in a quick slot")
        return replace(self, weapon=_cycle(self.weapon, names))._with_card(self.card)

    def disarm_cycled(self) -> CardDraft | Unchanged:
        """Which of the opponent's weapons a won Disarm takes (S0 §2.2 Disarm)."""
        opponent = self.fight.fighter(self.card.against)
        names = [w.name for w in opponent.weapons]
        if not names:
            return Unchanged(f"{opponent.name} has no weapon in a quick slot to take")
        return self._with_card(replace(self.card,
                                       disarm_pick=_cycle(self.card.disarm_pick, names)))

    def disengage_toggled(self) -> CardDraft:
        return self._with_card(replace(self.card, disengage=not self.card.disengage))


def _cycle(current: str | None, names: Sequence[str]) -> str | None:
    choices: list[str | None] = [None, *names]
    i = choices.index(current) if current in choices else 0
    return choices[(i + 1) % len(choices)]
