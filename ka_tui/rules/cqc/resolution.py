"""Combat resolution of one pairing (S0 §Close combat step 5), without dice.

Given both cards and how each side stands after the opposed test, decide for
every action whether it takes effect, was cancelled (by what, under which
rule) or does nothing (and why), and list the effects it causes. Saves and
the state update are the round's business (``cqc_round``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ka_tui.rules.cqc.card import ActionKind, CqcCard, Grade
from ka_tui.rules.cqc.negation import ActionUnit, Cancellation, Value, negate, units_of
from ka_tui.rules.cqc.standing import Standing, Standings
from ka_tui.rules.cqc.fight_state import Fighter, Weapon
from ka_tui.rules.core.options import CqcOptions

# S0 §2.2 Feint (+1/+2/+3) and Defence (retains 1/2/3 AP), by Grade.rank.
FEINT_BONUS = (1, 2, 3)
DEFENCE_RETAINS = (1, 2, 3)

R_ATTACK = "S0 §2.2 Attack"
R_DEFENCE = "S0 §2.2 Defence"
R_FEINT = "S0 §2.2 Feint"
R_DISARM = "S0 §2.2 Disarm"
R_EVADE = "S0 §2.2 Evade"
R_CONTROL = "S0 §2.2 Control"
R_CRIT_FAIL = "S0 §4: a critical fail: no Attacks, Defence, Evade or Feint are made"
R_FAILED_ATTACK = "S0 §4: a failed test: no Attacks reach the target"
R_FAILED_EVADE = "S0 §4: a failed test: no Evade has been made"
R_STANDOFF = "RULES-NOTES B: both failed: a stand-off"
R_LOSER_BLOCKS = ("S0 §4: Defencive actions still block the opponent's Attacks "
                  "(house rule loser_defence_blocks)")


class Outcome(str, Enum):
    EFFECT = "effect"
    CANCELLED = "cancelled"
    NO_EFFECT = "no effect"


@dataclass(frozen=True)
class ActionFate:
    """What became of one action on a card; ``rule`` cites why."""

    unit: ActionUnit
    against: str
    outcome: Outcome
    rule: str
    effect: str = ""
    cancelled_by: tuple[ActionUnit, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"unit": self.unit.to_dict(), "against": self.against,
                "outcome": self.outcome.value, "rule": self.rule, "effect": self.effect,
                "cancelled_by": [u.to_dict() for u in self.cancelled_by]}


class EffectKind(str, Enum):
    AP_LOSS = "ap_loss"        # S0 §2.2 Attack, unarmed: Strength AP
    HIT = "hit"                # S0 §2.2 Attack with a weapon: calls for a save
    SAVE = "save"              # S0 §6: the save rolled (faces kept)
    K_LOSS = "k_loss"          # S0 §6: a failed save costs the weapon's damage
    FEINT = "feint"            # S0 §2.2 Feint bonus against this opponent
    RETAIN = "retain"          # S0 §2.2 Defence keeps AP for next round
    DISARM = "disarm"          # S0 §2.2 Disarm takes one weapon
    CONTROL = "control"        # S0 §2.2 Control: controlled next round
    RELEASE = "release"        # S0 §2.2 Control not retained
    DISENGAGE = "disengage"    # S0 §2.2 Evade: leaves the fight with this opponent
    OUT = "out"                # RULES-NOTES B: K-points at 0


@dataclass(frozen=True)
class Effect:
    """Something that happens to ``fighter`` because of ``source``."""

    kind: EffectKind
    fighter: str
    source: str
    amount: int = 0
    weapon: str | None = None
    rule: str = ""
    text: str = ""
    faces: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "fighter": self.fighter, "source": self.source,
                "amount": self.amount, "weapon": self.weapon, "rule": self.rule,
                "text": self.text, "faces": list(self.faces)}


@dataclass(frozen=True)
class PairingResolution:
    fates: tuple[ActionFate, ...]
    cancellations: tuple[Cancellation, ...]
    effects: tuple[Effect, ...]


def attack_hits(unit: ActionUnit, opts: CqcOptions) -> int:
    """Hits an Attack lands: house rule ``attack_hits`` by grade (S0 §2.2 is silent)."""
    table = opts.attack_hits or (1,)  # a GM's short table repeats its last entry
    return max(0, table[min(unit.grade.rank, len(table) - 1)])


def pick_weapon(weapons: Sequence[Weapon], wanted: str | None) -> Weapon | None:
    """The weapon a Disarm takes (S0 §2.2: the winner chooses any one): the one
    named on the card if the loser holds it, else the most damaging,
    firearms first on a tie, then slot order."""
    named = next((w for w in weapons if w.name == wanted), None)
    if named is not None:
        return named
    if not weapons:
        return None
    return max(weapons, key=lambda w: (w.damage, w.is_firearm, -weapons.index(w)))


def resolve_pairing(fa: Fighter, fb: Fighter, card_a: CqcCard, card_b: CqcCard,
                    st: Standings, opts: CqcOptions) -> PairingResolution:
    """S0 §Close combat step 5 for the pairing ``fa`` vs ``fb``.

    ``card_a`` is ``fa``'s card against ``fb`` and the other way round. Who
    cancels whom follows RULES-NOTES B; every fate cites its rule.
    """
    if st.winner is None:
        return _no_winner(fa, fb, card_a, card_b, st, opts)
    if st.winner == 0:
        return _with_winner(fa, fb, card_a, card_b, st.b, opts)
    return _with_winner(fb, fa, card_b, card_a, st.a, opts)


class _Ledger:
    """Collects fates and effects while one pairing is resolved."""

    def __init__(self, opts: CqcOptions, *fighters: Fighter) -> None:
        self.opts = opts
        self.names = {f.id: f.name for f in fighters}
        self.fates: dict[ActionUnit, ActionFate] = {}
        self.cancellations: list[Cancellation] = []
        self.effects: list[Effect] = []

    def cancel(self, cs: Iterable[Cancellation], against: dict[str, str], note: str = "") -> None:
        for c in cs:
            self.cancellations.append(c)
            rule = f"{c.rule}; {note}" if note else c.rule
            for t in c.cancelled:
                self.fates[t] = ActionFate(t, against[t.owner], Outcome.CANCELLED, rule,
                                           f"cancelled by {self.label(c.by)}", c.by)

    def label(self, units: Sequence[ActionUnit]) -> str:
        """E.g. ``Ann's Basic Defence, Basic Defence #2``."""
        if not units:
            return "nothing"
        owner = self.names.get(units[0].owner, units[0].owner)
        return f"{owner}'s " + ", ".join(u.label for u in units)

    def used(self, unit: ActionUnit) -> tuple[ActionUnit, ...]:
        return tuple(t for c in self.cancellations if unit in c.by for t in c.cancelled)

    def fate(self, unit: ActionUnit, against: str, outcome: Outcome, rule: str,
             effect: str = "") -> None:
        if unit not in self.fates:
            self.fates[unit] = ActionFate(unit, against, outcome, rule, effect)

    def free(self, units: Iterable[ActionUnit]) -> list[ActionUnit]:
        return [u for u in units if u not in self.fates]

    def result(self, order: Sequence[ActionUnit]) -> PairingResolution:
        return PairingResolution(tuple(self.fates[u] for u in order),
                                 tuple(self.cancellations), tuple(self.effects))


