"""The full history of a fight or an air battle, round by round / turn by
turn, read from the one event log (``store/events.py``), as plain text or
Markdown, and written to a file::

    history = history_of(db, LogRef.fight(fight_id))   # or battle_history(db, battle_id)
    path = export_history(history, folder, "markdown")
    dropped = undo_round(db, fight_id, expect_seq=seq); redo_round(db, fight_id, dropped, …)

A fight's history walks its log through the close-combat rules one event
at a time (``rules/cqc/log.apply``: never rolls, the logged faces are the
dice), so each round shows the order of combat the rules computed (S0
§Close combat 1), the cards once revealed (S0 §3; a card handed in but not
yet revealed stays masked here too), the dice (S0 §4) and the round report
(S0 §5-6, ``RoundReport.lines``). A battle's history is its events' own
``log`` lines (``rules/air/battle.py``: what the GM read when it happened),
one section per turn (R-1).

Also the small helper the close-combat screen uses to keep each fighter's
Attack weapon from round to round: ``last_weapons``.

Plain values, no Textual; this module loads no SQLModel.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ka_tui.rules.cqc import CqcCard, Fight
from ka_tui.rules.cqc import log as cqc_log
from ka_tui.store import events as ev
from ka_tui.store.errors import NotFound, StoreError
from ka_tui.store.events import LogKind, LogRef
from ka_tui.store.rows_to_rules import fight_items

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

Format = Literal["text", "markdown"]
SUFFIX: Mapping[str, str] = {"text": ".txt", "markdown": ".md"}


@dataclass(frozen=True)
class Section:
    """One round (fight) or turn (battle), or the start / the end."""

    title: str
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class History:
    kind: LogKind
    id: int
    name: str
    status: str
    sections: tuple[Section, ...] = field(default_factory=tuple)

    @property
    def title(self) -> str:
        what = "Fight" if self.kind is LogKind.FIGHT else "Battle"
        return f"{what} #{self.id}: {self.name} ({self.status})"

    def text(self) -> str:
        """Plain text: a title, then each section under its underlined title."""
        out = [self.title, "=" * len(self.title)]
        for s in self.sections:
            out += ["", s.title, "-" * len(s.title), *s.lines]
        return "\n".join(out) + "\n"

    def markdown(self) -> str:
        """Markdown: ``#`` title, ``##`` per section, the lines as a code block
        (they are aligned text, kept as the GM read them)."""
        out = [f"# {self.title}"]
        for s in self.sections:
            out += ["", f"## {s.title}", ""]
            if s.lines:
                out += ["```", *s.lines, "```"]
        return "\n".join(out) + "\n"

    def render(self, fmt: Format) -> str:
        return self.markdown() if fmt == "markdown" else self.text()

    def file_name(self, fmt: Format) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", self.name.casefold()).strip("-")[:40] or "log"
        return f"{self.kind.value}-{self.id}-{slug}{SUFFIX[fmt]}"


# ------------------------------------------------------------------ fights

def _card_text(card: CqcCard, fight: Fight) -> str:
    me, opp = fight.fighter(card.owner), fight.fighter(card.against)
    return f"  {me.name} vs {opp.name}: {card.summary()}"


def _fighter_line(f: Any) -> str:
    weapons = ", ".join(f"{w.name} (damage {w.damage})" for w in f.weapons) or "unarmed"
    return (f"  {f.name}: AP {f.ap_max}, K {f.k_points}, Close Combat {f.cc_number}, "
            f"Strength {f.strength}; {weapons}")


def fight_sections(items: Sequence[tuple[str, Mapping[str, Any]]],
                   names: Mapping[int, str] | None = None) -> tuple[Section, ...]:
    """A fight's log ``(kind, payload)`` as sections: the start, each round,
    the end; a damaged log stops at its first bad event, saying so."""
    K = cqc_log.FightEventKind
    sections: list[Section] = []
    rounds: dict[int, list[str]] = {}
    hidden: dict[int, list[str]] = {}
    progress: cqc_log.FightProgress | None = None

    def round_lines(n: int) -> list[str]:
        return rounds.setdefault(n, [])

    for i, (kind, payload) in enumerate(items):
        try:
            after = cqc_log.apply(progress, kind, payload, index=i)
        except cqc_log.FightLogError as error:
            where = round_lines(progress.fight.round) if progress is not None else None
            note = f"(the log cannot be read from here: {error.detail or error})"
            if where is None:
                sections.append(Section("Start", (note,)))
            else:
                where.append(note)
            break
        if progress is None:
            start = after.start
            lines = ["Fighters (S0 §Close combat):", *(_fighter_line(f) for f in start.fighters),
                     "Pairs:"]
            lines += [f"  {start.fighter(p.a).name} vs {start.fighter(p.b).name}"
                      for p in start.pairings]
            sections.append(Section("Start", tuple(lines)))
        elif kind in (K.INITIATIVE, K.REORDER):
            assert after.initiative is not None
            how = "typed from the table" if payload.get("typed") else "rolled by ka-tui"
            lines = round_lines(after.fight.round)
            faces = " ".join(str(f) for _, f in payload.get("faces", ()))
            lines.append(f"Order of combat ({how}: {faces}; S0 §Close combat 1):")
            lines += [f"  {ln.strip()}" for ln in after.initiative.lines[1:]]
        elif kind == K.CARD:
            n = int(payload.get("round", after.fight.round))
            owner = after.fight.fighter(str(payload["owner"])).name
            hidden.setdefault(n, []).append(f"  {owner}: card handed in (hidden until the reveal)")
        elif kind == K.REVEALED:
            n = after.fight.round
            hidden.pop(n, None)
            lines = round_lines(n)
            lines.append("Cards revealed (S0 §Close combat 3):")
            lines += [_card_text(c, after.fight) for c in after.round_cards]
        elif kind == K.DICE:
            assert after.rolled is not None
            how = "typed from the table" if payload.get("typed") else "rolled by ka-tui"
            lines = round_lines(after.fight.round)
            faces = " ".join(str(f) for _, f in after.rolled.faces)
            lines.append(f"Dice ({how}, S0 §Close combat 4): {faces}")
            lines += [ln for ln in after.rolled.lines if not ln.startswith("Round ")]
        elif kind == K.RESOLVED:
            n = progress.fight.round
            round_lines(n).append(f"Round {n} resolved (S0 §Close combat 6).")
        elif kind == K.ENDED:
            who = names or {}
            out = [f"  {who.get(int(cid), 'character ' + str(cid))}: K-points now {k}"
                   for cid, k in payload.get("k_points", {}).items()]
            out += [f"  {name} goes to {who.get(int(owner), 'character ' + str(owner))}"
                    for _, owner, name in payload.get("weapon_moves", [])]
            sections.append(Section("End: the outcome written to the roster",
                                    tuple(out or ["  nothing changes on the roster"])))
            progress = after
            continue
        progress = after
    ended = sections[-1:] if sections and sections[-1].title.startswith("End") else []
    body = sections[:len(sections) - len(ended)]
    for n in sorted(set(rounds) | set(hidden)):
        body.append(Section(f"Round {n}", tuple(rounds.get(n, []) + hidden.get(n, []))))
    if progress is not None and not progress.ended and not ended:
        state = "over, not yet ended" if progress.over else f"in progress, step {progress.step}"
        body.append(Section("Now", (f"  the fight is {state}",)))
    return tuple(body + ended)


def fight_history(db: CampaignDB, fight_id: int) -> History:
    """Every round of a fight, from its log (one read)."""
    head = next((h for h in ev.heads(db, LogKind.FIGHT) if h.id == fight_id), None)
    if head is None:
        raise NotFound(f"no fight with id {fight_id} in this campaign")
    items = fight_items(ev.events(db, LogRef.fight(fight_id)))
    names: dict[int, str] = {}
    if items and items[0][0] == cqc_log.FightEventKind.STARTED:
        start = items[0][1]
        try:
            fight = Fight.from_dict(start["fight"])
            names = {int(cid): fight.fighter(str(fid)).name
                     for fid, cid in start.get("characters", {}).items()}
        except (KeyError, TypeError, ValueError):
            names = {}
    return History(LogKind.FIGHT, head.id, head.name, head.status, fight_sections(items, names))


def last_weapons(db: CampaignDB, fight_id: int) -> dict[str, str | None]:
    """Each fighter's Attack weapon on his last card with an Attack: the next
    round's card starts with it (None: unarmed)."""
    out: dict[str, str | None] = {}
    for e in ev.events(db, LogRef.fight(fight_id)):
        if e.kind == cqc_log.FightEventKind.CARD:
            attacking = [c for c in e.payload.get("cards") or []
                         if any(line[0] == "attack" for line in c.get("lines", []))]
            if attacking:  # a card without an Attack names no weapon: the choice stands
                out[str(e.payload.get("owner"))] = attacking[0].get("weapon")
    return out


