"""The close-combat runner behind the GM's screen (S0 §Close combat 1-6,
RULES-NOTES B): the fight as its log leaves it, the step the GM is at (a
``FightStep``), which actions each step allows and why not, the card to fill
in, the dice rolled or typed, the odds and previews -- all through the
engine (``rules/cqc``) -- and each step as one write to the campaign file
(``store/fights``: one event, one transaction, checked against the log it
was based on). No Textual here: ``screen.py`` shows what the runner holds,
and runs its ``Write``s and reads in a worker (``screens/store_work.py``).

The steps: 1 the order of combat (rolled, or the table's faces typed); 2
each fighter's card in the order of combat; 3 all cards in, masked; 4
revealed, with the exact odds and what the cards would do, then the round's
dice; 5 the round report; 6 damage, then the next round or the end. House
rule ``cqc.initiative_reroll``: a later round opens with step 1 again
(``every_round``), or the GM asks for it at the start of a round
(``gm_asks``: ``reorder``), never under ``once``.

A step that cannot be done raises ``Declined`` with the reason to show.
The screen counts its own reads and writes on their way (``began`` /
``ended``: a live read then waits for them); the keys typed meanwhile wait
in the app's key gate (``widgets/key_gate.py``) and take effect, in order,
once the fight is shown as the save left it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING

from ka_tui.rules.core.dice import Dice, DiceError, DiceFault, ScriptedDice
from ka_tui.rules.core.dice_notation import check_faces
from ka_tui.rules.cqc import (
    CardsInvalid, RoundOdds, Scenario, initiative_order, next_die, preview_pairing,
    reroll_order, resolve_round, round_odds,
)
from ka_tui.rules.cqc.log import FightProgress, FightStep, card_order
from ka_tui.screens.combat.permits import Permit, permit
from ka_tui.widgets.cqc_draft import CardDraft

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB
    from ka_tui.store.events import LogEvent

_SPLIT = re.compile(r"[\s,;]+")


class Declined(ValueError):
    """The step asked for cannot be done now; ``str()`` is the reason to show."""


@dataclass(frozen=True)
class Write:
    """One step for the campaign file: ``job`` runs in a worker thread."""

    job: Callable[[CampaignDB], object]
    title: str              # what the error message says was not done
    done: str = ""          # the notice once it is in the file
    new: bool = False       # the job returns the id of a new fight (show that one)
    ends: bool = False      # the outcome goes to the roster (the roster reads again)
    undo: bool = False      # the job returns the events a redo puts back


@dataclass(frozen=True)
class Redo:
    """What ``y`` puts back: the events an undo dropped, offered while the
    fight's log is where the undo left it."""

    fight_id: int
    seq: int
    events: tuple[LogEvent, ...]


@dataclass(frozen=True)
class FightRead:
    """A fight read from the file (worker thread), ready to show: its
    progress (None: no fight), each fighter's last Attack weapon, and after
    a write that was refused (another window wrote first) the reason."""

    progress: FightProgress | None
    weapons: dict[str, str | None] = field(default_factory=dict)
    refused: str | None = None
    result: object = None   # what the write's job returned


@dataclass(frozen=True)
class RoundFaces:
    """The table's faces typed so far for the round: the faces, the first
    problem (empty: none), and the next die needed (None: complete)."""

    faces: tuple[int, ...] | None
    problem: str = ""
    next: str | None = None


class Live(Enum):
    """What to do with a fight read because it changed elsewhere."""

    SKIP = "skip"      # nothing new, or this screen's own step is on its way
    AGAIN = "again"    # shown again while it was read: read afresh
    SHOW = "show"


# -- reads and writes (worker thread) ---------------------------------------------


