"""Export a whole campaign as one JSON document, and import one into a new file.

The document's parts and the tables behind each come from the one table
registry (``tables.py``); ``schema_doc.py`` types every part::

    doc = campaign_document(db)                  # the whole campaign, one snapshot
    export_campaign(db, "c.json")                # written atomically ("-": stdout)
    checked = validate_document(doc)             # every row typed and checked, by table
    imported = import_campaign("c.json", target) # a new file, built aside, moved in

Import accepts exactly what the app can use. It validates the WHOLE document
first — its shape and every type against the pydantic models of
``schema_doc.py`` (including each event kind's payload; any nesting depth is
refused cleanly), every row's ranges with the same ``field_checks.py`` the
forms use, uniqueness and every reference, and every fight and battle
replayed as the app replays them (``rows_to_rules``: a battle that recorded
no house rules under the document's campaign rules) — and raises
``ValidationError`` naming the first bad value by its path
(``fights[2].events[0].payload.rules.cqc: expected an object``). Only a valid
document is written, into a new file built aside and moved into place
(``db.create_campaign``), so nothing is ever half-imported; importing over a
campaign backs it up first (``backups.py``, ``before-import``).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import typing
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlmodel import SQLModel, col, select

from ka_tui.rules.core.options import HouseRules
from ka_tui.store import campaign_transfer, maps, schema_doc, tables
from ka_tui.store.campaign import changed_rules
from ka_tui.store.db import CampaignDB, backup_file, check_file, create_campaign, translate_error
from ka_tui.store.errors import StoreError, ValidationError
from ka_tui.store.events import LogEvent
from ka_tui.store.files import write_text_atomic
from ka_tui.store.limits import NAME_MAX
from ka_tui.store.migrations import SCHEMA_VERSION
from ka_tui.store.models import CampaignRow
from ka_tui.store.rows_to_rules import fight_items, replay_battle
from ka_tui.store.tables import Table

FORMAT = schema_doc.FORMAT


# ------------------------------------------------------------------- export

def _plain(t: Table, row: SQLModel) -> dict[str, Any]:
    """One row as the document has it: its columns in the model's order, JSON
    columns as JSON values, the columns its nesting implies left out."""
    dumped = row.model_dump()
    # in the model's field order (the instance's own order follows how it was loaded)
    out = {name: dumped[name] for name in type(row).model_fields if name in dumped}
    out.update((k, v) for k, v in dumped.items() if k not in out)
    for name in t.json_columns:
        try:
            out[name] = json.loads(out[name])
        except (TypeError, ValueError, RecursionError):
            raise StoreError(f"{t.name} row {out.get('id')}: {name} is not valid JSON; "
                             "the campaign file is damaged there") from None
    for name in t.implied:
        out.pop(name, None)
    return out


def _select(s: Any, t: Table) -> list[Any]:
    model = tables.model_of(t)
    return list(s.exec(select(model).order_by(*(col(getattr(model, c)) for c in t.order))))


def _rows_part(s: Any, top: Table) -> list[dict[str, Any]]:
    """A ``rows`` part: each row of ``top`` with its children's rows nested."""
    kids = [(c, _select(s, c)) for c in tables.children(top)]
    out = []
    for row in _select(s, top):
        doc = _plain(top, row)
        for column, key in top.renamed:
            doc[key] = getattr(row, column)
        for c, found in kids:
            mine = [k for k in found if getattr(k, c.link) == row.id]
            doc[c.key] = (sorted(getattr(k, c.only) for k in mine) if c.only
                          else [_plain(c, k) for k in mine])
        out.append(doc)
    return out


def _campaign_part(s: Any, db: CampaignDB) -> dict[str, Any]:
    camp = s.get(CampaignRow, 1)
    if camp is None:
        raise StoreError(f"{db.path} has no campaign row")
    return {"name": camp.name, "notes": camp.notes, "house_rules": json.loads(camp.house_rules)}


