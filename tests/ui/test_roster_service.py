"""Service records in the roster: the detail pane ends with the
character's service line (``campaign_state.service_line``) and the character
table has sortable Sorties and Kills columns (shown where the table has room),
both derived from the demo's flown missions."""

from __future__ import annotations

from pathlib import Path

from ka_tui.app import KaApp
from ka_tui.store import campaign_state, roster_reads
from ka_tui.store.db import open_campaign
from tests.ui.pilot_helpers import settle
from tests.ui.test_roster import roster, select_name, table_names


def test_the_roster_counts_are_the_service_records(demo_db: Path) -> None:
    with open_campaign(demo_db) as db:
        data = roster_reads.load_roster(db)
        records = {r.character_id: (r.sorties, r.kills)
                   for r in campaign_state.service_records(db)}
        got = {c["id"]: (c["sorties"], c["kills"]) for c in data.characters}
        assert {cid: got[cid] for cid in records} == records
        assert sum(k for _, k in records.values()) == 2   # Dawn patrol: Hale, Moreau
        assert roster_reads.load_character_extra(db, 2)["service"].startswith(
            "Service: 1 sortie, 1 kill")


async def test_detail_shows_the_service_line_and_kills_sort(demo_db: Path) -> None:
    app = KaApp(demo_db)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await roster(pilot)
        await select_name(pilot, screen, "Jeanne Moreau")
        await settle(pilot)
        text = str(screen.query_one("#detail-text").render())
        assert "Service: 1 sortie, 1 kill, 0 wounds, 0 days out" in text
        state = screen.tables["characters"]
        for _ in range(len(state.columns)):
            if state.columns[state.sort].title == "Kills":
                break
            await pilot.press("o")
            await pilot.pause()
        assert state.columns[state.sort].title == "Kills"
        await pilot.press("O")
        await pilot.pause()
        assert set(table_names(screen)[:2]) == {"Arthur Hale", "Jeanne Moreau"}
