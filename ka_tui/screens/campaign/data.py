"""What the campaign screens read and write, as jobs for ``store_work`` (they
take the open campaign and run in a worker thread): one view's read, one
mission's read, the Markdown files. The screens lay out what comes back
(``view.py``); the writes are one store call each (one transaction).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ka_tui.rules.campaign.missions import MissionKind, MissionStatus
from ka_tui.store import campaign_state, journal, missions
from ka_tui.store.errors import StoreError

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

JOURNAL_ROWS = 500   # the newest entries shown; the filter reaches every entry


@dataclass(frozen=True)
class ViewRead:
    """One view's rows, with the campaign's date (a new mission's default)."""

    name: str
    day: str
    data: Any


@dataclass(frozen=True)
class MissionRead:
    """A mission as its screen shows it: ``shown`` the debrief lines shown
    (computed until confirmed), ``debrief`` the lines a confirmation is based on."""

    mission: missions.Mission
    shown: list[str]
    debrief: list[str]


def parse_filter(text: str, names: missions.RosterNames) -> dict[str, Any]:
    """Journal filter text: ``@name`` a character or aircraft, ``#n`` a
    mission id, the rest searched in the entries' text."""
    out: dict[str, Any] = {}
    words = []
    for word in text.split():
        if word.startswith("#") and word[1:].isdigit():
            out["mission"] = int(word[1:])
        elif word.startswith("@") and len(word) > 1:
            key = word[1:].replace("_", " ")
            cid = names.person(key)
            if cid is not None:
                out["character"] = cid
            else:
                aid = names.plane(key)
                out["aircraft"] = aid if aid is not None else -1
        else:
            words.append(word)
    out["search"] = " ".join(words)
    return out


def read_view(db: CampaignDB, name: str, text: str) -> ViewRead:
    """The rows of view ``name`` (``text``: its filter, typed)."""
    day = campaign_state.campaign_day(db).isoformat()
    if name == "overview":
        return ViewRead(name, day, campaign_state.overview(db))
    if name == "missions":
        key = text.strip().casefold()
        status = next((s for s in ("planned", "flown", "aborted") if s == key), None)
        kind = next((k.value for k in MissionKind if k.value == key), None)
        return ViewRead(name, day, missions.list_missions(
            db, status=status, kind=kind, search="" if status or kind else key))
    if name == "records":
        return ViewRead(name, day, campaign_state.service_records(db))
    if name == "repairs":
        return ViewRead(name, day, campaign_state.repairs(db))
    return ViewRead(name, day, journal.entries(
        db, newest_first=True, limit=JOURNAL_ROWS,
        **parse_filter(text, missions.roster_names(db))))


def read_mission(db: CampaignDB, mission_id: int) -> MissionRead:
    mission = missions.get_mission(db, mission_id)
    if mission.status is MissionStatus.PLANNED:
        lines = missions.debrief_of(db, mission_id).lines
        return MissionRead(mission, lines if mission.links else [], lines)
    stored = missions.stored_lines(mission)
    return MissionRead(mission, stored, stored)


def write_markdown(db: CampaignDB, mission_id: int | None = None) -> Path:
    """Write the journal (or one mission's debrief) as Markdown beside the
    campaign file; returns the path."""
    stem = db.path.stem
    if mission_id is None:
        text = journal.journal_markdown(db, f"Journal: {stem}")
        path = db.path.with_name(f"{stem}-journal.md")
    else:
        text = missions.debrief_markdown(db, mission_id)
        path = db.path.with_name(f"{stem}-mission-{mission_id}.md")
    from ka_tui.store.files import write_text_atomic

    try:
        write_text_atomic(path, text)  # 0600 like an export; never half-written
    except OSError as e:
        raise StoreError(f"cannot write {path}: {e.strerror}") from None
    return path
