"""The roster's store calls, run in worker threads.

Reads are plain SQL (``db.plain_read()``: one read snapshot each), so the
roster's first frame does not wait for SQLModel/SQLAlchemy to import (~0.4 s);
writes go through the store's service (``store/roster.py``), imported on
first use, inside ``db.batch()`` so one user action is one transaction and
every value is checked before anything is written. Rows reach the screen as
plain dicts of model field names::

    data = load_roster(db, live=True)            # every row, who is in a fight or battle
    extra = load_character_extra(db, cid)        # skills, weapons, service line
    form = load_character_full(db, cid)          # the character form's values
    cid = save_character(db, values, loaded=form)   # merged field by field, or EditConflict
    set_seats(db, aircraft_id, pilot_id, crew_ids)
    new_id, name = duplicate(db, "characters", cid); delete(db, "aircraft", aid)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ka_tui.store.errors import StoreError, ValidationError
from ka_tui.store.events import LogEvent

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB
    from ka_tui.store.plain_read import PlainRead

Row = dict[str, Any]

# SQLite keeps booleans as 0/1 (tests/ui/test_roster_data.py checks these
# against the models' bool fields).
BOOL_COLUMNS = {
    "character": frozenset({"conscious"}),
    "skill": frozenset({"legendary"}),
    "weapon": frozenset({"is_firearm"}),
    "aircraft": frozenset({"roll", "loop", "immelmann"}),
}
_SKILL_ORDER = "CASE kind WHEN 'active' THEN 0 WHEN 'lore' THEN 1 ELSE 2 END, name COLLATE NOCASE"
_WEAPON_ORDER = "quick_slot IS NULL, quick_slot, name COLLATE NOCASE"


@dataclass(frozen=True)
class RosterData:
    """Everything the roster's first frame shows, read in one snapshot."""

    campaign_name: str
    default_ap: int
    characters: list[dict[str, Any]]
    aircraft: list[dict[str, Any]]
    # open fights and battles, newest first; ``live``: replayed
    in_progress: list[InProgress] = field(default_factory=list)
    live: bool = False
    # (character id, ``load_character_extra``) read with it: the detail pane's
    # skills and weapons of the row the roster opens on (all in the first frame)
    first_detail: tuple[int, dict[str, Any]] | None = None
    # the watcher's fingerprints taken just before the read (``startup_read``)
    prints: dict[str, int] | None = None


def dict_rows(read: PlainRead, table: str, sql: str, *args: Any) -> list[Row]:
    """Rows of ``table`` as dicts of its columns, booleans as ``bool``."""
    flags = BOOL_COLUMNS[table]
    out = read.execute(sql, args).dicts()
    for row in out:
        for key in flags:
            row[key] = bool(row[key])
    return out


def load_roster(db: CampaignDB, *, live: bool = False) -> RosterData:
    """Campaign name, default AP, every character and aircraft, with seats and
    who is in an open fight or battle (one read). ``live``: replay those logs
    for the state there (K-points, wounds, conscious); the startup read skips it."""
    with db.plain_read() as con:
        campaign = con.execute("SELECT name, house_rules FROM campaign WHERE id = 1").fetchone()
        characters = dict_rows(con, "character", "SELECT * FROM character")
        names = {c["id"]: c["name"] for c in characters}
        crews: dict[int, list[int]] = {}
        for aircraft_id, character_id in con.execute(
                "SELECT aircraft_id, character_id FROM aircraft_crew"):
            crews.setdefault(aircraft_id, []).append(character_id)
        aircraft = dict_rows(con, "aircraft", "SELECT * FROM aircraft")
        fights = _open_logs(con, "fight", "fight_event", "fight_id")
        battles = _open_logs(con, "battle", "battle_event", "battle_id")
        service = _service_counts(con)
    by_id = {c["id"]: c for c in characters}
    for c in characters:
        c["sorties"], c["kills"] = service.get(c["id"], (0, 0))
    for row in aircraft:
        row["pilot_name"] = names.get(row["pilot_id"]) if row["pilot_id"] else None
        row["crew_ids"] = crews.get(row["id"], [])
        row["trait_text"] = _trait_text(row["traits"])
        if row["pilot_id"] in by_id:
            by_id[row["pilot_id"]].setdefault("seat", ("pilot", row["name"]))
        for cid in row["crew_ids"]:
            if cid in by_id:
                by_id[cid].setdefault("seat", ("crew", row["name"]))
    rules_json = campaign[1] if campaign else "{}"
    in_progress: list[InProgress] = []
    _mark_fights(by_id, fights, live, in_progress)
    _mark_battles(by_id, {a["id"]: a for a in aircraft}, battles, rules_json, live,
                  in_progress)
    name = campaign[0] if campaign else "?"
    return RosterData(name, _default_ap(rules_json), characters, aircraft, in_progress, live)


