"""Dice for the rules tests that record what each roll was announced for."""

from __future__ import annotations

from dataclasses import dataclass, field

from ka_tui.rules.core.dice import RollAsk


@dataclass
class TableDice:
    """Scripted faces that also hear what each roll is for, as the table's dice do."""

    faces: list[int]
    asks: list[RollAsk] = field(default_factory=list)
    used: list[tuple[int, int]] = field(default_factory=list)

    def roll(self, sides: int) -> int:
        face = self.faces.pop(0)
        assert 1 <= face <= sides
        self.used.append((sides, face))
        return face

    def hear(self, ask: RollAsk) -> None:
        self.asks.append(ask)
