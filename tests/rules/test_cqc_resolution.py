"""Combat resolution, S0 §Close combat 2.2 (each action) and 4 (each case),
on given standings (no dice): RULES-NOTES B readings as defaults."""

from __future__ import annotations

from dataclasses import replace

from ka_tui.rules.cqc.card import ActionKind, CqcCard, Grade
from ka_tui.rules.cqc.resolution import (
    EffectKind, Outcome, PairingResolution, pick_weapon, resolve_pairing,
)
from ka_tui.rules.cqc.standing import Standing, Standings, standings
from ka_tui.rules.cqc.fight_state import Fighter, Weapon
from ka_tui.rules.core.options import CqcOptions

KNIFE = Weapon("knife", 3)
PISTOL = Weapon("pistol", 4, is_firearm=True)

ANN = Fighter.new("ann", "Ann", strength=2, agility=5, cc_number=5, cc_pool=(10, 10),
                  weapons=(KNIFE,))
BOB = Fighter.new("bob", "Bob", strength=3, agility=4, cc_number=5, cc_pool=(10, 10),
                  weapons=(PISTOL, KNIFE))

ANN_WINS = standings(True, False, True, False, 0)            # Bob lost but passed
ANN_WINS_BOB_FAILED = standings(True, False, False, False, 0)
BOB_CRIT_FAILED = standings(True, False, False, True, None)
STANDOFF = standings(False, False, False, False, None)
BOTH_CRIT = standings(False, True, False, True, None)


def resolve(ann: str | dict[str, str], bob: str | dict[str, str], st: Standings,
            opts: CqcOptions | None = None, *, a: Fighter = ANN, b: Fighter = BOB,
            **ann_card: object) -> PairingResolution:
    def card(owner: str, against: str, spec: str | dict[str, str], **extra: object) -> CqcCard:
        kw = spec if isinstance(spec, dict) else dict(
            tuple(p.split("=")) for p in spec.split(",") if p)  # type: ignore[misc]
        return CqcCard.build(owner, against, **kw, **extra)  # type: ignore[arg-type]
    return resolve_pairing(a, b, card("ann", "bob", ann, **ann_card), card("bob", "ann", bob),
                           st, opts or CqcOptions())


def fates(res: PairingResolution, owner: str, kind: ActionKind) -> list[Outcome]:
    return [f.outcome for f in res.fates if f.unit.owner == owner and f.unit.kind is kind]


def effects(res: PairingResolution, kind: EffectKind) -> list[tuple[str, int]]:
    return [(e.fighter, e.amount) for e in res.effects if e.kind is kind]


# --- S0 §4: who wins ------------------------------------------------------

def test_s0_4_critical_fail_hands_the_round_to_the_opponent() -> None:
    st = standings(False, False, True, True, None)
    assert st.winner == 0 and st.b is Standing.CRIT_FAILED


def test_s0_4_only_the_side_that_passed_wins() -> None:
    st = standings(False, False, True, False, None)
    assert st.winner == 1 and st.a is Standing.LOST_FAILED


def test_s0_4_both_passed_uses_the_opposed_test_winner() -> None:
    st = standings(True, False, True, False, 1, "more successes")
    assert st.winner == 1 and st.a is Standing.LOST_PASSED and "more successes" in st.rule


def test_rules_notes_b_both_failed_is_a_stand_off() -> None:
    assert STANDOFF.winner is None and STANDOFF.a is Standing.STANDOFF


# --- S0 §2.2 Attack ---------------------------------------------------------

def test_s0_2_2_attack_reduces_ap_by_attacker_strength() -> None:
    res = resolve("attack=b", "", ANN_WINS)
    assert effects(res, EffectKind.AP_LOSS) == [("bob", 2)]


def test_s0_2_2_each_successful_attack_costs_strength_once_whatever_its_grade() -> None:
    """S0 §2.2: "Each successful attack reduces opponent's AP by Strength of
    the attacker" -- the default of house rule attack_hits is one hit for a
    Basic, a Deliberate and a Special Attack alike (Strength 2)."""
    assert CqcOptions().attack_hits == (1, 1, 1)
    for grade in ("b", "d", "s"):
        assert effects(resolve(f"attack={grade}", "", ANN_WINS),
                       EffectKind.AP_LOSS) == [("bob", 2)]
    two = resolve("attack=2b", "", ANN_WINS)          # two successful attacks, twice
    assert effects(two, EffectKind.AP_LOSS) == [("bob", 2), ("bob", 2)]


