"""The roller's pools as typed, read through the rules core (no Textual): the
setup to roll and its exact odds, or why there is none and at which field.

A skill pool (``3d10+1d12 @7``, pool notation, S0 §Skills) rolls alone
against 13 or against another side (S0 §Close combat 4); any other dice
(``2d6+1 @8``, ``4d6 >=4``) roll alone, a rating check with its named
modifiers (R-2).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ka_tui.rules.core.any_dice import (
    DiceNotationError, dice_odds, parse_dice, parse_modifiers, rating_check,
)
from ka_tui.rules.core.dice_notation import NotationError, PoolSpec, parse_pool
from ka_tui.rules.core.odds import opposed_odds, unopposed_odds
from ka_tui.rules.core.roll_choices import (
    AnySetup, RollChoice, RollerCharacter, RollerData, Setup, Side, distinct_names,
    faces_hint, notation_for, tiebreaks,
)
from ka_tui.rules.core.skill_tests import opposed_need, unopposed_needed
from ka_tui.widgets.dice_text import (
    AnyOdds, ContestOdds, OddsNote, OddsProblem, OddsShown, SkillOdds,
)

NOTHING_TYPED = "Nothing to roll yet: type dice in Pool."


@dataclass(frozen=True)
class SideTyped:
    """One side as the GM set it: the pool text, who (``None``: a typed pool),
    the roll choice filled in, and the Base picked for a Passive skill."""

    text: str
    character: RollerCharacter | None = None
    choice: RollChoice | None = None
    base: object = None


@dataclass(frozen=True)
class PoolsRead:
    """What the pools come to: the odds to show, the fields' errors this
    reading decides (``pool_a``, ``pool_b``, ``mods``), the setup to roll (or
    ``problem``: why nothing rolls) and the faces field's hint."""

    odds: OddsShown
    errors: dict[str, str] = field(default_factory=dict)
    setup: Setup | None = None
    any_setup: AnySetup | None = None
    problem: str = ""
    placeholder: str | None = None


def read_pools(a: SideTyped, b: SideTyped | None, mods: str | None,
               data: RollerData) -> PoolsRead:
    """Side ``a`` against ``b`` (``None``: against 13); ``mods``: the named
    modifiers typed for a rating check (``None``: no such field shown)."""
    empty = [name for name, side in (("pool_a", a), ("pool_b", b))
             if side is not None and not side.text.strip()]
    if empty:
        return PoolsRead(OddsNote((NOTHING_TYPED,
                                   "a skill pool: 3d10+1d12 @7, d12+4 @6, [L2] @7",
                                   "any dice: 2d6+1 @8 (total), 4d6 >=4 (count)")),
                         {name: "" for name in empty}, problem=NOTHING_TYPED)
    errors: dict[str, str] = {}
    problem = ""
    try:
        side_a = _side(a, "GM", data)
    except NotationError as error:
        any_dice = _any_dice(a, b is not None, mods, error)
        if isinstance(any_dice, PoolsRead):
            return any_dice
        errors["pool_a"] = any_dice.removeprefix("Pool: ") or error.message
        problem = any_dice or f"Pool: {error}"
    else:
        errors["pool_a"] = ""
    side_b: Side | None = None
    if b is not None:
        try:
            side_b = _side(b, "Opponent", data)
        except NotationError as error:
            errors["pool_b"] = error.message
            problem = problem or f"Versus pool: {error}"
        else:
            errors["pool_b"] = ""
    if problem:
        return PoolsRead(OddsProblem(problem), errors, problem=problem)
    options = data.options
    odds: OddsShown
    if side_b is None:
        odds = SkillOdds(unopposed_needed(side_a.number, side_a.spec.bonus), side_a.spec.pool,
                         unopposed_odds(side_a.spec.pool, side_a.number, options,
                                        bonus=side_a.spec.bonus))
    else:
        side_a, side_b = distinct_names(side_a, side_b)
        ca, cb = side_a.contestant(), side_b.contestant()
        odds = ContestOdds((side_a.who, side_b.who),
                           (opposed_need(ca, cb, options).face,
                            opposed_need(cb, ca, options).face),
                           (ca.pool, cb.pool), opposed_odds(ca, cb, options))
    setup = Setup(side_a, side_b)
    return PoolsRead(odds, errors, setup=setup, placeholder=faces_hint(setup))


