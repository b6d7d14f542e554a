"""Suggested plans for the GM's aircraft (rules/air/tactics): every suggestion
is a plan the engine accepts; no terrain (R-6.1), stall (R-3.2) or check
below the tactic's risk limit when a safe plan exists; break off gains
distance from every enemy; the same state gives the same plan; scenarios on
small text maps (pursuit, head-on pass, break-off, landing approach, R-10)."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from ka_tui.rules.air import turn as t
from ka_tui.rules.air.battle_map import BattleMap, parse_map
from ka_tui.rules.air.hexgrid import distance
from ka_tui.rules.air.move_plan import Forward, Land, Thrust
from ka_tui.rules.air.movement import preview_start, validate_plan
from ka_tui.rules.air.profiles import LIBRARY
from ka_tui.rules.air.tactics import LIMITS, Tactic, suggest_move, suggest_shot, suggest_side
from ka_tui.rules.air.tactics.candidates import STALL_FREE_SPEED
from ka_tui.rules.air.units import Airman, AirUnit, Damage
from tests.rules.test_air_move_support import FIGHTER, OPTS, at, unit

OPEN = parse_map("\n".join([" ".join(["."] * 20)] * 20))


def state(*units: AirUnit, side: str = "red") -> t.BattleState:
    sides = tuple(dict.fromkeys([side] + [u.side for u in units]))
    return t.BattleState(tuple(units), 1, t.Phase.MOVEMENT, sides, 0)


def foe(col: int, row: int, *, uid: str = "B1", **kw: object) -> AirUnit:
    u = unit(col, row, **kw)  # type: ignore[arg-type]
    return replace(u, id=uid, side="blue", pilot=Airman("Olga", piloting=5, endurance=3),
                   ammo=10)


def me(col: int = 10, row: int = 15, **kw: object) -> AirUnit:
    return replace(unit(col, row, **kw), ammo=10)  # type: ignore[arg-type]


def random_battle(seed: int, size: int = 24) -> tuple[t.BattleState, BattleMap]:
    rng = random.Random(seed)
    rows = [" ".join("3" if rng.random() < 0.06 else "." for _ in range(size))
            for _ in range(size)]
    battle_map = parse_map("\n".join(rows))
    units = []
    profiles = [p for p in LIBRARY if p.aircraft_class.value in ("fighter", "heavy_fighter")]
    for i in range(4):
        p = profiles[rng.randrange(len(profiles))]
        while True:
            h = at(rng.randrange(3, size - 3), rng.randrange(3, size - 3))
            if battle_map.height(h) == 0:
                break
        units.append(AirUnit(f"U{i}", "red" if i < 2 else "blue", p,
                             Airman(f"P{i}", piloting=rng.randint(4, 7), gunnery=4),
                             hex=h, facing=rng.randrange(6), altitude=rng.randint(2, 5),
                             speed=rng.randint(3, p.move), fuel=p.fuel, ammo=p.ammo,
                             damage=Damage(rng.choice([0, 0, 2]))))
    return state(*units), battle_map


# ------------------------------------------------------------------ properties

@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("tactic", list(Tactic))
def test_every_suggestion_is_a_legal_plan_and_safe_when_a_safe_plan_exists(
        seed: int, tactic: Tactic) -> None:
    """R-3 ... R-10 via validate_plan; R-6.1 no crash, R-3.2 no stall next turn,
    checks within the tactic's limit, whenever flying straight on with enough
    thrust at the end is such a safe plan."""
    s, battle_map = random_battle(seed)
    for u in s.side_units("red"):
        got = suggest_move(s, u.id, battle_map, OPTS, tactic)
        assert got is not None
        check = validate_plan(u, got.plan, battle_map, OPTS)
        assert check.legal, (got.text, check.reason)
        assert check.end == got.check.end
        straight = (Forward(),) * u.speed
        keep = max(0, STALL_FREE_SPEED - u.speed)
        plain = validate_plan(u, straight + ((Thrust(keep, "end"),) if keep else ()),
                              battle_map, OPTS)
        plain_safe = (plain.legal and plain.terrain_crash is None and not plain.checks
                      and not preview_start(plain.end, OPTS).checks)
        if plain_safe:
            assert got.safe, got.reason
        if got.safe:
            assert got.check.terrain_crash is None
            assert not got.risk.stalls
            assert got.risk.all_pass >= LIMITS[got.tactic].risk_limit


@pytest.mark.parametrize("seed", range(6))
def test_the_same_state_gives_the_same_plan(seed: int) -> None:
    s, battle_map = random_battle(seed)
    again = t.BattleState(tuple(replace(u) for u in s.units), s.turn, s.phase, s.order,
                          s.side_index)
    for u in s.side_units("red"):
        a = suggest_move(s, u.id, battle_map, OPTS)
        b = suggest_move(again, u.id, battle_map, OPTS)
        assert a is not None and b is not None
        assert (a.plan, a.evasive, a.reason) == (b.plan, b.evasive, b.reason)


def test_suggest_side_skips_players_and_moved_aircraft() -> None:
    s, battle_map = random_battle(3)
    moved = s.with_units(replace(s.unit("U0"), moved=True))
    assert set(suggest_side(moved, "red", battle_map, OPTS)) == {"U1"}
    assert suggest_side(s, "red", battle_map, OPTS, skip=frozenset({"U1"})).keys() == {"U0"}


# ------------------------------------------------------------------ scenarios

def test_pursuit_ends_behind_the_enemy_in_arc_at_its_level() -> None:
    """S0 §Altitude and combat: same level to shoot; RULES-NOTES D range bands."""
    target = foe(10, 6, facing=0, altitude=3, speed=6)
    s = state(me(10, 13, altitude=3, speed=6), target)
    got = suggest_move(s, "A1", OPEN, OPTS, Tactic.AGGRESSIVE)
    assert got is not None and got.target == "B1"
    end = got.check.end
    assert end.altitude == target.altitude
    assert got.reason.startswith("pursue Test fighter B1: ends ")
    assert "behind it, in arc, same level — to-hit " in got.reason
    assert got.reason.endswith("no check")
    shot = suggest_shot(s.with_units(end), "A1", OPTS)
    assert shot.target == "B1" and shot.reason.startswith("shoot Test fighter B1: ")


def test_head_on_pass_takes_the_shot_and_names_it() -> None:
    """Two fighters nose to nose at one level: the shot is there this turn."""
    s = state(me(10, 16, altitude=3, speed=5), foe(10, 6, facing=3, altitude=3, speed=6))
    got = suggest_move(s, "A1", OPEN, OPTS, Tactic.AGGRESSIVE)
    assert got is not None and got.target == "B1"
    assert "to-hit" in got.reason and "B1" in got.reason


def test_cautious_takes_no_check_below_its_limit_when_aggressive_would() -> None:
    """R-4: three sides turned on G-rating 1 is a G-load check at piloting 4 + 2
    = 6 (72 %): within aggressive's 58 %, below cautious's 83 %, so cautious
    keeps to a safe plan (there is one: straight on)."""
    light = replace(FIGHTER, g_rating=1)
    s = state(me(10, 10, altitude=3, speed=6, profile=light,
                 pilot=Airman("Kay", piloting=4, endurance=3)),
              foe(11, 12, facing=3, altitude=3, speed=6))
    bold = suggest_move(s, "A1", OPEN, OPTS, Tactic.AGGRESSIVE)
    assert bold is not None and bold.target == "B1" and bold.safe
    assert bold.risk.all_pass == Fraction(26, 36)
    assert "G-load on the airframe (R-4) 72 %" in bold.reason
    careful = suggest_move(s, "A1", OPEN, OPTS, Tactic.CAUTIOUS)
    assert careful is not None and careful.safe
    assert careful.risk.all_pass >= LIMITS[Tactic.CAUTIOUS].risk_limit > bold.risk.all_pass


def test_no_plan_into_the_terrain_or_a_stall_when_a_safe_one_exists() -> None:
    """R-6.1: a hill of height 3 ahead at level 3; R-3.2: speed 4 would stall."""
    hill = parse_map("\n".join(" ".join("3" if r < 8 and 8 <= c <= 12 else "."
                                        for c in range(20)) for r in range(20)))
    s = state(me(10, 12, altitude=3, speed=4), foe(2, 18, facing=1, altitude=5))
    for tactic in Tactic:
        got = suggest_move(s, "A1", hill, OPTS, tactic)
        assert got is not None and got.safe, got
        assert got.check.terrain_crash is None
        assert got.check.end.speed >= STALL_FREE_SPEED      # no stall next turn
        assert not preview_start(got.check.end, OPTS).stalls


def test_a_damaged_aircraft_breaks_off_and_gains_distance_from_every_enemy() -> None:
    """Half its hull gone (RULES-NOTES D): it breaks off whatever its tactic."""
    hurt = me(10, 10, altitude=3, speed=6, damage=Damage(2))
    enemies = (foe(10, 14, uid="B1", facing=0, altitude=3),
               foe(13, 12, uid="B2", facing=5, altitude=3))
    s = state(hurt, *enemies)
    got = suggest_move(s, "A1", OPEN, OPTS, Tactic.AGGRESSIVE)
    assert got is not None and got.tactic is Tactic.BREAK_OFF
    assert got.reason.startswith("break off (hull 2/4 left): ")
    for e in enemies:
        assert distance(got.check.end.hex, e.hex) > distance(hurt.hex, e.hex)
    assert "farther from every enemy" in got.reason


def test_a_wounded_pilot_breaks_off() -> None:
    """R-5: two wounds."""
    s = state(me(10, 10, pilot=Airman("Kay", piloting=5, wounds=2)), foe(10, 14))
    got = suggest_move(s, "A1", OPEN, OPTS, Tactic.CAUTIOUS)
    assert got is not None and got.tactic is Tactic.BREAK_OFF
    assert "Kay has 2 wounds (R-5)" in got.reason


def test_landing_approach_on_the_home_strip() -> None:
    """R-10: one level above the strip, lined up, at landing speed: it lands."""
    field = parse_map("\n".join(" ".join("." for _ in range(12)) for _ in range(16))
                      + "\nstrip Home 5,8 N 6 1 prepared")
    hurt = me(5, 12, altitude=1, speed=3, damage=Damage(3))
    s = state(hurt, foe(5, 15, facing=0, altitude=1, speed=6))
    got = suggest_move(s, "A1", field, OPTS, Tactic.BREAK_OFF)
    assert got is not None
    assert isinstance(got.plan[-1], Land), got.text
    assert got.check.end.landed
    assert "lands (R-10)" in got.reason


def test_no_shot_says_why() -> None:
    s = state(me(10, 10, altitude=3), foe(10, 6, altitude=5))
    s = replace(s, phase=t.Phase.SHOOTING)
    got = suggest_shot(s, "A1", OPTS)
    assert got.target is None
    assert got.reason == ("no shot: no enemy at its level, in arc and in range "
                          "(S0 §Altitude and combat)")


def test_the_shot_goes_to_the_likelier_kill() -> None:
    """RULES-NOTES D: the nearer band hits more often; a hurt target dies sooner."""
    near = foe(10, 8, uid="B1", altitude=3)
    hurt = foe(11, 8, uid="B2", altitude=3, damage=Damage(3))
    s = replace(state(me(10, 10, altitude=3), near, hurt), phase=t.Phase.SHOOTING)
    got = suggest_shot(s, "A1", OPTS)
    assert got.target == "B2" and "destroys it" in got.reason




@pytest.mark.parametrize("hull_hits,lethal", [(3, True), (0, False)])
def test_an_airframe_check_with_the_last_hull_point_at_stake_is_never_safe(
        hull_hits: int, lethal: bool) -> None:
    """R-4: three sides on G-rating 1 check the airframe; with one hull point
    left its failure (1 hit) destroys it (S0 §Flight card Hull), so the plan is
    unsafe whatever its odds; with the whole hull it is a risk like any other."""
    from ka_tui.rules.air.tactics.scoring import plan_risk
    from tests.rules.test_air_move_support import plan

    u = me(10, 10, altitude=3, speed=6, profile=replace(FIGHTER, g_rating=1),
           damage=Damage(hull_hits), pilot=Airman("Kay", piloting=2, endurance=3))
    check = validate_plan(u, plan("F F R F F R F F R"), OPEN, OPTS)
    assert check.legal and check.sides_turned == 3
    risk = plan_risk(u, check, (), OPEN, OPTS)
    assert risk.lethal is lethal
    assert risk.all_pass >= LIMITS[Tactic.BREAK_OFF].risk_limit