def test_house_rule_attack_hits_by_grade() -> None:
    """House rule attack_hits 1, 2, 3 (the analogy with Feint and Defence,
    S0 §2.2): Basic 1, Deliberate 2, Special 3 hits."""
    analogy = CqcOptions(attack_hits=(1, 2, 3))
    assert effects(resolve("attack=d", "", ANN_WINS, analogy),
                   EffectKind.AP_LOSS) == [("bob", 4)]
    assert effects(resolve("attack=s", "", ANN_WINS, analogy),
                   EffectKind.AP_LOSS) == [("bob", 6)]
    three = CqcOptions(attack_hits=(1, 3, 4))
    assert effects(resolve("attack=d", "", ANN_WINS, three), EffectKind.AP_LOSS) == [("bob", 6)]


def test_s0_2_2_attack_with_a_weapon_calls_for_saves_not_ap() -> None:
    res = resolve("attack=d", "", ANN_WINS, CqcOptions(attack_hits=(1, 2, 3)),
                  weapon="knife")
    assert effects(res, EffectKind.HIT) == [("bob", 3), ("bob", 3)]
    seed = resolve("attack=d", "", ANN_WINS, weapon="knife")     # S0 §2.2: one save
    assert effects(seed, EffectKind.HIT) == [("bob", 3)]
    assert effects(res, EffectKind.AP_LOSS) == []
    also = resolve("attack=b", "", ANN_WINS, CqcOptions(weapon_attack_costs_ap=True),
                   weapon="knife")
    assert effects(also, EffectKind.AP_LOSS) == [("bob", 2)]


# --- S0 §2.2 Defence --------------------------------------------------------

def test_s0_2_2_winners_defence_cancels_attacks() -> None:
    res = resolve("defence=b", "attack=2b", ANN_WINS)
    assert fates(res, "bob", ActionKind.ATTACK) == [Outcome.CANCELLED, Outcome.EFFECT]
    assert effects(res, EffectKind.AP_LOSS) == [("ann", 3)]


def test_s0_2_2_losing_defence_retains_1_2_3_ap() -> None:
    for grade, kept in (("b", 1), ("d", 2), ("s", 3)):
        res = resolve("feint=b", f"defence={grade}", ANN_WINS)
        assert effects(res, EffectKind.RETAIN) == [("bob", kept)], grade


def test_s0_2_2_winning_defence_retains_nothing() -> None:
    res = resolve("defence=d", "feint=b", ANN_WINS)
    assert effects(res, EffectKind.RETAIN) == []
    assert fates(res, "ann", ActionKind.DEFENCE) == [Outcome.NO_EFFECT]


def test_s0_4_losing_defence_still_blocks_the_winners_attacks() -> None:
    res = resolve("attack=2b", "defence=b", ANN_WINS)
    assert fates(res, "ann", ActionKind.ATTACK) == [Outcome.CANCELLED, Outcome.EFFECT]
    assert "S0 §4" in [f for f in res.fates if f.outcome is Outcome.CANCELLED][0].rule
    off = resolve("attack=2b", "defence=b", ANN_WINS, CqcOptions(loser_defence_blocks=False))
    assert fates(off, "ann", ActionKind.ATTACK) == [Outcome.EFFECT, Outcome.EFFECT]


def test_house_rule_a_blocking_losing_defence_may_retain_nothing() -> None:
    both = resolve("attack=b", "defence=b", ANN_WINS)
    assert effects(both, EffectKind.RETAIN) == [("bob", 1)]
    one = resolve("attack=b", "defence=b", ANN_WINS,
                  CqcOptions(loser_defence_blocks_and_retains=False))
    assert effects(one, EffectKind.RETAIN) == []


# --- S0 §2.2 Feint ----------------------------------------------------------

def test_s0_2_2_feint_adds_1_2_3_win_or_lose() -> None:
    for grade, bonus in (("b", 1), ("d", 2), ("s", 3)):
        won = resolve(f"feint={grade}", "", ANN_WINS)
        assert effects(won, EffectKind.FEINT) == [("ann", bonus)]
    lost = resolve("", "feint=d", ANN_WINS)
    assert effects(lost, EffectKind.FEINT) == [("bob", 2)]


def test_s0_2_2_feint_is_negated_only_by_the_opponents_feint() -> None:
    by_feint = resolve("feint=b", "feint=b", ANN_WINS)
    assert fates(by_feint, "bob", ActionKind.FEINT) == [Outcome.CANCELLED]
    not_by_others = resolve("defence=d,evade=d", "feint=b", ANN_WINS)
    assert fates(not_by_others, "bob", ActionKind.FEINT) == [Outcome.EFFECT]


