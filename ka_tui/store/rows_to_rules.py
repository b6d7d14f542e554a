"""Stored rows as rules objects: the store's one reading of each.

Everything that turns what a campaign file holds into the rules' values
comes here, so each column has one reading and each gap one fallback. A row
is a model row (``models.py``) or a plain dict of its columns (forms, plain
reads); stored log events are ``events.LogEvent``. No SQLModel; the rules of
fights, battles and the campaign load when first called.

Aircraft (RULES-NOTES C: lists inside a row are JSON text)
    ``to_profile(row)`` -> ``AircraftProfile``; ``from_profile(profile)`` -> columns
    ``damage_of(row)`` -> ``Damage``; ``damage_columns(damage)`` -> columns
    ``airman_of(character)`` -> ``Airman`` (R-2 ratings, R-5 wounds)
    ``air_unit_of(aircraft, pilot, crew, …)`` -> ``AirUnit`` placed for a battle
    ``plane_of((id, name, hull, hull_hits, damage))`` -> the campaign's ``Plane``
People
    ``person_of((id, name, role, wounds, …))`` -> the campaign's ``Person``
Skills (S0 §Skills)
    ``skill_of(row)`` -> ``Skill``: Base and Passive skills roll one d12 and
    have no level ("As a rule test using Base skill are rolled using one
    d12"); the roller's choices read their rows the same way
    (``rules/core/roll_choices.skill_of_row``, which this calls)
Fights (S0 §Close combat)
    ``fighter_of(character, skills, weapons, rules)`` -> ``FighterCandidate``
    ``fight_items(events)`` -> the ``(kind, payload)`` pairs ``rules/cqc/log.py`` replays
Battles (R-1)
    ``battle_event(event)`` / ``battle_events(events)`` -> the rules' ``Event``
    ``stored_payload(event)`` -> what the store keeps of a rules event
    ``replay_battle(events, campaign_rules)`` -> ``Battle``

The one fallback rule of a battle: it replays under the air house rules its
``battle_started`` recorded (``rules/air/battle.rules_of``); a log written
before battles recorded them replays under the campaign's own house rules
(``battle_fallback``). Those are the rules it was played under when nothing
else says otherwise (a battle is only ever started from its campaign, under
the campaign's rules of the day), never the defaults, which the campaign may
never have used; and the GM's screen, the roster, a player's plan check and
the import check all use them, so all four agree on whether a log replays.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Protocol

from ka_tui.rules.air.units import AirUnit, Airman, Damage
from ka_tui.rules.air.aircraft import (
    AircraftClass,
    AircraftProfile,
    Echelon,
    EngineKind,
    Manoeuvre,
    ManoeuvreKind,
    Trait,
    TurnBand,
)
from ka_tui.store.errors import ValidationError

if TYPE_CHECKING:
    from ka_tui.rules.air.battle import Battle, Event
    from ka_tui.rules.air.hexgrid import Hex
    from ka_tui.rules.campaign.people import Person
    from ka_tui.rules.campaign.repair import Plane
    from ka_tui.rules.core.options import AirOptions, HouseRules
    from ka_tui.rules.core.skills import Skill
    from ka_tui.rules.cqc import Fighter



class StoredEvent(Protocol):
    """A stored log event as this module reads it (``events.LogEvent``)."""

    @property
    def kind(self) -> str: ...
    @property
    def payload(self) -> Any: ...
    @property
    def seq(self) -> int: ...


# ================================================================ aircraft

PROFILE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(AircraftProfile))
JSON_FIELDS = ("manoeuvres", "test_echelons", "traits", "turn_mode")


def _get(row: Any, key: str) -> Any:
    if isinstance(row, Mapping):
        return row[key]
    return getattr(row, key)


def _json(row: Any, key: str) -> Any:
    raw = _get(row, key)
    if not isinstance(raw, str):
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        raise ValidationError(key, "is not valid JSON") from None


def to_profile(row: Any) -> AircraftProfile:
    """The rules' view of an aircraft row (or dict). Raises ``ValidationError``
    naming the column when a stored value cannot be read."""
    key = ""
    try:
        key = "aircraft_class"
        cls = AircraftClass(_get(row, key))
        key = "engine_kind"
        kind = EngineKind(_get(row, key))
        key = "ceiling"
        ceiling = Echelon(_get(row, key))
        key = "manoeuvres"
        manoeuvres = tuple(Manoeuvre(ManoeuvreKind(k), int(s), bool(st))
                           for k, s, st in _json(row, key))
        key = "test_echelons"
        echelons = frozenset(Echelon(e) for e in _json(row, key))
        key = "traits"
        traits = tuple((Trait(t), None if n is None else int(n)) for t, n in _json(row, key))
        key = "turn_mode"
        turn_mode = tuple(TurnBand(int(a), int(b)) for a, b in _json(row, key))
    except (ValueError, TypeError, KeyError) as e:
        if isinstance(e, ValidationError):
            raise
        raise ValidationError(key, f"cannot be read ({e})") from None
    plain = {name: _get(row, name) for name in PROFILE_FIELDS
             if name not in JSON_FIELDS and name not in
             ("aircraft_class", "engine_kind", "ceiling")}
    plain["roll"], plain["loop"], plain["immelmann"] = (
        bool(plain["roll"]), bool(plain["loop"]), bool(plain["immelmann"]))
    return AircraftProfile(aircraft_class=cls, engine_kind=kind, ceiling=ceiling,
                           manoeuvres=manoeuvres, test_echelons=echelons, traits=traits,
                           turn_mode=turn_mode, **plain)


def from_profile(p: AircraftProfile) -> dict[str, Any]:
    """Row column values for a profile (live status not included)."""
    out: dict[str, Any] = {name: getattr(p, name) for name in PROFILE_FIELDS}
    out["aircraft_class"] = p.aircraft_class.value
    out["engine_kind"] = p.engine_kind.value
    out["ceiling"] = int(p.ceiling)
    out["manoeuvres"] = json.dumps([[m.kind.value, m.speed, m.stressful] for m in p.manoeuvres])
    out["test_echelons"] = json.dumps(sorted(int(e) for e in p.test_echelons))
    out["traits"] = json.dumps([[t.value, n] for t, n in p.traits])
    out["turn_mode"] = json.dumps([[b.min_speed, b.hexes] for b in p.turn_mode])
    return out


def damage_of(row: Any) -> Damage:
    """Live damage of an aircraft row as the rules' ``Damage``.

    The ``damage`` column holds ``{"effects": {location: n}, "hits": {location: n}}``:
    location effects in force and where each hull hit landed (air_state.Damage).
    """
    stored = _json(row, "damage")
    if not isinstance(stored, dict):
        raise ValidationError("damage", "must be a table")
    try:
        return Damage(int(_get(row, "hull_hits")), _pairs(stored.get("effects", {})),
                      _pairs(stored.get("hits", {})))
    except (TypeError, ValueError, AttributeError):
        raise ValidationError("damage", "must map locations to whole numbers") from None


def _pairs(table: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((str(k), int(v)) for k, v in table.items()))


def damage_columns(damage: Damage) -> dict[str, Any]:
    """Row values for a ``Damage`` (hull hits and the per-location tables)."""
    stored: dict[str, dict[str, int]] = {}
    if damage.locations:
        stored["effects"] = dict(damage.locations)
    if damage.located_hits:
        stored["hits"] = dict(damage.located_hits)
    return {"hull_hits": damage.hull_hits, "damage": json.dumps(stored, sort_keys=True)}


def airman_of(character: Any) -> Airman:
    """The air rules' view of a character (R-2 ratings, R-4 endurance, R-5 wounds)."""
    return Airman(name=_get(character, "name"), piloting=_get(character, "piloting"),
                  gunnery=_get(character, "gunnery"), endurance=_get(character, "endurance"),
                  wounds=_get(character, "wounds"), conscious=bool(_get(character, "conscious")))