def campaign_document(db: CampaignDB) -> dict[str, Any]:
    """The whole campaign as plain JSON-able data (one consistent snapshot):
    each part of ``tables.parts()`` in order."""
    doc: dict[str, Any] = {"format": FORMAT, "schema_version": SCHEMA_VERSION}
    with db.read() as s:
        for part in tables.parts():
            if part == "campaign":
                doc[part] = _campaign_part(s, db)
            elif part == "maps":
                doc[part] = maps.document_rows(s)
            elif part == "history":
                doc[part] = campaign_transfer.document_rows(s)
            else:
                top = next(t for t in tables.top_row_tables() if t.part == part)
                doc[part] = _rows_part(s, top)
    return doc


def export_campaign(db: CampaignDB, file: Path | str, *, force: bool = False) -> Path | None:
    """Write the campaign as JSON to ``file`` ("-" for stdout), atomically.

    An existing file is kept unless ``force``.
    """
    text = json.dumps(campaign_document(db), indent=2, ensure_ascii=False) + "\n"
    if str(file) == "-":
        sys.stdout.write(text)
        return None
    path = Path(file)
    if path.exists() and not force:
        raise StoreError(f"{path} already exists; use --force to replace it.")
    try:
        write_text_atomic(path, text)
    except OSError as e:
        raise StoreError(f"cannot write {path}: {e.strerror}") from None
    return path


# --------------------------------------------------------------- validation

class _Where:
    """The path being checked, for ``ValidationError``s named by it."""

    def __init__(self, *parts: str) -> None:
        self.parts = list(parts)

    def fail(self, field: str | None, message: str) -> typing.NoReturn:
        where = ".".join(self.parts + ([field] if field else [])).replace(".[", "[")
        raise ValidationError(where or "document", message)

    def at(self, part: str) -> _Where:
        return _Where(*self.parts, part)

    def errors(self, errs: list[ValidationError]) -> None:
        if errs:
            self.fail(errs[0].field, errs[0].message)


def _row(t: Table, raw: dict[str, Any]) -> dict[str, Any]:
    """Column values of one row as the table stores them: defaults for what the
    document left out, JSON columns as JSON text, nested lists left out."""
    out: dict[str, Any] = {}
    for name, info in tables.model_of(t).model_fields.items():
        if name in t.implied:
            continue
        if name in raw:
            value = raw[name]
        else:
            value = info.get_default(call_default_factory=True)
            if name in t.json_columns and isinstance(value, str):
                value = json.loads(value)
        out[name] = json.dumps(value, ensure_ascii=False) if name in t.json_columns else value
    return out


def validate_document(data: Any) -> dict[str, Any]:
    """Every row of the document, typed and checked; raises at the first problem.

    ``data``: the parsed JSON (or its text). Shape and types: ``schema_doc``;
    then the forms' checks, uniqueness, references, and every fight and battle
    replayed through the rules."""
    text = data if isinstance(data, (str, bytes)) else json.dumps(data, ensure_ascii=False)
    raw, _ = schema_doc.parse(text)
    checked: dict[str, Any] = _checked(raw)
    return checked


