"""The eight aircraft traits of S0 §Traits, as data for the air-combat engine.

S0 §Traits: "Number after trait indicates number of dice rolled to use this
ability (if any)." The seed does not say which traits take a number. Here the
five that act on dice (the four re-rolls and Critical) take a count and the
three that change what is allowed (Bulky, Long range, Glider) do not; the
count is the most dice (or hits, for Critical) the trait acts on per use; a
dice trait written without a number acts on ``default`` dice (the engine
passes ``HouseRules.air.critical_default_count`` for Critical).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ka_tui.rules.air.aircraft import (  # validate_trait_counts: re-exported
    AircraftProfile, Trait, validate_trait_counts as validate_trait_counts,
)


class TraitEffect(str, Enum):
    """What kind of thing a trait does (S0 §Traits)."""

    REROLL = "reroll"              # re-roll some dice
    UPGRADE_HIT = "upgrade_hit"    # a normal hit becomes a critical hit
    IGNORE = "ignore"              # some hazards have no effect
    EXTEND_RANGE = "extend_range"  # may fire beyond range 3
    KEEP_CONTROL = "keep_control"  # stays under control with no engine and no hull


class RerollTarget(str, Enum):
    """Which dice a re-roll trait re-rolls (S0 §Traits)."""

    FAILED_HITS = "failed_hits"        # Accuracy: Firepower dice that missed
    EVASION = "evasion"                # Bullet dodger: Evasion dice
    HIT_EFFECT = "hit_effect"          # Robust: the effect of a hit taken
    GROUND_ATTACK = "ground_attack"    # Zero-in: accuracy of a ground attack


class UsedBy(str, Enum):
    """Whose roll the trait changes."""

    SHOOTER = "shooter"   # the aircraft with the trait is attacking
    TARGET = "target"     # the aircraft with the trait is being shot at
    SELF = "self"         # the aircraft's own flight (landing, gliding)


@dataclass(frozen=True)
class TraitRule:
    trait: Trait
    name: str
    sentence: str                        # S0 §Traits, verbatim
    effect: TraitEffect
    used_by: UsedBy
    rerolls: RerollTarget | None = None
    ignores: tuple[str, ...] = ()
    summary: str = ""                    # one line for the flight card

    @property
    def takes_dice(self) -> bool:
        """Whether the trait carries a dice count (``Trait.takes_dice``)."""
        return self.trait.takes_dice

    def describe(self, dice: int | None) -> str:
        """``Accuracy 2: re-roll up to 2 failed hits`` — the card's short form."""
        head = f"{self.name} {dice}" if dice is not None else self.name
        return f"{head}: {self.summary}"


TRAIT_RULES: dict[Trait, TraitRule] = {r.trait: r for r in (
    TraitRule(
        Trait.ACCURACY, "Accuracy",
        "Accuracy: armament concentrated around centre of the plane allows pilot "
        "to re-roll failed hits.",
        TraitEffect.REROLL, UsedBy.SHOOTER,
        rerolls=RerollTarget.FAILED_HITS,
        summary="re-roll failed hits (Firepower dice that missed)"),
    TraitRule(
        Trait.BULKY, "Bulky",
        "Bulky: lumbering and heavy aircraft, may ignore effects of light arm and "
        "rough landing strips.",
        TraitEffect.IGNORE, UsedBy.SELF,
        ignores=("light arms", "rough landing strips"),
        summary="ignores light arms and rough landing strips"),
    TraitRule(
        Trait.BULLET_DODGER, "Bullet dodger",
        "Bullet dodger: small and nimble plane allows to re-roll evasive action",
        TraitEffect.REROLL, UsedBy.TARGET,
        rerolls=RerollTarget.EVASION,
        summary="re-roll evasive action (Evasion dice)"),
    TraitRule(
        Trait.CRITICAL, "Critical",
        "Critical: high calibre weapon automatically changes normal hit into "
        "critical hit.",
        TraitEffect.UPGRADE_HIT, UsedBy.SHOOTER,
        summary="turns normal hits into critical hits"),
    TraitRule(
        Trait.ROBUST, "Robust",
        "Robust: built to withstand heavy punishment, it may re-roll effect of "
        "critical or normal hit.",
        TraitEffect.REROLL, UsedBy.TARGET,
        rerolls=RerollTarget.HIT_EFFECT,
        summary="re-roll the effect of a critical or normal hit taken"),
    TraitRule(
        Trait.LONG_RANGE, "Long range",
        "Long range: armament allows pilot to fire beyond range 3.",
        TraitEffect.EXTEND_RANGE, UsedBy.SHOOTER,
        summary="may fire beyond range 3"),
    TraitRule(
        Trait.GLIDER, "Glider",
        "Glider: superb flight characteristics allows plane to glide and remain "
        "under control after engine is disabled and no hull points left.",
        TraitEffect.KEEP_CONTROL, UsedBy.SELF,
        summary="glides under control with engine out and no hull left"),
    TraitRule(
        Trait.ZERO_IN, "Zero-in",
        "Zero-in: ability to control plane in dive allows to re-roll accuracy of "
        "ground attack",
        TraitEffect.REROLL, UsedBy.SHOOTER,
        rerolls=RerollTarget.GROUND_ATTACK,
        summary="re-roll accuracy of a ground attack"),
)}


def rule_of(trait: Trait) -> TraitRule:
    return TRAIT_RULES[trait]


def reroll_dice(profile: AircraftProfile, target: RerollTarget, default: int = 1) -> int:
    """S0 §Traits: how many dice of ``target`` this aircraft may re-roll (0 if none)."""
    for trait, n in profile.traits:
        rule = TRAIT_RULES[trait]
        if rule.rerolls is target:
            return n if n is not None else default
    return 0


def critical_upgrades(profile: AircraftProfile, default: int = 1) -> int:
    """S0 §Traits Critical: how many normal hits per attack become critical."""
    if not profile.has_trait(Trait.CRITICAL):
        return 0
    n = profile.trait_dice(Trait.CRITICAL)
    return n if n is not None else default


def may_fire_beyond_range_3(profile: AircraftProfile) -> bool:
    """S0 §Traits Long range."""
    return profile.has_trait(Trait.LONG_RANGE)


def ignores(profile: AircraftProfile, hazard: str) -> bool:
    """S0 §Traits Bulky: ``hazard`` is "light arms" or "rough landing strips"."""
    return any(hazard in TRAIT_RULES[t].ignores for t, _ in profile.traits)


def glides_when_crippled(profile: AircraftProfile) -> bool:
    """S0 §Traits Glider: under control with engine disabled and no hull left."""
    return profile.has_trait(Trait.GLIDER)
