"""S0 §Close combat 6, "Resolve damage, and determine next step": the
effects of every pairing applied together (``cqc.round.apply_round``), with
fighters facing several opponents (house rule ``cqc.multi_opponent``)."""

from __future__ import annotations

from dataclasses import replace

from ka_tui.rules.core.options import CqcOptions, MultiOpponent
from ka_tui.rules.cqc import Fight, Fighter, Weapon
from ka_tui.rules.cqc.report import ContestRecord, PairingReport
from ka_tui.rules.cqc.resolution import Effect, EffectKind
from ka_tui.rules.cqc.round import R_OUT, R_ZERO_AP, apply_round
from ka_tui.rules.cqc.standing import Standing

OPTS = CqcOptions()


def fighter(fid: str, **kw: object) -> Fighter:
    f = Fighter.new(fid, fid.title(), strength=2, agility=4, cc_number=5, cc_pool=(10, 10),
                    k_points=5)
    return replace(f, **kw)


def trio(**kw: object) -> Fight:
    """Ann faces Bob and Cid (S0 §2.1 "opponent(s)")."""
    return Fight.start([fighter("ann", **kw), fighter("bob"), fighter("cid")],
                       [("ann", "bob"), ("ann", "cid")])


def report(a: str, b: str, *effects: Effect) -> PairingReport:
    contest = ContestRecord(a, b, (5, 5), ((10, 10), (10, 10)), ((8, 8), (2, 2)), (2, 0),
                            (Standing.WON, Standing.LOST_FAILED), a, "successes", (),
                            "", ())
    return PairingReport(a, b, contest, (), effects)


def test_s0_6_losses_from_two_opponents_add_up() -> None:
    """S0 §2.2 Attack (AP) and §6 (K-points): both pairings' losses count."""
    fight = trio()
    after, effects = apply_round(fight, [
        report("ann", "bob", Effect(EffectKind.K_LOSS, "ann", "bob", 2),
               Effect(EffectKind.AP_LOSS, "ann", "bob", 1)),
        report("ann", "cid", Effect(EffectKind.K_LOSS, "ann", "cid", 1),
               Effect(EffectKind.AP_LOSS, "ann", "cid", 2))], OPTS)
    ann = after.fighter("ann")
    assert (ann.k_points, ann.ap) == (5 - 3, 6 - 3) and effects == ()
    assert after.round == 2 and all(p.active for p in after.pairings)


def test_s0_2_2_defence_kept_per_card_or_once_for_one_card() -> None:
    """Retained AP: split -- each card's Defence keeps its own (added up);
    each -- one card against every opponent, so the best pairing counts once;
    never more than the pool held."""
    fight = trio()
    reps = [report("ann", "bob", Effect(EffectKind.RETAIN, "ann", "ann", 2),
                   Effect(EffectKind.RETAIN, "ann", "ann", 1)),
            report("ann", "cid", Effect(EffectKind.RETAIN, "ann", "ann", 2))]
    split, _ = apply_round(fight, reps, OPTS)
    assert split.fighter("ann").ap_retained == 5
    each, _ = apply_round(fight, reps, replace(OPTS, multi_opponent=MultiOpponent.EACH))
    assert each.fighter("ann").ap_retained == 3
    capped, _ = apply_round(trio(ap=4), reps, OPTS)
    assert capped.fighter("ann").ap_retained == 4


def test_s0_6_out_of_k_points_ends_every_pairing_of_his() -> None:
    """RULES-NOTES B: K-points at 0 is out of the fight."""
    fight = trio()
    after, effects = apply_round(fight, [
        report("ann", "bob", Effect(EffectKind.K_LOSS, "ann", "bob", 5),
               Effect(EffectKind.K_LOSS, "bob", "ann", 9))], OPTS)
    assert effects == (Effect(EffectKind.OUT, "ann", "ann", 0, None, R_OUT,
                              "Ann is out of the fight"),
                       Effect(EffectKind.OUT, "bob", "bob", 0, None, R_OUT,
                              "Bob is out of the fight"))
    assert [p.ended for p in after.pairings] == ["Ann and Bob out of the fight",
                                                 "Ann out of the fight"]
    assert after.over and not after.fighter("ann").disengaged


def test_house_rule_zero_ap_is_out() -> None:
    on = replace(OPTS, zero_ap_is_out=True)
    fight = trio(ap=2)
    lose = [report("ann", "bob", Effect(EffectKind.AP_LOSS, "ann", "bob", 2))]
    after, effects = apply_round(fight, lose, on)
    assert effects == (Effect(EffectKind.OUT, "ann", "ann", 0, None, R_ZERO_AP,
                              "Ann has no AP left and is out of the fight"),)
    assert after.fighter("ann").out and after.over
    kept, none = apply_round(fight, lose, OPTS)
    assert none == () and not kept.fighter("ann").out and kept.fighter("ann").pool == 0


