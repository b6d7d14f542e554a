"""The campaign journal: one chronological record of the campaign (issue 15).

It is a log of ``store/events.py`` (``LogKind.JOURNAL``, head row 1): each
entry an append-only event ``(seq, kind, payload)`` with the payload
``{"day", "text", "characters", "aircraft", "mission"}`` checked by
``rules/campaign/journal.py``. Entries are written automatically by the
campaign's writes (missions, debriefs, repairs, time) inside their own
transaction, plus the GM's notes. Reads use plain ``sqlite3`` (the journal
view's first frame).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ka_tui.rules.campaign.journal import Entry, EntryKind, entry_of, markdown, matches
from ka_tui.store import events as ev
from ka_tui.store.errors import ValidationError
from ka_tui.store.events import LogEvent, LogKind, LogRef

JOURNAL = LogRef(LogKind.JOURNAL, 1)


def add(db: Any, kind: str, text: str, *, day: str | None = None,
        characters: Iterable[int] = (), aircraft: Iterable[int] = (),
        mission: int | None = None, at: str | None = None) -> Entry:
    """Append one entry (its own transaction, or the caller's ``db.batch()``);
    ``day`` defaults to the campaign's date, read in that transaction (time
    advanced in another window meanwhile dates the entry on the new day).
    ``Refused`` names a bad entry. An entry appends at the end whatever is
    there (a note depends on no earlier entry)."""
    with db.batch() as s:
        if day is None:
            row = s.connection().exec_driver_sql(
                "SELECT day FROM campaign_day WHERE id = 1").first()
            day = str(row[0])
        payload = {"day": day, "text": text.strip("\n"),
                   "characters": sorted(set(characters)),
                   "aircraft": sorted(set(aircraft)), "mission": mission}
        stored = ev.append(db, JOURNAL, LogEvent(kind, payload), None, at=at)
    return entry_of(stored.seq, stored.kind, stored.payload)


def note(db: Any, text: str, *, day: str | None = None, characters: Iterable[int] = (),
         aircraft: Iterable[int] = (), mission: int | None = None) -> Entry:
    """The GM's own note (multi-line)."""
    if not text.strip():
        raise ValidationError("text", "write the note first")
    return add(db, EntryKind.NOTE.value, text, day=day, characters=characters,
               aircraft=aircraft, mission=mission)


def entries(db: Any, *, character: int | None = None, aircraft: int | None = None,
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
    con = db.connect()
    try:
        rows = con.execute(sql, params).fetchall()
    finally:
        con.close()
    out = [entry_of(int(seq), str(k), json.loads(raw)) for seq, k, raw in rows]
    if search.strip():   # SQLite's lower() folds ASCII only: check the rest here
        out = [e for e in out if matches(e, search=search)]
    return out


def count(db: Any) -> int:
    con = db.connect()
    try:
        return int(con.execute("SELECT count(*) FROM journal_event").fetchone()[0])
    finally:
        con.close()


def journal_markdown(db: Any, title: str, **filters: Any) -> str:
    """The journal (filtered like ``entries``) as Markdown for the players."""
    return markdown(title, entries(db, **filters))
