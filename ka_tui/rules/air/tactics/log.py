"""The tactics set in a battle, read from its log: a ``tactic_set`` event
``{"scope": "unit"|"side", "name", "tactic"}`` (``rules/air/battle.py``)
per change, the newest winning. An aircraft flies its own tactic, else its
side's, else ``DEFAULT_TACTIC``.

Which aircraft "no player flies": those no player has ever sent a plan for in
this battle (``plan_sent``, ``rules/air/plans.py``) -- the GM's side is what
the log shows him flying.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from ka_tui.rules.air.battle import BattleEventKind, Event
from ka_tui.rules.air.tactics.tactic import DEFAULT_TACTIC, Tactic
from ka_tui.rules.air.units import AirUnit

Scope = Literal["unit", "side"]
TACTIC = BattleEventKind.TACTIC.value


@dataclass(frozen=True)
class TacticBook:
    units: dict[str, Tactic] = field(default_factory=dict)
    sides: dict[str, Tactic] = field(default_factory=dict)

    def of(self, unit: AirUnit) -> Tactic:
        return self.units.get(unit.id) or self.sides.get(unit.side) or DEFAULT_TACTIC

    def source(self, unit: AirUnit) -> str:
        """Where the aircraft's tactic comes from: "own", "side" or "default"."""
        if unit.id in self.units:
            return "own"
        return "side" if unit.side in self.sides else "default"


def tactic_event(scope: Scope, name: str, tactic: Tactic) -> Event:
    """The ``tactic_set`` event's data and log line (its ``seq`` is the store's)."""
    whom = name if scope == "unit" else f"side {name}"
    return {"kind": TACTIC, "data": {"scope": scope, "name": name, "tactic": tactic.value},
            "faces": [], "log": [f"{whom}: tactic {tactic.label} (suggested plans)"]}


def tactics_of(events: Sequence[Event]) -> TacticBook:
    book = TacticBook()
    for ev in events:
        if ev.get("kind") != TACTIC:
            continue
        data = ev.get("data") or {}
        try:
            tactic = Tactic(str(data.get("tactic")))
        except ValueError:
            continue
        name = str(data.get("name", ""))
        (book.units if data.get("scope") == "unit" else book.sides)[name] = tactic
    return book


def player_flown(events: Sequence[Event]) -> frozenset[str]:
    """Aircraft a player has sent a plan for in this battle."""
    return frozenset(str((ev.get("data") or {}).get("unit", "")) for ev in events
                     if ev.get("kind") == BattleEventKind.PLAN)


def next_tactic(tactic: Tactic) -> Tactic:
    """The tactic after this one, for a key that steps through them."""
    order = list(Tactic)
    return order[(order.index(tactic) + 1) % len(order)]