def read_fight(db: CampaignDB, fight_id: int | None) -> FightRead:
    """The fight replayed, and each fighter's last weapon (his next card
    starts with it); None: the newest open fight, else none."""
    from ka_tui.store.fights import load_progress, open_fights
    from ka_tui.store.history import last_weapons

    if fight_id is None:
        fight_id = next((i for i, _, status in open_fights(db) if status == "open"), None)
    if fight_id is None:
        return FightRead(None)
    return FightRead(load_progress(db, fight_id), last_weapons(db, fight_id))


def run_write(db: CampaignDB, write: Write, fight_id: int | None) -> FightRead:
    """Run ``write`` (one transaction), then read the fight as it now is. A
    write refused because the log moved (``StaleLog``) or the rules do not
    take it now (``EventRefused``) wrote nothing: the fight as the file holds it,
    with the reason."""
    from ka_tui.store.fights import EventRefused, StaleLog

    try:
        result = write.job(db)
    except EventRefused as refused:
        return replace(read_fight(db, fight_id), refused=str(refused))
    except StaleLog as stale:
        read = read_fight(db, fight_id)
        return replace(read, refused=stale.at(where_now(read.progress)))
    if write.new and isinstance(result, int):
        fight_id = result
    return replace(read_fight(db, fight_id), result=result)


def where_now(p: FightProgress | None) -> str:
    """Where the fight is, in the round and step (1-6) the GM sees."""
    if p is None:
        return "gone"
    if p.ended:
        return f"ended after round {p.round}"
    return f"round {p.round}, step {int(p.step)}"


def numbers(text: str) -> list[int] | None:
    words = [w for w in _SPLIT.split(text.strip()) if w]
    if not words or not all(w.isdigit() for w in words):
        return None
    return [int(w) for w in words]


# -- the runner -----------------------------------------------------------------------


