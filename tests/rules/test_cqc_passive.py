"""Passive skills in a close-combat round (S0 §Skills, Passive).

S0 §Skills, Passive: "Passive Skill adds its level to roll on Base skill or
Characteristics test. Brawl: 4 - when character is involved in fistfight he
would roll d12, then add +4 to his result and consult table to see result.
Note that Critical Fail is not improved by passive skill." The round is
S0 §Close combat 4 (opposed test, tie-breaks Close Combat then Agility, then
a d12 roll-off); the opposed table is RULES-NOTES A (face >= 7 + opponent's
skill - own skill, never below 2).

The odds are checked against a count over every face written here from that
text alone -- it calls nothing of the engine but the function under test.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ka_tui.rules.cqc import (
    CqcCard, Fight, Fighter, Weapon, next_die, passive_bonus, preview_pairing, resolve_round,
    round_odds,
)
from ka_tui.rules.core.options import CqcOptions, HouseRules, SkillOptions, recorded_rules

KNIFE = Weapon("knife", 2)
PISTOL = Weapon("pistol", 3, is_firearm=True)


def brawler(fid: str = "ann", *, agility: int = 5, brawl: int = 4, **kw: object) -> Fighter:
    """No Close Combat: one d12 on Agility (house rule untrained_close_combat)."""
    f = Fighter.new(fid, fid.title(), strength=3, agility=agility, cc_number=agility,
                    cc_pool=(12,), weapons=(KNIFE, PISTOL),
                    passives=(("Brawl", brawl),) if brawl else (), cc_untrained=True)
    return replace(f, **kw)


def plain(fid: str = "bob", *, agility: int = 5, **kw: object) -> Fighter:
    return brawler(fid, agility=agility, brawl=0, **kw)


def fight(a: Fighter, b: Fighter) -> Fight:
    return Fight.start([a, b], [(a.id, b.id)])


def cards(a_weapon: str | None = None, b_weapon: str | None = None) -> tuple[CqcCard, ...]:
    return (CqcCard.build("ann", "bob", attack="b", weapon=a_weapon),
            CqcCard.build("bob", "ann", attack="b", weapon=b_weapon))


RULES = HouseRules()


# --------------------------------------------------------------- the round's test


def test_s0_skills_passive_brawl_adds_to_the_d12_in_a_fistfight() -> None:
    """S0 §Skills, Passive: Ann's d12 shows 3; 3 + Brawl 4 = 7 meets the 7+
    of equal skills (RULES-NOTES A), Bob's 2 fails: Ann wins (S0 §4 only one
    side passed) and her Attack costs Bob 3 AP."""
    after, rep = resolve_round(fight(brawler(), plain()), cards(), [3, 2], RULES)
    c = rep.pairings[0].contest
    assert c.winner == "ann" and c.successes == (1, 0) and c.bonuses == (4, 0)
    assert after.fighter("bob").ap == 3
    assert any("S0 §Skills, Passive" in ln and "Brawl 4 adds +4" in ln for ln in c.lines)
    assert c.passives and "fistfight" in c.passives[0]


def test_s0_skills_passive_same_faces_without_brawl_is_a_stand_off() -> None:
    """S0 §Close combat 4 with RULES-NOTES B: the same faces, no Brawl: both fail."""
    _, rep = resolve_round(fight(brawler(brawl=0), plain()), cards(), [3, 2], RULES)
    assert rep.pairings[0].contest.winner is None
    assert rep.pairings[0].contest.passives == ()


def test_s0_skills_passive_critical_fail_is_not_improved() -> None:
    """S0 §Skills, Passive: "Critical Fail is not improved by passive skill":
    a 1 + Brawl 4 = 5 is still a critical fail, so Bob wins automatically
    (S0 §Close combat 4) even with a 2, a failed test."""
    _, rep = resolve_round(fight(brawler(), plain()), cards(), [1, 2], RULES)
    c = rep.pairings[0].contest
    assert c.winner == "bob" and c.standings[0].value == "crit_failed"
    assert any("Critical Fail is not improved by passive skill" in ln for ln in c.lines)


def test_s0_skills_passive_top_face_only_is_a_critical() -> None:
    """S0 §Skills: a critical is the die's top face; 9 + 4 = 13 is a plain
    success, so Bob's 12 (a critical) still wins automatically (S0 §4)."""
    _, rep = resolve_round(fight(brawler(), plain()), cards(), [9, 12], RULES)
    assert rep.pairings[0].contest.winner == "bob"
    assert rep.pairings[0].contest.decided_by == "critical success"


