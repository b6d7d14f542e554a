"""The campaign journal's entries (``rules/campaign/journal.py``): what the
store may keep, how an entry reads back, the filters and the Markdown the GM
gives the players. The journal is the campaign's own record (the seeds stop at
the end of a battle: R-5 deaths and wounds, kills, repairs are written to it)."""

from __future__ import annotations

from typing import Any

import pytest

from ka_tui.rules.campaign.journal import (
    TEXT_MAX, Entry, EntryKind, entry_of, entry_problem, markdown, matches,
)

OK: dict[str, Any] = {"day": "1944-06-06", "text": "Rain.", "characters": [1, 2],
                      "aircraft": [7], "mission": 3}


@pytest.mark.parametrize("payload,why", [
    ([], "a journal entry is a table"),
    ({**OK, "text": None}, "a journal entry needs a text"),
    ({**OK, "text": "  \n "}, "a journal entry needs a text"),
    ({**OK, "text": "x" * (TEXT_MAX + 1)}, f"a journal entry is at most {TEXT_MAX} characters"),
    ({**OK, "day": "6 June"}, "a journal entry needs its campaign day (YYYY-MM-DD)"),
    ({k: v for k, v in OK.items() if k != "day"},
     "a journal entry needs its campaign day (YYYY-MM-DD)"),
    ({**OK, "characters": "1"}, "characters must be a list of ids"),
    ({**OK, "characters": [1, True]}, "characters must be a list of ids"),
    ({**OK, "aircraft": [1.5]}, "aircraft must be a list of ids"),
    ({**OK, "mission": "3"}, "mission must be an id or null"),
    ({**OK, "mission": False}, "mission must be an id or null"),
])
def test_an_entry_the_store_may_not_keep_says_why(payload: Any, why: str) -> None:
    assert entry_problem("note", payload) == why


def test_an_entry_at_the_limits_is_kept() -> None:
    assert entry_problem("death", {**OK, "text": "x" * TEXT_MAX}) is None
    assert entry_problem("note", {"day": "1944-06-06", "text": "x"}) is None   # no ids
    assert entry_problem("note", {**OK, "mission": None}) is None
    assert entry_problem("Note", OK) == "'Note' is not a journal entry kind"


def test_an_entry_reads_back_field_by_field() -> None:
    e = entry_of(5, "kill", {**OK, "text": "Kay shot down a 109.\nOver the sea."})
    assert e == Entry(5, EntryKind.KILL, "1944-06-06", "Kay shot down a 109.\nOver the sea.",
                      (1, 2), (7,), 3)
    assert e.first_line == "Kay shot down a 109."
    bare = entry_of(6, "note", {})
    assert bare == Entry(6, EntryKind.NOTE, "", "", (), (), None)


def test_the_filters_each_narrow_the_journal() -> None:
    e = entry_of(1, "wound", {**OK, "text": "Kay hit in the arm"})
    assert matches(e)
    assert matches(e, character=2) and not matches(e, character=9)
    assert matches(e, aircraft=7) and not matches(e, aircraft=8)
    assert matches(e, mission=3) and not matches(e, mission=4)
    assert matches(e, kind=EntryKind.WOUND) and not matches(e, kind=EntryKind.NOTE)
    assert matches(e, search="ARM") and not matches(e, search="leg")
    assert not matches(e, character=2, aircraft=8)


def test_markdown_a_heading_per_day_kinds_in_italics_and_the_intro() -> None:
    entries = [entry_of(1, "note", {**OK, "text": "Rain.\nNo flying."}),
               entry_of(2, "death", {**OK, "text": "Tom is dead."}),
               entry_of(3, "repair", {**OK, "day": "1944-06-07", "text": "Spit repaired."})]
    assert markdown("Journal", entries, intro=("Squadron 1.",)) == (
        "# Journal\n\nSquadron 1.\n\n## 1944-06-06\n\n- Rain.\n  No flying.\n"
        "- *death* Tom is dead.\n\n## 1944-06-07\n\n- *repair* Spit repaired.\n")
    assert markdown("Empty", []) == "# Empty\n"


def test_markdown_heads_an_entry_without_a_day_too() -> None:
    assert markdown("J", [entry_of(1, "note", {"text": "Undated."})]) == \
        "# J\n\n## \n\n- Undated.\n"
