"""The text map format (R-6.1 terrain heights, R-10 strips and carriers): ``format_map``
writes what ``parse_map`` reads back, and a bad line is refused with its line and column."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ka_tui.rules.air.battle_map import (
    BattleMap,
    Carrier,
    MapError,
    Strip,
    Surface,
    Terrain,
    format_map,
    parse_map,
)
from ka_tui.rules.air.hexgrid import Hex

CELL_SURFACES = (Surface.OPEN, Surface.WATER, Surface.FOREST, Surface.ROUGH)
NAMES = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz0123456789-_'", min_size=1,
                max_size=8)


@st.composite
def battle_maps(draw: st.DrawFn) -> BattleMap:
    cols = draw(st.integers(1, 9))
    rows = draw(st.integers(1, 9))
    terrain: dict[Hex, Terrain] = {}
    for col in range(cols):
        for row in range(rows):
            cell = Terrain(draw(st.sampled_from(CELL_SURFACES)), draw(st.integers(0, 12)))
            if cell != Terrain():
                terrain[Hex.from_offset(col, row)] = cell
    at = st.builds(Hex.from_offset, st.integers(0, cols - 1), st.integers(0, rows - 1))
    strips = draw(st.lists(st.builds(
        Strip, NAMES, at, st.integers(0, 5), st.integers(1, 12), st.integers(1, 3),
        st.sampled_from((Surface.PREPARED, Surface.UNPREPARED)), st.integers(0, 4)),
        max_size=3))
    carriers = draw(st.lists(st.builds(
        Carrier, NAMES, at, st.integers(0, 5), st.integers(1, 6), st.integers(1, 2),
        st.integers(0, 3)), max_size=2))
    return BattleMap(cols, rows, terrain, tuple(strips), tuple(carriers))


@given(battle_maps())
def test_r6_1_r10_format_then_parse_is_the_same_map(m: BattleMap) -> None:
    """Round trip: heights (R-6.1), strips and carriers (R-10) survive the text."""
    text = format_map(m)
    assert parse_map(text) == m
    assert format_map(parse_map(text)) == text


def test_format_map_is_the_text_the_tests_write() -> None:
    """The format is the one in the engine's tests (tests/rules/test_air_map.py)."""
    m = parse_map("""
        . . 2 3 .
        ~ ~ f1 . .
        r . . . .
        strip Home 1,2 NE 3 2 unprepared
        carrier Ark 0,1 S 2 1 1
    """)
    assert format_map(m) == (
        ".  .  2  3  .\n"
        "~  ~  f1 .  .\n"
        "r  .  .  .  .\n"
        "strip Home 1,2 NE 3 2 unprepared\n"
        "carrier Ark 0,1 S 2 1 1\n")


def test_format_map_refuses_what_the_text_cannot_hold() -> None:
    with pytest.raises(ValueError, match="one word"):
        format_map(BattleMap(2, 2, strips=(Strip("Two words", Hex(0, 0), 0, 2),)))
    with pytest.raises(ValueError, match="cannot be prepared strip"):
        format_map(BattleMap(1, 1, {Hex(0, 0): Terrain(Surface.PREPARED)}))


@pytest.mark.parametrize("text,line,column,what", [
    (". . x .", 1, 5, "'x' is not a terrain cell"),
    (".  .\n.  f2 ~q", 2, 7, "'~q' is not a terrain cell"),
    (". .\n  strip A 1,1 UP 3 1", 2, 15, "'UP' is not a facing"),
    ("strip A 1;1 N 3 1", 1, 9, "'1;1' is not col,row"),
    ("strip A -1,1 N 3 1", 1, 9, "'-1,1' is not col,row"),
    ("strip A 1,1 N three 1", 1, 15, "'three' is not a length"),
    ("strip A 1,1 N 3 0", 1, 17, "'0' is not a width"),
    ("strip A 1,1 N 3 1 water", 1, 19, "a strip is prepared or unprepared"),
    ("strip A 1,1 N 3 1 prepared 2 x", 1, 30, "'x' is one word too many"),
    ("carrier A 1,1 N", 1, 16, "cannot read"),
    ("carrier A 1,1 N 4", 1, 18, "width missing"),
])
def test_map_errors_name_line_and_column(text: str, line: int, column: int,
                                         what: str) -> None:
    with pytest.raises(MapError) as caught:
        parse_map(text)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert str(caught.value).startswith(f"line {line}: ")
    assert what in str(caught.value) and f"(column {column})" in str(caught.value)
