"""One round of close combat (S0 §Close combat steps 2-6).

``resolve_round(fight, cards, dice, rules)`` checks the cards (step 2), rolls
each pairing's opposed test with the rules core (step 4, in the order of
combat, step 3), resolves actions (step 5), rolls the saves and applies
damage (step 6), and returns the next ``Fight`` with a ``RoundReport`` that
records every face rolled, so a replay never re-rolls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from ka_tui.rules.core.skill_tests import Contestant, opposed_test
from ka_tui.rules.cqc.card import CardError, CqcCard, validate_card, validate_split
from ka_tui.rules.cqc.passive import (
    PassiveBonus, PassiveLeftOut, passive_bonus, passive_left_out,
)
from ka_tui.rules.cqc.report import ContestRecord, PairingReport, RoundReport, render_lines
from ka_tui.rules.cqc.resolution import Effect, EffectKind, resolve_pairing
from ka_tui.rules.cqc.standing import Standings, standings
from ka_tui.rules.cqc.fight_state import Fight, Fighter, Pairing
from ka_tui.rules.core.dice import Dice, DiceError, ScriptedDice
from ka_tui.rules.core.options import CqcOptions, HouseRules, MultiOpponent, SaveStat

R_SAVE = "S0 §2.2 Attack and §6: a Resistance or Armour save; RULES-NOTES B: d12 + stat vs 13"
R_OUT = "RULES-NOTES B: K-points at 0: out of the fight"
R_ZERO_AP = "house rule zero_ap_is_out: no AP left: out of the fight"


class LabelledDice:
    """Records every die as (sides, face) with a label saying what it was for
    (a GM rolling at the table needs to know which die to roll next)."""

    def __init__(self, inner: Dice) -> None:
        self.inner = inner
        self.used: list[tuple[int, int]] = []
        self.labels: list[str] = []
        self._stage: tuple[str, ...] = ()
        self._tail: Callable[[int], str] | None = None
        self._n = 0

    def stage(self, labels: Sequence[str], then: Callable[[int], str] | None = None) -> None:
        """The next dice are ``labels`` in order, then ``then(i)`` for the i-th extra."""
        self._stage, self._tail, self._n = tuple(labels), then, 0

    @property
    def next_label(self) -> str:
        i = self._n
        if i < len(self._stage):
            return self._stage[i]
        return self._tail(i - len(self._stage)) if self._tail else "extra die"

    def roll(self, sides: int) -> int:
        label = self.next_label
        try:
            face = self.inner.roll(sides)
        except _NeedDie as need:
            raise _NeedDie(NeededDie(sides, label, len(self.used))) from need
        self.used.append((sides, face))
        self.labels.append(label)
        self._n += 1
        return face


@dataclass(frozen=True)
class NeededDie:
    """The next die a GM rolling at the table must roll, and what it is for."""

    sides: int
    label: str
    index: int  # its place among the round's faces (0-based)


class _NeedDie(Exception):
    def __init__(self, die: NeededDie) -> None:
        super().__init__(die.label)
        self.die = die


class _Supply(ScriptedDice):
    """Given faces; running out asks for the next die instead of failing."""

    def roll(self, sides: int) -> int:
        if not self.faces:
            raise _NeedDie(NeededDie(sides, "", len(self.used)))
        return super().roll(sides)


def next_die(fight: Fight, cards: Iterable[CqcCard], faces: Sequence[int],
             rules: HouseRules | None = None) -> NeededDie | None:
    """For physical dice: which die the round needs after ``faces`` (None when
    ``faces`` complete it). Raises like ``resolve_round`` on bad cards or faces."""
    supply = _Supply.of(faces)
    try:
        resolve_round(fight, cards, supply, rules)
    except _NeedDie as need:
        return need.die
    if not supply.exhausted:
        raise DiceError(f"{len(supply.faces)} face(s) left over: {supply.faces}")
    return None


class CardsInvalid(ValueError):
    """The round cannot be resolved: the cards break S0 §2."""

    def __init__(self, errors: Sequence[CardError]) -> None:
        self.errors = tuple(errors)
        super().__init__("; ".join(e.render() for e in self.errors))


def card_for(cards: Iterable[CqcCard], owner: str, against: str,
             options: CqcOptions) -> CqcCard:
    """The card ``owner`` plays against ``against`` (empty if none was entered).

    ``MultiOpponent.SPLIT``: the card entered for that opponent.
    ``MultiOpponent.EACH``: his one card, applied against every opponent.
    """
    for c in cards:
        if c.owner != owner:
            continue
        if options.multi_opponent == MultiOpponent.EACH:
            return replace(c, against=against)
        if c.against == against:
            return c
    return CqcCard(owner, against)


def validate_round_cards(fight: Fight, cards: Iterable[CqcCard],
                         options: CqcOptions | None = None) -> tuple[CardError, ...]:
    """Every reason the round's cards cannot be played (S0 §2), per fighter."""
    opts = options or CqcOptions()
    cards = tuple(cards)
    errors: list[CardError] = []
    ids = {f.id for f in fight.fighters}
    seen: set[tuple[str, str]] = set()
    for c in cards:
        if c.owner not in ids:
            errors.append(CardError(c.owner, "owner", f"{c.owner!r} is not in this fight"))
            continue
        me = fight.fighter(c.owner)
        opponents = fight.opponents_of(c.owner)
        key = (c.owner, "*" if opts.multi_opponent == MultiOpponent.EACH else c.against)
        if key in seen:
            errors.append(CardError(c.owner, "card", f"{me.name} has two cards for the same "
                                    "opponent" if key[1] != "*" else
                                    f"{me.name} has more than one card (house rule "
                                    "multi_opponent=each: one card against all)"))
        seen.add(key)
        if not opponents:
            errors.append(CardError(c.owner, "owner", f"{me.name} faces nobody this round"))
            continue
        if opts.multi_opponent == MultiOpponent.SPLIT and c.against not in opponents:
            errors.append(CardError(c.owner, "against",
                                    f"{me.name} is not fighting {c.against!r} this round"))
        errors += validate_card(c, me.pool, opts, [w.name for w in me.weapons])
    if opts.multi_opponent == MultiOpponent.SPLIT:
        for f in fight.fighters:
            mine = [c for c in cards if c.owner == f.id]
            errors += validate_split(mine, f.pool)
    return tuple(errors)


