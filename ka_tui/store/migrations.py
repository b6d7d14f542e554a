"""The schema as an ordered list of migrations; never edit a released step.

Migration *n* takes a file from schema ``n - 1`` to ``n``. Each is plain SQL run
in one transaction by ``db.py``, which also records the version in
``PRAGMA user_version`` and the ``ka_meta`` table and backs the file up first.
The CHECK constraints repeat ``limits.py`` on purpose: the numbers there may
grow later only through a new migration (``tests/store/test_limits.py``).
"""

from __future__ import annotations

from typing import Final

# 'KATU' — identifies a ka-tui campaign file in the SQLite header (offset 68).
APPLICATION_ID: Final = 0x4B415455

_V1: Final = """
CREATE TABLE ka_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE campaign (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    name        TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 60),
    house_rules TEXT NOT NULL DEFAULT '{}'
                CHECK (json_valid(house_rules) AND json_type(house_rules) = 'object'),
    notes       TEXT NOT NULL DEFAULT '' CHECK (length(notes) <= 4000)
);

CREATE TABLE character (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL COLLATE NOCASE UNIQUE
                  CHECK (length(trim(name)) BETWEEN 1 AND 60),
    role          TEXT NOT NULL CHECK (role IN ('pilot', 'crew', 'ground')),
    strength      INTEGER NOT NULL DEFAULT 3 CHECK (strength BETWEEN 0 AND 12),
    agility       INTEGER NOT NULL DEFAULT 3 CHECK (agility BETWEEN 0 AND 12),
    endurance     INTEGER NOT NULL DEFAULT 3 CHECK (endurance BETWEEN 0 AND 12),
    resistance    INTEGER NOT NULL DEFAULT 3 CHECK (resistance BETWEEN 0 AND 12),
    armour        INTEGER NOT NULL DEFAULT 0 CHECK (armour BETWEEN 0 AND 12),
    ap            INTEGER NOT NULL DEFAULT 6 CHECK (ap BETWEEN 0 AND 30),
    k_points      INTEGER NOT NULL DEFAULT 10 CHECK (k_points BETWEEN 0 AND 99),
    k_points_max  INTEGER NOT NULL DEFAULT 10 CHECK (k_points_max BETWEEN 1 AND 99),
    wounds        INTEGER NOT NULL DEFAULT 0 CHECK (wounds BETWEEN 0 AND 6),
    conscious     INTEGER NOT NULL DEFAULT 1 CHECK (conscious IN (0, 1)),
    piloting      INTEGER NOT NULL DEFAULT 6 CHECK (piloting BETWEEN 2 AND 12),
    gunnery       INTEGER NOT NULL DEFAULT 6 CHECK (gunnery BETWEEN 2 AND 12),
    base_weapons       INTEGER NOT NULL DEFAULT 3 CHECK (base_weapons BETWEEN 0 AND 12),
    base_tech          INTEGER NOT NULL DEFAULT 3 CHECK (base_tech BETWEEN 0 AND 12),
    base_survival      INTEGER NOT NULL DEFAULT 3 CHECK (base_survival BETWEEN 0 AND 12),
    base_communication INTEGER NOT NULL DEFAULT 3 CHECK (base_communication BETWEEN 0 AND 12),
    base_psy           INTEGER NOT NULL DEFAULT 3 CHECK (base_psy BETWEEN 0 AND 12),
    notes         TEXT NOT NULL DEFAULT '' CHECK (length(notes) <= 4000),
    CHECK (k_points <= k_points_max),
    CHECK (wounds < 6 OR conscious = 0)
);

CREATE TABLE skill (
    id           INTEGER PRIMARY KEY,
    character_id INTEGER NOT NULL REFERENCES character(id) ON DELETE CASCADE,
    name         TEXT NOT NULL COLLATE NOCASE CHECK (length(trim(name)) BETWEEN 1 AND 60),
    kind         TEXT NOT NULL CHECK (kind IN ('active', 'passive', 'lore')),
    number       INTEGER NOT NULL CHECK (number BETWEEN 0 AND 12),
    level        TEXT NOT NULL DEFAULT 'B' CHECK (level IN ('B', 'T', 'E', 'M', 'L')),
    upgrades     INTEGER NOT NULL DEFAULT 0 CHECK (upgrades BETWEEN 0 AND 4),
    legendary    INTEGER NOT NULL DEFAULT 0 CHECK (legendary IN (0, 1)),
    CHECK (upgrades <= CASE level WHEN 'B' THEN 1 WHEN 'T' THEN 2 WHEN 'E' THEN 1
                                  WHEN 'M' THEN 1 ELSE 4 END),
    CHECK (legendary = (level = 'L')),
    UNIQUE (character_id, name)
);
CREATE INDEX skill_character ON skill(character_id);

CREATE TABLE weapon (
    id           INTEGER PRIMARY KEY,
    character_id INTEGER NOT NULL REFERENCES character(id) ON DELETE CASCADE,
    name         TEXT NOT NULL COLLATE NOCASE CHECK (length(trim(name)) BETWEEN 1 AND 60),
    damage       INTEGER NOT NULL DEFAULT 1 CHECK (damage BETWEEN 0 AND 20),
    is_firearm   INTEGER NOT NULL DEFAULT 0 CHECK (is_firearm IN (0, 1)),
    quick_slot   INTEGER CHECK (quick_slot BETWEEN 1 AND 4),
    notes        TEXT NOT NULL DEFAULT '' CHECK (length(notes) <= 4000),
    UNIQUE (character_id, name),
    UNIQUE (character_id, quick_slot)
);
CREATE INDEX weapon_character ON weapon(character_id);

CREATE TABLE aircraft (
    id                INTEGER PRIMARY KEY,
    name              TEXT NOT NULL COLLATE NOCASE UNIQUE
                      CHECK (length(trim(name)) BETWEEN 1 AND 60),
    aircraft_class    TEXT NOT NULL DEFAULT 'fighter' CHECK (aircraft_class IN
                      ('fighter', 'heavy_fighter', 'attack', 'bomber', 'large')),
    engines           INTEGER NOT NULL DEFAULT 1 CHECK (engines IN (1, 2, 4)),
    engine_kind       TEXT NOT NULL DEFAULT 'piston'
                      CHECK (engine_kind IN ('piston', 'turbine', 'eternium')),
    move              INTEGER NOT NULL DEFAULT 8 CHECK (move BETWEEN 1 AND 12),
    roll              INTEGER NOT NULL DEFAULT 1 CHECK (roll IN (0, 1)),
    manoeuvres        TEXT NOT NULL DEFAULT '[]'
                      CHECK (json_valid(manoeuvres) AND json_type(manoeuvres) = 'array'),
    dive_max          INTEGER NOT NULL DEFAULT 10 CHECK (dive_max BETWEEN 1 AND 12),
    loop              INTEGER NOT NULL DEFAULT 1 CHECK (loop IN (0, 1)),
    immelmann         INTEGER NOT NULL DEFAULT 1 CHECK (immelmann IN (0, 1)),
    ceiling           INTEGER NOT NULL DEFAULT 3 CHECK (ceiling BETWEEN 1 AND 6),
    test_echelons     TEXT NOT NULL DEFAULT '[]'
                      CHECK (json_valid(test_echelons) AND json_type(test_echelons) = 'array'),
    firepower         INTEGER NOT NULL DEFAULT 3 CHECK (firepower BETWEEN 0 AND 12),
    hull              INTEGER NOT NULL DEFAULT 4 CHECK (hull BETWEEN 1 AND 40),
    evasion           INTEGER NOT NULL DEFAULT 2 CHECK (evasion BETWEEN 0 AND 12),
    traits            TEXT NOT NULL DEFAULT '[]'
                      CHECK (json_valid(traits) AND json_type(traits) = 'array'),
    thrust            INTEGER NOT NULL DEFAULT 4 CHECK (thrust BETWEEN 0 AND 20),
    afterburner_thrust INTEGER CHECK (afterburner_thrust BETWEEN 1 AND 30),
    wm_thrust         INTEGER CHECK (wm_thrust BETWEEN 1 AND 20),
    wm_uses           INTEGER NOT NULL DEFAULT 0 CHECK (wm_uses BETWEEN 0 AND 20),
    wm_altitude_limit INTEGER CHECK (wm_altitude_limit BETWEEN 1 AND 6),
    g_rating          INTEGER NOT NULL DEFAULT 3 CHECK (g_rating BETWEEN 0 AND 12),
    turn_mode         TEXT NOT NULL DEFAULT '[[1,1],[4,2],[7,3]]'
                      CHECK (json_valid(turn_mode) AND json_type(turn_mode) = 'array'
                             AND json_array_length(turn_mode) >= 1),
    landing_speed     INTEGER NOT NULL DEFAULT 3 CHECK (landing_speed BETWEEN 1 AND 12),
    takeoff_run       INTEGER NOT NULL DEFAULT 4 CHECK (takeoff_run BETWEEN 1 AND 30),
    fuel              INTEGER NOT NULL DEFAULT 20 CHECK (fuel BETWEEN 0 AND 999),
    ammo              INTEGER NOT NULL DEFAULT 10 CHECK (ammo BETWEEN 0 AND 999),
    control_surfaces  INTEGER NOT NULL DEFAULT 2 CHECK (control_surfaces BETWEEN 0 AND 12),
    gear_legs         INTEGER NOT NULL DEFAULT 3 CHECK (gear_legs BETWEEN 0 AND 12),
    hull_hits         INTEGER NOT NULL DEFAULT 0 CHECK (hull_hits BETWEEN 0 AND 40),
    damage            TEXT NOT NULL DEFAULT '{}'
                      CHECK (json_valid(damage) AND json_type(damage) = 'object'),
    fuel_left         INTEGER NOT NULL DEFAULT 20 CHECK (fuel_left BETWEEN 0 AND 999),
    ammo_left         INTEGER NOT NULL DEFAULT 10 CHECK (ammo_left BETWEEN 0 AND 999),
    overheat          INTEGER NOT NULL DEFAULT 0 CHECK (overheat BETWEEN 0 AND 12),
    pilot_id          INTEGER UNIQUE REFERENCES character(id) ON DELETE SET NULL,
    notes             TEXT NOT NULL DEFAULT '' CHECK (length(notes) <= 4000),
    CHECK (dive_max >= move),
    CHECK (afterburner_thrust IS NULL OR afterburner_thrust > thrust),
    CHECK (wm_thrust IS NULL OR wm_uses >= 1),
    CHECK (hull_hits <= hull),
    CHECK (fuel_left <= fuel),
    CHECK (ammo_left <= ammo)
);

CREATE TABLE aircraft_crew (
    aircraft_id  INTEGER NOT NULL REFERENCES aircraft(id) ON DELETE CASCADE,
    character_id INTEGER NOT NULL UNIQUE REFERENCES character(id) ON DELETE CASCADE,
    PRIMARY KEY (aircraft_id, character_id)
);
"""

