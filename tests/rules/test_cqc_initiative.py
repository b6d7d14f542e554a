"""Order of combat (S0 §Close combat 1) and exact round odds (S0 §4)."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

from ka_tui.rules.cqc import Fight, Fighter, initiative_order, resolve_round, round_odds
from ka_tui.rules.cqc.initiative import ORDER_LADDER, initiative_test
from ka_tui.rules.core.dice import RandomDice
from ka_tui.rules.core.options import AgilityTest, HouseRules

# S0 §Close combat 1 on one d12 against Agility (house rule cqc.agility_test =
# characteristic), the test most of these examples roll.
D12 = HouseRules().with_changes("cqc", agility_test=AgilityTest.CHARACTERISTIC)


def fighter(fid: str, **kw: object) -> Fighter:
    base = Fighter.new(fid, fid.title(), strength=2, agility=5, cc_number=5, cc_pool=(10, 10))
    return replace(base, **kw)


def test_s0_1_combat_initiative_is_used_when_the_fighter_has_it() -> None:
    ann = fighter("ann", ci_pool=(10, 10), ci_number=5)  # needs 8+
    bob = fighter("bob")                                 # Agility: one d12, needs 8+
    res = initiative_order([ann, bob], [8, 9, 12], D12)
    assert [r.skill for r in res.rolls] == ["Combat Initiative", "Agility"]
    assert res.rolls[0].pool == (10, 10) and res.rolls[1].pool == (12,)
    assert res.order == ("ann", "bob")


def test_s0_1_agility_test_when_combat_initiative_is_missing() -> None:
    """S0 §Close combat 1 under cqc.agility_test = characteristic: one d12 + Agility."""
    res = initiative_order([fighter("ann", agility=3), fighter("bob", agility=6)], [9, 9], D12)
    # Ann 9+3 = 12 < 13 fails; Bob 9+6 passes.
    assert res.order == ("bob", "ann")
    assert not res.rolls[0].passed and res.rolls[1].passed


def test_step1_ties_are_broken_by_a_d12_roll_off() -> None:
    """S0 §Close combat 1 (order of combat), ties broken as in §4: a d12 roll-off."""
    res = initiative_order([fighter("ann"), fighter("bob")], [9, 9, 4, 4, 2, 7], D12)
    assert res.order == ("bob", "ann")
    assert res.rolls[1].rolloff == (4, 7)
    assert len(res.faces) == 6


def test_step1_critical_fail_goes_last() -> None:
    """S0 §Close combat 1 with §4: a critical fail on the initiative test ranks last."""
    res = initiative_order([fighter("ann", ci_pool=(10, 10), ci_number=9),
                            fighter("bob", agility=1)], [1, 5, 3], D12)
    assert res.rolls[0].crit_fail and res.order == ("bob", "ann")


def test_step1_replay_and_json() -> None:
    fs = [fighter("ann"), fighter("bob"), fighter("cid", ci_pool=(8, 8), ci_number=3)]
    res = initiative_order(fs, RandomDice(5))
    assert initiative_order(fs, [f for _, f in res.faces]) == res
    assert json.loads(json.dumps(res.to_dict()))["order"] == list(res.order)


def test_fight_order_from_initiative_sets_the_order_of_resolution() -> None:
    fs = [fighter("ann"), fighter("bob")]
    res = initiative_order(fs, [3, 9], D12)
    fight = replace(Fight.start(fs, [("ann", "bob")]), order=res.order)
    assert fight.order == ("bob", "ann")


def test_s0_4_round_odds_are_exact_and_sum_to_one() -> None:
    fight = Fight.start([fighter("ann"), fighter("bob", agility=4)], [("ann", "bob")])
    o = round_odds(fight, "ann", "bob")
    assert o.p_a_wins + o.p_b_wins + o.p_standoff == 1
    assert isinstance(o.p_a_wins, Fraction)
    assert o.p_a_wins > o.p_b_wins  # Agility breaks the ties in Ann's favour


def test_s0_4_equal_fighters_have_equal_odds_via_the_roll_off() -> None:
    fight = Fight.start([fighter("ann"), fighter("bob")], [("ann", "bob")])
    o = round_odds(fight, "ann", "bob")
    assert o.p_a_wins == o.p_b_wins and o.p_rolloff > 0


def test_s0_2_2_feint_bonus_raises_the_round_odds() -> None:
    fight = Fight.start([fighter("ann"), fighter("bob")], [("ann", "bob")])
    before = round_odds(fight, "ann", "bob").p_a_wins
    feinted = fight.with_fighters([fight.fighter("ann").with_feint("bob", 2)])
    assert round_odds(feinted, "ann", "bob").p_a_wins > before


def test_round_odds_agree_with_many_rounds() -> None:
    fight = Fight.start([fighter("ann", cc_number=6), fighter("bob", cc_pool=(10, 10, 10))],
                        [("ann", "bob")])
    o = round_odds(fight, "ann", "bob")
    dice = RandomDice(11)
    n, wins = 1500, 0
    for _ in range(n):
        _, rep = resolve_round(fight, (), dice)
        wins += rep.pairings[0].contest.winner == "ann"
    assert abs(wins / n - float(o.p_a_wins)) < 0.04  # ~3 sigma; seeded


def test_fighter_from_skills_takes_pools_from_the_rules_core() -> None:
    from ka_tui.rules.core.skills import Level, Skill, SkillKind
    cc = Skill("Close Combat", SkillKind.ACTIVE, 6, Level.EXPERT, 1)
    ci = Skill("Combat Initiative", SkillKind.ACTIVE, 3, Level.TRAINED)
    f = Fighter.from_skills("ann", "Ann", close_combat=cc, combat_initiative=ci,
                            strength=2, agility=4, k_points=7)
    assert (f.cc_pool, f.cc_number, f.ci_pool, f.ci_number) == ((10, 10, 10, 12), 6, (10, 10), 3)
    assert f.k_points == 7 and f.pool == 6
    legend = Fighter.from_skills("bob", "Bob", strength=1, agility=1,
                                 close_combat=Skill("CC", SkillKind.ACTIVE, 9, Level.LEGENDARY, 4))
    assert legend.cc_legendary and legend.cc_pool == (20, 20, 20, 20) and legend.ci_pool == ()


def test_s0_1_the_active_agility_test_rolls_the_basic_pool_on_agility() -> None:
    """S0 §Close combat 1 "if not available take Active Agility test"; S0
    §Skills "Active skill use their own number and levels for tests", and the
    Basic level ("Basic ability of creatures to perform certain actions with
    minimal training") rolls 2 d8: the default of cqc.agility_test."""
    assert HouseRules().cqc.agility_test is AgilityTest.ACTIVE
    bob = fighter("bob", agility=6)
    test = initiative_test(bob, HouseRules())
    assert (test.skill, test.pool, test.number) == ("Agility", (8, 8), 6)
    assert initiative_test(bob, D12).pool == (12,)
    ann = fighter("ann", ci_pool=(10, 10), ci_number=5)
    assert initiative_test(ann, HouseRules()).pool == (10, 10)  # Combat Initiative first
    res = initiative_order([bob, fighter("cid", agility=4)], [7, 2, 8, 3])
    assert res.rolls[0].pool == (8, 8) and res.rolls[0].faces == (7, 2)
    assert res.rolls[0].successes == 1          # 7 + 6 = 13; 2 + 6 fails
    assert res.rolls[1].successes == 1          # an 8 on a d8 is a critical success
    assert res.order == ("bob", "cid")          # equal successes: skill number 6 > 4
    assert "cqc.agility_test=active" in res.lines[0]


def test_s0_1_order_ladder_higher_skill_number_before_agility_and_roll_off() -> None:
    """S0 §Close combat 1 ranked by the step-4 ladder (ORDER_LADDER): Ann's
    Combat Initiative 1d12 @6 and Bob's Agility d12 @5, both Agility 5, both
    roll 9: one success each, so the higher skill number puts Ann first --
    no d12 roll-off is rolled."""
    ann = fighter("ann", agility=5, ci_pool=(12,), ci_number=6)
    bob = fighter("bob", agility=5)
    res = initiative_order([ann, bob], [9, 9], D12)
    assert res.order == ("ann", "bob")
    assert all(r.rolloff == () for r in res.rolls) and len(res.faces) == 2
    assert [step.name for step in ORDER_LADDER] == [
        "critical fail last", "passed above failed", "more successes",
        "higher skill number", "higher Agility"]


def test_s0_1_order_ladder_agility_breaks_a_tie_of_equal_numbers() -> None:
    """S0 §4 "In case of another draw highest Agility wins": same successes
    and skill number, the higher Agility goes first without a roll-off."""
    ann = fighter("ann", agility=4, ci_pool=(12,), ci_number=6)
    bob = fighter("bob", agility=6, ci_pool=(12,), ci_number=6)
    res = initiative_order([ann, bob], [9, 9], D12)
    assert res.order == ("bob", "ann") and len(res.faces) == 2
