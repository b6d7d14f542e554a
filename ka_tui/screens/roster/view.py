"""What the roster shows: table columns and the detail-pane text.

Light (no store, no SQLModel, no Textual) so the roster's first frame stays
fast; the store calls live in ``store/roster_reads.py`` and run in worker
threads. Rows are plain dicts of model field names.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ka_tui.rules.core.skills import Level, Skill, SkillKind, pool_of
from ka_tui.store.limits import LEVEL_NAMES
from ka_tui.store.roster_reads import InProgress, RosterData

Row = Mapping[str, Any]

__all__ = [
    "AIRCRAFT_COLUMNS",
    "CHARACTER_COLUMNS",
    "Column",
    "RosterData",
    "aircraft_detail",
    "character_detail",
    "in_progress_line",
    "matches",
    "pool_text",
    "search_text",
]


@dataclass(frozen=True)
class Column:
    """A roster column: ``width`` its usual width, ``min_width``/``max_width`` how
    far it may shrink or grow (``widgets/fast_table.py``); ``optional`` columns
    show only where every cell fits (a wide window)."""

    title: str
    width: int | None
    get: Callable[[Row], Any]
    min_width: int = 0
    max_width: int = 0
    optional: int = 0  # > 0: dropped where the table is short of room, highest first
    cut: str = "end"   # "middle" for names (widgets/fast_table.py ``shorten``)

    def sort_key(self, row: Row) -> tuple[int, Any]:
        value = self.get(row)
        if value is None or value == "":
            return (1, "")
        return (0, value.casefold() if isinstance(value, str) else value)

    def cell(self, row: Row, _tables: object = None) -> str:
        value = self.get(row)
        return "-" if value is None else str(value)


def live_k(r: Row) -> int:
    """K-points now: the open fight's (RULES-NOTES B) while he is in one."""
    return int(r["live_k"]) if r.get("live_k") is not None else int(r["k_points"])


def live_wounds(r: Row) -> int:
    """Wounds now: the open battle's (R-5) while he flies in one."""
    return int(r["live_wounds"]) if r.get("live_wounds") is not None else int(r["wounds"])


def now(r: Row) -> str:
    """Where a character is and what holds him, in one short word: ``dead`` (6
    wounds, R-5), ``KO`` (K-points 0 in an open fight: out of it, RULES-NOTES B),
    ``fight``, ``OUT`` (unconscious, R-5), ``air`` (in an open battle), else ``""``."""
    if live_wounds(r) >= 6:
        return "dead"
    if r.get("fight_id") is not None:
        return "KO" if r.get("fight_out") else "fight"
    conscious = r["live_conscious"] if r.get("live_conscious") is not None else r["conscious"]
    if not conscious:
        return "OUT"
    return "air" if r.get("battle_id") is not None else ""


def seat_text(r: Row) -> str:
    """``Tempest KA-A`` for its pilot, ``Mitchell KA-E (crew)`` for a crewman."""
    seat = r.get("seat")
    if not seat:
        return ""
    return seat[1] if seat[0] == "pilot" else f"{seat[1]} (crew)"


def aircraft_hull_left(r: Row) -> int:
    hits = r["live_hull_hits"] if r.get("live_hull_hits") is not None else r.get("hull_hits", 0)
    return int(r["hull"]) - int(hits)


def aircraft_now(r: Row) -> str:
    """``lost`` (destroyed or crashed), ``air`` (in an open battle), else ``""``."""
    if r.get("live_lost") or _lost(r):
        return "lost"
    return "air" if r.get("battle_id") is not None else ""


def _lost(r: Row) -> bool:
    return '"lost"' in str(r.get("damage") or "")


CHARACTER_COLUMNS: tuple[Column, ...] = (
    Column("Name", 13, lambda r: r["name"], min_width=8, max_width=28, cut="middle"),
    Column("Role", 6, lambda r: r["role"], min_width=5),
    Column("Str", 3, lambda r: r["strength"], optional=1),
    Column("Agi", 3, lambda r: r["agility"], optional=1),
    Column("K", 5, lambda r: f"{live_k(r)}/{r['k_points_max']}", max_width=7),
    Column("W", 1, lambda r: live_wounds(r)),
    Column("Now", 5, now),
    Column("Seat", 12, seat_text, max_width=26, optional=2),
    # the service record's counts, shown where the table has room
    Column("Sort", 4, lambda r: r.get("sorties", 0), optional=3),
    Column("Kills", 5, lambda r: r.get("kills", 0), optional=3),
)

