"""House-rule options and tables: every gap the seeds leave, as named data.

RULES-NOTES §A–E give each default. A campaign stores its own ``HouseRules``
(as a dict) and the store hands it to the rules; nothing here is a constant
buried in code. Each field's comment names the seed gap it fills.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from enum import Enum
from collections.abc import Mapping
from typing import Any, TypeVar


class CritFailRule(str, Enum):
    """RULES-NOTES A ``crit_fail_rule``."""

    # S0 §Skills as written: a 1 is a critical fail; each critical success on
    # another die of the pool negates one; an unnegated one fails the test.
    SEED = "seed"
    # Softer: a 1 is just a failed die; the test fails on a 1 only when every
    # die shows 1.
    ALL_ONES = "all_ones"


class CritCancel(str, Enum):
    """S0 §Skills: "Critical successes of smaller dice are canceled by normal
    and Critical successes of larger dice" — what a cancelled critical keeps."""

    # "beaten and negated": the die counts for nothing (no success, no critical)
    NEGATE_DIE = "negate_die"
    # it only loses its critical status; a success if its face met the need
    CRIT_ONLY = "crit_only"


class AltitudeModel(str, Enum):
    """RULES-NOTES D ``altitude_model``."""

    R3 = "r3"  # 2 speed or 2 thrust per level climbed
    S0 = "s0"  # S0 §Altitude explained: a move of 6, split over rounds


class SteepDescentBasis(str, Enum):
    """R-3.3 "descends more than 2 levels at once": in one step, or in one turn."""

    STEP = "step"   # one Descend step of 3+ levels; penalty = that step's levels
    TURN = "turn"   # 3+ levels lost over the turn; checked once, penalty = the total


class TurnSpeedBasis(str, Enum):
    """R-3.4: which speed picks the turn-mode band when speed changes mid-move."""

    CURRENT = "current"        # the speed at the moment of the facing change
    START = "start"            # the speed at the start of the movement


class DescentGain(str, Enum):
    """R-3.3 ambiguity on speed gained while descending."""

    PER_TWO_LEVELS = "per_two_levels"  # default: +1 per 2 levels lost
    FLAT_ONCE = "flat_once"            # +1 once 2 or more levels are lost


class RamSkillReading(str, Enum):
    """R-7 ``6 + (target's Piloting − attacker's Piloting)`` with 2d6 ratings."""

    # Airman.piloting is a 2d6 target rating (lower is better), so the seed's
    # "skill" difference is read as attacker rating − target rating: a better
    # target pilot still makes the ram harder, as the seed intends.
    RATINGS = "ratings"
    # The formula with the ratings as written (target − attacker).
    LITERAL = "literal"


class RobustMode(str, Enum):
    """S0 §Traits Robust: "may re-roll effect of critical or normal hit"."""

    # The attacker's Firepower die behind each uncancelled hit is rolled again
    # (criticals first), up to the trait's count; the new face decides.
    REROLL_HIT_DIE = "reroll_hit_die"
    # Each critical hit's location is rolled again and the second kept.
    REROLL_LOCATION = "reroll_location"


class AccuracyMode(str, Enum):
    """S0 §Traits Accuracy: "re-roll failed hits"."""

    FIREPOWER_DICE = "firepower_dice"  # Firepower dice that missed (traits.py reading)
    TO_HIT_ROLL = "to_hit_roll"        # the failed 2d6 to-hit roll, once


class EngineOut(str, Enum):
    """S0 §Traits Glider: "remain under control after engine is disabled and no
    hull points left" -- what takes any other aircraft out of control."""

    # The seed's "and": losing the engine alone takes nothing out of control
    # (R-10 lands it with "No thrust points available" +4); an empty tank is a
    # disabled engine and gives no thrust points.
    SEED_AND = "seed_and"
    # A non-Glider is out of control once its engine is disabled (damage or an
    # empty tank) or its hull is gone; an empty tank only counts toward
    # control. How battles before this option were played.
    EITHER = "either"


def _linear_table(base: int, lo: int, hi: int, sign: int, floor: int = 2) -> dict[int, int]:
    return {d: max(floor, base + sign * d) for d in range(lo, hi + 1)}


