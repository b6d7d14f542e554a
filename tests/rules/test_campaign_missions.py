"""Missions (``rules/campaign/missions.py``): the ready-check (R-5 dead at six
wounds and unconscious; house rule ``fit_max_wounds``; R-1.3 aircraft lost or
under repair), the debrief derived from what the battles and fights recorded,
and service records."""

from __future__ import annotations

from typing import Any

from ka_tui.rules.campaign.missions import (
    Debrief, DebriefPilot, DebriefPlane, Refusal, SortieFact, debrief, ready_check,
    service_record,
)
from ka_tui.rules.campaign.people import Person
from ka_tui.rules.campaign.repair import JobStatus, Plane, RepairJob
from ka_tui.rules.core.options import CampaignOptions

OPTS = CampaignOptions()


def test_the_ready_check_refuses_each_kind_and_names_its_field() -> None:
    people = [Person(1, "Dead", wounds=6), Person(2, "Gone", missing=True),
              Person(3, "Out", wounds=1, conscious=False), Person(4, "Hurt", wounds=3),
              Person(5, "Fine", wounds=2), Person(6, "Busy")]
    planes = [Plane(10, "Wreck", 4, lost="destroyed"), Plane(11, "Shop", 4, hull_hits=1),
              Plane(12, "Dented", 4, hull_hits=1), Plane(13, "Done", 4, hull_hits=1)]
    jobs = {11: RepairJob(1, 11, "Shop", 2), 13: RepairJob(2, 13, "Done", 1,
                                                           status=JobStatus.DONE)}
    out = ready_check(people, planes, jobs, {6: "Dawn patrol", 5: ""}, OPTS)
    assert out == [
        Refusal("pilots", 1, "Dead — killed (6 wounds, R-5)"),
        Refusal("pilots", 2, "Gone — missing in action"),
        Refusal("pilots", 3, "Out — unconscious, 1 wound, awake in 1 day"),
        Refusal("pilots", 4, "Hurt — 3 wounds, fit in 3 days (more than 2 wounds)"),
        Refusal("pilots", 5, "Fine already flies “” that day"),
        Refusal("pilots", 6, "Busy already flies “Dawn patrol” that day"),
        Refusal("aircraft", 10, "Wreck — destroyed"),
        Refusal("aircraft", 11, "Shop — under repair, ready in 2 days")]
    # reading: a damaged aircraft with no open repair job may fly (R-1.3 damage flies with it)
    assert ready_check([], planes[2:], jobs, {}, OPTS) == []


def _unit(uid: str, wounds: int = 0, crew: list[dict[str, Any]] | None = None,
          hull_hits: int = 0) -> dict[str, Any]:
    return {"id": uid, "pilot": {"wounds": wounds}, "crew": crew or [], "fuel": 20,
            "ammo": 10, "damage": {"hull_hits": hull_hits}}


