"""What the close-combat screen shows, as styled lines built from the
engine's result objects (``RoundReport``, ``RoundOdds``, ``Scenario``,
``InitiativeResult``). Presentation only: no rule is decided here.

Every line reads without colour: winners, cancellations and failures are
spelled out (``WINS``, ``CANCELLED``, ``no effect``).
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content

from ka_tui.rules.cqc import (
    ActionFate, CqcCard, EffectKind, Fight, InitiativeResult, Outcome, RoundOdds, RoundReport,
    Scenario,
)
from ka_tui.rules.core.odds import percent
from ka_tui.rules.core.skills import pool_text

STEPS = ("Order", "Plan", "Reveal", "Roll", "Resolve", "Damage")


def step_bar(current: int, *, ascii_glyphs: bool = False) -> Content:
    """``1 Order · 2 Plan · [3 Reveal] · …`` with the current step marked
    both by brackets and by reverse video (16 colours, NO_COLOR)."""
    dot = " - " if ascii_glyphs else " · "
    parts: list[Content | str] = []
    for i, name in enumerate(STEPS, 1):
        if i > 1:
            parts.append(Content(dot).stylize("$text-muted"))
        if i == current:
            parts.append(Content(f"[{i} {name}]").stylize("bold reverse $accent"))
        elif i < current:
            parts.append(Content(f"{i} {name}"))
        else:
            parts.append(Content(f"{i} {name}").stylize("$text-muted"))
    return Content.assemble(*parts)


def short_names(fight: Fight) -> dict[str, str]:
    """Each fighter's first name where no other fighter shares it, else his
    full name (never "Billy vs Billy")."""
    first = {f.id: (f.name.split() or [f.name])[0] for f in fight.fighters}
    seen: dict[str, int] = {}
    for name in first.values():
        seen[name] = seen.get(name, 0) + 1
    return {f.id: first[f.id] if seen[first[f.id]] == 1 else f.name for f in fight.fighters}


# the fighters' strip at 80 columns: rank, name, AP, K, opponents and state
# ("card entered ✓") leave the name 24 columns of the 78
STRIP_NAME_WIDTH = 24


def cut(text: str, width: int, ascii_glyphs: bool = False) -> str:
    """``text`` in at most ``width`` columns, a mark where it was cut (a long
    name never pushes the columns after it onto a second line)."""
    if len(text) <= width:
        return text
    return text[:width - 1] + ("~" if ascii_glyphs else "…")


def fighter_lines(fight: Fight, *, entered: Sequence[str] = (), waiting: str | None = None,
                  show_cards: bool = False, ascii_glyphs: bool = False) -> list[Content]:
    """One line per fighter in the order of combat: AP (pool), K-points,
    opponents, status; during planning whether his card is in (never what
    is on it)."""
    names = {f.id: cut(f.name, STRIP_NAME_WIDTH, ascii_glyphs) for f in fight.fighters}
    short = short_names(fight)
    width = max(len(n) for n in names.values())
    order = list(fight.order) or [f.id for f in fight.fighters]
    tick = "ok" if ascii_glyphs else "✓"
    out = []
    for rank, fid in enumerate(order, 1):
        f = fight.fighter(fid)
        opps = ", ".join(short[o] for o in fight.opponents_of(fid)) or "-"
        kept = f"+{f.ap_retained}" if f.ap_retained else ""
        state: Content | str = ""
        if f.out:
            state = Content("OUT").stylize("bold $error")
        elif f.disengaged:
            state = Content("disengaged").stylize("$warning")
        elif fid in entered:
            state = Content(f"card entered {tick}").stylize("$success")
        elif fid == waiting:
            state = Content("entering card…" if not ascii_glyphs else "entering card...") \
                .stylize("bold $accent")
        elif show_cards:
            state = Content("waiting").stylize("$text-muted")
        extra = []
        if f.controlled_by:
            extra.append(f"held by {short[f.controlled_by]}")
        if f.feint:
            extra.append("feint " + " ".join(f"+{b}" for _, b in f.feint))
        out.append(Content.assemble(
            Content(f"{rank}. ").stylize("$text-muted"),
            Content(f"{names[fid]:<{width}}").stylize("bold"),
            f"  AP {f.ap}/{f.ap_max}{kept:<3} K {f.k_points:<3}",
            Content(f" vs {opps:<14} ").stylize("$text-muted"),
            state,
            Content(("  " + "; ".join(extra)) if extra else "").stylize("$text-muted")))
    return out


def initiative_lines(result: InitiativeResult, fight: Fight) -> list[Content]:
    """S0 §Close combat 1: each fighter's test and the order of combat."""
    out = [Content(result.lines[0]).stylize("bold")]
    for roll in result.rolls:
        name = fight.fighter(roll.fighter).name
        faces = " ".join(str(x) for x in roll.faces)
        verdict = ("CRITICAL FAIL" if roll.crit_fail else
                   f"{roll.successes} success{'es' if roll.successes != 1 else ''}"
                   + ("" if roll.passed else ", failed"))
        off = f", roll-off {' '.join(map(str, roll.rolloff))}" if roll.rolloff else ""
        out.append(Content(f"  {name}: {roll.skill} {roll.number} "
                           f"{pool_text(roll.pool)} rolled {faces}: {verdict}{off}"))
    out += [Content(line) for line in result.lines[1:] if not line.startswith("  tie")]
    return out