def _of(units: Iterable[ActionUnit], *kinds: ActionKind) -> list[ActionUnit]:
    return [u for u in units if u.kind in kinds]


def _attack_value(opts: CqcOptions) -> Value:
    def value(u: ActionUnit) -> int:
        if u.kind is ActionKind.ATTACK:
            return 100 * attack_hits(u, opts)
        if u.kind is ActionKind.FEINT:
            return FEINT_BONUS[u.grade.rank]
        return 3 if u.grade is not Grade.BASIC else 1
    return value


def _with_winner(w: Fighter, l: Fighter, wc: CqcCard, lc: CqcCard,
                 l_standing: Standing, opts: CqcOptions) -> PairingResolution:
    led = _Ledger(opts, w, l)
    against = {w.id: l.id, l.id: w.id}
    wu, lu = units_of(wc), units_of(lc)
    value = _attack_value(opts)
    disengaging = wc.disengage and bool(_of(wu, ActionKind.EVADE))

    if l_standing is Standing.CRIT_FAILED:
        for u in lu:
            led.fate(u, w.id, Outcome.NO_EFFECT, R_CRIT_FAIL)
    else:
        special = next((u for u in wu if u.grade is Grade.SPECIAL), None)
        if special is not None:
            led.cancel(negate([special], lu, cancellers_won=True), against)
        else:
            _winner_cancels(led, wu, lu, against, disengaging, value)
        if opts.loser_defence_blocks:
            blockers = led.free(_of(lu, ActionKind.DEFENCE))
            led.cancel(negate(blockers, _of(wu, ActionKind.ATTACK), cancellers_won=False,
                              losing_special_as_deliberate=opts.losing_special_as_deliberate,
                              value=value), against, R_LOSER_BLOCKS)

    _winner_effects(led, w, l, wc, wu, disengaging)
    if l_standing is not Standing.CRIT_FAILED:
        _loser_effects(led, l, w, lc, lu, l_standing)
    _control_changes(led, w, l, w, wu)
    return led.result((*wu, *lu))


