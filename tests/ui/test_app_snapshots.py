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
        await settle(pilot)

    app = KaApp(None, campaigns=[tmp_path / "broken.db", demo_db, other])
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
