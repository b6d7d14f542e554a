"""What is loaded before the first frame, for each way of starting.

Not a timing: a fresh process runs the real command line (``ka_tui.cli.main``)
with the app headless at 80x24, and records ``sys.modules`` when the first
screen has drawn its data (the roster's ``on_roster_ready``; the picker once
its list is shown; the player's screen once his view is in). SQLModel (with SQLAlchemy and pydantic) and the demo
builder cost about half a second; none of them may load before that frame.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ka_tui.store.demo import create_demo

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import gc, json, os, sys
from textual.app import App
import ka_tui.app as app_module
from ka_tui.screens import campaign_picker

HEAVY = ("sqlmodel", "sqlalchemy", "pydantic", "ka_tui.store.demo", "ka_tui.store.models")
seen = {}

def record(app, what):
    if not seen:
        seen["frame"] = what
        seen["loaded"] = sorted(m for m in sys.modules if m.split(".")[0] in HEAVY[:3]
                                or m in HEAVY)
        seen["rules"] = sorted(m for m in sys.modules if m.startswith("ka_tui.rules."))
        seen["collector"] = gc.isenabled()

    def later():
        seen["collector_later"] = gc.isenabled()
        app.exit()
    app.set_timer(float(os.environ.get("PROBE_EXIT_AFTER", "0.2")), later)

init = app_module.KaApp.__init__
def patched_init(self, *args, **kwargs):
    init(self, *args, **kwargs)
    self.on_roster_ready = lambda: record(self, "roster")
app_module.KaApp.__init__ = patched_init
app_module.KaApp.run = lambda self: App.run(self, headless=True, size=(80, 24))

show = campaign_picker.CampaignPickerScreen._show
def patched_show(self, found):
    show(self, found)
    self.call_after_refresh(lambda: record(self.app, "picker"))
campaign_picker.CampaignPickerScreen._show = patched_show

import ka_tui.player_app as player_module
from ka_tui.screens.player import screen as player_screen
player_module.PlayerApp.run = lambda self: App.run(self, headless=True, size=(80, 24))
shown = player_screen.PlayerScreen._loaded
def patched_loaded(self, view, first):
    shown(self, view, first)
    self.call_after_refresh(lambda: record(self.app, "player"))
player_screen.PlayerScreen._loaded = patched_loaded

import ka_tui.cli
ka_tui.cli._need_terminal = lambda **_: None  # headless here: no terminal to need
code = ka_tui.cli.main(sys.argv[1:])
print("RESULT " + json.dumps({"code": code, **seen}))
"""


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("startup") / "demo.db"
    create_demo(path).close()
    return path


def first_frame(args: list[str], data_home: Path, exit_after: float = 0.2
                ) -> dict[str, object]:
    env = {**os.environ, "XDG_DATA_HOME": str(data_home), "PYTHONPATH": str(ROOT),
           "PROBE_EXIT_AFTER": str(exit_after)}
    done = subprocess.run([sys.executable, "-c", CHILD, *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"no first frame: {done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    result: dict[str, object] = json.loads(lines[-1][len("RESULT "):])
    return result


def data_home(tmp_path: Path, *campaigns: Path) -> Path:
    folder = tmp_path / "data" / "ka-tui"
    folder.mkdir(parents=True)
    for i, source in enumerate(campaigns):
        shutil.copy(source, folder / ("demo.db" if i == 0 else f"campaign-{i}.db"))
    return tmp_path / "data"


def test_demo_on_an_existing_campaign_loads_no_sqlmodel_before_the_first_frame(
        demo_file: Path, tmp_path: Path) -> None:
    home = data_home(tmp_path, demo_file)
    before = (home / "ka-tui" / "demo.db").read_bytes()
    result = first_frame(["--demo"], home)
    assert result["frame"] == "roster"
    assert result["loaded"] == []
    assert result["code"] == 0
    assert (home / "ka-tui" / "demo.db").read_bytes() == before  # nothing was rebuilt


def test_demo_with_db_path_on_an_existing_file(demo_file: Path, tmp_path: Path) -> None:
    copy = tmp_path / "mine.db"
    shutil.copy(demo_file, copy)
    result = first_frame(["--demo", "--db", str(copy)], tmp_path / "empty")
    assert (result["frame"], result["loaded"]) == ("roster", [])


def test_db_path_loads_no_sqlmodel_before_the_first_frame(demo_file: Path,
                                                          tmp_path: Path) -> None:
    copy = tmp_path / "mine.db"
    shutil.copy(demo_file, copy)
    result = first_frame(["--db", str(copy)], tmp_path / "empty")
    assert (result["frame"], result["loaded"]) == ("roster", [])


def test_one_campaign_in_the_data_folder(demo_file: Path, tmp_path: Path) -> None:
    result = first_frame([], data_home(tmp_path, demo_file))
    assert (result["frame"], result["loaded"]) == ("roster", [])


def test_the_picker_loads_no_sqlmodel_before_its_first_frame(demo_file: Path,
                                                            tmp_path: Path) -> None:
    result = first_frame([], data_home(tmp_path, demo_file, demo_file, demo_file))
    assert (result["frame"], result["loaded"]) == ("picker", [])


def test_a_player_loads_no_sqlmodel_before_his_first_frame(demo_file: Path,
                                                           tmp_path: Path) -> None:
    """``play --as NAME``: his sheet, fights and air battles (the logs read by
    plain SQL, ``db.plain_read``) are on his first frame without SQLModel."""
    copy = tmp_path / "mine.db"
    shutil.copy(demo_file, copy)
    result = first_frame(["play", "--as", "Arthur", "--db", str(copy)], tmp_path / "empty")
    assert (result["frame"], result["loaded"], result["code"]) == ("player", [], 0)


def test_a_player_in_no_fight_loads_no_rules_engine_before_his_first_frame(demo_file: Path,
                                                                   tmp_path: Path) -> None:
    """His first frame is his sheet: the fight's rules load only when he is
    in a fight (its card may be due), the air rules when a pane shows his
    battle (his startup read replays it only when asked for, after the frame)."""
    copy = tmp_path / "mine.db"
    shutil.copy(demo_file, copy)
    result = first_frame(["play", "--as", "Arthur", "--db", str(copy)], tmp_path / "empty")
    engines = [m for m in result["rules"] if m.split(".")[2] in ("cqc", "air", "campaign")]
    assert (result["frame"], engines) == ("player", [])


def test_the_check_sees_sqlmodel_when_the_demo_is_built(tmp_path: Path) -> None:
    """The probe can fail: building a new demo loads SQLModel before the frame."""
    result = first_frame(["--demo", "--db", str(tmp_path / "new.db")], tmp_path / "empty")
    assert result["frame"] == "roster"
    assert "sqlmodel" in result["loaded"]


@pytest.mark.parametrize("way", ["gm", "player"])
def test_no_garbage_collection_while_the_app_starts_and_again_after(
        way: str, demo_file: Path, tmp_path: Path) -> None:
    """The collector is paused for the start (``startup_read.pause_collector``:
    25-30 ms of a start on one core) and runs again once the first frame is
    out (``CampaignHost``), so a long evening does not pile up garbage."""
    from ka_tui.store.startup_read import COLLECTOR_BACK_S

    copy = tmp_path / "mine.db"
    shutil.copy(demo_file, copy)
    args = ["--db", str(copy)] + (["play", "--as", "Arthur"] if way == "player" else [])
    result = first_frame(args, tmp_path / "empty", exit_after=COLLECTOR_BACK_S + 1.0)
    assert (result["collector"], result["collector_later"]) == (False, True)