@dataclass(frozen=True)
class SkillOptions:
    # A die showing 1 (S0 §Skills, §Close combat 4; RULES-NOTES A): seed — a
    # critical fail unless a critical success on another die of the pool
    # negates it, one for one; an unnegated 1 fails the test and loses an
    # opposed round. all_ones — only when every die shows 1.
    crit_fail_rule: CritFailRule = CritFailRule.SEED
    # RULES-NOTES A `opposed`: die target by (opponent skill − own skill),
    # face ≥ 7 + diff, never below 2. Keys outside the table clamp to its ends.
    opposed_table: dict[int, int] = field(
        default_factory=lambda: _linear_table(7, -20, 20, +1))
    # RULES-NOTES A `challenging`: die target by (own skill − opponent skill),
    # face ≥ 9 − diff, never below 2.
    challenging_table: dict[int, int] = field(
        default_factory=lambda: _linear_table(9, -20, 20, -1))
    # RULES-NOTES A Lore: successes may be given to an ally as +1 each.
    lore_share_bonus: bool = True
    # What a critical keeps when an opponent's success on a larger die cancels
    # it (S0 §Skills "8 on d8 is beaten and negated by 8 on d10"; the effect is
    # not stated): negate_die — nothing, no success; crit_only — it stays a
    # success if its face met the need, but no longer wins automatically.
    crit_cancel: CritCancel = CritCancel.NEGATE_DIE
    # Whether a critical that negated a 1 in its own pool still "automatically
    # wins" the opposed round (S0 §Close combat 4 is silent). Off: it is spent
    # and only counts as a success.
    spent_crit_wins: bool = False


class MultiOpponent(str, Enum):
    """S0 §Close combat is silent on a character facing several opponents."""

    # One card per pairing; the AP pool is split over the cards (a Special on
    # one card takes the whole pool, so his other cards stay empty).
    SPLIT = "split"
    # One card, applied in full against every opponent.
    EACH = "each"


class SaveStat(str, Enum):
    """S0 §2.2/§6 "Resistance or Armour save": which number the d12 adds."""

    ARMOUR_IF_ANY = "armour_if_any"  # Armour when he wears any, else Resistance
    BEST = "best"                    # the higher of the two


class UntrainedCloseCombat(str, Enum):
    """S0 §Close combat 4 names the Close Combat skill but not what a
    character without it rolls."""

    AGILITY = "agility"  # one d12 on the Agility characteristic (an untrained test)
    WEAPONS = "weapons"  # one d12 on the Weapons Base skill (S0 §Skills)


class AgilityTest(str, Enum):
    """S0 §Close combat 1: without Combat Initiative "take Active Agility test"."""

    # An Active test (S0 §Skills "Active skill use their own number and levels
    # for tests"): the Agility characteristic's number on the lowest level's
    # pool, Basic 2d8 ("Basic ability of creatures to perform certain actions
    # with minimal training").
    ACTIVE = "active"
    # One d12 on the Agility characteristic, as a Base or characteristics test
    # (S0 §Skills): how fights before this option were played.
    CHARACTERISTIC = "characteristic"


class InitiativeReroll(str, Enum):
    """S0 §Close combat lists step 1 (order of combat) among the steps of
    close combat and ends step 6 with "determine next step": whether a new
    round rolls the order again is not said."""

    ONCE = "once"                # rolled at the start of the fight only
    EVERY_ROUND = "every_round"  # rolled again at the start of every round
    GM_ASKS = "gm_asks"          # rolled at the start; again when the GM asks


# The kinds of close-combat round a Passive skill can apply to
# (``CqcOptions.passive_fight_skills``; S0 §Skills, Passive).
FIGHT_KINDS = {
    "fistfight": "no weapon in the pairing's Attacks this round",
    "melee": "his Attack uses a weapon that is not a firearm",
    "firearm": "his Attack uses a firearm",
    "any": "every close-combat round",
}


