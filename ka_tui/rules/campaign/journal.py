"""The campaign journal's entries: what one holds, and the Markdown a GM pastes
to the players. Entries are written automatically for missions, battles,
fights, deaths (R-5: six wounds), kills, repairs and time passing, plus the
GM's own notes (multi-line)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import Any

TEXT_MAX = 4000


class EntryKind(StrEnum):
    MISSION = "mission"
    BATTLE = "battle"
    FIGHT = "fight"
    DEATH = "death"
    KILL = "kill"
    WOUND = "wound"
    REPAIR = "repair"
    TIME = "time"
    NOTE = "note"


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: EntryKind
    day: str
    text: str
    characters: tuple[int, ...] = ()
    aircraft: tuple[int, ...] = ()
    mission: int | None = None

    @property
    def first_line(self) -> str:
        return self.text.split("\n", 1)[0]


def entry_problem(kind: str, payload: Any) -> str | None:
    """Why a journal entry cannot be stored (None: it can)."""
    try:
        EntryKind(kind)
    except ValueError:
        return f"{kind!r} is not a journal entry kind"
    if not isinstance(payload, Mapping):
        return "a journal entry is a table"
    text = payload.get("text")
    if not isinstance(text, str) or not text.strip():
        return "a journal entry needs a text"
    if len(text) > TEXT_MAX:
        return f"a journal entry is at most {TEXT_MAX} characters"
    try:
        date.fromisoformat(str(payload.get("day")))
    except ValueError:
        return "a journal entry needs its campaign day (YYYY-MM-DD)"
    for key in ("characters", "aircraft"):
        ids = payload.get(key, [])
        if not isinstance(ids, list) or not all(
                isinstance(i, int) and not isinstance(i, bool) for i in ids):
            return f"{key} must be a list of ids"
    m = payload.get("mission")
    if m is not None and (not isinstance(m, int) or isinstance(m, bool)):
        return "mission must be an id or null"
    return None


def entry_of(seq: int, kind: str, payload: Mapping[str, Any]) -> Entry:
    m = payload.get("mission")
    return Entry(seq, EntryKind(kind), str(payload.get("day", "")), str(payload.get("text", "")),
                 tuple(int(i) for i in payload.get("characters", [])),
                 tuple(int(i) for i in payload.get("aircraft", [])),
                 None if m is None else int(m))


def matches(e: Entry, *, character: int | None = None, aircraft: int | None = None,
            mission: int | None = None, kind: EntryKind | None = None,
            search: str = "") -> bool:
    if character is not None and character not in e.characters:
        return False
    if aircraft is not None and aircraft not in e.aircraft:
        return False
    if mission is not None and e.mission != mission:
        return False
    if kind is not None and e.kind is not kind:
        return False
    return not search or search.casefold() in e.text.casefold()


def markdown(title: str, entries: Iterable[Entry], *, intro: Sequence[str] = ()) -> str:
    """The journal (or one mission's) as Markdown: a heading per campaign day."""
    out = [f"# {title}", ""]
    out += [*intro, ""] if intro else []
    day = None
    for e in entries:
        if e.day != day:
            day = e.day
            if out[-1] != "":
                out.append("")
            out += [f"## {day}", ""]
        lines = e.text.strip().split("\n")
        label = "" if e.kind is EntryKind.NOTE else f"*{e.kind.value}* "
        out.append(f"- {label}{lines[0]}")
        out += [f"  {line}" for line in lines[1:]]
    return "\n".join(out).rstrip() + "\n"
