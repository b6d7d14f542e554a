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


def test_s0_1_the_order_of_combat_record_field_by_field() -> None:
    """S0 §Close combat 1 (one d12 on Agility here): Ann and Bob tie on 9s
    and roll off (S0 §4 "roll off d12", 4 against 7); Cid's 1 is a critical
    fail and goes last. Every field the log keeps, its JSON and its lines."""
    from ka_tui.rules.core.dice import ScriptedDice
    from ka_tui.rules.core.options import SkillOptions
    from ka_tui.rules.core.skill_tests import unopposed_test

    fs = [fighter("ann"), fighter("bob"), fighter("cid", agility=1)]
    res = initiative_order(fs, [9, 9, 1, 4, 7], D12)
    assert res.order == ("bob", "ann", "cid")
    assert res.faces == ((12, 9), (12, 9), (12, 1), (12, 4), (12, 7))
    ann_lines = unopposed_test((12,), 5, ScriptedDice.of([9]), SkillOptions(),
                               label="Ann").explanation
    assert "Ann" in " ".join(ann_lines)
    assert res.rolls[0].to_dict() == {
        "fighter": "ann", "skill": "Agility", "pool": [12], "number": 5, "faces": [9],
        "successes": 1, "passed": True, "crit_fail": False, "rolloff": [4],
        "lines": list(ann_lines)}
    cid = res.rolls[2]
    assert (cid.fighter, cid.skill, cid.pool, cid.number, cid.faces, cid.successes,
            cid.passed, cid.crit_fail, cid.rolloff) == ("cid", "Agility", (12,), 1, (1,), 0,
                                                        False, True, ())
    assert res.lines == (
        "Order of combat (S0 §Close combat 1: Combat Initiative, or an Active Agility test "
        "without it, house rule cqc.agility_test=characteristic)",
        "  tie: d12 roll-off Ann 4, Bob 7",
        "  1. Bob: Agility 1 success(es)",
        "  2. Ann: Agility 1 success(es)",
        "  3. Cid: Agility 0 success(es), critical fail, failed")
    data = res.to_dict()
    assert set(data) == {"order", "rolls", "faces", "lines"}
    assert data["order"] == ["bob", "ann", "cid"] and data["lines"] == list(res.lines)
    assert data["faces"] == [[12, 9], [12, 9], [12, 1], [12, 4], [12, 7]]
    assert data["rolls"] == [r.to_dict() for r in res.rolls]


def test_s0_1_a_roll_off_keeps_everything_else_of_the_test() -> None:
    """S0 §4's roll-off only adds its face: the Combat Initiative tests of two
    fighters with 2d10 @5 and the same successes keep pool, number and faces."""
    fs = [fighter("ann", ci_pool=(10, 10), ci_number=5),
          fighter("bob", ci_pool=(10, 10), ci_number=5)]
    res = initiative_order(fs, [9, 2, 9, 2, 6, 3], D12)
    assert res.order == ("ann", "bob")
    for r, face in zip(res.rolls, (6, 3)):
        assert (r.skill, r.pool, r.number, r.faces, r.successes, r.passed, r.crit_fail,
                r.rolloff) == ("Combat Initiative", (10, 10), 5, (9, 2), 1, True, False,
                               (face,))
    assert [r.fighter for r in res.rolls] == ["ann", "bob"]


def test_s0_1_6_a_reroll_of_a_fight_without_an_order_keeps_the_rest_in_fighter_order() -> None:
    """S0 §Close combat 1 again (cqc.initiative_reroll): the fighters out of
    every pairing follow, in the fight's order -- its fighters' order when it
    has none; the head line names the round and the house rule."""
    from ka_tui.rules.cqc import reroll_order

    fight = Fight.start([fighter("ann"), fighter("bob"), fighter("cid"), fighter("dan")],
                        [("ann", "bob"), ("cid", "dan")])
    fight = replace(fight, order=(), pairings=(fight.pairings[0],
                                               replace(fight.pairings[1], ended="over")))
    res = reroll_order(fight, [9, 3], D12)
    assert res.order == ("ann", "bob", "cid", "dan")
    assert res.lines[0] == ("Order of combat for round 1 (S0 §Close combat 1, rolled again: "
                            "house rule cqc.initiative_reroll=gm_asks)")
    assert res.lines[1:] == ("  1. Ann: Agility 1 success(es)",
                             "  2. Bob: Agility 0 success(es), failed")


def test_s0_4_round_odds_carry_both_sides_their_crit_fail_and_pass_chances() -> None:
    """S0 §4 odds from the rules core (``opposed_odds``) for the pairing, with
    the Passive skill that counts (S0 §Skills: Brawl in a fistfight)."""
    from ka_tui.rules.core.odds import opposed_odds
    from ka_tui.rules.cqc.round import pairing_contestants

    ann = fighter("ann", cc_untrained=True, cc_pool=(12,), passives=(("Brawl", 2),))
    fight = Fight.start([ann, fighter("bob", cc_number=3)], [("ann", "bob")])
    o = round_odds(fight, "ann", "bob")
    ca, cb, _ = pairing_contestants(fight.fighter("ann"), fight.fighter("bob"), (),
                                    HouseRules().cqc)
    core = opposed_odds(ca, cb, HouseRules().skills)
    assert (o.a, o.b) == ("ann", "bob")
    assert (o.p_a_wins, o.p_b_wins, o.p_standoff, o.p_rolloff) == (
        core.p_a_wins, core.p_b_wins, core.p_standoff, core.p_rolloff)
    assert (o.p_a_crit_fail, o.p_b_crit_fail) == (core.a.p_crit_fail, core.b.p_crit_fail)
    assert (o.p_a_passes, o.p_b_passes) == (core.a.p_pass, core.b.p_pass)
    assert o.p_a_crit_fail == Fraction(1, 12) and o.p_b_crit_fail != o.p_a_crit_fail
    assert o.bonuses == (2, 0)
    assert o.passives == ("Ann: Brawl +2, a fistfight (S0 §Skills, Passive; a 1 stays a "
                          "critical fail)",)
    data = o.to_dict()
    assert data["passives"] == list(o.passives) and data["a"] == "ann"
    assert data["p_a_wins"] == str(o.p_a_wins) and data["bonuses"] == [2, 0]