def test_s0_4_feint_is_unaffected_by_a_failed_test() -> None:
    res = resolve("", "feint=b", ANN_WINS_BOB_FAILED)
    assert effects(res, EffectKind.FEINT) == [("bob", 1)]


# --- S0 §2.2 Disarm ---------------------------------------------------------

def test_s0_2_2_disarm_takes_one_weapon_from_the_losers_quick_slots() -> None:
    res = resolve("disarm=2b", "", ANN_WINS)
    assert [(e.fighter, e.source, e.weapon) for e in res.effects
            if e.kind is EffectKind.DISARM] == [("bob", "ann", "pistol")]
    picked = resolve("disarm=b", "", ANN_WINS, disarm_pick="knife")
    assert [e.weapon for e in picked.effects if e.kind is EffectKind.DISARM] == ["knife"]


def test_house_rule_disarm_one_per_round_off_takes_one_per_disarm() -> None:
    res = resolve("disarm=2b", "", ANN_WINS, CqcOptions(disarm_one_per_round=False))
    assert [e.weapon for e in res.effects if e.kind is EffectKind.DISARM] == ["pistol", "knife"]


def test_s0_2_2_disarm_may_be_negated_by_evade_only() -> None:
    by_defence = resolve("defence=d", "disarm=b", ANN_WINS)
    assert fates(by_defence, "bob", ActionKind.DISARM) == [Outcome.NO_EFFECT]  # needs a win
    by_evade = resolve("evade=b", "disarm=b", ANN_WINS)
    assert fates(by_evade, "bob", ActionKind.DISARM) == [Outcome.CANCELLED]
    winners = resolve("disarm=b", "defence=d,evade=d", ANN_WINS)
    assert fates(winners, "ann", ActionKind.DISARM) == [Outcome.EFFECT]


def test_disarm_of_an_unarmed_fighter_does_nothing() -> None:
    """S0 §Close combat 2.2 Disarm: takes a weapon from the quick slots; with none there is nothing to take."""
    unarmed = replace(BOB, weapons=())
    res = resolve("disarm=b", "", ANN_WINS, b=unarmed)
    assert effects(res, EffectKind.DISARM) == []
    assert fates(res, "ann", ActionKind.DISARM) == [Outcome.NO_EFFECT]


def test_pick_weapon_prefers_the_named_then_the_most_damaging() -> None:
    assert pick_weapon((KNIFE, PISTOL), None) == PISTOL
    assert pick_weapon((KNIFE, PISTOL), "knife") == KNIFE
    assert pick_weapon((KNIFE, PISTOL), "axe") == PISTOL
    assert pick_weapon((), None) is None


# --- S0 §2.2 Evade ----------------------------------------------------------

def test_s0_2_2_evade_negates_attacks_disarm_and_control_when_winning() -> None:
    res = resolve("evade=d", "attack=b,disarm=b,control=b", ANN_WINS)
    for kind in (ActionKind.ATTACK, ActionKind.DISARM, ActionKind.CONTROL):
        assert fates(res, "bob", kind) == [Outcome.CANCELLED], kind


def test_s0_2_2_evade_and_a_won_round_disengage() -> None:
    res = resolve("evade=b", "", ANN_WINS, disengage=True)
    assert effects(res, EffectKind.DISENGAGE) == [("ann", 0)]
    lost = resolve("", "evade=b", ANN_WINS)
    assert effects(lost, EffectKind.DISENGAGE) == []


def test_house_rule_disengaging_evade_may_stop_negating() -> None:
    keep = resolve("evade=b", "attack=b", ANN_WINS, disengage=True)
    assert fates(keep, "bob", ActionKind.ATTACK) == [Outcome.CANCELLED]
    off = resolve("evade=b", "attack=b", ANN_WINS,
                  CqcOptions(disengage_still_negates=False), disengage=True)
    assert fates(off, "bob", ActionKind.ATTACK) == [Outcome.EFFECT]


def test_s0_4_failed_test_no_attacks_reach_and_no_evade() -> None:
    res = resolve("", "attack=2b,evade=b", ANN_WINS_BOB_FAILED)
    assert fates(res, "bob", ActionKind.ATTACK) == [Outcome.NO_EFFECT] * 2
    assert "S0 §4" in [f.rule for f in res.fates if f.unit.kind is ActionKind.EVADE][0]
    assert effects(res, EffectKind.AP_LOSS) == []