def _default_ap(house_rules_json: str) -> int:
    """RULES-NOTES B: a new character's AP is the campaign's ``cqc.default_ap``."""
    try:
        return int(json.loads(house_rules_json).get("cqc", {}).get("default_ap", 6))
    except (ValueError, TypeError, AttributeError):
        return 6


def _trait_text(traits_json: str) -> str:
    try:
        traits = json.loads(traits_json)
    except ValueError:
        return ""
    return ", ".join(
        str(t[0]).replace("_", " ").capitalize() + (f" {t[1]}" if t[1] else "") for t in traits)


def load_character_extra(db: CampaignDB, character_id: int, *, kept: bool = False) -> Row:
    """Skills (Active, Lore, Passive, each by name) and weapons (by slot) of one
    character, and his service line (``campaign_state.service_line``).
    ``kept``: the service line is taken from the one kept between starts
    (``live_cache``) when the rows it is derived from have not changed, as the
    roster's startup read does (the line's rules cost about 40 ms to import)."""
    with db.plain_read() as con:
        extra = _extra(con, character_id)
        key = _service_key(con, character_id) if kept else None
    if key is not None:
        from ka_tui.store import live_cache

        found = live_cache.read_answer(key)
        if isinstance(found, str):
            extra["service"] = found
            return extra
    extra["service"] = _service_line(db, character_id)
    if key is not None:
        live_cache.keep_answer(key, extra["service"])
    return extra


def _service_line(db: CampaignDB, character_id: int) -> str:
    from ka_tui.store import campaign_state
    from ka_tui.store.debriefs import BadDebrief
    from ka_tui.store.errors import NotFound

    try:
        return campaign_state.service_line(db, character_id)
    except NotFound:         # a role without a service record
        return ""
    except BadDebrief as e:  # the rest of his detail still shows
        return f"Service record cannot be read ({e.where})"


def _service_key(con: PlainRead, character_id: int) -> str | None:
    """The name of his service line among the answers kept (``live_cache``):
    a digest of every row it is derived from (his character and recovery
    rows, the house rules, his flown missions with their debriefs); None when
    they cannot be read (the line is then read the usual way, and says why)."""
    import hashlib

    from ka_tui.store import live_cache

    try:
        rows = [con.execute(sql, args).fetchall() for sql, args in (
            ("SELECT * FROM character WHERE id = ?", (character_id,)),
            ("SELECT * FROM person_state WHERE character_id = ?", (character_id,)),
            ("SELECT house_rules FROM campaign WHERE id = 1", ()),
            ("SELECT m.id, m.name, m.day, m.status, m.debrief FROM mission m JOIN "
             "mission_member x ON x.mission_id = m.id WHERE x.character_id = ? "
             "ORDER BY m.day, m.id", (character_id,)))]
    except StoreError:
        return None
    digest = hashlib.sha256(repr(rows).encode()).hexdigest()
    return live_cache.answer_key("service", character_id, digest)