def test_s0_2_2_disengaging_from_one_of_two_opponents_leaves_him_in_the_fight() -> None:
    """S0 §2.2 Evade: he "may disengage from combat" -- from that opponent;
    still locked with the other, he is not out of the fight."""
    fight = trio()
    away = Effect(EffectKind.DISENGAGE, "ann", "bob")
    after, _ = apply_round(fight, [report("ann", "bob", away)], OPTS)
    assert after.pairings[0].ended == "Ann disengaged (S0 §2.2 Evade)"
    assert after.pairings[1].active and not after.fighter("ann").disengaged
    gone, _ = apply_round(after, [report("ann", "cid",
                                         Effect(EffectKind.DISENGAGE, "ann", "cid"))], OPTS)
    assert gone.fighter("ann").disengaged and gone.over
    assert not gone.fighter("bob").disengaged      # left behind, not disengaged


def test_s0_2_2_control_lasts_only_while_both_are_still_fighting() -> None:
    """S0 §2.2 Control: the controlled fighter comes free when his pairing with
    the controller ends; a control between two still fighting holds."""
    fight = trio()
    hold = report("ann", "bob", Effect(EffectKind.CONTROL, "bob", "ann"))
    after, _ = apply_round(fight, [hold], OPTS)
    assert after.fighter("bob").controlled_by == "ann"
    bob_out = report("ann", "bob", Effect(EffectKind.CONTROL, "bob", "ann"),
                     Effect(EffectKind.K_LOSS, "bob", "ann", 5))
    freed, _ = apply_round(fight, [bob_out], OPTS)
    assert freed.fighter("bob").out and freed.fighter("bob").controlled_by is None
    cid_held = report("ann", "cid", Effect(EffectKind.CONTROL, "cid", "ann"),
                      Effect(EffectKind.K_LOSS, "ann", "cid", 5))
    loose, _ = apply_round(fight, [cid_held], OPTS)
    assert loose.fighter("cid").controlled_by is None     # his controller is out


# --- S0 §2 the round's cards, S0 §4 each side's test ------------------------

def test_s0_2_every_reason_a_rounds_cards_cannot_be_played_with_its_field() -> None:
    from ka_tui.rules.cqc import CardError, CqcCard, validate_round_cards

    fight = trio()
    fight = replace(fight, pairings=(fight.pairings[0],
                                     replace(fight.pairings[1], ended="over")))
    cards = [CqcCard.build("zed", "ann", attack="b"), CqcCard.build("bob", "ann", attack="b"),
             CqcCard.build("bob", "ann", feint="b"), CqcCard.build("cid", "ann", feint="b"),
             CqcCard.build("ann", "cid", feint="b")]
    assert validate_round_cards(fight, cards) == (
        CardError("zed", "owner", "'zed' is not in this fight"),
        CardError("bob", "card", "Bob has two cards for the same opponent"),
        CardError("cid", "owner", "Cid faces nobody this round"),
        CardError("ann", "against", "Ann is not fighting 'cid' this round"))
    each = replace(OPTS, multi_opponent=MultiOpponent.EACH)
    two = [CqcCard.build("ann", "bob", feint="b"), CqcCard.build("ann", "cid", feint="b")]
    assert validate_round_cards(trio(), two, each) == (
        CardError("ann", "card", "Ann has more than one card (house rule "
                                 "multi_opponent=each: one card against all)"),)
    strict = replace(OPTS, special_min_ap=7)          # the options reach validate_card
    special = [CqcCard.build("bob", "ann", attack="s")]
    assert validate_round_cards(trio(), special, strict) != ()
    assert validate_round_cards(trio(), special) == ()


def test_s0_4_each_sides_test_carries_legendary_feint_passive_and_tiebreaks() -> None:
    """S0 §4: his Close Combat pool and number (+ Feint against this opponent,
    S0 §2.2), Legendary, the Passive bonus, tie-breaks Close Combat, Agility."""
    from ka_tui.rules.cqc import CqcCard, contestant, pairing_contestants
    from ka_tui.rules.cqc.passive import PassiveBonus

    ann = replace(fighter("ann", cc_legendary=True), feint=(("bob", 2),))
    bob = fighter("bob", cc_untrained=True, cc_pool=(12,), passives=(("Brawl", 3),))
    c = contestant(ann, bob, OPTS)
    assert (c.name, c.pool, c.number, c.legendary, c.bonus) == ("Ann", (10, 10), 7, True, 0)
    assert c.tiebreaks == (("Close Combat", 7), ("Agility", 4))
    plain = contestant(ann, bob, replace(OPTS, feint_counts_in_tiebreak=False))
    assert plain.tiebreaks == (("Close Combat", 5), ("Agility", 4))
    brawl = PassiveBonus("bob", "Brawl", 3, "fistfight")
    assert contestant(bob, ann, OPTS, brawl).bonus == 3
    ca, cb, counted = pairing_contestants(ann, bob, [CqcCard.build("bob", "ann", attack="b")],
                                          OPTS)
    assert (ca.bonus, cb.bonus) == (0, 3) and [p.fighter for p in counted] == ["bob"]
    armed = [CqcCard.build("ann", "bob", attack="b", weapon="knife")]
    ann_k = replace(ann, weapons=(Weapon("knife", 2),))
    _, cb2, none = pairing_contestants(ann_k, bob, armed, OPTS)
    assert cb2.bonus == 0 and none == ()          # a knife in the pairing: no fistfight