@pytest.mark.parametrize(("a_weapon", "b_weapon", "both_unarmed", "bonus"), [
    (None, None, True, 4),        # a fistfight
    ("knife", None, True, 0),     # his Attack uses a knife: no fistfight
    (None, "knife", True, 0),     # the other's knife: not a fistfight (default)
    (None, "knife", False, 4),    # house rule fistfight_both_unarmed off: his hands count
    ("pistol", None, False, 0),   # a firearm is never a fistfight
])
def test_s0_skills_passive_brawl_only_in_a_fistfight(a_weapon: str | None, b_weapon: str | None,
                                                     both_unarmed: bool, bonus: int) -> None:
    """S0 §Skills, Passive "involved in fistfight"; S0 §2.2 Attack "with fist,
    legs or knife ... including use of firearms": the card's weapon decides."""
    opts = CqcOptions(fistfight_both_unarmed=both_unarmed)
    a, b = cards(a_weapon, b_weapon)
    got = passive_bonus(brawler(), a, b, opts)
    assert (got.number if got else 0) == bonus
    rules = HouseRules(cqc=opts)
    _, rep = resolve_round(fight(brawler(), plain()), (a, b), [3, 2],
                           rules)
    assert rep.pairings[0].contest.bonuses[0] == bonus


def test_s0_skills_passive_not_on_close_combat_by_default() -> None:
    """S0 §Skills: a Passive adds to a Base skill or characteristic test; a
    Close Combat test (an Active skill) gets none unless house rule
    passive_with_close_combat is on -- then on each die of the pool."""
    trained = replace(brawler(), cc_pool=(10, 10), cc_untrained=False)
    assert passive_bonus(trained, *cards(), CqcOptions()) is None
    on = passive_bonus(trained, *cards(), CqcOptions(passive_with_close_combat=True))
    assert on is not None and on.number == 4 and on.on_close_combat
    _, rep = resolve_round(fight(trained, plain()), cards(), [3, 3, 2],
                           HouseRules(cqc=CqcOptions(passive_with_close_combat=True)))
    c = rep.pairings[0].contest
    assert c.successes == (2, 0) and "on Close Combat" in c.passives[0]
    assert any("house rule cqc.passive_with_close_combat" in ln for ln in c.lines)


def test_s0_skills_passive_which_skill_helps_where_is_a_table() -> None:
    """S0 §Skills names Brawl only; cqc.passive_fight_skills is the data: a
    knife-fighting Passive helps when his Attack uses a knife (melee), not in
    a fistfight; of several that apply, the highest counts."""
    table = {"brawl": "fistfight", "knife fighting": "melee", "dirty tricks": "any"}
    opts = CqcOptions(passive_fight_skills=table)
    ann = replace(brawler(), passives=(("Brawl", 2), ("Knife Fighting", 3), ("Dirty tricks", 1)))
    fists, knife = cards(), cards("knife")
    assert passive_bonus(ann, *fists, opts).skill == "Brawl"  # 2 beats Dirty tricks 1
    got = passive_bonus(ann, *knife, opts)
    assert got is not None and (got.skill, got.kind) == ("Knife Fighting", "melee")
    assert passive_bonus(ann, *cards("pistol"), opts).skill == "Dirty tricks"
    assert passive_bonus(ann, *knife, CqcOptions()) is None  # the default table: Brawl only


def test_passive_table_is_a_checked_house_rule() -> None:
    """The option round-trips through the campaign's JSON and refuses a kind
    of round it does not know (S0 §Skills, Passive)."""
    rules = HouseRules.from_dict({"cqc": {"passive_fight_skills": {"Brawl": "Fistfight",
                                                                   "Knife": "melee"}}})
    assert rules.cqc.passive_fight_skills == {"brawl": "fistfight", "knife": "melee"}
    assert HouseRules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    with pytest.raises(ValueError, match="passive_fight_skills"):
        HouseRules.from_dict({"cqc": {"passive_fight_skills": {"Brawl": "pub"}}})


