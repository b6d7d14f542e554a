"""Shooting (RULES-NOTES D, S0 §Altitude and combat, S0 §Traits, R-2, R-8).

To hit: 2d6 ≥ gunnery + range band modifier + the target's evasive modifier
(R-8) + the shooter's own wound and damage modifiers. Only at the same
altitude (S0). On a hit the shooter rolls Firepower d6 (4+ a hit, 6 a
critical); the target rolls Evasion d6, each 4+ cancelling one hit (normal hits
first). The traits re-roll as S0 §Traits says (readings in ``AirOptions`` and
``traits.py``). Each hit left goes to ``damage.apply_hits``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction

from ka_tui.rules.air.check_roll import CheckRoll, roll_check
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.air.aircraft import Trait
from ka_tui.rules.air.damage import DamageReport, apply_hits, out_of_battle, under_control
from ka_tui.rules.core.dice import Dice
from ka_tui.rules.air.evasive import WeaponKind, attack_refusal, evasive_modifier
from ka_tui.rules.air.hexgrid import Hex, distance
from ka_tui.rules.core.options import AccuracyMode, AirOptions, RobustMode
from ka_tui.rules.core.target import Finalizer, TargetNumber
from ka_tui.rules.air.traits import RerollTarget, critical_upgrades, ignores, reroll_dice

GROUND_ATTACK_LEVEL = 1  # S0 §Altitude explained: Deck is "close to ground"


# ------------------------------------------------------------------ geometry

def _pixel(h: Hex) -> tuple[float, float]:
    return 1.5 * h.q, math.sqrt(3) * (h.r + h.q / 2)


def in_fire_arc(shooter: AirUnit, target_hex: Hex, options: AirOptions) -> bool:
    """The forward arc (house rule ``fire_arc_degrees``, centred on the facing:
    S0 names no arc); the own hex counts."""
    if options.fire_arc_degrees >= 360 or target_hex == shooter.hex:
        return True
    x0, y0 = _pixel(shooter.hex)
    fx, fy = _pixel(shooter.hex.neighbour(shooter.facing))
    tx, ty = _pixel(target_hex)
    ax, ay = fx - x0, fy - y0
    bx, by = tx - x0, ty - y0
    cos = (ax * bx + ay * by) / (math.hypot(ax, ay) * math.hypot(bx, by))
    angle = math.degrees(math.acos(max(-1.0, min(1.0, cos))))
    return angle <= options.fire_arc_degrees / 2 + 1e-6


def range_band(hexes: int, options: AirOptions) -> int:
    """RULES-NOTES D: bands of ``range_band_hexes`` hexes; the own hex is band 1."""
    return max(1, math.ceil(hexes / max(1, options.range_band_hexes)))


def is_ground_attack(shooter: AirUnit, target: AirUnit) -> bool:
    """A shot from the Deck at something on the ground (S0 §Traits Zero-in)."""
    return target.altitude == 0 and shooter.altitude <= GROUND_ATTACK_LEVEL


# ------------------------------------------------------------------ legality

def shot_problems(shooter: AirUnit, target: AirUnit, options: AirOptions) -> tuple[str, ...]:
    """Every reason this shot cannot be made (empty = it can): RULES-NOTES D
    range bands, S0 §Altitude and combat same level, R-8 / R-1.2 one attack,
    R-1.4 ammunition."""
    out: list[str] = []
    if shooter.id == target.id:
        out.append("an aircraft cannot shoot at itself")
    elif shooter.side == target.side and not options.friendly_fire:
        out.append(f"{target.id} is on {shooter.id}'s side (house rule friendly_fire)")
    if out_of_battle(shooter):
        out.append(f"{shooter.id} is out of the battle")
    if out_of_battle(target):
        out.append(f"{target.id} is already out of the battle")
    refusal = attack_refusal(shooter)
    if refusal:
        out.append(refusal)
    if shooter.landed:
        out.append(f"{shooter.id} is on the ground")
    if not under_control(shooter, options):
        out.append(f"{shooter.id} is out of control (R-5, R-3.2)")
    if shooter.ammo < options.ammo_per_shot:
        out.append(f"{shooter.id} is out of ammunition (R-1.4)")
    if options.same_altitude_only and shooter.altitude != target.altitude \
            and not is_ground_attack(shooter, target):
        out.append(f"{target.id} is at level {target.altitude}, {shooter.id} at level "
                   f"{shooter.altitude}: shots only at the same altitude (S0 §Altitude and combat)")
    band = range_band(distance(shooter.hex, target.hex), options)
    last = len(options.range_band_mods)
    if band > last and not shooter.profile.has_trait(Trait.LONG_RANGE):
        out.append(f"{target.id} is at range {band}: beyond range {last} needs Long range "
                   "(S0 §Traits)")
    elif band > max(last, options.long_range_max_band):
        out.append(f"{target.id} is at range {band}, beyond the longest range "
                   f"{options.long_range_max_band} (house rule long_range_max_band)")
    if not in_fire_arc(shooter, target.hex, options):
        out.append(f"{target.id} is outside {shooter.id}'s {options.fire_arc_degrees}° forward "
                   "arc (house rule fire_arc_degrees)")
    return tuple(out)


def to_hit_target(shooter: AirUnit, target: AirUnit, options: AirOptions,
                  weapon: WeaponKind = WeaponKind.GUNS) -> TargetNumber:
    """RULES-NOTES D: gunnery + range band + evasive (R-8) + own wounds and damage."""
    return _to_hit(shooter, target, options, weapon, shot_problems(shooter, target, options))


def _to_hit(shooter: AirUnit, target: AirUnit, options: AirOptions, weapon: WeaponKind,
            problems: tuple[str, ...]) -> TargetNumber:
    t = TargetNumber(shooter.pilot.gunnery, f"gunnery {shooter.pilot.name}", "R-2")
    hexes = distance(shooter.hex, target.hex)
    band = range_band(hexes, options)
    mods = options.range_band_mods
    if band <= len(mods):
        t = t.plus(mods[band - 1], f"range {band} ({hexes} hexes)", "RULES-NOTES D")
    else:
        t = t.plus(options.long_range_mod, f"range {band} ({hexes} hexes), Long range",
                   "S0 §Traits, RULES-NOTES D")
    ev = evasive_modifier(target, weapon, options)
    t = t.plus(ev, f"{target.id} evading ({target.profile.aircraft_class.label})", "R-8")
    t = t.plus(options.gunnery_wound_mod * shooter.pilot.wounds,
               f"{shooter.pilot.wounds} wound(s)", "RULES-NOTES D")
    cs = shooter.damage.at("control_surfaces")
    t = t.plus(options.gunnery_control_surface_mod * cs,
               f"control surfaces damaged ×{cs}", "RULES-NOTES D")
    if problems:
        t = t.finalized(Finalizer.IMPOSSIBLE, problems[0])
    return t


@dataclass(frozen=True)
class ShotPreview:
    """What a shot needs, without rolling: for the tactical view's cursor."""

    legal: bool
    problems: tuple[str, ...]
    target: TargetNumber
    hit_probability: Fraction

    @property
    def reason(self) -> str:
        return self.problems[0] if self.problems else ""


