"""Skills, levels and pools (S0 §Skills; upgrade bounds RULES-NOTES A)."""

from __future__ import annotations

import pytest

from ka_tui.rules.core.skills import (
    BASE_SKILLS, Level, Skill, SkillError, SkillKind, level_pool, pool_of, pool_text,
    roll_setup, skill_errors,
)


@pytest.mark.parametrize(("level", "upgrades", "pool"), [
    (Level.BASIC, 0, (8, 8)),                     # "2 d8"
    (Level.BASIC, 1, (8, 8, 8)),                  # "Can be upgraded with +1 d8"
    (Level.TRAINED, 0, (10, 10)),                 # "2 d10"
    (Level.TRAINED, 2, (10, 10, 10, 10)),         # "Can be upgraded with +2 d10"
    (Level.EXPERT, 0, (10, 10, 10)),              # "3 d10"
    (Level.EXPERT, 1, (10, 10, 10, 12)),          # "Can be upgraded with +1 d12"
    (Level.MASTER, 0, (12, 12, 12, 12)),          # "4 d12"
    (Level.MASTER, 1, (12, 12, 12, 12, 20)),      # "Can be upgraded with +1 d20"
    (Level.LEGENDARY, 0, (12, 12, 12, 12)),       # "4 d12"
    (Level.LEGENDARY, 1, (12, 12, 12, 20)),       # "Any dice can be upgraded to d20"
    (Level.LEGENDARY, 4, (20, 20, 20, 20)),
])
def test_s0_skills_level_table_pools(level: Level, upgrades: int, pool: tuple[int, ...]) -> None:
    assert level_pool(level, upgrades) == pool


@pytest.mark.parametrize(("level", "too_many"), [
    (Level.BASIC, 2), (Level.TRAINED, 3), (Level.EXPERT, 2), (Level.MASTER, 2),
    (Level.LEGENDARY, 5),
])
def test_rules_notes_a_upgrades_bounded_per_level(level: Level, too_many: int) -> None:
    with pytest.raises(SkillError, match="upgrades"):
        level_pool(level, too_many)
    with pytest.raises(SkillError):
        level_pool(level, -1)


def test_s0_skills_active_skill_rolls_its_level_pool() -> None:
    """S0 §Skills example: "Assault Rifles: 5, level [T] … rolling 2 d10"."""
    rifles = Skill("Assault Rifles", SkillKind.ACTIVE, 5, Level.TRAINED)
    assert pool_of(rifles) == (10, 10)
    setup = roll_setup(rifles)
    assert (setup.pool, setup.number, setup.bonus) == ((10, 10), 5, 0)


def test_s0_skills_lore_works_like_active() -> None:
    """S0 §Skills: "Lore: Medieval Siege [E] … 3 d10 rolled"."""
    siege = Skill("Lore: Medieval Siege", SkillKind.LORE, 6, Level.EXPERT)
    assert pool_of(siege) == (10, 10, 10)


def test_s0_skills_base_skill_rolls_one_d12() -> None:
    assert len(BASE_SKILLS) == 5
    comms = Skill("Communication", SkillKind.BASE, 4)
    assert pool_of(comms) == (12,)


def test_s0_skills_passive_adds_its_level_to_base_roll() -> None:
    """S0 §Skills: "Brawl: 4 … roll d12, then add +4 to his result"."""
    brawl = Skill("Brawl", SkillKind.PASSIVE, 4)
    setup = roll_setup(brawl, base_number=6)
    assert (setup.pool, setup.number, setup.bonus) == ((12,), 6, 4)
    with pytest.raises(SkillError, match="Passive"):
        roll_setup(brawl)


def test_skill_errors_name_the_field() -> None:
    assert skill_errors(Skill("Rifles", SkillKind.ACTIVE, 5, Level.TRAINED, 2)) == []
    fields = [f for f, _ in skill_errors(Skill("Rifles", SkillKind.ACTIVE, 5))]
    assert fields == ["level"]
    fields = [f for f, _ in skill_errors(Skill("Rifles", SkillKind.ACTIVE, 5, Level.BASIC, 2))]
    assert fields == ["upgrades"]
    fields = [f for f, _ in skill_errors(Skill(" ", SkillKind.PASSIVE, 4, Level.EXPERT))]
    assert fields == ["name", "level"]
    fields = [f for f, _ in skill_errors(Skill("Psy", SkillKind.BASE, 3, upgrades=1))]
    assert fields == ["upgrades"]


def test_pool_text_groups_sizes() -> None:
    assert pool_text((10, 10, 10, 12)) == "3d10+1d12"
    assert pool_text((12, 12, 20, 20)) == "2d12+2d20"
    assert pool_text((12,)) == "1d12"


def test_s0_skills_legendary_flag() -> None:
    assert Skill("Bike handling", SkillKind.ACTIVE, 9, Level.LEGENDARY).legendary
    assert not Skill("Bike handling", SkillKind.ACTIVE, 9, Level.MASTER).legendary