def _service_counts(con: PlainRead) -> dict[int, tuple[int, int]]:
    """Sorties and kills per character from the flown missions' confirmed
    debriefs (the counts ``campaign_state.service_records`` gives)."""
    # Each json_* call only on a value of the right JSON type (CASE evaluates in
    # order): a debrief that is not the debrief's shape counts no kills here,
    # and the service records name it (store/debriefs.py).
    rows = con.execute(
        "SELECT x.character_id, count(*), coalesce(sum((SELECT CASE WHEN json_type(p.value, "
        "'$.kills') = 'integer' THEN min(max(json_extract(p.value, '$.kills'), 0), 99999999) "
        "END FROM json_each(CASE WHEN json_type(m.debrief, '$.pilots') = 'array' "
        "THEN m.debrief ELSE '{}' END, '$.pilots') p WHERE CASE WHEN p.type = 'object' "
        "THEN json_extract(p.value, '$.character_id') END = x.character_id)), 0) "
        "FROM mission m JOIN mission_member x ON x.mission_id = m.id "
        "WHERE m.status = 'flown' GROUP BY x.character_id").fetchall()
    return {int(c): (int(n), int(k)) for c, n, k in rows}


def _extra(con: PlainRead, character_id: int) -> Row:
    return {
        "skills": dict_rows(con, "skill", f"SELECT * FROM skill WHERE character_id = ? "
                                      f"ORDER BY {_SKILL_ORDER}", character_id),
        "weapons": dict_rows(con, "weapon", f"SELECT * FROM weapon WHERE character_id = ? "
                                        f"ORDER BY {_WEAPON_ORDER}", character_id),
    }


def load_character_full(db: CampaignDB, character_id: int) -> Row:
    """One character with ``skills`` and ``weapons`` lists, for the form."""
    with db.plain_read() as con:
        found = dict_rows(con, "character", "SELECT * FROM character WHERE id = ?", character_id)
        if not found:
            raise StoreError("That character is no longer in the campaign.")
        return {**found[0], **_extra(con, character_id)}


def _service() -> Any:
    from ka_tui.store import roster

    return roster


def warm_up() -> None:
    """Import the write half (SQLModel) ahead of the first edit; call from a worker."""
    _service()


def save_character(db: CampaignDB, values: Row, *, loaded: Row | None = None) -> int:
    """Add (no ``id``) or update a character with its skills and weapons as ONE
    transaction (``db.batch()`` around the store's service calls, which check
    every value before writing). Raises ``ValidationError`` for a field of the
    character, ``StoreError`` naming the skill or weapon otherwise.

    ``loaded``: the character as the form read it (no lost updates
    between windows). Then only what the form changed is written, merged
    field by field over the row as it is inside the write transaction
    (``merge_changes``): another window's save of a different field is kept;
    the same field changed both here and there to different values is
    refused (``EditConflict``, naming the field and both values)."""
    from ka_tui.store.models import CharacterRow, SkillRow, WeaponRow

    roster = _service()
    fields = {k: values[k] for k in _fields(CharacterRow) if k in values}
    skills = [_item(s, _fields(SkillRow)) for s in values.get("skills", [])]
    weapons = [_item(w, _fields(WeaponRow)) for w in values.get("weapons", [])]
    character_id = values.get("id")
    with db.batch():
        sync_skills = sync_weapons = True
        if character_id is None:
            character = roster.add_character(db, **fields)
        else:
            if loaded is not None:
                fields, sync_skills, sync_weapons = merge_changes(db, int(character_id),
                                                                  values, loaded)
            character = roster.update_character(db, character_id, **fields)
        assert character.id is not None
        if sync_skills:
            _sync(db, "skill", character.id, skills, roster.list_skills, roster.add_skill,
                  roster.update_skill, roster.delete_skill, clash_field="name")
        if sync_weapons:
            _sync(db, "weapon", character.id, weapons, roster.list_weapons,
                  roster.add_weapon, roster.update_weapon, roster.delete_weapon,
                  clash_field="quick_slot")
        return int(character.id)


