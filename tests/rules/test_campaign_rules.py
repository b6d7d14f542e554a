"""Pure campaign rules (house rules, CampaignOptions): healing, coming to, K-points, readiness,
repairs, the time preview, the ready-check, the debrief and service records.
Each test names the house-rule option (``CampaignOptions``) it implements;
R-5 (six wounds kill, unconsciousness) and R-1.3 (hull hits, location
effects) are the seeds' part."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ka_tui.rules.campaign.journal import EntryKind, entry_of, entry_problem, markdown
from ka_tui.rules.campaign.missions import SortieFact, debrief, ready_check, service_record
from ka_tui.rules.campaign.people import Person, PersonState, fit_in, readiness, rest
from ka_tui.rules.campaign.repair import (
    JobStatus,
    Plane,
    PlaneState,
    RepairJob,
    finish_days,
    plane_readiness,
    repair_need,
    work,
)
from ka_tui.rules.campaign.timeline import preview
from ka_tui.rules.core.options import CampaignOptions, HouseRules

OPTS = CampaignOptions()
KAY = Person(1, "Kay", wounds=2)


def test_defaults_are_named_options_in_the_campaign_section() -> None:
    rules = HouseRules.from_dict({"campaign": {"heal_days_per_wound": 5}})
    assert rules.campaign.heal_days_per_wound == 5
    assert HouseRules().to_dict()["campaign"]["repair_crews"] == 2
    with pytest.raises(ValueError, match="campaign.repair_crews"):
        HouseRules.from_dict({"campaign": {"repair_crews": "two"}})


def test_readiness_says_why_heal_days_per_wound_and_fit_max_wounds() -> None:
    """campaign.heal_days_per_wound = 3, fit_max_wounds = 1: Kay's 2 wounds, one
    over the limit, make her fit in 3 days."""
    opts = replace(OPTS, fit_max_wounds=1)
    r = readiness(KAY, opts)
    assert (r.state, r.why, r.fit_in) == (PersonState.WOUNDED,
                                          "Kay — 2 wounds, fit in 3 days", 3)
    assert readiness(KAY, OPTS).why == "Kay — 2 wounds, fit for duty, healed in 6 days"


def test_readiness_of_the_dead_the_missing_and_the_unconscious_r5_wake_days() -> None:
    assert readiness(replace(KAY, wounds=6, conscious=False), OPTS).state is PersonState.KILLED
    assert readiness(replace(KAY, missing=True), OPTS).why == "Kay — missing in action"
    out = readiness(replace(KAY, conscious=False), OPTS)
    assert out.state is PersonState.UNCONSCIOUS
    assert out.why == "Kay — unconscious, 2 wounds, awake in 1 day"


def test_rest_wakes_then_heals_one_wound_per_heal_days_per_wound() -> None:
    """campaign.wake_days = 1 then heal_days_per_wound = 3; k_points_per_day = 2."""
    p = replace(KAY, conscious=False, k_points=3)
    one = rest(p, 1, OPTS)
    assert (one.conscious, one.wounds, one.k_points) == (True, 2, 5)
    four = rest(p, 4, OPTS)
    assert (four.wounds, four.rest_days, four.k_points) == (1, 0, 10)
    assert rest(p, 7, OPTS).wounds == 0


def test_the_dead_never_heal_r5() -> None:
    dead = replace(KAY, wounds=6, conscious=False)
    assert rest(dead, 100, OPTS) == dead


people = st.builds(Person, id=st.just(1), name=st.just("P"),
                   wounds=st.integers(0, 5), conscious=st.booleans(),
                   k_points=st.integers(0, 10), k_points_max=st.just(10),
                   rest_days=st.integers(0, 2))
options = st.builds(CampaignOptions, heal_days_per_wound=st.integers(0, 5),
                    wake_days=st.integers(0, 3), k_points_per_day=st.integers(0, 3),
                    fit_max_wounds=st.integers(0, 3))


@given(people, st.integers(1, 20), st.integers(1, 20), options)
def test_resting_a_then_b_days_is_resting_a_plus_b_days(p: Person, a: int, b: int,
                                                        opts: CampaignOptions) -> None:
    """heal_days_per_wound, wake_days, k_points_per_day: advancing one day at a
    time or all at once gives the same campaign; wounds never grow."""
    assert rest(rest(p, a, opts), b, opts) == rest(p, a + b, opts)
    assert rest(p, a, opts).wounds <= p.wounds


@given(people, options)
def test_fit_in_days_of_rest_makes_fit(p: Person, opts: CampaignOptions) -> None:
    days = fit_in(p, opts)
    if days:
        assert readiness(rest(p, days, opts), opts).fit_in == 0


SPIT = Plane(2, "Spitfire", hull=3, hull_hits=1, effects=(("left_wing", 1),),
             hits=(("left_wing", 1),))


def test_repair_need_by_location_repair_days_and_costs() -> None:
    """repair_days_per_hull_hit 1, repair_days_per_effect 2, costs 50 and 150."""
    need = repair_need(SPIT, OPTS)
    assert [(x.location, x.days, x.cost) for x in need.lines] == [
        ("hull (left wing 1)", 1, 50), ("left wing", 2, 150)]
    assert (need.days, need.cost, need.write_off_advised) == (3, 200, False)


def test_write_off_is_advised_at_write_off_percent() -> None:
    need = repair_need(replace(SPIT, hull_hits=3), OPTS)
    assert need.write_off_advised and "100% ≥ 75%" in need.why


def test_write_off_is_advised_at_write_off_percent_exactly_not_only_above() -> None:
    """House rule campaign.write_off_percent (75): "this share of the hull or
    more" -- hull 4 with 3 hits (75 %) is advised, 2 of 4 (50 %) is not."""
    four = Plane(3, "Tempest", hull=4)
    at = repair_need(replace(four, hull_hits=3), OPTS)
    assert at.write_off_advised and "3 of 4 hull (75% ≥ 75%)" in at.why
    below = repair_need(replace(four, hull_hits=2), OPTS)
    assert not below.write_off_advised and below.why == ""
    stricter = repair_need(replace(four, hull_hits=3), replace(OPTS, write_off_percent=76))
    assert not stricter.write_off_advised


