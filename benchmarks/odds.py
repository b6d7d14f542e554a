"""Time exact opposed-test odds (budget: < 20 ms for the largest pools).

Run: ``.venv/bin/python benchmarks/odds.py``. Each figure is the best of
several cold computations (caches cleared before each), so it is what the GM
waits for when a pool or number changes for the first time.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ka_tui.rules.core.skill_tests import Contestant, opposed_test
from ka_tui.rules.core.dice import RandomDice
from ka_tui.rules.core.odds import clear_cache, opposed_odds, percent, unopposed_odds
from ka_tui.rules.core.options import SkillOptions
from ka_tui.rules.core.skills import Level, level_pool

from benchmarks.common import Row, row, section

BUDGET_MS = 20.0
OPTIONS = SkillOptions()


def best_ms(fn: Callable[[], object], repeat: int = 7, cold: bool = True) -> float:
    best = float("inf")
    for _ in range(repeat):
        if cold:
            clear_cache()
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def cases() -> list[tuple[str, Callable[[], object]]]:
    largest_a = Contestant("Legendary 4d20", level_pool(Level.LEGENDARY, 4), 9, legendary=True)
    largest_b = Contestant("Legendary 4d20", level_pool(Level.LEGENDARY, 4), 8, legendary=True)
    typical_a = Contestant("Expert 3d10+1d12", level_pool(Level.EXPERT, 1), 7,
                           tiebreaks=(("Close Combat", 5), ("Agility", 4)))
    typical_b = Contestant("Trained 2d10", level_pool(Level.TRAINED), 6,
                           tiebreaks=(("Close Combat", 4), ("Agility", 5)))
    master_a = Contestant("Master 4d12+1d20", level_pool(Level.MASTER, 1), 8)
    master_b = Contestant("Legendary 2d12+2d20", level_pool(Level.LEGENDARY, 2), 8,
                          legendary=True)
    mixed = Contestant("mixed d8+d10+d12+2d20", (8, 10, 12, 20, 20), 6)

    rows = [
        ("largest: L fully upgraded vs L fully upgraded",
         lambda: opposed_odds(largest_a, largest_b, OPTIONS)),
        ("typical: E+1 vs T", lambda: opposed_odds(typical_a, typical_b, OPTIONS)),
        ("M+1 vs L+2 (most states of any level pools)",
         lambda: opposed_odds(master_a, master_b, OPTIONS)),
        ("mixed notation d8+d10+d12+2d20 vs itself",
         lambda: opposed_odds(mixed, mixed, OPTIONS)),
        ("unopposed M+1 @8", lambda: unopposed_odds(master_a.pool, 8, OPTIONS)),
    ]
    return rows


def rows(quick: bool = False) -> list[Row]:
    """The table's rows: the largest pools against the budget, the others for context."""
    out = [section("Odds (headless compute, best of cold runs, caches cleared)")]
    for i, (name, fn) in enumerate(cases()):
        ms = best_ms(fn, repeat=3 if quick else 7)
        if name.startswith("mixed"):   # a typed pool: the budget is for level pools
            out.append(row(f"odds: {name}", ms, "ms"))
        else:
            out.append(row(f"odds: {name}", ms, "ms", f"< {BUDGET_MS:.0f} ms", ms < BUDGET_MS))
    return out


def main() -> int:
    rows = cases()
    largest_a = Contestant("Legendary 4d20", level_pool(Level.LEGENDARY, 4), 9, legendary=True)
    largest_b = Contestant("Legendary 4d20", level_pool(Level.LEGENDARY, 4), 8, legendary=True)
    typical_a = Contestant("Expert 3d10+1d12", level_pool(Level.EXPERT, 1), 7,
                           tiebreaks=(("Close Combat", 5), ("Agility", 4)))
    typical_b = Contestant("Trained 2d10", level_pool(Level.TRAINED), 6,
                           tiebreaks=(("Close Combat", 4), ("Agility", 5)))
    print(f"{'case':52} {'cold ms':>8} {'cached ms':>10}")
    worst_level = 0.0
    for name, fn in rows:
        cold = best_ms(fn)
        warm = best_ms(fn, cold=False)
        if not name.startswith("mixed"):
            worst_level = max(worst_level, cold)
        print(f"{name:52} {cold:8.2f} {warm:10.3f}")

    odds = opposed_odds(largest_a, largest_b, OPTIONS)
    print(f"\nL vs L: A wins {percent(odds.p_a_wins)}, B wins {percent(odds.p_b_wins)}, "
          f"stand-off {percent(odds.p_standoff)}")

    dice = RandomDice(1)
    n = 2000
    start = time.perf_counter()
    for _ in range(n):
        opposed_test(typical_a, typical_b, dice, OPTIONS)
    per_roll = (time.perf_counter() - start) / n * 1e6
    print(f"resolving one opposed test with explanation: {per_roll:.0f} µs")

    largest = best_ms(rows[0][1])
    verdict = "within" if largest < BUDGET_MS else "OVER"
    print(f"\nlargest pools: {largest:.2f} ms — {verdict} the {BUDGET_MS:.0f} ms budget; "
          f"worst level-pool pair {worst_level:.2f} ms")
    return 0 if largest < BUDGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
