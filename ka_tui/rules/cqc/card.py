"""The CQC card (S0 §Close combat, step 2): AP spent on actions by grade.

A card lists actions -- Attack, Defence, Feint, Disarm, Evade, Control -- each
as Basic (1 AP), Deliberate (3 AP) or Special (all AP). Unspent AP are lost.
Cards are plain data: the store keeps them in a fight's event log as dicts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ka_tui.rules.core.options import CqcOptions


class ActionKind(str, Enum):
    """S0 §2 / §2.2: the six actions of the CQC card, in the card's order."""

    ATTACK = "attack"
    DEFENCE = "defence"
    FEINT = "feint"
    DISARM = "disarm"
    EVADE = "evade"
    CONTROL = "control"

    @property
    def label(self) -> str:
        return self.value.capitalize()


class Grade(str, Enum):
    """S0 §2: Basic 1 AP, Deliberate 3 AP, Special all AP."""

    BASIC = "basic"
    DELIBERATE = "deliberate"
    SPECIAL = "special"

    @property
    def label(self) -> str:
        return self.value.capitalize()

    @property
    def rank(self) -> int:
        """Index into per-grade option tuples (Basic 0, Deliberate 1, Special 2)."""
        return (Grade.BASIC, Grade.DELIBERATE, Grade.SPECIAL).index(self)


FIXED_COST = {Grade.BASIC: 1, Grade.DELIBERATE: 3}  # S0 §2


@dataclass(frozen=True)
class CardLine:
    kind: ActionKind
    grade: Grade
    count: int = 1

    def render(self) -> str:
        n = f"{self.count}x " if self.count != 1 else ""
        return f"{n}{self.grade.label} {self.kind.label}"


@dataclass(frozen=True)
class CqcCard:
    """One fighter's card against one opponent (``against``).

    ``weapon`` names the quick-slot weapon his Attacks use (None: unarmed);
    ``disarm_pick`` the weapon his Disarm takes if it succeeds (None: the
    most damaging one); ``disengage`` declares that a won round with an
    uncancelled Evade ends the fight for him (S0 §2.2 Evade).
    """

    owner: str
    against: str
    lines: tuple[CardLine, ...] = ()
    weapon: str | None = None
    disarm_pick: str | None = None
    disengage: bool = False

    @classmethod
    def build(cls, owner: str, against: str, *, weapon: str | None = None,
              disarm_pick: str | None = None, disengage: bool = False,
              **grades: str) -> CqcCard:
        """``CqcCard.build("ann", "bob", attack="2b 1d", defence="b")``; ``"s"``
        is a Special. Raises ValueError naming a bad kind or grade text."""
        lines: list[CardLine] = []
        for key, text in grades.items():
            try:
                kind = ActionKind(key)
            except ValueError:
                raise ValueError(f"{key!r} is not a CQC action") from None
            lines.extend(CardLine(kind, grade, n) for grade, n in _parse_grades(text, key))
        return cls(owner, against, _merged(lines), weapon, disarm_pick, disengage)

    @property
    def special(self) -> CardLine | None:
        return next((ln for ln in self.lines if ln.grade is Grade.SPECIAL), None)

    @property
    def is_empty(self) -> bool:
        return not self.lines

    def count(self, kind: ActionKind, grade: Grade | None = None) -> int:
        return sum(ln.count for ln in self.lines
                   if ln.kind is kind and (grade is None or ln.grade is grade))

    def render(self) -> str:
        return ", ".join(ln.render() for ln in self.lines) or "(empty card)"

    def summary(self) -> str:
        """The card as revealed (S0 §Close combat 3): its lines, then the
        weapon, the Disarm pick and a disengage, when given."""
        extra = []
        if self.weapon:
            extra.append(f"with {self.weapon}")
        if self.disarm_pick:
            extra.append(f"Disarm takes {self.disarm_pick}")
        if self.disengage:
            extra.append("disengaging")
        return self.render() + (f" ({'; '.join(extra)})" if extra else "")

    def to_dict(self) -> dict[str, Any]:
        return {"owner": self.owner, "against": self.against,
                "lines": [[ln.kind.value, ln.grade.value, ln.count] for ln in self.lines],
                "weapon": self.weapon, "disarm_pick": self.disarm_pick,
                "disengage": self.disengage}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CqcCard:
        lines = tuple(CardLine(ActionKind(k), Grade(g), int(n)) for k, g, n in data["lines"])
        return cls(str(data["owner"]), str(data["against"]), lines, data.get("weapon"),
                   data.get("disarm_pick"), bool(data.get("disengage", False)))


_GRADE_TOKEN = re.compile(r"^(\d*)([bds])$")


def _parse_grades(text: str, where: str) -> list[tuple[Grade, int]]:
    out: list[tuple[Grade, int]] = []
    for token in text.lower().split():
        m = _GRADE_TOKEN.match(token)
        if not m:
            raise ValueError(f"{where}: {token!r} is not like 2b, 1d or s")
        grade = {"b": Grade.BASIC, "d": Grade.DELIBERATE, "s": Grade.SPECIAL}[m.group(2)]
        out.append((grade, int(m.group(1) or 1)))
    return out