def _winner_cancels(led: _Ledger, wu: Sequence[ActionUnit], lu: Sequence[ActionUnit],
                    against: dict[str, str], disengaging: bool, value: Value) -> None:
    """RULES-NOTES B: the winner's Defence cancels Attacks; his Evade Attacks,
    Disarm and Control; his Feint the loser's Feint -- each by S0 §2.1."""
    opts = led.opts
    lsd = opts.losing_special_as_deliberate
    led.cancel(negate(_of(wu, ActionKind.DEFENCE), _of(lu, ActionKind.ATTACK),
                      cancellers_won=True, losing_special_as_deliberate=lsd, value=value),
               against)
    evaders = _of(wu, ActionKind.EVADE)
    if disengaging and not opts.disengage_still_negates:
        evaders = []
    targets = led.free(_of(lu, ActionKind.ATTACK, ActionKind.DISARM, ActionKind.CONTROL))
    led.cancel(negate(evaders, targets, cancellers_won=True,
                      losing_special_as_deliberate=lsd, value=value), against)
    led.cancel(negate(_of(wu, ActionKind.FEINT), _of(lu, ActionKind.FEINT),
                      cancellers_won=True, losing_special_as_deliberate=lsd, value=value),
               against)


def _land_attacks(led: _Ledger, attacker: Fighter, target: Fighter, card: CqcCard,
                  attacks: Sequence[ActionUnit], rule: str) -> None:
    opts = led.opts
    weapon = attacker.weapon(card.weapon)
    for u in attacks:
        hits = attack_hits(u, opts)
        plural = "s" if hits != 1 else ""
        if weapon is None:
            loss = attacker.strength * hits
            led.fate(u, target.id, Outcome.EFFECT, rule,
                     f"lands {hits} hit{plural}: {target.name} loses {loss} AP "
                     f"(Strength {attacker.strength})")
            led.effects.append(Effect(EffectKind.AP_LOSS, target.id, attacker.id, loss, None,
                                      R_ATTACK, f"{target.name} loses {loss} AP to "
                                      f"{attacker.name}'s {u.label}"))
            continue
        led.fate(u, target.id, Outcome.EFFECT, rule,
                 f"lands {hits} hit{plural} with {weapon.name}: {hits} save{plural} to make")
        for _ in range(hits):
            led.effects.append(Effect(EffectKind.HIT, target.id, attacker.id, weapon.damage,
                                      weapon.name, R_ATTACK,
                                      f"{attacker.name}'s {u.label} hits {target.name} "
                                      f"with {weapon.name} (damage {weapon.damage})"))
        if opts.weapon_attack_costs_ap:
            loss = attacker.strength * hits
            led.effects.append(Effect(EffectKind.AP_LOSS, target.id, attacker.id, loss, None,
                                      f"{R_ATTACK} (house rule weapon_attack_costs_ap)",
                                      f"{target.name} loses {loss} AP to {attacker.name}'s "
                                      f"{u.label}"))


