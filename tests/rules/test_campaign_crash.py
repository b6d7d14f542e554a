"""The GM's answer about a person aboard an aircraft that crashed (R-6.1,
R-10; campaign.crash_crew): as the battle left him, one wound more (R-5)
and out cold, killed (R-5: six wounds), or missing."""

from __future__ import annotations

from ka_tui.rules.campaign.crash import AfterCrash, CrashFate, after_crash


def test_each_answer_after_a_crash_r5() -> None:
    assert after_crash(2, True, CrashFate.AS_FLOWN) == AfterCrash(2, True)
    assert after_crash(2, True, CrashFate.WOUNDED) == AfterCrash(3, False)
    assert after_crash(5, True, CrashFate.WOUNDED) == AfterCrash(6, False)
    assert after_crash(6, False, CrashFate.WOUNDED) == AfterCrash(6, False)
    assert after_crash(0, True, CrashFate.KILLED) == AfterCrash(6, False)
    assert after_crash(1, False, CrashFate.MISSING) == AfterCrash(1, False, missing=True)