class EditConflict(ValidationError):
    """The same field was changed in another window (or process) since this
    form read it, to another value: nothing was saved."""


def _items(rows: list[Row], names: list[str]) -> list[tuple[Any, ...]]:
    return sorted(tuple(r.get(k) for k in names) for r in rows)


def merge_changes(db: CampaignDB, character_id: int, values: Row,
                  loaded: Row) -> tuple[Row, bool, bool]:
    """Inside the save's write transaction: the fields this form changed
    (``values`` against ``loaded``) over the row as it is now. Returns the
    fields to write and whether the skills / the weapons are to be written;
    raises ``EditConflict`` when a field (or the skill or weapon list)
    was changed both here and elsewhere, differently. Fields this form did
    not change are left as the other window saved them."""
    from ka_tui.store.models import CharacterRow, SkillRow, WeaponRow

    with db.batch() as s:  # joins the save's batch: take the write lock now, so
        s.connection()     # no other writer can commit between this read and the write
    now = load_character_full(db, character_id)  # the row as committed, under that lock
    mine: Row = {}
    for key in _fields(CharacterRow):
        if key not in values:
            continue
        new, base, theirs = values[key], loaded.get(key, values[key]), now.get(key)
        if new == base:
            continue  # not changed here: keep what is there now
        if theirs == base or theirs == new:
            mine[key] = new
            continue
        label = key.replace("_", " ")
        raise EditConflict(key, f"{label} was changed in another window to {theirs} "
                           f"since this form opened (yours: {new}, was {base}); "
                           "nothing saved: escape, reopen and change it again")
    wanted: list[bool] = []
    for what, model in (("skills", SkillRow), ("weapons", WeaponRow)):
        names = _fields(model)
        new_items = _items(values.get(what, []), names)
        base_items = _items(loaded.get(what, []), names)
        if new_items == base_items:
            wanted.append(False)  # untouched here: keep the other window's list
            continue
        if _items(now.get(what, []), names) not in (base_items, new_items):
            raise EditConflict(what, f"the {what} were changed in another window since "
                               "this form opened; nothing saved: escape, reopen "
                               "and change them again")
        wanted.append(True)
    return mine, wanted[0], wanted[1]


def _fields(model: Any) -> list[str]:
    return [f for f in model.model_fields if f not in ("id", "character_id")]


def _item(values: Row, names: list[str]) -> Row:
    item = {k: values[k] for k in names if k in values}
    if values.get("id") is not None:
        item["id"] = values["id"]
    return item


def _sync(db: CampaignDB, what: str, character_id: int, wanted: list[Row],
          list_fn: Callable[..., list[Any]], add_fn: Callable[..., Any],
          update_fn: Callable[..., Any], delete_fn: Callable[..., None], *,
          clash_field: str) -> None:
    """Make the character's skills or weapons equal ``wanted``: delete the rows
    that went, free the unique field of rows that change it (so two rows can
    swap names or quick slots), then update and add."""
    existing = {row.id: row for row in list_fn(db, character_id)}
    keep = {w["id"] for w in wanted if w.get("id") in existing}
    current = "?"
    try:
        for row_id in existing.keys() - keep:
            current = existing[row_id].name
            delete_fn(db, row_id)
        for w in wanted:
            current = w.get("name", "?")
            old = existing.get(w.get("id"))
            if old is not None and getattr(old, clash_field) != w.get(clash_field):
                free = None if clash_field == "quick_slot" else f"~{old.id}~{old.name}"[:60]
                update_fn(db, old.id, **{clash_field: free})
        for w in wanted:
            current = w.get("name", "?")
            data = {k: v for k, v in w.items() if k != "id"}
            if w.get("id") in existing:
                update_fn(db, w["id"], **data)
            else:
                add_fn(db, character_id, **data)
    except ValidationError as e:
        raise StoreError(f"{what} {current}: {e.message}") from None


