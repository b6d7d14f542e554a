"""Whole rounds of close combat with scripted faces (S0 §Close combat 3-6):
opposed test cases, saves, state transitions, several opponents, replay.

Both fighters have Close Combat 5 on 2d10 unless said: each die needs 7+
(RULES-NOTES A `opposed` table, equal skills); 10 is a critical success.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ka_tui.rules.cqc import (
    CardsInvalid, CqcCard, EffectKind, Fight, Fighter, Outcome, Standing, Weapon,
    card_budget, resolve_round,
)
from ka_tui.rules.core.dice import DiceError, RandomDice
from ka_tui.rules.core.options import CqcOptions, HouseRules, MultiOpponent
from tests.rules.hypothesis_counts import scaled

KNIFE = Weapon("knife", 3)


def ann(**kw: object) -> Fighter:
    return replace(Fighter.new("ann", "Ann", strength=2, agility=5, cc_number=5,
                               cc_pool=(10, 10), weapons=(KNIFE,), k_points=6), **kw)


def bob(**kw: object) -> Fighter:
    return replace(Fighter.new("bob", "Bob", strength=3, agility=4, cc_number=5,
                               cc_pool=(10, 10), armour=2, k_points=6), **kw)


def duel(a: Fighter | None = None, b: Fighter | None = None) -> Fight:
    return Fight.start([a or ann(), b or bob()], [("ann", "bob")])


def card(owner: str, **kw: object) -> CqcCard:
    return CqcCard.build(owner, "bob" if owner == "ann" else "ann", **kw)  # type: ignore[arg-type]


def winner(fight: Fight, faces: list[int], cards: tuple[CqcCard, ...] = ()) -> str | None:
    _, rep = resolve_round(fight, cards, faces)
    return rep.pairings[0].contest.winner


# --- S0 §4: the opposed round ------------------------------------------------

def test_s0_4_both_pass_most_successes_wins() -> None:
    assert winner(duel(), [8, 9, 8, 3]) == "ann"
    assert winner(duel(), [8, 3, 8, 9]) == "bob"


def test_s0_4_draw_highest_close_combat_wins() -> None:
    # Ann CC 6 needs 6+, Bob CC 5 needs 8+; one success each.
    assert winner(duel(ann(cc_number=6)), [6, 2, 8, 2]) == "ann"


def test_s0_4_draw_then_highest_agility_wins() -> None:
    assert winner(duel(), [8, 2, 8, 2]) == "ann"  # Agility 5 vs 4


def test_s0_4_draw_all_the_way_roll_off_d12() -> None:
    fight = duel(b=bob(agility=5))
    _, rep = resolve_round(fight, (), [8, 2, 8, 2, 6, 6, 3, 9])
    c = rep.pairings[0].contest
    assert c.winner == "bob" and c.rolloff == ((6, 6), (3, 9))


def test_s0_4_failed_test_loses_and_its_attacks_do_not_reach() -> None:
    cards = (card("ann", feint="b"), card("bob", attack="2b"))
    after, rep = resolve_round(duel(), cards, [8, 3, 3, 2])
    assert rep.pairings[0].contest.standings == (Standing.WON, Standing.LOST_FAILED)
    assert after.fighter("ann").ap == 6


def test_s0_4_critical_fail_opponent_wins_even_without_a_success() -> None:
    cards = (card("ann", defence="d", feint="b"), card("bob", attack="b"))
    after, rep = resolve_round(duel(), cards, [1, 8, 2, 3])
    assert rep.pairings[0].contest.winner == "bob"
    assert after.fighter("ann").ap == 6 - 3          # Defence was not made
    assert after.fighter("ann").feint == ()           # nor the Feint


def test_s0_4_critical_fail_negated_by_a_critical_success_on_another_die() -> None:
    _, rep = resolve_round(duel(), (), [1, 10, 2, 3])
    assert rep.pairings[0].contest.standings[0] is Standing.WON


def test_s0_4_critical_success_wins_against_more_successes() -> None:
    assert winner(duel(), [10, 2, 8, 9]) == "ann"


def test_s0_4_both_critical_most_successes_wins() -> None:
    assert winner(duel(), [10, 2, 10, 8]) == "bob"


def test_s0_4_both_critical_equal_successes_highest_skill_wins() -> None:
    # Ann CC 6 needs 6+, Bob CC 5 needs 8+; a 10 and a 2 each.
    assert winner(duel(ann(cc_number=6)), [10, 2, 10, 2]) == "ann"


def test_s0_4_both_critical_all_equal_roll_off() -> None:
    _, rep = resolve_round(duel(), (), [10, 2, 10, 2, 5, 11])
    assert rep.pairings[0].contest.winner == "bob"


def test_rules_notes_b_both_fail_stand_off() -> None:
    cards = (card("ann", attack="b", defence="b"), card("bob", attack="b", feint="b"))
    after, rep = resolve_round(duel(), cards, [2, 3, 4, 5])
    assert rep.pairings[0].contest.winner is None
    assert after.fighter("ann").ap == 6 and after.fighter("ann").ap_retained == 1
    assert after.fighter("bob").feint_against("ann") == 1


# --- S0 §6: saves, AP, K-points, the end of the fight ------------------------

def test_s0_6_armour_save_d12_plus_armour_against_13() -> None:
    cards = (card("ann", attack="2b", weapon="knife"), card("bob"))
    after, rep = resolve_round(duel(), cards, [8, 9, 3, 2, 11, 10])
    saves = [e for e in rep.pairings[0].effects if e.kind is EffectKind.SAVE]
    assert [(s.faces, s.amount) for s in saves] == [((11,), 1), ((10,), 0)]
    assert after.fighter("bob").k_points == 6 - 3
    assert after.fighter("bob").ap == 6  # a weapon hit costs no AP (RULES-NOTES B)


def test_s0_6_resistance_save_without_armour_and_crits_on_the_save() -> None:
    fight = duel(b=bob(armour=0, resistance=12))
    cards = (card("ann", attack="2b", weapon="knife"), card("bob"))
    after, _ = resolve_round(fight, cards, [8, 9, 3, 2, 2, 1])  # 2+12 saves; a 1 fails
    assert after.fighter("bob").k_points == 3
    weak = duel(b=bob(armour=0, resistance=0))
    after, _ = resolve_round(weak, cards, [8, 9, 3, 2, 12, 11])  # a 12 always saves
    assert after.fighter("bob").k_points == 3


def test_house_rule_save_stat_best() -> None:
    rules = HouseRules().with_changes("cqc", save_stat="best")
    fight = duel(b=bob(armour=1, resistance=4))
    cards = (card("ann", attack="b", weapon="knife"), card("bob"))
    after, _ = resolve_round(fight, cards, [8, 9, 3, 2, 9], rules)  # 9 + 4 = 13
    assert after.fighter("bob").k_points == 6


def test_s0_6_k_points_at_zero_is_out_and_the_fight_ends() -> None:
    fight = duel(b=bob(k_points=3))
    cards = (card("ann", attack="2b", weapon="knife"), card("bob"))
    after, rep = resolve_round(fight, cards, [8, 9, 3, 2, 2])  # second save never rolled
    assert after.fighter("bob").out and after.fighter("bob").k_points == 0
    assert after.over and "out of the fight" in (after.pairings[0].ended or "")
    assert [e.kind for e in rep.effects] == [EffectKind.OUT]
    assert rep.face_values == (8, 9, 3, 2, 2)


def test_ap_clamps_at_zero_and_the_fighter_plays_an_empty_card() -> None:
    """S0 §Close combat 2.2 Attack (AP loss by Strength), RULES-NOTES B: a pool never below 0; 0 AP plays an empty card."""
    fight = duel(a=ann(strength=4))
    cards = (card("ann", attack="2b"), card("bob"))
    after, _ = resolve_round(fight, cards, [8, 9, 3, 2])
    assert after.fighter("bob").ap == 0 and after.fighter("bob").pool == 0
    assert not after.fighter("bob").out and not after.over
    assert card_budget(CqcCard("bob", "ann"), 0).over == 0


def test_house_rule_zero_ap_is_out() -> None:
    rules = HouseRules().with_changes("cqc", zero_ap_is_out=True)
    cards = (card("ann", attack="2b"), card("bob"))
    after, _ = resolve_round(duel(a=ann(strength=4)), cards, [8, 9, 3, 2], rules)
    assert after.fighter("bob").out and after.over


def test_s0_2_unspent_ap_is_lost_and_defence_retains_for_the_next_round() -> None:
    cards = (card("ann", feint="b"), card("bob", defence="b"))
    after, _ = resolve_round(duel(), cards, [8, 9, 3, 2])
    assert after.fighter("ann").pool == 6              # 5 unspent AP are not kept
    assert after.fighter("bob").pool == 6 + 1          # RULES-NOTES B pool
    again, _ = resolve_round(after, (), [8, 9, 3, 2])
    assert again.fighter("bob").pool == 6              # retention lasts one round


def test_s0_2_2_defence_retains_no_more_than_the_pool_held() -> None:
    """'retains ... from your pool': a Special Defence from 2 AP keeps 2, not 3."""
    fight = duel(b=bob(ap=2))
    after, _ = resolve_round(fight, (card("ann"), card("bob", defence="s")), [8, 9, 3, 2])
    assert after.fighter("bob").ap_retained == 2


def test_s0_2_2_feint_bonus_lasts_for_the_fight_with_that_opponent() -> None:
    after, _ = resolve_round(duel(), (card("ann", feint="d"), card("bob")), [8, 9, 3, 2])
    assert after.fighter("ann").feint_against("bob") == 2
    _, rep = resolve_round(after, (), [5, 2, 9, 2])  # Ann CC 7 needs 5+, Bob 9+
    c = rep.pairings[0].contest
    assert c.numbers == (7, 5) and c.successes == (1, 1) and c.winner == "ann"


def test_s0_2_2_disarm_moves_the_weapon_between_quick_slots() -> None:
    cards = (card("ann"), card("bob", disarm="b"))
    after, _ = resolve_round(duel(), cards, [3, 2, 8, 9])
    assert after.fighter("ann").weapons == () and after.fighter("bob").weapons == (KNIFE,)


def test_s0_2_2_control_then_release() -> None:
    after, _ = resolve_round(duel(), (card("ann", control="b"), card("bob")), [8, 9, 3, 2])
    assert after.fighter("bob").controlled_by == "ann"
    kept, _ = resolve_round(after, (card("ann", control="b"), card("bob")), [8, 9, 3, 2])
    assert kept.fighter("bob").controlled_by == "ann"
    freed, _ = resolve_round(kept, (card("ann", control="b"), card("bob")), [3, 2, 8, 9])
    assert freed.fighter("bob").controlled_by is None


def test_s0_2_2_evade_and_win_disengage_ends_the_fight_for_that_side() -> None:
    cards = (card("ann", evade="b", disengage=True), card("bob", attack="b"))
    after, rep = resolve_round(duel(), cards, [8, 9, 3, 2])
    assert after.fighter("ann").disengaged and after.over
    assert "disengaged" in (after.pairings[0].ended or "")
    with pytest.raises(CardsInvalid, match="faces nobody"):
        resolve_round(after, (card("ann", attack="b"),), [])


# --- S0 §3 order, several opponents ----------------------------------------

def trio(**opts: object) -> tuple[Fight, HouseRules]:
    cid = Fighter.new("cid", "Cid", strength=1, agility=3, cc_number=5, cc_pool=(10, 10))
    fight = replace(Fight.start([ann(), bob(), cid], [("ann", "bob"), ("ann", "cid")]),
                    order=("cid", "ann", "bob"))
    return fight, HouseRules().with_changes("cqc", **opts)


def test_s0_3_pairings_resolve_in_the_order_of_combat() -> None:
    fight, rules = trio()
    assert [p.b for p in fight.active_pairings] == ["cid", "bob"]
    _, rep = resolve_round(fight, (), [8, 9, 3, 2, 8, 9, 3, 2], rules)
    assert [(p.a, p.b) for p in rep.pairings] == [("ann", "cid"), ("ann", "bob")]


def test_house_rule_multi_opponent_split_shares_the_pool() -> None:
    fight, rules = trio()
    over = (CqcCard.build("ann", "bob", attack="d"), CqcCard.build("ann", "cid", attack="d", defence="b"))
    with pytest.raises(CardsInvalid, match="spend 7 AP together"):
        resolve_round(fight, over, [], rules)
    cards = (CqcCard.build("ann", "bob", attack="d"), CqcCard.build("ann", "cid", attack="d"),
             CqcCard.build("bob", "ann", attack="b"), CqcCard.build("cid", "ann", attack="b"))
    # Ann beats Cid; Bob beats Ann.
    after, rep = resolve_round(fight, cards, [8, 9, 3, 2, 3, 2, 8, 9], rules)
    assert after.fighter("cid").ap == 6 - 2   # S0 §2.2: Ann's Strength 2, once
    assert after.fighter("ann").ap == 6 - 3   # Bob's hit lands; Cid failed, so his does not
    assert [f.outcome for f in rep.fates if f.unit.owner == "cid"] == [Outcome.NO_EFFECT]


def test_s0_2_2_feint_counts_only_against_that_opponent() -> None:
    fight, rules = trio()
    cards = (CqcCard.build("ann", "bob", feint="d"),)
    after, _ = resolve_round(fight, cards, [8, 9, 3, 2, 8, 9, 3, 2], rules)
    ann_ = after.fighter("ann")
    assert ann_.feint_against("bob") == 2 and ann_.feint_against("cid") == 0
    _, rep = resolve_round(after, (), [8, 9, 3, 2, 8, 9, 3, 2], rules)
    numbers = {(p.a, p.b): p.contest.numbers for p in rep.pairings}
    assert numbers == {("ann", "bob"): (7, 5), ("ann", "cid"): (5, 5)}


def test_house_rule_multi_opponent_each_applies_one_card_to_every_opponent() -> None:
    fight, rules = trio(multi_opponent=MultiOpponent.EACH.value)
    cards = (CqcCard.build("ann", "bob", attack="d"),)
    after, _ = resolve_round(fight, cards, [8, 9, 3, 2, 8, 9, 3, 2], rules)
    assert after.fighter("bob").ap == 6 - 2 and after.fighter("cid").ap == 6 - 2


# --- cards, dice, replay, serialisation ----------------------------------

def test_invalid_cards_are_refused_with_reasons() -> None:
    with pytest.raises(CardsInvalid) as err:
        resolve_round(duel(), (card("ann", attack="3d"),), [8, 9, 3, 2])
    assert "spends 9 AP but the pool holds 6" in str(err.value)
    with pytest.raises(CardsInvalid, match="quick slots"):
        resolve_round(duel(), (card("bob", attack="b", weapon="knife"),), [8, 9, 3, 2])
    with pytest.raises(CardsInvalid, match="not fighting"):
        resolve_round(duel(), (CqcCard.build("ann", "zed", attack="b"),), [])


def test_faces_that_do_not_fit_are_refused() -> None:
    with pytest.raises(DiceError):
        resolve_round(duel(), (), [8, 9, 3])
    with pytest.raises(DiceError, match="left over"):
        resolve_round(duel(), (), [8, 9, 3, 2, 5])
    with pytest.raises(DiceError):
        resolve_round(duel(), (), [8, 11, 3, 2])


def test_replaying_the_recorded_faces_gives_the_same_round() -> None:
    cards = (card("ann", attack="b", feint="b", weapon="knife", defence="b"),
             card("bob", attack="d", evade="b"))
    fight = duel()
    for seed in range(20):
        after, rep = resolve_round(fight, cards, RandomDice(seed))
        again, rep2 = resolve_round(fight, cards, list(rep.face_values))
        assert (again, rep2) == (after, rep)


def test_state_and_report_survive_json() -> None:
    cards = (card("ann", attack="b", weapon="knife"), card("bob", control="b", defence="b"))
    after, rep = resolve_round(duel(), cards, RandomDice(7))
    assert Fight.from_dict(json.loads(json.dumps(after.to_dict()))) == after
    data = json.loads(json.dumps(rep.to_dict()))
    assert data["lines"] == list(rep.lines) and data["faces"] == [list(f) for f in rep.faces]


def test_report_lists_every_action_its_canceller_and_rule() -> None:
    cards = (card("ann", defence="d", attack="b"), card("bob", attack="3b"))
    _, rep = resolve_round(duel(), cards, [8, 9, 3, 2])
    cancelled = [f for f in rep.fates if f.outcome is Outcome.CANCELLED]
    assert len(cancelled) == 3
    assert all(f.cancelled_by[0].label == "Deliberate Defence" for f in cancelled)
    text = "\n".join(rep.lines)
    assert "Bob's Basic Attack #3: CANCELLED, cancelled by Ann's Deliberate Defence" in text
    assert "S0 §2.1: a Deliberate cancels three Basic" in text
    assert text.isascii() or "§" in text


# --- invariants --------------------------------------------------------------

def random_card(draw: st.DrawFn, me: Fighter, against: str) -> CqcCard:
    from ka_tui.rules.cqc.card import ActionKind
    kinds = [k.value for k in ActionKind]
    pool = me.pool
    if pool >= 1 and draw(st.integers(0, 5)) == 0:
        spec = {draw(st.sampled_from(kinds)): "s"}
    else:
        left, spec = pool, {}
        for kind in kinds:
            d = draw(st.integers(0, left // 3))
            left -= 3 * d
            b = draw(st.integers(0, left))
            left -= b
            text = " ".join(t for t in (f"{b}b" if b else "", f"{d}d" if d else "") if t)
            if text:
                spec[kind] = text
    weapon = None
    if "attack" in spec and me.weapons:
        weapon = draw(st.sampled_from([None, *(w.name for w in me.weapons)]))
    disengage = "evade" in spec and draw(st.booleans())
    return CqcCard.build(me.id, against, weapon=weapon, disengage=disengage, **spec)


@st.composite
def fights(draw: st.DrawFn) -> tuple[Fight, HouseRules, list[int]]:
    def fighter(fid: str) -> Fighter:
        return Fighter.new(fid, fid.title(), strength=draw(st.integers(0, 4)),
                           agility=draw(st.integers(1, 6)), cc_number=draw(st.integers(1, 8)),
                           cc_pool=draw(st.sampled_from([(8, 8), (10, 10), (10, 10, 10, 12)])),
                           ap_max=draw(st.integers(0, 8)), k_points=draw(st.integers(1, 6)),
                           armour=draw(st.integers(0, 3)),
                           weapons=draw(st.sampled_from([(), (KNIFE,)])))
    fight = Fight.start([fighter("ann"), fighter("bob")], [("ann", "bob")])
    rules = HouseRules().with_changes(
        "cqc", loser_attacks_land=draw(st.booleans()), loser_defence_blocks=draw(st.booleans()),
        losing_special_as_deliberate=draw(st.booleans()))
    return fight, rules, draw(st.lists(st.integers(0, 2**16), min_size=1, max_size=4))


@settings(max_examples=scaled(60), deadline=None)
@given(fights(), st.data())
def test_ap_and_k_points_never_go_negative_and_replays_match(
        setup: tuple[Fight, HouseRules, list[int]], data: st.DataObject) -> None:
    fight, rules, seeds = setup
    for seed in seeds:
        if fight.over:
            break
        cards = tuple(data.draw(st.composite(lambda d, f=f, o=o: random_card(d, f, o))())
                      for f in fight.fighters for o in fight.opponents_of(f.id))
        after, rep = resolve_round(fight, cards, RandomDice(seed), rules)
        replay = resolve_round(fight, cards, list(rep.face_values), rules)
        assert replay == (after, rep)
        for f in after.fighters:
            assert 0 <= f.ap <= f.ap_max and f.k_points >= 0 and f.pool >= 0
            assert 0 <= f.ap_retained <= fight.fighter(f.id).pool
        units = sum(ln.count for c in cards for ln in c.lines)
        assert len(rep.fates) == units
        winners = {p.contest.winner for p in rep.pairings}
        for f in rep.fates:
            if "Special beats all" in f.rule:
                assert f.cancelled_by[0].owner in winners
        json.dumps(rep.to_dict())
        fight = after


def test_options_defaults_are_the_rules_notes_b_ones() -> None:
    o = CqcOptions()
    assert (o.loser_defence_blocks, o.loser_attacks_land, o.save_target) == (True, True, 13)
    assert HouseRules.from_dict(HouseRules().to_dict()).cqc == o
    gm = HouseRules.from_dict({"cqc": {"multi_opponent": "each", "attack_hits": [1, 3, 5]}})
    assert gm.cqc.multi_opponent is MultiOpponent.EACH and gm.cqc.attack_hits == (1, 3, 5)
    with pytest.raises(ValueError, match="multi_opponent"):
        HouseRules.from_dict({"cqc": {"multi_opponent": "both"}})


def test_a_short_attack_hits_table_repeats_its_last_entry() -> None:
    rules = HouseRules().with_changes("cqc", attack_hits=(2,))
    after, _ = resolve_round(duel(), (card("ann", attack="d"),), [8, 9, 3, 2], rules)
    assert after.fighter("bob").ap == 6 - 2 * 2


# --- physical dice at the table ---------------------------------------------

def test_next_die_walks_a_gm_through_the_round_die_by_die() -> None:
    from ka_tui.rules.cqc import next_die
    fight = duel(b=bob(agility=5))
    cards = (card("ann", attack="b", weapon="knife"),)
    entered: list[int] = []
    asked = []
    for face in [8, 2, 8, 2, 5, 9, 4]:
        need = next_die(fight, cards, entered)
        assert need is not None and need.index == len(entered)
        asked.append((need.sides, need.label))
        entered.append(face)
    assert next_die(fight, cards, entered) is None
    assert asked[0] == (10, "Ann's Close Combat against Bob: d10 (1/2)")
    assert asked[4] == (12, "Ann vs Bob: d12 roll-off, Ann's die")
    assert asked[6] == (12, "Bob's save against knife (d12)")
    _, rep = resolve_round(fight, cards, entered)
    assert rep.dice_labels == tuple(label for _, label in asked)


def test_next_die_refuses_faces_that_do_not_fit() -> None:
    from ka_tui.rules.cqc import next_die
    with pytest.raises(DiceError):
        next_die(duel(), (), [11])
    with pytest.raises(DiceError, match="left over"):
        next_die(duel(), (), [8, 9, 3, 2, 4])


def test_s0_3_actions_are_revealed_in_the_order_of_combat() -> None:
    fight = replace(duel(), order=("bob", "ann"))
    cards = (card("ann", attack="b"), card("bob", feint="b"))
    _, rep = resolve_round(fight, cards, [8, 9, 3, 2])
    assert [f.unit.owner for f in rep.fates] == ["bob", "ann"]


def test_report_names_a_controlled_fighter_at_the_start_of_the_round() -> None:
    fight = duel(b=bob(controlled_by="ann"))
    _, rep = resolve_round(fight, (), [8, 9, 3, 2])
    assert any("Bob is under Ann's control this round" in ln for ln in rep.lines)


def test_a_fight_is_rebuilt_from_its_log_without_rolling() -> None:
    from ka_tui.rules.cqc import replay
    fight = duel().with_order(("bob", "ann"))
    log, live = [], fight
    dice = RandomDice(3)
    for _ in range(4):
        if live.over:
            break
        cards = tuple(card(f.id, attack="b", feint="b") if f.pool >= 2 else card(f.id)
                      for f in live.fighters)
        live, rep = resolve_round(live, cards, dice)
        log.append((cards, rep.face_values))
    rebuilt, reports = replay(fight, log)
    assert rebuilt == live and len(reports) == len(log)
    with pytest.raises(ValueError, match="every fighter once"):
        fight.with_order(("ann",))


# --- what the round records for the GM --------------------------------------

def test_s0_4_each_die_of_the_round_is_labelled_for_the_gm_in_order() -> None:
    """S0 §4 dice in the rules core's order: Ann's pool, Bob's pool, then the
    d12 roll-off in pairs (Ann's die, then Bob's) -- every label, none skipped."""
    _, rep = resolve_round(duel(b=bob(agility=5)), (), [8, 2, 8, 2, 5, 9])
    assert rep.dice_labels == (
        "Ann's Close Combat against Bob: d10 (1/2)", "Ann's Close Combat against Bob: d10 (2/2)",
        "Bob's Close Combat against Ann: d10 (1/2)", "Bob's Close Combat against Ann: d10 (2/2)",
        "Ann vs Bob: d12 roll-off, Ann's die", "Ann vs Bob: d12 roll-off, Bob's die")


def test_labelled_dice_without_a_stage_call_every_die_an_extra_die() -> None:
    """The dice a GM is asked for (S0 §4, §6) carry a label; a die rolled
    before any stage is named reads "extra die" and is still recorded."""
    from ka_tui.rules.core.dice import ScriptedDice
    from ka_tui.rules.cqc import LabelledDice
    rec = LabelledDice(ScriptedDice.of([4, 11]))
    assert rec.next_label == "extra die"
    assert (rec.roll(6), rec.roll(12)) == (4, 11)
    assert rec.used == [(6, 4), (12, 11)] and rec.labels == ["extra die", "extra die"]


def test_s0_4_a_roll_off_win_cites_the_roll_off_as_what_decided_it() -> None:
    """S0 §4: both passed with equal successes, Close Combat and Agility: the
    d12 roll-off decides, and the rule the GM reads names it."""
    _, rep = resolve_round(duel(b=bob(agility=5)), (), [8, 2, 8, 2, 5, 9])
    c = rep.pairings[0].contest
    assert c.decided_by == "d12 roll-off" and c.winner == "bob"
    assert c.rule == "S0 §4: both passed; d12 roll-off"


def test_s0_4_the_contest_record_names_both_sides() -> None:
    """S0 §4: the opposed test of Ann (A) against Bob (B), kept by id in the
    report and its saved form."""
    _, rep = resolve_round(duel(), (), [8, 9, 3, 2])
    c = rep.pairings[0].contest
    assert (c.a, c.b) == ("ann", "bob")
    assert (c.to_dict()["a"], c.to_dict()["b"]) == ("ann", "bob")


def test_s0_6_a_fighter_already_out_does_not_stop_the_others_losses() -> None:
    """S0 §6: every fighter still in the fight takes the round's losses, even
    listed after one who is already out (RULES-NOTES B: K-points at 0)."""
    carl = replace(Fighter.new("carl", "Carl", strength=2, agility=3, cc_number=3,
                               cc_pool=(10,), k_points=6), out=True)
    fight = Fight.start([carl, ann(), bob()], [("ann", "bob")])
    cards = (card("ann", attack="b"), card("bob"))
    after, _ = resolve_round(fight, cards, [8, 9, 3, 2])
    alone, _ = resolve_round(duel(), cards, [8, 9, 3, 2])
    assert after.fighter("bob").ap == alone.fighter("bob").ap < bob().ap
    assert after.fighter("carl") == carl


def test_s0_3_a_fight_without_an_order_of_combat_reveals_a_first() -> None:
    """S0 §3: actions are revealed in the order of combat; a fight that has
    none recorded (``Fight.order`` empty, as in a log saved before it) still
    resolves, pairing side A first."""
    fight = replace(duel(), order=())
    cards = (card("ann", feint="b"), card("bob", attack="b"))
    _, rep = resolve_round(fight, cards, [8, 9, 3, 2])
    assert [f.unit.owner for f in rep.fates] == ["ann", "bob"]


def test_s0_2_2_two_controls_over_one_fighter_the_first_in_the_order_holds() -> None:
    """S0 §2.2 Control, S0 §3 order of combat: Cid and Bob both win a Control
    over Ann in the same round; Cid, first in the order, holds him."""
    fight, rules = trio()
    cards = (CqcCard.build("cid", "ann", control="b"), CqcCard.build("bob", "ann", control="b"))
    after, _ = resolve_round(fight, cards, [3, 2, 8, 9, 3, 2, 8, 9], rules)
    assert after.fighter("ann").controlled_by == "cid"


def test_house_rule_multi_opponent_each_refuses_a_second_card() -> None:
    """House rule multi_opponent=each: one card against all opponents, so a
    second card is refused when the round is resolved (S0 §2)."""
    fight, rules = trio(multi_opponent=MultiOpponent.EACH.value)
    cards = (CqcCard.build("ann", "bob", attack="b"), CqcCard.build("ann", "cid", feint="b"))
    with pytest.raises(CardsInvalid, match="more than one card"):
        resolve_round(fight, cards, [8, 9, 3, 2, 8, 9, 3, 2], rules)


def test_the_round_report_opens_with_its_round_number() -> None:
    """The text report of a round (S0 §Close combat steps 2-6) heads with
    the round it is, then each pairing's opposed test (S0 §4)."""
    after, rep = resolve_round(duel(), (), [8, 9, 3, 2])
    assert rep.lines[:2] == ("Round 1", "Ann vs Bob: opposed test (S0 §4)")
    _, rep2 = resolve_round(after, (), [8, 9, 3, 2])
    assert rep2.lines[0] == "Round 2"


def test_cards_refused_for_several_reasons_read_as_one_message() -> None:
    """S0 §2: every reason the cards cannot be played, per fighter, in one
    message the GM reads, the reasons parted by '; '."""
    cards = (card("ann", attack="3d"), card("bob", attack="b", weapon="knife"))
    with pytest.raises(CardsInvalid) as err:
        resolve_round(duel(), cards, [8, 9, 3, 2])
    assert str(err.value) == ("ann: the card spends 9 AP but the pool holds 6 (S0 §2); "
                              "bob: 'knife' is not in bob's quick slots")
