"""The roller's plain-value side (no Textual): what a character can roll, the
pool text each choice fills in, tie-breaks, and how dice and odds are drawn."""

from __future__ import annotations

import pytest

from ka_tui.rules.core.skill_tests import DieResult, TestResult, opposed_test
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.core.options import HouseRules, OpposedTiebreak, SkillOptions
from ka_tui.rules.core.dice_notation import parse_pool
from ka_tui.rules.core.skills import Level, Skill, SkillKind
from ka_tui.rules.core.roll_choices import (
    RollChoice, Setup, Side, character_of_row, choice_label, distinct_names, faces_hint,
    faces_problem, notation_for, skill_of_row, tiebreaks,
)
from ka_tui.widgets.dice_text import die_mark, need_text, opposed_lines, log_summary
from ka_tui.widgets.roll_log_pane import time_cells
from ka_tui.store.roll_log import LoggedRoll

ROW = dict(id=4, name="Mike Dunn", strength=6, agility=4, endurance=6, resistance=5, armour=2,
           base_weapons=6, base_tech=3, base_survival=6, base_communication=3, base_psy=3)
SKILLS: list[dict[str, object]] = [
    dict(id=1, name="Close Combat", kind="active", number=7, level="L", upgrades=1),
    dict(id=2, name="Assault Rifles", kind="active", number=5, level="T", upgrades=2),
    dict(id=3, name="Brawl", kind="passive", number=4, level="B", upgrades=0),
]


def test_choices_are_skills_then_base_skills_then_characteristics_s0_skills() -> None:
    c = character_of_row(ROW, SKILLS)
    assert [x.key for x in c.choices[:4]] == ["skill:1", "skill:2", "skill:3",
                                              "base:base_weapons"]
    assert len(c.choices) == 3 + 5 + 5 + 2  # + the Piloting and Gunnery checks
    assert [x.key for x in c.choices[-2:]] == ["check:piloting", "check:gunnery"]
    assert c.choice("skill:2") is not None and c.choice("nope") is None
    assert c.close_combat == 7 and c.agility == 4
    assert dict(c.bases)["Weapons"] == 6 and dict(c.bases)["Armour"] == 2


def test_stored_passive_level_is_ignored_s0_skills() -> None:
    """A Passive "adds its level" to a d12 roll: it has no pool level."""
    skill = skill_of_row("Brawl", "passive", 4, "B", 0)
    assert skill == Skill("Brawl", SkillKind.PASSIVE, 4)


@pytest.mark.parametrize(("skill", "label", "notation"), [
    (Skill("Close Combat", SkillKind.ACTIVE, 7, Level.LEGENDARY, 1),
     "Close Combat 7 [L1] 3d12+1d20", "3d12+1d20 @7"),
    (Skill("Leadership", SkillKind.LORE, 5, Level.EXPERT, 0),
     "Leadership 5 [E] 3d10", "3d10 @5"),
    (Skill("Weapons", SkillKind.BASE, 6), "Weapons 6 (base) d12", "1d12 @6"),
    (Skill("Brawl", SkillKind.PASSIVE, 4), "Brawl +4 (passive)", "1d12+4 @3"),
])
def test_labels_and_pool_text_s0_skills(skill: Skill, label: str, notation: str) -> None:
    choice = RollChoice("k", choice_label(skill), skill)
    assert choice.label == label
    assert notation_for(choice, base_number=3) == notation
    spec = parse_pool(notation)
    assert spec.number is not None


def test_passive_bonus_reads_back_as_a_bonus_s0_skills() -> None:
    choice = RollChoice("k", "", Skill("Brawl", SkillKind.PASSIVE, 4))
    spec = parse_pool(notation_for(choice, base_number=6))
    assert (spec.pool, spec.number, spec.bonus) == ((12,), 6, 4)


def test_tiebreaks_follow_the_house_rule_s0_close_combat_4() -> None:
    c = character_of_row(ROW, SKILLS)
    assert tiebreaks(OpposedTiebreak.SKILL_THEN_AGILITY, 5, c) == (("skill", 5), ("Agility", 4))
    assert tiebreaks(OpposedTiebreak.CLOSE_COMBAT_THEN_AGILITY, 5, c) == (
        ("Close Combat", 7), ("Agility", 4))
    assert tiebreaks(OpposedTiebreak.ROLLOFF, 5, c) == ()
    assert tiebreaks(OpposedTiebreak.SKILL_THEN_AGILITY, 5, None) == (("skill", 5),)
    assert HouseRules().roller.opposed_tiebreak is OpposedTiebreak.SKILL_THEN_AGILITY
    assert HouseRules.from_dict({"roller": {"opposed_tiebreak": "rolloff"}}
                                ).roller.opposed_tiebreak is OpposedTiebreak.ROLLOFF
    with pytest.raises(ValueError):
        HouseRules.from_dict({"roller": {"opposed_tiebreak": "coin"}})


def test_equal_successes_go_to_the_higher_skill_then_agility_s0_close_combat_4() -> None:
    """Default house rule: both pass with one success; 6 beats 5 without a roll-off."""
    a = Side("Kay", "Pistols", parse_pool("1d12 @6"),
             tiebreaks=tiebreaks(OpposedTiebreak.SKILL_THEN_AGILITY, 6, None))
    b = Side("Ivo", "Pistols", parse_pool("1d12 @5"),
             tiebreaks=tiebreaks(OpposedTiebreak.SKILL_THEN_AGILITY, 5, None))
    result = opposed_test(a.contestant(), b.contestant(), ScriptedDice.of([9, 9]),
                          SkillOptions())
    assert result.winner == 0 and result.rolloff == ()