AIRCRAFT_COLUMNS: tuple[Column, ...] = (
    Column("Name", 14, lambda r: r["name"], min_width=8, max_width=28, cut="middle"),
    Column("Class", 9, lambda r: _class_label(r["aircraft_class"]), optional=1),
    Column("Mv", 2, lambda r: r["move"], optional=2),
    Column("Hull", 5, lambda r: f"{aircraft_hull_left(r)}/{r['hull']}"),
    Column("Pilot", 9, lambda r: r.get("pilot_name"), min_width=6, max_width=24,
           cut="middle"),
    Column("Now", 4, aircraft_now),
)


def search_text(r: Row, tab: str, aircraft: Sequence[Row] = ()) -> str:
    """What the roster filter looks in, casefolded: name,
    role, status words, seat and the aircraft sat in; for an aircraft its
    class, engine, traits, pilot and crew, status."""
    if tab == "aircraft":
        words = [r["name"], _class_label(r["aircraft_class"]),
                 str(r["aircraft_class"]).replace("_", " "), str(r.get("engine_kind", "")),
                 str(r.get("trait_text", "")), r.get("pilot_name") or "",
                 "piloted seated" if r.get("pilot_id") else "unseated no pilot",
                 "crewed" if r.get("crew_ids") else "", aircraft_now(r)]
        if r.get("battle_id") is not None:
            words += ["battle in battle", str(r.get("battle", ""))]
        if aircraft_hull_left(r) < int(r["hull"]):
            words.append("damaged")
        return " ".join(words).casefold()
    words = [r["name"], r["role"], now(r)]
    seat = r.get("seat")
    if seat:
        words += ["seated", seat[0], seat[1]]
        plane = next((a for a in aircraft if a["name"] == seat[1]), None)
        if plane is not None:
            words += [_class_label(plane["aircraft_class"]),
                      str(plane["aircraft_class"]).replace("_", " ")]
    else:
        words.append("unseated")
    wounds = live_wounds(r)
    words.append("dead" if wounds >= 6 else "wounded" if wounds else "unhurt")
    conscious = r["live_conscious"] if r.get("live_conscious") is not None else r["conscious"]
    words.append("conscious" if conscious else "unconscious out")
    if r.get("fight_id") is not None:
        words += ["fight in fight", str(r.get("fight", ""))]
        if r.get("fight_out"):
            words.append("knocked out ko")
    if r.get("battle_id") is not None:
        words += ["battle in battle air", str(r.get("battle", ""))]
    return " ".join(words).casefold()


def matches(row: Row, text: str, needle: str) -> bool:
    """The roster filter: every word of ``needle`` is part of
    the row's name or begins a word of its ``search_text`` (``/Bf 109``, ``/pilot
    wounded``; ``/seated`` does not find the unseated)."""
    name = str(row["name"]).casefold()
    words = text.split()
    return all(word in name or any(w.startswith(word) for w in words)
               for word in needle.casefold().split())


def _class_label(value: str) -> str:
    return {"fighter": "Fighter", "heavy_fighter": "Heavy ftr", "attack": "Attack",
            "bomber": "Bomber", "large": "Large"}.get(value, value)


def escape(text: str) -> str:
    """Escape user text (names, notes) for Textual markup."""
    return text.replace("\\", "\\\\").replace("[", "\\[")


def pool_text(level: str, upgrades: int) -> str:
    """A skill's dice pool as text, e.g. ``2d10+2d10`` (S0 §Skills; rules core's
    ``pool_of``), or ``T+2`` for a level the rules core does not know."""
    try:
        skill = Skill("x", SkillKind("active"), 0, Level(level), upgrades)
        pool = tuple(pool_of(skill))
    except (ValueError, TypeError, AttributeError):
        return f"{level}+{upgrades}" if upgrades else level
    counts: dict[int, int] = {}
    for sides in pool:
        size = getattr(sides, "sides", sides)
        counts[size] = counts.get(size, 0) + 1
    return "+".join(f"{n}d{s}" for s, n in sorted(counts.items()))