# ----------------------------------------------------------------- battles

def battle_sections(events: Sequence[Mapping[str, Any]]) -> tuple[Section, ...]:
    """A battle's rules events (``rules/air/battle.py``) as sections: the
    start, one per turn (R-1), the end; each event's own ``log`` lines."""
    sections: list[Section] = []
    title, lines = "Start", list[str]()
    turn = 0
    for e in events:
        kind = str(e.get("kind", ""))
        log = [str(x) for x in e.get("log") or []]
        if kind == "turn_started":
            sections.append(Section(title, tuple(lines)))
            turn += 1
            title, lines = f"Turn {turn}", []
        elif kind == "battle_ended":
            sections.append(Section(title, tuple(lines)))
            title, lines = "End: the outcome written to the campaign", []
        head = _battle_head(kind, e.get("data") or {})
        faces = e.get("faces") or []
        dice = f" [dice {' '.join(str(f) for _, f in faces)}]" if faces else ""
        if head and (dice or not log or kind != "battle_started"):
            lines.append(f"{head}{dice}")
        lines += [f"  {x}" for x in log]
    sections.append(Section(title, tuple(lines)))
    return tuple(s for s in sections if s.lines or s.title != "Start")


def _battle_head(kind: str, data: Mapping[str, Any]) -> str:
    if kind == "battle_started":
        units = data.get("units") or []
        return f"Battle started with {len(units)} aircraft"
    if kind == "move_committed":
        return f"{data.get('unit')} moves" + (" (evasive)" if data.get("evasive") else "")
    if kind == "shot_resolved":
        return f"{data.get('shooter')} shoots at {data.get('target')}"
    if kind == "ram_resolved":
        return f"{data.get('attacker')} rams {data.get('target')}"
    if kind == "phase_ended":
        return f"{str(data.get('phase', '')).capitalize()} phase ends"
    if kind == "turn_started":
        return "Turn starts (R-1.1 initiative)"
    return ""


