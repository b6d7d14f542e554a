"""Preview a pairing before the dice (S0 §Close combat 4-5): what the cards
as entered would do under each way the opposed round can end.

Read-only and dice-free: the same ``resolve_pairing`` the round uses, run on
each standing, so a preview cannot disagree with the resolution. Weapon hits
are shown as hits (the saves are rolled only in the round). Given the skill
options, each scenario also carries its exact chance, from the same
contestants the round rolls -- Feints and the Passive skills the cards make
count (S0 §Skills, Passive) included.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ka_tui.rules.cqc.card import CqcCard
from ka_tui.rules.cqc.resolution import Effect, EffectKind, PairingResolution, resolve_pairing
from ka_tui.rules.cqc.round import card_for, pairing_contestants
from ka_tui.rules.cqc.standing import Standings, standings
from ka_tui.rules.cqc.fight_state import Fight
from ka_tui.rules.core.odds import opposed_outcomes
from ka_tui.rules.core.options import CqcOptions, SkillOptions


@dataclass(frozen=True)
class Scenario:
    label: str
    standings: Standings
    resolution: PairingResolution
    summary: str
    chance: Fraction | None = None  # exact; None when not asked for

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "winner": self.standings.winner,
                "chance": None if self.chance is None else str(self.chance),
                "standings": [self.standings.a.value, self.standings.b.value],
                "fates": [f.to_dict() for f in self.resolution.fates],
                "effects": [e.to_dict() for e in self.resolution.effects],
                "summary": self.summary}


def preview_pairing(fight: Fight, cards: Iterable[CqcCard], a: str, b: str,
                    options: CqcOptions | None = None, *,
                    skills: SkillOptions | None = None) -> tuple[Scenario, ...]:
    """Each way the round of ``a`` vs ``b`` can end (S0 §4), and its effects.

    With ``skills``, each scenario's exact chance too (Passive skills
    included, S0 §Skills), and a "both critically fail" scenario when it can
    happen, so the chances add up to 1."""
    opts = options or CqcOptions()
    cards = tuple(cards)
    fa, fb = fight.fighter(a), fight.fighter(b)
    ca, cb = card_for(cards, a, b, opts), card_for(cards, b, a, opts)
    names = {fa.id: fa.name, fb.id: fb.name}
    cases: tuple[tuple[str, Standings], ...] = (
        (f"{fa.name} wins, {fb.name} passed", standings(True, False, True, False, 0)),
        (f"{fa.name} wins, {fb.name} failed", standings(True, False, False, False, 0)),
        (f"{fb.name} rolls a critical fail", standings(True, False, False, True, None)),
        (f"{fb.name} wins, {fa.name} passed", standings(True, False, True, False, 1)),
        (f"{fb.name} wins, {fa.name} failed", standings(False, False, True, False, 1)),
        (f"{fa.name} rolls a critical fail", standings(False, True, True, False, None)),
        ("both fail: stand-off", standings(False, False, False, False, None)),
    )
    chances: dict[tuple[object, object, object], Fraction] | None = None
    if skills is not None:
        con_a, con_b, _ = pairing_contestants(fa, fb, cards, opts)
        chances = {}
        for (winner, a_pass, a_cf, b_pass, b_cf), p in opposed_outcomes(
                con_a, con_b, skills).items():
            st = standings(a_pass, a_cf, b_pass, b_cf, winner)
            key = (st.a, st.b, st.winner)
            chances[key] = chances.get(key, Fraction(0)) + p
        both = standings(False, True, False, True, None)
        if chances.get((both.a, both.b, both.winner)):
            cases += (("both roll a critical fail", both),)
    out = []
    for label, st in cases:
        res = resolve_pairing(fa, fb, ca, cb, st, opts)
        chance = None if chances is None else chances.get((st.a, st.b, st.winner), Fraction(0))
        out.append(Scenario(label, st, res, summarize(res.effects, names), chance))
    return tuple(out)


def summarize(effects: Iterable[Effect], names: dict[str, str]) -> str:
    """One short line of what happens, e.g. ``Bob -4 AP; 2 knife hits on Bob``."""
    parts: list[str] = []
    ap: dict[str, int] = {}
    hits: dict[tuple[str, str | None], int] = {}
    for e in effects:
        who = names.get(e.fighter, e.fighter)
        if e.kind is EffectKind.AP_LOSS:
            ap[who] = ap.get(who, 0) + e.amount
        elif e.kind is EffectKind.HIT:
            hits[(who, e.weapon)] = hits.get((who, e.weapon), 0) + 1
        elif e.kind is EffectKind.FEINT:
            parts.append(f"{who} +{e.amount} feint")
        elif e.kind is EffectKind.RETAIN:
            parts.append(f"{who} keeps {e.amount} AP")
        elif e.kind is EffectKind.DISARM:
            parts.append(f"{names.get(e.source, e.source)} takes {e.weapon}")
        elif e.kind is EffectKind.CONTROL:
            parts.append(f"{who} controlled")
        elif e.kind is EffectKind.RELEASE:
            parts.append(f"{who} freed")
        elif e.kind is EffectKind.DISENGAGE:
            parts.append(f"{who} disengages")
    lead = [f"{who} -{n} AP" for who, n in ap.items()]
    lead += [f"{n} {weapon} hit{'s' if n > 1 else ''} on {who} (saves)"
             for (who, weapon), n in hits.items()]
    return "; ".join(lead + parts) or "nothing happens"