def contestant(me: Fighter, opponent: Fighter, options: CqcOptions,
               passive: PassiveBonus | None = None) -> Contestant:
    """S0 §4: the Close Combat test, with Feint bonuses against this opponent
    (S0 §2.2 Feint), the tie-breaks Close Combat then Agility, and the
    Passive skill that counts this round as the bonus on each die (S0 §Skills,
    Passive; ``cqc.passive.passive_bonus``)."""
    number = me.cc_number + me.feint_against(opponent.id)
    tie_cc = number if options.feint_counts_in_tiebreak else me.cc_number
    return Contestant(me.name, me.cc_pool, number, me.cc_legendary,
                      bonus=passive.number if passive is not None else 0,
                      tiebreaks=(("Close Combat", tie_cc), ("Agility", me.agility)))


def pairing_passives(fa: Fighter, fb: Fighter, cards: Iterable[CqcCard], options: CqcOptions
                     ) -> tuple[PassiveBonus | None, PassiveBonus | None]:
    """S0 §Skills, Passive: the Passive skill (if any) each side of ``fa`` vs
    ``fb`` adds this round, from the cards they play against each other."""
    cards = tuple(cards)
    ca, cb = card_for(cards, fa.id, fb.id, options), card_for(cards, fb.id, fa.id, options)
    return passive_bonus(fa, ca, cb, options), passive_bonus(fb, cb, ca, options)


def pairing_left_out(fa: Fighter, fb: Fighter, cards: Iterable[CqcCard], options: CqcOptions
                     ) -> tuple[PassiveLeftOut, ...]:
    """S0 §Skills, Passive: each side's Passive that a house rule leaves out
    of this round (said beside the odds and in the report)."""
    cards = tuple(cards)
    ca, cb = card_for(cards, fa.id, fb.id, options), card_for(cards, fb.id, fa.id, options)
    found = (passive_left_out(fa, ca, cb, options), passive_left_out(fb, cb, ca, options))
    return tuple(p for p in found if p is not None)