def battle_history(db: CampaignDB, battle_id: int) -> History:
    """Every turn of an air battle, from its log (one read)."""
    from ka_tui.store.battles import events_of

    head = next((h for h in ev.heads(db, LogKind.BATTLE) if h.id == battle_id), None)
    if head is None:
        raise NotFound(f"no battle with id {battle_id} in this campaign")
    return History(LogKind.BATTLE, head.id, head.name, head.status,
                   battle_sections(events_of(db, battle_id)))


def history_of(db: CampaignDB, log: LogRef) -> History:
    return fight_history(db, log.id) if log.kind is LogKind.FIGHT else battle_history(db, log.id)


# ------------------------------------------------------------------ export

def export_history(history: History, folder: Path, fmt: Format) -> Path:
    """Write the history as text or Markdown into ``folder`` (the campaign's
    folder); an existing file of that name is replaced, atomically, and it is
    0600 like an export. Returns the path."""
    from ka_tui.store.files import write_text_atomic

    path = Path(folder) / history.file_name(fmt)
    try:
        write_text_atomic(path, history.render(fmt))
    except OSError as e:
        raise StoreError(f"cannot write {path}: {e.strerror}") from None
    return path


# ----------------------------------------------------- undo with a redo

def undo_round(db: CampaignDB, fight_id: int, *, expect_seq: int | None) -> list[ev.LogEvent]:
    """``fights.undo_last_round`` that hands back the dropped events, oldest
    first (the screen keeps them to offer a redo). One
    transaction: the events read are the events dropped."""
    from ka_tui.store import fights

    with db.batch():
        before = ev.events(db, LogRef.fight(fight_id))
        n = fights.undo_last_round(db, fight_id, expect_seq=expect_seq)
    return before[len(before) - n:] if n else []


def redo_round(db: CampaignDB, fight_id: int, dropped: Sequence[ev.LogEvent], *,
               expect_seq: int | None) -> int:
    """Put back the events an undo dropped, in one transaction, each checked
    by the fight's rules as when first played; ``StaleLog`` when the log moved
    since the undo (a redo is only offered right after it). Returns the last seq."""
    seq = expect_seq
    with db.batch():
        for e in dropped:
            seq = ev.append(db, LogRef.fight(fight_id), ev.LogEvent(e.kind, e.payload),
                            seq).seq
    return int(seq or 0)
