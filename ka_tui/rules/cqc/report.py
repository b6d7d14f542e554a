"""The round report of close combat (S0 §Close combat steps 4-6; RULES-NOTES B):
every action, what cancelled it and by which rule, every effect -- as
structured entries and as plain text lines. All JSON-friendly via ``to_dict``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ka_tui.rules.cqc.resolution import ActionFate, Effect, EffectKind, Outcome
from ka_tui.rules.cqc.standing import Standing
from ka_tui.rules.cqc.fight_state import Fight


@dataclass(frozen=True)
class ContestRecord:
    """The opposed test of one pairing (S0 §4), kept with its faces."""

    a: str
    b: str
    numbers: tuple[int, int]
    pools: tuple[tuple[int, ...], tuple[int, ...]]
    faces: tuple[tuple[int, ...], tuple[int, ...]]
    successes: tuple[int, int]
    standings: tuple[Standing, Standing]
    winner: str | None
    decided_by: str
    rolloff: tuple[tuple[int, int], ...]
    rule: str
    lines: tuple[str, ...]
    # S0 §Skills, Passive: each side's bonus on every die (0: none) and a
    # short line for each Passive that counted (``lines`` has the full one),
    # and for each one a house rule left out, with the rule's name.
    bonuses: tuple[int, int] = (0, 0)
    passives: tuple[str, ...] = ()
    passives_left_out: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "numbers": list(self.numbers),
                "bonuses": list(self.bonuses), "passives": list(self.passives),
                "passives_left_out": list(self.passives_left_out),
                "pools": [list(p) for p in self.pools],
                "faces": [list(f) for f in self.faces],
                "successes": list(self.successes),
                "standings": [s.value for s in self.standings],
                "winner": self.winner, "decided_by": self.decided_by,
                "rolloff": [list(r) for r in self.rolloff], "rule": self.rule,
                "lines": list(self.lines)}


@dataclass(frozen=True)
class PairingReport:
    a: str
    b: str
    contest: ContestRecord
    fates: tuple[ActionFate, ...]
    effects: tuple[Effect, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "contest": self.contest.to_dict(),
                "fates": [f.to_dict() for f in self.fates],
                "effects": [e.to_dict() for e in self.effects]}


@dataclass(frozen=True)
class RoundReport:
    """One resolved round. ``faces`` are every die rolled, as (sides, face) in
    roll order: feed them back (``resolve_round(..., [face, ...])``) to replay
    the round without re-rolling; ``dice_labels`` says what each die was for."""

    round: int
    pairings: tuple[PairingReport, ...]
    effects: tuple[Effect, ...]
    faces: tuple[tuple[int, int], ...]
    dice_labels: tuple[str, ...]
    lines: tuple[str, ...]

    @property
    def fates(self) -> tuple[ActionFate, ...]:
        return tuple(f for p in self.pairings for f in p.fates)

    @property
    def all_effects(self) -> tuple[Effect, ...]:
        return (*(e for p in self.pairings for e in p.effects), *self.effects)

    @property
    def face_values(self) -> tuple[int, ...]:
        return tuple(f for _, f in self.faces)

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "pairings": [p.to_dict() for p in self.pairings],
                "effects": [e.to_dict() for e in self.effects],
                "faces": [list(f) for f in self.faces], "dice_labels": list(self.dice_labels),
                "lines": list(self.lines)}


def render_lines(round_no: int, before: Fight, after: Fight,
                 pairings: tuple[PairingReport, ...], effects: tuple[Effect, ...]) -> tuple[str, ...]:
    """Plain-text lines for the round, in order (ASCII only)."""
    name = {f.id: f.name for f in before.fighters}
    out = [f"Round {round_no}"]
    for f in before.fighters:
        if f.controlled_by and f.in_fight:
            out.append(f"{f.name} is under {name.get(f.controlled_by, f.controlled_by)}'s "
                       "control this round: the controller may move him (S0 §2.2 Control)")
    for p in pairings:
        c = p.contest
        out.append(f"{name[p.a]} vs {name[p.b]}: opposed test (S0 §4)")
        out += [f"  {ln}" for ln in c.lines]
        for fate in p.fates:
            out.append("  " + _fate_line(fate, name))
        # The other effects repeat a fate line; the totals close the report.
        for e in p.effects:
            if e.kind in (EffectKind.SAVE, EffectKind.RELEASE):
                out.append(f"  -> {e.text} ({e.rule})")
    for e in effects:
        out.append(f"-> {e.text} ({e.rule})")
    out.append("After the round:")
    for f in after.fighters:
        state = "out" if f.out else "disengaged" if f.disengaged else "in the fight"
        kept = f" (+{f.ap_retained} kept)" if f.ap_retained else ""
        extra = []
        if f.controlled_by:
            extra.append(f"controlled by {name.get(f.controlled_by, f.controlled_by)}")
        if f.feint:
            extra.append("feint " + ", ".join(f"+{b} vs {name.get(o, o)}" for o, b in f.feint))
        tail = ("; " + "; ".join(extra)) if extra else ""
        out.append(f"  {f.name}: AP {f.ap}{kept} -> pool {f.pool}, K {f.k_points}, {state}{tail}")
    return tuple(out)


def _fate_line(f: ActionFate, name: dict[str, str]) -> str:
    who = f"{name.get(f.unit.owner, f.unit.owner)}'s {f.unit.label}"
    if f.outcome is Outcome.CANCELLED:
        return f"{who}: CANCELLED, {f.effect} ({f.rule})"
    if f.outcome is Outcome.EFFECT:
        return f"{who}: {f.effect} ({f.rule})"
    return f"{who}: no effect{', ' + f.effect if f.effect else ''} ({f.rule})"
