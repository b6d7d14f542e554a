"""The demo campaign: a small squadron so every screen has something to show.

Pilots, crew and ground characters cover every skill level (S0 §Skills B/T/E/M/L,
with upgrades), and the aircraft cover the classes of R-7…R-10 — single-engine
fighters (the Tempest S0 §Altitude explained names), a heavy fighter, an attack
aircraft, a twin-engine bomber and a turbine fighter — from ``rules.profiles``.
Deterministic: no clock, no dice; the same file every time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.air.units import Damage
from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.air.profiles import BEAUFIGHTER, IL2, METEOR, MITCHELL, SPITFIRE, TEMPEST
from ka_tui.store import battles, maps, roster
from ka_tui.store.rows_to_rules import damage_columns
from ka_tui.store.campaign import set_campaign_notes
from ka_tui.store.db import CampaignDB, create_campaign

DEMO_NAME = "King's Angels (demo)"

# name, role, fields; then skills (name, kind, number, level, upgrades); weapons
# (name, damage, firearm, quick slot).
_PEOPLE: tuple[tuple[str, str, dict[str, Any], tuple[tuple[str, str, int, str, int], ...],
                     tuple[tuple[str, int, bool, int | None], ...]], ...] = (
    ("Arthur Hale", "pilot",
     dict(strength=3, agility=5, endurance=4, resistance=3, armour=0, ap=7, k_points=12,
          k_points_max=12, piloting=3, gunnery=4, base_weapons=5, base_tech=3,
          base_survival=4, base_communication=5, base_psy=2,
          notes="Squadron leader. Flies the Tempest; never turns down a head-on pass."),
     (("Fighter Piloting", "active", 7, "L", 2), ("Aerial Gunnery", "active", 6, "M", 1),
      ("Combat Initiative", "active", 5, "E", 1), ("Leadership", "lore", 5, "E", 0),
      ("Brawl", "passive", 2, "B", 0)),
     (("Service revolver", 3, True, 1), ("Flight knife", 2, False, 2))),
    ("Jeanne Moreau", "pilot",
     dict(strength=2, agility=6, endurance=3, resistance=3, piloting=4, gunnery=4,
          base_weapons=4, base_tech=4, base_communication=4,
          notes="Free French. Best deflection shot in the squadron."),
     (("Fighter Piloting", "active", 6, "M", 1), ("Aerial Gunnery", "active", 7, "M", 0),
      ("Close Combat", "active", 3, "T", 0), ("Navigation", "lore", 4, "T", 1)),
     (("Pistol", 3, True, 1),)),
    ("Kasia Nowak", "pilot",
     dict(strength=3, agility=4, endurance=5, resistance=4, piloting=5, gunnery=5,
          base_survival=5, notes="Heavy-fighter pilot; steady under fire."),
     (("Twin-engine Piloting", "active", 5, "E", 1), ("Aerial Gunnery", "active", 4, "T", 2),
      ("Survival", "passive", 3, "B", 0)),
     (("Pistol", 3, True, 1), ("Bayonet", 2, False, 2))),
    ("Olga Petrova", "pilot",
     dict(strength=4, agility=4, endurance=5, resistance=5, armour=1, piloting=5, gunnery=5,
          notes="Shturmovik pilot on exchange. Low and slow, and proud of it."),
     (("Ground-attack Piloting", "active", 5, "E", 0), ("Aerial Gunnery", "active", 4, "T", 1),
      ("Close Combat", "active", 4, "T", 0)),
     (("TT pistol", 3, True, 1),)),
    ("Tom Reilly", "pilot",
     dict(strength=3, agility=3, endurance=3, resistance=3, piloting=6, gunnery=7,
          base_psy=4, notes="New boy. Flies the Mitchell; lucky so far."),
     (("Bomber Piloting", "active", 4, "T", 0), ("Aerial Gunnery", "active", 3, "B", 1)),
     (("Pistol", 3, True, 1),)),
    ("Eddie Baker", "crew",
     dict(strength=4, agility=3, endurance=4, resistance=4, piloting=9, gunnery=5,
          base_tech=5, notes="Turret gunner on the Mitchell."),
     (("Turret Gunnery", "active", 5, "E", 0), ("Aircraft Mechanics", "active", 4, "T", 0)),
     (("Knife", 2, False, 1),)),
    ("Ruth Adler", "crew",
     dict(strength=2, agility=3, endurance=3, resistance=3, piloting=8, gunnery=7,
          base_communication=6, base_tech=5, notes="Navigator and radio operator."),
     (("Navigation", "lore", 6, "M", 1), ("Radio", "active", 5, "E", 0)),
     ()),
    ("Sam Okoro", "crew",
     dict(strength=3, agility=4, endurance=4, resistance=3, piloting=8, gunnery=6,
          base_tech=6, notes="Radar operator on the Beaufighter."),
     (("Radar", "active", 5, "T", 1), ("Aircraft Mechanics", "active", 3, "B", 0)),
     (("Pistol", 3, True, 1),)),
    ("Mike Dunn", "ground",
     dict(strength=6, agility=4, endurance=6, resistance=5, armour=2, ap=8, k_points=14,
          k_points_max=14, piloting=11, gunnery=8, base_weapons=6, base_survival=6,
          notes="Airfield defence sergeant."),
     (("Close Combat", "active", 7, "L", 1), ("Assault Rifles", "active", 5, "T", 2),
      ("Combat Initiative", "active", 5, "M", 0), ("Brawl", "passive", 4, "B", 0)),
     (("Sten gun", 4, True, 1), ("Fighting knife", 2, False, 2), ("Grenade", 6, True, 3))),
    ("Ilse Brandt", "ground",
     dict(strength=2, agility=3, endurance=3, resistance=3, k_points=8, k_points_max=10,
          wounds=1, piloting=10, gunnery=10, base_tech=6, base_psy=5,
          notes="Medical officer. Wounded in the last raid; still working."),
     (("Medicine", "lore", 6, "M", 1), ("First Aid", "active", 5, "E", 1),
      ("Lore: Medieval Siege", "lore", 3, "E", 0)),
     (("Scalpel", 1, False, 1),)),
    ("Yusuf Karim", "ground",
     dict(strength=5, agility=3, endurance=5, resistance=4, piloting=9, gunnery=9,
          base_tech=7, notes="Chief mechanic. Keeps the Tempest flying."),
     (("Aircraft Mechanics", "active", 7, "M", 1), ("Engines", "active", 6, "E", 1),
      ("Brawl", "passive", 3, "B", 0)),
     (("Wrench", 2, False, 1),)),
)

# row name, profile, pilot, crew, live status
_AIRCRAFT: tuple[tuple[str, Any, str | None, tuple[str, ...], dict[str, Any]], ...] = (
    ("Tempest KA-A", TEMPEST, "Arthur Hale", (), {}),
    ("Spitfire KA-B", SPITFIRE, "Jeanne Moreau", (),
     dict(fuel_left=11, ammo_left=5, overheat=1,
          **damage_columns(Damage(1, (), (("left_wing", 1),))))),
    ("Beaufighter KA-C", BEAUFIGHTER, "Kasia Nowak", ("Sam Okoro",), {}),
    ("Il-2 KA-D", IL2, "Olga Petrova", (),
     dict(**damage_columns(Damage(2, (("control_surfaces", 1),),
                                  (("control_surfaces", 1), ("fuselage", 1)))))),
    ("Mitchell KA-E", MITCHELL, "Tom Reilly", ("Eddie Baker", "Ruth Adler"), {}),
    ("Meteor KA-F", METEOR, None, (), {}),
)


# The demo's map (rules/air/battle_map.py text format; store/maps.py): hills up
# to height 3, a forest, a river into the sea, the squadron's prepared
# strip and a carrier offshore.
DEMO_MAP_NAME = "Channel coast"
DEMO_MAP = """\
# Channel coast: the squadron's exercise area (. open  ~ water  f forest
# r rough; a number is a hill's height in altitude levels)
.  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
.  .  .  .  .  .  1  1  .  .  .  .  .  .  f  f  .  .  .  .
.  .  .  .  .  1  2  2  1  .  .  .  .  f  f  f  f  .  .  .
.  .  .  .  .  .  1  3  1  .  .  .  .  .  f  f  .  .  .  .
.  .  .  .  .  .  .  1  .  .  .  .  .  .  .  .  .  .  .  .
~  ~  .  .  .  .  .  .  .  .  .  .  r  r  .  .  .  .  .  .
.  ~  ~  ~  .  .  .  .  .  .  .  .  r  2  r  .  .  .  .  .
.  .  .  ~  ~  ~  .  .  .  .  .  .  .  r  .  .  .  ~  ~  ~
.  .  .  .  .  ~  ~  ~  .  .  .  .  .  .  .  ~  ~  ~  ~  ~
.  .  .  .  .  .  .  ~  ~  ~  .  .  .  ~  ~  ~  ~  ~  ~  ~
.  .  .  .  .  .  .  .  .  ~  ~  ~  ~  ~  ~  ~  ~  ~  ~  ~
.  .  .  .  .  .  .  .  .  .  .  ~  ~  ~  ~  ~  ~  ~  ~  ~
strip Home 1,11 N 5 1 prepared
carrier Ark 17,11 N 4 1
"""

# The battle in progress: a training bounce over the coast, two aircraft a side,
# turn 1 begun (initiative 4+5 = 9 for Blue against 3+2 = 5 for Red, R-1.1;
# everyone fast enough not to stall, R-3.2). A fixed time stamp: the demo
# holds no clock value.
DEMO_BATTLE = "Exercise: Blue vs Red"
DEMO_AT = "1944-06-06T06:00:00Z"
_DEMO_PLACES: tuple[tuple[str, str, tuple[int, int], int, int, int], ...] = (
    # aircraft, side, (col, row), facing (0 N … 5 NW), altitude level, speed
    ("Tempest KA-A", "Blue", (2, 3), 2, 3, 9),
    ("Spitfire KA-B", "Blue", (2, 5), 1, 3, 9),
    ("Beaufighter KA-C", "Red", (17, 2), 4, 3, 8),
    ("Il-2 KA-D", "Red", (17, 5), 5, 2, 6),
)
_DEMO_TURN_FACES = (4, 5, 3, 2)


def populate_demo(db: CampaignDB) -> None:
    """Fill an empty campaign with the demo squadron (through the roster service,
    as one transaction)."""
    with db.batch():
        _populate(db)


def _populate(db: CampaignDB) -> None:
    set_campaign_notes(db, "A fictional squadron for trying ka-tui: six aircraft, "
                           "eleven people, every skill level.")
    ids: dict[str, int] = {}
    for name, role, fields, skills, weapons in _PEOPLE:
        who = roster.add_character(db, name=name, role=role, **fields)
        assert who.id is not None
        ids[name] = who.id
        for sname, kind, number, level, upgrades in skills:
            roster.add_skill(db, who.id, name=sname, kind=kind, number=number,
                             level=level, upgrades=upgrades)
        for wname, damage, firearm, slot in weapons:
            roster.add_weapon(db, who.id, name=wname, damage=damage, is_firearm=firearm,
                              quick_slot=slot)
    for name, profile, pilot, crew, status in _AIRCRAFT:
        row = roster.add_aircraft(db, profile, name=name, **status)
        assert row.id is not None
        if pilot:
            roster.assign_pilot(db, row.id, ids[pilot])
        if crew:
            roster.set_crew(db, row.id, [ids[c] for c in crew])
    _demo_battle(db)
    _demo_history(db, ids)


def _demo_battle(db: CampaignDB) -> None:
    """One saved map and one battle in progress, so the air-battle mode shows a
    live map at once."""
    saved = maps.save_map(db, DEMO_MAP_NAME, DEMO_MAP,
                          notes="Home strip, a carrier offshore, hills up to height 3.")
    planes = {a.name: a.id for a in roster.list_aircraft(db)}
    places = [battles.StartPosition(planes[name] or 0, side, Hex.from_offset(col, row), facing,
                                    level, speed)
              for name, side, (col, row), facing, level, speed in _DEMO_PLACES]
    battle_id = battles.start_battle(db, places, map_id=saved.id, name=DEMO_BATTLE, at=DEMO_AT)
    loaded = battles.load_battle(db, battle_id)
    dice = ScriptedDice.of(_DEMO_TURN_FACES)
    loaded.battle.begin_turn(dice)
    assert dice.exhausted, "the demo's turn start needs other dice"
    battles.commit(db, battle_id, loaded.battle.events[-1], at=DEMO_AT)


# A short history, so ``ka-tui --demo`` then ``5`` shows a living
# campaign: two missions flown (their debriefs as the campaign mode confirms
# them), a raid on the airfield that wounded Ilse Brandt (the roster's wounded
# character: a pilot's wounds would change the roster's rows), the Il-2 in the
# repair queue, the Spitfire's hull hit waiting, and a mission planned for
# today. Fixed days and stamps: the demo holds no clock value.
DEMO_DAY = "1944-06-06"
_HISTORY: tuple[tuple[str, str, str, str, tuple[tuple[str, str | None], ...], dict[str, Any],
                      str], ...] = (
    ("Dawn patrol", "1944-06-03", "patrol",
     "Two fighters along the coast at first light; report any shipping.",
     (("Arthur Hale", "Tempest KA-A"), ("Jeanne Moreau", "Spitfire KA-B")),
     {"kills": {"Arthur Hale": 1, "Jeanne Moreau": 1},
      "aircraft": {"Spitfire KA-B": (1, 4, 9)}, "lines": (
          "turn 3: Tempest KA-A shot down a Bf 109 (Dawn patrol)",
          "turn 4: Spitfire KA-B shot down a Bf 109 (Dawn patrol)")},
     "Two Bf 109s bounced out of the sun; both went into the sea. "
     "Moreau's left wing holed."),
    ("Bridge at Caen", "1944-06-04", "ground attack",
     "Il-2 on the bridge, the Beaufighter flies top cover.",
     (("Olga Petrova", "Il-2 KA-D"), ("Kasia Nowak", "Beaufighter KA-C"),
      ("Sam Okoro", "Beaufighter KA-C")),
     {"kills": {}, "aircraft": {"Il-2 KA-D": (2, 6, 8)}, "lines": ()},
     "Bridge down on the second pass. Flak hit the Il-2's controls."),
)


def _demo_history(db: CampaignDB, people: dict[str, int]) -> None:
    import json

    from ka_tui.store import journal
    from ka_tui.store.campaign_state import set_day

    planes = {a.name: int(a.id or 0) for a in roster.list_aircraft(db)}
    with db.batch() as s:
        def sql(q: str, *args: Any) -> Any:
            return s.connection().exec_driver_sql(q, args)

        def note(kind: str, text: str, day: str, who: tuple[str, ...] = (),
                 what: tuple[str, ...] = (), mission: int | None = None) -> None:
            journal.add(db, kind, text, day=day, characters=[people[w] for w in who],
                        aircraft=[planes[a] for a in what], mission=mission, at=DEMO_AT)

        note("note", "The squadron moves to the Channel coast strip.\n"
                     "Six aircraft, eleven people; the Meteor still waits for a pilot.",
             "1944-06-01")
        for name, day, kind, briefing, crew, result, notes in _HISTORY:
            mid = int(sql("INSERT INTO mission (name, day, kind, briefing) VALUES (?, ?, ?, ?)",
                          name, day, kind, briefing).lastrowid)
            for who, plane in crew:
                sql("INSERT INTO mission_member (mission_id, character_id, aircraft_id) "
                    "VALUES (?, ?, ?)", mid, people[who], planes[plane] if plane else None)
            note("mission", f"Mission “{name}” ({kind}) planned for {day}", day,
                 tuple(w for w, _ in crew), tuple(dict.fromkeys(p for _, p in crew if p)), mid)
            kills = result["kills"]
            pilots = [{"character_id": people[w], "name": w, "kills": kills.get(w, 0),
                       "wounds_taken": 0, "wounds_now": 0, "shot_down_by": "", "killed": False}
                      for w, _ in crew]
            aircraft = [{"aircraft_id": planes[a], "name": a, "hull_hits_taken": h,
                         "ammo_spent": am, "fuel_spent": f, "lost": ""}
                        for a, (h, am, f) in result["aircraft"].items()]
            debrief = {"pilots": pilots, "aircraft": aircraft, "kills": list(result["lines"]),
                       "fights": [], "battles": 1, "open_battles": []}
            sql("UPDATE mission SET status = 'flown', debrief = ?, debrief_notes = ? "
                "WHERE id = ?", json.dumps(debrief, sort_keys=True), notes, mid)
            summary = [f"Mission “{name}” flown ({kind})", "Battles: 1",
                       *(f"  {w}: {kills.get(w, 0)} kill{'s' if kills.get(w, 0) != 1 else ''}"
                         for w, _ in crew), *(f"  {x}" for x in result["lines"]),
                       f"Notes: {notes}"]
            note("mission", "\n".join(summary), day, tuple(w for w, _ in crew),
                 tuple(dict.fromkeys(p for _, p in crew if p)), mid)
            for who, n in kills.items():
                note("kill", f"{who}: {n} kill in “{name}”", day, (who,), (), mid)
        sql("INSERT INTO repair (aircraft_id, queued_on, days_total, days_done, cost) "
            "VALUES (?, '1944-06-04', 4, 1, 400)", planes["Il-2 KA-D"])
        note("repair", "Il-2 KA-D into the repair queue: 4 days, cost 400", "1944-06-04",
             (), ("Il-2 KA-D",))
        note("wound", "Night raid on the airfield: Ilse Brandt wounded (1) at the aid post",
             "1944-06-05", ("Ilse Brandt",))
        sql("INSERT INTO person_state (character_id, rest_days) VALUES (?, 0)",
            people["Ilse Brandt"])
        note("time", "1 day passes: 1944-06-05 → 1944-06-06\nIl-2 KA-D: repair 1/4 days",
             DEMO_DAY, (), ("Il-2 KA-D",))
        mid = int(sql("INSERT INTO mission (name, day, kind, briefing) VALUES (?, ?, ?, ?)",
                      "Escort the Mitchell", DEMO_DAY, "escort",
                      "Tempest and Meteor-less: Hale alone covers Reilly's Mitchell "
                      "to the marshalling yards.").lastrowid)
        for who, plane in (("Arthur Hale", "Tempest KA-A"), ("Tom Reilly", "Mitchell KA-E"),
                           ("Eddie Baker", "Mitchell KA-E"), ("Ruth Adler", "Mitchell KA-E")):
            sql("INSERT INTO mission_member (mission_id, character_id, aircraft_id) "
                "VALUES (?, ?, ?)", mid, people[who], planes[plane])
        note("mission", f"Mission “Escort the Mitchell” (escort) planned for {DEMO_DAY}",
             DEMO_DAY, ("Arthur Hale", "Tom Reilly", "Eddie Baker", "Ruth Adler"),
             ("Tempest KA-A", "Mitchell KA-E"), mid)
        set_day(db, DEMO_DAY)


def create_demo(path: Path, name: str = DEMO_NAME, *, shared: bool = False) -> CampaignDB:
    """A new demo campaign at ``path`` (which must not exist yet); ``shared``
    as for ``create_campaign``."""
    return create_campaign(path, name, populate=populate_demo, shared=shared)