def character_detail(c: Row, extra: Row | None, width: int = 30) -> str:
    """Rich markup for the detail pane: the name whole (the table may cut it),
    where he is now (an open fight or battle, live; his seat), characteristics,
    Base skills, skills, weapons. Values sit next to their labels at any width;
    a long skill or weapon name wraps under itself instead of being cut."""
    width = max(20, width)
    base = [f"{label} {c[key]:<2}" for label, key in _BASE_LABELS]
    k_line = f"K {live_k(c)}/{c['k_points_max']}  Wounds {live_wounds(c)}/6"
    if c.get("live_k") is not None and c["live_k"] != c["k_points"]:
        k_line += f"  [dim](roster K {c['k_points']})[/]"
    if not c["conscious"]:
        k_line += "  [reverse]OUT[/]"
    lines = [f"[b]{escape(c['name'])}[/b]  {escape(c['role'])}", *_where_now(c),
             f"Str {c['strength']:<3} Agi {c['agility']:<3} End {c['endurance']}",
             f"Res {c['resistance']:<3} Arm {c['armour']:<3} AP  {c['ap']}",
             k_line,
             f"Piloting {c['piloting']}+  Gunnery {c['gunnery']}+",
             "[b]Base[/b] " + " ".join(base[:3]),
             "     " + " ".join(base[3:])]
    if extra is None:
        lines.append("[dim]loading skills…[/]")
    else:
        skills = [(_skill_values(s), _skill_name(s)) for s in extra["skills"]]
        weapons = [(_weapon_values(w), w["name"]) for w in extra["weapons"]]
        lines.append("[b]Skills[/b]" if skills else "[dim]No skills.[/]")
        lines.extend(_aligned(skills, width))
        lines.append("[b]Weapons[/b]" if weapons else "[dim]No weapons.[/]")
        lines.extend(_aligned(weapons, width))
    if c.get("notes"):
        lines.append(f"[dim]{escape(c['notes'])}[/]")
    if extra is not None and extra.get("service"):
        lines.append(escape(str(extra["service"])))   # the service record
    return "\n".join(lines)


def _where_now(c: Row) -> list[str]:
    """His seat and the open fight or battle he is in, live."""
    out = []
    if c.get("fight_id") is not None:
        state = ("K 0, out of the fight (RULES-NOTES B)" if c.get("fight_out")
                 else "left the fight" if c.get("fight_disengaged") else "fighting")
        live = f", {state}" if c.get("live_k") is not None else ""
        out.append(f"[reverse] FIGHT [/] {escape(str(c.get('fight', '')))}{live}")
    if c.get("battle_id") is not None:
        state = ""
        if c.get("live_conscious") is False:
            state = ", UNCONSCIOUS (R-5)"
        seat = c.get("seat")
        if not seat or seat[1] != c.get("battle_aircraft"):
            state += f", {c.get('battle_seat', 'aboard')} of " \
                     f"{escape(str(c.get('battle_aircraft', '')))}"
        out.append(f"[reverse] AIR [/] {escape(str(c.get('battle', '')))}{state}")
    seat = c.get("seat")
    out.append(f"Seat: {seat[0]} of {escape(seat[1])}" if seat else "Seat: none (unseated)")
    return out


def _skill_name(s: Row) -> str:
    lore = s["kind"] == "lore" and not s["name"].casefold().startswith("lore")
    return ("Lore: " if lore else "") + str(s["name"])


def _skill_values(s: Row) -> str:
    """`` 6 M 4d12+1d20``; a Passive skill shows the bonus it adds to a d12 Base
    or characteristic roll (S0 §Skills)."""
    if s["kind"] == "passive":
        return f"+{s['number']} to d12"
    return f"{s['number']:>2} {s['level']} {pool_text(s['level'], s['upgrades'])}"


def _weapon_values(w: Row) -> str:
    """`` 3 gun #1``: damage, firearm or melee, quick slot."""
    slot = f"#{w['quick_slot']}" if w.get("quick_slot") else "bag"
    return f"{w['damage']:>2} {'gun' if w.get('is_firearm') else 'melee':<5} {slot}"


def _aligned(items: Sequence[tuple[str, str]], width: int) -> list[str]:
    """`` 6 M 4d12+1d20  Aerial Gunnery``: the values in one column, the names
    whole after them, a name too long for the line wrapped under itself."""
    if not items:
        return []
    room = max(len(v) for v, _ in items)
    out: list[str] = []
    for values, name in items:
        out.extend(escape(line) for line in _hang(f" {values:<{room}}  ", name, width))
    return out


def _hang(prefix: str, text: str, width: int) -> list[str]:
    """``prefix`` + ``text``, the text wrapped at ``width`` and indented under itself."""
    room = max(8, width - len(prefix))
    lines = textwrap.wrap(text, room, break_long_words=True) or [""]
    return [prefix + lines[0]] + [" " * len(prefix) + more for more in lines[1:]]


