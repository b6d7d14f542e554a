"""A close-combat fight as a log of events, and its pure replay (DESIGN.md
"Fights and battles as a log of events"; S0 §Close combat; RULES-NOTES B).

Shaped like ``rules/air/battle.py``: ``replay(events) -> FightProgress`` and
``accept(progress, kind, payload) -> LogRefusal | None``. The store appends an
event only if ``accept`` lets it through on the state replayed inside the same
write transaction, and the replay itself refuses (``FightLogError`` naming the
event) what ``accept`` would refuse, so a log the store wrote always replays.

Events are ``(kind, payload)`` pairs, numbered 1, 2, … in order:

``fight_started``  the fighters' snapshot, pairings, the house rules the fight
                   is played under, character/weapon row ids
``initiative``     S0 step 1: the faces rolled (or typed) and the order
``order_rerolled`` S0 step 1 again at the start of a later round (house rule
                   ``cqc.initiative_reroll``): round, faces, order
``card_entered``   S0 step 2: one combatant's card(s) for a round
``card_changed``   S0 step 2: the same combatant's card(s) again, before the
                   reveal (a player changes his sent card)
``cards_revealed`` S0 step 3
``dice_rolled``    S0 steps 4-6: every face of the round, in roll order
``round_resolved`` the round report and the state after (an audit copy: the
                   replay recomputes both from the faces)
``fight_ended``    the outcome written back to the characters

No Textual, no database: used by the store, the screens and the tests alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import IntEnum, StrEnum
from typing import Any

from ka_tui.rules.core.options import HouseRules, InitiativeReroll, recorded_rules
from ka_tui.rules.cqc.card import CqcCard
from ka_tui.rules.cqc.fight_state import Fight
from ka_tui.rules.cqc.initiative import InitiativeResult, initiative_order, reroll_order
from ka_tui.rules.cqc.report import RoundReport
from ka_tui.rules.cqc.round import resolve_round


class FightEventKind(StrEnum):
    """The kinds of event in a fight's log (their values are what is stored)."""

    STARTED = "fight_started"
    INITIATIVE = "initiative"
    REORDER = "order_rerolled"  # a later round's own order of combat
    CARD = "card_entered"
    CARD_CHANGED = "card_changed"  # a sent card changed before the reveal
    REVEALED = "cards_revealed"
    DICE = "dice_rolled"
    RESOLVED = "round_resolved"
    ENDED = "fight_ended"


# a round's events: undo drops them together (the round's re-rolled order too)
ROUND_KINDS = (FightEventKind.REORDER, FightEventKind.CARD, FightEventKind.CARD_CHANGED,
               FightEventKind.REVEALED, FightEventKind.DICE, FightEventKind.RESOLVED)


class FightStep(IntEnum):
    """The S0 §Close combat step the GM is at (equal to its number 1..6)."""

    ORDER = 1
    PLAN = 2
    REVEAL = 3
    ROLL = 4
    RESOLVE = 5
    DAMAGE = 6


class RefusalReason(StrEnum):
    """Why ``accept`` refuses an event (``LogRefusal.reason``)."""

    NOT_STARTED = "not_started"        # anything before fight_started
    ALREADY_STARTED = "already_started"
    ENDED = "ended"                    # anything after fight_ended
    OUT_OF_STEP = "out_of_step"        # not what the current step takes
    WRONG_ROUND = "wrong_round"
    NOT_FIGHTING = "not_fighting"      # a card for someone without an active pairing
    CARD_ALREADY_IN = "card_already_in"
    NO_CARD_YET = "no_card_yet"        # a change of a card that was never sent
    NO_REORDER = "no_reorder"          # house rule cqc.initiative_reroll=once
    ORDER_ALREADY_IN = "order_already_in"  # this round's order is already re-rolled
    UNKNOWN_KIND = "unknown_kind"


@dataclass(frozen=True)
class LogRefusal:
    """An event the fight cannot take now: ``reason`` for code, ``message`` for the GM."""

    reason: RefusalReason
    message: str

    def __str__(self) -> str:
        return self.message


class FightLogError(ValueError):
    """A log that does not replay (a changed engine, a damaged file): ``index``
    is the 0-based position of the first event that cannot be replayed
    (None when the log as a whole is wrong), ``kind`` its kind, ``detail``
    what is wrong with it (the message without the position)."""

    def __init__(self, message: str, *, index: int | None = None, kind: str = "",
                 refusal: LogRefusal | None = None, detail: str = "") -> None:
        super().__init__(message)
        self.index = index
        self.kind = kind
        self.refusal = refusal
        self.detail = detail or message


