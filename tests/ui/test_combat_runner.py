"""The close-combat runner (screens/combat/runner.py) without Textual: the
step machine on ``FightStep`` (S0 §Close combat 1-6), what each step allows
and why not, the card to fill in, the table's faces checked die by die, the
odds, undo and redo -- each step written to a real campaign file (the demo
campaign) through the runner's own ``Write`` jobs and read back.

Faces as in test_combat.py: S0 §1 Mike's 4d12 Combat Initiative @5, then
Jeanne's Agility d12; S0 §4 Mike's 3d12+1d20 beat Jeanne's 2d10.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.core.options import HouseRules, InitiativeReroll
from ka_tui.rules.cqc import ActionKind, Grade
from ka_tui.rules.cqc.log import FightStep
from ka_tui.screens.combat.runner import (
    CombatRunner, Declined, Live, Write, read_fight, run_write,
)
from ka_tui.store.campaign import set_house_rules
from ka_tui.store.db import CampaignDB, open_campaign
from tests.ui.pilot_helpers import rows

INIT = [10, 10, 10, 10, 2, 2]  # S0 §1: 4d12, then the other's 2d8 Active Agility
MIKE_WINS = [8, 8, 8, 8, 2, 2]


@pytest.fixture
def db(demo_db: Path) -> Iterator[CampaignDB]:
    handle = open_campaign(demo_db)
    try:
        yield handle
    finally:
        handle.close()


def kinds(db: CampaignDB, path: Path) -> list[str]:
    return [k for (k,) in rows(path, "SELECT kind FROM fight_event ORDER BY seq")]


def ids(db: CampaignDB) -> dict[str, int]:
    from ka_tui.store import roster

    return {c.name: c.id for c in roster.list_characters(db)}


def do(runner: CombatRunner, db: CampaignDB, write: Write) -> None:
    """The screen's worker and done callback, without the screen."""
    read = run_write(db, write, runner.fight_id())
    assert read.refused is None, read.refused
    runner.written(write, read)


def fight(db: CampaignDB, *names: str) -> CombatRunner:
    runner = CombatRunner()
    runner.show(read_fight(db, None))
    people = ids(db)
    do(runner, db, runner.start([(people[names[0]], people[names[1]])]))
    return runner


def card(runner: CombatRunner, *keys: tuple[ActionKind, Grade]) -> Write:
    draft = runner.card_to_fill()
    assert draft is not None
    for kind, grade in keys:
        draft = draft.at_row(kind).added(grade)
    return runner.hand_in(draft)


def test_s0_close_combat_steps_1_to_6_through_the_runner(db: CampaignDB, demo_db: Path) -> None:
    """One round, step by step: each step allows only its own keys, each
    write is one event, and the step after it follows from the log."""
    none = CombatRunner()
    none.show(read_fight(db, None))
    assert none.step is None and none.permit("roll").why == "no fight in progress: n starts one"
    r = fight(db, "Mike Dunn", "Jeanne Moreau")
    assert r.step is FightStep.ORDER and r.round_no == 1
    assert r.permit("roll").state is True and r.permit("card_done").state is False
    assert r.permit("card_done").why == "the cards are handed in at step 2"
    assert r.permit("undo").state is None  # offered, greyed: nothing to undo yet

    do(r, db, r.order(ScriptedDice.of(INIT), typed=False))
    assert r.step is FightStep.PLAN and r.permit("card_done").state is True
    assert r.permit("new_fight").state is False and r.permit("new_fight_quiet").state is True
    assert r.progress is not None
    mike, jeanne = r.progress.fight.order
    assert r.waiting() == mike

    do(r, db, card(r, (ActionKind.FEINT, Grade.BASIC)))
    assert r.waiting() == jeanne and r.entered() == (mike,)
    do(r, db, card(r, (ActionKind.DEFENCE, Grade.BASIC)))
    assert r.step is FightStep.REVEAL and r.permit("reveal").state is True

    do(r, db, r.reveal())
    assert r.step is FightStep.ROLL
    [odds] = r.odds()
    assert 0 < odds.p_a_wins < 1 and len(r.previews()) == 1

    do(r, db, r.round_rolled(ScriptedDice.of(MIKE_WINS)))
    assert r.step is FightStep.RESOLVE and r.permit("detail").state is True
    do(r, db, r.to_damage())
    assert r.step is FightStep.DAMAGE and r.round_no == 1
    assert r.permit("next_round").state is True and r.permit("finish").state is False

    r.next_round()                                   # nothing logged
    assert r.step is FightStep.PLAN and r.round_no == 2 and r.entered() == ()
    assert kinds(db, demo_db) == ["fight_started", "initiative", "card_entered",
                                  "card_entered", "cards_revealed", "dice_rolled",
                                  "round_resolved"]