def _side(typed: SideTyped, nobody: str, data: RollerData) -> Side:
    """The side as typed; raises ``NotationError`` for a pool that can't be read."""
    spec = parse_pool(typed.text, require_number=True)
    character, choice = typed.character, typed.choice
    if character is None or choice is None \
            or not _same_dice(spec, choice, character, typed.base):
        # other dice than his skill's: not his roll, whoever the list shows
        ties = tiebreaks(data.roller.opposed_tiebreak, spec.number or 0, None)
        return Side(nobody, "typed pool", spec, tiebreaks=ties)
    ties = tiebreaks(data.roller.opposed_tiebreak, spec.number or 0, character)
    what = choice.skill.name
    if not _same_pool(spec, choice, character, typed.base):
        what += " (edited)"  # his dice, another number or bonus
    return Side(character.name, what, spec, choice.skill.legendary, ties)


def _any_dice(a: SideTyped, opposed: bool, mods: str | None,
              skill_error: NotationError) -> PoolsRead | str:
    """Side A as any dice, with a rating check's named modifiers (R-2); or
    the message that fits what was typed ("" : the skill pool's own)."""
    text = a.text
    try:
        expr = parse_dice(text)
    except DiceNotationError as error:
        skill_like = "skill die" not in skill_error.message and not any(
            ch in text for ch in "≥>")
        return "" if skill_like else f"Pool: {error}"
    if opposed:
        return "Pool: any dice roll alone (set Versus to nobody)"
    character, choice = a.character, a.choice
    target = None
    # his rating check's dice (2d6, another target is an edit): his roll;
    # any other dice are the GM's, whoever the list shows
    his = (character is not None and choice is not None and choice.check
           and sorted(expr.dice) == sorted(parse_dice(notation_for(choice)).dice))
    who = character.name if his and character is not None else "GM"
    what = "dice"
    errors: dict[str, str] = {}
    if his and choice is not None and choice.check and mods is not None:
        try:
            named = parse_modifiers(mods)
        except DiceNotationError as error:
            problem = f"Mods: {error}"
            return PoolsRead(OddsProblem(problem), {"mods": error.message, "pool_a": ""},
                             problem=problem)
        errors["mods"] = ""
        if text.strip() == notation_for(choice):  # the rating as filled: add the mods
            target = rating_check(choice.skill.number, f"{who} {choice.check}", named)
            expr = parse_dice(f"2d6 @{target.value}")
            what = f"{choice.check} check"
        else:
            what = f"{choice.check} check (edited)"
    errors["pool_a"] = ""
    dice = "+".join(f"{n}d{d}" for n, d in expr.groups)
    return PoolsRead(AnyOdds(expr, dice_odds(expr), target), errors,
                     any_setup=AnySetup(who, what, expr, target),
                     placeholder=f"faces of {dice}, or r")


def _filled(choice: RollChoice, character: RollerCharacter, base: object) -> PoolSpec | None:
    """The pool the skill fills in (None: it cannot be read)."""
    base_number = dict(character.bases).get(str(base), 0)
    try:
        return parse_pool(notation_for(choice, base_number))
    except NotationError:
        return None


def _same_pool(spec: PoolSpec, choice: RollChoice, character: RollerCharacter,
               base: object) -> bool:
    return _filled(choice, character, base) == spec


def _same_dice(spec: PoolSpec, choice: RollChoice, character: RollerCharacter,
               base: object) -> bool:
    """The skill's own dice (the number or the bonus may be edited)."""
    filled = _filled(choice, character, base)
    return filled is not None and sorted(filled.pool) == sorted(spec.pool)
