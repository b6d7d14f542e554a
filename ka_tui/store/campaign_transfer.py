"""The campaign between battles in the export document: the
``history`` part (``schema_doc.HistoryDoc``) written from and read into the
campaign's date, missions (members, linked battles and fights), repairs,
people's recovery and the journal's entries. ``transfer.py`` calls these three
functions; references are checked here and named by their path."""

from __future__ import annotations

import json
from typing import Any

from ka_tui.rules.campaign.journal import entry_problem
from ka_tui.store.errors import ValidationError


def _sql(s: Any, sql: str, params: tuple[Any, ...] = ()) -> Any:
    return s.connection().exec_driver_sql(sql, params)


def document_rows(s: Any) -> dict[str, Any]:
    """The ``history`` part of the export, read in the export's snapshot."""
    day = _sql(s, "SELECT day FROM campaign_day WHERE id = 1").first()
    missions = []
    for row in _sql(s, "SELECT id, name, day, kind, briefing, status, debrief, debrief_notes "
                       "FROM mission ORDER BY id").all():
        mid = int(row[0])
        members = [{"character_id": int(c), "aircraft_id": None if a is None else int(a)}
                   for c, a in _sql(s, "SELECT character_id, aircraft_id FROM mission_member "
                                       "WHERE mission_id = ? ORDER BY rowid", (mid,)).all()]
        links = _sql(s, "SELECT battle_id, fight_id FROM mission_link WHERE mission_id = ? "
                        "ORDER BY id", (mid,)).all()
        missions.append({"id": mid, "name": row[1], "day": row[2], "kind": row[3],
                         "briefing": row[4], "status": row[5], "debrief": json.loads(row[6]),
                         "debrief_notes": row[7], "members": members,
                         "battles": [int(b) for b, _ in links if b is not None],
                         "fights": [int(f) for _, f in links if f is not None]})
    repairs = [{"id": int(i), "aircraft_id": int(a), "queued_on": q, "days_total": int(t),
                "days_done": int(d), "cost": int(c), "status": st}
               for i, a, q, t, d, c, st in _sql(
                   s, "SELECT id, aircraft_id, queued_on, days_total, days_done, cost, status "
                      "FROM repair ORDER BY id").all()]
    people = [{"character_id": int(c), "rest_days": int(r), "missing": bool(m),
               "days_out": int(d)}
              for c, r, m, d in _sql(s, "SELECT character_id, rest_days, missing, days_out "
                                        "FROM person_state ORDER BY character_id").all()]
    journal = [{"seq": int(q), "kind": k, "payload": json.loads(p), "created_at": c}
               for q, k, p, c in _sql(s, "SELECT seq, kind, payload, created_at FROM "
                                         "journal_event WHERE journal_id = 1 ORDER BY seq").all()]
    return {"day": day[0] if day else "1944-06-01", "missions": missions, "repairs": repairs,
            "people": people, "journal": journal}