def preview_shot(shooter: AirUnit, target: AirUnit, options: AirOptions,
                 weapon: WeaponKind = WeaponKind.GUNS) -> ShotPreview:
    """The shot as the cursor shows it, no dice: legality and the R-2 /
    RULES-NOTES D to-hit number with its exact chance."""
    problems = shot_problems(shooter, target, options)
    t = _to_hit(shooter, target, options, weapon, problems)
    return ShotPreview(not problems, problems, t, t.probability())


# ------------------------------------------------------------------ resolution

@dataclass(frozen=True)
class DieChange:
    """A re-rolled die: which die, its face before and after, and why."""

    index: int
    before: int
    after: int
    reason: str


@dataclass(frozen=True)
class ShotResult:
    shooter_id: str
    target_id: str
    legal: bool
    problems: tuple[str, ...]
    checks: tuple[CheckRoll, ...]          # the to-hit roll, then any re-roll
    hit: bool
    firepower: tuple[int, ...]              # faces after Accuracy re-rolls
    evasion: tuple[int, ...]                # faces after Bullet dodger re-rolls
    rerolls: tuple[DieChange, ...]
    normal_hits: int                        # left after Evasion and Robust
    critical_hits: int
    cancelled: int
    damage: DamageReport | None
    log: tuple[str, ...]