@typing.no_type_check
def _checked(top: dict[str, Any]) -> dict[str, Any]:
    """The document's rows by table (``out[table name]``), each checked, in
    the registry's order; ``out["campaign"]``, ``out["maps"]``, ``out["history"]``."""
    out: dict[str, Any] = {}
    camp = top["campaign"]
    where = _Where("campaign")
    name = camp["name"]
    if not name.strip() or len(name.strip()) > NAME_MAX:
        where.fail("name", f"must be a name of 1–{NAME_MAX} characters")
    rules = _house_rules(where.at("house_rules"), camp.get("house_rules", {}))
    out["campaign"] = {"name": name.strip(), "notes": camp.get("notes", ""), "rules": rules}

    ids: dict[str, set[int]] = {}      # table -> the row ids seen (for references)
    seats: dict[int, str] = {}         # character id -> the aircraft he sits in
    for t in tables.top_row_tables():
        kids = list(tables.children(t))
        for c in (t, *kids):
            out[c.name] = []
        names: set[str] = set()
        ids[t.name] = set()
        for i, raw in enumerate(top.get(t.part, [])):
            d = _Where(f"{t.part}[{i}]")
            row = _row(t, raw)
            if t.check is not None:
                d.errors(t.check(row))
            elif t.log and (not row["name"].strip() or len(row["name"].strip()) > NAME_MAX):
                d.fail("name", f"must be a name of 1–{NAME_MAX} characters")
            if t.unique_names:
                _unique_row(d, row, ids[t.name], names, t.part)
            for column, key in t.renamed:   # the aircraft's pilot: a seat, as the crew's
                if raw.get(key) is not None:
                    _seat(d, key, raw[key], ids["character"], seats, row["name"])
                row[column] = raw.get(key)
            out[t.name].append(row)
            for c in kids:
                if c.only:
                    _seat_rows(d, c, raw, row, ids["character"], seats, out)
                elif t.log:
                    _event_rows(d, c, raw, row, out)
                else:
                    _item_rows(d, t, c, raw, row, out)
            if t.name == "fight":
                _replay_fight(d, row, raw[kids[0].key])
            elif t.log:
                _replay_battle(d, raw[kids[0].key], rules)
        if not t.unique_names:
            _unique_ids(t.part, out[t.name])
        ids[t.name] = {r["id"] for r in out[t.name]}
        for c in kids:
            if not c.only:
                _unique_ids(_label(c), out[c.name])
    out["maps"] = []
    map_names: set[str] = set()
    for i, raw in enumerate(top.get("maps", [])):
        d = _Where(f"maps[{i}]")
        try:
            row = maps.document_map(raw)
        except ValidationError as e:
            d.fail(e.field, e.message)
        if row["name"].casefold() in map_names:
            d.fail("name", "another map has this name")
        map_names.add(row["name"].casefold())
        out["maps"].append(row)
    out["history"] = campaign_transfer.checked(
        top.get("history"), ids["character"], ids["aircraft"], ids["battle"], ids["fight"])
    return out


def _label(c: Table) -> str:
    """How a message names a child table's rows: its key, or with its part's
    name when another table shares the key (``fights events``)."""
    shared = [t for t in tables.TABLES if t.key == c.key]
    return c.key if len(shared) == 1 else f"{c.part} {c.key}"


@typing.no_type_check
def _item_rows(d: _Where, parent: Table, c: Table, raw: dict[str, Any], row: dict[str, Any],
               out: dict[str, Any]) -> None:
    """A character's skills or weapons: checked as the forms check them, each
    name and quick slot once per character."""
    seen: set[str] = set()
    slots: set[int] = set()
    for j, item in enumerate(raw.get(c.key, [])):
        e = d.at(f"{c.key}[{j}]")
        it = _row(c, item)
        if c.check is not None:
            e.errors(c.check(it))
        if it["name"].strip().lower() in seen:
            e.fail("name", f"listed twice for this {parent.noun}")
        seen.add(it["name"].strip().lower())
        if it.get("quick_slot") is not None:
            if it["quick_slot"] in slots:
                e.fail("quick_slot", f"slot {it['quick_slot']} used twice")
            slots.add(it["quick_slot"])
        out[c.name].append(it | {c.link: row["id"]})


@typing.no_type_check
def _seat_rows(d: _Where, c: Table, raw: dict[str, Any], row: dict[str, Any],
               characters: set[int], seats: dict[int, str], out: dict[str, Any]) -> None:
    """An aircraft's crew: character ids, each seated once in the campaign."""
    for j, who in enumerate(raw.get(c.key, [])):
        _seat(d, f"{c.key}[{j}]", who, characters, seats, row["name"])
        out[c.name].append({c.link: row["id"], c.only: who})