@dataclass(frozen=True)
class CqcOptions:
    # RULES-NOTES B: default AP for a new character
    default_ap: int = 6
    # RULES-NOTES B: the winner's Attacks can be blocked by the loser's Defence
    loser_defence_blocks: bool = True
    # RULES-NOTES B: a loser who passed still lands uncancelled Attacks
    loser_attacks_land: bool = True
    # RULES-NOTES B: a weapon save is d12 + armour against this
    save_target: int = 13
    # S0 §2.2 Attack: "Each successful attack reduces opponent's AP by
    # Strength of the attacker": hits one successful Attack lands by grade
    # (Basic, Deliberate, Special), each costing Strength AP or one save.
    # Default 1, 1, 1 as the seed words it; 1, 2, 3 scales an Attack like Feint
    # (+1/+2/+3) and Defence (1/2/3 AP), the analogy fights were once played by.
    attack_hits: tuple[int, ...] = (1, 1, 1)
    # S0 §2.1 "Special beats all ... if you win": a loser's Special is silent.
    # Default: it cancels and is cancelled as a Deliberate. Off: only a
    # Special cancels it and it cancels nothing.
    losing_special_as_deliberate: bool = True
    # S0 §2.2 Defence vs §4 "Defencive actions still block": may a losing
    # Defence that blocked an Attack also retain AP? Default: yes, both.
    loser_defence_blocks_and_retains: bool = True
    # S0 §2.2 Disarm "take any one weapon": one weapon a round, however many
    # Disarms are uncancelled. Off: one weapon per uncancelled Disarm.
    disarm_one_per_round: bool = True
    # RULES-NOTES B: a weapon hit calls for a save instead of the AP loss.
    # On: it costs Strength AP as well.
    weapon_attack_costs_ap: bool = False
    # S0 §2.2 "Resistance or Armour save": which number is added to the d12.
    save_stat: SaveStat = SaveStat.ARMOUR_IF_ANY
    # S0 §2 "Special - all AP": the least pool a Special may be played with.
    special_min_ap: int = 1
    # RULES-NOTES B: 0 AP is not out of the fight (an empty card). On: it is.
    zero_ap_is_out: bool = False
    # S0 §2.2 Evade "alternatively you may disengage": on, a disengaging
    # Evade still negates this round's Attacks, Disarm and Control.
    disengage_still_negates: bool = True
    # S0 §4 tie-break "highest Close Combat skill": on, Feint bonuses count.
    feint_counts_in_tiebreak: bool = True
    # S0 §Close combat is silent on several opponents (see MultiOpponent).
    multi_opponent: MultiOpponent = MultiOpponent.SPLIT
    # --- close-combat screen ---
    # S0 §Close combat 4 is silent on a fighter with no Close Combat skill.
    untrained_close_combat: UntrainedCloseCombat = UntrainedCloseCombat.AGILITY
    # S0 §2.2 Disarm "use it for greater good": on, a weapon taken by Disarm
    # stays with the taker when the fight ends. Off: back to its owner.
    disarm_keeps_weapon: bool = True
    # --- Passive skills, order of combat ---
    # S0 §Skills, Passive: "Brawl: 4 - when character is involved in fistfight
    # he would roll d12, then add +4". Which Passive skill helps in which kind
    # of round (skill name, any case: fistfight, melee, firearm or any). Only
    # Brawl is named by the seed; add e.g. "knife fighting: melee".
    passive_fight_skills: dict[str, str] = field(
        default_factory=lambda: {"brawl": "fistfight"})
    # S0 §Skills: a Passive "adds its level to roll on Base skill or
    # Characteristics test" -- the single d12 a fighter without Close Combat
    # rolls. A Close Combat test is an Active skill's test, so by default Brawl
    # does not add to it. On: it adds to each die of his Close Combat pool too.
    passive_with_close_combat: bool = False
    # S0 §Skills "involved in fistfight": on, a round is a fistfight for both
    # only when neither side's Attack uses a weapon; off, for a fighter whose
    # own Attack uses none (bare hands against a knife still count).
    fistfight_both_unarmed: bool = True
    # S0 §Close combat 1 / 6 "determine next step": when the order of combat
    # is rolled. Default gm_asks: rolled at the start as step 1 says; the seed
    # ties it to speed ("the fastest goes first"), which rarely changes in a
    # fight, and in close combat the order only sets who reveals first, so a
    # test per fighter every round is mostly bookkeeping -- the GM re-rolls at
    # the start of any round when the situation changes (key o on the screen).
    # once: never again; every_round: step 1 opens every round.
    initiative_reroll: InitiativeReroll = InitiativeReroll.GM_ASKS
    # S0 §Close combat 1 "if not available take Active Agility test": what a
    # fighter without Combat Initiative rolls for the order of combat (see
    # AgilityTest). Default active: the Agility number on the Basic pool 2d8;
    # characteristic: one d12 on Agility.
    agility_test: AgilityTest = AgilityTest.ACTIVE

    def __post_init__(self) -> None:
        for skill, kind in self.passive_fight_skills.items():
            if kind not in FIGHT_KINDS:
                raise ValueError(
                    f"house rules: cqc.passive_fight_skills[{skill}] must be one of "
                    + ", ".join(FIGHT_KINDS))


