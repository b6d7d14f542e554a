"""Battle maps saved in the campaign and reused, and map text files.

A map is kept as its name and the plain text of ``rules/air/battle_map.py``
(``parse_map`` reads it; the map editor writes it with ``format_map``): the
same text the engine's tests use, and the file a person edits. Every write
parses the text first: a text that does not read is refused with its line and
column (``MapTextError``) and nothing is saved. A battle copies its map's text
into its start event, so editing or deleting a saved map never changes a
battle already played on it.

Each call is one transaction (reads are plain SQL); plain values in and out.
Light at import (no SQLModel), so a screen may import it at the top::

    saved = save_map(db, "Channel", text)        # MapTextError(line, column) if it does not read
    found = list_maps(db); again = get_map(db, saved.id)
    import_map_file(db, "coast.map"); export_map_file(db, saved.id, "out.map")
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ka_tui.rules.air.battle_map import BattleMap, MapError, parse_map
from ka_tui.store.errors import NotFound, StoreError, ValidationError
from ka_tui.store.limits import NAME_MAX, TEXT_MAX

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

# House limits (the seeds give no map size): the largest map is 100×100.
MAX_COLS = 200
MAX_ROWS = 200
MAX_TEXT = 200_000
MAP_SUFFIX = ".map"


class MapTextError(ValidationError):
    """A map text that cannot be read: ``line`` and ``column`` (1-based; 0 when
    the place is the whole text) for the editor to put the cursor on."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__("text", message)
        self.line = line
        self.column = column


@dataclass(frozen=True)
class MapInfo:
    """One saved map in a list (no parse needed to show it)."""

    id: int
    name: str
    cols: int
    rows: int
    notes: str = ""


@dataclass(frozen=True)
class SavedMap:
    id: int
    name: str
    text: str
    battle_map: BattleMap
    notes: str = ""

    @property
    def info(self) -> MapInfo:
        return MapInfo(self.id, self.name, self.battle_map.cols, self.battle_map.rows, self.notes)


_LINE = re.compile(r"line (\d+)")
_COLUMN = re.compile(r"column (\d+)")


def check_map_text(text: str) -> BattleMap:
    """The map a text describes, or ``MapTextError`` naming the line and column
    (R-6.1 heights and R-10 strips/carriers are read by ``parse_map``)."""
    if len(text) > MAX_TEXT:
        raise MapTextError(f"the map text is longer than {MAX_TEXT} characters")
    try:
        battle_map = parse_map(text)
    except MapError as e:
        message = str(e)
        line = int(getattr(e, "line", 0) or 0)
        column = int(getattr(e, "column", 0) or 0)
        if not line and (m := _LINE.search(message)):
            line = int(m.group(1))
        if not column and (m := _COLUMN.search(message)):
            column = int(m.group(1))
        if line and not column:
            column = _token_column(text, line, message)
        raise MapTextError(message, line, column) from None
    if battle_map.rows < 1 or battle_map.cols < 1:
        raise MapTextError("a map needs at least one row of hexes")
    if battle_map.cols > MAX_COLS or battle_map.rows > MAX_ROWS:
        raise MapTextError(f"a map is at most {MAX_COLS} columns by {MAX_ROWS} rows "
                           f"(this one is {battle_map.cols}×{battle_map.rows})")
    starts = [(s.name, s.start) for s in battle_map.strips]
    starts += [(c.name, c.stern) for c in battle_map.carriers]
    for name, start in starts:
        if not battle_map.in_bounds(start):
            col, row = start.to_offset()
            line = _feature_line(text, name)
            raise MapTextError(f"line {line}: {name} starts at {col},{row}, off the map "
                               f"({battle_map.cols}×{battle_map.rows})", line)
    return battle_map


_QUOTED = re.compile(r"'([^']+)'")


def _token_column(text: str, line: int, message: str) -> int:
    """The column of the word a message quotes, on its line (1-based; 0 if not found)."""
    lines = text.splitlines()
    m = _QUOTED.search(message)
    if m is None or not 1 <= line <= len(lines):
        return 0
    raw = lines[line - 1].split("#")[0]
    for w in re.finditer(r"\S+", raw):
        if w.group() == m.group(1) or m.group(1) in w.group():
            return w.start() + 1
    return 0


def _feature_line(text: str, name: str) -> int:
    for n, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#")[0].split()
        if len(words) > 1 and words[0] in ("strip", "carrier") and words[1] == name:
            return n
    return 0


def _check_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise ValidationError("name", "a name is required")
    if len(name) > NAME_MAX:
        raise ValidationError("name", f"at most {NAME_MAX} characters")
    return name


def _sql() -> Any:
    from sqlalchemy import text

    return text


def _row_to_saved(row: tuple[Any, ...]) -> SavedMap:
    map_id, name, body, notes = row
    return SavedMap(int(map_id), str(name), str(body), parse_map(str(body)), str(notes))


def list_maps(db: CampaignDB) -> list[MapInfo]:
    """Every saved map, by name (each parsed for its size)."""
    with db.plain_read() as read:
        rows = read.execute("SELECT id, name, text, notes FROM battle_map "
                            "ORDER BY name COLLATE NOCASE").fetchall()
    out = []
    for map_id, name, body, notes in rows:
        try:
            m = parse_map(str(body))
            cols, nrows = m.cols, m.rows
        except MapError:
            cols = nrows = 0
        out.append(MapInfo(int(map_id), str(name), cols, nrows, str(notes)))
    return out


def get_map(db: CampaignDB, map_id: int) -> SavedMap:
    with db.plain_read() as read:
        row = read.execute("SELECT id, name, text, notes FROM battle_map WHERE id = ?",
                           (map_id,)).fetchone()
    if row is None:
        raise NotFound(f"no map with id {map_id} in this campaign")
    return _row_to_saved(row)


