"""Who won a close-combat round and how each side stands (S0 §Close combat step 4).

The opposed test itself (dice, tie-breaks, critical handling) is the rules
core's ``opposed_test``; this module only turns each side's pass / critical
fail and the test's winner into the standing the resolution needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Standing(str, Enum):
    WON = "won"
    LOST_PASSED = "lost_passed"    # lost, but passed the test
    LOST_FAILED = "lost_failed"    # lost with no success
    CRIT_FAILED = "crit_failed"    # an unnegated critical fail
    STANDOFF = "standoff"          # both failed: nobody won

    @property
    def text(self) -> str:
        return {
            Standing.WON: "wins the round",
            Standing.LOST_PASSED: "loses the round but passed the test",
            Standing.LOST_FAILED: "failed the test",
            Standing.CRIT_FAILED: "rolled a critical fail",
            Standing.STANDOFF: "failed the test (stand-off)",
        }[self]


@dataclass(frozen=True)
class Standings:
    a: Standing
    b: Standing
    winner: int | None  # 0 = a, 1 = b, None = nobody
    rule: str


def standings(a_passed: bool, a_crit_fail: bool, b_passed: bool, b_crit_fail: bool,
              test_winner: int | None, decided_by: str = "") -> Standings:
    """Each side's standing from its test and the opposed test's winner.

    S0 §4: a critical fail means the opponent automatically wins; when both
    pass, the test's winner (successes, Close Combat, Agility, d12 roll-off,
    and the critical-success rule, all in the rules core) wins. RULES-NOTES B:
    when both fail it is a stand-off; when both roll a critical fail nobody
    makes any action.
    """
    if a_crit_fail and b_crit_fail:
        return Standings(Standing.CRIT_FAILED, Standing.CRIT_FAILED, None,
                         "S0 §4: both sides rolled a critical fail: no actions are made")
    if a_crit_fail or b_crit_fail:
        w = 1 if a_crit_fail else 0
        loser = Standing.CRIT_FAILED
        return _won(w, loser, "S0 §4: a critical fail means the opponent automatically "
                              "wins and all his actions are unopposed")
    if not a_passed and not b_passed:
        return Standings(Standing.STANDOFF, Standing.STANDOFF, None,
                         "RULES-NOTES B: both failed the test: a stand-off")
    if a_passed != b_passed:
        w = 0 if a_passed else 1
        return _won(w, Standing.LOST_FAILED, "S0 §4: only one side passed the opposed test")
    if test_winner not in (0, 1):
        raise ValueError("both sides passed, so the opposed test must name a winner")
    how = decided_by or "most successes, then Close Combat, then Agility, then a d12 roll-off"
    return _won(test_winner, Standing.LOST_PASSED, f"S0 §4: both passed; {how}")


def _won(w: int, loser: Standing, rule: str) -> Standings:
    if w == 0:
        return Standings(Standing.WON, loser, 0, rule)
    return Standings(loser, Standing.WON, 1, rule)