def pairing_contestants(fa: Fighter, fb: Fighter, cards: Iterable[CqcCard], options: CqcOptions
                        ) -> tuple[Contestant, Contestant, tuple[PassiveBonus, ...]]:
    """Both sides of S0 §4 for one pairing this round, and each Passive skill
    that counts -- the one place the round, its odds and the preview get
    them from."""
    pa, pb = pairing_passives(fa, fb, cards, options)
    counted = tuple(p for p in (pa, pb) if p is not None)
    return contestant(fa, fb, options, pa), contestant(fb, fa, options, pb), counted


def roll_contest(fa: Fighter, fb: Fighter, dice: Dice, rules: HouseRules,
                 cards: Iterable[CqcCard] = ()) -> ContestRecord:
    """S0 §4 for one pairing: the rules core's opposed test, read for CQC;
    the report cites each Passive skill that counted (S0 §Skills, Passive)."""
    ca, cb, counted = pairing_contestants(fa, fb, cards, rules.cqc)
    left_out = pairing_left_out(fa, fb, cards, rules.cqc)
    names = {fa.id: fa.name, fb.id: fb.name}
    full = (*(p.line(names[p.fighter]) for p in counted),
            *(p.line(names[p.fighter]) for p in left_out))
    passives = tuple(p.short(names[p.fighter]) for p in counted)
    not_counted = tuple(p.short(names[p.fighter]) for p in left_out)
    res = opposed_test(ca, cb, dice, rules.skills)
    st = standings(res.a.passed, res.a.crit_fail, res.b.passed, res.b.crit_fail, res.winner,
                   res.decided_by.value)
    winner = None if st.winner is None else (fa.id, fb.id)[st.winner]
    return ContestRecord(fa.id, fb.id, (ca.number, cb.number), (ca.pool, cb.pool),
                         (res.a.faces, res.b.faces), (res.a.successes, res.b.successes),
                         (st.a, st.b), winner, res.decided_by.value, res.rolloff,
                         st.rule, (*full, *res.explanation), (ca.bonus, cb.bonus), passives,
                         not_counted)


def roll_save(target: Fighter, hit: Effect, dice: Dice, options: CqcOptions) -> tuple[Effect, ...]:
    """S0 §2.2/§6: a weapon hit calls for a Resistance or Armour save: d12 +
    stat against ``save_target`` (RULES-NOTES B). A 12 always saves and a 1
    always fails (S0 §Skills critical success / fail)."""
    if options.save_stat == SaveStat.BEST:
        stat_name, stat = max((("Armour", target.armour), ("Resistance", target.resistance)),
                              key=lambda p: p[1])
    elif target.armour > 0:
        stat_name, stat = "Armour", target.armour
    else:
        stat_name, stat = "Resistance", target.resistance
    face = dice.roll(12)
    total = face + stat
    if face == 12:
        saved, why = True, "a 12 always saves (S0 §Skills critical success)"
    elif face == 1:
        saved, why = False, "a 1 always fails (S0 §Skills critical fail)"
    else:
        saved = total >= options.save_target
        why = f"{face} + {stat_name} {stat} = {total} vs {options.save_target}"
    verdict = "saved" if saved else f"failed: -{hit.amount} K ({hit.weapon})"
    out = [Effect(EffectKind.SAVE, target.id, hit.source, int(saved), hit.weapon, R_SAVE,
                  f"{target.name} saves against {hit.weapon}: d12 {why}: {verdict}", (face,))]
    if not saved:
        out.append(Effect(EffectKind.K_LOSS, target.id, hit.source, hit.amount, hit.weapon,
                          "S0 §6: reduce K-points",
                          f"{target.name} loses {hit.amount} K-points to {hit.weapon}"))
    return tuple(out)