def air_unit_of(aircraft: Any, pilot: Any, crew: Sequence[Any], *, side: str, at: Hex,
                facing: int, altitude: int, speed: int, landed: bool) -> AirUnit:
    """A roster aircraft with its seated pilot and crew as a unit placed for a
    battle: its live status (damage, fuel, ammunition, overheat) from the row;
    on the ground (``landed``, R-10) at speed 0."""
    profile = to_profile(aircraft)
    return AirUnit(
        id=str(_get(aircraft, "name")), side=side.strip(), profile=profile,
        pilot=airman_of(pilot), crew=tuple(airman_of(c) for c in crew), hex=at,
        facing=facing, altitude=altitude, speed=0 if landed else speed,
        overheat=int(_get(aircraft, "overheat")), wm_uses_left=profile.wm_uses,
        fuel=int(_get(aircraft, "fuel_left")), ammo=int(_get(aircraft, "ammo_left")),
        damage=damage_of(aircraft), landed=landed)


def plane_of(row: Sequence[Any]) -> Plane:
    """(id, name, hull, hull_hits, damage JSON) -> the campaign rules' ``Plane``
    (a damage table that does not read is no damage by location)."""
    from ka_tui.rules.campaign.repair import Plane

    aid, name, hull, hits, raw = row
    try:
        table = json.loads(raw) if raw else {}
    except ValueError:
        table = {}
    table = table if isinstance(table, dict) else {}

    def pairs(key: str) -> tuple[tuple[str, int], ...]:
        got = table.get(key, {})
        return tuple(sorted((str(k), int(v)) for k, v in got.items())) \
            if isinstance(got, dict) else ()

    return Plane(int(aid), str(name), int(hull), int(hits), pairs("effects"), pairs("hits"),
                 str(table.get("lost", "") or ""))


