"""Close-combat fights kept as an append-only event log (DESIGN.md "Fights and
battles as a log of events"; S0 §Close combat, RULES-NOTES B).

Every step the GM takes is one event, written in its own transaction:

``fight_started``  the fighters' snapshot (from the roster), pairings, the
                   house rules the fight is played under, character/weapon ids
``initiative``     S0 step 1: the faces rolled (or typed) and the order
``card_entered``   S0 step 2: one combatant's card(s) for a round
``cards_revealed`` S0 step 3
``dice_rolled``    S0 steps 4-6: every face of the round, in roll order
``round_resolved`` the round report and the state after (an audit copy: the
                   replay recomputes both from the faces)
``fight_ended``    the outcome written back to the characters (same transaction)

``progress_of(events)`` replays a log through the rules engine (pure: no
database), so quitting mid-fight and starting again resumes exactly where the
last committed event left it. Undo drops the last round's events in one
transaction. The rules engine decides everything; this module only stores
its inputs (cards, faces) and maps roster rows to ``Fighter``s.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ka_tui.rules.cqc import (
    CqcCard, Fight, Fighter, InitiativeResult, RoundReport, Weapon, initiative_order,
    resolve_round,
)
from ka_tui.rules.core.options import HouseRules, UntrainedCloseCombat
from ka_tui.rules.core.skills import Level, Skill, SkillKind, pool_of

CLOSE_COMBAT = "close combat"
COMBAT_INITIATIVE = "combat initiative"

STARTED = "fight_started"
INITIATIVE = "initiative"
CARD = "card_entered"
REVEALED = "cards_revealed"
DICE = "dice_rolled"
RESOLVED = "round_resolved"
ENDED = "fight_ended"
ROUND_KINDS = (CARD, REVEALED, DICE, RESOLVED)


class FightLogError(ValueError):
    """The stored log does not replay (a changed engine or a damaged file)."""


# ------------------------------------------------------------ roster -> fighters


@dataclass(frozen=True)
class Candidate:
    """A roster character as a possible combatant, with why he cannot fight."""

    id: int
    name: str
    fighter: Fighter
    weapon_rows: tuple[tuple[int, str], ...]
    skill_note: str
    unable: str = ""

    @property
    def fid(self) -> str:
        return self.fighter.id


def _skill(row: Mapping[str, Any]) -> Skill:
    kind = SkillKind(str(row["kind"]))
    if kind is SkillKind.PASSIVE:
        return Skill(str(row["name"]), kind, int(row["number"]))
    return Skill(str(row["name"]), kind, int(row["number"]), Level(str(row["level"] or "B")),
                 int(row.get("upgrades") or 0))


def fighter_of(character: Mapping[str, Any], skills: Sequence[Mapping[str, Any]],
               weapons: Sequence[Mapping[str, Any]], rules: HouseRules) -> Candidate:
    """A roster character as a ``Fighter`` (S0 §Close combat).

    Close Combat skill for step 4 (its pool from the rules core's ``pool_of``);
    without one, house rule ``cqc.untrained_close_combat`` (one d12 on Agility
    by default, as step 1 falls back to Agility). Combat Initiative for step 1
    when he has it. AP = the character's AP, K-points his current K-points;
    only quick-slot weapons can be used or taken (S0 §2.2 Disarm).
    """
    by_name = {str(s["name"]).casefold(): s for s in skills
               if str(s["kind"]) in ("active", "lore")}
    cc_row, ci_row = by_name.get(CLOSE_COMBAT), by_name.get(COMBAT_INITIATIVE)
    if cc_row is not None:
        cc = _skill(cc_row)
        cc_pool, cc_number, legendary = pool_of(cc), cc.number, bool(cc_row.get("legendary"))
        note = f"Close Combat {cc.number}"
    elif rules.cqc.untrained_close_combat is UntrainedCloseCombat.WEAPONS:
        cc_pool, cc_number, legendary = (12,), int(character["base_weapons"]), False
        note = f"no Close Combat: Weapons {cc_number} (d12)"
    else:
        cc_pool, cc_number, legendary = (12,), int(character["agility"]), False
        note = f"no Close Combat: Agility {cc_number} (d12)"
    ci_pool: tuple[int, ...] = ()
    ci_number = 0
    if ci_row is not None:
        ci = _skill(ci_row)
        ci_pool, ci_number = pool_of(ci), ci.number
    slotted = sorted((w for w in weapons if w.get("quick_slot") is not None),
                     key=lambda w: int(w["quick_slot"]))
    fighter = Fighter.new(
        str(character["id"]), str(character["name"]),
        strength=int(character["strength"]), agility=int(character["agility"]),
        cc_number=cc_number, cc_pool=cc_pool, cc_legendary=legendary,
        ap_max=int(character["ap"]), resistance=int(character["resistance"]),
        armour=int(character["armour"]), k_points=int(character["k_points"]),
        weapons=[Weapon(str(w["name"]), int(w["damage"]), bool(w["is_firearm"]))
                 for w in slotted],
        ci_pool=ci_pool, ci_number=ci_number)
    unable = ""
    if not character.get("conscious", True):
        unable = "unconscious"
    elif int(character["k_points"]) <= 0:
        unable = "no K-points left"
    return Candidate(int(character["id"]), str(character["name"]), fighter,
                     tuple((int(w["id"]), str(w["name"])) for w in slotted), note, unable)


# ------------------------------------------------------------- the replay


@dataclass(frozen=True)
class FightProgress:
    """Where a fight stands after replaying its log.

    ``step`` is the S0 step the GM is at: 1 order, 2 plan (cards being
    entered), 3 reveal (all cards in, still masked), 4 roll (revealed), 5
    resolve (dice rolled, report shown), 6 damage (round resolved; ``fight``
    is already the next round's state). ``over`` once no pairing is active;
    ``ended`` once the outcome was written back.
    """

    fight_id: int
    name: str
    start: Fight
    rules: HouseRules
    characters: Mapping[str, int]
    weapon_rows: Mapping[str, tuple[tuple[int, str], ...]]
    fight: Fight
    step: int
    initiative: InitiativeResult | None = None
    cards: Mapping[str, tuple[CqcCard, ...]] = field(default_factory=dict)
    reports: tuple[RoundReport, ...] = ()
    rolled: RoundReport | None = None
    rolled_after: Fight | None = None
    typed_dice: bool = False
    before_last: Fight | None = None  # the state before the last resolved round
    ended: bool = False
    outcome: Mapping[str, Any] = field(default_factory=dict)

    @property
    def round(self) -> int:
        """The round being played (at step 6: the round just resolved)."""
        return self.fight.round - 1 if self.step == 6 else self.fight.round

    @property
    def over(self) -> bool:
        return self.fight.over

    @property
    def to_enter(self) -> tuple[str, ...]:
        """Who still has to enter a card this round, in the order of combat."""
        return tuple(f for f in card_order(self.fight) if f not in self.cards)

    @property
    def round_cards(self) -> tuple[CqcCard, ...]:
        return tuple(c for fid in card_order(self.fight) for c in self.cards.get(fid, ()))

    @property
    def last_report(self) -> RoundReport | None:
        return self.rolled or (self.reports[-1] if self.reports else None)


def card_order(fight: Fight) -> tuple[str, ...]:
    """Fighters with an active pairing, in the order of combat (S0 step 3)."""
    busy = {x for p in fight.active_pairings for x in (p.a, p.b)}
    return tuple(f for f in fight.order if f in busy)


def faces_of(payload: Mapping[str, Any]) -> tuple[int, ...]:
    return tuple(int(face) for _, face in payload.get("faces", ()))


def progress_of(fight_id: int, name: str,
                events: Iterable[tuple[str, Mapping[str, Any]]]) -> FightProgress:
    """Replay ``(kind, payload)`` events through the engine (never rolls)."""
    items = list(events)
    if not items or items[0][0] != STARTED:
        raise FightLogError("the log does not begin with the fight's start")
    head = items[0][1]
    start = Fight.from_dict(head["fight"])
    rules = HouseRules.from_dict(head.get("rules", {}))
    chars = {str(k): int(v) for k, v in head.get("characters", {}).items()}
    rows = {str(k): tuple((int(i), str(n)) for i, n in v)
            for k, v in head.get("weapon_rows", {}).items()}
    fight = start
    initiative: InitiativeResult | None = None
    cards: dict[str, tuple[CqcCard, ...]] = {}
    reports: list[RoundReport] = []
    rolled: RoundReport | None = None
    rolled_after: Fight | None = None
    before_last: Fight | None = None
    revealed = typed = ended = resolved_last = False
    outcome: Mapping[str, Any] = {}
    for kind, data in items[1:]:
        resolved_last = False
        if kind == INITIATIVE:
            try:
                initiative = initiative_order(start.fighters, list(faces_of(data)), rules)
            except ValueError as e:
                raise FightLogError(f"the order of combat does not replay: {e}") from None
            fight = fight.with_order(initiative.order)
        elif kind == CARD:
            cards[str(data["owner"])] = tuple(CqcCard.from_dict(c) for c in data["cards"])
        elif kind == REVEALED:
            revealed = True
        elif kind == DICE:
            round_cards = [c for fid in card_order(fight) for c in cards.get(fid, ())]
            try:
                rolled_after, rolled = resolve_round(fight, round_cards,
                                                     list(faces_of(data)), rules)
            except ValueError as e:
                raise FightLogError(f"round {fight.round} does not replay: {e}") from None
            typed = bool(data.get("typed"))
        elif kind == RESOLVED:
            if rolled is None or rolled_after is None:
                raise FightLogError("a round was resolved before its dice were rolled")
            reports.append(rolled)
            before_last, fight = fight, rolled_after
            rolled = rolled_after = None
            cards, revealed, resolved_last = {}, False, True
        elif kind == ENDED:
            ended, outcome = True, data
    if initiative is None:
        step = 1
    elif resolved_last or ended:
        step = 6 if reports else 2
    elif rolled is not None:
        step = 5
    elif revealed:
        step = 4
    elif cards and not [f for f in card_order(fight) if f not in cards]:
        step = 3
    else:
        step = 2
    return FightProgress(fight_id, name, start, rules, chars, rows, fight=fight, step=step, initiative=initiative, cards=cards,
                         reports=tuple(reports), rolled=rolled, rolled_after=rolled_after,
                         typed_dice=typed, before_last=before_last, ended=ended,
                         outcome=outcome)


def undo_from(events: Sequence[tuple[int, str, Mapping[str, Any]]]) -> int | None:
    """The first ``seq`` to drop to undo the last round: every event of the
    newest round that has any (a half-played round goes back to its start;
    a resolved one is dropped whole); with no round events, the initiative.
    None when there is nothing to undo (or the fight has ended)."""
    if any(kind == ENDED for _, kind, _ in events):
        return None
    rounds = [int(p["round"]) for _, kind, p in events if kind in ROUND_KINDS]
    if rounds:
        last = max(rounds)
        return min(seq for seq, kind, p in events
                   if kind in ROUND_KINDS and int(p["round"]) == last)
    inits = [seq for seq, kind, _ in events if kind == INITIATIVE]
    return min(inits) if inits else None


# --------------------------------------------------------- the outcome


@dataclass(frozen=True)
class Outcome:
    """What a fight leaves on the characters (RULES-NOTES B; see ``outcome_of``)."""

    k_points: Mapping[int, int]                    # character id -> K-points now
    weapon_moves: tuple[tuple[int, int, str], ...]  # (weapon row, new owner, weapon name)

    def to_dict(self) -> dict[str, Any]:
        return {"k_points": {str(k): v for k, v in self.k_points.items()},
                "weapon_moves": [list(m) for m in self.weapon_moves]}


def outcome_of(progress: FightProgress) -> Outcome:
    """What carries over when a fight ends: K-points lost (S0 §6) and, under
    house rule ``cqc.disarm_keeps_weapon``, the weapons taken by Disarm
    (S0 §2.2) change hands, followed round by round. AP, Feint bonuses and
    Control last only for the fight."""
    chars = progress.characters
    k = {chars[f.id]: f.k_points for f in progress.fight.fighters
         if f.k_points != progress.start.fighter(f.id).k_points}
    moves: list[tuple[int, int, str]] = []
    if progress.rules.cqc.disarm_keeps_weapon:
        held = {fid: list(rows) for fid, rows in progress.weapon_rows.items()}
        for report in progress.reports:
            for e in report.all_effects:
                if e.kind.value != "disarm" or e.weapon is None:
                    continue
                row = next((r for r in held.get(e.fighter, []) if r[1] == e.weapon), None)
                if row is None:
                    continue
                held[e.fighter].remove(row)
                held.setdefault(e.source, []).append(row)
                moves.append((row[0], chars[e.source], row[1]))
    return Outcome(k, tuple(moves))


# ------------------------------------------------------------ the database


def _db_helpers() -> Any:
    from ka_tui.store import logs

    return logs


def load_candidates(db: Any) -> tuple[list[Candidate], HouseRules]:
    """Every roster character as a possible combatant (one read)."""
    from sqlmodel import select

    from ka_tui.store.campaign import house_rules
    from ka_tui.store.models import Campaign, Character
    from ka_tui.store.models import Skill as SkillRow
    from ka_tui.store.models import Weapon as WeaponRow

    with db.read() as s:
        campaign = s.get(Campaign, 1)
        people = [c.model_dump() for c in s.exec(select(Character))]
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


def start_fight(db: Any, pairs: Sequence[tuple[int, int]], name: str | None = None) -> int:
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
    logs = _db_helpers()
    with db.batch():
        row = logs.new_fight(db, title)
        logs.append_fight_event(db, row.id, STARTED, payload)
    return int(row.id)


def fight_title(names: Sequence[str], pairs: int) -> str:
    if len(names) == 2:
        return f"{names[0]} vs {names[1]}"
    return f"{names[0]} and {len(names) - 1} others ({pairs} pairings)"


def open_fights(db: Any) -> list[tuple[int, str, str]]:
    """(id, name, status) of every fight, newest first."""
    return [(int(f.id), f.name, f.status) for f in reversed(_db_helpers().list_fights(db))]


def load_progress(db: Any, fight_id: int) -> FightProgress:
    """Read a fight's log (one read) and replay it."""
    logs = _db_helpers()
    name = next((f.name for f in logs.list_fights(db) if f.id == fight_id), f"Fight {fight_id}")
    events = [(e.kind, logs.payload_of(e)) for e in logs.fight_events(db, fight_id)]
    return progress_of(fight_id, name, events)


def record(db: Any, fight_id: int, kind: str, payload: Mapping[str, Any]) -> None:
    """One event, one transaction."""
    _db_helpers().append_fight_event(db, fight_id, kind, dict(payload))


def record_initiative(db: Any, fight_id: int, result: InitiativeResult, typed: bool) -> None:
    record(db, fight_id, INITIATIVE, {"faces": [list(f) for f in result.faces],
                                      "order": list(result.order), "typed": typed})


def record_card(db: Any, fight_id: int, round_no: int, owner: str,
                cards: Sequence[CqcCard]) -> None:
    record(db, fight_id, CARD, {"round": round_no, "owner": owner,
                                "cards": [c.to_dict() for c in cards]})


def record_reveal(db: Any, fight_id: int, round_no: int) -> None:
    record(db, fight_id, REVEALED, {"round": round_no})


def record_dice(db: Any, fight_id: int, round_no: int, report: RoundReport,
                typed: bool) -> None:
    record(db, fight_id, DICE, {"round": round_no, "typed": typed,
                                "faces": [list(f) for f in report.faces],
                                "labels": list(report.dice_labels)})


def record_resolved(db: Any, fight_id: int, report: RoundReport, after: Fight) -> None:
    record(db, fight_id, RESOLVED, {"round": report.round, "report": report.to_dict(),
                                    "after": after.to_dict()})


def undo_last_round(db: Any, fight_id: int) -> int:
    """Drop the last round's events (``undo_from``) in one transaction;
    returns how many were dropped."""
    from sqlmodel import col, delete, select

    from ka_tui.store.models import FightEvent

    logs = _db_helpers()
    with db.transaction() as s:
        rows = list(s.exec(select(FightEvent).where(FightEvent.fight_id == fight_id)
                           .order_by(col(FightEvent.seq))).all())
        first = undo_from([(r.seq, r.kind, logs.payload_of(r)) for r in rows])
        if first is None:
            return 0
        s.exec(delete(FightEvent).where(col(FightEvent.fight_id) == fight_id,
                                        col(FightEvent.seq) >= first))
        return sum(1 for r in rows if r.seq >= first)


def finish_fight(db: Any, fight_id: int) -> Outcome:
    """Write the outcome back to the characters, log ``fight_ended`` and mark
    the fight ended -- all in one transaction. Refused unless the fight is
    over and not yet ended."""
    from ka_tui.store import roster
    from ka_tui.store.errors import ValidationError

    logs = _db_helpers()
    with db.batch():
        progress = load_progress(db, fight_id)
        if progress.ended:
            raise ValidationError("fight", "this fight has already ended")
        if not progress.over or progress.step != 6:
            raise ValidationError("fight", "the fight is not over yet")
        outcome = outcome_of(progress)
        for cid, k in outcome.k_points.items():
            roster.update_character(db, cid, k_points=max(0, k))
        for row_id, owner, _ in outcome.weapon_moves:
            _move_weapon(db, row_id, owner)
        logs.append_fight_event(db, fight_id, ENDED, outcome.to_dict())
        logs.end_fight(db, fight_id)
    return outcome


def _move_weapon(db: Any, row_id: int, owner: int) -> None:
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
