"""Passive skills in a close-combat round (S0 §Skills, Passive).

The seed: "Passive Skill adds its level to roll on Base skill or
Characteristics test. Brawl: 4 - when character is involved in fistfight he
would roll d12, then add +4 to his result and consult table to see result.
Note that Critical Fail is not improved by passive skill."

Here, for one fighter in one pairing's round (S0 §Close combat 4):

- Which Passive skills help in which kind of round is data, the house rule
  ``cqc.passive_fight_skills`` (default: Brawl in a fistfight). The kinds are
  ``options.FIGHT_KINDS``: *fistfight* (no weapon in the Attacks; with
  ``fistfight_both_unarmed`` off, none in his own), *melee* (his Attack uses
  a weapon that is not a firearm), *firearm*, *any*. The cards say which
  weapon an Attack uses (``CqcCard.weapon``; None is bare hands).
- A Passive adds to a Base skill or characteristic test: the d12 a fighter
  without Close Combat rolls (``Fighter.cc_untrained``). House rule
  ``passive_with_close_combat`` lets it add to a Close Combat pool too.
- When several apply, the highest counts (the seed adds "its level", one
  skill, to a test); equal numbers: the first by name.
- The bonus is the rules core's ``Contestant.bonus``: it lowers the face each
  die needs, so a 1 stays a critical fail and only the die's top face is a
  critical success (``checks.py`` step 1).
- A Passive of the table that does not count this round is said too, with
  the house rule that leaves it out (``passive_left_out``): Brawl for a
  fighter whose test is on Close Combat dice (``passive_with_close_combat``
  off), or in a round that is not the kind it helps in
  (``passive_fight_skills``, ``fistfight_both_unarmed``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ka_tui.rules.cqc.card import CqcCard
from ka_tui.rules.cqc.fight_state import Fighter
from ka_tui.rules.core.options import FIGHT_KINDS, CqcOptions

R_PASSIVE = "S0 §Skills, Passive"


@dataclass(frozen=True)
class PassiveBonus:
    """A Passive skill adding its number to each die of a fighter's round test."""

    fighter: str  # fighter id
    skill: str    # as the character has it, e.g. "Brawl"
    number: int
    kind: str     # the kind of round it helps in (``FIGHT_KINDS``)
    on_close_combat: bool = False  # added to a Close Combat pool (house rule)

    def line(self, name: str) -> str:
        """The report's sentence, citing the seed and the house rules."""
        test = ("his Close Combat dice (house rule cqc.passive_with_close_combat)"
                if self.on_close_combat else "his d12")
        return (f"{name}: {self.skill} {self.number} adds +{self.number} to {test} -- "
                f"a {self.kind} ({FIGHT_KINDS[self.kind]}; house rule "
                f"cqc.passive_fight_skills); a 1 stays a critical fail "
                f"({R_PASSIVE}: \"Critical Fail is not improved by passive skill\")")

    def short(self, name: str) -> str:
        """One screen line: ``Arthur: Brawl +2, a fistfight (S0 §Skills, ...)``."""
        on = ", on Close Combat" if self.on_close_combat else ""
        return (f"{name}: {self.skill} +{self.number}, a {self.kind}{on} "
                f"({R_PASSIVE}; a 1 stays a critical fail)")

    def to_dict(self) -> dict[str, object]:
        return {"fighter": self.fighter, "skill": self.skill, "number": self.number,
                "kind": self.kind, "on_close_combat": self.on_close_combat}


@dataclass(frozen=True)
class PassiveLeftOut:
    """A Passive skill of ``cqc.passive_fight_skills`` that adds nothing to a
    fighter's round test, and why: the house rule that leaves it out."""

    fighter: str  # fighter id
    skill: str
    number: int
    why: str      # "the test is on Close Combat dice", "the Attack uses knife"
    option: str   # the house rule, e.g. "cqc.passive_with_close_combat (off)"

    def line(self, name: str) -> str:
        """The report's sentence, citing the seed and the house rule."""
        return (f"{name}: {self.skill} {self.number} was considered and adds nothing: "
                f"{self.why} (house rule {self.option}; {R_PASSIVE}: a Passive \"adds "
                f"its level to roll on Base skill or Characteristics test\")")

    def short(self, name: str) -> str:
        """One screen line: ``Kasia: Brawl +2 not counted: the test is on ... (house rule ...)``."""
        return f"{name}: {self.skill} +{self.number} not counted: {self.why} ({self.option})"

    def to_dict(self) -> dict[str, object]:
        return {"fighter": self.fighter, "skill": self.skill, "number": self.number,
                "why": self.why, "option": self.option}