def resolve_round(fight: Fight, cards: Iterable[CqcCard], dice: Dice | Sequence[int],
                  rules: HouseRules | None = None) -> tuple[Fight, RoundReport]:
    """S0 §Close combat steps 2-6 for every active pairing of ``fight``.

    ``dice`` is a dice source, or the faces to use in order (a replay or the
    table's physical dice); given faces must all be used. Raises
    ``CardsInvalid`` for cards that break S0 §2 and ``DiceError`` for faces
    that do not fit.
    """
    rules = rules or HouseRules()
    opts = rules.cqc
    cards = tuple(cards)
    errors = validate_round_cards(fight, cards, opts)
    if errors:
        raise CardsInvalid(errors)
    given = isinstance(dice, Sequence)
    source: Dice = ScriptedDice.of(dice) if isinstance(dice, Sequence) else dice
    rec = LabelledDice(source)
    k_left = {f.id: f.k_points for f in fight.fighters}
    reports: list[PairingReport] = []
    for p in fight.active_pairings:
        fa, fb = fight.fighter(p.a), fight.fighter(p.b)
        rec.stage(_contest_labels(fa, fb), _rolloff_label(fa, fb))
        contest = roll_contest(fa, fb, rec, rules, cards)
        st = Standings(contest.standings[0], contest.standings[1],
                       None if contest.winner is None else (0 if contest.winner == fa.id else 1),
                       contest.rule)
        res = resolve_pairing(fa, fb, card_for(cards, fa.id, fb.id, opts),
                              card_for(cards, fb.id, fa.id, opts), st, opts)
        effects: list[Effect] = []
        for e in res.effects:
            effects.append(e)
            if e.kind is EffectKind.HIT and k_left[e.fighter] > 0:
                rec.stage([f"{fight.fighter(e.fighter).name}'s save against {e.weapon} (d12)"])
                saves = roll_save(fight.fighter(e.fighter), e, rec, opts)
                effects += saves
                k_left[e.fighter] -= sum(s.amount for s in saves if s.kind is EffectKind.K_LOSS)
        # S0 §3: actions are revealed in the order of combat, highest first.
        first = fa.id if _rank(fight, fa.id) <= _rank(fight, fb.id) else fb.id
        fates = tuple(sorted(res.fates, key=lambda f: f.unit.owner != first))
        reports.append(PairingReport(p.a, p.b, contest, fates, tuple(effects)))
    if given and isinstance(source, ScriptedDice) and not source.exhausted:
        raise DiceError(f"{len(source.faces)} face(s) left over: {source.faces}")
    after, round_effects = apply_round(fight, reports, opts)
    report = RoundReport(fight.round, tuple(reports), round_effects, tuple(rec.used),
                         tuple(rec.labels),
                         render_lines(fight.round, fight, after, tuple(reports), round_effects))
    return after, report


def replay(start: Fight, rounds: Iterable[tuple[Iterable[CqcCard], Sequence[int]]],
           rules: HouseRules | None = None) -> tuple[Fight, tuple[RoundReport, ...]]:
    """Rebuild a fight from its log: each round's cards and recorded faces, in
    order (DESIGN.md "Fights ... as a log of events"). Never rolls."""
    fight, reports = start, []
    for cards, faces in rounds:
        fight, report = resolve_round(fight, cards, list(faces), rules)
        reports.append(report)
    return fight, tuple(reports)


def _rank(fight: Fight, fid: str) -> int:
    return fight.order.index(fid) if fid in fight.order else len(fight.order)


def _rolloff_label(fa: Fighter, fb: Fighter) -> Callable[[int], str]:
    """S0 §4 d12 roll-off dice come in pairs, A's then B's (rules core order)."""
    def label(i: int) -> str:
        return f"{fa.name} vs {fb.name}: d12 roll-off, {(fa, fb)[i % 2].name}'s die"
    return label


def _contest_labels(fa: Fighter, fb: Fighter) -> list[str]:
    """S0 §4 dice in the rules core's order: A's pool, B's pool."""
    out = []
    for f, other in ((fa, fb), (fb, fa)):
        n = len(f.cc_pool)
        out += [f"{f.name}'s Close Combat against {other.name}: d{s} ({i}/{n})"
                for i, s in enumerate(f.cc_pool, 1)]
    return out