# A fight's event log records the house rules it is played under (every
# option, ``HouseRules.to_dict``), so a fight keeps the values it started with
# even when a default changes later (``attack_hits`` was 1, 2, 3). Options a
# log recorded before they existed lack are read as the engine played then
# (not today's default), so an old fight replays unchanged: the order of
# combat was rolled once, on one d12 against Agility without Combat
# Initiative, and no Passive skill counted.
CQC_LEGACY: dict[str, Any] = {"initiative_reroll": InitiativeReroll.ONCE.value,
                              "passive_fight_skills": {},
                              "attack_hits": [1, 2, 3],
                              "agility_test": AgilityTest.CHARACTERISTIC.value}


def recorded_rules(data: Mapping[str, Any]) -> HouseRules:
    """The house rules a fight log recorded (``HouseRules.to_dict`` form),
    with ``CQC_LEGACY`` for the close-combat options it lacks."""
    cqc = {**CQC_LEGACY, **dict(data.get("cqc", {}))}
    return HouseRules.from_dict({**dict(data), "cqc": cqc})


@dataclass(frozen=True)
class AirOptions:
    # RULES-NOTES D
    altitude_model: AltitudeModel = AltitudeModel.R3
    descent_gain: DescentGain = DescentGain.PER_TWO_LEVELS
    # RULES-NOTES D: level → echelon (1 Deck … 6 Edge); one level each
    echelon_of_level: dict[int, int] = field(
        default_factory=lambda: {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6})
    # S0 §Altitude and combat: shots only at the same level
    same_altitude_only: bool = True
    # RULES-NOTES D shooting: hexes per range band and each band's modifier
    range_band_hexes: int = 2
    range_band_mods: tuple[int, ...] = (0, 1, 2)
    long_range_mod: int = 4
    firepower_hit_on: int = 4
    firepower_crit_on: int = 6
    evasion_cancel_on: int = 4
    # RULES-NOTES D hit-location table (2d6 from the nose)
    hit_locations: dict[int, str] = field(default_factory=lambda: {
        2: "cockpit", 3: "engine", 4: "engine", 5: "left_wing", 6: "fuselage",
        7: "fuselage", 8: "fuselage", 9: "right_wing", 10: "control_surfaces",
        11: "landing_gear", 12: "fuel_tank"})
    # RULES-NOTES C: points of damage per hit
    points_per_hit: int = 10
    # RULES-NOTES D ramming damage: speed difference + extra; rammer ≥ 1
    ram_damage_extra: int = 2
    ram_rammer_min: int = 1
    # RULES-NOTES D random move: facing change of 1..max sides
    random_move_max_sides: int = 2
    # RULES-NOTES D heat
    heat_enabled: bool = True
    heat_threshold: int = 3
    heat_base: int = 4
    # --- combat and the turn; each names the seed gap it fills ---
    # how the piloting difference reads with 2d6 ratings
    ram_skill_reading: RamSkillReading = RamSkillReading.RATINGS
    # S0 is X-wing based but names no firing arc: degrees of the forward arc
    # (120 = the three front hexes and the wedge between them; 360 = all round)
    fire_arc_degrees: int = 120
    # S0 §Traits Long range "beyond range 3": how many bands beyond (4 = one)
    long_range_max_band: int = 4
    # S0 §Traits: Accuracy, Robust readings; Critical hits converted when the
    # trait has no number
    accuracy_mode: AccuracyMode = AccuracyMode.FIREPOWER_DICE
    robust_mode: RobustMode = RobustMode.REROLL_HIT_DIE
    critical_default_count: int = 1
    # S0 §Traits Bulky "ignore effects of light arm": shots from aircraft with
    # Firepower at most this are light arms; their criticals become normal hits
    bulky_light_arms_firepower: int = 2
    # RULES-NOTES D "own damage and wound modifiers" to hit: per wound, per
    # control-surface damage point in effect
    gunnery_wound_mod: int = 1
    gunnery_control_surface_mod: int = 1
    # RULES-NOTES C: hits made from points (R-6.1 crash, R-10 landing) apply
    # their location's effect as a critical would
    point_damage_effects: bool = True
    # S0 §Traits Glider: at 0 hull it glides on; the next hit destroys it
    glider_survives_zero_hull: bool = True
    # multiplies crash damage by the current speed, so a stalled aircraft
    # falling at speed 0 would take none: count at least this speed
    crash_min_speed: int = 1
    # R-6 gives no collision damage: each side takes |speed difference| + this
    collision_damage_extra: int = 2
    # the seeds never say whether an aircraft may fire on its own side
    friendly_fire: bool = False
    # R-8 / S0: an aircraft whose evasive check failed still may not attack
    failed_evasive_may_shoot: bool = False
    # R-8 large ships' anti-torpedo/anti-artillery manoeuvre: no number given
    anti_torpedo_mod: int = 2
    # fuel: spent per turn in the end phase, and per fuel-tank critical
    fuel_per_turn: int = 1
    fuel_leak_per_turn: int = 1
    # RULES-NOTES D ammunition: spent per shot
    ammo_per_shot: int = 1
    # weather, reported in the end phase (free text)
    weather: str = "clear"
    # --- movement, figures, landing; each names the seed gap it fills ---
    # does not say which speed sets the turn mode when speed changes
    # mid-move: the speed at the moment of the turn, or at the start of movement
    turn_speed_basis: TurnSpeedBasis = TurnSpeedBasis.CURRENT
    # R-3.3 "more than 2 levels at once": per descent step (default) or per turn
    steep_descent_basis: SteepDescentBasis = SteepDescentBasis.STEP
    # S0 §Altitude explained: a red/grey echelon "requires additional test"
    # (no number): a piloting check with this penalty on climbing into it ...
    echelon_test_penalty: int = 0
    # ... and again at the start of every turn spent there (off by default)
    echelon_test_every_turn: bool = False
    # S0 §Changing altitude: "make a move of 6" per echelon (altitude_model s0)
    s0_hexes_per_level: int = 6
    # water-methanol "raises fuel consumption" (no amount): fuel per use
    wm_fuel_cost: int = 1
    # "1 point of airframe integrity damage" read as this many hull hits
    gload_airframe_hits: int = 1
    # "hex sides turned" counts each figure's R-9 G-rating too
    figures_count_toward_gload: bool = True
    # R-10 lists "strip too short" only; a strip narrower than the class's
    # minimum width costs this (0 = width ignored)
    narrow_strip_mod: int = 2
    # open ground off a strip is landed on as "rough ground" (+3)
    open_ground_landing_mod: int = 3
    # R-10 take-off gives no speed after the run: the aircraft leaves the
    # strip at its landing speed (True) or at the run's length in hexes (False)
    takeoff_at_landing_speed: bool = True
    # S0 §Traits Glider "remain under control after engine is disabled and no
    # hull points left": seed_and -- only both together would take another
    # aircraft out of control, and an empty tank is a disabled engine (no
    # thrust points); either -- a disabled engine or an empty tank alone does.
    engine_out_control: EngineOut = EngineOut.SEED_AND