# Logs for the dice roller, close combat and air battles (DESIGN.md: fights and
# battles as append-only event lists; an event may be dropped for undo, never edited).
_V2: Final = """
CREATE TABLE roll_log (
    id          INTEGER PRIMARY KEY,
    who         TEXT NOT NULL DEFAULT '',
    what        TEXT NOT NULL DEFAULT '',
    pool        TEXT NOT NULL DEFAULT '',
    faces       TEXT NOT NULL DEFAULT '[]'
                CHECK (json_valid(faces) AND json_type(faces) = 'array'),
    result      TEXT NOT NULL DEFAULT '',
    explanation TEXT NOT NULL DEFAULT '[]'
                CHECK (json_valid(explanation) AND json_type(explanation) = 'array'),
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE fight (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 60),
    status     TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'ended')),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE fight_event (
    id         INTEGER PRIMARY KEY,
    fight_id   INTEGER NOT NULL REFERENCES fight(id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    kind       TEXT NOT NULL CHECK (length(kind) BETWEEN 1 AND 60),
    payload    TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (fight_id, seq)
);
CREATE TRIGGER fight_event_append_only BEFORE UPDATE ON fight_event
BEGIN SELECT RAISE(ABORT, 'fight events are append-only'); END;

CREATE TABLE battle (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 60),
    status     TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'ended')),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE battle_event (
    id         INTEGER PRIMARY KEY,
    battle_id  INTEGER NOT NULL REFERENCES battle(id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    kind       TEXT NOT NULL CHECK (length(kind) BETWEEN 1 AND 60),
    payload    TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (battle_id, seq)
);
CREATE TRIGGER battle_event_append_only BEFORE UPDATE ON battle_event
BEGIN SELECT RAISE(ABORT, 'battle events are append-only'); END;
"""