# ================================================================ people

PERSON_COLUMNS = ("c.id, c.name, c.role, c.wounds, c.conscious, c.k_points, c.k_points_max, "
                  "coalesce(p.rest_days, 0), coalesce(p.missing, 0), coalesce(p.days_out, 0)")


def person_of(row: Sequence[Any]) -> Person:
    """A character with his recovery (``PERSON_COLUMNS`` of ``character c``
    LEFT JOIN ``person_state p``) -> the campaign rules' ``Person``."""
    from ka_tui.rules.campaign.people import Person

    i, n, r, w, cs, k, km, rd, mi, do = row
    return Person(int(i), str(n), str(r), int(w), bool(cs), int(k), int(km), int(rd),
                  bool(mi), int(do))


# ================================================================ skills

def skill_of(row: Mapping[str, Any]) -> Skill:
    """A stored skill row as the rules' ``Skill`` (S0 §Skills): an Active or
    Lore skill with its level (B when none is stored) and upgrades; a Base or
    Passive skill one d12, without a level or upgrades."""
    from ka_tui.rules.core.roll_choices import skill_of_row

    return skill_of_row(str(row["name"]), str(row["kind"]), int(row["number"]),
                        str(row.get("level") or "B"), int(row.get("upgrades") or 0))


# ================================================================ fights

CLOSE_COMBAT = "close combat"
COMBAT_INITIATIVE = "combat initiative"


@dataclass(frozen=True)
class FighterCandidate:
    """A roster character as a possible combatant, with why he cannot fight."""

    id: int
    name: str
    fighter: Fighter
    weapon_rows: tuple[tuple[int, str], ...]
    skill_note: str
    unable: str = ""

    @property
    def fid(self) -> str:
        return self.fighter.id