def test_an_old_fight_log_counts_no_passive() -> None:
    """A fight recorded before Passive skills counted (its fighters have no
    ``passives``, its rules no table) replays with no bonus (S0 §Skills)."""
    old = brawler().to_dict()
    del old["passives"], old["cc_untrained"]
    ann = Fighter.from_dict(old)
    rules = recorded_rules({"cqc": {"default_ap": 6}})
    assert ann.passives == () and rules.cqc.passive_fight_skills == {}
    _, rep = resolve_round(fight(ann, plain()), cards(), [3, 2], rules)
    assert rep.pairings[0].contest.winner is None


# ------------------------------------------------------------ odds by brute force


def seed_round(a_face: int, b_face: int, *, a_number: int, b_number: int, a_bonus: int,
               a_agility: int, b_agility: int) -> Fraction | None:
    """Ann's chance of winning one d12-vs-d12 round with these faces, read
    off the seed text only: None is a stand-off.

    Need (RULES-NOTES A): face + bonus >= max(2, 7 + opponent's − own skill).
    A 1 is a critical fail whatever the bonus; a 12 a critical success.
    S0 §4: a critical fail loses (both: stand-off); a critical success wins
    (both: more successes, then higher skill, then a roll-off); only one
    passed wins; both passed: successes, Close Combat, Agility, roll-off.
    """
    def side(face: int, need: int, bonus: int) -> tuple[bool, bool, bool]:
        crit_fail, crit = face == 1, face == 12
        passed = not crit_fail and (crit or face + bonus >= need)
        return passed, crit_fail, crit

    pa, fa, ca = side(a_face, max(2, 7 + b_number - a_number), a_bonus)
    pb, fb, cb = side(b_face, max(2, 7 + a_number - b_number), 0)
    if fa and fb:
        return None
    if fa or fb:
        return Fraction(0 if fa else 1)
    if ca != cb:
        return Fraction(1 if ca else 0)
    if ca and cb:  # one success each: the higher skill, else a roll-off
        return Fraction(1, 2) if a_number == b_number else Fraction(int(a_number > b_number))
    if pa != pb:
        return Fraction(1 if pa else 0)
    if not pa:
        return None
    for mine, theirs in ((a_number, b_number), (a_agility, b_agility)):
        if mine != theirs:
            return Fraction(int(mine > theirs))
    return Fraction(1, 2)


def brute(a_number: int, b_number: int, a_bonus: int, a_agility: int, b_agility: int
          ) -> tuple[Fraction, Fraction, Fraction]:
    wins = losses = standoff = Fraction(0)
    for fa, fb in product(range(1, 13), repeat=2):
        p = seed_round(fa, fb, a_number=a_number, b_number=b_number, a_bonus=a_bonus,
                       a_agility=a_agility, b_agility=b_agility)
        if p is None:
            standoff += Fraction(1, 144)
        else:
            wins += p / 144
            losses += (1 - p) / 144
    return wins, losses, standoff


@pytest.mark.parametrize(("a_agility", "b_agility", "brawl"),
                         [(5, 5, 4), (5, 5, 0), (4, 6, 3), (6, 3, 2), (3, 7, 4)])
def test_s0_skills_passive_odds_match_a_count_of_every_face(a_agility: int, b_agility: int,
                                                            brawl: int) -> None:
    """S0 §Skills, Passive and S0 §Close combat 4: the exact odds the screen
    shows equal a count over all 144 faces of two d12s."""
    ann, bob = brawler(agility=a_agility, brawl=brawl), plain(agility=b_agility)
    o = round_odds(fight(ann, bob), "ann", "bob", RULES, cards())
    wins, losses, standoff = brute(a_agility, b_agility, brawl, a_agility, b_agility)
    assert (o.p_a_wins, o.p_b_wins, o.p_standoff) == (wins, losses, standoff)
    assert o.bonuses == (brawl, 0)
    assert o.p_a_crit_fail == Fraction(1, 12)  # a 1 is a 1, Brawl or not


def test_s0_skills_passive_brawl_raises_the_odds_only_in_a_fistfight() -> None:
    """S0 §Skills, Passive: the same two fighters, fists vs a knife in Ann's hand."""
    f = fight(brawler(), plain())
    fists = round_odds(f, "ann", "bob", RULES, cards())
    knife = round_odds(f, "ann", "bob", RULES, cards("knife"))
    assert fists.p_a_wins == brute(5, 5, 4, 5, 5)[0]
    assert knife.p_a_wins == brute(5, 5, 0, 5, 5)[0] < fists.p_a_wins


