"""Advancing the campaign N days (``rules/campaign/timeline.py``): the preview
the GM confirms, line by line (house rules ``wake_days``,
``heal_days_per_wound``, ``k_points_per_day``, ``repair_crews``)."""

from __future__ import annotations

from datetime import date

import pytest

from ka_tui.rules.campaign.people import Person
from ka_tui.rules.campaign.repair import JobStatus, RepairJob
from ka_tui.rules.campaign.timeline import MAX_DAYS, ChangeLine, parse_date, preview
from ka_tui.rules.core.options import CampaignOptions

OPTS = CampaignOptions()
D_DAY = date(1944, 6, 6)


def test_parse_date_reads_iso_days_and_names_a_bad_one() -> None:
    assert parse_date(" 1944-06-06 ") == D_DAY
    with pytest.raises(ValueError, match="'6 June' is not a date"):
        parse_date("6 June")


def test_a_preview_of_1_to_365_days_and_its_summary() -> None:
    one = preview(D_DAY, 1, [], [], OPTS)
    assert (one.start, one.end, one.days) == (D_DAY, date(1944, 6, 7), 1)
    assert one.summary == "1944-06-06 → 1944-06-07 (1 day)"
    assert preview(D_DAY, MAX_DAYS, [], [], OPTS).days == 365
    for bad in (0, MAX_DAYS + 1):
        with pytest.raises(ValueError, match="advance 1–365 days"):
            preview(D_DAY, bad, [], [], OPTS)


def test_each_person_and_job_changed_gets_its_line() -> None:
    people = [Person(1, "Kay", wounds=3, k_points=4),
              Person(2, "Olga", wounds=1, conscious=False),
              Person(3, "Ann", k_points=10)]
    jobs = [RepairJob(1, 10, "Spit", 2), RepairJob(2, 20, "Il-2", 5),
            RepairJob(3, 30, "Old", 1, status=JobStatus.DONE)]
    p = preview(D_DAY, 3, people, jobs, OPTS)
    assert p.changes == (
        ChangeLine("heal", "Kay: 1 wound heals, 2 left", 1),
        ChangeLine("k_points", "Kay: K-points 4 → 10", 1),
        ChangeLine("wake", "Olga comes to", 2),
        ChangeLine("repair", "Spit: repair finished", None, 10),
        ChangeLine("repair", "Il-2: repair 3/5 days", None, 20))
    assert [x.wounds for x in p.people] == [2, 1, 0] and p.people[1].conscious
    assert [j.status for j in p.repairs] == [JobStatus.DONE, JobStatus.QUEUED, JobStatus.DONE]
    six = preview(D_DAY, 6, people[:1], [], OPTS)
    assert six.changes[0].text == "Kay: 2 wounds heal, 1 left"


def test_a_job_waiting_for_a_crew_gets_no_line() -> None:
    """repair_crews 2: the third job waits; only the two worked on are listed."""
    jobs = [RepairJob(1, 10, "A", 3), RepairJob(2, 20, "B", 3), RepairJob(3, 30, "C", 3)]
    p = preview(D_DAY, 1, [], jobs, OPTS)
    assert [c.text for c in p.changes] == ["A: repair 1/3 days", "B: repair 1/3 days"]