def test_s0_2_an_invalid_card_is_declined_with_the_engine_reason(db: CampaignDB) -> None:
    """S0 §2: three Deliberates (9 AP) from Mike's 8 AP: nothing to write."""
    r = fight(db, "Mike Dunn", "Jeanne Moreau")
    do(r, db, r.order(ScriptedDice.of(INIT), typed=False))
    three = [(ActionKind.ATTACK, Grade.DELIBERATE)] * 3
    with pytest.raises(Declined, match="spends 9 AP but the pool holds 8"):
        card(r, *three)


def test_s0_1_typed_faces_must_fit_the_order_of_combat(db: CampaignDB) -> None:
    r = fight(db, "Mike Dunn", "Jeanne Moreau")
    # S0 §1: Jeanne has no Combat Initiative: her Active Agility test is 2d8
    with pytest.raises(Declined, match="more faces needed: next a d8"):
        r.order_typed("10 10 10 10")
    with pytest.raises(Declined, match="1 face.s. too many"):
        r.order_typed("10 10 10 10 2 2 5")
    with pytest.raises(Declined, match="type numbers"):
        r.order_typed("ten")
    assert r.order_typed("10 10 10 10 2 2").title == "The order of combat was not saved"


def test_s0_4_the_table_faces_are_checked_die_by_die(db: CampaignDB) -> None:
    """The next die needed is named; a face a die cannot show is refused with
    the die it was for; too many faces are counted."""
    r = fight(db, "Mike Dunn", "Jeanne Moreau")
    do(r, db, r.order(ScriptedDice.of(INIT), typed=False))
    do(r, db, card(r, (ActionKind.ATTACK, Grade.BASIC)))
    do(r, db, card(r, (ActionKind.DEFENCE, Grade.BASIC)))
    do(r, db, r.reveal())
    assert r.faces_hint("8 8")[1].startswith("die 3:")
    problem, status = r.faces_hint("8 13")
    assert problem == status and "13 is not a face of a d12" in problem
    assert r.faces("8 8 8 8 2 2 5").problem == "1 face(s) too many"
    assert r.faces_hint("8 8 8 8 2 2") == ("", "all faces in: enter to resolve the round")
    with pytest.raises(Declined, match="more faces needed"):
        r.round_typed("8 8")
    do(r, db, r.round_typed("8 8 8 8 2 2"))
    assert r.step is FightStep.RESOLVE and r.progress is not None
    assert r.progress.typed_dice


def test_undo_asks_for_the_round_and_redo_puts_it_back(db: CampaignDB, demo_db: Path) -> None:
    r = fight(db, "Mike Dunn", "Jeanne Moreau")
    do(r, db, r.order(ScriptedDice.of(INIT), typed=False))
    do(r, db, card(r, (ActionKind.ATTACK, Grade.BASIC)))
    assert "Undo round 1 of “Mike Dunn vs Jeanne Moreau”" in r.undo_question()
    assert r.permit("redo").state is False
    do(r, db, r.undo())
    assert kinds(db, demo_db) == ["fight_started", "initiative"]
    assert r.permit("redo").state is True and r.redo is not None
    do(r, db, r.redo_write())
    assert kinds(db, demo_db)[-1] == "card_entered" and r.permit("redo").state is False