# Battle maps saved in the campaign and reused: the plain text map
# format of ``rules/air/battle_map.py`` (``parse_map``/``format_map``), checked
# by ``store/maps.py`` before it is written. No clock column: the demo stays
# the same file every time.
_V_MAPS: Final = """
CREATE TABLE battle_map (
    id    INTEGER PRIMARY KEY,
    name  TEXT NOT NULL COLLATE NOCASE UNIQUE CHECK (length(trim(name)) BETWEEN 1 AND 60),
    text  TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 200000),
    notes TEXT NOT NULL DEFAULT '' CHECK (length(notes) <= 4000)
);
"""

# The campaign between battles: the campaign's date, missions with
# their participants and linked battles and fights, people's recovery, the
# repair queue, and the journal — a log of store/events.py (one head row, its
# entries append-only like every log's events). Dates are campaign days
# (YYYY-MM-DD), not clock times; fixed stamps keep the demo the same file.
_V_CAMPAIGN: Final = """
CREATE TABLE campaign_day (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    day TEXT NOT NULL CHECK (date(day) IS day)
);
INSERT INTO campaign_day (id, day) VALUES (1, '1944-06-01');

CREATE TABLE mission (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 60),
    day           TEXT NOT NULL CHECK (date(day) IS day),
    kind          TEXT NOT NULL DEFAULT 'patrol' CHECK (kind IN ('patrol', 'escort',
                  'intercept', 'ground attack', 'reconnaissance', 'transfer', 'other')),
    briefing      TEXT NOT NULL DEFAULT '' CHECK (length(briefing) <= 4000),
    status        TEXT NOT NULL DEFAULT 'planned'
                  CHECK (status IN ('planned', 'flown', 'aborted')),
    debrief       TEXT NOT NULL DEFAULT '{}'
                  CHECK (json_valid(debrief) AND json_type(debrief) = 'object'),
    debrief_notes TEXT NOT NULL DEFAULT '' CHECK (length(debrief_notes) <= 4000)
);
CREATE INDEX mission_day ON mission(day);

CREATE TABLE mission_member (
    mission_id   INTEGER NOT NULL REFERENCES mission(id) ON DELETE CASCADE,
    character_id INTEGER NOT NULL REFERENCES character(id) ON DELETE CASCADE,
    aircraft_id  INTEGER REFERENCES aircraft(id) ON DELETE SET NULL,
    PRIMARY KEY (mission_id, character_id)
);
CREATE INDEX mission_member_character ON mission_member(character_id);

CREATE TABLE mission_link (
    id         INTEGER PRIMARY KEY,
    mission_id INTEGER NOT NULL REFERENCES mission(id) ON DELETE CASCADE,
    battle_id  INTEGER UNIQUE REFERENCES battle(id) ON DELETE CASCADE,
    fight_id   INTEGER UNIQUE REFERENCES fight(id) ON DELETE CASCADE,
    CHECK ((battle_id IS NULL) <> (fight_id IS NULL))
);
CREATE INDEX mission_link_mission ON mission_link(mission_id);

CREATE TABLE person_state (
    character_id INTEGER PRIMARY KEY REFERENCES character(id) ON DELETE CASCADE,
    rest_days    INTEGER NOT NULL DEFAULT 0 CHECK (rest_days BETWEEN 0 AND 9999),
    missing      INTEGER NOT NULL DEFAULT 0 CHECK (missing IN (0, 1)),
    days_out     INTEGER NOT NULL DEFAULT 0 CHECK (days_out BETWEEN 0 AND 999999)
);

CREATE TABLE repair (
    id          INTEGER PRIMARY KEY,
    aircraft_id INTEGER NOT NULL REFERENCES aircraft(id) ON DELETE CASCADE,
    queued_on   TEXT NOT NULL CHECK (date(queued_on) IS queued_on),
    days_total  INTEGER NOT NULL CHECK (days_total BETWEEN 0 AND 9999),
    days_done   INTEGER NOT NULL DEFAULT 0 CHECK (days_done BETWEEN 0 AND 9999),
    cost        INTEGER NOT NULL DEFAULT 0 CHECK (cost BETWEEN 0 AND 99999999),
    status      TEXT NOT NULL DEFAULT 'queued'
                CHECK (status IN ('queued', 'done', 'written off')),
    CHECK (days_done <= days_total)
);
CREATE UNIQUE INDEX repair_open ON repair(aircraft_id) WHERE status = 'queued';

CREATE TABLE journal (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 60),
    status     TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'ended')),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
INSERT INTO journal (id, name, created_at) VALUES (1, 'Campaign journal', '1944-01-01T00:00:00Z');

CREATE TABLE journal_event (
    id         INTEGER PRIMARY KEY,
    journal_id INTEGER NOT NULL REFERENCES journal(id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    kind       TEXT NOT NULL CHECK (length(kind) BETWEEN 1 AND 60),
    payload    TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    UNIQUE (journal_id, seq)
);
CREATE TRIGGER journal_event_append_only BEFORE UPDATE ON journal_event
BEGIN SELECT RAISE(ABORT, 'journal entries are append-only'); END;
"""

