"""Skills, their levels and the dice pools they roll (S0 §Skills).

A pool is a tuple of die sizes, e.g. ``(10, 10, 10, 12)`` for Expert with its
upgrade. Level tables and the upgrade bounds are RULES-NOTES A.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

Pool = tuple[int, ...]

# The dice a skill pool can hold (S0 §Skills level table).
SKILL_DICE: tuple[int, ...] = (8, 10, 12, 20)

# S0 §Skills: "As a rule test using Base skill are rolled using one d12."
BASE_DIE = 12

# S0 §Skills: tests are made "against magic 13".
MAGIC_13 = 13

# The five Base skills named in S0 §Skills.
BASE_SKILLS: tuple[str, ...] = ("Weapons", "Tech", "Survival", "Communication", "Psy")


class Level(str, Enum):
    """S0 §Skills "Skill levels"."""

    BASIC = "B"
    TRAINED = "T"
    EXPERT = "E"
    MASTER = "M"
    LEGENDARY = "L"

    @property
    def label(self) -> str:
        return self.name.capitalize()


class SkillKind(str, Enum):
    """S0 §Skills "Skill types"."""

    BASE = "base"
    ACTIVE = "active"
    PASSIVE = "passive"
    LORE = "lore"


@dataclass(frozen=True)
class LevelPool:
    """A level's dice (S0 §Skills table) and how upgrades change them.

    ``replaces`` is set for Legendary, whose upgrade turns a d12 into a d20
    ("Any dice can be upgraded to d20") instead of adding a die.
    """

    base: Pool
    upgrade_die: int
    max_upgrades: int
    replaces: int | None = None


# S0 §Skills level table; upgrade bounds RULES-NOTES A (B ≤1, T ≤2, E ≤1, M ≤1, L ≤4).
LEVEL_POOLS: dict[Level, LevelPool] = {
    Level.BASIC: LevelPool((8, 8), 8, 1),
    Level.TRAINED: LevelPool((10, 10), 10, 2),
    Level.EXPERT: LevelPool((10, 10, 10), 12, 1),
    Level.MASTER: LevelPool((12, 12, 12, 12), 20, 1),
    Level.LEGENDARY: LevelPool((12, 12, 12, 12), 20, 4, replaces=12),
}


class SkillError(ValueError):
    """A skill whose level and upgrades do not fit S0 §Skills."""


def level_pool(level: Level, upgrades: int = 0) -> Pool:
    """The dice rolled for ``level`` with ``upgrades`` (S0 §Skills, RULES-NOTES A).

    Base dice come first, upgrade dice after: ``level_pool(EXPERT, 1)`` is
    ``(10, 10, 10, 12)``; Legendary's upgraded dice are the last ones.
    """
    spec = LEVEL_POOLS[level]
    if not 0 <= upgrades <= spec.max_upgrades:
        raise SkillError(
            f"{level.label} allows 0–{spec.max_upgrades} upgrades, not {upgrades} (S0 §Skills)")
    if spec.replaces is not None:
        kept = len(spec.base) - upgrades
        return (spec.replaces,) * kept + (spec.upgrade_die,) * upgrades
    return spec.base + (spec.upgrade_die,) * upgrades


@dataclass(frozen=True)
class Skill:
    """A character's skill (S0 §Skills).

    ``number`` is the skill's number (Active/Lore/Base), or for a Passive
    skill the bonus it adds ("Brawl: 4"). ``level`` and ``upgrades`` apply to
    Active and Lore skills only.
    """

    name: str
    kind: SkillKind
    number: int
    level: Level | None = None
    upgrades: int = 0

    @property
    def legendary(self) -> bool:
        return self.level is Level.LEGENDARY


def skill_errors(skill: Skill) -> list[tuple[str, str]]:
    """(field, message) pairs for everything wrong with ``skill``; empty if fine
    (S0 §Skills kinds and levels, RULES-NOTES A upgrade bounds)."""
    errors: list[tuple[str, str]] = []
    if not skill.name.strip():
        errors.append(("name", "a skill needs a name"))
    rolls_pool = skill.kind in (SkillKind.ACTIVE, SkillKind.LORE)
    if rolls_pool and skill.level is None:
        errors.append(("level", f"an {skill.kind.value} skill needs a level (B, T, E, M, L)"))
    if not rolls_pool and skill.level is not None:
        errors.append(("level", f"a {skill.kind.value} skill rolls one d12 and has no level"))
    if skill.level is not None:
        top = LEVEL_POOLS[skill.level].max_upgrades
        if not 0 <= skill.upgrades <= top:
            errors.append(("upgrades",
                           f"{skill.level.label} allows 0–{top} upgrades (S0 §Skills)"))
    elif skill.upgrades:
        errors.append(("upgrades", "only Active and Lore skills take upgrades"))
    return errors


def pool_of(skill: Skill) -> Pool:
    """The dice ``skill`` rolls: its level pool, or one d12 for Base and
    Passive skills (S0 §Skills "Skill types")."""
    if skill.kind in (SkillKind.BASE, SkillKind.PASSIVE):
        return (BASE_DIE,)
    if skill.level is None:
        raise SkillError(f"{skill.name}: an {skill.kind.value} skill needs a level")
    return level_pool(skill.level, skill.upgrades)


@dataclass(frozen=True)
class RollSetup:
    """What a test with a skill rolls: pool, the number added, a bonus."""

    pool: Pool
    number: int
    bonus: int = 0


def roll_setup(skill: Skill, *, base_number: int | None = None) -> RollSetup:
    """The pool, number and bonus for a test with ``skill``.

    S0 §Skills: a Passive skill "adds its level to roll on Base skill or
    Characteristics test", so it needs ``base_number`` (the Base skill or the
    characteristic) and becomes the bonus. Everything else tests its own
    number with its own pool.
    """
    if skill.kind is SkillKind.PASSIVE:
        if base_number is None:
            raise SkillError(
                f"{skill.name} is Passive: give the Base skill or characteristic number")
        return RollSetup((BASE_DIE,), base_number, skill.number)
    return RollSetup(pool_of(skill), skill.number)


def pool_text(pool: Pool) -> str:
    """``(10, 10, 10, 12)`` → ``3d10+1d12`` (sizes grouped in first-seen order)."""
    if not pool:
        return "no dice"
    counts: dict[int, int] = {}
    for sides in pool:
        counts[sides] = counts.get(sides, 0) + 1
    return "+".join(f"{n}d{sides}" for sides, n in counts.items())
