"""A plan built with the air screen's plan keys is the plan typed in the
notation (``p``): the same steps, so the same checks with the same target
numbers and odds (R-3.1 thrust at the start or the end, R-3.3 a descent of
more than 2 levels at once, R-3.5 afterburner). Headless, on the runner."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ka_tui.rules.air import turn as t
from ka_tui.rules.air.battle import Battle
from ka_tui.rules.air.battle_map import BattleMap
from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.air.move_plan import format_plan
from ka_tui.rules.air.movement import validate_plan
from ka_tui.rules.air.profiles import BEAUFIGHTER, SPITFIRE
from ka_tui.rules.air.units import Airman, AirUnit
from ka_tui.rules.core.options import AirOptions, SteepDescentBasis
from ka_tui.screens.air.keys import STEPS
from ka_tui.screens.air.runner import Runner
from tests.rules.hypothesis_counts import scaled

MAP = BattleMap(30, 30)


def runner(u: AirUnit, options: AirOptions = AirOptions()) -> Runner:
    bt = Battle.start([u, replace(u, id="other", side="red", hex=Hex.from_offset(29, 29))],
                      MAP, options)
    bt.state = t.BattleState(bt.state.units, 1, t.Phase.MOVEMENT, (u.side, "red"), 0)
    return Runner(bt)


def spitfire(**kw: object) -> AirUnit:
    return replace(AirUnit("Spitfire", "blue", SPITFIRE, Airman("Jeanne", piloting=4),
                           hex=Hex.from_offset(15, 15), fuel=20, ammo=8), **kw)  # type: ignore[arg-type]


def keyed(r: Runner, uid: str, codes: list[str]) -> None:
    for code in codes:
        step = STEPS[code]
        assert step is not None
        r.add_step(uid, step)


def checks_of(r: Runner, uid: str) -> list[tuple[str, str, object]]:
    check = r.check(uid)
    assert check is not None
    return [(c.what, c.target.render(), c.probability) for c in check.checks]


@pytest.mark.parametrize("basis", list(SteepDescentBasis))
def test_r3_3_three_dive_keys_get_the_descent_check(basis: SteepDescentBasis) -> None:
    """R-3.3: Spitfire at level 4, speed 4: ``d d d f f f f f`` is ``D3 F F F F F``
    and shows the piloting check of a descent of 3 levels, 4 + 3 = 7 (58%),
    whatever ``steep_descent_basis`` says."""
    options = AirOptions(steep_descent_basis=basis)
    keys = runner(spitfire(altitude=4, speed=4), options)
    keyed(keys, "Spitfire", ["dive"] * 3 + ["forward"] * 5)
    typed = runner(spitfire(altitude=4, speed=4), options)
    assert typed.set_text("Spitfire", "D3 F F F F F") == []
    assert keys.plan_text("Spitfire") == "D3 F F F F F"
    assert keys.plan("Spitfire") == typed.plan("Spitfire")
    got = checks_of(keys, "Spitfire")
    assert got == checks_of(typed, "Spitfire")
    assert [(what, p) for what, _t, p in got] == [
        ("Spitfire descent of 3 levels (R-3.3)", pytest.approx(21 / 36))]
    assert got[0][1].endswith("= 7")


def test_r3_3_typed_descents_in_a_row_are_one_descent() -> None:
    """R-3.3 "at once": ``D D D`` typed (or ``3D``) is the same descent as ``D3``."""
    r = runner(spitfire(altitude=4, speed=4))
    for text in ("D D D F F F F F", "3D 5F"):
        assert r.set_text("Spitfire", text) == []
        assert r.plan_text("Spitfire") == "D3 F F F F F"


def test_r3_1_thrust_after_afterburner_is_at_the_start() -> None:
    """R-3.1, R-3.5: afterburner flies no hex, so ``a + + space`` spends the
    thrust at the start (``AB +2`` and five hexes), as ``+ + space`` does."""
    beau = AirUnit("Beau", "blue", BEAUFIGHTER, Airman("Kasia", piloting=5),
                   hex=Hex.from_offset(15, 15), speed=3, fuel=20, ammo=8)
    r = runner(beau)
    keyed(r, "Beau", ["afterburner", "thrust_up", "thrust_up"])
    r.fill("Beau")
    assert r.plan_text("Beau") == "AB +2 F F F F F"
    check = r.check("Beau")
    assert check is not None and check.legal
    plain = runner(beau)
    keyed(plain, "Beau", ["thrust_up", "thrust_up"])
    plain.fill("Beau")
    assert plain.plan_text("Beau") == "+2 F F F F F"


def test_r3_1_thrust_above_move_is_refused_for_what_it_is() -> None:
    """With ``a`` and seven ``+`` the Beaufighter (speed 3, Move 8) would fly at
    10: the preview says so, not "speed 3 must fly 3"."""
    beau = AirUnit("Beau", "blue", BEAUFIGHTER, Airman("Kasia", piloting=5),
                   hex=Hex.from_offset(15, 15), speed=3, fuel=20, ammo=8)
    r = runner(beau)
    keyed(r, "Beau", ["afterburner"] + ["thrust_up"] * 7)
    check = r.check("Beau")
    assert check is not None and not check.legal
    assert "above Move 8" in check.reason and "must fly" not in check.reason


# the keys a typed token is pressed with (a count repeats the key)
KEY_OF_TOKEN = {"F": "forward", "L": "left", "R": "right", "<": "slide_left",
                ">": "slide_right", "C": "climb", "CT": "climb_thrust", "D": "dive",
                "+1": "thrust_up", "-1": "thrust_down", "AB": "afterburner",
                "WM": "wm", "LAND": "land", "TO": "takeoff"}
PLAN_CODES = sorted(set(KEY_OF_TOKEN.values()))

keys_strategy = st.lists(st.sampled_from(PLAN_CODES), max_size=12)
start_strategy = st.tuples(st.integers(1, 4), st.integers(0, 9), st.integers(0, 5))


@settings(max_examples=scaled(300), deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(codes=keys_strategy, start=start_strategy,
       basis=st.sampled_from(list(SteepDescentBasis)))
def test_keys_and_typing_build_the_same_plan(codes: list[str], start: tuple[int, int, int],
                                            basis: SteepDescentBasis) -> None:
    """For any keys pressed: the plan they build, typed back in the notation,
    is the same plan, with the same legality, checks, target numbers and odds."""
    altitude, speed, facing = start
    options = AirOptions(steep_descent_basis=basis)
    u = spitfire(altitude=altitude, speed=speed, facing=facing)
    keys = runner(u, options)
    keyed(keys, "Spitfire", codes)
    typed = runner(u, options)
    assert typed.set_text("Spitfire", keys.plan_text("Spitfire")) == []
    assert typed.plan("Spitfire") == keys.plan("Spitfire")
    a, b = keys.check("Spitfire"), typed.check("Spitfire")
    assert a is not None and b is not None
    assert (a.legal, a.reason) == (b.legal, b.reason)
    assert checks_of(keys, "Spitfire") == checks_of(typed, "Spitfire")


token_strategy = st.lists(
    st.tuples(st.sampled_from(sorted(KEY_OF_TOKEN)), st.integers(1, 3)), max_size=8)


@settings(max_examples=scaled(300), deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(tokens=token_strategy, start=start_strategy)
def test_typed_plans_pressed_key_by_key_are_the_same(tokens: list[tuple[str, int]],
                                                     start: tuple[int, int, int]) -> None:
    """For any plan typed (``3F D2 +1 …``) and legal: pressing its keys one by
    one (``f f f d d +``) builds the same steps, checks and target numbers."""
    altitude, speed, facing = start
    u = spitfire(altitude=altitude, speed=speed, facing=facing)
    text = " ".join(f"{n}{tok}" if n > 1 else tok for tok, n in tokens)
    typed = runner(u)
    assert typed.set_text("Spitfire", text) == []
    check = validate_plan(u, typed.plan("Spitfire"), MAP, AirOptions())
    if not check.legal:
        return
    keys = runner(u)
    keyed(keys, "Spitfire", [KEY_OF_TOKEN[tok] for tok, n in tokens for _ in range(n)])
    assert format_plan(keys.plan("Spitfire")) == format_plan(typed.plan("Spitfire"))
    assert checks_of(keys, "Spitfire") == checks_of(typed, "Spitfire")