def set_seats(db: CampaignDB, aircraft_id: int, pilot_id: int | None,
              crew_ids: list[int]) -> None:
    """Pilot and crew of one aircraft in ONE transaction; a character seated in
    another aircraft moves to this one."""
    roster = _service()
    with db.batch():
        roster.set_crew(db, aircraft_id, [], move=True)  # free the seats first
        roster.assign_pilot(db, aircraft_id, pilot_id, move=True)
        roster.set_crew(db, aircraft_id, crew_ids, move=True)


def duplicate(db: CampaignDB, tab: str, row_id: int) -> tuple[int, str]:
    """Copy a character (with skills and weapons) or an aircraft under a free name."""
    roster = _service()
    copy = (roster.duplicate_character(db, row_id) if tab == "characters"
            else roster.duplicate_aircraft(db, row_id))
    assert copy.id is not None
    return copy.id, copy.name


def delete(db: CampaignDB, tab: str, row_id: int) -> None:
    """Delete a character (its skills, weapons and crew places go with it; an
    aircraft he piloted keeps its place without a pilot) or an aircraft."""
    roster = _service()
    if tab == "characters":
        roster.delete_character(db, row_id)
    else:
        roster.delete_aircraft(db, row_id)


# ------------------------------------------------ fights and battles in progress
# The roster shows who is in an open fight or battle
# and, once replayed, the live state there (K-points, out of the fight, wounds,
# conscious). ``load_roster`` reads who takes part from the start events (JSON
# only, cheap); ``live=True`` also replays each open log through the rules
# (``rules/cqc/log.py``, ``rules/air/battle.py``), or takes the answer kept
# from the last replay of that same log under the same house rules and code
# (``live_cache``: importing the rules costs about 0.1 s of a first frame).


@dataclass(frozen=True)
class InProgress:
    """An open fight or battle: what the roster's status line names."""

    kind: str          # "fight" | "battle"
    id: int
    name: str
    where: str = ""    # "round 2" / "turn 1", once replayed


Log = tuple[int, str, list[LogEvent], str]  # id, name, events, digest of the rows


def _open_logs(con: PlainRead, head: str, table: str, link: str) -> list[Log]:
    from ka_tui.store import live_cache

    out = []
    for log_id, name in con.execute(f"SELECT id, name FROM {head} WHERE status = 'open' "
                                    f"ORDER BY id DESC"):
        stored = [(int(seq), str(kind), str(payload)) for seq, kind, payload in
                  con.execute(f"SELECT seq, kind, payload FROM {table} WHERE {link} = ? "
                              f"ORDER BY seq", (log_id,))]
        rows = [LogEvent(kind, json.loads(payload), seq) for seq, kind, payload in stored]
        out.append((int(log_id), str(name), rows, live_cache.rows_digest(stored)))
    return out


def _mark_fights(characters: dict[int, Row], fights: list[Log], live: bool,
                 out: list[InProgress]) -> None:
    for fight_id, name, rows, digest in fights:
        start = rows[0].payload if rows and rows[0].kind == "fight_started" else None
        if not isinstance(start, dict):
            continue
        where = ""
        fighters: dict[str, list[Any]] = {}
        if live:
            from ka_tui.store import live_cache

            key = live_cache.answer_key("fight", fight_id, digest, name)
            found = live_cache.read_answer(key)
            if found is None:
                found = _replay_fight(rows, fight_id, name)
                live_cache.keep_answer(key, found)
            where, fighters = found["where"], found["fighters"]
        out.append(InProgress("fight", fight_id, name, where))
        for fid, cid in dict(start.get("characters", {})).items():
            row = characters.get(int(cid))
            if row is None or row.get("fight_id") is not None:
                continue
            row["fight_id"], row["fight"] = fight_id, name
            fighter = fighters.get(str(fid))
            if fighter is not None:
                row["live_k"], row["fight_out"], row["fight_disengaged"] = fighter


