"""What a shot asks the table's dice for (RULES-NOTES D shooting, S0 §Traits
re-rolls, R-2 to hit): each roll named, counted and explained before it is
rolled, in order, as the GM at the table reads it."""

from __future__ import annotations

from tests.rules.table_dice_fixture import TableDice


from ka_tui.rules.air.aircraft import Trait
from ka_tui.rules.air.shooting import evasion_ask, firepower_ask, shoot, to_hit_target
from ka_tui.rules.core.dice import RollAsk
from ka_tui.rules.core.options import AirOptions

from .air_combat_fixtures import unit

OPT = AirOptions()


def test_every_roll_of_a_shot_is_announced_before_it_is_rolled() -> None:
    """R-2 to hit, RULES-NOTES D Firepower and Evasion, S0 §Traits Accuracy,
    Bullet dodger and Robust re-rolls: the asks in order, each for d6."""
    a = unit("A", traits=((Trait.ACCURACY, 1), (Trait.CRITICAL, 1)), prof={"firepower": 4})
    b = unit("B", "red", q=0, r=-1, traits=((Trait.BULLET_DODGER, 1), (Trait.ROBUST, 1)),
             prof={"hull": 99, "evasion": 2})
    dice = TableDice([6, 6, 5, 3, 6, 4, 5, 1, 5, 4, 6, 3, 3, 4, 4])
    shoot(a, b, dice, OPT)
    assert not dice.faces and all(sides == 6 for sides, _ in dice.used)
    assert dice.asks[:6] == [
        RollAsk("A to hit B (R-2)", 2, 6, to_hit_target(a, b, OPT)),
        RollAsk("A firepower (RULES-NOTES D)", 4, 6, note="4+ a hit, 6 a critical"),
        RollAsk("A Accuracy re-roll (S0 §Traits)", 1, 6, note="the failed dice again (4+)"),
        RollAsk("B evasion (RULES-NOTES D)", 2, 6, note="4+ cancels a hit"),
        RollAsk("B Bullet dodger re-roll (S0 §Traits)", 1, 6,
                note="the failed dice again (4+)"),
        RollAsk("B Robust re-roll of a critical hit's die (S0 §Traits)", 1, 6,
                note="4+ a hit, 6 a critical"),
    ]


def test_the_firepower_and_evasion_asks_follow_the_house_rule_faces() -> None:
    """RULES-NOTES D (air.firepower_hit_on, firepower_crit_on, evasion_cancel_on)."""
    opts = AirOptions(firepower_hit_on=3, firepower_crit_on=5, evasion_cancel_on=2)
    a = unit("A", prof={"firepower": 2})
    b = unit("B", "red", prof={"evasion": 3})
    assert firepower_ask(a, opts) == RollAsk("A firepower (RULES-NOTES D)", 2, 6,
                                             note="3+ a hit, 5 a critical")
    assert evasion_ask(b, opts) == RollAsk("B evasion (RULES-NOTES D)", 3, 6,
                                           note="2+ cancels a hit")