def test_same_names_are_told_apart() -> None:
    spec = parse_pool("2d10 @5")
    a, b = distinct_names(Side("Kay", "x", spec), Side("Kay", "y", spec))
    assert (a.who, b.who) == ("Kay (A)", "Kay (B)")


# ------------------------------------------------------------- rendering


def die(sides: int, face: int, **kw: object) -> DieResult:
    values: dict[str, object] = dict(needed=6, success=False, crit_success=False,
                                     crit_fail=False)
    values.update(kw)
    return DieResult(sides, face, **values)  # type: ignore[arg-type]


def test_die_marks_read_without_colour_s0_skills() -> None:
    assert die_mark(die(10, 7, success=True))[0] == "+"
    assert die_mark(die(10, 3))[0] == "-"
    assert die_mark(die(10, 10, success=True, crit_success=True))[0] == "!"
    assert die_mark(die(8, 8, crit_success=True, cancelled_by=0))[0] == "~"
    assert die_mark(die(12, 12, success=True, crit_success=True, spent=True))[0] == "*"
    assert die_mark(die(12, 1, crit_fail=True))[0] == "X"
    assert die_mark(die(12, 1, crit_fail=True, negated_by=2))[0] == "x"


def test_need_text() -> None:
    assert need_text(8, (10, 10)) == "needs 8+"
    assert need_text(1, (10,)) == "needs 2+"
    assert need_text(12, (10, 12)) == "only criticals succeed"


def test_log_summary() -> None:
    r = TestResult((), 2, True, False, True, ())
    assert log_summary(r) == "PASS: 2 successes, crit"
    assert log_summary(TestResult((), 1, False, True, False, ())) == "CRIT FAIL: 1 success"
    assert log_summary(TestResult((), 0, False, False, False, ())) == "FAIL: 0 successes"


def test_opposed_odds_lines_fit_the_odds_column() -> None:
    from ka_tui.rules.core.skill_tests import Contestant
    from ka_tui.rules.core.odds import opposed_odds

    a = Contestant("Arthur Hale", (12, 12, 20, 20), 7, legendary=True)
    b = Contestant("Mike Dunn", (12, 12, 12, 20), 7, legendary=True)
    lines = opposed_lines(("Arthur Hale", "Mike Dunn"), (9, 9), (a.pool, b.pool),
                          opposed_odds(a, b, SkillOptions()))
    assert lines[0] == "Arthur needs 9+ · Mike needs 9+"
    assert len(lines) == 3 + 1 + 5
    assert max(len(line) for line in lines) <= 34


def test_log_times_show_the_date_only_across_days() -> None:
    def roll(stamp: str) -> LoggedRoll:
        return LoggedRoll(1, "", "", "", (), "", (), stamp)

    same = [roll("2026-03-01T20:15:00Z"), roll("2026-03-01T09:05:00Z")]
    assert all(len(cell) == 5 for cell in time_cells(same))
    days = [roll("2026-03-01T12:00:00Z"), roll("2026-02-20T12:00:00Z")]
    assert all(len(cell) == 11 for cell in time_cells(days))


# ------------------------------------------------------------ typed faces


def setup(a: str, b: str | None = None) -> Setup:
    side_b = Side("Ivo", "Brawl", parse_pool(b)) if b else None
    return Setup(Side("Kay", "Pistols", parse_pool(a)), side_b)


def test_faces_are_checked_against_both_pools_in_order_s0_close_combat_4() -> None:
    s = setup("2d10 @5", "1d12 @5")
    assert faces_hint(s) == "2d10 ; 1d12, or r"
    assert faces_problem(s, "3 9 ; 4", SkillOptions()) == ((3, 9, 4), "")
    assert faces_problem(s, "3 9", SkillOptions())[1] == (
        "3 faces expected: Kay's 2d10 then Ivo's 1d12, got 2")
    assert faces_problem(s, "3 11 4", SkillOptions())[1] == "11 is not a face of a d10 (die 2)"
    assert faces_problem(None, "3", SkillOptions())[1] == "fix the pool first"


def test_a_tie_needs_the_roll_off_faces_and_no_more_s0_close_combat_4() -> None:
    """Both pass with one success, equal skill numbers (5 vs 5) and no Agility
    to compare: "roll off d12. Highest result wins" (ties re-rolled)."""
    s = setup("1d12 @5", "1d12 @5")
    assert faces_problem(s, "8 8", SkillOptions())[1] == (
        "a tie: add the d12 roll-off (A's then B's)")
    assert faces_problem(s, "8 8 4 4", SkillOptions())[1].startswith("a tie")
    assert faces_problem(s, "8 8 4 4 3 9", SkillOptions()) == ((8, 8, 4, 4, 3, 9), "")
    assert faces_problem(s, "8 8 3 9 5 5", SkillOptions())[1] == "2 faces too many"
    assert faces_problem(s, "8 8 13 1", SkillOptions())[1] == (
        "13 is not a face of a d12 (roll-off die 1)")
    assert faces_problem(s, "9 1 5", SkillOptions())[1] == "1 face too many"  # B's 1 lost it


def test_unopposed_faces_s0_skills() -> None:
    s = setup("3d10+1d12 @7")
    assert faces_hint(s) == "faces of 3d10+1d12, or r"
    assert faces_problem(s, "1, 7, 10, 12", SkillOptions()) == ((1, 7, 10, 12), "")
    assert faces_problem(s, "1 7 10 12 3", SkillOptions())[1] == (
        "4 faces expected for 3d10+1d12, got 5")
