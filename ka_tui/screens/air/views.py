"""Words for the air-battle screen: the phase bar, the plan preview, the shot
odds and the results of a step, all from the engine's result objects."""

from __future__ import annotations

from fractions import Fraction

from ka_tui.rules.air.battle import Event
from ka_tui.rules.air.move_plan import PlanCheck
from ka_tui.rules.air.shot_odds import ShotOdds
from ka_tui.rules.air.turn import BattleState, NextStep, Phase
from ka_tui.rules.air.units import AirUnit
from ka_tui.screens.air.runner import PHASES
from ka_tui.widgets.hex_map import MapAircraft


def pct(p: Fraction | float) -> str:
    v = float(p) * 100
    return "<1%" if 0 < v < 1 else ">99%" if 99 < v < 100 else f"{v:.0f}%"


def phase_bar(turn: int, current: str, *, ascii: bool = False) -> str:
    arrow = " > " if ascii else " → "
    names = [f"[{label}]" if key == current else label for key, label in PHASES]
    return f"Turn {max(turn, 1) if current != 'initiative' else turn + 1}: " + arrow.join(names)


def map_aircraft(state: BattleState, nxt: NextStep) -> list[MapAircraft]:
    """The aircraft on the map in ``tab`` order: those that act now first (in
    the order the next-step line names them), then the rest of the side that
    acts, then the other sides; the ones out of the battle are not shown."""
    acting = list(nxt.units)
    side = next((u.side for u in state.units if u.id in acting), nxt.side)

    def rank(u: AirUnit) -> tuple[int, int]:
        if u.id in acting:
            return (0, acting.index(u.id))
        return (1 if u.side == side else 2, 0)

    shown = [u for u in state.units if not (u.destroyed or u.crashed)]
    ordered = sorted(shown, key=rank)   # stable: the battle's order within a rank
    return [MapAircraft(u.id, u.hex, u.facing, u.side, u.altitude, u.speed, u.id[:4])
            for u in ordered]


def tab_keys(state: BattleState, aircraft: list[MapAircraft],
             acting: tuple[str, ...] = ()) -> list[str] | None:
    """What ``tab`` goes through: in the movement and the shooting, the side
    acting now only (R-1.2: one side moves and shoots, then the other), and of
    it the aircraft that may still act in this step (``acting``: those still
    to move, or to shoot) while there are any, in ``map_aircraft``'s order;
    between them (heat, end, a new turn) every aircraft (None)."""
    side = state.active_side
    if state.phase not in (Phase.MOVEMENT, Phase.SHOOTING) or side is None:
        return None
    ours = [a.key for a in aircraft if a.side == side]
    return [k for k in ours if k in acting] or ours


def plan_lines(uid: str, text: str, evasive: bool, check: PlanCheck,
               warnings: list[str] | None = None) -> list[str]:
    """The plan, its costs, what it leaves for the next turn (``warnings``) and
    every check it needs with its breakdown and odds, before anything is
    rolled (``movement.validate_plan``)."""
    head = f"{uid} plan: {text or '(empty: f forward, [ ] turn, p type)'}"
    if evasive:
        head += " + evasive (R-8)"
    lines = [head, check.summary(), *(warnings or ())]
    for c in check.checks:
        p = c.probability
        lines.append(f"- {c.what}: {c.target.render()} = {pct(p)} ({p.numerator}/"
                     f"{p.denominator}); fails: {c.on_fail}")
    return lines


def shot_lines(shooter: str, target: str, odds: ShotOdds, to_hit: str) -> list[str]:
    """A target's to-hit number and the exact odds of hit, critical, destroyed."""
    return [f"{shooter} at {target}: to hit {to_hit}",
            f"hit {pct(odds.hit)} · a critical {pct(odds.critical)} · "
            f"destroyed {pct(odds.destroy)} · hull hits {float(odds.expected_hits):.2f} avg",
            "g: shoot · R: ram instead · t: table dice · x: end the shooting"]


def event_lines(event: Event) -> list[str]:
    """What a step did: its log (every roll with its target breakdown)."""
    faces = event.get("faces", [])
    dice = " ".join(f"d{s}:{f}" for s, f in faces)
    lines = list(event.get("log", []))
    if dice:
        lines.append(f"dice: {dice}")
    return lines


def event_words(event: Event, most: int = 60) -> str:
    """A step in the GM's words, from the first line of its log
    (``Il-2 KA-D flies D F: …``, ``heat phase (R-1.4)``), not an internal count."""
    log = [str(line) for line in event.get("log", []) if str(line).strip("— ")]
    kind = str(event.get("kind", "step"))
    text = log[0].strip("— ") if log else kind.replace("_", " ")
    if kind == "turn_started":
        text = f"the start of {text} (initiative)"
    return text if len(text) <= most else text[:most - 1] + "…"


def log_lines(events: list[Event], text: str = "") -> list[str]:
    """The whole battle log, one block per event, filtered by every word of ``text``."""
    words = text.lower().split()
    out: list[str] = []
    for ev in events:
        for line in event_lines(ev):
            if all(w in line.lower() for w in words):
                out.append(f"{ev.get('seq', 0):>3} {line}")
    return out