def map_by_name(db: CampaignDB, name: str) -> SavedMap | None:
    with db.plain_read() as read:
        row = read.execute("SELECT id, name, text, notes FROM battle_map WHERE name = ?",
                           (name.strip(),)).fetchone()
    return None if row is None else _row_to_saved(row)


def save_map(db: CampaignDB, name: str, map_text: str, *, map_id: int | None = None,
             notes: str = "") -> SavedMap:
    """Add a map (``map_id`` None) or replace a saved one's name, text and notes.
    The text is parsed first: ``MapTextError`` (line, column) and nothing saved;
    a name already used is ``ValidationError("name", …)``."""
    name = _check_name(name)
    if len(notes) > TEXT_MAX:
        raise ValidationError("notes", f"at most {TEXT_MAX} characters")
    battle_map = check_map_text(map_text)
    text = _sql()
    with db.transaction() as s:
        con = s.connection()
        clash = con.execute(text("SELECT id FROM battle_map WHERE name = :n"), {"n": name}).first()
        if clash is not None and int(clash.id) != map_id:
            raise ValidationError("name", f"a map called {name!r} already exists; "
                                          "choose another name")
        if map_id is None:
            res = con.execute(text("INSERT INTO battle_map (name, text, notes) "
                                   "VALUES (:n, :t, :o)"), {"n": name, "t": map_text, "o": notes})
            new_id = int(res.lastrowid)
        else:
            res = con.execute(text("UPDATE battle_map SET name = :n, text = :t, notes = :o "
                                   "WHERE id = :id"),
                              {"n": name, "t": map_text, "o": notes, "id": map_id})
            if res.rowcount != 1:
                raise NotFound(f"no map with id {map_id} in this campaign")
            new_id = map_id
    return SavedMap(new_id, name, map_text, battle_map, notes)


def delete_map(db: CampaignDB, map_id: int) -> None:
    """Remove a saved map (battles keep their own copy of its text)."""
    text = _sql()
    with db.transaction() as s:
        res = s.connection().execute(text("DELETE FROM battle_map WHERE id = :id"), {"id": map_id})
        if res.rowcount != 1:
            raise NotFound(f"no map with id {map_id} in this campaign")


def read_map_file(path: Path | str) -> tuple[str, BattleMap]:
    """A map text file's text and map, checked (``MapTextError`` with line and
    column; ``StoreError`` when the file cannot be read)."""
    p = Path(path)
    try:
        raw = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise StoreError(f"{p} is not a text file (UTF-8)") from None
    except OSError as e:
        raise StoreError(f"{p} cannot be read: {e.strerror or e}") from None
    return raw, check_map_text(raw)


def import_map_file(db: CampaignDB, path: Path | str, name: str | None = None, *,
                    replace: bool = False) -> SavedMap:
    """Save a map text file in the campaign, under ``name`` (default: the file
    name without its suffix). A bad line is refused with its line and column
    and nothing is saved; an existing name is refused unless ``replace``."""
    p = Path(path)
    raw, _ = read_map_file(p)
    title = _check_name(name if name is not None else p.stem)
    existing = map_by_name(db, title) if replace else None
    return save_map(db, title, raw, map_id=existing.id if existing else None,
                    notes=existing.notes if existing else "")


def export_map_file(db: CampaignDB, map_id: int, path: Path | str, *, force: bool = False) -> Path:
    """Write a saved map's text to a file (atomically); an existing file is
    kept unless ``force``."""
    from ka_tui.store.files import write_text_atomic

    saved = get_map(db, map_id)
    p = Path(path)
    if p.exists() and not force:
        raise StoreError(f"{p} already exists; choose another file or replace it")
    body = saved.text if saved.text.endswith("\n") else saved.text + "\n"
    try:
        write_text_atomic(p, body)
    except OSError as e:
        raise StoreError(f"{p} cannot be written: {e.strerror or e}") from None
    return p


# ------------------------------------------------ the campaign export (transfer.py)

def document_rows(session: Any) -> list[dict[str, Any]]:
    """Every saved map as ``{"name", "text", "notes"}``, in the order saved, read
    on an open session (the export's one snapshot)."""
    text = _sql()
    rows = session.connection().execute(
        text("SELECT name, text, notes FROM battle_map ORDER BY id")).all()
    return [{"name": str(r.name), "text": str(r.text), "notes": str(r.notes)} for r in rows]


def document_map(raw: Any) -> dict[str, Any]:
    """One map of an import document, checked as ``save_map`` checks it:
    ``ValidationError`` naming the field (``text`` with its line and column)."""
    if not isinstance(raw, dict):
        raise ValidationError("maps", "must be a JSON object")
    for key in raw:
        if key not in ("name", "text", "notes"):
            raise ValidationError(str(key), "unknown field for a map")
    name, body, notes = raw.get("name"), raw.get("text"), raw.get("notes", "")
    if not isinstance(name, str):
        raise ValidationError("name", "must be text")
    if not isinstance(body, str):
        raise ValidationError("text", "must be the map's text")
    if not isinstance(notes, str) or len(notes) > TEXT_MAX:
        raise ValidationError("notes", f"must be text of at most {TEXT_MAX} characters")
    check_map_text(body)
    return {"name": _check_name(name), "text": body, "notes": notes}


def insert_document_rows(session: Any, rows: list[dict[str, Any]]) -> None:
    """Write checked maps (``document_map``) on an open write session (the import)."""
    text = _sql()
    for r in rows:
        session.connection().execute(
            text("INSERT INTO battle_map (name, text, notes) VALUES (:n, :t, :o)"),
            {"n": r["name"], "t": r["text"], "o": r["notes"]})