# A battle's start event records the air house rules it is played under.
# Options it lacks are read as the engine played then, so an old battle
# replays unchanged (``recorded_air_rules``).
AIR_LEGACY: dict[str, Any] = {"engine_out_control": EngineOut.EITHER.value}


def recorded_air_rules(recorded: Mapping[str, Any] | None,
                       fallback: AirOptions) -> AirOptions:
    """The air house rules a battle's start event recorded, with ``AIR_LEGACY``
    for the options it lacks; a log that recorded none (written before
    battles recorded their rules) plays under ``fallback`` with ``AIR_LEGACY``."""
    if recorded is None:
        legacy = HouseRules.from_dict({"air": AIR_LEGACY}).air
        return replace(fallback, **{name: getattr(legacy, name) for name in AIR_LEGACY})
    return HouseRules.from_dict({"air": {**AIR_LEGACY, **dict(recorded)}}).air


class OpposedTiebreak(str, Enum):
    """What breaks a tie of equal successes in an opposed test outside a
    close-combat round (S0 §Close combat 4 names tie-breaks for the round only)."""

    SKILL_THEN_AGILITY = "skill_then_agility"  # the rolled skill's number, then Agility
    CLOSE_COMBAT_THEN_AGILITY = "close_combat_then_agility"  # S0 §4 as written, for any test
    ROLLOFF = "rolloff"  # straight to the d12 roll-off


