"""Order of combat (S0 §Close combat step 1) and the odds of a round (step 4).

Step 1: each fighter passes a Combat Initiative test, or "if not available
take Active Agility test" (house rule ``cqc.agility_test``: by default the
Agility number on the Basic pool, ``initiative_test``); the best goes first
("the fastest goes first, strikes first"). The seed gives no way to rank the
results: ``ORDER_LADDER`` is the reading, step by step -- the same ladder as
step 4's tie-breaks, listed in docs/rules/READINGS.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ka_tui.rules.core.skill_tests import unopposed_test
from ka_tui.rules.cqc.card import CqcCard
from ka_tui.rules.cqc.round import pairing_contestants
from ka_tui.rules.cqc.fight_state import Fight, Fighter
from ka_tui.rules.core.dice import Dice, RecordingDice, ScriptedDice
from ka_tui.rules.core.odds import opposed_odds
from ka_tui.rules.core.options import AgilityTest, HouseRules
from ka_tui.rules.core.skills import BASE_DIE, Level, level_pool

R_STEP1 = "S0 §Close combat 1"


@dataclass(frozen=True)
class InitiativeTest:
    """What a fighter rolls for the order of combat (S0 §Close combat 1)."""

    skill: str               # "Combat Initiative" or "Agility"
    pool: tuple[int, ...]
    number: int


def initiative_test(f: Fighter, rules: HouseRules) -> InitiativeTest:
    """S0 §Close combat 1: "passing Combat Initiative test, if not available
    take Active Agility test". House rule ``cqc.agility_test``: active (the
    Agility number as an Active test, S0 §Skills "Active skill use their own
    number and levels for tests", on the Basic level's pool 2d8: "Basic
    ability of creatures to perform certain actions with minimal training"),
    or characteristic (one d12, as a Base or characteristics test)."""
    if f.ci_pool:
        return InitiativeTest("Combat Initiative", f.ci_pool, f.ci_number)
    if rules.cqc.agility_test is AgilityTest.CHARACTERISTIC:
        return InitiativeTest("Agility", (BASE_DIE,), f.agility)
    return InitiativeTest("Agility", level_pool(Level.BASIC), f.agility)


@dataclass(frozen=True)
class LadderStep:
    """One rung of the order-of-combat ranking: higher ``key`` ranks first."""

    name: str
    reading: str
    key: Callable[[InitiativeRoll, int], int]


# S0 §Close combat 1 ranks nobody; the reading borrows step 4's words, rung by
# rung (each rung only decides between fighters equal on every rung above).
ORDER_LADDER: tuple[LadderStep, ...] = (
    LadderStep("critical fail last", 'S0 §4: a critical fail "means opponent(s) '
               'automatically wins"', lambda r, agility: 0 if r.crit_fail else 1),
    LadderStep("passed above failed", "S0 §4: a side that fails its test loses to "
               "one that passes", lambda r, agility: int(r.passed)),
    LadderStep("more successes", 'S0 §4: "round is won by highest number of successes"',
               lambda r, agility: r.successes),
    LadderStep("higher skill number", 'S0 §4 "highest Close Combat skill wins", read as '
               "the number of the skill tested", lambda r, agility: r.number),
    LadderStep("higher Agility", 'S0 §4: "In case of another draw highest Agility wins"',
               lambda r, agility: agility),
)
# ... and then "roll off d12. Highest result wins" (S0 §4), again while tied.
ROLL_OFF = "d12 roll-off"


@dataclass(frozen=True)
class InitiativeRoll:
    fighter: str
    skill: str  # "Combat Initiative" or "Agility"
    pool: tuple[int, ...]
    number: int
    faces: tuple[int, ...]
    successes: int
    passed: bool
    crit_fail: bool
    rolloff: tuple[int, ...] = ()
    lines: tuple[str, ...] = ()

    def rank_key(self, agility: int) -> tuple[int, ...]:
        """``ORDER_LADDER``'s rungs in order, then the roll-offs (S0 §4)."""
        return (*(step.key(self, agility) for step in ORDER_LADDER), *self.rolloff)

    def to_dict(self) -> dict[str, Any]:
        return {"fighter": self.fighter, "skill": self.skill, "pool": list(self.pool),
                "number": self.number, "faces": list(self.faces),
                "successes": self.successes, "passed": self.passed,
                "crit_fail": self.crit_fail, "rolloff": list(self.rolloff),
                "lines": list(self.lines)}


@dataclass(frozen=True)
class InitiativeResult:
    """``order`` is highest first; ``faces`` every die as (sides, face) in
    roll order (feed the face values back to replay)."""

    order: tuple[str, ...]
    rolls: tuple[InitiativeRoll, ...]
    faces: tuple[tuple[int, int], ...]
    lines: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"order": list(self.order), "rolls": [r.to_dict() for r in self.rolls],
                "faces": [list(f) for f in self.faces], "lines": list(self.lines)}


