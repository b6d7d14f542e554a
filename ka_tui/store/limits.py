"""Field ranges shared by the forms, the service checks and the DB CHECKs.

Pure data with no heavy imports, so a form can validate as the user types with
the very numbers the database enforces (``tests/store/test_limits.py`` proves
each range is also a CHECK constraint in the schema).

Where the seeds give no bound the number is a generous house limit, marked so.
"""

from __future__ import annotations

from typing import Final

NAME_MAX: Final = 60
TEXT_MAX: Final = 4000

LEVELS: Final = ("B", "T", "E", "M", "L")
LEVEL_NAMES: Final = {"B": "Basic", "T": "Trained", "E": "Expert", "M": "Master", "L": "Legendary"}
# RULES-NOTES A: an upgrade is a count per skill, bounded by the level's maximum.
MAX_UPGRADES: Final = {"B": 1, "T": 2, "E": 1, "M": 1, "L": 4}
SKILL_KINDS: Final = ("active", "passive", "lore")
ROLES: Final = ("pilot", "crew", "ground")
# S0 §Skills: "There are only 5 Base skills".
BASE_SKILLS: Final = ("weapons", "tech", "survival", "communication", "psy")
CHARACTERISTICS: Final = ("strength", "agility", "endurance", "resistance", "armour")
# House limit: S0 §Close combat names "quick slots" but not how many.
QUICK_SLOTS: Final = 4
ENGINE_COUNTS: Final = (1, 2, 4)

CHARACTER_RANGES: Final[dict[str, tuple[int, int]]] = {
    # S0 characteristics are rolled like a skill number on d12 vs 13; 0..12 (house)
    "strength": (0, 12),
    "agility": (0, 12),
    "endurance": (0, 12),
    "resistance": (0, 12),
    "armour": (0, 12),
    "ap": (0, 30),            # RULES-NOTES B: default 6
    "k_points": (0, 99),      # current, also ≤ k_points_max
    "k_points_max": (1, 99),
    "wounds": (0, 6),         # six wounds is death
    "piloting": (2, 12),      # 2d6 target ratings, lower is better
    "gunnery": (2, 12),
    "base_weapons": (0, 12),  # S0 §Skills: the 5 Base skills' numbers
    "base_tech": (0, 12),
    "base_survival": (0, 12),
    "base_communication": (0, 12),
    "base_psy": (0, 12),
}

SKILL_RANGES: Final[dict[str, tuple[int, int]]] = {
    "number": (0, 12),   # S0 §Skills: number + die vs magic 13
    "upgrades": (0, 4),  # further bounded by MAX_UPGRADES[level]
}

WEAPON_RANGES: Final[dict[str, tuple[int, int]]] = {
    "damage": (0, 20),   # RULES-NOTES B: K-points lost on a failed save
    "quick_slot": (1, QUICK_SLOTS),
}

AIRCRAFT_RANGES: Final[dict[str, tuple[int, int]]] = {
    "engines": (1, 4),   # and one of ENGINE_COUNTS
    "move": (1, 12),     # speed never above 12
    "dive_max": (1, 12), # and ≥ move
    "ceiling": (1, 6),   # S0 §Altitude explained: Deck … Edge
    "firepower": (0, 12),
    "hull": (1, 40),
    "evasion": (0, 12),
    "thrust": (0, 20),
    "afterburner_thrust": (1, 30),  # and > thrust
    "wm_thrust": (1, 20),
    "wm_uses": (0, 20),
    "wm_altitude_limit": (1, 6),
    "g_rating": (0, 12),
    "landing_speed": (1, 12),
    "takeoff_run": (1, 30),
    "fuel": (0, 999),
    "ammo": (0, 999),
    "control_surfaces": (0, 12),
    "gear_legs": (0, 12),
    # live status
    "hull_hits": (0, 40),   # and ≤ hull
    "fuel_left": (0, 999),  # and ≤ fuel
    "ammo_left": (0, 999),  # and ≤ ammo
    "overheat": (0, 12),
}

RANGES: Final[dict[str, dict[str, tuple[int, int]]]] = {
    "character": CHARACTER_RANGES,
    "skill": SKILL_RANGES,
    "weapon": WEAPON_RANGES,
    "aircraft": AIRCRAFT_RANGES,
}