@dataclass(frozen=True)
class RollerOptions:
    # S0 §Close combat 4 breaks a tie of equal successes by "highest Close
    # Combat skill", then Agility, then a d12 roll-off — for a close-combat
    # round. For any other opposed roll on the dice roller the seeds are
    # silent; default: the skill number rolled, then Agility, then the roll-off
    # (the same thing in a close-combat roll).
    opposed_tiebreak: OpposedTiebreak = OpposedTiebreak.SKILL_THEN_AGILITY


@dataclass(frozen=True)
class CampaignOptions:
    """Between battles. The seeds stop at the end of a battle or a
    fight (R-5 counts wounds, S0 §Close combat spends K-points); how fast people
    heal, how long repairs take and what they cost is nowhere in them, so every
    rate here is a house rule with the default a GM would expect."""

    # Seeds silent on healing (R-5 only counts wounds, 6 = dead): one wound
    # heals after this many days of rest.
    heal_days_per_wound: int = 3
    # Seeds silent on coming to: an unconscious (not dead) character wakes
    # after this many days.
    wake_days: int = 1
    # S0 §Close combat spends K-points and never restores them: points back
    # per day of rest, up to the character's maximum.
    k_points_per_day: int = 2
    # R-5 lets a wounded pilot keep flying in battle; between battles a pilot
    # with more wounds than this is refused by the mission ready-check.
    fit_max_wounds: int = 2
    # Seeds silent on repairs: days of work per hull hit ...
    repair_days_per_hull_hit: int = 1
    # ... and per location effect in force (a critical's effect, R-6.1/R-10)
    repair_days_per_effect: int = 2
    # Cost in the campaign's money (unnamed in the seeds) per hull hit and per
    # location effect.
    repair_cost_per_hull_hit: int = 50
    repair_cost_per_effect: int = 150
    # Aircraft repaired at the same time (the first ones in the queue).
    repair_crews: int = 2
    # A repair of this share of the hull (percent) or more is advised to be
    # written off instead (the GM decides).
    write_off_percent: int = 75
    # Seeds silent on supply between battles: each day that passes refuels and
    # rearms every aircraft not lost, and its engine cools (overheat 0).
    rearm_each_day: bool = True


@dataclass(frozen=True)
class HouseRules:
    skills: SkillOptions = field(default_factory=SkillOptions)
    cqc: CqcOptions = field(default_factory=CqcOptions)
    air: AirOptions = field(default_factory=AirOptions)
    roller: RollerOptions = field(default_factory=RollerOptions)
    campaign: CampaignOptions = field(default_factory=CampaignOptions)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = _jsonable(asdict(self))
        return out

    @staticmethod
    def from_dict(data: dict[str, Any]) -> HouseRules:
        """Defaults overlaid with ``data``; unknown keys or bad types raise ValueError."""
        return HouseRules(
            skills=_section(SkillOptions, data.get("skills", {}), "skills"),
            cqc=_section(CqcOptions, data.get("cqc", {}), "cqc"),
            air=_section(AirOptions, data.get("air", {}), "air"),
            roller=_section(RollerOptions, data.get("roller", {}), "roller"),
            campaign=_section(CampaignOptions, data.get("campaign", {}), "campaign"),
        )

    def with_changes(self, section: str, **changes: Any) -> HouseRules:
        return replace(self, **{section: replace(getattr(self, section), **changes)})