@dataclass(frozen=True)
class FightProgress:
    """Where a fight stands after replaying its log.

    ``step`` is the S0 step the GM is at: 1 order, 2 plan (cards being
    entered), 3 reveal (all cards in, still masked), 4 roll (revealed), 5
    resolve (dice rolled, report shown), 6 damage (round resolved; ``fight``
    is already the next round's state). ``over`` once no pairing is active;
    ``ended`` once the outcome was written back. ``seq`` is the number of the
    last event (the position a new event must be appended after).
    """

    fight_id: int
    name: str
    start: Fight
    rules: HouseRules
    characters: Mapping[str, int]
    weapon_rows: Mapping[str, tuple[tuple[int, str], ...]]
    fight: Fight
    step: FightStep
    initiative: InitiativeResult | None = None
    cards: Mapping[str, tuple[CqcCard, ...]] = field(default_factory=dict)
    reports: tuple[RoundReport, ...] = ()
    rolled: RoundReport | None = None
    rolled_after: Fight | None = None
    typed_dice: bool = False
    before_last: Fight | None = None  # the state before the last resolved round
    ended: bool = False
    outcome: Mapping[str, Any] = field(default_factory=dict)
    revealed: bool = False
    seq: int = 1
    broken: str = ""               # a damaged log: why its first bad event does not replay
    broken_seq: int | None = None  # … and that event's seq (undo drops from it)
    order_round: int = 1  # the round the order of combat was last rolled for
    # owners whose card is in but not shown to this viewer (``visible_to``)
    hidden: tuple[str, ...] = ()

    @property
    def needs_order(self) -> bool:
        """S0 §Close combat 1 and 6 under ``cqc.initiative_reroll =
        every_round``: the next round opens with the order of combat."""
        return (self.rules.cqc.initiative_reroll is InitiativeReroll.EVERY_ROUND
                and self.initiative is not None and not self.over
                and self.order_round < self.fight.round and not self.cards)

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
        return tuple(f for f in card_order(self.fight)
                     if f not in self.cards and f not in self.hidden)

    @property
    def sent(self) -> tuple[str, ...]:
        """Whose card is in this round (shown or hidden), in the order of combat."""
        return tuple(f for f in card_order(self.fight) if f in self.cards or f in self.hidden)

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


# ------------------------------------------------------------- the replay


def start(payload: Mapping[str, Any], fight_id: int = 0, name: str = "") -> FightProgress:
    """The fight as its ``fight_started`` event sets it up (S0 §Close combat)."""
    try:
        begin = Fight.from_dict(payload["fight"])
        # options a log lacks are read as the engine played then
        rules = recorded_rules(payload.get("rules", {}))
        chars = {str(k): int(v) for k, v in payload.get("characters", {}).items()}
        rows = {str(k): tuple((int(i), str(n)) for i, n in v)
                for k, v in payload.get("weapon_rows", {}).items()}
    except (KeyError, TypeError, ValueError) as e:
        raise FightLogError(f"the fight's start does not read: {e}", index=0,
                            kind=FightEventKind.STARTED) from None
    return FightProgress(fight_id, name, begin, rules, chars, rows, fight=begin,
                         step=FightStep.ORDER, seq=1)


def _refuse(reason: RefusalReason, message: str) -> LogRefusal:
    return LogRefusal(reason, message)