def checked(raw: Any, chars: set[int], planes: set[int], battles: set[int],
            fights: set[int]) -> dict[str, Any]:
    """The ``history`` part after the shape check: every reference must name a
    row of the document; the journal's seq 1..n without a gap."""
    raw = raw or {}

    def fail(path: str, message: str) -> None:
        raise ValidationError(f"history.{path}", message)

    seen_m: set[int] = set()
    linked: set[tuple[str, int]] = set()
    for i, m in enumerate(raw.get("missions", [])):
        if m["id"] in seen_m:
            fail(f"missions[{i}].id", "another mission has this id")
        seen_m.add(m["id"])
        if not m["name"].strip():
            fail(f"missions[{i}].name", "a name is required")
        for j, x in enumerate(m.get("members", [])):
            if x["character_id"] not in chars:
                fail(f"missions[{i}].members[{j}].character_id", "no such character")
            if x.get("aircraft_id") is not None and x["aircraft_id"] not in planes:
                fail(f"missions[{i}].members[{j}].aircraft_id", "no such aircraft")
        for key, ids in (("battles", battles), ("fights", fights)):
            for j, b in enumerate(m.get(key, [])):
                if b not in ids:
                    fail(f"missions[{i}].{key}[{j}]", f"no such {key[:-1]}")
                if (key, b) in linked:
                    fail(f"missions[{i}].{key}[{j}]", "already linked to a mission")
                linked.add((key, b))
    open_jobs: set[int] = set()
    for i, r in enumerate(raw.get("repairs", [])):
        if r["aircraft_id"] not in planes:
            fail(f"repairs[{i}].aircraft_id", "no such aircraft")
        if r.get("days_done", 0) > r["days_total"]:   # the defaults: schema_doc.RepairDoc
            fail(f"repairs[{i}].days_done", "more than days_total")
        if r.get("status", "queued") == "queued":
            if r["aircraft_id"] in open_jobs:
                fail(f"repairs[{i}].aircraft_id", "two open repairs for one aircraft")
            open_jobs.add(r["aircraft_id"])
    for i, p in enumerate(raw.get("people", [])):
        if p["character_id"] not in chars:
            fail(f"people[{i}].character_id", "no such character")
    for i, e in enumerate(raw.get("journal", [])):
        if e["seq"] != i + 1:
            fail(f"journal[{i}].seq", "the entries' seq must be 1, 2, 3 … in order")
        why = entry_problem(e["kind"], e["payload"])
        if why:
            fail(f"journal[{i}].payload", why)
        mission = e["payload"].get("mission")
        if mission is not None and mission not in seen_m:
            fail(f"journal[{i}].payload.mission", "no such mission")
    return dict(raw)


def insert_document_rows(s: Any, doc: dict[str, Any]) -> None:
    """Write the checked ``history`` part (inside the import's transaction)."""
    if not doc:
        return
    _sql(s, "UPDATE campaign_day SET day = ? WHERE id = 1", (doc.get("day", "1944-06-01"),))
    for m in doc.get("missions", []):
        _sql(s, "INSERT INTO mission (id, name, day, kind, briefing, status, debrief, "
                "debrief_notes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
             (m["id"], m["name"].strip(), m["day"], m.get("kind", "patrol"),
              m.get("briefing", ""), m.get("status", "planned"),
              json.dumps(m.get("debrief", {}), sort_keys=True), m.get("debrief_notes", "")))
        for x in m.get("members", []):
            _sql(s, "INSERT INTO mission_member (mission_id, character_id, aircraft_id) "
                    "VALUES (?, ?, ?)", (m["id"], x["character_id"], x.get("aircraft_id")))
        for b in m.get("battles", []):
            _sql(s, "INSERT INTO mission_link (mission_id, battle_id) VALUES (?, ?)",
                 (m["id"], b))
        for f in m.get("fights", []):
            _sql(s, "INSERT INTO mission_link (mission_id, fight_id) VALUES (?, ?)",
                 (m["id"], f))
    for r in doc.get("repairs", []):
        _sql(s, "INSERT INTO repair (id, aircraft_id, queued_on, days_total, days_done, cost, "
                "status) VALUES (?, ?, ?, ?, ?, ?, ?)",
             (r["id"], r["aircraft_id"], r["queued_on"], r["days_total"],
              r.get("days_done", 0), r.get("cost", 0), r.get("status", "queued")))
    for p in doc.get("people", []):
        _sql(s, "INSERT INTO person_state (character_id, rest_days, missing, days_out) "
                "VALUES (?, ?, ?, ?)", (p["character_id"], p.get("rest_days", 0),
                                        int(bool(p.get("missing", False))),
                                        p.get("days_out", 0)))
    for e in doc.get("journal", []):
        payload = json.dumps(e["payload"], sort_keys=True)
        if e.get("created_at"):
            _sql(s, "INSERT INTO journal_event (journal_id, seq, kind, payload, created_at) "
                    "VALUES (1, ?, ?, ?, ?)", (e["seq"], e["kind"], payload, e["created_at"]))
        else:
            _sql(s, "INSERT INTO journal_event (journal_id, seq, kind, payload) "
                    "VALUES (1, ?, ?, ?)", (e["seq"], e["kind"], payload))
