"""What became of the people aboard an aircraft that crashed (R-6.1 the
terrain, R-10 a failed landing). The seeds give the aircraft's damage (R-6.1:
2d6 x 10 x speed points over random locations, a cockpit hit wounding the
pilot) and never the crew's fate; under ``campaign.crash_crew = gm_asks`` (the
default) the end of the battle asks the GM, one answer per person aboard.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ka_tui.rules.campaign.people import MAX_WOUNDS


class CrashFate(StrEnum):
    AS_FLOWN = "as_flown"    # as the battle left them (the crash's own hits only)
    WOUNDED = "wounded"      # one wound more, out cold
    KILLED = "killed"        # dead (R-5: 6 wounds)
    MISSING = "missing"      # neither dead nor home: the GM finds him later


FATE_WORDS: dict[CrashFate, str] = {
    CrashFate.AS_FLOWN: "as the battle left them: the crash's own hits only (R-6.1)",
    CrashFate.WOUNDED: "one wound more (R-5), unconscious",
    CrashFate.KILLED: "killed (R-5: 6 wounds)",
    CrashFate.MISSING: "missing: neither dead nor home",
}


@dataclass(frozen=True)
class AfterCrash:
    wounds: int
    conscious: bool
    missing: bool = False


def after_crash(wounds: int, conscious: bool, fate: CrashFate) -> AfterCrash:
    """A person's state once the GM has said what the crash did to him."""
    if fate is CrashFate.KILLED:
        return AfterCrash(MAX_WOUNDS, False)
    if fate is CrashFate.WOUNDED:
        return AfterCrash(min(MAX_WOUNDS, wounds + 1), False)
    return AfterCrash(wounds, conscious, fate is CrashFate.MISSING)