# A mistaken roll is struck from the log, never deleted: kept,
# marked with when (UTC, ISO 8601) and by whom (the login name); NULL = standing.
_V_ROLL_STRIKES: Final = """
ALTER TABLE roll_log ADD COLUMN struck_at TEXT
    CHECK (struck_at IS NULL OR length(struck_at) BETWEEN 1 AND 40);
ALTER TABLE roll_log ADD COLUMN struck_by TEXT NOT NULL DEFAULT ''
    CHECK (length(struck_by) <= 60);
"""

# The table server (``ka-tui serve``): the players the GM seats at the table
# and how each may come in. ``player_key``: an SSH public key bound to one
# character (``ALGORITHM BASE64``, the comment apart); ``player_pass``: a
# one-time join code or a browser link's token, kept only as the SHA-256 of
# the secret (the secret itself is shown once, when made); revoked ones stay,
# refused, so a revoked key is told so. ``table_connection``: who is
# connected, by which way, since when, and the GM's request to drop one (the
# server acts on it); ``table_server``: the server running for this file.
# Times are UTC, ISO 8601. None of it is exported: seats belong to the table.
_V_TABLE: Final = """
CREATE TABLE player_key (
    id           INTEGER PRIMARY KEY,
    character_id INTEGER NOT NULL REFERENCES character(id) ON DELETE CASCADE,
    key          TEXT NOT NULL UNIQUE CHECK (length(key) BETWEEN 20 AND 16000),
    comment      TEXT NOT NULL DEFAULT '' CHECK (length(comment) <= 200),
    added_at     TEXT NOT NULL CHECK (length(added_at) BETWEEN 1 AND 40),
    added_by     TEXT NOT NULL CHECK (added_by IN ('gm', 'join code')),
    revoked_at   TEXT CHECK (revoked_at IS NULL OR length(revoked_at) BETWEEN 1 AND 40)
);
CREATE INDEX player_key_character ON player_key(character_id);

CREATE TABLE player_pass (
    id           INTEGER PRIMARY KEY,
    character_id INTEGER NOT NULL REFERENCES character(id) ON DELETE CASCADE,
    kind         TEXT NOT NULL CHECK (kind IN ('join', 'web')),
    digest       TEXT NOT NULL UNIQUE CHECK (length(digest) = 64),
    made_at      TEXT NOT NULL CHECK (length(made_at) BETWEEN 1 AND 40),
    expires_at   TEXT CHECK (expires_at IS NULL OR length(expires_at) BETWEEN 1 AND 40),
    used_at      TEXT CHECK (used_at IS NULL OR length(used_at) BETWEEN 1 AND 40),
    revoked_at   TEXT CHECK (revoked_at IS NULL OR length(revoked_at) BETWEEN 1 AND 40),
    CHECK (kind = 'join' OR expires_at IS NULL)
);
CREATE INDEX player_pass_character ON player_pass(character_id);
CREATE UNIQUE INDEX player_pass_one_link ON player_pass(character_id)
    WHERE kind = 'web' AND revoked_at IS NULL;

CREATE TABLE table_connection (
    id           INTEGER PRIMARY KEY,
    character_id INTEGER NOT NULL REFERENCES character(id) ON DELETE CASCADE,
    way          TEXT NOT NULL CHECK (way IN ('ssh', 'web')),
    peer         TEXT NOT NULL DEFAULT '' CHECK (length(peer) <= 100),
    key_id       INTEGER REFERENCES player_key(id) ON DELETE SET NULL,
    pass_id      INTEGER REFERENCES player_pass(id) ON DELETE SET NULL,
    server_pid   INTEGER NOT NULL,
    started_at   TEXT NOT NULL CHECK (length(started_at) BETWEEN 1 AND 40),
    ended_at     TEXT CHECK (ended_at IS NULL OR length(ended_at) BETWEEN 1 AND 40),
    ended_why    TEXT NOT NULL DEFAULT '' CHECK (length(ended_why) <= 200),
    drop_asked   INTEGER NOT NULL DEFAULT 0 CHECK (drop_asked IN (0, 1))
);
CREATE INDEX table_connection_open ON table_connection(ended_at);

CREATE TABLE table_server (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    pid        INTEGER NOT NULL,
    host       TEXT NOT NULL DEFAULT '' CHECK (length(host) <= 200),
    ssh_port   INTEGER CHECK (ssh_port IS NULL OR ssh_port BETWEEN 1 AND 65535),
    web_url    TEXT CHECK (web_url IS NULL OR length(web_url) BETWEEN 1 AND 400),
    started_at TEXT NOT NULL CHECK (length(started_at) BETWEEN 1 AND 40),
    stopped_at TEXT CHECK (stopped_at IS NULL OR length(stopped_at) BETWEEN 1 AND 40)
);
"""

