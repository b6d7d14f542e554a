"""Order of combat (S0 §Close combat 1) and exact round odds (S0 §4)."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

from ka_tui.rules.cqc import Fight, Fighter, initiative_order, resolve_round, round_odds
from ka_tui.rules.core.dice import RandomDice


def fighter(fid: str, **kw: object) -> Fighter:
    base = Fighter.new(fid, fid.title(), strength=2, agility=5, cc_number=5, cc_pool=(10, 10))
    return replace(base, **kw)


def test_s0_1_combat_initiative_is_used_when_the_fighter_has_it() -> None:
    ann = fighter("ann", ci_pool=(10, 10), ci_number=5)  # needs 8+
    bob = fighter("bob")                                 # Agility: one d12, needs 8+
    res = initiative_order([ann, bob], [8, 9, 12])
    assert [r.skill for r in res.rolls] == ["Combat Initiative", "Agility"]
    assert res.rolls[0].pool == (10, 10) and res.rolls[1].pool == (12,)
    assert res.order == ("ann", "bob")


def test_s0_1_agility_test_when_combat_initiative_is_missing() -> None:
    res = initiative_order([fighter("ann", agility=3), fighter("bob", agility=6)], [9, 9])
    # Ann 9+3 = 12 < 13 fails; Bob 9+6 passes.
    assert res.order == ("bob", "ann")
    assert not res.rolls[0].passed and res.rolls[1].passed


def test_step1_ties_are_broken_by_a_d12_roll_off() -> None:
    """S0 §Close combat 1 (order of combat), ties broken as in §4: a d12 roll-off."""
    res = initiative_order([fighter("ann"), fighter("bob")], [9, 9, 4, 4, 2, 7])
    assert res.order == ("bob", "ann")
    assert res.rolls[1].rolloff == (4, 7)
    assert len(res.faces) == 6


def test_step1_critical_fail_goes_last() -> None:
    """S0 §Close combat 1 with §4: a critical fail on the initiative test ranks last."""
    res = initiative_order([fighter("ann", ci_pool=(10, 10), ci_number=9),
                            fighter("bob", agility=1)], [1, 5, 3])
    assert res.rolls[0].crit_fail and res.order == ("bob", "ann")


def test_step1_replay_and_json() -> None:
    fs = [fighter("ann"), fighter("bob"), fighter("cid", ci_pool=(8, 8), ci_number=3)]
    res = initiative_order(fs, RandomDice(5))
    assert initiative_order(fs, [f for _, f in res.faces]) == res
    assert json.loads(json.dumps(res.to_dict()))["order"] == list(res.order)


def test_fight_order_from_initiative_sets_the_order_of_resolution() -> None:
    fs = [fighter("ann"), fighter("bob")]
    res = initiative_order(fs, [3, 9])
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