def _winner_effects(led: _Ledger, w: Fighter, l: Fighter, wc: CqcCard,
                    wu: Sequence[ActionUnit], disengaging: bool) -> None:
    opts = led.opts
    _land_attacks(led, w, l, wc, led.free(_of(wu, ActionKind.ATTACK)),
                  f"{R_ATTACK}: the winner's uncancelled Attack")
    for u in led.free(_of(wu, ActionKind.DEFENCE)):
        hit = led.used(u)
        if hit:
            led.fate(u, l.id, Outcome.EFFECT, R_DEFENCE, f"cancels {led.label(hit)}")
        else:
            led.fate(u, l.id, Outcome.NO_EFFECT, R_DEFENCE,
                     "nothing to cancel (Defence keeps AP only when its side loses)")
    for u in led.free(_of(wu, ActionKind.FEINT)):
        _feint(led, u, w, l, f"{R_FEINT}: uncancelled")
    taken: list[str] = []
    for u in led.free(_of(wu, ActionKind.DISARM)):
        left = [x for x in l.weapons if x.name not in taken]
        if taken and opts.disarm_one_per_round:
            led.fate(u, l.id, Outcome.NO_EFFECT, f"{R_DISARM} (house rule disarm_one_per_round)",
                     "one weapon a round is already taken")
            continue
        weapon = pick_weapon(left, wc.disarm_pick)
        if weapon is None:
            led.fate(u, l.id, Outcome.NO_EFFECT, R_DISARM,
                     f"nothing left in {l.name}'s quick slots")
            continue
        taken.append(weapon.name)
        led.fate(u, l.id, Outcome.EFFECT, R_DISARM, f"takes {weapon.name} from {l.name}")
        led.effects.append(Effect(EffectKind.DISARM, l.id, w.id, 0, weapon.name, R_DISARM,
                                  f"{w.name} takes {weapon.name} from {l.name}"))
    for u in led.free(_of(wu, ActionKind.EVADE)):
        hit = led.used(u)
        text = f"negates {led.label(hit)}" if hit else ""
        if disengaging:
            text = f"{text}; disengages" if text else "disengages"
        if text:
            led.fate(u, l.id, Outcome.EFFECT, R_EVADE, text)
        else:
            led.fate(u, l.id, Outcome.NO_EFFECT, R_EVADE, "nothing to negate")
    if disengaging:
        led.effects.append(Effect(EffectKind.DISENGAGE, w.id, w.id, 0, None,
                                  f"{R_EVADE}: an uncancelled Evade and a won round",
                                  f"{w.name} disengages from {l.name}"))
    controls = led.free(_of(wu, ActionKind.CONTROL))
    for i, u in enumerate(controls):
        led.fate(u, l.id, Outcome.EFFECT, R_CONTROL,
                 f"{l.name} is under {w.name}'s control next round" if i == 0
                 else "adds nothing: one Control is enough")


def _feint(led: _Ledger, u: ActionUnit, owner: Fighter, opp: Fighter, rule: str) -> None:
    bonus = FEINT_BONUS[u.grade.rank]
    led.fate(u, opp.id, Outcome.EFFECT, rule,
             f"+{bonus} to {owner.name}'s Close Combat against {opp.name} for the fight")
    led.effects.append(Effect(EffectKind.FEINT, owner.id, owner.id, bonus, None, R_FEINT,
                              f"{owner.name} +{bonus} Close Combat against {opp.name}"))


def _retain(led: _Ledger, u: ActionUnit, owner: Fighter, opp: Fighter, rule: str,
            prefix: str = "") -> None:
    kept = DEFENCE_RETAINS[u.grade.rank]
    led.fate(u, opp.id, Outcome.EFFECT, rule, f"{prefix}retains {kept} AP for next round")
    led.effects.append(Effect(EffectKind.RETAIN, owner.id, owner.id, kept, None, R_DEFENCE,
                              f"{owner.name} keeps {kept} AP for next round"))


