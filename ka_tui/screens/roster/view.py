"""What the roster shows: table columns and the detail-pane text.

Light (no store, no SQLModel) so the roster's first frame stays fast; the
store calls live in ``roster_data.py`` and run in worker threads. Rows are
plain dicts of model field names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from ka_tui.rules.core.skills import Level, Skill, SkillKind, pool_of
from ka_tui.store.limits import LEVEL_NAMES
from ka_tui.store.roster_reads import RosterData

Row = Mapping[str, Any]

__all__ = ["Text", "Column", "CHARACTER_COLUMNS", "AIRCRAFT_COLUMNS", "RosterData",
           "character_detail", "aircraft_detail", "pool_text"]


@dataclass(frozen=True)
class Column:
    title: str
    width: int | None
    get: Callable[[Row], Any]

    def sort_key(self, row: Row) -> tuple[int, Any]:
        value = self.get(row)
        if value is None:
            return (1, "")
        return (0, value.casefold() if isinstance(value, str) else value)

    def cell(self, row: Row, _tables: object = None) -> str:
        value = self.get(row)
        return "-" if value is None else str(value)


CHARACTER_COLUMNS: tuple[Column, ...] = (
    Column("Name", 16, lambda r: r["name"]),
    Column("Role", 6, lambda r: r["role"]),
    Column("Str", 3, lambda r: r["strength"]),
    Column("Agi", 3, lambda r: r["agility"]),
    Column("K", 5, lambda r: f"{r['k_points']}/{r['k_points_max']}"),
    Column("W", 1, lambda r: r["wounds"]),
)

AIRCRAFT_COLUMNS: tuple[Column, ...] = (
    Column("Name", 14, lambda r: r["name"]),
    Column("Class", 9, lambda r: _class_label(r["aircraft_class"])),
    Column("Mv", 2, lambda r: r["move"]),
    Column("Hull", 5, lambda r: f"{r['hull'] - r.get('hull_hits', 0)}/{r['hull']}"),
    Column("Pilot", 9, lambda r: r.get("pilot_name")),
)


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
    """Rich markup for the detail pane: characteristics, Base skills, skills, weapons."""
    base = [f"{label} {c[key]:<2}" for label, key in _BASE_LABELS]
    lines = [f"[b]{escape(c['name'])}[/b]  {c['role']}",
             f"Str {c['strength']:<3} Agi {c['agility']:<3} End {c['endurance']}",
             f"Res {c['resistance']:<3} Arm {c['armour']:<3} AP  {c['ap']}",
             f"K {c['k_points']}/{c['k_points_max']}  Wounds {c['wounds']}/6"
             + ("" if c["conscious"] else "  [reverse]OUT[/]"),
             f"Piloting {c['piloting']}+  Gunnery {c['gunnery']}+",
             "[b]Base[/b] " + " ".join(base[:3]),
             "     " + " ".join(base[3:])]
    if extra is None:
        lines.append("[dim]loading skills…[/]")
    else:
        lines.append("[b]Skills[/b]" if extra["skills"] else "[dim]No skills.[/]")
        for s in extra["skills"]:
            lines.append(" " + escape(skill_line(s, width - 1)))
        lines.append("[b]Weapons[/b]" if extra["weapons"] else "[dim]No weapons.[/]")
        for w in extra["weapons"]:
            lines.append(" " + escape(weapon_line(w, width - 1)))
    if c.get("notes"):
        lines.append(f"[dim]{escape(c['notes'])}[/]")
    return "\n".join(lines)


def skill_line(s: Row, width: int = 29) -> str:
    """``Aerial Gunne~  6 M 4d12+1d20``; a Passive skill shows the bonus it adds to
    a d12 Base or characteristic roll (S0 §Skills); Lore is prefixed as in S0."""
    lore = s["kind"] == "lore" and not s["name"].casefold().startswith("lore")
    name = ("Lore: " if lore else "") + s["name"]
    room = max(13, width - 16)
    name = name if len(name) <= room else name[:room - 1] + "~"
    if s["kind"] == "passive":
        return f"{name:<{room}} +{s['number']} to d12"
    return f"{name:<{room}} {s['number']:>2} {s['level']} {pool_text(s['level'], s['upgrades'])}"


def weapon_line(w: Row, width: int = 29) -> str:
    """``Service revolver 3 gun #1``: damage, firearm or melee, quick slot."""
    room = max(14, width - 15)
    name = w["name"] if len(w["name"]) <= room else w["name"][:room - 1] + "~"
    slot = f"#{w['quick_slot']}" if w.get("quick_slot") else "bag"
    kind = "gun" if w.get("is_firearm") else "melee"
    return f"{name:<{room}} {w['damage']:>2} {kind} {slot}"


_BASE_LABELS = (("Wpn", "base_weapons"), ("Tec", "base_tech"), ("Sur", "base_survival"),
                ("Com", "base_communication"), ("Psy", "base_psy"))


def aircraft_detail(a: Row, characters: Sequence[Row]) -> str:
    """A compact summary of an aircraft (S0 §Flight card, R-3…R-10 fields)."""
    names = {c["id"]: c["name"] for c in characters}
    pilot = names.get(a.get("pilot_id"), "none") if a.get("pilot_id") else "none"
    crew = ", ".join(names.get(i, "?") for i in a.get("crew_ids", ())) or "none"
    ab = f" ({a['afterburner_thrust']})" if a.get("afterburner_thrust") else ""
    lines = [
        f"[b]{escape(a['name'])}[/b]  {_class_label(a['aircraft_class'])}",
        f"{a['engines']} x {a['engine_kind']}  Thrust {a['thrust']}{ab}  G {a['g_rating']}",
        f"Move {a['move']}  Dive {a['dive_max']}",
        f"Ceiling {_echelon(a['ceiling'])}",
        f"Firepower {a['firepower']}  Evasion {a['evasion']}",
        f"Hull {a['hull'] - a.get('hull_hits', 0)}/{a['hull']}  "
        f"Fuel {a.get('fuel_left', a['fuel'])}/{a['fuel']}",
        f"Ammo {a.get('ammo_left', a['ammo'])}/{a['ammo']}  Overheat {a.get('overheat', 0)}",
        f"Landing {a['landing_speed']}  Take-off {a['takeoff_run']}",
        f"Pilot: {escape(str(pilot))}",
        f"Crew: {escape(crew)}",
    ]
    traits = a.get("trait_text")
    if traits:
        lines.append(f"Traits: {escape(traits)}")
    if a.get("notes"):
        lines.append(f"[dim]{escape(a['notes'])}[/]")
    lines.append("[dim]f card · p crew · l library[/]")
    return "\n".join(lines)


def _echelon(level: int) -> str:
    names = ("Deck", "Hill", "Mountain", "Top", "Ceiling", "Edge")
    return names[level - 1] if 1 <= level <= len(names) else str(level)


def level_name(level: str) -> str:
    return LEVEL_NAMES.get(level, level)
