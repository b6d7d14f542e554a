"""The campaign journal: one chronological record of the campaign.

It is a log of ``store/events.py`` (``LogKind.JOURNAL``, head row 1): each
entry an append-only event ``(seq, kind, payload)`` with the payload
``{"day", "text", "characters", "aircraft", "mission"}`` checked by
``rules/campaign/journal.py``. Entries are written automatically by the
campaign's writes (missions, debriefs, repairs, time) inside their own
transaction, plus the GM's notes. Reads are plain SQL (``db.plain_read()``:
the journal view's first frame)::

    add(db, "repair", "Spitfire into the repair queue", aircraft=[2])  # inside a write's batch
    note(db, "Briefing moved to dawn")           # the GM's own
    found = entries(db, character=4, search="wing", newest_first=True)
    text = journal_markdown(db, "The journal", mission=3)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ka_tui.rules.campaign.journal import (
    Entry,
    EntryKind,
    entry_of,
    entry_problem,
    markdown,
    matches,
)
from ka_tui.store import events as ev
from ka_tui.store.errors import ValidationError
from ka_tui.store.events import LogEvent, LogKind, LogRef

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

JOURNAL = LogRef(LogKind.JOURNAL, 1)


def add(db: CampaignDB, kind: str, text: str, *, day: str | None = None,
        characters: Iterable[int] = (), aircraft: Iterable[int] = (),
        mission: int | None = None, at: str | None = None) -> Entry:
    """Append one entry (its own transaction, or the caller's ``db.batch()``);
    ``day`` defaults to the campaign's date, read in that transaction (time
    advanced in another window meanwhile dates the entry on the new day).
    ``EventRefused`` names a bad entry. An entry appends at the end whatever is
    there (a note depends on no earlier entry)."""
    with db.batch() as s:
        if day is None:
            with db.plain_read() as read:  # inside the batch: its own transaction
                found = read.execute("SELECT day FROM campaign_day WHERE id = 1").fetchone()
            day = str(found[0]) if found else ""
        payload = {"day": day, "text": text.strip("\n"),
                   "characters": sorted(set(characters)),
                   "aircraft": sorted(set(aircraft)), "mission": mission}
        stored = ev.append(db, JOURNAL, LogEvent(kind, payload), None, at=at)
    return entry_of(stored.seq, stored.kind, stored.payload)


def note(db: CampaignDB, text: str, *, day: str | None = None, characters: Iterable[int] = (),
         aircraft: Iterable[int] = (), mission: int | None = None) -> Entry:
    """The GM's own note (multi-line)."""
    if not text.strip():
        raise ValidationError("text", "write the note first")
    return add(db, EntryKind.NOTE.value, text, day=day, characters=characters,
               aircraft=aircraft, mission=mission)


def entries(db: CampaignDB, *, character: int | None = None, aircraft: int | None = None,
            mission: int | None = None, kind: EntryKind | None = None,
            search: str = "", newest_first: bool = False,
            limit: int | None = None) -> list[Entry]:
    """The journal in campaign-day order (then as written), filtered (one read;
    the filters and the order run in SQLite, on the JSON payload)."""
    where = ["journal_id = 1"]
    params: list[Any] = []
    for key, value in (("characters", character), ("aircraft", aircraft)):
        if value is not None:
            where.append(f"EXISTS (SELECT 1 FROM json_each(payload, '$.{key}') "
                         "WHERE value = ?)")
            params.append(int(value))
    if mission is not None:
        where.append("json_extract(payload, '$.mission') = ?")
        params.append(int(mission))
    if kind is not None:
        where.append("kind = ?")
        params.append(kind.value)
    if search.strip():
        where.append("instr(lower(json_extract(payload, '$.text')), ?) > 0")
        params.append(search.strip().lower())
    order = "DESC" if newest_first else "ASC"
    sql = (f"SELECT seq, kind, payload FROM journal_event WHERE {' AND '.join(where)} "
           f"ORDER BY json_extract(payload, '$.day') {order}, seq {order}")
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    with db.plain_read() as read:
        rows = read.execute(sql, params).fetchall()
    out = [_entry(int(seq), str(k), raw) for seq, k, raw in rows]
    if search.strip():   # SQLite's lower() folds ASCII only: check the rest here
        out = [e for e in out if matches(e, search=search)]
    return out


def _entry(seq: int, kind: str, raw: str) -> Entry:
    """One stored entry; one that is not an entry's shape (a file changed
    outside ka-tui) is shown as a note naming it, and the others still read."""
    try:
        payload = json.loads(raw)
    except (ValueError, RecursionError):
        payload = None
    why = entry_problem(kind, payload) if payload is not None else "not a JSON table"
    if why is None:
        return entry_of(seq, kind, payload)
    return Entry(seq, EntryKind.NOTE, "", f"(journal entry {seq} cannot be read: {why}; "
                                          "restore a backup to repair it)")


def count(db: CampaignDB) -> int:
    with db.plain_read() as read:
        return int(read.execute("SELECT count(*) FROM journal_event").fetchall()[0][0])


def journal_markdown(db: CampaignDB, title: str, **filters: Any) -> str:
    """The journal (filtered like ``entries``) as Markdown for the players."""
    return markdown(title, entries(db, **filters))
