"""Pool notation and table faces, as a GM types them (pool sizes per S0 §Skills)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ka_tui.rules.core.dice_notation import (
    NotationError, PoolSpec, check_faces, parse_pool, pool_error,
)
from tests.rules.hypothesis_counts import scaled


@pytest.mark.parametrize(("text", "spec"), [
    ("3d10+1d12 @7", PoolSpec((10, 10, 10, 12), 7)),
    ("3D10 + 1d12@7", PoolSpec((10, 10, 10, 12), 7)),
    ("d12+4 @6", PoolSpec((12,), 6, 4)),            # S0 §Skills Passive: d12 + 4
    ("1d12 + 4@6", PoolSpec((12,), 6, 4)),
    ("2d8 -1 @5", PoolSpec((8, 8), 5, -1)),
    ("4d12", PoolSpec((12, 12, 12, 12))),
    ("[E1] @7", PoolSpec((10, 10, 10, 12), 7)),     # S0 §Skills: Expert + d12
    ("m1 @8", PoolSpec((12, 12, 12, 12, 20), 8)),   # Master + d20
    ("L2 @9", PoolSpec((12, 12, 20, 20), 9, 0, True)),  # Legendary: d12s → d20s
    ("[T] @-2", PoolSpec((10, 10), -2)),
])
def test_parse_pool_reads_what_a_gm_types(text: str, spec: PoolSpec) -> None:
    assert parse_pool(text) == spec
    assert pool_error(text) is None


@pytest.mark.parametrize(("text", "column", "fragment"), [
    ("3d7 @5", 1, "d7 is not a skill die (d8, d10, d12, d20)"),
    ("0d10", 1, "at least one die"),
    ("9d10", 1, "at most 8 dice"),
    ("3d10 2d8", 6, "join terms with '+'"),
    ("3d10+ @7", 5, "'+' needs a die or a number"),
    ("3d10 +", 6, "at the end"),
    ("3d10 @", 6, "a skill number must follow '@'"),
    ("3d10 @7 +2", 9, "put a bonus before '@'"),
    ("3d10 @7 @8", 9, "a second '@'"),
    ("-1d8", 1, "dice cannot be taken away"),
    ("3d10 x", 6, "'x' is not part of a pool"),
    ("[Q]", 1, "Q is not a level"),
    ("[B3]", 1, "Basic takes 0–1 upgrades"),
    ("12 @5", 1, "a bonus needs a sign"),
    ("3d10++1d8", 6, "two signs in a row"),
])
def test_parse_pool_errors_say_what_and_where(text: str, column: int, fragment: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_pool(text)
    assert err.value.column == column
    assert fragment in err.value.message
    assert str(err.value).startswith(f"column {column}: ")


@pytest.mark.parametrize(("text", "fragment"), [
    ("", "empty"),
    ("   ", "empty"),
    ("+3 @5", "no dice"),
    ("4d10+4d12+1d8", "9 dice: at most 8"),
    ("2d10+30", "bonus +30"),
])
def test_parse_pool_whole_text_errors(text: str, fragment: str) -> None:
    message = pool_error(text)
    assert message is not None and fragment in message


def test_parse_pool_can_require_the_number() -> None:
    with pytest.raises(NotationError, match=r"add the skill number with '@' \(e.g. 3d10 @7\)"):
        parse_pool("3d10", require_number=True)


@settings(max_examples=scaled(200), deadline=None)
@given(pool=st.lists(st.sampled_from((8, 10, 12, 20)), min_size=1, max_size=8).map(tuple),
       number=st.one_of(st.none(), st.integers(-40, 40)), bonus=st.integers(-20, 20))
def test_render_then_parse_round_trips(pool: tuple[int, ...], number: int | None,
                                       bonus: int) -> None:
    spec = PoolSpec(tuple(sorted(pool, key=pool.index)), number, bonus)
    back = parse_pool(spec.render())
    assert sorted(back.pool) == sorted(spec.pool)
    assert (back.number, back.bonus) == (number, bonus)


@settings(max_examples=scaled(200), deadline=None)
@given(st.text(alphabet="0123456789dD+-@ []BTEMLx", max_size=16))
def test_any_text_parses_or_gives_a_message(text: str) -> None:
    try:
        spec = parse_pool(text)
    except NotationError as err:
        assert err.message
        assert 0 <= err.column <= len(text)
    else:
        assert 1 <= len(spec.pool) <= 8


# --- faces -------------------------------------------------------------------


def test_check_faces_accepts_text_and_lists() -> None:
    assert check_faces((10, 10, 10, 12), "3 7 10 12").faces == (3, 7, 10, 12)
    assert check_faces((10, 10, 10, 12), "3, 7,10 ;12").faces == (3, 7, 10, 12)
    assert check_faces((8, 8), [8, 1]).faces == (8, 1)


def test_check_faces_counts_the_dice() -> None:
    check = check_faces((10, 10, 10, 12), [3, 7, 10])
    assert not check.ok and check.faces is None
    assert check.errors[0].index is None
    assert check.message == "4 faces expected for 3d10+1d12, got 3"


def test_check_faces_names_the_die_that_cannot_show_a_face() -> None:
    check = check_faces((10, 10, 10, 12), "3 7 x 13")
    assert [(e.index, e.message) for e in check.errors] == [
        (2, "'x' is not a number (die 3)"),
        (3, "13 is not a face of a d12 (die 4)"),
    ]
    assert check_faces((8,), [0]).message == "0 is not a face of a d8 (die 1)"
