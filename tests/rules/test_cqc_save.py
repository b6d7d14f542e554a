"""The save against a weapon hit (S0 §2.2 / §6, RULES-NOTES B): which stat the
d12 adds (house rule ``cqc.save_stat``), the 12 and the 1, the target number
and what a failed save costs -- each side of each edge, from the seed text."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.core.options import CqcOptions, SaveStat
from ka_tui.rules.cqc.fight_state import Fighter
from ka_tui.rules.cqc.resolution import Effect, EffectKind
from ka_tui.rules.cqc.round import roll_save

OPT = CqcOptions()           # save_target 13, Armour if he wears any
HIT = Effect(EffectKind.HIT, "bob", "ann", 3, "Knife")


def bob(armour: int, resistance: int) -> Fighter:
    f = Fighter.new("bob", "Bob", strength=2, agility=5, cc_number=5, cc_pool=(10, 10))
    return replace(f, armour=armour, resistance=resistance)


@pytest.mark.parametrize(("armour", "resistance", "mode", "stat"), [
    (1, 5, SaveStat.ARMOUR_IF_ANY, "Armour 1"),        # any Armour at all: Armour
    (0, 5, SaveStat.ARMOUR_IF_ANY, "Resistance 5"),    # none: Resistance
    (5, 2, SaveStat.BEST, "Armour 5"),                 # the higher of the two
    (2, 5, SaveStat.BEST, "Resistance 5"),
])
def test_s0_6_the_save_adds_the_stat_the_house_rule_names(
        armour: int, resistance: int, mode: SaveStat, stat: str) -> None:
    out = roll_save(bob(armour, resistance), HIT, ScriptedDice.of([6]),
                    replace(OPT, save_stat=mode))
    assert f"d12 6 + {stat} =" in out[0].text


@pytest.mark.parametrize(("face", "stat", "saved"), [
    (8, 5, True),     # 8 + 5 = 13: the target number exactly
    (7, 5, False),    # 12: one short
    (2, 11, True),    # a 2 is an ordinary face: 2 + 11 = 13
    (1, 20, False),   # a 1 always fails (S0 §Skills critical fail)
    (12, 0, True),    # a 12 always saves (S0 §Skills critical success)
    (11, 1, False),   # 11 is no 12: 11 + 1 = 12
])
def test_s0_6_save_each_side_of_the_target_and_the_12_and_the_1(
        face: int, stat: int, saved: bool) -> None:
    out = roll_save(bob(stat, 0), HIT, ScriptedDice.of([face]), OPT)
    save = out[0]
    assert (save.kind, save.fighter, save.source, save.amount, save.weapon, save.faces) == (
        EffectKind.SAVE, "bob", "ann", int(saved), "Knife", (face,))
    assert save.rule
    if saved:
        assert len(out) == 1 and save.text.endswith(": saved")
    else:
        assert save.text.endswith(": failed: -3 K (Knife)")
        assert out[1] == Effect(EffectKind.K_LOSS, "bob", "ann", 3, "Knife",
                                "S0 §6: reduce K-points", "Bob loses 3 K-points to Knife")