def accept(progress: FightProgress | None, kind: str,
           payload: Mapping[str, Any]) -> LogRefusal | None:
    """Whether the fight can take this event now (S0 §Close combat steps 1-6):
    None, or the ``LogRefusal``. Checks the order of the steps, not the dice (the
    replay of a ``dice_rolled`` or ``initiative`` event checks its faces)."""
    try:
        k = FightEventKind(kind)
    except ValueError:
        return _refuse(RefusalReason.UNKNOWN_KIND, f"unknown fight event {kind!r}")
    if progress is None:
        if k is FightEventKind.STARTED:
            return None
        return _refuse(RefusalReason.NOT_STARTED, "the log does not begin with the fight's start")
    if k is FightEventKind.STARTED:
        return _refuse(RefusalReason.ALREADY_STARTED, "the fight has already started")
    if progress.ended:
        return _refuse(RefusalReason.ENDED, "the fight has already ended")
    step = progress.step
    if k is FightEventKind.INITIATIVE:
        if progress.initiative is not None:
            return _refuse(RefusalReason.OUT_OF_STEP, "the order of combat is already rolled")
        return None
    if k is FightEventKind.ENDED:
        if not progress.over or step != FightStep.DAMAGE:
            return _refuse(RefusalReason.OUT_OF_STEP, "the fight is not over yet")
        return None
    if progress.initiative is None:
        return _refuse(RefusalReason.OUT_OF_STEP, "the order of combat is not rolled yet")
    if progress.over:
        return _refuse(RefusalReason.OUT_OF_STEP, "the fight is over: no more rounds")
    try:
        rnd = int(payload["round"])
    except (KeyError, TypeError, ValueError):
        return _refuse(RefusalReason.WRONG_ROUND, f"a {k.value} event names no round")
    now = progress.fight.round
    if rnd != now:
        return _refuse(RefusalReason.WRONG_ROUND,
                       f"a {k.value} event for round {rnd} while round {now} is played")
    if k is FightEventKind.REORDER:
        # S0 §Close combat 1 and 6: the order rolled again at the
        # start of a later round, before any card of it, once a round
        if progress.rules.cqc.initiative_reroll is InitiativeReroll.ONCE:
            return _refuse(RefusalReason.NO_REORDER, "the order of combat is rolled once "
                           "per fight (house rule cqc.initiative_reroll=once)")
        if now < 2:
            return _refuse(RefusalReason.WRONG_ROUND,
                           "round 1 is played in the order of combat just rolled")
        if progress.order_round >= now:
            return _refuse(RefusalReason.ORDER_ALREADY_IN,
                           f"round {now}'s order of combat is already re-rolled")
        if progress.cards or progress.revealed or progress.rolled is not None:
            return _refuse(RefusalReason.OUT_OF_STEP, f"round {now} has begun: its order "
                           "is re-rolled before any card")
        return None
    if k is FightEventKind.CARD:
        if progress.revealed or progress.rolled is not None:
            return _refuse(RefusalReason.OUT_OF_STEP,
                           f"round {now}'s cards are already revealed")
        owner = str(payload.get("owner"))
        if owner not in card_order(progress.fight):
            return _refuse(RefusalReason.NOT_FIGHTING, f"fighter {owner} has no opponent "
                                                       f"in round {now}")
        if owner in progress.cards:
            name = progress.fight.fighter(owner).name
            return _refuse(RefusalReason.CARD_ALREADY_IN,
                           f"{name}'s card for round {now} is already in")
        return None
    if k is FightEventKind.CARD_CHANGED:
        # S0 §Close combat 2-3: a card stays secret and can change until
        # the reveal; only one already sent
        if progress.revealed or progress.rolled is not None:
            return _refuse(RefusalReason.OUT_OF_STEP,
                           f"round {now}'s cards are already revealed")
        owner = str(payload.get("owner"))
        if owner not in progress.cards:
            return _refuse(RefusalReason.NO_CARD_YET,
                           f"no card of fighter {owner} to change in round {now}")
        return None
    if k is FightEventKind.REVEALED:
        if step != FightStep.REVEAL:
            return _refuse(RefusalReason.OUT_OF_STEP,
                           "the cards are already revealed" if progress.revealed
                           or progress.rolled is not None else
                           f"round {now}'s cards are not all in")
        return None
    if k is FightEventKind.DICE:
        if step != FightStep.ROLL:
            return _refuse(RefusalReason.OUT_OF_STEP,
                           f"round {now}'s dice are already rolled"
                           if progress.rolled is not None else
                           f"round {now}'s cards are not revealed yet")
        return None
    # RESOLVED
    if step != FightStep.RESOLVE:
        return _refuse(RefusalReason.OUT_OF_STEP,
                       f"round {now} was resolved before its dice were rolled")
    return None