def test_the_debrief_adds_up_every_battle_of_the_mission() -> None:
    """R-1.3 hull hits, R-1.4 fuel and ammunition, R-5 wounds (six: killed),
    the victories; a battle still open is counted and named, nothing else."""
    first = {"name": "Morning", "status": "ended",
             "start": {"airmen": {"Blue": [1, 3], "Red": [2]},
                       "aircraft": {"Blue": 10, "Red": 20},
                       "units": [_unit("Blue", crew=[{"wounds": 1}], hull_hits=1),
                                 _unit("Red")]},
             "end": {"victories": [{"turn": 3, "how": "ram", "pilot_id": 1,
                                    "victim_pilot_id": 2, "victor": "Blue",
                                    "victim": "Red"}],
                     "airmen": [{"character_id": 1, "wounds": 2},
                                {"character_id": 3, "wounds": 1},
                                {"character_id": 2, "wounds": 6}],
                     "aircraft": [{"aircraft_id": 10, "name": "Blue", "hull_hits": 3,
                                   "ammo_left": 4, "fuel_left": 15, "lost": ""},
                                  {"aircraft_id": 20, "name": "Red", "hull_hits": 4,
                                   "ammo_left": 10, "fuel_left": 20, "lost": "crashed"}]}}
    second = {"name": "Noon", "status": "ended",
              "start": {"airmen": {"Blue": [1]}, "aircraft": {"Blue": 10},
                        "units": [_unit("Blue", wounds=2, hull_hits=3)]},
              "end": {"victories": [], "airmen": [{"character_id": 1, "wounds": 2}],
                      "aircraft": [{"aircraft_id": 10, "name": "Blue", "hull_hits": 4,
                                    "ammo_left": "x", "fuel_left": 18, "lost": "destroyed"}]}}
    late = {"name": "Dusk", "status": "open",
            "start": {"airmen": {"Blue": [4]}, "units": [_unit("Blue", wounds=1)]},
            "end": None}
    d = debrief([first, second, late], [{"name": "Bar", "status": "open"}],
                {1: "Ann", 2: "Kurt", 3: "Sam"})
    assert d == Debrief(
        pilots=(DebriefPilot(4, "#4", 0, 0, 1), DebriefPilot(1, "Ann", 1, 2, 2),
                DebriefPilot(2, "Kurt", 0, 6, 6, "Ann (Blue)", True),
                DebriefPilot(3, "Sam", 0, 0, 1)),
        aircraft=(DebriefPlane(10, "Blue", 3, 16, 7, "destroyed"),
                  DebriefPlane(20, "Red", 4, 0, 0, "crashed")),
        kills=("turn 3: Blue rammed Red (Morning)",), fights=("“Bar”: open",), battles=3,
        open_battles=("Dusk",))
    assert d.lines == [
        "Battles: 3 (1 still open)",
        "  #4: 0 kills",
        "  Ann: 1 kill, +2 wounds (now 2)",
        "  Kurt: 0 kills, +6 wounds (now 6), shot down by Ann (Blue), KILLED",
        "  Sam: 0 kills",
        "  Blue: 3 hull hits, ammo −16, fuel −7, DESTROYED",
        "  Red: 4 hull hits, ammo −0, fuel −0, CRASHED",
        "  turn 3: Blue rammed Red (Morning)",
        "  Fight “Bar”: open"]


def test_a_debrief_of_one_battle_says_only_its_number() -> None:
    d = debrief([], [], {})
    assert d.lines == ["Battles: 0"] and d.open_battles == ()


def test_a_service_record_is_derived_from_the_sorties_and_the_state_now() -> None:
    sorties = [SortieFact(1, "Dawn", "1944-06-03", kills=1),
               SortieFact(2, "Dusk", "1944-06-04", kills=2, wounds_taken=2,
                          shot_down_by="Kurt")]
    rec = service_record(Person(7, "Ann", wounds=3, days_out=1), sorties, OPTS)
    assert (rec.character_id, rec.name, rec.sorties, rec.kills, rec.wounds_taken,
            rec.days_out) == (7, "Ann", 2, 3, 2, 1)
    assert rec.status == "3 wounds, fit in 3 days"
    assert rec.shot_down == ("1944-06-04 Dusk: by Kurt",)
    assert rec.wound_history == ("1944-06-04 Dusk: +2",)
    assert rec.log == ("1944-06-03 Dawn: 1 kill",
                       "1944-06-04 Dusk: 2 kills, +2 wounds, shot down by Kurt")
    assert rec.line == "Service: 2 sorties, 3 kills, 2 wounds, 1 day out — 3 wounds, fit in 3 days"
    none = service_record(Person(8, "Bo"), [], OPTS)
    assert none.line == "Service: 0 sorties, 0 kills, 0 wounds, 0 days out — ready"


