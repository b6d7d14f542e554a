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
from ka_tui.store.aircraft_rows import damage_columns
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


def _demo_battle(db: CampaignDB) -> None:
    """One saved map and one battle in progress, so the air-battle mode shows a
    live map at once (issue 10)."""
    saved = maps.save_map(db, DEMO_MAP_NAME, DEMO_MAP,
                          notes="Home strip, a carrier offshore, hills up to height 3.")
    planes = {a.name: a.id for a in roster.list_aircraft(db)}
    places = [battles.Placement(planes[name] or 0, side, Hex.from_offset(col, row), facing,
                                level, speed)
              for name, side, (col, row), facing, level, speed in _DEMO_PLACES]
    battle_id = battles.start_battle(db, places, map_id=saved.id, name=DEMO_BATTLE, at=DEMO_AT)
    loaded = battles.load_battle(db, battle_id)
    dice = ScriptedDice.of(_DEMO_TURN_FACES)
    loaded.battle.begin_turn(dice)
    assert dice.exhausted, "the demo's turn start needs other dice"
    battles.commit(db, battle_id, loaded.battle.events[-1], at=DEMO_AT)


def create_demo(path: Path, name: str = DEMO_NAME) -> CampaignDB:
    """A new demo campaign at ``path`` (which must not exist yet)."""
    return create_campaign(path, name, populate=populate_demo)