def test_s0_close_combat_1_reorder_is_offered_at_a_later_round_only(db: CampaignDB) -> None:
    """House rule cqc.initiative_reroll: gm_asks offers o at the start of
    round 2 (before any card); once greys it out with the reason."""
    r = fight(db, "Mike Dunn", "Jeanne Moreau")
    do(r, db, r.order(ScriptedDice.of(INIT), typed=False))
    assert r.permit("reorder").state is False  # round 1
    do(r, db, card(r, (ActionKind.FEINT, Grade.BASIC)))
    do(r, db, card(r, (ActionKind.DEFENCE, Grade.BASIC)))
    do(r, db, r.reveal())
    do(r, db, r.round_rolled(ScriptedDice.of(MIKE_WINS)))
    do(r, db, r.to_damage())
    r.next_round()
    assert r.permit("reorder").state is True
    r.toggle_reorder()
    assert r.step is FightStep.ORDER and r.permit("reorder").state is True
    r.toggle_reorder()
    assert not r.reordering and r.step is FightStep.PLAN  # o again keeps the order

    set_house_rules(db, HouseRules().with_changes(
        "cqc", initiative_reroll=InitiativeReroll.ONCE.value))
    once = fight(db, "Mike Dunn", "Olga Petrova")
    do(once, db, once.order(ScriptedDice.of(INIT), typed=False))
    do(once, db, card(once, (ActionKind.FEINT, Grade.BASIC)))
    do(once, db, card(once, (ActionKind.DEFENCE, Grade.BASIC)))
    do(once, db, once.reveal())
    do(once, db, once.round_rolled(ScriptedDice.of(MIKE_WINS + [2, 12])))
    do(once, db, once.to_damage())
    once.next_round()
    refused = once.permit("reorder")
    assert refused.state is None and "cqc.initiative_reroll=once" in refused.why


def test_a_late_write_is_refused_and_shows_the_fight_as_it_is(db: CampaignDB) -> None:
    """Two runners on one fight (two windows): the second one's card for the
    same fighter writes nothing and reads the fight anew."""
    a = fight(db, "Mike Dunn", "Jeanne Moreau")
    do(a, db, a.order(ScriptedDice.of(INIT), typed=False))
    b = CombatRunner()
    b.show(read_fight(db, a.fight_id()))
    do(a, db, card(a, (ActionKind.ATTACK, Grade.BASIC)))
    late = run_write(db, card(b, (ActionKind.EVADE, Grade.BASIC)), b.fight_id())
    assert late.refused is not None and "Another window changed this fight" in str(late.refused)
    b.show(late)
    assert b.progress is not None and b.progress.seq == a.progress.seq  # type: ignore[union-attr]
    assert b.live(a.progress, b.shown) is Live.SKIP  # type: ignore[arg-type]
    assert b.live(a.progress, b.shown - 1) is Live.SKIP  # type: ignore[arg-type]


def test_a_card_typed_during_a_live_read_is_kept(db: CampaignDB) -> None:
    r = fight(db, "Mike Dunn", "Jeanne Moreau")
    do(r, db, r.order(ScriptedDice.of(INIT), typed=False))
    typed = r.card_to_fill()
    assert typed is not None
    typed = typed.at_row(ActionKind.ATTACK).added(Grade.DELIBERATE)
    fresh = r.card_to_fill()
    kept = r.keep_card(typed, fresh)
    assert kept is not None and kept.cards == typed.cards and kept.row == 0


def test_the_runner_needs_no_textual() -> None:
    """Headless: the runner and its permits import no Textual (and so can be
    tested, and shared, without a screen)."""
    code = ("import sys, ka_tui.screens.combat.runner; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"
