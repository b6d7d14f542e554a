"""The negation order of S0 §2.1, as a pure assignment of cancellers to targets.

S0 §2.1: a Special beats all other actions if you win; a Deliberate cancels
three Basic or one Deliberate; a Basic cancels one Basic; three Basic are
needed to cancel one Deliberate. A Basic therefore never cancels a Deliberate
alone. When several assignments are possible the cancelling side makes the
best use of its actions (RULES-NOTES B): the most value cancelled, then the
fewest of its actions used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from ka_tui.rules.cqc.card import ActionKind, CqcCard, Grade

RULE_SPECIAL = "S0 §2.1: a Special beats all other actions when its side wins"
RULE_D_D = "S0 §2.1: a Deliberate cancels one Deliberate"
RULE_D_3B = "S0 §2.1: a Deliberate cancels three Basic"
RULE_B_B = "S0 §2.1: a Basic cancels one Basic"
RULE_3B_D = "S0 §2.1: three Basic cancel one Deliberate"
NOTE_LOSING_SPECIAL = "a losing Special counts as a Deliberate (house rule losing_special_as_deliberate)"


@dataclass(frozen=True)
class ActionUnit:
    """One action on a card: e.g. Bob's second Basic Attack."""

    owner: str
    kind: ActionKind
    grade: Grade
    index: int = 1

    @property
    def label(self) -> str:
        return f"{self.grade.label} {self.kind.label}" + (f" #{self.index}" if self.index > 1 else "")

    def to_dict(self) -> dict[str, Any]:
        return {"owner": self.owner, "kind": self.kind.value, "grade": self.grade.value,
                "index": self.index}


def units_of(card: CqcCard, kinds: Iterable[ActionKind] | None = None) -> tuple[ActionUnit, ...]:
    """The card's actions one by one, in card order (the units S0 §2.1 negates)."""
    wanted = set(kinds) if kinds is not None else set(ActionKind)
    return tuple(ActionUnit(card.owner, ln.kind, ln.grade, i)
                 for ln in card.lines if ln.kind in wanted
                 for i in range(1, ln.count + 1))


@dataclass(frozen=True)
class Cancellation:
    by: tuple[ActionUnit, ...]
    cancelled: tuple[ActionUnit, ...]
    rule: str

    def to_dict(self) -> dict[str, Any]:
        return {"by": [u.to_dict() for u in self.by],
                "cancelled": [u.to_dict() for u in self.cancelled], "rule": self.rule}


Value = Callable[[ActionUnit], int]


def _ap_weight(u: ActionUnit) -> int:
    return 3 if u.grade is not Grade.BASIC else 1


def negate(cancellers: Sequence[ActionUnit], targets: Sequence[ActionUnit], *,
           cancellers_won: bool, losing_special_as_deliberate: bool = True,
           value: Value = _ap_weight) -> tuple[Cancellation, ...]:
    """Which ``targets`` the ``cancellers`` cancel, each with its S0 §2.1 rule.

    ``cancellers_won`` says whether the cancelling side won the round: only
    then does its Special beat all. A losing Special is treated as a
    Deliberate (or, with the option off, cancels nothing and only a Special
    cancels it); a winning side's Special can never be cancelled.
    """
    if not cancellers or not targets:
        return ()
    special = next((c for c in cancellers if c.grade is Grade.SPECIAL), None)
    if special is not None and cancellers_won:
        return (Cancellation((special,), tuple(targets), RULE_SPECIAL),)

    def as_grade(u: ActionUnit, owner_won: bool) -> Grade | None:
        if u.grade is not Grade.SPECIAL:
            return u.grade
        if owner_won:
            return None  # a winning Special is beyond any cancellation but a Special
        return Grade.DELIBERATE if losing_special_as_deliberate else None

    c_d = [c for c in cancellers if as_grade(c, cancellers_won) is Grade.DELIBERATE]
    c_b = [c for c in cancellers if as_grade(c, cancellers_won) is Grade.BASIC]
    t_d = sorted((t for t in targets if as_grade(t, not cancellers_won) is Grade.DELIBERATE),
                 key=lambda u: -value(u))
    t_b = sorted((t for t in targets if as_grade(t, not cancellers_won) is Grade.BASIC),
                 key=lambda u: -value(u))
    x, t, k = _best_plan(len(c_d), len(c_b), [value(u) for u in t_d], [value(u) for u in t_b])
    out: list[Cancellation] = []
    d_iter, b_iter = iter(c_d), iter(c_b)

    def rule(base: str, *units: ActionUnit) -> str:
        if any(u.grade is Grade.SPECIAL for u in units):
            return f"{base}; {NOTE_LOSING_SPECIAL}"
        return base

    for target in t_d[:x]:
        by = next(d_iter)
        out.append(Cancellation((by,), (target,), rule(RULE_D_D, by, target)))
    for target in t_d[x:x + t]:
        trio = tuple(islice(b_iter, 3))
        out.append(Cancellation(trio, (target,), rule(RULE_3B_D, target)))
    basics = t_b[:k]
    while basics:
        by_d = next(d_iter, None)
        if by_d is None:
            break
        group, basics = basics[:3], basics[3:]
        out.append(Cancellation((by_d,), tuple(group), rule(RULE_D_3B, by_d)))
    for target in basics:
        by = next(b_iter)
        out.append(Cancellation((by,), (target,), RULE_B_B))
    return tuple(out)


def _best_plan(n_cd: int, n_cb: int, v_d: Sequence[int], v_b: Sequence[int]) -> tuple[int, int, int]:
    """(Deliberate-on-Deliberate, Basic-trios-on-Deliberate, Basics cancelled)
    giving the most value, then using the fewest cancelling actions.

    ``v_d``/``v_b`` are target values sorted high to low. Small numbers (a
    card holds at most a dozen or so actions), so all plans are tried.
    """
    best: tuple[int, int, tuple[int, int, int]] | None = None
    for x in range(min(n_cd, len(v_d)) + 1):
        for t in range(min(n_cb // 3, len(v_d) - x) + 1):
            spare_d, spare_b = n_cd - x, n_cb - 3 * t
            k = min(len(v_b), 3 * spare_d + spare_b)
            by_d = min(k, 3 * spare_d)
            used = x + 3 * t + -(-by_d // 3) + (k - by_d)
            total = sum(v_d[:x + t]) + sum(v_b[:k])
            score = (total, -used, (x, t, k))
            if best is None or score[:2] > best[:2]:
                best = score
    assert best is not None
    return best[2]