def round_kinds(me: Fighter, mine: CqcCard | None, theirs: CqcCard | None,
                options: CqcOptions) -> frozenset[str]:
    """The kinds of round ``me`` is in against the card ``theirs``
    (S0 §Skills "involved in fistfight"; S0 §2.2 Attack "with fist, legs or
    knife ... including use of firearms")."""
    kinds = {"any"}
    my_weapon = mine.weapon if mine is not None else None
    their_weapon = theirs.weapon if theirs is not None else None
    if my_weapon is not None:
        weapon = me.weapon(my_weapon)
        kinds.add("firearm" if weapon is not None and weapon.is_firearm else "melee")
    elif their_weapon is None or not options.fistfight_both_unarmed:
        kinds.add("fistfight")
    return frozenset(kinds)


def passive_bonus(me: Fighter, mine: CqcCard | None, theirs: CqcCard | None,
                  options: CqcOptions) -> PassiveBonus | None:
    """The Passive skill that adds to ``me``'s test this round, if any
    (S0 §Skills, Passive; see the module docstring)."""
    if not me.passives or not (me.cc_untrained or options.passive_with_close_combat):
        return None
    kinds = round_kinds(me, mine, theirs, options)
    table = options.passive_fight_skills
    fits = [(number, name) for name, number in me.passives
            if number > 0 and table.get(name.strip().casefold()) in kinds]
    if not fits:
        return None
    number, name = sorted(fits, key=lambda f: (-f[0], f[1].casefold()))[0]
    return PassiveBonus(me.id, name, number, table[name.strip().casefold()],
                        on_close_combat=not me.cc_untrained)


def passive_left_out(me: Fighter, mine: CqcCard | None, theirs: CqcCard | None,
                     options: CqcOptions) -> PassiveLeftOut | None:
    """The Passive skill of the table ``me`` has that counts for nothing this
    round, and the house rule that leaves it out (None: one counts, or he
    has none the table names). The highest is the one said, as it would be
    the one to count."""
    table = options.passive_fight_skills
    known = [(number, name) for name, number in me.passives
             if number > 0 and name.strip().casefold() in table]
    if not known or passive_bonus(me, mine, theirs, options) is not None:
        return None
    kinds = round_kinds(me, mine, theirs, options)
    fitting = [(n, name) for n, name in known if table[name.strip().casefold()] in kinds]
    if fitting and not me.cc_untrained:  # off, or it would count
        number, name = sorted(fitting, key=lambda f: (-f[0], f[1].casefold()))[0]
        return PassiveLeftOut(me.id, name, number,
                              "the test is on Close Combat dice, not a Base skill or a "
                              "characteristic", "cqc.passive_with_close_combat is off")
    number, name = sorted(known, key=lambda f: (-f[0], f[1].casefold()))[0]
    kind = table[name.strip().casefold()]
    why, option = _not_that_kind(me, kind, mine, theirs, options)
    return PassiveLeftOut(me.id, name, number, why, option)


def _not_that_kind(me: Fighter, kind: str, mine: CqcCard | None, theirs: CqcCard | None,
                   options: CqcOptions) -> tuple[str, str]:
    """Why this round is not a ``kind`` round for ``me``, and the house rule."""
    helps = f"it helps in a {kind}"
    rule = "cqc.passive_fight_skills"
    my_weapon = mine.weapon if mine is not None else None
    if my_weapon is not None:
        weapon = me.weapon(my_weapon)
        what = "firearm" if weapon is not None and weapon.is_firearm else "melee"
        return f"the Attack uses {my_weapon} (a {what} round); {helps}", rule
    if theirs is not None and theirs.weapon is not None and options.fistfight_both_unarmed:
        return (f"the other's Attack uses {theirs.weapon}, so it is no fistfight; {helps}",
                f"{rule}, cqc.fistfight_both_unarmed")
    return f"{helps}, and this round is not one", rule
