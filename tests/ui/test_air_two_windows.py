"""Two windows on one air battle (R-1.2): when one flies an aircraft, the
other moves its selection on to the aircraft that acts next, as its own
move would, instead of staying on the one that has flown."""

from __future__ import annotations

from pathlib import Path

from ka_tui.widgets.hex_map import HexMap
from tests.ui.pilot_helpers import SIZE, settle, wait_for
from tests.ui.test_air_battle import BEAU, IL2, make_app, open_air, seed_battle


async def test_a_move_in_another_window_selects_the_next_aircraft(demo_db: Path) -> None:
    seed_battle(demo_db)
    a, dice = make_app(demo_db)
    dice.queue = [6, 6, 1, 1]  # Red 6+6 against Blue 1+1
    b, _ = make_app(demo_db)
    async with a.run_test(size=SIZE) as pa, b.run_test(size=SIZE) as pb:
        sa = await open_air(pa)
        sb = await open_air(pb)
        await wait_for(pa, lambda: sa.runner is not None)
        await wait_for(pb, lambda: sb.runner is not None)
        await pa.press("g")                      # the turn starts: Red moves first
        await settle(pa)
        await wait_for(pb, lambda: sb.runner is not None and sb.runner.next().units[:1]
                       == (BEAU,) and sb.query_one(HexMap).selected == BEAU)
        await pa.press("space", "g")             # window a: the Beaufighter flies on
        await settle(pa)
        await wait_for(pb, lambda: sb.runner is not None
                       and BEAU not in sb.runner.next().units)
        await settle(pb)
        assert sb.query_one(HexMap).selected == IL2