@settings(max_examples=40, deadline=None)
@given(fa=st.integers(1, 12), fb=st.integers(1, 12), brawl=st.integers(0, 6),
       a_agility=st.integers(1, 9), b_agility=st.integers(1, 9))
def test_s0_skills_passive_round_agrees_with_the_seed_count(fa: int, fb: int, brawl: int,
                                                            a_agility: int,
                                                            b_agility: int) -> None:
    """S0 §Skills, Passive and §Close combat 4, face by face: the round's
    winner is the one the seed text gives (roll-offs: Ann's d12 6, Bob's 5)."""
    ann, bob = brawler(agility=a_agility, brawl=brawl), plain(agility=b_agility)
    expected = seed_round(fa, fb, a_number=a_agility, b_number=b_agility, a_bonus=brawl,
                          a_agility=a_agility, b_agility=b_agility)
    winner = _winner(fight(ann, bob), fa, fb)
    if expected is None:
        assert winner is None
    elif expected == Fraction(1, 2):
        assert winner == "ann"  # the roll-off 6-5
    else:
        assert winner == ("ann" if expected == 1 else "bob")


def _winner(f: Fight, fa: int, fb: int) -> str | None:
    """The round's winner with these faces, and a 6-5 d12 roll-off if the
    round needs one (bare-handed Attacks: no save is rolled)."""
    needs = next_die(f, cards(), [fa, fb], RULES)
    extra = [] if needs is None else [6, 5]
    _, rep = resolve_round(f, cards(), [fa, fb, *extra], RULES)
    return rep.pairings[0].contest.winner


def test_s0_skills_passive_preview_chances_follow_brawl() -> None:
    """The preview before the dice (S0 §Close combat 4-5): each way the round
    can end carries its exact chance, from the same test as the odds -- so
    Brawl moves them, and they add up to 1."""
    f = fight(brawler(), plain())
    with_brawl = preview_pairing(f, cards(), "ann", "bob", CqcOptions(), skills=SkillOptions())
    assert sum(s.chance or 0 for s in with_brawl) == 1
    ann_wins = sum(s.chance or 0 for s in with_brawl if s.standings.winner == 0)
    assert ann_wins == round_odds(f, "ann", "bob", RULES, cards()).p_a_wins == brute(5, 5, 4, 5, 5)[0]
    bare = preview_pairing(fight(brawler(brawl=0), plain()), cards(), "ann", "bob",
                           CqcOptions(), skills=SkillOptions())
    assert [s.label for s in bare] == [s.label for s in with_brawl]
    assert bare[0].chance is not None and with_brawl[0].chance is not None
    assert with_brawl[0].chance > bare[0].chance  # Ann wins, Bob passed
    assert with_brawl[-1].label == "both roll a critical fail"
    assert with_brawl[-1].chance == Fraction(1, 144)  # two 1s, whatever Brawl


# ------------------------------------------------- a Passive the house rules leave out


def test_s0_skills_passive_left_out_on_close_combat_is_said_with_the_option() -> None:
    """S0 §Skills: a Passive adds to a Base skill or characteristic test; a
    fighter who rolls his Close Combat dice gets no Brawl by default (house
    rule cqc.passive_with_close_combat off). The odds and the round report
    say it was considered and which option leaves it out."""
    trained = replace(brawler(brawl=2), cc_pool=(10, 10), cc_untrained=False)
    f = fight(trained, plain())
    o = round_odds(f, "ann", "bob", RULES, cards())
    assert o.bonuses == (0, 0) and o.passives == ()
    assert o.passives_left_out == (
        "Ann: Brawl +2 not counted: the test is on Close Combat dice, not a Base skill or a "
        "characteristic (cqc.passive_with_close_combat is off)",)
    _, rep = resolve_round(f, cards(), [3, 3, 2], RULES)
    c = rep.pairings[0].contest
    assert c.bonuses == (0, 0) and c.passives == ()
    assert c.passives_left_out == o.passives_left_out
    assert any("Brawl 2 was considered and adds nothing" in ln
               and "house rule cqc.passive_with_close_combat is off" in ln
               and "S0 §Skills, Passive" in ln for ln in c.lines)
    assert any("Brawl 2 was considered" in ln for ln in rep.lines)  # the text report
    on = HouseRules(cqc=CqcOptions(passive_with_close_combat=True))
    counted = round_odds(f, "ann", "bob", on, cards())
    assert counted.passives and counted.passives_left_out == ()


