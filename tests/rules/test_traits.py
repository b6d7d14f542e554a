"""S0 §Traits: each trait's data matches its sentence in the seed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ka_tui.rules.air.aircraft import AircraftProfile, Trait, validate_profile
from ka_tui.rules.air.traits import (
    TRAIT_RULES,
    RerollTarget,
    TraitEffect,
    UsedBy,
    critical_upgrades,
    glides_when_crippled,
    ignores,
    may_fire_beyond_range_3,
    reroll_dice,
    rule_of,
    validate_trait_counts,
)

SEED = Path(__file__).resolve().parents[2] / "docs" / "rules" / "000_eef22a3699908b4c.txt"


def _seed_traits_section() -> str:
    text = SEED.read_text(encoding="utf-8")
    return text[text.index("Traits\n"):text.index("Flight card\n")]


@pytest.mark.parametrize("trait", list(Trait), ids=lambda t: t.value)
def test_s0_traits_sentence_is_verbatim_from_the_seed(trait):
    """Verbatim up to whitespace (the seed has a no-break space after "Critical:")."""
    lines = [" ".join(ln.split()) for ln in _seed_traits_section().splitlines()]
    assert rule_of(trait).sentence in lines


def test_s0_traits_all_eight_and_only_eight():
    assert set(TRAIT_RULES) == set(Trait) and len(TRAIT_RULES) == 8
    assert [r.name for r in TRAIT_RULES.values()] == [
        "Accuracy", "Bulky", "Bullet dodger", "Critical", "Robust", "Long range",
        "Glider", "Zero-in"]


def test_s0_traits_accuracy_rerolls_failed_hits_when_shooting():
    r = rule_of(Trait.ACCURACY)
    assert "re-roll failed hits" in r.sentence
    assert (r.effect, r.rerolls, r.used_by, r.takes_dice) == (
        TraitEffect.REROLL, RerollTarget.FAILED_HITS, UsedBy.SHOOTER, True)


def test_s0_traits_bulky_ignores_light_arms_and_rough_strips():
    r = rule_of(Trait.BULKY)
    assert "ignore effects of light arm and rough landing strips" in r.sentence
    assert r.effect is TraitEffect.IGNORE and r.rerolls is None and not r.takes_dice
    assert r.ignores == ("light arms", "rough landing strips")


def test_s0_traits_bullet_dodger_rerolls_evasion_when_shot_at():
    r = rule_of(Trait.BULLET_DODGER)
    assert "re-roll evasive action" in r.sentence
    assert (r.effect, r.rerolls, r.used_by, r.takes_dice) == (
        TraitEffect.REROLL, RerollTarget.EVASION, UsedBy.TARGET, True)


def test_s0_traits_critical_upgrades_normal_hits():
    r = rule_of(Trait.CRITICAL)
    assert "changes normal hit into critical hit" in r.sentence
    assert (r.effect, r.rerolls, r.used_by) == (TraitEffect.UPGRADE_HIT, None, UsedBy.SHOOTER)


def test_s0_traits_robust_rerolls_effect_of_hit_taken():
    r = rule_of(Trait.ROBUST)
    assert "re-roll effect of critical or normal hit" in r.sentence
    assert (r.effect, r.rerolls, r.used_by) == (
        TraitEffect.REROLL, RerollTarget.HIT_EFFECT, UsedBy.TARGET)


def test_s0_traits_long_range_fires_beyond_range_3():
    r = rule_of(Trait.LONG_RANGE)
    assert "fire beyond range 3" in r.sentence
    assert r.effect is TraitEffect.EXTEND_RANGE and not r.takes_dice


def test_s0_traits_glider_keeps_control_when_crippled():
    r = rule_of(Trait.GLIDER)
    assert "remain under control after engine is disabled and no hull points left" in r.sentence
    assert r.effect is TraitEffect.KEEP_CONTROL and r.used_by is UsedBy.SELF


def test_s0_traits_zero_in_rerolls_ground_attack_accuracy():
    r = rule_of(Trait.ZERO_IN)
    assert "re-roll accuracy of ground attack" in r.sentence
    assert (r.effect, r.rerolls, r.used_by) == (
        TraitEffect.REROLL, RerollTarget.GROUND_ATTACK, UsedBy.SHOOTER)


def test_every_reroll_trait_names_what_it_rerolls_and_only_those():
    for r in TRAIT_RULES.values():
        assert (r.rerolls is not None) == (r.effect is TraitEffect.REROLL)


# --- helpers the air-combat engine calls -----------------------------------

BASE = AircraftProfile(name="Test")


def test_s0_traits_reroll_dice_counts_from_the_profile():
    p = replace(BASE, traits=((Trait.ACCURACY, 2), (Trait.ROBUST, 1)))
    assert reroll_dice(p, RerollTarget.FAILED_HITS) == 2
    assert reroll_dice(p, RerollTarget.HIT_EFFECT) == 1
    assert reroll_dice(p, RerollTarget.EVASION) == 0


def test_s0_traits_critical_long_range_bulky_glider_helpers():
    p = replace(BASE, traits=((Trait.CRITICAL, 2), (Trait.LONG_RANGE, None),
                              (Trait.BULKY, None), (Trait.GLIDER, None)))
    assert critical_upgrades(p) == 2 and critical_upgrades(BASE) == 0
    bare = replace(BASE, traits=((Trait.CRITICAL, None), (Trait.BULLET_DODGER, None)))
    assert critical_upgrades(bare, default=3) == 3
    assert reroll_dice(bare, RerollTarget.EVASION) == 1
    assert may_fire_beyond_range_3(p) and not may_fire_beyond_range_3(BASE)
    assert ignores(p, "light arms") and ignores(p, "rough landing strips")
    assert not ignores(BASE, "light arms") and not ignores(p, "flak")
    assert glides_when_crippled(p) and not glides_when_crippled(BASE)


def test_s0_traits_number_only_on_traits_that_roll_dice():
    """S0 §Traits: "Number after trait indicates number of dice rolled … (if any)"."""
    assert validate_trait_counts(((Trait.ACCURACY, 2), (Trait.BULKY, None),
                                  (Trait.CRITICAL, None))) == []
    errs = validate_trait_counts(((Trait.ACCURACY, None), (Trait.BULKY, 2)))
    assert [e.message for e in errs] == ["Bulky takes no dice count"]
    bad = replace(BASE, traits=((Trait.BULKY, 3),))
    assert any(e.field == "traits" for e in validate_profile(bad))


def test_describe_is_the_card_short_form():
    assert rule_of(Trait.ACCURACY).describe(2).startswith("Accuracy 2: re-roll failed hits")
    assert rule_of(Trait.BULKY).describe(None).startswith("Bulky: ignores")