def apply_round(fight: Fight, reports: Sequence[PairingReport],
                opts: CqcOptions) -> tuple[Fight, tuple[Effect, ...]]:
    """S0 §6: apply every effect and decide whether the fight goes on."""
    ap_lost: dict[str, int] = {}
    k_lost: dict[str, int] = {}
    retained: dict[str, int] = {}
    fighters = {f.id: f for f in fight.fighters}
    ended: dict[tuple[str, str], str] = {}
    disengaged: set[str] = set()
    controls: list[Effect] = []
    for rep in reports:
        kept: dict[str, int] = {}
        for e in rep.effects:
            if e.kind is EffectKind.AP_LOSS:
                ap_lost[e.fighter] = ap_lost.get(e.fighter, 0) + e.amount
            elif e.kind is EffectKind.K_LOSS:
                k_lost[e.fighter] = k_lost.get(e.fighter, 0) + e.amount
            elif e.kind is EffectKind.RETAIN:
                kept[e.fighter] = kept.get(e.fighter, 0) + e.amount
            elif e.kind is EffectKind.FEINT:
                opp = rep.b if e.fighter == rep.a else rep.a
                fighters[e.fighter] = fighters[e.fighter].with_feint(opp, e.amount)
            elif e.kind is EffectKind.DISARM:
                fighters = _disarm(fighters, e)
            elif e.kind in (EffectKind.CONTROL, EffectKind.RELEASE):
                controls.append(e)
            elif e.kind is EffectKind.DISENGAGE:
                ended[(rep.a, rep.b)] = f"{fighters[e.fighter].name} disengaged (S0 §2.2 Evade)"
                disengaged.add(e.fighter)
        for fid, n in kept.items():
            # SPLIT: each card's Defence keeps its own AP; EACH: one card, so
            # the best pairing counts once.
            if opts.multi_opponent == MultiOpponent.SPLIT:
                retained[fid] = retained.get(fid, 0) + n
            else:
                retained[fid] = max(retained.get(fid, 0), n)
    fighters = _apply_control(fighters, controls)
    round_effects: list[Effect] = []
    for fid, f in list(fighters.items()):
        if not f.in_fight:
            continue
        # S0 §2.2 Defence retains AP "from your pool": never more than it held.
        keep = min(retained.get(fid, 0), f.pool)
        new = f.adjusted(ap_lost=ap_lost.get(fid, 0), k_lost=k_lost.get(fid, 0),
                         ap_retained=keep)
        if new.out and not f.out:
            round_effects.append(Effect(EffectKind.OUT, fid, fid, 0, None, R_OUT,
                                        f"{f.name} is out of the fight"))
        elif opts.zero_ap_is_out and new.pool == 0 and fight.opponents_of(fid):
            new = replace(new, out=True)
            round_effects.append(Effect(EffectKind.OUT, fid, fid, 0, None, R_ZERO_AP,
                                        f"{f.name} has no AP left and is out of the fight"))
        fighters[fid] = new
    pairings = []
    for p in fight.pairings:
        reason = p.ended or ended.get(p.key)
        if reason is None:
            out = [x for x in (p.a, p.b) if fighters[x].out]
            if out:
                reason = f"{' and '.join(fighters[x].name for x in out)} out of the fight"
        pairings.append(Pairing(p.a, p.b, reason))
    nxt = replace(fight, fighters=tuple(fighters[f.id] for f in fight.fighters),
                  pairings=tuple(pairings), round=fight.round + 1)
    still = {fid for p in nxt.active_pairings for fid in (p.a, p.b)}
    done = [f if f.id in still or f.id not in disengaged or f.out
            else replace(f, disengaged=True) for f in nxt.fighters]
    free = [f if f.controlled_by is None or f.controlled_by in still and f.id in still
            else replace(f, controlled_by=None) for f in done]
    return replace(nxt, fighters=tuple(free)), tuple(round_effects)


def _disarm(fighters: Mapping[str, Fighter], e: Effect) -> dict[str, Fighter]:
    """S0 §2.2 Disarm: the weapon leaves the loser's quick slots for the winner's."""
    out = dict(fighters)
    loser, winner = out[e.fighter], out[e.source]
    weapon = loser.weapon(e.weapon)
    if weapon is None:  # already taken by another opponent earlier this round
        return out
    out[e.fighter] = replace(loser, weapons=tuple(w for w in loser.weapons if w is not weapon))
    out[e.source] = replace(winner, weapons=(*winner.weapons, weapon))
    return out


def _apply_control(fighters: Mapping[str, Fighter], effects: Sequence[Effect]) -> dict[str, Fighter]:
    """S0 §2.2 Control: releases first, then gains; on two gains over one
    fighter in a round, the first in the order of combat holds him."""
    out = dict(fighters)
    for e in effects:
        if e.kind is EffectKind.RELEASE and out[e.fighter].controlled_by == e.source:
            out[e.fighter] = replace(out[e.fighter], controlled_by=None)
    gained: set[str] = set()
    for e in effects:
        if e.kind is EffectKind.CONTROL and e.fighter not in gained:
            gained.add(e.fighter)
            out[e.fighter] = replace(out[e.fighter], controlled_by=e.source)
    return out
