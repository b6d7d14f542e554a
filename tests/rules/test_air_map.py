"""The air map (R-6.1 terrain heights, R-10 strips and carriers) and altitude (S0)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ka_tui.rules.air.battle_map import MapError, Strip, Surface, Terrain, parse_map
from ka_tui.rules.air.aircraft import Echelon
from ka_tui.rules.air.altitude import (
    ceiling_level,
    describe_level,
    echelon_of,
    levels_of,
    needs_echelon_test,
    s0_step,
    top_level,
)
from ka_tui.rules.air.hexgrid import Hex
from tests.rules.test_air_move_support import FIGHTER, OPTS, at

MAP = parse_map("""
    # a valley with a hill, a lake and a wood
    . . 2 3 .
    ~ ~ f1 . .
    r . . . .    # trailing comment
    strip Home 1,2 NE 3 2 unprepared
    carrier Ark 0,1 S 2 1 1
""")


def test_r6_1_terrain_heights_and_surfaces() -> None:
    assert (MAP.cols, MAP.rows) == (5, 3)
    assert MAP.height(at(2, 0)) == 2 and MAP.terrain_at(at(2, 0)).surface is Surface.ROUGH
    assert MAP.terrain_at(at(2, 1)) == Terrain(Surface.FOREST, 1)
    assert MAP.terrain_at(at(0, 2)).surface is Surface.CARRIER  # the deck over the cell
    assert MAP.terrain_at(at(0, 0)).surface is Surface.OPEN
    assert MAP.terrain_at(at(4, 2)) == Terrain()
    assert MAP.height(at(40, 40)) == 0 and not MAP.in_bounds(at(40, 40))


def test_r10_strip_hexes_and_end() -> None:
    (home,) = MAP.strips
    assert home.hexes() == (at(1, 2), at(1, 2).neighbour(1), at(1, 2).neighbour(1).neighbour(1))
    assert home.end_hex(1) == home.hexes()[-1] and home.end_hex(4) == home.hexes()[0]
    assert home.width == 2 and home.surface is Surface.UNPREPARED
    assert MAP.terrain_at(home.hexes()[1]).surface is Surface.UNPREPARED


def test_r10_carrier_is_a_map_feature() -> None:
    (ark,) = MAP.carriers
    deck = ark.as_strip()
    assert deck.surface is Surface.CARRIER and deck.height == 1
    site = MAP.landing_site(at(0, 1), 3)
    assert site.carrier and site.length == 2 and site.end == at(0, 2)
    assert MAP.height(at(0, 1)) == 1


def test_r10_landing_site_across_a_strip_is_terrain() -> None:
    site = MAP.landing_site(at(1, 2), 0)
    assert site.width is None and site.length == 1


def test_r10_landing_site_off_strip_counts_alike_terrain() -> None:
    m = parse_map("\n".join(["~ ~ ~"] * 14))
    site = m.landing_site(at(1, 13), 0)
    assert site.surface is Surface.WATER and site.length == 12  # capped: R-10 needs ≤ 12


def test_r10_runway_ahead() -> None:
    (home,) = MAP.strips
    assert MAP.runway_ahead(home.start, 1) == 3
    assert MAP.runway_ahead(home.hexes()[1], 1) == 2
    assert MAP.runway_ahead(home.hexes()[1], 4) == 2
    assert MAP.runway_ahead(home.start, 0) == 1


@pytest.mark.parametrize("text,where", [
    (". x .", "line 1: 'x' is not a terrain cell"),
    (". .\nstrip A 1,1 UP 3 1", "line 2: 'UP' is not a facing"),
    ("strip A 1;1 N 3 1", "line 1: '1;1' is not col,row"),
    ("strip A 1,1 N 3 1 water", "line 1: a strip is prepared or unprepared"),
    ("carrier A 1,1 N", "line 1: cannot read"),
])
def test_map_errors_name_the_line(text: str, where: str) -> None:
    with pytest.raises(MapError, match=where):
        parse_map(text)


def test_strip_built_in_code() -> None:
    s = Strip("X", Hex(0, 0), 2, 4)
    assert len(s.hexes()) == 4 and s.along(5) and not s.along(0)


# ---------------------------------------------------------------- altitude (S0, RULES-NOTES D)


def test_s0_echelons_of_levels() -> None:
    assert echelon_of(0, OPTS) is None
    assert [echelon_of(lv, OPTS) for lv in range(1, 7)] == list(Echelon)
    assert echelon_of(9, OPTS) is Echelon.EDGE
    assert describe_level(3, OPTS) == "level 3 (Mountain)" and describe_level(0, OPTS) == "ground"
    assert top_level(OPTS) == 6


def test_s0_ceiling_and_test_echelons() -> None:
    assert ceiling_level(FIGHTER, OPTS) == 4
    assert needs_echelon_test(FIGHTER, 4, OPTS) and not needs_echelon_test(FIGHTER, 3, OPTS)


def test_rules_notes_d_echelon_table_is_data() -> None:
    """Two levels per echelon: the ceiling follows the table."""
    opts = replace(OPTS, echelon_of_level={lv: (lv + 1) // 2 for lv in range(1, 13)})
    assert echelon_of(4, opts) is Echelon.HILL
    assert levels_of(Echelon.TOP, opts) == (7, 8)
    assert ceiling_level(FIGHTER, opts) == 8


def test_s0_move_of_six_per_level() -> None:
    """S0 §Changing altitude: a move of 6 per echelon, split over rounds."""
    assert s0_step(2, 4, 0, 4, OPTS) == (2, 4)
    assert s0_step(2, 4, 4, 4, OPTS) == (3, 2)
    assert s0_step(2, 4, 4, 8, OPTS) == (4, 0)
    assert s0_step(3, 1, 5, 1, OPTS) == (2, 0)
    assert s0_step(3, None, 5, 1, OPTS) == (3, 0)