def _faces(dice: Dice, n: int) -> list[int]:
    return [dice.roll(6) for _ in range(max(0, n))]


def _reroll_below(dice: Dice, faces: list[int], below: int, n: int,
                  reason: str) -> list[DieChange]:
    """S0 §Traits re-rolls: the first ``n`` faces under ``below`` are rolled again (in place)."""
    changes: list[DieChange] = []
    for i in [i for i, f in enumerate(faces) if f < below][:n]:
        new = dice.roll(6)
        changes.append(DieChange(i, faces[i], new, reason))
        faces[i] = new
    return changes


def _fmt(faces: list[int] | tuple[int, ...]) -> str:
    return " ".join(str(f) for f in faces) if faces else "none"


def shoot(shooter: AirUnit, target: AirUnit, dice: Dice, options: AirOptions,
          weapon: WeaponKind = WeaponKind.GUNS) -> tuple[AirUnit, AirUnit, ShotResult]:
    """RULES-NOTES D shooting, with the S0 §Traits re-rolls, start to finish.

    An illegal shot rolls nothing and changes nothing; the result says why.
    """
    problems = shot_problems(shooter, target, options)
    t = _to_hit(shooter, target, options, weapon, problems)
    if problems:
        line = f"{shooter.id} cannot shoot at {target.id}: {problems[0]}"
        return shooter, target, ShotResult(shooter.id, target.id, False, problems, (), False,
                                           (), (), (), 0, 0, 0, None, (line,))
    lines: list[str] = [f"{shooter.id} shoots at {target.id} (RULES-NOTES D)"]
    what = f"{shooter.id} to hit {target.id} (R-2)"
    checks = [roll_check(what, t, dice)]
    lines.append(checks[0].render())
    ground = is_ground_attack(shooter, target)
    if not checks[0].success:
        reason = ""
        if ground and shooter.profile.has_trait(Trait.ZERO_IN):
            reason = "Zero-in re-rolls the accuracy of a ground attack (S0 §Traits)"
        elif options.accuracy_mode is AccuracyMode.TO_HIT_ROLL \
                and shooter.profile.has_trait(Trait.ACCURACY):
            reason = "Accuracy re-rolls the failed hit (S0 §Traits, house rule accuracy_mode)"
        if reason:
            checks.append(roll_check(what + " re-roll", t, dice))
            lines.extend((reason, checks[-1].render()))
    shooter_after = replace(shooter, shot=True, ammo=shooter.ammo - options.ammo_per_shot)
    if not checks[-1].success:
        lines.append(f"{shooter.id} misses")
        return shooter_after, target, ShotResult(
            shooter.id, target.id, True, (), tuple(checks), False, (), (), (), 0, 0, 0, None,
            tuple(lines))

    rerolls: list[DieChange] = []
    fp = _faces(dice, shooter.profile.firepower)
    lines.append(f"Firepower {shooter.profile.firepower}d6: {_fmt(fp)} "
                 f"({options.firepower_hit_on}+ hit, {options.firepower_crit_on} critical; "
                 "RULES-NOTES D)")
    if options.accuracy_mode is AccuracyMode.FIREPOWER_DICE:
        n = reroll_dice(shooter.profile, RerollTarget.FAILED_HITS)
        misses = _reroll_below(dice, fp, options.firepower_hit_on, n, "Accuracy (S0 §Traits)")
        rerolls += misses
        if misses:
            lines.append(f"Accuracy re-rolls {len(misses)} failed hit(s): now {_fmt(fp)} "
                         "(S0 §Traits)")
    crits = sum(1 for f in fp if f >= options.firepower_crit_on)
    normals = sum(1 for f in fp if options.firepower_hit_on <= f < options.firepower_crit_on)
    upgrades = min(normals, critical_upgrades(shooter.profile, options.critical_default_count))
    if upgrades:
        crits, normals = crits + upgrades, normals - upgrades
        lines.append(f"Critical turns {upgrades} normal hit(s) into critical hit(s) (S0 §Traits)")
    light_arms = shooter.profile.firepower <= options.bulky_light_arms_firepower
    if crits and light_arms and ignores(target.profile, "light arms"):
        lines.append(f"{target.id} is Bulky: light arms (Firepower {shooter.profile.firepower}) "
                     "make no critical hits on it (S0 §Traits, house rule "
                     "bulky_light_arms_firepower)")
        crits, normals = 0, normals + crits
    lines.append(f"{normals} hit(s), {crits} critical(s)")

    ev: list[int] = []
    cancelled = 0
    if normals + crits and under_control(target, options):
        ev = _faces(dice, target.profile.evasion)
        lines.append(f"{target.id} Evasion {target.profile.evasion}d6: {_fmt(ev)} "
                     f"({options.evasion_cancel_on}+ cancels a hit; RULES-NOTES D)")
        n = reroll_dice(target.profile, RerollTarget.EVASION)
        failed = _reroll_below(dice, ev, options.evasion_cancel_on, n,
                               "Bullet dodger (S0 §Traits)")
        rerolls += failed
        if failed:
            lines.append(f"Bullet dodger re-rolls {len(failed)} Evasion die/dice: now {_fmt(ev)} "
                         "(S0 §Traits)")
        saves = sum(1 for f in ev if f >= options.evasion_cancel_on)
        off_normal = min(saves, normals)
        off_crit = min(saves - off_normal, crits)
        normals, crits = normals - off_normal, crits - off_crit
        cancelled = off_normal + off_crit
        if cancelled:
            lines.append(f"Evasion cancels {off_normal} hit(s) and {off_crit} critical(s)")
    elif normals + crits:
        lines.append(f"{target.id} is out of control: no Evasion dice (R-5)")

    location_rerolls = 0
    robust = reroll_dice(target.profile, RerollTarget.HIT_EFFECT)
    if robust and normals + crits:
        if options.robust_mode is RobustMode.REROLL_LOCATION:
            location_rerolls = robust
        else:
            normals, crits = _robust_reroll(normals, crits, robust, dice, options, rerolls,
                                            lines, target.id,
                                            no_crits=light_arms and ignores(target.profile,
                                                                            "light arms"))
    target_after = target
    report: DamageReport | None = None
    if normals + crits:
        target_after, report = apply_hits(
            target, [True] * crits + [False] * normals, dice, options,
            source=f"shot by {shooter.id}", critical_location_rerolls=location_rerolls)
        lines.extend(report.log)
    else:
        lines.append(f"{target.id} takes no damage")
    return shooter_after, target_after, ShotResult(
        shooter.id, target.id, True, (), tuple(checks), True, tuple(fp), tuple(ev),
        tuple(rerolls), normals, crits, cancelled, report, tuple(lines))


