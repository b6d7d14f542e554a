"""People between battles, field by field (house rules ``CampaignOptions``:
``heal_days_per_wound``, ``wake_days``, ``k_points_per_day``,
``fit_max_wounds``; R-5: wounds, six kill, unconsciousness). Each test pins
one number a GM reads on the campaign screen."""

from __future__ import annotations

from dataclasses import replace

from ka_tui.rules.campaign.people import (
    Person, PersonState, fit_in, heal_in, readiness, rest, wake_in,
)
from ka_tui.rules.core.options import CampaignOptions

OPTS = CampaignOptions()          # heal 3, wake 1, K 2 a day, fit with up to 2 wounds
KAY = Person(1, "Kay", wounds=2, k_points=4)


def test_heal_in_counts_every_wound_less_the_days_already_rested() -> None:
    """heal_days_per_wound 3: 2 wounds are 6 days; 1 day rested leaves 5."""
    assert heal_in(replace(KAY, wounds=0), OPTS) == 0
    assert heal_in(replace(KAY, wounds=1), OPTS) == 3
    assert heal_in(KAY, OPTS) == 6
    assert heal_in(replace(KAY, rest_days=1), OPTS) == 5
    assert heal_in(KAY, replace(OPTS, heal_days_per_wound=0)) == 0


def test_heal_in_starts_after_waking_days_unconscious_heal_nothing() -> None:
    """R-5 unconscious, wake_days 2 with 1 day rested toward waking: 1 more day
    to wake, then 3 for the wound -- the day toward waking heals nothing."""
    out = Person(2, "Olga", wounds=1, conscious=False, rest_days=1)
    two = replace(OPTS, wake_days=2)
    assert wake_in(out, two) == 1 and heal_in(out, two) == 4
    assert wake_in(replace(out, conscious=True), two) == 0
    assert heal_in(replace(out, wounds=0), two) == 0      # nothing to heal, awake or not


def test_fit_in_at_fit_max_wounds_is_fit_now() -> None:
    """fit_max_wounds 2: two wounds fly, three wait a wound's healing."""
    assert fit_in(KAY, OPTS) == 0
    assert fit_in(replace(KAY, wounds=3), OPTS) == 3
    assert fit_in(replace(KAY, wounds=3, rest_days=2), OPTS) == 1


def test_readiness_names_each_state() -> None:
    dead = readiness(replace(KAY, wounds=6), OPTS)
    assert dead.state is PersonState.KILLED and dead.why == "Kay — killed (6 wounds, R-5)"
    missing = readiness(replace(KAY, missing=True), OPTS)
    assert missing.state is PersonState.MISSING and missing.why == "Kay — missing in action"
    out = replace(KAY, wounds=3, conscious=False)
    r = readiness(out, OPTS)
    assert r.state is PersonState.UNCONSCIOUS and r.fit_in == fit_in(out, OPTS) == 4
    assert r.why == "Kay — unconscious, 3 wounds, awake in 1 day"
    one = readiness(replace(KAY, wounds=1), OPTS)
    assert one.state is PersonState.WOUNDED and one.fit_in == 0
    assert one.why == "Kay — 1 wound, fit for duty, healed in 3 days"
    ready = readiness(replace(KAY, wounds=0), OPTS)
    assert ready.state is PersonState.READY and ready.fit_in == 0 and ready.ready
    assert ready.why == "Kay — ready"


def test_no_days_change_nothing() -> None:
    odd = replace(KAY, wounds=0, rest_days=2)
    assert rest(odd, 0, OPTS) is odd and rest(odd, -1, OPTS) is odd


def test_the_missing_only_count_days_out() -> None:
    gone = replace(KAY, missing=True, days_out=4)
    after = rest(gone, 3, OPTS)
    assert after == replace(gone, days_out=7)


def test_an_unconscious_person_who_does_not_wake_yet_counts_the_days() -> None:
    """wake_days 3: one day rests toward waking, counts out and gives K-points."""
    out = Person(2, "Olga", wounds=1, conscious=False, k_points=1, days_out=2)
    after = rest(out, 1, replace(OPTS, wake_days=3))
    assert after == replace(out, rest_days=1, days_out=3, k_points=3)


def test_days_out_count_only_the_unfit_days() -> None:
    """Three wounds (fit at 2): 3 days unfit; 5 days of rest count 3 out."""
    hurt = replace(KAY, wounds=3, days_out=1)
    after = rest(hurt, 5, OPTS)
    assert after.wounds == 2 and after.rest_days == 2 and after.days_out == 1 + 3


def test_k_points_come_back_k_points_per_day_up_to_the_maximum() -> None:
    assert rest(KAY, 2, OPTS).k_points == 8
    assert rest(KAY, 9, OPTS).k_points == KAY.k_points_max
    assert rest(KAY, 2, replace(OPTS, k_points_per_day=0)).k_points == 4


def test_an_unconscious_person_within_fit_max_wounds_is_fit_once_awake() -> None:
    """fit_in = wake_in when his wounds do not keep him down (fit_max_wounds 2);
    a person who has rested wake_days wakes with the next day's rest (0 more)."""
    out = Person(2, "Olga", wounds=1, conscious=False)
    assert fit_in(out, OPTS) == wake_in(out, OPTS) == 1
    assert wake_in(replace(out, rest_days=1), OPTS) == 0
    assert wake_in(replace(out, rest_days=3), OPTS) == 0