def test_heal_days_per_wound_0_means_wounds_heal_once_awake() -> None:
    """House rule campaign.heal_days_per_wound = 0 (R-5 counts wounds; the seeds
    give no healing time): no day per wound -- fit at once, and the first day
    of rest after waking heals them all; never read as 1."""
    zero = replace(OPTS, heal_days_per_wound=0, fit_max_wounds=1)
    kay = Person(1, "Kay", wounds=3)
    assert fit_in(kay, zero) == 0 and readiness(kay, zero).fit_in == 0
    assert ready_check([kay], [], {}, {}, zero) == []
    assert rest(kay, 1, zero).wounds == 0
    out = Person(2, "Olga", wounds=3, conscious=False)
    two_to_wake = replace(zero, wake_days=2)
    assert fit_in(out, two_to_wake) == 2
    assert rest(out, 1, two_to_wake).wounds == 3 and not rest(out, 1, two_to_wake).conscious
    woke = rest(out, 2, two_to_wake)
    assert woke.conscious and woke.wounds == 0
    one = replace(zero, heal_days_per_wound=1)
    assert fit_in(kay, one) == 2 and rest(kay, 1, one).wounds == 2   # 1 is one a day


def test_the_queue_works_repair_crews_jobs_at_once() -> None:
    """repair_crews = 2: jobs 1 and 2 go on together, job 3 waits for a crew."""
    q = [RepairJob(1, 1, "A", 3), RepairJob(2, 2, "B", 1), RepairJob(3, 3, "C", 2)]
    assert finish_days(q, OPTS) == {1: 3, 2: 1, 3: 3}
    after = work(q, 1, OPTS)
    assert [(j.days_done, j.status) for j in after] == [
        (1, JobStatus.QUEUED), (1, JobStatus.DONE), (0, JobStatus.QUEUED)]
    assert all(j.status is JobStatus.DONE for j in work(q, 3, OPTS))
    assert finish_days(q, replace(OPTS, repair_crews=1)) == {1: 3, 2: 4, 3: 6}


def test_aircraft_readiness_r1_3() -> None:
    assert plane_readiness(replace(SPIT, lost="destroyed"), None, OPTS).state is PlaneState.LOST
    job = RepairJob(1, 2, "Spitfire", 3, 1)
    assert plane_readiness(SPIT, job, OPTS).why == "Spitfire — under repair, ready in 2 days"
    assert plane_readiness(SPIT, None, OPTS).why == \
        "Spitfire — damaged (1/3 hull, left wing 1), repair 3 days"
    assert plane_readiness(Plane(1, "T", 4), None, OPTS).ready


