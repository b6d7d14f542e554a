"""The table's dice in words: each roll a step asks for, named, whose it is,
its target and odds, the faces typed for it, the one being typed marked
(``rules/air/table_dice.DiceDue``)."""

from __future__ import annotations

from ka_tui.rules.air.ramming import ram_damage, ram_problems
from ka_tui.rules.air.step_checks import expected_rolls
from ka_tui.rules.air.table_dice import DiceDue, DueRoll
from ka_tui.rules.core.dice import RollAsk
from ka_tui.screens.air.runner import Runner
from ka_tui.screens.air.views import pct

DONE, NOW, LATER = "✓", "▸", " "
MOST = 10   # rolls listed at once (the detail pane is 12 lines tall at most)


def ask_text(ask: RollAsk) -> str:
    """``Spitfire KA-B stall (R-3.2): 2d6 vs 4 — 92%``; ``… firepower: 5d6, 4+ a hit``."""
    text = f"{ask.what}: {ask.count}d{ask.sides}"
    if ask.target is not None:
        text += f" vs {ask.target.value} — {pct(ask.target.probability())}"
    if ask.note:
        text += f", {ask.note}"
    return text


def _faces(roll: DueRoll) -> str:
    typed = [str(f) for f in roll.faces]
    return " ".join(typed + ["_"] * max(0, roll.ask.count - len(typed)))


def due_lines(label: str, due: DiceDue) -> list[str]:
    """The list the GM fills in order: done, the one being typed, the ones to come."""
    rolls = list(due.rolls)
    lines = [f"Table dice for: {label}"]
    current = due.current
    shown = rolls[-MOST:]
    if len(rolls) > len(shown):
        lines.append(f"  ({len(rolls) - len(shown)} roll(s) filled above)")
    for r in shown:
        if r is current:
            lines.append(f" {NOW} {ask_text(r.ask)}: {_faces(r)}")
        else:   # filled: its name and faces, so the one being typed stays in view
            lines.append(f" {DONE} {r.ask.what}: {_faces(r)}")
    room = max(1, MOST - len(shown))
    for ask in due.later[:room]:
        lines.append(f" {LATER} {ask_text(ask)}")
    if len(due.later) > room:
        lines.append(f"   … {len(due.later) - room} more")
    if due.enough:
        lines.append("   enough faces: enter records the step")
    return lines


def due_status(due: DiceDue) -> str:
    """One line: the roll the next face goes to, which of its dice, and the
    roll's target and odds (``… stall (R-3.2): die 2 of 2, a d6 — 2d6 vs 4 — 92%``)."""
    current = due.current
    if current is None:
        return "enough faces: enter records the step"
    n = len(current.faces) + 1
    of = f"die {n} of {current.ask.count}, " if current.ask.count > 1 else ""
    whole = ask_text(current.ask).removeprefix(f"{current.ask.what}: ")
    return f"{NOW} {current.ask.what}: {of}a d{due.sides} — {whole}"


def ram_preview(runner: Runner, uid: str, target_id: str) -> list[str]:
    """R-7 before anything is rolled: the target number with its modifiers
    and odds, the hits each side takes on a success (RULES-NOTES D), and
    every roll the ram asks for, named for the table's dice."""
    a, b = runner.unit(uid), runner.unit(target_id)
    if a is None or b is None:
        return []
    lines = [runner.ram_line(uid, target_id)]
    if ram_problems(a, b, runner.options):
        return lines
    to_a, to_b = ram_damage(a, b, runner.options)
    lines.append(f"on a success: {b.id} takes {to_b} hit(s), {a.id} {to_a} (RULES-NOTES D)")
    data = {"attacker": a.id, "target": b.id}
    lines.append("rolls:")
    lines += [f"  {ask_text(ask)}" for ask in
              expected_rolls(runner.state, "ram_resolved", data, runner.battle_map,
                             runner.options)]
    lines.append("R again or g: roll it · t: the table's dice · cursor: back to shooting")
    return lines