def apply(progress: FightProgress | None, kind: str, payload: Mapping[str, Any],
          *, index: int = 0) -> FightProgress:
    """One event through the engine (never rolls: the logged faces are the
    dice). Raises ``FightLogError`` naming the event when ``accept`` refuses
    it or its faces do not replay."""
    refusal = accept(progress, kind, payload)
    if refusal is not None:
        raise FightLogError(f"event {index + 1} ({kind}): {refusal.message}", index=index,
                            kind=kind, refusal=refusal, detail=refusal.message)
    if progress is None:
        return start(payload)
    k = FightEventKind(kind)
    p = replace(progress, seq=index + 1)
    where = f"event {index + 1} ({kind})"
    if k is FightEventKind.INITIATIVE:
        try:
            init = initiative_order(p.start.fighters, list(faces_of(payload)), p.rules)
        except (ValueError, TypeError) as e:
            raise FightLogError(f"{where}: the order of combat does not replay: {e}",
                                index=index, kind=kind,
                                detail=f"the order of combat does not replay: {e}") from None
        return _stepped(replace(p, initiative=init, fight=p.fight.with_order(init.order)))
    if k is FightEventKind.REORDER:  # the order rolled again for this round
        try:
            init = reroll_order(p.fight, list(faces_of(payload)), p.rules)
        except (ValueError, TypeError) as e:
            detail = f"the order of round {p.fight.round} does not replay: {e}"
            raise FightLogError(f"{where}: {detail}", index=index, kind=kind,
                                detail=detail) from None
        return _stepped(replace(p, initiative=init, fight=p.fight.with_order(init.order),
                                order_round=p.fight.round))
    if k in (FightEventKind.CARD, FightEventKind.CARD_CHANGED):
        try:
            cards = tuple(CqcCard.from_dict(c) for c in payload["cards"])
        except (KeyError, TypeError, ValueError) as e:
            raise FightLogError(f"{where}: the card does not read: {e}", index=index,
                                kind=kind, detail=f"the card does not read: {e}") from None
        return _stepped(replace(p, cards={**p.cards, str(payload["owner"]): cards}))
    if k is FightEventKind.REVEALED:
        return _stepped(replace(p, revealed=True))
    if k is FightEventKind.DICE:
        try:
            after, report = resolve_round(p.fight, list(p.round_cards),
                                          list(faces_of(payload)), p.rules)
        except (ValueError, TypeError) as e:
            raise FightLogError(f"{where}: round {p.fight.round} does not replay: {e}",
                                index=index, kind=kind,
                                detail=f"round {p.fight.round} does not replay: {e}") from None
        return _stepped(replace(p, rolled=report, rolled_after=after,
                                typed_dice=bool(payload.get("typed"))))
    if k is FightEventKind.RESOLVED:
        assert p.rolled is not None and p.rolled_after is not None  # accept checked
        return replace(p, reports=(*p.reports, p.rolled), before_last=p.fight,
                       fight=p.rolled_after, rolled=None, rolled_after=None, cards={},
                       revealed=False, step=FightStep.DAMAGE)
    # ENDED: the outcome as the screens read it (each K-points by character id)
    try:
        FightOutcome.from_dict(payload)
    except (KeyError, TypeError, ValueError) as e:
        raise FightLogError(f"{where}: the outcome does not read: {e}", index=index,
                            kind=kind, detail=f"the outcome does not read: {e}") from None
    return replace(p, ended=True, outcome=dict(payload),
                   step=FightStep.DAMAGE if p.reports else FightStep.PLAN)


def _stepped(p: FightProgress) -> FightProgress:
    """The step the state is at once an event is in (S0 §Close combat 1-5)."""
    if p.initiative is None:
        step = FightStep.ORDER
    elif p.rolled is not None:
        step = FightStep.RESOLVE
    elif p.revealed:
        step = FightStep.ROLL
    elif p.cards and not p.to_enter:
        step = FightStep.REVEAL
    else:
        step = FightStep.PLAN
    return replace(p, step=step)


def replay(events: Iterable[tuple[str, Mapping[str, Any]]], *, fight_id: int = 0,
           name: str = "") -> FightProgress:
    """Replay ``(kind, payload)`` events through the engine (never rolls);
    ``FightLogError`` names the first event that cannot be replayed."""
    progress: FightProgress | None = None
    for i, (kind, payload) in enumerate(events):
        progress = apply(progress, kind, payload, index=i)
    if progress is None:
        raise FightLogError("the log does not begin with the fight's start", index=None)
    return replace(progress, fight_id=fight_id, name=name)