@typing.no_type_check
def _event_rows(d: _Where, c: Table, raw: dict[str, Any], row: dict[str, Any],
                out: dict[str, Any]) -> None:
    """A log's events: ``seq`` 1, 2, 3 … without a gap (``events.py``)."""
    seqs: set[int] = set()
    for j, ev in enumerate(raw[c.key]):
        if ev["seq"] < 1 or ev["seq"] in seqs:
            d.at(f"{c.key}[{j}]").fail("seq", "must be a unique number ≥ 1 within its list")
        seqs.add(ev["seq"])
        out[c.name].append(_row(c, ev) | {c.link: row["id"]})
    if sorted(seqs) != list(range(1, len(seqs) + 1)):
        d.fail(c.key, "the events' seq must be 1, 2, 3 … without a gap (store/events.py)")


def _house_rules(where: _Where, raw: Any) -> HouseRules:
    try:
        return HouseRules.from_dict(raw)
    except ValueError as e:
        where.fail(None, str(e).removeprefix("house rules: "))


def _in_log_order(events: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """(index in the document, event) in ``seq`` order: the order the app reads."""
    return sorted(enumerate(events), key=lambda p: p[1]["seq"])


def _stored(ordered: list[tuple[int, dict[str, Any]]]) -> list[LogEvent]:
    """The document's events as the store keeps them (``events.LogEvent``)."""
    return [LogEvent(e["kind"], e["payload"], e["seq"]) for _, e in ordered]


def _replay_fight(d: _Where, row: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """The fight's log through the rules (``rules/cqc/log.py``: ``replay_prefix``
    and ``outcome_of``), as the close-combat screen replays it; the first event
    that breaks it is named. S0 §Close combat."""
    from ka_tui.rules.cqc.log import outcome_of, replay_prefix

    ordered = _in_log_order(events)
    items = fight_items(_stored(ordered))
    try:
        progress, broken = replay_prefix(items, fight_id=row["id"], name=row["name"])
        if broken is None and progress is not None:
            outcome_of(progress)
            return
    except Exception:  # noqa: BLE001 — found below, event by event
        broken = None
    if broken is not None:
        index = broken.index if broken.index is not None else 0
        d.at(f"events[{ordered[index][0]}]").fail(
            None, f"the fight does not replay from here ({broken.detail})")

    def run(n: int) -> None:
        p, error = replay_prefix(items[:n], fight_id=row["id"], name=row["name"])
        if error is not None or p is None:
            raise ValueError(error.detail if error is not None else "no start")
        outcome_of(p)

    first, message = _first_failure(run, len(items))
    d.at(f"events[{ordered[first][0]}]").fail(
        None, f"the fight does not replay from here ({message})")


def _replay_battle(d: _Where, events: list[dict[str, Any]], rules: HouseRules) -> None:
    """The battle's log replayed as the app replays it (``rows_to_rules.replay_battle``:
    the logged faces are the dice; the house rules its start recorded, else the
    document's campaign's, ``rules``). R-1."""
    ordered = _in_log_order(events)
    if ordered[0][1]["kind"] != "battle_started":
        d.at(f"events[{ordered[0][0]}]").fail("kind", "a battle's log begins with battle_started")
    stored = _stored(ordered)

    def run(n: int) -> None:
        replay_battle(stored[:n], rules)

    if not _replays(run, len(stored)):
        first, message = _first_failure(run, len(stored))
        d.at(f"events[{ordered[first][0]}]").fail(
            None, f"the battle does not replay from here ({message})")


def _replays(run: Callable[[int], object], n: int) -> bool:
    try:
        run(n)
    except Exception:  # noqa: BLE001 — any failure of the rules on this data refuses it
        return False
    return True


def _first_failure(run: Callable[[int], object], n: int) -> tuple[int, str]:
    """The first prefix of the log that does not replay: (its last index, why)."""
    for k in range(1, n + 1):
        try:
            run(k)
        except Exception as e:  # noqa: BLE001
            return k - 1, (str(e) or type(e).__name__)[:200]
    return n - 1, "it does not replay"


def _seat(d: _Where, field: str, who: int, char_ids: set[int], seats: dict[int, str],
          plane: str) -> None:
    if who not in char_ids:
        d.fail(field, f"refers to character id {who}, which is not in the file")
    if who in seats:
        d.fail(field, f"character {who} already has a seat on {seats[who]}")
    seats[who] = plane


def _unique_row(d: _Where, row: dict[str, Any], ids: set[int], names: set[str],
                noun: str) -> None:
    """Refuse a second row with the same id, or the same name (any case); then note it."""
    if row["id"] in ids:
        d.fail("id", f"id {row['id']} is used twice")
    if row["name"].strip().lower() in names:
        d.fail("name", f"two {noun} are called {row['name']}")
    ids.add(row["id"])
    names.add(row["name"].strip().lower())


def _unique_ids(what: str, rows: list[dict[str, Any]]) -> None:
    seen: set[int] = set()
    for row in rows:
        if row["id"] in seen:
            raise ValidationError(what, f"id {row['id']} is used twice")
        seen.add(row["id"])


# ------------------------------------------------------------------- import

def read_document(file: Path | str) -> dict[str, Any]:
    """Read and validate an export ("-" for stdin)."""
    try:
        if str(file) == "-":
            text = sys.stdin.read()
        else:
            text = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise StoreError(f"cannot read {file}: {getattr(e, 'strerror', None) or e}") from None
    try:
        raw, _ = schema_doc.parse(text)
    except ValidationError as e:
        if e.field == "document" and e.message.startswith("not JSON"):
            raise ValidationError("document", f"{file} is {e.message}") from None
        raise
    doc: dict[str, Any] = _checked(raw)
    return doc


def _writer(doc: dict[str, Any]) -> Callable[[CampaignDB], None]:
    def write(db: CampaignDB) -> None:
        with db.batch() as s:
            camp = s.get(CampaignRow, 1)
            assert camp is not None
            camp.notes = doc["campaign"]["notes"]
            camp.house_rules = json.dumps(changed_rules(doc["campaign"]["rules"]),
                                          sort_keys=True)
            s.add(camp)
            for t in tables.row_tables():
                model = tables.model_of(t)
                for values in doc[t.name]:
                    s.add(model(**values))
                s.flush()
            maps.insert_document_rows(s, doc.get("maps", []))
            campaign_transfer.insert_document_rows(s, doc.get("history", {}))
    return write


@dataclass(frozen=True)
class Imported:
    db: CampaignDB
    backup: Path | None  # the replaced file's backup (``--force``), else None


def import_campaign(file: Path | str, target: Path, *, force: bool = False) -> Imported:
    """Validate ``file`` fully, then build ``target`` from it in one go.

    An existing ``target`` is refused unless ``force``; then it must be a
    ka-tui campaign (anything else is never overwritten), not open elsewhere,
    and it is backed up (``target.bak-import``) before it is replaced.
    """
    doc = read_document(file)
    name = doc["campaign"]["name"]
    target = Path(target)
    if not target.exists():
        return Imported(_create(target, name, doc), None)
    if not force:
        raise StoreError(f"{target} already exists; use --force to replace it "
                         "(a backup is kept).")
    check_file(target)
    backup = backup_file(target, "before-import")
    staging = target.with_name(f".{target.name}.import")
    for p in (staging, *(Path(f"{staging}{x}") for x in ("-wal", "-shm"))):
        with contextlib.suppress(FileNotFoundError):
            p.unlink()
    _create(staging, name, doc).close()
    _release(target)
    os.replace(staging, target)
    return Imported(CampaignDB(target), backup)


def _create(target: Path, name: str, doc: dict[str, Any]) -> CampaignDB:
    try:
        return create_campaign(target, name, populate=_writer(doc))
    except StoreError:
        raise
    except Exception as e:  # a row the checks let through but SQLite refused
        raise translate_error(e) from None


def _release(target: Path) -> None:
    """Make sure no other ka-tui has it open and no WAL of the old file outlives
    it (else it would apply to the new one)."""
    from ka_tui.store.backups import release

    release(target)