# The GM's plan for an aircraft, built on the air screen and not yet flown,
# so that it survives quitting and reopening. The battle's log keeps what was
# done (and the plans players sent); a draft is work in progress, replaced on
# every change and dropped when the aircraft moves or the battle ends: a row,
# not an event. ``turn``: the battle's turn it was built in (a draft of an
# earlier turn is not taken up); ``based_on``: the seq of the player's sent
# plan it was built over (0: none; a newer sent plan wins). Never read by a
# player's view, never exported.
_V_DRAFTS: Final = """
CREATE TABLE battle_draft (
    battle_id INTEGER NOT NULL REFERENCES battle(id) ON DELETE CASCADE,
    unit      TEXT NOT NULL CHECK (length(unit) BETWEEN 1 AND 60),
    plan      TEXT NOT NULL CHECK (json_valid(plan) AND length(plan) <= 20000),
    evasive   INTEGER NOT NULL DEFAULT 0 CHECK (evasive IN (0, 1)),
    turn      INTEGER NOT NULL CHECK (turn >= 0),
    based_on  INTEGER NOT NULL DEFAULT 0 CHECK (based_on >= 0),
    PRIMARY KEY (battle_id, unit)
);
"""

MIGRATIONS: Final[tuple[str, ...]] = (_V1, _V2, _V_MAPS, _V_CAMPAIGN, _V_ROLL_STRIKES,
                                      _V_TABLE, _V_DRAFTS)
SCHEMA_VERSION: Final = len(MIGRATIONS)