def test_the_debrief_reads_what_a_battle_left_out_as_nothing() -> None:
    """A battle's start or end may lack a part (no crew, no units, a victor
    not among the airmen at the start, a battle with no name): each reads as
    none, and an open battle before an ended one stops nothing."""
    still_open = {"status": "open", "start": {}, "end": None}
    sparse = {"name": "Sparse", "status": "ended",
              "start": {"airmen": {"Blue": [1], "Ghost": [5]},
                        "units": [{"id": "Blue", "fuel": 9, "ammo": 4}]},
              "end": {"victories": [{"turn": 1, "how": "shot", "pilot_id": 9,
                                     "victim_pilot_id": 1, "victor": "Kestrel",
                                     "victim": "Blue"}],
                      "aircraft": [{"aircraft_id": 10, "name": "Blue", "hull_hits": 0,
                                    "ammo_left": 4, "fuel_left": 9},
                                   {"aircraft_id": 11, "name": "Stray", "hull_hits": 2}]}}
    d = debrief([still_open, sparse, {"status": "ended", "start": {}, "end": {}}], [],
                {1: "Ann", 5: "Gus"})
    assert d.open_battles == ("",) and d.battles == 3
    assert d.pilots == (DebriefPilot(9, "#9", 1, 0, 0),
                        DebriefPilot(1, "Ann", 0, 0, 0, "Kestrel (Kestrel)"),
                        DebriefPilot(5, "Gus", 0, 0, 0))
    assert d.aircraft == (DebriefPlane(10, "Blue", 0, 0, 0, ""),
                          DebriefPlane(11, "Stray", 2, 0, 0, ""))
    assert d.kills == ("turn 1: Kestrel shot down Blue (Sparse)",)


def test_the_debrief_keeps_a_pilots_wounds_when_the_end_names_him_not() -> None:
    """R-5 wounds: a pilot at the start but not among the airmen at the end
    keeps his wounds; a victor named only at the end took all his; two
    victories of one pilot are two kills."""
    battle = {"name": "Odd", "status": "ended",
              "start": {"airmen": {"Blue": [1]}, "units": [_unit("Blue", wounds=2)]},
              "end": {"victories": [{"turn": 1, "how": "shot", "pilot_id": 1,
                                     "victim_pilot_id": 5, "victor": "Blue", "victim": "X"},
                                    {"turn": 2, "how": "shot", "pilot_id": 1,
                                     "victim_pilot_id": 6, "victor": "Blue", "victim": "Y"},
                                    {"turn": 3, "how": "shot", "pilot_id": 7,
                                     "victim_pilot_id": 6, "victor": "Red", "victim": "Y"}],
                      "airmen": [{"character_id": 7, "wounds": 3}]}}
    d = debrief([battle], [], {1: "Ann", 5: "Xu", 6: "Yo", 7: "Zed"})
    by_id = {p.character_id: p for p in d.pilots}
    assert (by_id[1].kills, by_id[1].wounds_taken, by_id[1].wounds_now) == (2, 0, 2)
    assert (by_id[7].kills, by_id[7].wounds_taken, by_id[7].wounds_now) == (1, 3, 3)


def test_a_service_record_status_is_what_follows_the_name() -> None:
    rec = service_record(Person(9, "Kay — the Red"), [], OPTS)
    assert rec.status == "ready"