def skill_line(s: Row, width: int = 29) -> str:
    """One skill as a line: values then the name (kept for callers)."""
    return _hang(f" {_skill_values(s)}  ", _skill_name(s), width)[0].strip()


def weapon_line(w: Row, width: int = 29) -> str:
    """One weapon as a line: values then the name (kept for callers)."""
    return _hang(f" {_weapon_values(w)}  ", w["name"], width)[0].strip()


_BASE_LABELS = (("Wpn", "base_weapons"), ("Tec", "base_tech"), ("Sur", "base_survival"),
                ("Com", "base_communication"), ("Psy", "base_psy"))


def aircraft_detail(a: Row, characters: Sequence[Row]) -> str:
    """A compact summary of an aircraft (S0 §Flight card, R-3…R-10 fields); in an
    open battle its live hull; the pilot's state."""
    people = {c["id"]: c for c in characters}
    pilot_row = people.get(a.get("pilot_id")) if a.get("pilot_id") else None
    pilot = "none" if pilot_row is None else str(pilot_row["name"])
    if pilot_row is not None and now(pilot_row) in ("KO", "OUT", "dead"):
        pilot += f" ({_STATE_WORDS[now(pilot_row)]})"
    crew = ", ".join(str(people[i]["name"]) if i in people else "?"
                     for i in a.get("crew_ids", ())) or "none"
    ab = f" ({a['afterburner_thrust']})" if a.get("afterburner_thrust") else ""
    lines = [f"[b]{escape(a['name'])}[/b]  {_class_label(a['aircraft_class'])}"]
    if a.get("battle_id") is not None:
        lost = f", {a['live_lost']}" if a.get("live_lost") else ""
        lines.append(f"[reverse] AIR [/] {escape(str(a.get('battle', '')))}{lost}")
    lines += [
        f"{a['engines']} x {a['engine_kind']}  Thrust {a['thrust']}{ab}  G {a['g_rating']}",
        f"Move {a['move']}  Dive {a['dive_max']}",
        f"Ceiling {_echelon(a['ceiling'])}",
        f"Firepower {a['firepower']}  Evasion {a['evasion']}",
        (f"Hull {aircraft_hull_left(a)}/{a['hull']}  "
         f"Fuel {a.get('fuel_left', a['fuel'])}/{a['fuel']}"),
        f"Ammo {a.get('ammo_left', a['ammo'])}/{a['ammo']}  Overheat {a.get('overheat', 0)}",
        f"Landing {a['landing_speed']}  Take-off {a['takeoff_run']}",
        f"Pilot: {escape(pilot)}",
        f"Crew: {escape(crew)}",
    ]
    traits = a.get("trait_text")
    if traits:
        lines.append(f"Traits: {escape(traits)}")
    if a.get("notes"):
        lines.append(f"[dim]{escape(a['notes'])}[/]")
    lines.append("[dim]f card · p crew · l library[/]")
    return "\n".join(lines)


_STATE_WORDS = {"KO": "K 0 in a fight", "OUT": "unconscious", "dead": "dead"}


def _echelon(level: int) -> str:
    names = ("Deck", "Hill", "Mountain", "Top", "Ceiling", "Edge")
    return names[level - 1] if 1 <= level <= len(names) else str(level)


def level_name(level: str) -> str:
    return LEVEL_NAMES.get(level, level)


# The keys of the close-combat and air-battle modes (app.py MODE_SPECS; a
# screen does not import the app, tests/ui/test_roster_columns.py checks them).
FIGHT_KEY = "3"
BATTLE_KEY = "4"


def in_progress_line(open_logs: Sequence[InProgress], fight_key: str = FIGHT_KEY,
                     battle_key: str = BATTLE_KEY) -> str:
    """What is still going on when the campaign opens, e.g.
    ``Fight in progress: A vs B, round 2 — 3 resumes it``. The app opens on the
    roster; this line says where the GM left off and the key that goes there
    (each mode resumes its newest open fight or battle)."""
    parts = []
    for kind, label, key in (("fight", "Fight", fight_key), ("battle", "Battle", battle_key)):
        logs = [p for p in open_logs if p.kind == kind]
        if not logs:
            continue
        newest = logs[0]
        more = f" (+{len(logs) - 1} more)" if len(logs) > 1 else ""
        where = f", {newest.where}" if newest.where else ""
        parts.append(f"[b]{label} in progress[/b]: {escape(newest.name)}{where}{more} — "
                     f"[b]{key}[/b] resumes it")
    return "  ·  ".join(parts)