def test_the_time_preview_lists_what_changes() -> None:
    p = preview(date(1944, 6, 6), 3, [replace(KAY, wounds=1)], [RepairJob(1, 2, "Spit", 2)],
                OPTS)
    assert p.summary == "1944-06-06 → 1944-06-09 (3 days)"
    assert [c.text for c in p.changes] == ["Kay: 1 wound heals, fully healed",
                                           "Spit: repair finished"]
    with pytest.raises(ValueError):
        preview(date(1944, 6, 6), 0, [], [], OPTS)


def test_ready_check_fit_max_wounds_unconscious_busy_and_under_repair() -> None:
    opts = replace(OPTS, fit_max_wounds=1)
    out = ready_check([KAY, Person(3, "Ann"), Person(4, "Bo", wounds=1, conscious=False)],
                      [SPIT], {2: RepairJob(1, 2, "Spitfire", 2)}, {3: "Dawn patrol"}, opts)
    assert [r.why for r in out] == [
        "Kay — 2 wounds, fit in 3 days (more than 1 wounds)",
        "Ann already flies “Dawn patrol” that day",
        "Bo — unconscious, 1 wound, awake in 1 day",
        "Spitfire — under repair, ready in 2 days"]


def test_debrief_from_a_battle_r1_3_r1_4_r5() -> None:
    start = {"airmen": {"Blue": [1], "Red": [2]}, "aircraft": {"Blue": 10, "Red": 20},
             "units": [{"id": "Blue", "pilot": {"wounds": 0}, "crew": [], "fuel": 20,
                        "ammo": 10, "damage": {"hull_hits": 0}},
                       {"id": "Red", "pilot": {"wounds": 0}, "crew": [], "fuel": 20,
                        "ammo": 10, "damage": {"hull_hits": 0}}]}
    end = {"victories": [{"turn": 2, "how": "shot", "pilot_id": 1, "victim_pilot_id": 2,
                          "victor": "Blue", "victim": "Red"}],
           "airmen": [{"character_id": 1, "wounds": 0}, {"character_id": 2, "wounds": 6}],
           "aircraft": [{"aircraft_id": 10, "name": "Blue", "hull_hits": 1, "ammo_left": 7,
                         "fuel_left": 17, "lost": ""},
                        {"aircraft_id": 20, "name": "Red", "hull_hits": 4, "ammo_left": 10,
                         "fuel_left": 20, "lost": "destroyed"}]}
    d = debrief([{"name": "B", "status": "ended", "start": start, "end": end}],
                [{"name": "Bar", "status": "ended"}], {1: "Ann", 2: "Kurt"})
    ann, kurt = d.pilots
    assert (ann.kills, kurt.killed, kurt.wounds_taken) == (1, True, 6)
    assert kurt.shot_down_by == "Ann (Blue)"
    blue = d.aircraft[0]
    assert (blue.hull_hits_taken, blue.ammo_spent, blue.fuel_spent) == (1, 3, 3)
    assert "  turn 2: Blue shot down Red (B)" in d.lines and "  Fight “Bar”: ended" in d.lines


def test_service_record_is_derived_from_sorties() -> None:
    rec = service_record(Person(1, "Ann", days_out=2), [
        SortieFact(1, "Dawn", "1944-06-03", kills=2),
        SortieFact(2, "Dusk", "1944-06-04", wounds_taken=1, shot_down_by="Kurt")], OPTS)
    assert (rec.sorties, rec.kills, rec.wounds_taken) == (2, 2, 1)
    assert rec.line == "Service: 2 sorties, 2 kills, 1 wound, 2 days out — ready"
    assert rec.shot_down == ("1944-06-04 Dusk: by Kurt",)


def test_journal_entries_are_checked_and_written_as_markdown() -> None:
    ok = {"day": "1944-06-06", "text": "Rain.\nNo flying.", "characters": [1],
          "aircraft": [], "mission": None}
    assert entry_problem("note", ok) is None
    assert entry_problem("gossip", ok) == "'gossip' is not a journal entry kind"
    assert entry_problem("note", {**ok, "day": "June"}) is not None
    assert entry_problem("note", {**ok, "text": " "}) is not None
    e = entry_of(1, "note", ok)
    assert e.kind is EntryKind.NOTE and e.first_line == "Rain."
    assert markdown("J", [e]) == "# J\n\n## 1944-06-06\n\n- Rain.\n  No flying.\n"
