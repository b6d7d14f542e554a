"""Snapshots of the campaign picker (80x24)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ka_tui.app import KaApp
from tests.ui.pilot_helpers import SIZE, settle


def test_snapshot_campaign_picker(snap_compare: Any, demo_db: Path, tmp_path: Path) -> None:
    from ka_tui.store.db import create_campaign

    other = tmp_path / "winter.db"
    create_campaign(other, "Winter Ops").close()
    (tmp_path / "broken.db").write_text("not a campaign")

    async def run_before(pilot: Any) -> None:
        from textual.widgets import DataTable

        from tests.ui.pilot_helpers import wait_for

        await settle(pilot)
        table = pilot.app.screen.query_one(DataTable)
        await wait_for(pilot, lambda: table.row_count == 3)
        # the columns widen to their cells on the table's next refresh
        await wait_for(pilot, lambda: table.columns[table.coordinate_to_cell_key(
            (0, 1)).column_key].get_render_width(table) > len(" File "))
        await settle(pilot)

    app = KaApp(None, campaigns=[tmp_path / "broken.db", demo_db, other])
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