def _jsonable(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


T = TypeVar("T")

# Every number a GM can set is bounded, so a typo
# ("99999999999999999999") is refused at the field instead of saved. The
# bounds are wide (house rules vary) but keep each value meaningful: die faces
# within a d20, 2d6 modifiers within the 2d6 range, counts a table can play.
# "section.option": (low, high) for a number, a list's items or a table's values.
DEFAULT_BOUNDS: tuple[int, int] = (-100, 100)
TABLE_KEY_BOUNDS: tuple[int, int] = (-100, 100)
MAX_TABLE_ENTRIES = 100
MAX_TEXT = 60
BOUNDS: dict[str, tuple[int, int]] = {
    "skills.opposed_table": (1, 40),      # a face; above 20 only criticals succeed
    "skills.challenging_table": (1, 40),
    "cqc.default_ap": (0, 30),
    "cqc.save_target": (1, 40),           # d12 + armour
    "cqc.attack_hits": (0, 10),
    "cqc.special_min_ap": (0, 30),
    "air.echelon_of_level": (1, 6),       # S0: echelons 1 Deck … 6 Edge
    "air.range_band_hexes": (1, 20),
    "air.range_band_mods": (-12, 12),     # 2d6 target modifiers
    "air.long_range_mod": (-12, 12),
    "air.firepower_hit_on": (1, 6),       # faces of a d6
    "air.firepower_crit_on": (1, 6),
    "air.evasion_cancel_on": (1, 6),
    "air.points_per_hit": (1, 100),
    "air.ram_damage_extra": (0, 20),
    "air.ram_rammer_min": (0, 20),
    "air.random_move_max_sides": (1, 3),
    "air.heat_threshold": (0, 20),
    "air.heat_base": (-12, 12),
    "air.fire_arc_degrees": (30, 360),
    "air.long_range_max_band": (3, 10),
    "air.critical_default_count": (0, 10),
    "air.bulky_light_arms_firepower": (0, 10),
    "air.gunnery_wound_mod": (-12, 12),
    "air.gunnery_control_surface_mod": (-12, 12),
    "air.crash_min_speed": (0, 10),
    "air.collision_damage_extra": (0, 20),
    "air.anti_torpedo_mod": (-12, 12),
    "air.fuel_per_turn": (0, 20),
    "air.fuel_leak_per_turn": (0, 20),
    "air.ammo_per_shot": (0, 20),
    "air.echelon_test_penalty": (-12, 12),
    "air.s0_hexes_per_level": (1, 20),
    "air.wm_fuel_cost": (0, 20),
    "air.gload_airframe_hits": (0, 10),
    "air.narrow_strip_mod": (-12, 12),
    "air.open_ground_landing_mod": (-12, 12),
    # the campaign between battles: days, K-points, money, percent
    "campaign.heal_days_per_wound": (0, 365),
    "campaign.wake_days": (0, 365),
    "campaign.k_points_per_day": (0, 99),
    "campaign.fit_max_wounds": (0, 6),    # six wounds is death
    "campaign.repair_days_per_hull_hit": (0, 365),
    "campaign.repair_days_per_effect": (0, 365),
    "campaign.repair_cost_per_hull_hit": (0, 1_000_000),
    "campaign.repair_cost_per_effect": (0, 1_000_000),
    "campaign.repair_crews": (1, 99),
    "campaign.write_off_percent": (1, 100),
}
TABLE_KEYS: dict[str, tuple[int, int]] = {
    "air.echelon_of_level": (1, 20),
    "air.hit_locations": (2, 12),         # a 2d6 roll
}


def bounds_of(where: str) -> tuple[int, int]:
    """The (low, high) a number of option ``where`` must lie in."""
    return BOUNDS.get(where, DEFAULT_BOUNDS)


def _bounded(value: int, where: str, what: str = "") -> int:
    low, high = bounds_of(where)
    if not low <= value <= high:
        raise ValueError(f"house rules: {where}{what} must be {low} to {high} (got {value})")
    return value


def _section(cls: type[T], data: Any, name: str) -> T:
    if not isinstance(data, dict):
        raise ValueError(f"house rules: {name} must be a table")
    defaults = cls()
    known = {f.name: f for f in fields(cls)}  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    for key, raw in data.items():
        if key not in known:
            raise ValueError(f"house rules: unknown option {name}.{key}")
        values[key] = _coerce(getattr(defaults, key), raw, f"{name}.{key}")
    return replace(defaults, **values)  # type: ignore[type-var]


def _coerce(default: Any, raw: Any, where: str) -> Any:
    if isinstance(default, Enum):
        try:
            return type(default)(raw)
        except ValueError:
            allowed = ", ".join(str(m.value) for m in type(default))
            raise ValueError(f"house rules: {where} must be one of {allowed}") from None
    if isinstance(default, bool):
        if not isinstance(raw, bool):
            raise ValueError(f"house rules: {where} must be true or false")
        return raw
    if isinstance(default, int):
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise ValueError(f"house rules: {where} must be a whole number")
        return _bounded(raw, where)
    if isinstance(default, tuple):
        if not isinstance(raw, (list, tuple)) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in raw):
            raise ValueError(f"house rules: {where} must be a list of whole numbers")
        if not 1 <= len(raw) <= 10:
            raise ValueError(f"house rules: {where} takes 1 to 10 numbers")
        for i, v in enumerate(raw):
            _bounded(v, where, f"[{i + 1}]")
        return tuple(raw)
    if isinstance(default, dict):
        if not isinstance(raw, dict):
            raise ValueError(f"house rules: {where} must be a table")
        sample = next(iter(default.values()))
        text_keys = all(isinstance(k, str) for k in default)
        if len(raw) > MAX_TABLE_ENTRIES:
            raise ValueError(f"house rules: {where} has {len(raw)} rows; at most "
                             f"{MAX_TABLE_ENTRIES}")
        if not raw and not text_keys:
            raise ValueError(f"house rules: {where} needs at least one row")
        out: dict[Any, Any] = {}
        for k, v in raw.items():
            if text_keys:  # names, e.g. cqc.passive_fight_skills: skill -> kind
                key: Any = str(k).strip().casefold()
                if not key or not isinstance(v, str) or not isinstance(sample, str):
                    raise ValueError(f"house rules: {where}[{k}] must be a name and a text")
                if len(key) > MAX_TEXT or len(v) > MAX_TEXT:
                    raise ValueError(f"house rules: {where}[{k}]: at most {MAX_TEXT} "
                                     "characters")
                out[key] = v.strip().casefold()
                continue
            try:
                key = int(k)
            except (TypeError, ValueError):
                raise ValueError(f"house rules: {where} key {k!r} must be a whole number") from None
            if not isinstance(v, type(sample)) or isinstance(v, bool):
                raise ValueError(f"house rules: {where}[{k}] has the wrong type")
            low, high = TABLE_KEYS.get(where, TABLE_KEY_BOUNDS)
            if not low <= key <= high:
                raise ValueError(f"house rules: {where} key {key} must be {low} to {high}")
            if isinstance(v, int):
                _bounded(v, where, f"[{key}]")
            elif isinstance(v, str) and not 1 <= len(v.strip()) <= MAX_TEXT:
                raise ValueError(f"house rules: {where}[{key}] must be 1 to {MAX_TEXT} "
                                 "characters")
            out[key] = v
        return out
    if isinstance(default, str) and not isinstance(raw, str):
        raise ValueError(f"house rules: {where} must be text")
    if isinstance(raw, str) and len(raw) > MAX_TEXT:
        raise ValueError(f"house rules: {where}: at most {MAX_TEXT} characters")
    return raw


def table_lookup(table: dict[int, int], key: int) -> int:
    """Look ``key`` up, clamping to the table's lowest or highest key."""
    if key in table:
        return table[key]
    keys = sorted(table)
    return table[keys[0]] if key < keys[0] else table[keys[-1]]


