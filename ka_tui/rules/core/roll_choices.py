"""What the roller offers and rolls, as plain values (no Textual, no SQLModel).

A character's roll choices are its five Base skills (S0 §Skills: one d12),
its characteristics (a d12 "Characteristics test", S0 §Skills Passive) and
its skills; a Passive skill needs the Base skill or characteristic it adds
to. Each choice turns into pool notation (``pool_notation``) that fills the
screen's pool field, so what is rolled is always what the GM sees and may edit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import re

from ka_tui.rules.core.any_dice import DiceExpr
from ka_tui.rules.core.skill_tests import Contestant, opposed_test
from ka_tui.rules.core.target import TargetNumber
from ka_tui.rules.core.dice import DiceError, ScriptedDice
from ka_tui.rules.core.options import OpposedTiebreak, RollerOptions, SkillOptions
from ka_tui.rules.core.dice_notation import PoolSpec, check_faces
from ka_tui.rules.core.skills import BASE_SKILLS, Level, Skill, SkillKind, pool_text, roll_setup

# S0 §Skills: the five Base skills, stored as character columns.
BASE_COLUMNS: tuple[tuple[str, str], ...] = tuple(
    (name, f"base_{name.lower()}") for name in BASE_SKILLS)
# The characteristics a Passive skill may add to (S0 §Skills "Characteristics test").
CHARACTERISTICS: tuple[tuple[str, str], ...] = (
    ("Strength", "strength"), ("Agility", "agility"), ("Endurance", "endurance"),
    ("Resistance", "resistance"), ("Armour", "armour"))
# S0 §Close combat 4: equal successes → higher Close Combat skill, then Agility.
TIEBREAK_SKILL = "Close Combat"
TIEBREAK_CHARACTERISTIC = "Agility"
# the 2d6 ratings a character rolls checks on (the air engine's target base).
RATING_CHECKS: tuple[str, ...] = ("piloting", "gunnery")
# Typed faces may mark where side A ends: "9 2 2 16 ; 12 5 12 1".
SEPARATORS = re.compile(r"[|;,]")


@dataclass(frozen=True)
class RollChoice:
    """One thing a character can roll. ``key`` is stable across reloads."""

    key: str
    label: str
    skill: Skill
    # "piloting" / "gunnery": a 2d6 check on the airman's rating, not a pool
    check: str = ""

    @property
    def passive(self) -> bool:
        return self.skill.kind is SkillKind.PASSIVE


@dataclass(frozen=True)
class RollerCharacter:
    id: int
    name: str
    choices: tuple[RollChoice, ...]
    # What a Passive skill can add to: Base skills then characteristics (name, number).
    bases: tuple[tuple[str, int], ...]
    agility: int = 0
    close_combat: int | None = None  # his Close Combat skill's number, if he has one

    def choice(self, key: str) -> RollChoice | None:
        return next((c for c in self.choices if c.key == key), None)


@dataclass(frozen=True)
class RollerData:
    campaign: str = ""
    characters: tuple[RollerCharacter, ...] = ()
    options: SkillOptions = field(default_factory=SkillOptions)
    roller: RollerOptions = field(default_factory=RollerOptions)

    def character(self, character_id: int | None) -> RollerCharacter | None:
        return next((c for c in self.characters if c.id == character_id), None)


def skill_of_row(name: str, kind: str, number: int, level: str | None, upgrades: int) -> Skill:
    """A stored skill row as a rules ``Skill`` (a Passive has no level, S0 §Skills)."""
    skill_kind = SkillKind(kind)
    if skill_kind in (SkillKind.PASSIVE, SkillKind.BASE):
        return Skill(name, skill_kind, number)
    return Skill(name, skill_kind, number, Level(level or "B"), upgrades)


def choice_label(skill: Skill) -> str:
    """``Assault Rifles 5 [T2] 4d10``, ``Brawl +4 (passive)``, ``Weapons 5 (base) d12``."""
    if skill.kind is SkillKind.PASSIVE:
        return f"{skill.name} +{skill.number} (passive)"
    if skill.kind is SkillKind.BASE or skill.level is None:
        return f"{skill.name} {skill.number} (base) d12"
    upgrades = str(skill.upgrades) if skill.upgrades else ""
    pool = roll_setup(skill).pool
    return f"{skill.name} {skill.number} [{skill.level.value}{upgrades}] {pool_text(pool)}"


def character_of_row(row: dict[str, object], skills: list[dict[str, object]]
                     ) -> RollerCharacter:
    """A character row and its skill rows (dicts of column values) as roll choices."""
    def number(column: str) -> int:
        value = row.get(column, 0)
        return value if isinstance(value, int) else 0

    choices: list[RollChoice] = []
    for s in skills:
        skill = skill_of_row(str(s["name"]), str(s["kind"]), int(str(s["number"])),
                             str(s.get("level") or "B"), int(str(s.get("upgrades") or 0)))
        choices.append(RollChoice(f"skill:{s['id']}", choice_label(skill), skill))
    bases = [(name, number(column)) for name, column in BASE_COLUMNS]
    bases += [(name, number(column)) for name, column in CHARACTERISTICS]
    for name, column in BASE_COLUMNS:
        skill = Skill(name, SkillKind.BASE, number(column))
        choices.append(RollChoice(f"base:{column}", choice_label(skill), skill))
    for name, column in CHARACTERISTICS:
        skill = Skill(name, SkillKind.BASE, number(column))
        choices.append(RollChoice(f"char:{column}", f"{name} {number(column)} (characteristic) d12",
                                  skill))
    close_combat = next((c.skill.number for c in choices
                         if c.skill.name.casefold() == TIEBREAK_SKILL.casefold()), None)
    for check in RATING_CHECKS:  # 2d6 against the rating (lower is better)
        rating = number(check)
        skill = Skill(check.capitalize(), SkillKind.BASE, rating)
        choices.append(RollChoice(f"check:{check}",
                                  f"{check.capitalize()} check 2d6 (rating {rating})",
                                  skill, check))
    return RollerCharacter(int(str(row["id"])), str(row["name"]), tuple(choices),
                           tuple(bases), number("agility"), close_combat)


def tiebreaks(rule: OpposedTiebreak, number: int, character: RollerCharacter | None
              ) -> tuple[tuple[str, int], ...]:
    """What an opposed test compares, in order, when both sides pass with equal
    successes (S0 §Close combat 4; house rule ``roller.opposed_tiebreak``).
    The rules compare only the names both sides have; then a d12 roll-off."""
    if rule is OpposedTiebreak.ROLLOFF:
        return ()
    first: list[tuple[str, int]] = []
    if rule is OpposedTiebreak.SKILL_THEN_AGILITY:
        first.append(("skill", number))
    elif character is not None and character.close_combat is not None:
        first.append((TIEBREAK_SKILL, character.close_combat))
    if character is not None:
        first.append((TIEBREAK_CHARACTERISTIC, character.agility))
    return tuple(first)


def notation_for(choice: RollChoice, base_number: int | None = None) -> str:
    """The pool text for ``choice`` (``roll_setup``, S0 §Skills), e.g. ``3d10+1d12 @7``;
    a Passive adds its number as a bonus on ``base_number``; a rating check is
    ``2d6 @rating`` (R-2)."""
    if choice.check:
        return f"2d6 @{choice.skill.number}"
    setup = roll_setup(choice.skill, base_number=base_number if choice.passive else None)
    return PoolSpec(setup.pool, setup.number, setup.bonus).render()


@dataclass(frozen=True)
class Side:
    """One side of a roll as the screen has it: who, what and the parsed pool."""

    who: str
    what: str
    spec: PoolSpec
    legendary: bool = False
    tiebreaks: tuple[tuple[str, int], ...] = ()

    @property
    def number(self) -> int:
        return self.spec.number if self.spec.number is not None else 0

    @property
    def label(self) -> str:
        return f"{self.who} ({self.what})" if self.what else self.who

    def contestant(self) -> Contestant:
        """The side for ``opposed_test`` (S0 §Skills, §Close combat 4)."""
        return Contestant(self.who, self.spec.pool, self.number,
                          legendary=self.legendary or self.spec.legendary,
                          bonus=self.spec.bonus, tiebreaks=self.tiebreaks)


def distinct_names(a: Side, b: Side) -> tuple[Side, Side]:
    """Two sides with different names (the result lines are told apart by name)."""
    if a.who != b.who:
        return a, b
    from dataclasses import replace

    return replace(a, who=f"{a.who} (A)"), replace(b, who=f"{b.who} (B)")


@dataclass(frozen=True)
class Setup:
    """What the next roll is: side A, and side B for an opposed test."""

    a: Side
    b: Side | None

    @property
    def pools(self) -> tuple[int, ...]:
        return self.a.spec.pool + (self.b.spec.pool if self.b else ())

    def pool_label(self) -> str:
        text = self.a.spec.render()
        return f"{text} vs {self.b.spec.render()}" if self.b else text


def faces_problem(setup: Setup | None, text: str, options: SkillOptions
                  ) -> tuple[tuple[int, ...] | None, str]:
    """The faces typed in ``text`` for ``setup``, or the message refusing them.

    A–side faces, then B's; an opposed tie that needs the d12 roll-off
    (S0 §Close combat 4) asks for its faces after those.
    """
    if setup is None:
        return None, "fix the pool first"
    words = SEPARATORS.sub(" ", text).split()
    pools = setup.pools
    if len(words) < len(pools) or (setup.b is None and len(words) > len(pools)):
        return None, count_message(setup, len(words))
    check = check_faces(pools, " ".join(words[:len(pools)]))
    if not check.ok:
        return None, check.message
    extra = check_faces((12,) * (len(words) - len(pools)), " ".join(words[len(pools):]))
    if not extra.ok:
        return None, extra.message.replace("die ", "roll-off die ")
    faces = (check.faces or ()) + (extra.faces or ())
    if setup.b is None:
        return faces, ""
    dice = ScriptedDice.of(faces)
    try:
        opposed_test(setup.a.contestant(), setup.b.contestant(), dice, options)
    except DiceError:
        return None, "a tie: add the d12 roll-off (A's then B's)"
    if not dice.exhausted:
        n = len(dice.faces)
        return None, f"{n} face{'s' if n != 1 else ''} too many"
    return faces, ""


def faces_hint(setup: Setup) -> str:
    """The faces field's placeholder: which dice to type, in order."""
    if setup.b is None:
        return f"faces of {pool_text(setup.a.spec.pool)}, or r"
    return f"{pool_text(setup.a.spec.pool)} ; {pool_text(setup.b.spec.pool)}, or r"