def initiative_order(fighters: Iterable[Fighter], dice: Dice | Sequence[int],
                     rules: HouseRules | None = None) -> InitiativeResult:
    """S0 §Close combat step 1 for ``fighters`` (dice injectable)."""
    rules = rules or HouseRules()
    fs = tuple(fighters)
    source: Dice = ScriptedDice.of(dice) if isinstance(dice, Sequence) else dice
    rec = RecordingDice(source)
    rolls: dict[str, InitiativeRoll] = {}
    for f in fs:
        test = initiative_test(f, rules)
        t = unopposed_test(test.pool, test.number, rec, rules.skills, label=f.name)
        rolls[f.id] = InitiativeRoll(f.id, test.skill, test.pool, test.number, t.faces,
                                     t.successes, t.passed, t.crit_fail, (), t.explanation)
    agility = {f.id: f.agility for f in fs}
    lines = [f"Order of combat ({R_STEP1}: Combat Initiative, or an Active Agility test "
             f"without it, house rule cqc.agility_test={rules.cqc.agility_test.value})"]
    while True:
        groups: dict[tuple[int, ...], list[str]] = {}
        for fid, r in rolls.items():
            groups.setdefault(r.rank_key(agility[fid]), []).append(fid)
        tied = [g for g in groups.values() if len(g) > 1]
        if not tied:
            break
        for group in tied:
            for fid in group:
                face = rec.roll(12)
                r = rolls[fid]
                rolls[fid] = InitiativeRoll(r.fighter, r.skill, r.pool, r.number, r.faces,
                                            r.successes, r.passed, r.crit_fail,
                                            (*r.rolloff, face), r.lines)
            names = ", ".join(f"{_name(fs, fid)} {rolls[fid].rolloff[-1]}" for fid in group)
            lines.append(f"  tie: {ROLL_OFF} {names}")
    order = tuple(sorted(rolls, key=lambda fid: rolls[fid].rank_key(agility[fid]), reverse=True))
    for i, fid in enumerate(order, 1):
        r = rolls[fid]
        lines.append(f"  {i}. {_name(fs, fid)}: {r.skill} {r.successes} success(es)"
                     f"{', critical fail' if r.crit_fail else ''}"
                     f"{'' if r.passed else ', failed'}")
    return InitiativeResult(order, tuple(rolls[f.id] for f in fs), tuple(rec.used), tuple(lines))


def reroll_order(fight: Fight, dice: Dice | Sequence[int],
                 rules: HouseRules | None = None) -> InitiativeResult:
    """S0 §Close combat 1 again at the start of a later round (house rule
    ``cqc.initiative_reroll``: every round, or when the GM asks; step 6
    "determine next step"). Only fighters still in a pairing roll, in the
    fight's order of fighters; those out of it follow, in their last order."""
    rules = rules or HouseRules()
    busy = {x for p in fight.active_pairings for x in (p.a, p.b)}
    rolling = [f for f in fight.fighters if f.id in busy]
    result = initiative_order(rolling, dice, rules)
    rest = tuple(fid for fid in (fight.order or tuple(f.id for f in fight.fighters))
                 if fid not in busy)
    head = f"Order of combat for round {fight.round} ({R_STEP1}, rolled again: house rule " \
           f"cqc.initiative_reroll={rules.cqc.initiative_reroll.value})"
    return InitiativeResult((*result.order, *rest), result.rolls, result.faces,
                            (head, *result.lines[1:]))


def _name(fs: tuple[Fighter, ...], fid: str) -> str:
    return next(f.name for f in fs if f.id == fid)


@dataclass(frozen=True)
class RoundOdds:
    """Exact odds of a pairing's opposed round (S0 §4, from the rules core):
    the d12 roll-off counts as an even chance (ties re-rolled)."""

    a: str
    b: str
    p_a_wins: Fraction
    p_b_wins: Fraction
    p_standoff: Fraction
    p_rolloff: Fraction
    p_a_crit_fail: Fraction
    p_b_crit_fail: Fraction
    p_a_passes: Fraction
    p_b_passes: Fraction
    # S0 §Skills, Passive: each side's bonus on every die, and why
    bonuses: tuple[int, int] = (0, 0)
    passives: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {k: (str(v) if isinstance(v, Fraction) else
                    list(v) if isinstance(v, tuple) else v)
                for k, v in self.__dict__.items()}


def round_odds(fight: Fight, a: str, b: str, rules: HouseRules | None = None,
               cards: Iterable[CqcCard] = ()) -> RoundOdds:
    """The chance each side wins the next round of ``a`` vs ``b`` (S0 §4),
    with their Feint bonuses against each other (S0 §2.2 Feint) and the
    Passive skills the round's ``cards`` make count (S0 §Skills, Passive: no
    cards, no weapon -- a fistfight)."""
    rules = rules or HouseRules()
    fa, fb = fight.fighter(a), fight.fighter(b)
    ca, cb, counted = pairing_contestants(fa, fb, cards, rules.cqc)
    passives = tuple(p.short(fight.fighter(p.fighter).name) for p in counted)
    o = opposed_odds(ca, cb, rules.skills)
    return RoundOdds(a, b, o.p_a_wins, o.p_b_wins, o.p_standoff, o.p_rolloff,
                     o.a.p_crit_fail, o.b.p_crit_fail, o.a.p_pass, o.b.p_pass,
                     (ca.bonus, cb.bonus), passives)