def test_rules_notes_b_loser_who_passed_lands_uncancelled_attacks() -> None:
    res = resolve("", "attack=b", ANN_WINS)
    assert effects(res, EffectKind.AP_LOSS) == [("ann", 3)]
    off = resolve("", "attack=b", ANN_WINS, CqcOptions(loser_attacks_land=False))
    assert effects(off, EffectKind.AP_LOSS) == []


# --- S0 §2.2 Control --------------------------------------------------------

def test_s0_2_2_control_puts_the_loser_under_control_without_ap_loss() -> None:
    res = resolve("control=b", "", ANN_WINS)
    assert [(e.fighter, e.source) for e in res.effects if e.kind is EffectKind.CONTROL] == [
        ("bob", "ann")]
    assert effects(res, EffectKind.AP_LOSS) == []


def test_s0_2_2_control_is_retained_only_by_winning_with_an_uncancelled_control() -> None:
    held = replace(BOB, controlled_by="ann")
    kept = resolve("control=b", "", ANN_WINS, b=held)
    assert effects(kept, EffectKind.RELEASE) == []
    assert "stays under" in [e.text for e in kept.effects if e.kind is EffectKind.CONTROL][0]
    no_control = resolve("attack=b", "", ANN_WINS, b=held)
    assert effects(no_control, EffectKind.RELEASE) == [("bob", 0)]
    bob_wins = resolve("control=b", "", standings(True, False, True, False, 1), b=held)
    assert effects(bob_wins, EffectKind.RELEASE) == [("bob", 0)]
    stand_off = resolve("control=b", "", STANDOFF, b=held)
    assert effects(stand_off, EffectKind.RELEASE) == [("bob", 0)]


# --- S0 §2.1 Special in the round ------------------------------------------

def test_s0_2_1_winners_special_beats_all_the_losers_actions() -> None:
    res = resolve("attack=s", "defence=d,feint=b,evade=b", ANN_WINS)
    assert all(f.outcome is Outcome.CANCELLED for f in res.fates if f.unit.owner == "bob")
    assert effects(res, EffectKind.AP_LOSS) == [("bob", 2)]   # S0 §2.2: Strength, once
    assert effects(res, EffectKind.RETAIN) == []


def test_losers_special_is_only_a_deliberate() -> None:
    """S0 §Close combat 2.1 ("Special ... if you win"), option cqc.losing_special_as_deliberate."""
    res = resolve("defence=d", "attack=s", ANN_WINS)
    assert fates(res, "bob", ActionKind.ATTACK) == [Outcome.CANCELLED]


# --- S0 §4 critical fail and stand-off --------------------------------------

def test_s0_4_critical_fail_all_opponents_actions_unopposed() -> None:
    res = resolve("attack=2b", "defence=d,feint=d,evade=b", BOB_CRIT_FAILED)
    assert fates(res, "ann", ActionKind.ATTACK) == [Outcome.EFFECT] * 2
    assert all(f.outcome is Outcome.NO_EFFECT for f in res.fates if f.unit.owner == "bob")
    assert effects(res, EffectKind.RETAIN) == [] and effects(res, EffectKind.FEINT) == []


def test_rules_notes_b_stand_off_feints_count_defences_retain_nothing_else() -> None:
    res = resolve("attack=b,feint=b,defence=b", "control=b,feint=d,disarm=b", STANDOFF)
    assert sorted(effects(res, EffectKind.FEINT)) == [("ann", 1), ("bob", 2)]
    assert effects(res, EffectKind.RETAIN) == [("ann", 1)]
    assert {e.kind for e in res.effects} == {EffectKind.FEINT, EffectKind.RETAIN}


def test_both_critical_fails_nothing_is_made() -> None:
    """S0 §Close combat 4 (critical fail: no Attacks, Defence, Evade or Feints are made), on both sides."""
    res = resolve("attack=b,feint=b,defence=b", "feint=d", BOTH_CRIT)
    assert res.effects == () and all(f.outcome is Outcome.NO_EFFECT for f in res.fates)


def test_every_action_gets_exactly_one_fate_citing_a_rule() -> None:
    res = resolve("attack=b,defence=d,feint=b", "attack=d,evade=b,control=b,disarm=b", ANN_WINS)
    assert len(res.fates) == 3 + 4
    assert all(f.rule.startswith(("S0", "RULES-NOTES")) for f in res.fates)
    assert {f.unit.grade for f in res.fates} <= set(Grade)
