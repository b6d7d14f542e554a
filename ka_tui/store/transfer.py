"""Export a whole campaign as one JSON document, and import one into a new file.

Import validates the WHOLE document first — format, schema version, every
field's type and range (the same ``checks.py`` the forms use), uniqueness and
every reference — and raises ``ValidationError`` naming the first bad field by
its path (``characters[2].skills[0].upgrades``). Only a valid document is
written, into a new file built aside and moved into place (``db.create_campaign``),
so nothing is ever half-imported.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlmodel import SQLModel, col, select

from ka_tui.rules.core.options import HouseRules
from ka_tui.store import field_checks as checks
from ka_tui.store import maps
from ka_tui.store.campaign import changed_rules
from ka_tui.store.db import CampaignDB, backup_file, check_file, create_campaign, translate_error
from ka_tui.store.errors import StoreError, ValidationError
from ka_tui.store.files import write_text_atomic
from ka_tui.store.migrations import SCHEMA_VERSION
from ka_tui.store.models import (
    Aircraft,
    AircraftCrew,
    Battle,
    BattleEvent,
    Campaign,
    Character,
    Fight,
    FightEvent,
    RollLog,
    Skill,
    Weapon,
)

FORMAT = "ka-tui-campaign"
# Columns holding JSON text: exported as JSON values, not strings.
_JSON_COLUMNS = {
    Aircraft: ("manoeuvres", "test_echelons", "traits", "turn_mode", "damage"),
    RollLog: ("faces", "explanation"),
    FightEvent: ("payload",),
    BattleEvent: ("payload",),
}
# Columns the document carries implicitly (by nesting) rather than as fields.
_IMPLIED = {Skill: ("character_id",), Weapon: ("character_id",), Aircraft: ("pilot_id",),
            FightEvent: ("fight_id",), BattleEvent: ("battle_id",)}


# ------------------------------------------------------------------- export

def _plain(row: SQLModel) -> dict[str, Any]:
    out = row.model_dump()
    for name in _JSON_COLUMNS.get(type(row), ()):
        out[name] = json.loads(out[name])
    for name in _IMPLIED.get(type(row), ()):
        out.pop(name, None)
    return out


def campaign_document(db: CampaignDB) -> dict[str, Any]:
    """The whole campaign as plain JSON-able data (one consistent snapshot)."""
    with db.read() as s:
        camp = s.get(Campaign, 1)
        if camp is None:
            raise StoreError(f"{db.path} has no campaign row")
        chars = s.exec(select(Character).order_by(col(Character.id))).all()
        skills = s.exec(select(Skill).order_by(col(Skill.id))).all()
        weapons = s.exec(select(Weapon).order_by(col(Weapon.id))).all()
        planes = s.exec(select(Aircraft).order_by(col(Aircraft.id))).all()
        crew = s.exec(select(AircraftCrew)).all()
        rolls = s.exec(select(RollLog).order_by(col(RollLog.id))).all()
        fights = s.exec(select(Fight).order_by(col(Fight.id))).all()
        fevents = s.exec(select(FightEvent).order_by(col(FightEvent.fight_id), col(FightEvent.seq))).all()
        battles = s.exec(select(Battle).order_by(col(Battle.id))).all()
        bevents = s.exec(select(BattleEvent).order_by(col(BattleEvent.battle_id),
                                                       col(BattleEvent.seq))).all()
        saved_maps = maps.document_rows(s)
    characters = []
    for c in chars:
        doc = _plain(c)
        doc["skills"] = [_plain(k) for k in skills if k.character_id == c.id]
        doc["weapons"] = [_plain(w) for w in weapons if w.character_id == c.id]
        characters.append(doc)
    aircraft = []
    for a in planes:
        doc = _plain(a)
        doc["pilot"] = a.pilot_id
        doc["crew"] = sorted(x.character_id for x in crew if x.aircraft_id == a.id)
        aircraft.append(doc)
    return {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "campaign": {"name": camp.name, "notes": camp.notes,
                     "house_rules": json.loads(camp.house_rules)},
        "characters": characters,
        "aircraft": aircraft,
        "roll_log": [_plain(r) for r in rolls],
        "fights": [_plain(f) | {"events": [_plain(e) for e in fevents if e.fight_id == f.id]}
                   for f in fights],
        "battles": [_plain(b) | {"events": [_plain(e) for e in bevents if e.battle_id == b.id]}
                    for b in battles],
        "maps": saved_maps,
    }


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

class _Doc:
    """Walks the document, raising ``ValidationError`` at the first bad path."""

    def __init__(self) -> None:
        self.path: list[str] = []

    def fail(self, field: str | None, message: str) -> typing.NoReturn:
        where = ".".join(self.path + ([field] if field else [])).replace(".[", "[")
        raise ValidationError(where or "document", message)

    @contextlib.contextmanager
    def at(self, part: str) -> typing.Iterator[None]:
        self.path.append(part)
        try:
            yield
        finally:
            self.path.pop()

    def table(self, value: Any, field: str | None = None) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(field, "must be a JSON object")
        return value

    def items(self, parent: dict[str, Any], key: str) -> list[Any]:
        value = parent.get(key, [])
        if not isinstance(value, list):
            self.fail(key, "must be a JSON list")
        return value

    def row(self, model: type[SQLModel], raw: Any, extra: tuple[str, ...] = ()) -> dict[str, Any]:
        """Typed column values of one row: defaults for missing, unknown keys refused."""
        raw = self.table(raw)
        known = set(model.model_fields) - set(_IMPLIED.get(model, ()))
        for key in raw:
            if key not in known and key not in extra:
                self.fail(key, f"unknown field for {model.__name__.lower()}")
        out: dict[str, Any] = {}
        for name, info in model.model_fields.items():
            if name not in known:
                continue
            if name not in raw:
                if info.is_required():
                    self.fail(name, "is missing")
                if name == "id":
                    self.fail(name, "is missing")
                out[name] = info.get_default(call_default_factory=True)
                continue
            out[name] = self.typed(name, raw[name], info.annotation,
                                   name in _JSON_COLUMNS.get(model, ()))
        return out

    def typed(self, name: str, value: Any, annotation: Any, is_json: bool) -> Any:
        if is_json:
            return json.dumps(value)
        kinds = _kinds(annotation)
        if value is None:
            if type(None) in kinds:
                return None
            self.fail(name, "may not be null")
        if bool in kinds and isinstance(value, bool):
            return value
        if int in kinds and isinstance(value, int) and not isinstance(value, bool):
            return value
        if str in kinds and isinstance(value, str):
            return value
        wanted = {int: "a whole number", bool: "true or false", str: "text"}
        self.fail(name, "must be " + " or ".join(wanted[k] for k in kinds if k in wanted))

    def errors(self, errs: list[ValidationError]) -> None:
        if errs:
            self.fail(errs[0].field, errs[0].message)


def _kinds(annotation: Any) -> tuple[type, ...]:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return tuple(typing.get_args(annotation))
    return (annotation,)


@typing.no_type_check
def validate_document(data: Any) -> dict[str, Any]:
    """Every row of the document, typed and checked; raises at the first problem."""
    d = _Doc()
    top = d.table(data)
    for key in top:
        if key not in ("format", "schema_version", "campaign", "characters", "aircraft",
                       "roll_log", "fights", "battles", "maps"):
            d.fail(key, "unknown top-level field")
    if top.get("format") != FORMAT:
        d.fail("format", f"must be {FORMAT!r} (is this a ka-tui export?)")
    version = top.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        d.fail("schema_version", "must be a whole number ≥ 1")
    if version > SCHEMA_VERSION:
        d.fail("schema_version", f"the file is schema version {version}; this ka-tui "
                                 f"reads up to {SCHEMA_VERSION}. Upgrade ka-tui to import it.")
    out: dict[str, Any] = {}
    with d.at("campaign"):
        camp = d.table(top.get("campaign"))
        for key in camp:
            if key not in ("name", "notes", "house_rules"):
                d.fail(key, "unknown field for campaign")
        name = camp.get("name")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > 60:
            d.fail("name", "must be a name of 1–60 characters")
        notes = camp.get("notes", "")
        if not isinstance(notes, str) or len(notes) > 4000:
            d.fail("notes", "must be text of at most 4000 characters")
        try:
            rules = HouseRules.from_dict(d.table(camp.get("house_rules", {}), "house_rules"))
        except ValueError as e:
            d.fail("house_rules", str(e))
        out["campaign"] = {"name": name.strip(), "notes": notes, "rules": rules}

    char_ids: set[int] = set()
    names: set[str] = set()
    out["characters"], out["skills"], out["weapons"] = [], [], []
    for i, raw in enumerate(d.items(top, "characters")):
        with d.at(f"characters[{i}]"):
            row = d.row(Character, raw, extra=("skills", "weapons"))
            d.errors(checks.character_errors(row))
            _unique_row(d, row, char_ids, names, "characters")
            out["characters"].append(row)
            for key, model, check in (("skills", Skill, checks.skill_errors),
                                      ("weapons", Weapon, checks.weapon_errors)):
                seen: set[str] = set()
                slots: set[int] = set()
                for j, item in enumerate(d.items(raw, key)):
                    with d.at(f"{key}[{j}]"):
                        it = d.row(model, item)
                        d.errors(check(it))
                        if it["name"].strip().lower() in seen:
                            d.fail("name", "listed twice for this character")
                        seen.add(it["name"].strip().lower())
                        if it.get("quick_slot") is not None:
                            if it["quick_slot"] in slots:
                                d.fail("quick_slot", f"slot {it['quick_slot']} used twice")
                            slots.add(it["quick_slot"])
                        out[key].append(it | {"character_id": row["id"]})
    _unique_ids(d, "skills", out["skills"])
    _unique_ids(d, "weapons", out["weapons"])

    seats: dict[int, str] = {}
    plane_ids: set[int] = set()
    plane_names: set[str] = set()
    out["aircraft"], out["crew"] = [], []
    for i, raw in enumerate(d.items(top, "aircraft")):
        with d.at(f"aircraft[{i}]"):
            row = d.row(Aircraft, raw, extra=("pilot", "crew"))
            d.errors(checks.aircraft_errors(row))
            _unique_row(d, row, plane_ids, plane_names, "aircraft")
            pilot = raw.get("pilot")
            if pilot is not None:
                _seat(d, "pilot", pilot, char_ids, seats, row["name"])
            row["pilot_id"] = pilot
            for j, who in enumerate(d.items(raw, "crew")):
                _seat(d, f"crew[{j}]", who, char_ids, seats, row["name"])
                out["crew"].append({"aircraft_id": row["id"], "character_id": who})
            out["aircraft"].append(row)

    out["roll_log"] = []
    for i, raw in enumerate(d.items(top, "roll_log")):
        with d.at(f"roll_log[{i}]"):
            out["roll_log"].append(d.row(RollLog, raw))
    _unique_ids(d, "roll_log", out["roll_log"])
    for key, parent, event, link in (("fights", Fight, FightEvent, "fight_id"),
                                     ("battles", Battle, BattleEvent, "battle_id")):
        out[key], out[key + "_events"] = [], []
        for i, raw in enumerate(d.items(top, key)):
            with d.at(f"{key}[{i}]"):
                row = d.row(parent, raw, extra=("events",))
                if not row["name"].strip():
                    d.fail("name", "a name is required")
                if row["status"] not in ("open", "ended"):
                    d.fail("status", "must be open or ended")
                out[key].append(row)
                seqs: set[int] = set()
                for j, ev in enumerate(d.items(raw, "events")):
                    with d.at(f"events[{j}]"):
                        e = d.row(event, ev)
                        if e["seq"] < 1 or e["seq"] in seqs:
                            d.fail("seq", "must be a unique number ≥ 1 within its list")
                        if not e["kind"].strip():
                            d.fail("kind", "an event needs a kind")
                        seqs.add(e["seq"])
                        out[key + "_events"].append(e | {link: row["id"]})
        _unique_ids(d, key, out[key])
        _unique_ids(d, key + " events", out[key + "_events"])
    out["maps"] = []
    map_names: set[str] = set()
    for i, raw in enumerate(d.items(top, "maps")):   # issue 10: saved battle maps
        with d.at(f"maps[{i}]"):
            try:
                row = maps.document_map(raw)
            except ValidationError as e:
                d.fail(e.field, e.message)
            if row["name"].casefold() in map_names:
                d.fail("name", "another map has this name")
            map_names.add(row["name"].casefold())
            out["maps"].append(row)
    return out


def _seat(d: _Doc, field: str, who: Any, char_ids: set[int], seats: dict[int, str],
          plane: str) -> None:
    if isinstance(who, bool) or not isinstance(who, int):
        d.fail(field, "must be a character id (a whole number)")
    if who not in char_ids:
        d.fail(field, f"refers to character id {who}, which is not in the file")
    if who in seats:
        d.fail(field, f"character {who} already has a seat on {seats[who]}")
    seats[who] = plane


def _unique_row(d: _Doc, row: dict[str, Any], ids: set[int], names: set[str],
                noun: str) -> None:
    """Refuse a second row with the same id, or the same name (any case); then note it."""
    if row["id"] in ids:
        d.fail("id", f"id {row['id']} is used twice")
    if row["name"].strip().lower() in names:
        d.fail("name", f"two {noun} are called {row['name']}")
    ids.add(row["id"])
    names.add(row["name"].strip().lower())


def _unique_ids(d: _Doc, what: str, rows: list[dict[str, Any]]) -> None:
    seen: set[int] = set()
    for row in rows:
        if row["id"] in seen:
            d.fail(None, f"{what}: id {row['id']} is used twice")
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
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValidationError("document", f"{file} is not JSON (line {e.lineno}, "
                                          f"column {e.colno}: {e.msg})") from None
    doc: dict[str, Any] = validate_document(data)
    return doc


def _writer(doc: dict[str, Any]) -> Callable[[CampaignDB], None]:
    def write(db: CampaignDB) -> None:
        with db.batch() as s:
            camp = s.get(Campaign, 1)
            assert camp is not None
            camp.notes = doc["campaign"]["notes"]
            camp.house_rules = json.dumps(changed_rules(doc["campaign"]["rules"]),
                                          sort_keys=True)
            s.add(camp)
            for key, model in (("characters", Character), ("skills", Skill),
                               ("weapons", Weapon), ("aircraft", Aircraft),
                               ("crew", AircraftCrew), ("roll_log", RollLog),
                               ("fights", Fight), ("fights_events", FightEvent),
                               ("battles", Battle), ("battles_events", BattleEvent)):
                for values in doc[key]:
                    s.add(model(**values))
                s.flush()
            maps.insert_document_rows(s, doc.get("maps", []))
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
    backup = backup_file(target, "bak-import")
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
    """Make sure no WAL of the old file outlives it (else it would apply to the new one)."""
    import sqlite3

    con = sqlite3.connect(target, isolation_level=None)
    try:
        con.execute("PRAGMA busy_timeout = 100")
        busy = con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
    finally:
        con.close()
    if busy or Path(f"{target}-wal").exists() and Path(f"{target}-wal").stat().st_size:
        raise StoreError(f"{target} is open in another ka-tui; close it and try again.")