def test_s0_2_the_card_each_plays_against_each_opponent() -> None:
    from ka_tui.rules.cqc import CqcCard, card_for

    cards = [CqcCard.build("ann", "bob", feint="b"), CqcCard.build("ann", "cid", attack="b")]
    assert card_for(cards, "ann", "cid", OPTS) == cards[1]
    assert card_for(cards, "bob", "ann", OPTS) == CqcCard("bob", "ann")   # none entered
    each = replace(OPTS, multi_opponent=MultiOpponent.EACH)
    assert card_for(cards, "ann", "cid", each) == replace(cards[0], against="cid")


def test_s0_6_a_save_of_12_always_saves_and_a_1_always_fails() -> None:
    """S0 §2.2/§6 save, d12 + Armour against 13 (RULES-NOTES B), with S0 §Skills'
    criticals; every line names the rule."""
    from ka_tui.rules.core.dice import ScriptedDice
    from ka_tui.rules.cqc.round import R_SAVE, roll_save

    bob = fighter("bob", armour=9)
    hit = Effect(EffectKind.HIT, "bob", "ann", 3, "knife")
    (top,) = roll_save(fighter("bob"), hit, ScriptedDice.of([12]), OPTS)
    assert top == Effect(EffectKind.SAVE, "bob", "ann", 1, "knife", R_SAVE,
                         "Bob saves against knife: d12 a 12 always saves (S0 §Skills "
                         "critical success): saved", (12,))
    low, loss = roll_save(bob, hit, ScriptedDice.of([1]), OPTS)
    assert low.text == ("Bob saves against knife: d12 a 1 always fails (S0 §Skills critical "
                        "fail): failed: -3 K (knife)") and low.amount == 0
    assert loss == Effect(EffectKind.K_LOSS, "bob", "ann", 3, "knife", "S0 §6: reduce K-points",
                          "Bob loses 3 K-points to knife")


def test_s0_6_a_fighter_out_of_k_points_makes_no_more_saves_this_round() -> None:
    """RULES-NOTES B: once his K-points are gone the rest of the hits roll nothing."""
    from ka_tui.rules.cqc import CqcCard, resolve_round

    knife = Weapon("knife", 3)
    fight = Fight.start([fighter("ann", weapons=(knife,)), fighter("bob", k_points=3)],
                        [("ann", "bob")])
    cards = [CqcCard.build("ann", "bob", attack="2b", weapon="knife")]
    after, rep = resolve_round(fight, cards, [8, 8, 2, 2, 2])
    assert after.fighter("bob").out and len(rep.faces) == 5     # one save, not two
    with_one_left = replace(fight, fighters=(fight.fighters[0],
                                             replace(fight.fighters[1], k_points=4)))
    _, rep2 = resolve_round(with_one_left, cards, [8, 8, 2, 2, 2, 2])
    assert len(rep2.faces) == 6                                 # 1 K left: a second save


def test_next_die_and_replay_follow_the_rules_they_are_given() -> None:
    """House rule attack_hits 1, 2, 3: a Deliberate weapon Attack calls for two
    saves, so the table rolls one more die; the replay under the same rules
    rebuilds the round."""
    from ka_tui.rules.core.options import HouseRules
    from ka_tui.rules.cqc import CqcCard, next_die, replay

    fight = Fight.start([fighter("ann", weapons=(Weapon("knife", 1),)), fighter("bob")],
                        [("ann", "bob")])
    cards = [CqcCard.build("ann", "bob", attack="d", weapon="knife")]
    analogy = HouseRules().with_changes("cqc", attack_hits=(1, 2, 3))
    assert next_die(fight, cards, [8, 8, 2, 2, 5]) is None
    need = next_die(fight, cards, [8, 8, 2, 2, 5], analogy)
    assert need is not None and (need.sides, need.index) == (12, 5)
    after, reports = replay(fight, [(cards, [8, 8, 2, 2, 5, 5])], analogy)
    assert after.fighter("bob").k_points == 5 - 2 and len(reports) == 1
    assert reports[0].round == 1
