"""The roster's model (screens/roster/model.py) without Textual, on the demo
campaign as the roster reads it: which keys are offered when, the filter and
the sort of each tab, the title line, the detail pane's rows and the one read
of a character's skills per row; and the first frame it keeps light."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from ka_tui.screens.roster.model import NoRowDetail, RosterModel, RowDetail, delete_notes
from ka_tui.store import roster_reads
from ka_tui.store.db import open_campaign
from ka_tui.store.roster_reads import RosterData

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def data(demo_db: Path) -> RosterData:
    with open_campaign(demo_db) as db:
        read = roster_reads.load_roster(db, live=True)
        return replace(read, first_detail=(1, roster_reads.load_character_extra(db, 1)))


def loaded(data: RosterData) -> RosterModel:
    model = RosterModel()
    model.take_read(data)
    return model


def offered(model: RosterModel, action: str, row: int | None = 1,
            box: bool = False) -> bool | None:
    return model.allows(action, row_id=lambda: row, filter_shown=lambda: box)


def test_keys_are_offered_once_read_and_where_they_apply(data: RosterData) -> None:
    model = RosterModel()
    assert offered(model, "add") is None and offered(model, "switch_tab") is True
    model.take_read(data)
    assert offered(model, "add") is True
    assert offered(model, "edit", row=None) is None  # no row under the cursor
    assert offered(model, "flight_card") is False    # the Characters tab: hidden
    model.tab = "aircraft"
    assert offered(model, "flight_card") is True and offered(model, "seats") is True
    assert offered(model, "clear_filter") is False
    assert offered(model, "clear_filter", box=True) is True
    model.set_filter("tem")
    assert offered(model, "clear_filter") is True


def test_the_read_fills_the_tab_shown_and_marks_the_other(data: RosterData) -> None:
    model = RosterModel()
    assert "(…)" in model.title_line(read_only=False)
    model.select_after_load = ("aircraft", 6)
    assert model.take_read(data) == ("aircraft", 6)
    assert model.select_after_load is None
    assert not model.tables["characters"].stale and model.tables["aircraft"].stale
    line = model.title_line(read_only=False)
    assert "[reverse] Characters (11) [/reverse]" in line and " Aircraft (6) " in line
    assert "t: other tab" in line
    assert "READ-ONLY" in model.title_line(read_only=True)
    assert "Battle in progress" in model.in_progress_line()


def test_the_filter_reads_role_status_and_seat(data: RosterData) -> None:
    """A name's any part, or the start of a word the row's status gives (R-5 wounds)."""
    model = loaded(data)
    model.set_filter("wounded")
    assert [r["name"] for r in model.tables["characters"].visible()] == ["Ilse Brandt"]
    assert " Characters (1/11) " in model.title_line(read_only=False)
    model.set_filter("unseated")
    assert {r["name"] for r in model.tables["characters"].visible()} == {"Ilse Brandt",
                                                                         "Mike Dunn",
                                                                         "Yusuf Karim"}


def test_sort_skips_the_columns_left_out_for_room(data: RosterData) -> None:
    model = loaded(data)
    shown = {0, 1, 4, 5, 6}  # Name, Role, K, W, Now: as at 80 columns
    assert model.next_sort(lambda i: i in shown) == "Role"
    assert model.next_sort(lambda i: i in shown) == "K"
    model.reverse_sort()
    state = model.tables["characters"]
    assert state.reverse and state.columns[state.sort].title == "K"
    assert model.next_sort(lambda i: i in shown) == "W" and not state.reverse
    cells = state.cells()
    assert len(cells) == 11 and all(len(c) == len(state.columns) for _, c in cells)


def test_the_detail_reads_a_characters_skills_once(data: RosterData) -> None:
    model = loaded(data)
    arthur = model.row("characters", 1)
    assert model.detail(arthur) == RowDetail("characters", arthur,
                                             data.first_detail[1])  # type: ignore[index]
    assert model.detail_wanted(arthur) is None  # read with the roster
    olga = model.row("characters", 4)
    assert model.detail(olga) == RowDetail("characters", olga, None)
    assert model.detail_wanted(olga) == 4
    assert model.detail_wanted(olga) is None  # pending: not read twice
    model.detail_read(4, {"skills": [], "weapons": []})
    assert model.detail(olga) == RowDetail("characters", olga, {"skills": [], "weapons": []})
    model.set_filter("zzq")
    assert model.detail(None) == NoRowDetail("characters", "zzq")
    model.tab = "aircraft"
    assert model.detail_wanted(model.row("aircraft", 1)) is None
    detail = model.detail(model.row("aircraft", 1))
    assert isinstance(detail, RowDetail) and len(detail.characters) == 11


def test_delete_asks_with_his_seat(data: RosterData, demo_db: Path) -> None:
    model = loaded(data)
    question, title = model.delete_question(model.row("characters", 1))  # type: ignore[arg-type]
    assert question == ("Delete the character Arthur Hale with its skills and weapons? "
                        "This cannot be undone.") and title == "Delete character"
    with open_campaign(demo_db) as db:
        assert delete_notes(db, 1) == ["pilot of Tempest KA-A: the seat is freed"]


def test_the_changes_the_roster_reads_again_for() -> None:
    model = RosterModel()
    assert model.reads_on("roster") and model.reads_on("fight") and model.reads_on("battle")
    assert not model.reads_on("rolls") and not model.reads_on("house_rules")


def test_the_first_frame_loads_no_more_of_the_engine_or_the_store() -> None:
    """The roster's first frame: of the rules engine and the store, the
    modules it loaded before its model (no SQLModel, no replay of logs)."""
    code = ("import json, sys\nimport ka_tui.app, ka_tui.screens.roster.screen\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith("
            "('ka_tui.rules', 'ka_tui.store', 'sqlmodel', 'sqlalchemy')))))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT)}, timeout=120, check=True)
    assert set(json.loads(done.stdout)) <= {
        "ka_tui.rules", "ka_tui.rules.core", "ka_tui.rules.core.skills", "ka_tui.store",
        "ka_tui.store.load_failure", "ka_tui.store.errors", "ka_tui.store.limits",
        "ka_tui.store.roster_reads",
        "ka_tui.store.changes",  # the Change table (an enum and SQL strings)
        "ka_tui.store.events"}   # the log's plain-SQL reads (no SQLModel, no replay)


def test_the_model_loads_no_textual() -> None:
    code = ("import json, sys\nimport ka_tui.screens.roster.model\n"
            "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'textual', 'rich', 'sqlmodel', 'sqlalchemy'})))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT)}, timeout=120, check=True)
    assert json.loads(done.stdout) == []