def revealed_lines(fight: Fight, cards: Sequence[CqcCard]) -> list[Content]:
    """S0 §3: the cards, in the order of combat."""
    out = [Content("Cards revealed (S0 §Close combat 3, in the order of combat)").stylize("bold")]
    for c in cards:
        me, opp = fight.fighter(c.owner), fight.fighter(c.against)
        out.append(Content.assemble(
            Content(f"  {me.name}").stylize("bold"), Content(f" vs {opp.name}: ")
            .stylize("$text-muted"), c.summary()))
    return out


def odds_lines(fight: Fight, odds: Sequence[RoundOdds]) -> list[Content]:
    """S0 §4: the exact chance of each way the opposed round goes."""
    out = [Content("Odds of winning the round (S0 §4, exact)").stylize("bold")]
    short = short_names(fight)
    for o in odds:
        a, b = fight.fighter(o.a).name, fight.fighter(o.b).name
        out.append(Content.assemble(
            "  ", Content(f"{a} {percent(o.p_a_wins)}").stylize("bold"),
            Content(" vs ").stylize("$text-muted"),
            Content(f"{b} {percent(o.p_b_wins)}").stylize("bold"),
            Content(f" · stand-off {percent(o.p_standoff)}").stylize("$text-muted")))
        out.append(Content(f"    critical fail (a 1 not negated): {short[o.a]} "
                           f"{percent(o.p_a_crit_fail)}, {short[o.b]} "
                           f"{percent(o.p_b_crit_fail)}").stylize("$text-muted"))
        out += passive_lines(o.passives, o.passives_left_out)
    return out


def passive_lines(passives: Sequence[str], left_out: Sequence[str] = ()) -> list[Content]:
    """S0 §Skills, Passive: each Passive skill that counts in this round, and
    each one a house rule leaves out (named, so the GM sees it was weighed)."""
    return [Content(f"    {line}").stylize("$text-muted") for line in (*passives, *left_out)]


def preview_lines(fight: Fight, a: str, b: str, scenarios: Sequence[Scenario]) -> list[Content]:
    """What the revealed cards do under each way the round can end (no dice)."""
    out = [Content(f"If the round goes so: {fight.fighter(a).name} vs "
                   f"{fight.fighter(b).name}").stylize("bold")]
    for s in scenarios:
        chance = "" if s.chance is None else f" ({percent(s.chance)})"
        out.append(Content.assemble(Content(f"  {s.label}{chance}: ").stylize("$text-muted"),
                                    s.summary))
    return out


