"""Close-combat fights kept as an append-only event log (DESIGN.md "Fights and
battles as a log of events"; S0 §Close combat, RULES-NOTES B).

Every step the GM takes is one event, written in its own transaction:

``fight_started``  the fighters' snapshot (from the roster), pairings, the
                   house rules the fight is played under, character/weapon ids
``initiative``     S0 step 1: the faces rolled (or typed) and the order
``order_rerolled`` S0 step 1 again at the start of a later round (house rule
                   ``cqc.initiative_reroll``): round, faces, order
``card_entered``   S0 step 2: one combatant's card(s) for a round
``cards_revealed`` S0 step 3
``dice_rolled``    S0 steps 4-6: every face of the round, in roll order
``round_resolved`` the round report and the state after (an audit copy: the
                   replay recomputes both from the faces)
``fight_ended``    the outcome written back to the characters (same transaction)

The replay and the checks are pure and live in ``rules/cqc/log.py``
(``replay``, ``accept``, ``FightProgress``, ``undo_from``, ``outcome_of``; names
re-exported here), so quitting mid-fight and starting again resumes exactly
where the last committed event left it. Every write goes through
``store/events.py``: it names the position it expects (``expect_seq``, the
``FightProgress.seq`` the screen shows) and is refused inside the write
transaction (``StaleLog``) if another window wrote meanwhile, or (``EventRefused``)
if the rules do not take it on the log as it is now. Undo drops the last
round's events in one transaction; on a damaged log it drops everything from
the first event that does not replay. This module only stores the engine's
inputs (cards, faces); roster rows become ``Fighter``s in ``rows_to_rules.py``
(``fighter_of``, ``FighterCandidate``, re-exported here).

The screen's calls::

    candidates, rules = load_candidates(db)      # every roster character, one read
    fight_id = start_fight(db, [(ann_id, bob_id)])
    progress = load_progress(db, fight_id)       # replayed; ``progress.seq`` to expect
    record_initiative(db, fight_id, result, typed, expect_seq=progress.seq)
    record_card(…); record_reveal(…); record_dice(…); record_resolved(…)
    undo_last_round(db, fight_id, expect_seq=progress.seq)
    outcome = finish_fight(db, fight_id, expect_seq=progress.seq)   # ONE transaction
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ka_tui.rules.core.options import HouseRules
from ka_tui.rules.cqc import CqcCard, Fight, InitiativeResult, RoundReport
from ka_tui.rules.cqc.log import (  # the pure fight log, re-exported for the store's callers
    ROUND_KINDS, FightEventKind, FightLogError, FightOutcome, FightProgress, FightStep,
    card_order, faces_of, outcome_of, progress_of, replay_prefix, undo_from,
)
from ka_tui.store import events as ev
from ka_tui.store.events import EventRefused, LogEvent, LogRef, StaleLog
from ka_tui.store.rows_to_rules import FighterCandidate, fight_items, fighter_of

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

__all__ = [
    "ROUND_KINDS", "EventRefused", "FightEventKind", "FightLogError", "FightOutcome",
    "FighterCandidate", "FightProgress", "FightStep", "StaleLog", "card_order",
    "faces_of", "fighter_of", "finish_fight", "load_candidates", "load_progress",
    "open_fights", "outcome_of", "progress_of", "record", "record_card", "record_dice",
    "record_initiative", "record_reorder", "record_resolved", "record_reveal", "start_fight",
    "undo_last_round", "undo_from",
]

STARTED = FightEventKind.STARTED
INITIATIVE = FightEventKind.INITIATIVE
REORDER = FightEventKind.REORDER  # a round's own order of combat
CARD = FightEventKind.CARD
REVEALED = FightEventKind.REVEALED
DICE = FightEventKind.DICE
RESOLVED = FightEventKind.RESOLVED
ENDED = FightEventKind.ENDED


# ------------------------------------------------------------ the database


def load_candidates(db: CampaignDB) -> tuple[list[FighterCandidate], HouseRules]:
    """Every roster character as a possible combatant (one read)."""
    from sqlmodel import select

    from ka_tui.store.campaign import house_rules
    from ka_tui.store.models import CampaignRow, CharacterRow, SkillRow, WeaponRow

    with db.read() as s:
        campaign = s.get(CampaignRow, 1)
        people = [c.model_dump() for c in s.exec(select(CharacterRow))]
        skills: dict[int, list[dict[str, Any]]] = {}
        for row in s.exec(select(SkillRow)):
            skills.setdefault(row.character_id, []).append(row.model_dump())
        weapons: dict[int, list[dict[str, Any]]] = {}
        for w in s.exec(select(WeaponRow)):
            weapons.setdefault(w.character_id, []).append(w.model_dump())
    rules = house_rules(campaign) if campaign is not None else HouseRules()
    people.sort(key=lambda c: str(c["name"]).casefold())
    return ([fighter_of(c, skills.get(c["id"], []), weapons.get(c["id"], []), rules)
             for c in people], rules)


def start_fight(db: CampaignDB, pairs: Sequence[tuple[int, int]], name: str | None = None) -> int:
    """A new fight between roster characters, paired as ``pairs`` (character
    ids; one may face several). The fight row and its ``fight_started`` event
    are one transaction. Returns the fight id."""
    from ka_tui.store.errors import ValidationError

    if not pairs:
        raise ValidationError("pairs", "pair at least two characters")
    candidates, rules = load_candidates(db)
    by_id = {c.id: c for c in candidates}
    ids: list[int] = []
    for a, b in pairs:
        for cid in (a, b):
            if cid not in by_id:
                raise ValidationError("pairs", f"no character with id {cid}")
            if by_id[cid].unable:
                raise ValidationError("pairs", f"{by_id[cid].name} cannot fight: "
                                               f"{by_id[cid].unable}")
            if cid not in ids:
                ids.append(cid)
    chosen = [by_id[i] for i in ids]
    fight = Fight.start([c.fighter for c in chosen], [(str(a), str(b)) for a, b in pairs])
    title = name or fight_title([c.name for c in chosen], len(pairs))
    payload = {"fight": fight.to_dict(), "rules": rules.to_dict(),
               "characters": {c.fid: c.id for c in chosen},
               "weapon_rows": {c.fid: [list(r) for r in c.weapon_rows] for c in chosen}}
    with db.batch():
        head = ev.new_log(db, ev.LogKind.FIGHT, title)
        ev.append(db, LogRef.fight(head.id), LogEvent(STARTED, payload), 0)
    return int(head.id)


def fight_title(names: Sequence[str], pairs: int) -> str:
    if len(names) == 2:
        return f"{names[0]} vs {names[1]}"
    return f"{names[0]} and {len(names) - 1} others ({pairs} pairings)"


def open_fights(db: CampaignDB) -> list[tuple[int, str, str]]:
    """(id, name, status) of every fight, newest first."""
    return [(f.id, f.name, f.status) for f in reversed(ev.heads(db, ev.LogKind.FIGHT))]


def load_progress(db: CampaignDB, fight_id: int) -> FightProgress:
    """Read a fight's log (one read) and replay it. A damaged log (one the
    rules cannot replay to its end) gives the state before its first bad
    event, with ``broken`` naming that event (``undo_last_round`` drops from
    it); ``FightLogError`` only when not even the start reads."""
    log = LogRef.fight(fight_id)
    name = next((f.name for f in ev.heads(db, ev.LogKind.FIGHT) if f.id == fight_id),
                f"Fight {fight_id}")
    stored = ev.events(db, log)
    progress, error = replay_prefix(fight_items(stored), fight_id=fight_id, name=name)
    if progress is None:
        assert error is not None
        raise error
    last = stored[-1].seq if stored else 0
    if error is None:
        return replace(progress, seq=last)
    bad = stored[error.index] if error.index is not None else stored[-1]
    return replace(progress, seq=last, broken_seq=bad.seq,
                   broken=f"event {bad.seq} ({bad.kind}) cannot be replayed: {error.detail}")


def record(db: CampaignDB, fight_id: int, kind: str, payload: Mapping[str, Any],
           expect_seq: int | None = None) -> LogEvent:
    """One event, one transaction, checked by the rules on the log as it is
    (``EventRefused``) and, given ``expect_seq``, refused if another window wrote
    since (``StaleLog``)."""
    return ev.append(db, LogRef.fight(fight_id), LogEvent(kind, dict(payload)), expect_seq)


def record_initiative(db: CampaignDB, fight_id: int, result: InitiativeResult, typed: bool, *,
                      expect_seq: int | None = None) -> None:
    record(db, fight_id, INITIATIVE, {"faces": [list(f) for f in result.faces],
                                      "order": list(result.order), "typed": typed},
           expect_seq)


def record_reorder(db: CampaignDB, fight_id: int, round_no: int, result: InitiativeResult,
                   typed: bool, *, expect_seq: int | None = None) -> None:
    """The order of combat rolled again at the start of ``round_no``
    (house rule ``cqc.initiative_reroll``; refused under ``once``, after a card
    of the round, or a second time in the round)."""
    record(db, fight_id, REORDER, {"round": round_no, "typed": typed,
                                   "faces": [list(f) for f in result.faces],
                                   "order": list(result.order)}, expect_seq)


def record_card(db: CampaignDB, fight_id: int, round_no: int, owner: str,
                cards: Sequence[CqcCard], *, expect_seq: int | None = None) -> None:
    record(db, fight_id, CARD, {"round": round_no, "owner": owner,
                                "cards": [c.to_dict() for c in cards]}, expect_seq)


def record_reveal(db: CampaignDB, fight_id: int, round_no: int, *,
                  expect_seq: int | None = None) -> None:
    record(db, fight_id, REVEALED, {"round": round_no}, expect_seq)


def record_dice(db: CampaignDB, fight_id: int, round_no: int, report: RoundReport,
                typed: bool, *, expect_seq: int | None = None) -> None:
    record(db, fight_id, DICE, {"round": round_no, "typed": typed,
                                "faces": [list(f) for f in report.faces],
                                "labels": list(report.dice_labels)}, expect_seq)


def record_resolved(db: CampaignDB, fight_id: int, report: RoundReport, after: Fight, *,
                    expect_seq: int | None = None) -> None:
    record(db, fight_id, RESOLVED, {"round": report.round, "report": report.to_dict(),
                                    "after": after.to_dict()}, expect_seq)


def _undo_point(done: Sequence[LogEvent]) -> int | None:
    """Where undo starts: the first event that does not replay, if any (a
    damaged log goes back to before it), else the last round (``undo_from``)."""
    if not done:
        return None
    _, error = replay_prefix(fight_items(done))
    if error is not None and error.index is not None:
        return done[error.index].seq
    return undo_from([(e.seq, e.kind, e.payload) for e in done])


def undo_last_round(db: CampaignDB, fight_id: int, *, expect_seq: int | None = None) -> int:
    """Drop the last round's events (``undo_from``), or on a damaged log every
    event from the first that does not replay, in one transaction; returns
    how many were dropped."""
    return len(ev.drop_where(db, LogRef.fight(fight_id), expect_seq, _undo_point))


def finish_fight(db: CampaignDB, fight_id: int, *, expect_seq: int | None = None) -> FightOutcome:
    """Write the outcome back to the characters, log ``fight_ended`` and mark
    the fight ended -- all in one transaction. Refused unless the fight is
    over and not yet ended."""
    from ka_tui.store import roster
    from ka_tui.store.errors import ValidationError

    with db.batch():
        progress = load_progress(db, fight_id)
        if expect_seq is not None and progress.seq != expect_seq:
            raise StaleLog(LogRef.fight(fight_id), expect_seq, progress.seq)
        if progress.ended:
            raise ValidationError("fight", "this fight has already ended")
        if progress.broken or not progress.over or progress.step != 6:
            raise ValidationError("fight", "the fight is not over yet")
        outcome = outcome_of(progress)
        for cid, k in outcome.k_points.items():
            roster.update_character(db, cid, k_points=max(0, k))
        for row_id, owner, _ in outcome.weapon_moves:
            _move_weapon(db, row_id, owner)
        record(db, fight_id, ENDED, outcome.to_dict(), progress.seq)
        ev.set_status(db, LogRef.fight(fight_id), "ended")
    return outcome


def _move_weapon(db: CampaignDB, row_id: int, owner: int) -> None:
    """A taken weapon joins the taker: his first free quick slot (else none),
    renamed ``X (taken)`` if he already has a weapon of that name."""
    from ka_tui.store import roster

    weapon = roster.get_weapon(db, row_id)
    mine = roster.list_weapons(db, owner)
    names = {w.name.casefold() for w in mine}
    name, n = weapon.name, 1
    while name.casefold() in names:
        name = f"{weapon.name} (taken{'' if n == 1 else f' {n}'})"
        n += 1
    used = {w.quick_slot for w in mine}
    slot = next((s for s in (1, 2, 3, 4) if s not in used), None)
    roster.update_weapon(db, row_id, character_id=owner, name=name, quick_slot=slot)