def _merged(lines: Iterable[CardLine]) -> tuple[CardLine, ...]:
    """One line per (kind, grade), in card order."""
    totals: dict[tuple[ActionKind, Grade], int] = {}
    for ln in lines:
        totals[(ln.kind, ln.grade)] = totals.get((ln.kind, ln.grade), 0) + ln.count
    order = [(k, g) for k in ActionKind for g in Grade]
    return tuple(CardLine(k, g, totals[(k, g)]) for k, g in order if (k, g) in totals)


@dataclass(frozen=True)
class Budget:
    """The live "spent / left" figure of a card (S0 §2: unspent AP are lost)."""

    pool: int
    spent: int
    left: int
    over: int

    def render(self) -> str:
        if self.over:
            return f"{self.spent}/{self.pool} AP: {self.over} over"
        return f"{self.spent}/{self.pool} AP, {self.left} left (lost if unspent)"


def card_cost(card: CqcCard, pool: int) -> int:
    """S0 §2: Basic 1 AP, Deliberate 3 AP, Special the whole pool."""
    if card.special is not None:
        return pool
    return sum(FIXED_COST[ln.grade] * ln.count for ln in card.lines)


def card_budget(card: CqcCard | Iterable[CqcCard], pool: int) -> Budget:
    """S0 §Close combat step 2: AP spent and left of one card, or of all of a
    fighter's cards together."""
    cards = (card,) if isinstance(card, CqcCard) else tuple(card)
    spent = sum(card_cost(c, pool) for c in cards)
    return Budget(pool, spent, max(0, pool - spent), max(0, spent - pool))


@dataclass(frozen=True)
class CardError:
    """A reason a card cannot be played; ``field`` names the card line or 'card'."""

    owner: str
    field: str
    message: str

    def render(self) -> str:
        return f"{self.owner}: {self.message}"


def validate_card(card: CqcCard, pool: int, options: CqcOptions | None = None,
                  weapons: Iterable[str] | None = None) -> tuple[CardError, ...]:
    """Reasons ``card`` cannot be played from a pool of ``pool`` AP (S0 §2).

    ``weapons`` are the names in the owner's quick slots, when known.
    """
    opts = options or CqcOptions()
    errors: list[CardError] = []

    def err(fld: str, msg: str) -> None:
        errors.append(CardError(card.owner, fld, msg))

    for ln in card.lines:
        if ln.count < 1:
            err(ln.kind.value, f"{ln.render()}: a count must be at least 1")
    specials = [ln for ln in card.lines if ln.grade is Grade.SPECIAL]
    if sum(ln.count for ln in specials) > 1:
        err("card", "only one Special fits on a card: it takes all AP (S0 §2)")
    elif specials and len(card.lines) > 1:
        err("card", f"a Special {specials[0].kind.label} takes all AP, so it must be "
                    "the only action on the card (S0 §2)")
    if specials and pool < opts.special_min_ap:
        err(specials[0].kind.value,
            f"a Special needs a pool of at least {opts.special_min_ap} AP; "
            f"the pool holds {pool} (S0 §2, house rule special_min_ap)")
    budget = card_budget(card, pool)
    if not specials and budget.over:
        err("card", f"the card spends {budget.spent} AP but the pool holds {pool} (S0 §2)")
    if weapons is not None:
        names = set(weapons)
        if card.weapon is not None and card.weapon not in names:
            err("weapon", f"{card.weapon!r} is not in {card.owner}'s quick slots")
        if card.weapon is not None and card.count(ActionKind.ATTACK) == 0:
            err("weapon", "a weapon is named but the card has no Attack")
    if card.disengage and card.count(ActionKind.EVADE) == 0:
        err("disengage", "disengaging needs at least one Evade (S0 §2.2 Evade)")
    if card.disarm_pick is not None and card.count(ActionKind.DISARM) == 0:
        err("disarm_pick", "a weapon to take is named but the card has no Disarm")
    return tuple(errors)


def validate_split(cards: Iterable[CqcCard], pool: int) -> tuple[CardError, ...]:
    """S0 §Close combat step 2 (house rule ``multi_opponent``): a fighter's cards
    against several opponents share one pool (``MultiOpponent.SPLIT``): their total may not exceed it, and a Special on
    one card leaves nothing for the others."""
    cards = tuple(cards)
    if len(cards) < 2:
        return ()
    owner = cards[0].owner
    with_special = [c for c in cards if c.special is not None]
    others = [c for c in cards if c.special is None and not c.is_empty]
    if with_special and (others or len(with_special) > 1):
        return (CardError(owner, "card",
                          f"a Special against {with_special[0].against} takes all AP, "
                          "so the cards against his other opponents must stay empty "
                          "(S0 §2, house rule multi_opponent=split)"),)
    budget = card_budget(cards, pool)
    if budget.over:
        return (CardError(owner, "card",
                          f"the cards against {', '.join(c.against for c in cards)} spend "
                          f"{budget.spent} AP together but the pool holds {pool} "
                          "(S0 §2, house rule multi_opponent=split)"),)
    return ()