@dataclass
class CombatRunner:
    """The fight the GM's screen shows, and what each key does with it."""

    progress: FightProgress | None = None
    moved_on: bool = False      # from step 6 on to the next round's cards (not logged)
    reordering: bool = False    # the GM asked to re-roll this round's order
    detail: bool = False        # step 5 shows every die of the opposed tests
    loaded: bool = False
    work: int = 0               # the screen's own reads and writes on their way
    weapons: dict[str, str | None] = field(default_factory=dict)
    redo: Redo | None = None
    shown: int = 0              # times a fight was shown (a live read begun before is stale)
    stale_note: str = ""        # a refused write's message, kept over the card's first change

    # -- showing -------------------------------------------------------------

    def show(self, read: FightRead | FightProgress | None, *, moved_on: bool = False,
             reorder: bool = False) -> None:
        """The fight where its log leaves it (``reorder``: the order-of-combat
        entry for this round, at the GM's request)."""
        if isinstance(read, FightRead):
            self.weapons = dict(read.weapons)
            read = read.progress
        self.loaded = True
        self.shown += 1
        self.progress = read
        self.stale_note = ""
        self.moved_on = moved_on
        self.reordering = reorder and read is not None

    @property
    def busy(self) -> bool:
        """A save or a read of the screen's own is on its way."""
        return self.work > 0

    @property
    def settled(self) -> bool:
        """Nothing of the screen's own on its way."""
        return not self.work

    def began(self) -> None:
        """A read or write of the screen's own starts."""
        self.work += 1

    def ended(self) -> None:
        """It is done and shown."""
        self.work = max(0, self.work - 1)

    @property
    def step(self) -> FightStep | None:
        """The step on screen (None: no fight). After step 6 the next round's
        cards (or its order) come before anything is logged."""
        p = self.progress
        if p is None:
            return None
        if self.reordering:
            return FightStep.ORDER
        if p.step is FightStep.DAMAGE and self.moved_on and not p.over:
            return FightStep.ORDER if p.needs_order else FightStep.PLAN
        return p.step

    @property
    def round_no(self) -> int:
        """The round on screen (the next one once moved on from step 6)."""
        p = self.progress
        if p is None:
            return 0
        moved = self.step in (FightStep.ORDER, FightStep.PLAN) and p.step is FightStep.DAMAGE
        return p.fight.round if moved else p.round

    @property
    def redo_at(self) -> tuple[int, int] | None:
        """(fight, log position) where ``y`` puts back the round just undone."""
        return None if self.redo is None else (self.redo.fight_id, self.redo.seq)

    def fight_id(self) -> int | None:
        return self.progress.fight_id if self.progress is not None else None

    def live(self, progress: FightProgress, generation: int) -> Live:
        """A read made because the fight changed elsewhere (a player's card,
        another window's step)."""
        shown = self.progress
        if self.busy:  # its own step reads the file once written: that read is newer
            return Live.SKIP
        if shown is not None and shown.fight_id == progress.fight_id \
                and shown.seq == progress.seq and not shown.broken:
            return Live.SKIP  # nothing new (often the echo of this window's own step)
        if generation != self.shown:
            return Live.AGAIN
        return Live.SHOW

    def show_live(self, read: FightRead) -> None:
        p = read.progress
        assert p is not None
        self.show(read, moved_on=self.moved_on and p.step is FightStep.DAMAGE,
                  reorder=self.reordering and p.step is FightStep.PLAN and not p.cards)

    # -- what each step allows ------------------------------------------------------

    def permit(self, action: str) -> Permit:
        """Whether ``action`` (the screen's action name) may run now, and why not."""
        return permit(self, action)

    # -- step 1: the order of combat ----------------------------------------------------

    def order(self, dice: Dice, *, typed: bool) -> Write:
        """S0 §Close combat 1 through the engine (a later round's own order
        when one is rolled already); typed faces must all be used."""
        from ka_tui.store import fights

        p = self._progress()
        again = p.initiative is not None
        try:
            result = (reroll_order(p.fight, dice, p.rules) if again
                      else initiative_order(p.start.fighters, dice, p.rules))
        except DiceError as error:
            more = error.reason is DiceFault.EXHAUSTED
            raise Declined(f"more faces needed: next a d{error.sides}" if more
                           else str(error)) from None
        if typed and isinstance(dice, ScriptedDice) and not dice.exhausted:
            raise Declined(f"{len(dice.faces)} face(s) too many")
        fid, rnd, seq = p.fight_id, p.fight.round, p.seq
        names = ", ".join(p.start.fighter(f).name for f in result.order)
        if again:
            return Write(lambda db: fights.record_reorder(db, fid, rnd, result, typed,
                                                          expect_seq=seq),
                         "The order of combat was not saved",
                         done=f"Order of combat for round {rnd}: {names}")
        return Write(lambda db: fights.record_initiative(db, fid, result, typed,
                                                         expect_seq=seq),
                     "The order of combat was not saved", done="Order of combat: " + names)

    def order_typed(self, text: str) -> Write:
        faces = numbers(text)
        if faces is None:
            raise Declined("type numbers: the faces in order")
        return self.order(ScriptedDice.of(faces), typed=True)

    def toggle_reorder(self) -> None:
        """Re-roll the order at the start of this round, or (again) keep it."""
        self.show(self.progress, moved_on=self.moved_on, reorder=not self.reordering)

    # -- step 2: the cards ----------------------------------------------------------------

    def waiting(self) -> str | None:
        """Whose card is next, in the order of combat."""
        p = self._progress()
        entered = self.entered()
        return next((f for f in card_order(p.fight) if f not in entered), None)

    def entered(self) -> tuple[str, ...]:
        """Whose card is in this round (none yet once moved on from step 6)."""
        p = self._progress()
        return tuple(p.cards) if not self.moved_on else ()

    def card_to_fill(self) -> CardDraft | None:
        """The next fighter's blank card, his Attacks with his last weapon."""
        p, owner = self._progress(), self.waiting()
        if owner is None:
            return None
        return CardDraft.start(p.fight, owner, p.rules.cqc, weapon=self.weapons.get(owner))

    @staticmethod
    def keep_card(typed: CardDraft | None, fresh: CardDraft | None) -> CardDraft | None:
        """After a read: the card the GM was typing, if it is still his to fill."""
        if typed is None or fresh is None or typed.owner != fresh.owner:
            return fresh
        return replace(fresh, cards=typed.cards)

    def hand_in(self, draft: CardDraft) -> Write:
        """S0 §Close combat 2: his card, refused while the engine finds it invalid."""
        from ka_tui.store import fights

        errors = draft.errors()
        if errors:
            raise Declined(f"Refused: {errors[0].message}")
        p = self._progress()
        fid, rnd, owner, cards, seq = p.fight_id, p.fight.round, draft.owner, draft.cards, p.seq
        return Write(lambda db: fights.record_card(db, fid, rnd, owner, cards, expect_seq=seq),
                     "The card was not saved")

    # -- steps 3 to 6 -------------------------------------------------------------------

    def reveal(self) -> Write:
        from ka_tui.store import fights

        p = self._progress()
        fid, rnd, seq = p.fight_id, p.fight.round, p.seq
        return Write(lambda db: fights.record_reveal(db, fid, rnd, expect_seq=seq),
                     "The reveal was not saved")

    def odds(self) -> list[RoundOdds]:
        """S0 §4: the exact chances of each pairing's opposed round."""
        p = self._progress()
        return [round_odds(p.fight, x.a, x.b, p.rules, p.round_cards)
                for x in p.fight.active_pairings]

    def previews(self) -> list[tuple[str, str, Sequence[Scenario]]]:
        """What the revealed cards do under each way each pairing's round ends."""
        p = self._progress()
        return [(x.a, x.b, preview_pairing(p.fight, p.round_cards, x.a, x.b, p.rules.cqc,
                                           skills=p.rules.skills))
                for x in p.fight.active_pairings]

    def faces(self, text: str) -> RoundFaces:
        """The table's faces typed so far, checked one by one against the dice
        the round needs (the engine's ``next_die``)."""
        p = self._progress()
        words = [w for w in _SPLIT.split(text.strip()) if w]
        faces: list[int] = []
        for word in words:
            try:
                need = next_die(p.fight, p.round_cards, faces, p.rules)
            except (DiceError, CardsInvalid) as error:
                return RoundFaces(None, str(error))
            if need is None:
                return RoundFaces(None, f"{len(words) - len(faces)} face(s) too many")
            check = check_faces((need.sides,), word)
            if not check.ok:
                return RoundFaces(None, check.message.replace(
                    "(die 1)", f"(die {len(faces) + 1}: {need.label})"))
            faces.append(int(word))
        try:
            need = next_die(p.fight, p.round_cards, faces, p.rules)
        except (DiceError, CardsInvalid) as error:
            return RoundFaces(None, str(error))
        return RoundFaces(tuple(faces), "", None if need is None else need.label)

    def faces_hint(self, text: str) -> tuple[str, str]:
        """(the problem at the field, the status line) for the faces typed."""
        check = self.faces(text)
        if check.problem:
            return check.problem, check.problem
        if check.next is None:
            return "", "all faces in: enter to resolve the round"
        return "", f"die {len(check.faces or ()) + 1}: {check.next}  ·  r: roll everything"

    def round_typed(self, text: str) -> Write:
        check = self.faces(text)
        if check.problem or check.faces is None:
            raise Declined(check.problem or "type the faces")
        if check.next is not None:
            raise Declined(f"more faces needed: next {check.next}")
        return self.round_rolled(list(check.faces), typed=True)

    def round_rolled(self, dice: Dice | list[int], *, typed: bool = False) -> Write:
        """S0 steps 4-6 through the engine, then the faces logged."""
        from ka_tui.store import fights

        p = self._progress()
        try:
            _, report = resolve_round(p.fight, p.round_cards, dice, p.rules)
        except (DiceError, CardsInvalid) as error:
            raise Declined(str(error)) from None
        fid, rnd, seq = p.fight_id, p.fight.round, p.seq
        return Write(lambda db: fights.record_dice(db, fid, rnd, report, typed,
                                                   expect_seq=seq),
                     "The dice were not saved")

    def to_damage(self) -> Write:
        from ka_tui.store import fights

        p = self._progress()
        if p.rolled is None or p.rolled_after is None:
            raise Declined("the round's dice are not rolled yet")
        fid, report, after, seq = p.fight_id, p.rolled, p.rolled_after, p.seq
        return Write(lambda db: fights.record_resolved(db, fid, report, after, expect_seq=seq),
                     "The round was not saved")

    def next_round(self) -> None:
        """From step 6 on to the next round's cards (nothing is logged)."""
        self.show(self.progress, moved_on=True)

    def finish(self) -> Write:
        from ka_tui.store import fights

        p = self._progress()
        fid, seq = p.fight_id, p.seq
        return Write(lambda db: fights.finish_fight(db, fid, expect_seq=seq),
                     "The outcome was not written",
                     done="Fight ended: the outcome is on the roster.", ends=True)

    def outcome_lines(self) -> list[str]:
        """What the ended fight left on the roster."""
        p = self._progress()
        names = {cid: p.start.fighter(fid).name for fid, cid in p.characters.items()}
        out = [f"{names.get(int(cid), cid)}: K-points now {k}"
               for cid, k in p.outcome.get("k_points", {}).items()]
        out += [f"{name} goes to {names.get(int(owner), owner)}"
                for _, owner, name in p.outcome.get("weapon_moves", [])]
        return out or ["nothing changes on the roster"]

    # -- undo, redo, a new fight -------------------------------------------------------

    def undo_question(self) -> str:
        p = self._progress()
        if p.broken_seq is not None:
            return (f"Drop every event of “{p.name}” from event {p.broken_seq} on "
                    "(the damaged part of its log)?")
        rnd = p.fight.round if p.step is not FightStep.DAMAGE or p.ended else p.fight.round - 1
        return (f"Undo round {rnd} of “{p.name}”? Its cards, dice and result "
                "go; right after, y on the fight puts them back (redo).")

    def undo(self) -> Write:
        """Drop the last round (or the damaged part of the log), keeping what
        it dropped for ``redo``."""
        from ka_tui.store.events import LogRef, last_seq
        from ka_tui.store.history import undo_round

        p = self._progress()
        fid, seq = p.fight_id, p.seq
        done = (f"Undone: back to before event {p.broken_seq}." if p.broken_seq is not None
                else "Undone: the last round is gone. y: redo it.")

        def job(db: CampaignDB) -> Redo | None:
            dropped = undo_round(db, fid, expect_seq=seq)
            return Redo(fid, last_seq(db, LogRef.fight(fid)), tuple(dropped)) \
                if dropped else None

        return Write(job, "Undo failed", done=done, undo=True)

    def redo_write(self) -> Write:
        from ka_tui.store.history import redo_round

        r = self.redo
        if r is None:
            raise Declined("nothing to redo")
        self.redo = None

        def job(db: CampaignDB) -> None:
            redo_round(db, r.fight_id, list(r.events), expect_seq=r.seq)

        return Write(job, "Redo failed", done="Redone: the round is back.")

    @staticmethod
    def start(pairs: list[tuple[int, int]]) -> Write:
        """A new fight of these pairs of character ids."""
        from ka_tui.store.fights import start_fight

        return Write(lambda db: start_fight(db, pairs), "Cannot start the fight", new=True)

    def written(self, write: Write, read: FightRead) -> None:
        """A write is in the file: show the fight as it now is."""
        if write.undo:
            self.redo = read.result if isinstance(read.result, Redo) else None
        self.show(read)

    def _progress(self) -> FightProgress:
        p = self.progress
        if p is None:
            raise Declined("no fight in progress: n starts one")
        return p