def _replay_fight(rows: list[LogEvent], fight_id: int, name: str) -> dict[str, Any]:
    """S0 §Close combat: the fight after its log, as the roster shows it
    (plain JSON: ``live_cache``): where it is, and each fighter's
    [K-points, out, disengaged]."""
    from ka_tui.rules.cqc.log import replay_prefix
    from ka_tui.store.rows_to_rules import fight_items

    progress, _ = replay_prefix(fight_items(rows), fight_id=fight_id, name=name)
    if progress is None:
        return {"where": "", "fighters": {}}
    return {"where": "ready to end" if progress.over else f"round {progress.fight.round}",
            "fighters": {str(f.id): [int(f.k_points), bool(f.out), bool(f.disengaged)]
                         for f in progress.fight.fighters}}


def _mark_battles(characters: dict[int, Row], aircraft: dict[int, Row],
                  battles: list[Log], rules_json: str, live: bool,
                  out: list[InProgress]) -> None:
    for battle_id, name, rows, digest in battles:
        first = rows[0].payload if rows and rows[0].kind == "battle_started" else None
        start = first.get("data", {}) if isinstance(first, dict) else None
        if not isinstance(start, dict):
            continue
        units: dict[str, Any] = {}
        where = ""
        if live:
            from ka_tui.store import live_cache

            key = live_cache.answer_key("battle", battle_id, digest, rules_json or "")
            found = live_cache.read_answer(key)
            if found is None:
                found = _replay_battle(rows, rules_json)
                live_cache.keep_answer(key, found)
            where, units = found["where"], found["units"]
        out.append(InProgress("battle", battle_id, name, where))
        for uid, aid in dict(start.get("aircraft", {})).items():
            plane = aircraft.get(int(aid))
            unit = units.get(str(uid))
            if plane is not None and plane.get("battle_id") is None:
                plane["battle_id"], plane["battle"] = battle_id, name
                if unit is not None:
                    plane["live_hull_hits"], plane["live_lost"] = unit["hull_hits"], unit["lost"]
            airmen = [int(c) for c in dict(start.get("airmen", {})).get(uid, [])]
            people = [] if unit is None else unit["people"]
            for i, cid in enumerate(airmen):
                row = characters.get(cid)
                if row is None or row.get("battle_id") is not None:
                    continue
                row["battle_id"], row["battle"] = battle_id, name
                row["battle_seat"] = "pilot" if i == 0 else "crew"
                row["battle_aircraft"] = str(uid)
                if i < len(people):
                    row["live_wounds"], row["live_conscious"] = people[i]


def _replay_battle(rows: list[LogEvent], rules_json: str) -> dict[str, Any]:
    """R-1: the battle's state after its log (the logged faces are its only
    dice; ``rows_to_rules.replay_battle``, under the campaign's house rules
    when the log recorded none), as the roster shows it (plain JSON:
    ``live_cache``): the turn, and each unit's hull hits, how it was lost
    and its pilot's and crew's [wounds, conscious]."""
    from ka_tui.rules.air.battle import ReplayError
    from ka_tui.rules.core.options import HouseRules
    from ka_tui.store.rows_to_rules import replay_battle

    try:
        battle = replay_battle(rows, HouseRules.from_dict(json.loads(rules_json or "{}")))
    except (ReplayError, ValueError, TypeError, KeyError):
        return {"where": "", "units": {}}  # a damaged log: who takes part still shows
    state = battle.state
    return {"where": f"turn {state.turn}", "units": {
        str(u.id): {"hull_hits": int(u.total_damage.hull_hits),
                    "lost": "destroyed" if u.destroyed else "crashed" if u.crashed else "",
                    "people": [[int(p.wounds), bool(p.conscious)] for p in [u.pilot, *u.crew]]}
        for u in state.units}}