def count_message(setup: Setup, got: int) -> str:
    a, b = setup.a, setup.b
    if b is None:
        n = len(a.spec.pool)
        return f"{n} face{'s' if n != 1 else ''} expected for {pool_text(a.spec.pool)}, got {got}"
    return (f"{len(setup.pools)} faces expected: {a.who}'s {pool_text(a.spec.pool)} then "
            f"{b.who}'s {pool_text(b.spec.pool)}, got {got}")


def same_skill_key(character: RollerCharacter, choice: RollChoice | None) -> str | None:
    """The choice of ``character`` matching ``choice`` by name (an opposed test
    is usually the same skill on both sides, S0 §Close combat 4: Close Combat
    against Close Combat), or None when he has no such skill."""
    if choice is None:
        return None
    name = choice.skill.name.casefold()
    found = next((c for c in character.choices
                  if c.skill.name.casefold() == name and c.check == choice.check), None)
    return found.key if found is not None else None


def opponents(characters: tuple[RollerCharacter, ...], who: int | None
              ) -> tuple[RollerCharacter, ...]:
    """Who may oppose ``who``: everyone but himself."""
    return tuple(c for c in characters if c.id != who)


@dataclass(frozen=True)
class AnySetup:
    """A roll of any dice: who, what, the expression, and
    for a rating check the engine's ``TargetNumber`` (R-2)."""

    who: str
    what: str
    expr: DiceExpr
    target: TargetNumber | None = None


def any_faces_problem(expr: DiceExpr, text: str) -> tuple[tuple[int, ...] | None, str]:
    """The faces typed for ``expr`` (in its dice order), or the message refusing them."""
    words = SEPARATORS.sub(" ", text).split()
    check = check_faces(expr.dice, " ".join(words))
    if not check.ok:
        return None, check.message
    return check.faces, ""