def replay_prefix(events: Sequence[tuple[str, Mapping[str, Any]]], *, fight_id: int = 0,
                  name: str = "") -> tuple[FightProgress | None, FightLogError | None]:
    """A damaged log: the state after every event that replays, and the error
    naming the first one that does not (None when all do)."""
    progress: FightProgress | None = None
    for i, (kind, payload) in enumerate(events):
        try:
            progress = apply(progress, kind, payload, index=i)
        except FightLogError as error:
            return (None if progress is None else
                    replace(progress, fight_id=fight_id, name=name)), error
    if progress is None:
        return None, FightLogError("the log does not begin with the fight's start")
    return replace(progress, fight_id=fight_id, name=name), None


def progress_of(fight_id: int, name: str,
                events: Iterable[tuple[str, Mapping[str, Any]]]) -> FightProgress:
    """``replay`` with the fight's id and name (the store's call)."""
    return replay(events, fight_id=fight_id, name=name)


# ---------------------------------------------------------- what a player may see


def visible_to(progress: FightProgress, fighters: Iterable[str]) -> FightProgress:
    """The fight as a player who plays ``fighters`` may see it (S0 §Close combat
    2-3: the cards are filled in secret and revealed at once).

    Before the reveal every other fighter's card is taken out (its owner is
    kept in ``hidden``, so "card in" still shows, never what is on it); once
    revealed, every card of the round is shown, as at the table. The step,
    round and state are unchanged. Pure: the player's screens render only
    what this returns, so a hidden card cannot leak through any view."""
    own = frozenset(fighters)
    if progress.revealed or progress.rolled is not None:
        return replace(progress, hidden=())
    shown = {fid: cards for fid, cards in progress.cards.items() if fid in own}
    hidden = tuple(fid for fid in card_order(progress.fight)
                   if fid in progress.cards and fid not in own)
    return replace(progress, cards=shown, hidden=hidden)


def cards_in_text(progress: FightProgress) -> str:
    """``3 of 4 cards in (Arthur, Jeanne, Mike); waiting for Olga`` for the
    round being planned (S0 §Close combat 2); names only, never a card."""
    order = card_order(progress.fight)
    sent = progress.sent
    first = {fid: progress.fight.fighter(fid).name.split()[0] for fid in order}
    text = f"{len(sent)} of {len(order)} cards in"
    if sent:
        text += f" ({', '.join(first[f] for f in sent)})"
    waiting = [first[f] for f in order if f not in sent]
    if waiting:
        text += f"; waiting for {', '.join(waiting)}"
    return text


def undo_from(events: Sequence[tuple[int, str, Mapping[str, Any]]]) -> int | None:
    """The first ``seq`` to drop to undo the last round: every event of the
    newest round that has any (a half-played round goes back to its start;
    a resolved one is dropped whole); with no round events, the initiative.
    None when there is nothing to undo (or the fight has ended)."""
    if any(kind == FightEventKind.ENDED for _, kind, _ in events):
        return None
    rounds = [int(p["round"]) for _, kind, p in events if kind in ROUND_KINDS]
    if rounds:
        last = max(rounds)
        return min(seq for seq, kind, p in events
                   if kind in ROUND_KINDS and int(p["round"]) == last)
    inits = [seq for seq, kind, _ in events if kind == FightEventKind.INITIATIVE]
    return min(inits) if inits else None


# --------------------------------------------------------- the outcome


@dataclass(frozen=True)
class FightOutcome:
    """What a fight leaves on the characters (RULES-NOTES B; see ``outcome_of``)."""

    k_points: Mapping[int, int]                    # character id -> K-points now
    weapon_moves: tuple[tuple[int, int, str], ...]  # (weapon row, new owner, weapon name)

    def to_dict(self) -> dict[str, Any]:
        return {"k_points": {str(k): v for k, v in self.k_points.items()},
                "weapon_moves": [list(m) for m in self.weapon_moves]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FightOutcome:
        """``to_dict``'s value back; ValueError or TypeError when it is not one."""
        k_points = {_whole(c): _whole(k) for c, k in dict(data.get("k_points", {})).items()}
        moves: list[tuple[int, int, str]] = []
        for move in data.get("weapon_moves", []):
            row, owner, name = move
            if not isinstance(name, str):
                raise TypeError(f"weapon name {name!r} is not text")
            moves.append((_whole(row), _whole(owner), name))
        return cls(k_points, tuple(moves))


def _whole(value: Any) -> int:
    """A whole number, or one as text (a JSON key)."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError(f"{value!r} is not a whole number")


def outcome_of(progress: FightProgress) -> FightOutcome:
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
    return FightOutcome(k, tuple(moves))
