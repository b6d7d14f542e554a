"""Aircraft between battles (``rules/campaign/repair.py``), number by number:
what repairing takes (R-1.3 hull hits and location effects; house rules
``repair_days_per_hull_hit``, ``repair_days_per_effect``, the costs,
``repair_crews``, ``write_off_percent``), the first-come queue, readiness."""

from __future__ import annotations

from dataclasses import replace

from ka_tui.rules.campaign.repair import (
    JobStatus, Plane, PlaneState, RepairJob, RepairLine, finish_days, plane_readiness,
    repair_need, work,
)
from ka_tui.rules.core.options import CampaignOptions

OPTS = CampaignOptions()
IL2 = Plane(4, "Il-2", hull=6, hull_hits=2,
            effects=(("control_surfaces", 1), ("fuel_tank", 0), ("engine", 2)),
            hits=(("control_surfaces", 1), ("fuselage", 1), ("wing", 0)))


def test_repair_need_lists_hull_and_each_effect_in_force() -> None:
    need = repair_need(IL2, OPTS)
    assert need.lines == (
        RepairLine("hull (control surfaces 1, fuselage 1)", 2, 2, 100),
        RepairLine("control surfaces", 1, 2, 150),
        RepairLine("engine", 2, 4, 300))
    assert (need.days, need.cost, need.write_off_advised, need.why) == (8, 550, False, "")


def test_repair_need_of_hull_hits_without_a_located_hit_and_of_effects_alone() -> None:
    plain = repair_need(Plane(1, "T", hull=4, hull_hits=1), OPTS)
    assert plain.lines == (RepairLine("hull", 1, 1, 50),)
    only = repair_need(Plane(1, "T", hull=4, effects=(("engine", 1),)), OPTS)
    assert only.lines == (RepairLine("engine", 1, 2, 150),) and only.days == 2
    assert repair_need(Plane(1, "T", hull=4), OPTS).lines == ()


def test_repair_rates_are_the_house_rules() -> None:
    rates = replace(OPTS, repair_days_per_hull_hit=2, repair_days_per_effect=3,
                    repair_cost_per_hull_hit=10, repair_cost_per_effect=20)
    need = repair_need(replace(IL2, effects=(("engine", 1),)), rates)
    assert [(x.days, x.cost) for x in need.lines] == [(4, 20), (3, 20)]
    assert (need.days, need.cost) == (7, 40)


def test_write_off_advice_names_the_share_and_the_house_rule() -> None:
    need = repair_need(replace(IL2, hull_hits=5), OPTS)
    assert need.write_off_advised
    assert need.why == "5 of 6 hull (83% ≥ 75%): write-off advised"
    assert not repair_need(replace(IL2, hull_hits=4), OPTS).write_off_advised   # 66 %


def test_a_plane_is_damaged_by_hull_hits_or_effects() -> None:
    assert Plane(1, "T", 4, hull_hits=1).damaged and Plane(1, "T", 4, effects=(("x", 1),)).damaged
    assert not Plane(1, "T", 4).damaged


def test_a_job_knows_its_days_left_and_whether_it_is_open() -> None:
    job = RepairJob(1, 2, "Spit", days_total=3, days_done=1)
    assert job.days_left == 2 and job.open
    assert replace(job, days_done=5).days_left == 0
    assert not replace(job, status=JobStatus.DONE).open
    assert not replace(job, status=JobStatus.WRITTEN_OFF).open


def test_the_queue_is_first_come_first_served_closed_jobs_wait_for_nothing() -> None:
    """Reading: the open jobs in the order the GM opened them; a crew takes the
    next job the day its own is done; a job with nothing left finishes at 0."""
    q = [RepairJob(1, 1, "A", 2, status=JobStatus.DONE), RepairJob(2, 2, "B", 2),
         RepairJob(3, 3, "C", 3, days_done=3), RepairJob(4, 4, "D", 1),
         RepairJob(5, 5, "E", 4)]
    assert finish_days(q, OPTS) == {2: 2, 3: 0, 4: 1, 5: 5}
    assert finish_days(q, replace(OPTS, repair_crews=3)) == {2: 2, 3: 0, 4: 1, 5: 4}


def test_work_counts_each_jobs_days_and_finishes_what_ends_in_time() -> None:
    q = [RepairJob(1, 1, "A", 2, status=JobStatus.DONE), RepairJob(2, 2, "B", 3, days_done=1),
         RepairJob(3, 3, "C", 4), RepairJob(4, 4, "D", 2)]
    after = work(q, 2, OPTS)
    assert after[0] is q[0]
    assert [(j.days_done, j.status) for j in after[1:]] == [
        (3, JobStatus.DONE), (2, JobStatus.QUEUED), (0, JobStatus.QUEUED)]
    later = work(q, 5, OPTS)
    assert [(j.days_done, j.status) for j in later[1:]] == [
        (3, JobStatus.DONE), (4, JobStatus.DONE), (2, JobStatus.DONE)]
    one_crew = work(q, 3, replace(OPTS, repair_crews=1))
    assert [(j.days_done, j.status) for j in one_crew[1:]] == [
        (3, JobStatus.DONE), (1, JobStatus.QUEUED), (0, JobStatus.QUEUED)]


def test_readiness_of_an_aircraft_says_why() -> None:
    lost = plane_readiness(replace(IL2, lost="written off"), None, OPTS)
    assert (lost.state, lost.why) == (PlaneState.LOST, "Il-2 — written off")
    job = RepairJob(1, 4, "Il-2", 3, 2)
    under = plane_readiness(IL2, job, OPTS)
    assert (under.state, under.why) == (PlaneState.UNDER_REPAIR,
                                        "Il-2 — under repair, ready in 1 day")
    assert plane_readiness(IL2, job, OPTS, finishes_in=4).why == \
        "Il-2 — under repair, ready in 4 days"
    done = replace(job, status=JobStatus.DONE)
    damaged = plane_readiness(IL2, done, OPTS)       # a closed job: just damaged
    assert damaged.state is PlaneState.DAMAGED and not damaged.ready
    assert damaged.why == ("Il-2 — damaged (2/6 hull, control surfaces 1, engine 2), "
                           "repair 8 days")
    effects = plane_readiness(Plane(1, "T", 4, effects=(("engine", 1),)), None,
                              replace(OPTS, repair_days_per_effect=1))
    assert effects.why == "T — damaged (engine 1), repair 1 day"
    ready = plane_readiness(Plane(1, "T", 4), None, OPTS)
    assert (ready.state, ready.why, ready.ready) == (PlaneState.READY, "T — ready", True)


def test_a_one_hit_hull_and_a_crew_taking_its_next_job() -> None:
    """write_off_percent on a Hull of 1; one crew works job B only once A is done."""
    assert repair_need(Plane(1, "Kite", hull=1, hull_hits=1), OPTS).write_off_advised
    q = [RepairJob(1, 1, "A", 2), RepairJob(2, 2, "B", 3)]
    after = work(q, 4, replace(OPTS, repair_crews=1))
    assert [(j.days_done, j.status) for j in after] == [(2, JobStatus.DONE),
                                                        (2, JobStatus.QUEUED)]