def _robust_reroll(normals: int, crits: int, count: int, dice: Dice, options: AirOptions,
                   rerolls: list[DieChange], lines: list[str], target_id: str,
                   no_crits: bool) -> tuple[int, int]:
    """S0 §Traits Robust (house rule robust_mode reroll_hit_die): the Firepower
    die behind up to ``count`` hits, criticals first, is rolled again; the new
    face decides (a Bulky target still takes no criticals from light arms)."""
    chosen = ["critical"] * min(crits, count)
    chosen += ["normal"] * min(normals, count - len(chosen))
    for i, kind in enumerate(chosen):
        new = dice.roll(6)
        # before = 0: the hit's own face is not kept once Critical/Bulky changed it
        rerolls.append(DieChange(i, 0, new, "Robust (S0 §Traits)"))
        if kind == "critical":
            crits -= 1
        else:
            normals -= 1
        crit = new >= options.firepower_crit_on and not no_crits
        if crit:
            crits += 1
        elif new >= options.firepower_hit_on:
            normals += 1
        verdict = ("critical" if crit else "hit" if new >= options.firepower_hit_on else "miss")
        lines.append(f"{target_id} is Robust: re-rolls a {kind} hit's die: {new} → {verdict} "
                     "(S0 §Traits)")
    return normals, crits