def test_s0_skills_passive_left_out_of_a_round_of_another_kind_is_said() -> None:
    """S0 §Skills "involved in fistfight": Brawl in a round where the other's
    Attack uses a knife is no fistfight (cqc.fistfight_both_unarmed); where
    his own uses it, a melee round. A Passive the table does not name (a
    Survival skill) is not a fighting skill: nothing is said of it."""
    f = fight(brawler(), plain())
    theirs = round_odds(f, "ann", "bob", RULES, cards(None, "knife"))
    assert theirs.passives_left_out == (
        "Ann: Brawl +4 not counted: the other's Attack uses knife, so it is no fistfight; it "
        "helps in a fistfight (cqc.passive_fight_skills, cqc.fistfight_both_unarmed)",)
    mine = round_odds(f, "ann", "bob", RULES, cards("knife"))
    assert "the Attack uses knife (a melee round)" in mine.passives_left_out[0]
    survival = replace(plain(), passives=(("Survival", 3),))
    assert round_odds(fight(brawler(), survival), "ann", "bob", RULES,
                      cards()).passives_left_out == ()
    assert round_odds(f, "ann", "bob", RULES, cards()).passives_left_out == ()  # it counts


def test_s0_skills_passive_lines_name_the_fighter_the_gm_reads() -> None:
    """S0 §Skills, Passive: the report's full sentence and the screen's short
    line for a Brawl that counts, and for one house rule
    cqc.passive_with_close_combat leaves out, each begin with his name."""
    _, rep = resolve_round(fight(brawler(), plain()), cards(), [3, 2], RULES)
    c = rep.pairings[0].contest
    assert c.lines[0] == (
        "Ann: Brawl 4 adds +4 to his d12 -- a fistfight (no weapon in the pairing's Attacks "
        "this round; house rule cqc.passive_fight_skills); a 1 stays a critical fail "
        "(S0 §Skills, Passive: \"Critical Fail is not improved by passive skill\")")
    assert c.passives == ("Ann: Brawl +4, a fistfight (S0 §Skills, Passive; a 1 stays a "
                          "critical fail)",)
    trained = replace(brawler(brawl=2), cc_pool=(10, 10), cc_untrained=False)
    _, rep = resolve_round(fight(trained, plain()), cards(), [3, 3, 2], RULES)
    assert rep.pairings[0].contest.lines[0] == (
        "Ann: Brawl 2 was considered and adds nothing: the test is on Close Combat dice, not "
        "a Base skill or a characteristic (house rule cqc.passive_with_close_combat is off; "
        "S0 §Skills, Passive: a Passive \"adds its level to roll on Base skill or "
        "Characteristics test\")")


def test_s0_skills_passive_of_side_b_follows_both_cards() -> None:
    """S0 §Skills "involved in fistfight": Bob (side B of the pairing) has
    Brawl; his own Attack with a knife makes a melee round, Ann's with a
    knife makes it no fistfight -- either way his Brawl counts for nothing,
    and the report says which card made it so."""
    f = fight(plain("ann"), brawler("bob"))
    _, rep = resolve_round(f, cards(None, "knife"), [3, 2], RULES)
    c = rep.pairings[0].contest
    assert c.bonuses == (0, 0) and c.passives == ()
    assert c.passives_left_out == ("Bob: Brawl +4 not counted: the Attack uses knife (a melee "
                                   "round); it helps in a fistfight (cqc.passive_fight_skills)",)
    _, rep = resolve_round(f, cards("knife", None), [3, 2], RULES)
    c = rep.pairings[0].contest
    assert c.bonuses == (0, 0) and c.passives == ()
    assert c.passives_left_out == (
        "Bob: Brawl +4 not counted: the other's Attack uses knife, so it is no fistfight; it "
        "helps in a fistfight (cqc.passive_fight_skills, cqc.fistfight_both_unarmed)",)