def test_the_debrief_credits_only_the_missions_own_side() -> None:
    """The mission's own side (``debrief``'s ``people`` and ``aircraft``: its
    members and their aircraft): whoever flies one of its aircraft is one of
    its people; the other side's pilots and aircraft are not listed; a victory
    counts only when it involves the own side (a pilot, a victim, the aircraft
    or the aircraft downed), and only its own pilots are shot down by someone
    (R-5 wounds, R-1.3 hull hits, R-1.4 fuel and ammunition)."""
    battle = {"name": "Morning", "status": "ended",
              "start": {"airmen": {"Red": [2], "Blue": [1, 3], "Gray": [4], "Green": [5]},
                        "aircraft": {"Red": 20, "Blue": 10, "Gray": 11, "Green": 30},
                        "units": [_unit("Red"), _unit("Blue", crew=[{"wounds": 1}]),
                                  _unit("Gray", wounds=2), _unit("Green")]},
              "end": {"victories": [
                  # between others: left out
                  {"turn": 1, "how": "shot", "pilot_id": 5, "victim_pilot_id": 2,
                   "aircraft_id": 30, "victim_id": 20, "victor": "Green", "victim": "Red"},
                  # one of the mission's people, no aircraft recorded
                  {"turn": 1, "how": "ram", "pilot_id": 1, "victim_pilot_id": 2,
                   "victor": "Blue", "victim": "Red"},
                  # the other side downs the pilot of one of the mission's aircraft
                  {"turn": 2, "how": "shot", "pilot_id": 2, "victim_pilot_id": 4,
                   "victor": "Red", "victim": "Gray"},
                  # only the mission's aircraft is recorded, no pilot
                  {"turn": 3, "how": "shot", "aircraft_id": 11, "victim_id": 30,
                   "victim_pilot_id": 5, "victor": "Gray", "victim": "Green"},
                  # only the mission's aircraft downed is recorded
                  {"turn": 4, "how": "shot", "pilot_id": 5, "aircraft_id": 30,
                   "victim_id": 10, "victor": "Green", "victim": "Blue"}],
                  "airmen": [{"character_id": 2, "wounds": 6},
                             {"character_id": 1, "wounds": 1},
                             {"character_id": 3, "wounds": 1},
                             {"character_id": 4, "wounds": 3},
                             {"character_id": 5, "wounds": 0}],
                  "aircraft": [{"aircraft_id": 20, "name": "Red", "hull_hits": 4,
                                "ammo_left": 2, "fuel_left": 10, "lost": "destroyed"},
                               {"aircraft_id": 10, "name": "Blue", "hull_hits": 1,
                                "ammo_left": 6, "fuel_left": 15, "lost": ""},
                               {"aircraft_id": 11, "name": "Gray", "hull_hits": 2,
                                "ammo_left": 10, "fuel_left": 18, "lost": ""},
                               {"aircraft_id": 30, "name": "Green", "hull_hits": 3,
                                "ammo_left": 1, "fuel_left": 1, "lost": "crashed"}]}}
    # the mission's aircraft 12 is in a battle that recorded no airmen; a
    # battle that recorded no aircraft: neither adds anyone
    no_airmen = {"name": "Dusk", "status": "open", "start": {"aircraft": {"Ghost": 12}},
                 "end": None}
    no_aircraft = {"name": "Late", "status": "open", "start": {"units": []}, "end": None}
    d = debrief([battle, no_airmen, no_aircraft], [],
                {1: "Ann", 2: "Kurt", 3: "Sam", 4: "Gus", 5: "Zed"},
                people=[1], aircraft=[10, 11, 12])
    assert d == Debrief(
        pilots=(DebriefPilot(1, "Ann", 1, 1, 1),
                DebriefPilot(4, "Gus", 0, 1, 3, "Kurt (Red)"),
                DebriefPilot(3, "Sam", 0, 0, 1)),
        aircraft=(DebriefPlane(10, "Blue", 1, 4, 5, ""),
                  DebriefPlane(11, "Gray", 2, 0, 2, "")),
        kills=("turn 1: Blue rammed Red (Morning)", "turn 2: Red shot down Gray (Morning)",
               "turn 3: Gray shot down Green (Morning)",
               "turn 4: Green shot down Blue (Morning)"),
        fights=(), battles=3, open_battles=("Dusk", "Late"))


def test_a_member_aboard_another_sides_aircraft_is_still_the_missions() -> None:
    """The reading "the mission's own side" (docs/rules/READINGS.md, R-1.4):
    a member flying as crew in an aircraft that is not the mission's, behind a
    pilot who is not its, is credited with his own R-5 wounds (carried in and
    taken); that pilot and that aircraft are left out."""
    battle = {"name": "Ferry", "status": "ended",
              "start": {"airmen": {"Red": [2, 3]}, "aircraft": {"Red": 20},
                        "units": [_unit("Red", wounds=1, crew=[{"wounds": 2}])]},
              "end": {"victories": [],
                      "airmen": [{"character_id": 2, "wounds": 3},
                                 {"character_id": 3, "wounds": 4}],
                      "aircraft": [{"aircraft_id": 20, "name": "Red", "hull_hits": 1,
                                    "ammo_left": 10, "fuel_left": 20, "lost": ""}]}}
    d = debrief([battle], [], {2: "Kurt", 3: "Sam"}, people=[3], aircraft=[])
    assert d == Debrief(pilots=(DebriefPilot(3, "Sam", 0, 2, 4),), aircraft=(), kills=(),
                        fights=(), battles=1)