def fate_line(fate: ActionFate, names: dict[str, str]) -> Content:
    who = f"{names.get(fate.unit.owner, fate.unit.owner)}'s {fate.unit.label}"
    rule = Content(f" ({fate.rule})").stylize("$text-muted")
    if fate.outcome is Outcome.CANCELLED:
        return Content.assemble("  ", Content(who).stylize("bold"), ": ",
                                Content("CANCELLED").stylize("bold $warning"),
                                f", {fate.effect}", rule)
    if fate.outcome is Outcome.EFFECT:
        return Content.assemble("  ", Content(who).stylize("bold"), ": ",
                                Content(fate.effect).stylize("$success"), rule)
    tail = f", {fate.effect}" if fate.effect else ""
    return Content.assemble("  ", Content(who).stylize("bold"), ": ",
                            Content("no effect").stylize("$text-muted"), tail, rule)


def resolve_lines(fight: Fight, report: RoundReport, typed: bool, *,
                  detail: bool = False) -> list[Content]:
    """S0 steps 4-5: each pairing's opposed test and every action's fate;
    ``detail`` adds the rules core's die-by-die explanation."""
    names = {f.id: f.name for f in fight.fighters}
    short = short_names(fight)
    source = "dice typed from the table" if typed else "dice rolled by ka-tui"
    out = [Content(f"Round {report.round} · {source}").stylize("bold")]
    for p in report.pairings:
        c = p.contest
        winner = names[c.winner] if c.winner else None
        head = f"{names[p.a]} vs {names[p.b]} "
        verdict = (Content(f" {winner} WINS ").stylize("bold reverse $accent") if winner
                   else Content(" NOBODY WINS (stand-off) ").stylize("bold $warning"))
        faces = " · ".join(f"{short[x]} {' '.join(map(str, fs))}"
                           for x, fs in zip((c.a, c.b), c.faces))
        out.append(Content.assemble(Content(head).stylize("bold"), verdict,
                                    f" {c.successes[0]} vs {c.successes[1]} successes"))
        out.append(Content(f"  faces {faces}; {c.rule}").stylize("$text-muted"))
        out += passive_lines(c.passives, c.passives_left_out)
        if detail:
            out += [Content(f"    {line}").stylize("$text-muted") for line in c.lines]
        out += [fate_line(f, names) for f in p.fates]
    return out


def damage_lines(before: Fight, after: Fight, report: RoundReport) -> list[Content]:
    """S0 step 6: saves, AP and K-points lost, who is out, and the state after."""
    out = [Content(f"Round {report.round}: damage and what next (S0 §Close combat 6)")
           .stylize("bold")]
    shown = (EffectKind.AP_LOSS, EffectKind.SAVE, EffectKind.K_LOSS, EffectKind.DISARM,
             EffectKind.CONTROL, EffectKind.RELEASE, EffectKind.DISENGAGE, EffectKind.OUT,
             EffectKind.RETAIN, EffectKind.FEINT)
    effects = [e for e in report.all_effects if e.kind in shown]
    if not effects:
        out.append(Content("  nothing happens").stylize("$text-muted"))
    for e in effects:
        style = "bold $error" if e.kind in (EffectKind.K_LOSS, EffectKind.OUT) else ""
        out.append(Content.assemble("  ", Content(e.text).stylize(style),
                                    Content(f" ({e.rule})").stylize("$text-muted")))
    out.append(Content("After the round").stylize("bold"))
    for f in after.fighters:
        b = before.fighter(f.id)
        state = ("OUT" if f.out else "disengaged" if f.disengaged
                 else "fighting" if after.opponents_of(f.id) else "stands, no opponent left")
        kept = f" +{f.ap_retained} kept" if f.ap_retained else ""
        out.append(Content(f"  {f.name}: AP {b.ap}->{f.ap}{kept} (pool {f.pool}), "
                           f"K {b.k_points}->{f.k_points}, {state}"))
    for p in after.pairings:
        if p.ended and not before_ended(before, p.a, p.b):
            out.append(Content(f"  {after.fighter(p.a).name} vs {after.fighter(p.b).name} "
                               f"ends: {p.ended}").stylize("bold $warning"))
    return out


def before_ended(fight: Fight, a: str, b: str) -> bool:
    return any(p.ended for p in fight.pairings if {p.a, p.b} == {a, b})