def _loser_effects(led: _Ledger, l: Fighter, w: Fighter, lc: CqcCard,
                   lu: Sequence[ActionUnit], standing: Standing) -> None:
    """RULES-NOTES B: a loser's uncancelled Attacks land if he passed; his
    Defence retains AP; his Feint counts; Evade, Disarm and Control need a win."""
    opts = led.opts
    attacks = led.free(_of(lu, ActionKind.ATTACK))
    if standing is Standing.LOST_PASSED and opts.loser_attacks_land:
        _land_attacks(led, l, w, lc, attacks,
                      f"{R_ATTACK}: the loser passed, so his uncancelled Attack lands "
                      "(house rule loser_attacks_land)")
    for u in attacks:
        rule = (R_FAILED_ATTACK if standing is Standing.LOST_FAILED
                else f"{R_ATTACK}: house rule loser_attacks_land is off")
        led.fate(u, w.id, Outcome.NO_EFFECT, rule, "does not land")
    for u in led.free(_of(lu, ActionKind.DEFENCE)):
        blocked = led.used(u)
        if blocked and not opts.loser_defence_blocks_and_retains:
            led.fate(u, w.id, Outcome.EFFECT, R_LOSER_BLOCKS, f"blocks {led.label(blocked)}")
        else:
            prefix = f"blocks {led.label(blocked)}; " if blocked else ""
            _retain(led, u, l, w, f"{R_DEFENCE}: a losing Defence retains AP", prefix)
    for u in led.free(_of(lu, ActionKind.FEINT)):
        _feint(led, u, l, w, f"{R_FEINT}: counts whether you win or lose")
    for u in led.free(_of(lu, ActionKind.EVADE)):
        rule = R_FAILED_EVADE if standing is Standing.LOST_FAILED else f"{R_EVADE}: needs a won round"
        led.fate(u, w.id, Outcome.NO_EFFECT, rule)
    for u in led.free(_of(lu, ActionKind.DISARM)):
        led.fate(u, w.id, Outcome.NO_EFFECT, f"{R_DISARM}: needs a won round")
    for u in led.free(_of(lu, ActionKind.CONTROL)):
        led.fate(u, w.id, Outcome.NO_EFFECT, f"{R_CONTROL}: needs a won round")


def _control_changes(led: _Ledger, x: Fighter, y: Fighter, winner: Fighter | None,
                     wu: Sequence[ActionUnit]) -> None:
    """S0 §2.2 Control: a win with an uncancelled Control puts (or keeps) the
    loser under control next round; any other outcome frees him."""
    gained_over: str | None = None
    if winner is not None and any(
            led.fates[u].outcome is Outcome.EFFECT for u in _of(wu, ActionKind.CONTROL)):
        held = y if winner.id == x.id else x
        gained_over = held.id
        kept = held.controlled_by == winner.id
        led.effects.append(Effect(EffectKind.CONTROL, held.id, winner.id, 0, None, R_CONTROL,
                                  f"{held.name} {'stays' if kept else 'comes'} under "
                                  f"{winner.name}'s control next round"))
    for held, by in ((x, y), (y, x)):
        if held.controlled_by == by.id and held.id != gained_over:
            led.effects.append(Effect(EffectKind.RELEASE, held.id, by.id, 0, None, R_CONTROL,
                                      f"{held.name} is free of {by.name}'s control "
                                      "(keeping it needs a win with an uncancelled Control)"))


def _no_winner(fa: Fighter, fb: Fighter, ca: CqcCard, cb: CqcCard, st: Standings,
               opts: CqcOptions) -> PairingResolution:
    """Both failed (a stand-off: Feints count, Defences retain AP, nothing else
    happens) or both rolled a critical fail (nothing at all)."""
    led = _Ledger(opts, fa, fb)
    ua, ub = units_of(ca), units_of(cb)
    for me, opp, units in ((fa, fb, ua), (fb, fa, ub)):
        for u in units:
            if st.a is Standing.CRIT_FAILED:
                led.fate(u, opp.id, Outcome.NO_EFFECT, st.rule)
            elif u.kind is ActionKind.FEINT:
                _feint(led, u, me, opp, f"{R_STANDOFF}; Feints count (S0 §4: Feint is unaffected)")
            elif u.kind is ActionKind.DEFENCE:
                _retain(led, u, me, opp, f"{R_STANDOFF}; Defences retain AP")
            else:
                led.fate(u, opp.id, Outcome.NO_EFFECT, R_STANDOFF)
    _control_changes(led, fa, fb, None, ())
    return led.result((*ua, *ub))