def fighter_of(character: Mapping[str, Any], skills: Sequence[Mapping[str, Any]],
               weapons: Sequence[Mapping[str, Any]], rules: HouseRules) -> FighterCandidate:
    """A roster character as a ``Fighter`` (S0 §Close combat).

    Close Combat skill for step 4 (its pool from the rules core's ``pool_of``);
    without one, house rule ``cqc.untrained_close_combat`` (one d12 on Agility
    by default, as step 1 falls back to Agility). Combat Initiative for step 1
    when he has it. AP = the character's AP, K-points his current K-points;
    only quick-slot weapons can be used or taken (S0 §2.2 Disarm).
    """
    from ka_tui.rules.core.options import UntrainedCloseCombat
    from ka_tui.rules.core.skills import pool_of
    from ka_tui.rules.cqc import Fighter, Weapon

    by_name = {str(s["name"]).casefold(): s for s in skills
               if str(s["kind"]) in ("active", "lore")}
    cc_row, ci_row = by_name.get(CLOSE_COMBAT), by_name.get(COMBAT_INITIATIVE)
    if cc_row is not None:
        cc = skill_of(cc_row)
        cc_pool, cc_number, legendary = pool_of(cc), cc.number, bool(cc_row.get("legendary"))
        note = f"Close Combat {cc.number}"
    elif rules.cqc.untrained_close_combat is UntrainedCloseCombat.WEAPONS:
        cc_pool, cc_number, legendary = (12,), int(character["base_weapons"]), False
        note = f"no Close Combat: Weapons {cc_number} (d12)"
    else:
        cc_pool, cc_number, legendary = (12,), int(character["agility"]), False
        note = f"no Close Combat: Agility {cc_number} (d12)"
    ci_pool: tuple[int, ...] = ()
    ci_number = 0
    if ci_row is not None:
        ci = skill_of(ci_row)
        ci_pool, ci_number = pool_of(ci), ci.number
    slotted = sorted((w for w in weapons if w.get("quick_slot") is not None),
                     key=lambda w: int(w["quick_slot"]))
    fighter = Fighter.new(
        str(character["id"]), str(character["name"]),
        strength=int(character["strength"]), agility=int(character["agility"]),
        cc_number=cc_number, cc_pool=cc_pool, cc_legendary=legendary,
        ap_max=int(character["ap"]), resistance=int(character["resistance"]),
        armour=int(character["armour"]), k_points=int(character["k_points"]),
        weapons=[Weapon(str(w["name"]), int(w["damage"]), bool(w["is_firearm"]))
                 for w in slotted],
        ci_pool=ci_pool, ci_number=ci_number,
        # S0 §Skills Passive: his Passive skills, and whether his round test
        # is the d12 a Passive adds to (no Close Combat skill)
        passives=[(str(s["name"]), int(s["number"])) for s in skills
                  if str(s["kind"]) == "passive"],
        cc_untrained=cc_row is None)
    unable = ""
    if not character.get("conscious", True):
        unable = "unconscious"
    elif int(character["k_points"]) <= 0:
        unable = "no K-points left"
    return FighterCandidate(int(character["id"]), str(character["name"]), fighter,
                            tuple((int(w["id"]), str(w["name"])) for w in slotted), note,
                            unable)


def fight_items(events: Sequence[StoredEvent]) -> list[tuple[str, Any]]:
    """A fight's stored events as the ``(kind, payload)`` pairs the close-combat
    log replays (``rules/cqc/log.py``; its start records the house rules)."""
    return [(e.kind, e.payload) for e in events]


# ================================================================ battles

def battle_event(event: StoredEvent) -> Event:
    """A stored battle event as the rules' ``Event``: the rules count events
    from 0 (``seq`` 1 in the store is the rules' 0)."""
    payload = event.payload if isinstance(event.payload, Mapping) else {}
    return {"seq": event.seq - 1, "kind": event.kind, "data": payload.get("data", {}),
            "faces": payload.get("faces", []), "log": payload.get("log", [])}


def battle_events(events: Sequence[StoredEvent]) -> list[Event]:
    return [battle_event(e) for e in events]


def stored_payload(event: Mapping[str, Any]) -> dict[str, Any]:
    """What the store keeps of a rules event (its kind and place are columns)."""
    return {"data": event.get("data", {}), "faces": event.get("faces", []),
            "log": event.get("log", [])}


def battle_fallback(campaign_rules: HouseRules) -> AirOptions:
    """The air house rules a battle log that recorded none replays under: the
    campaign's own (the module's docstring says why)."""
    return campaign_rules.air


def replay_battle(events: Sequence[StoredEvent], campaign_rules: HouseRules) -> Battle:
    """A stored battle log replayed through the rules (``Battle.from_events``;
    the logged faces are the only dice), on the map its start recorded, under
    the rules it recorded or else ``battle_fallback``. Raises the rules'
    ``ReplayError`` (or ``ValueError`` for a map that does not read)."""
    from ka_tui.rules.air.battle import Battle, ReplayError
    from ka_tui.rules.air.battle_map import parse_map

    rules_events = battle_events(events)
    if not rules_events:
        raise ReplayError("an empty log has no battle")
    start = rules_events[0].get("data", {})
    battle_map = parse_map(str(start.get("map") or ""))
    return Battle.from_events(rules_events, battle_map, battle_fallback(campaign_rules))
