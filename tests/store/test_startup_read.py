"""The roster's startup read (the first frame): ``store/startup_read.py``
runs it in a forked child begun before Textual is imported (or a thread), and
hands back its result, or the exception the roster would have met itself.

Real parts: real child processes, the demo campaign in a real SQLite file.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from ka_tui.store.backups import list_backups
from ka_tui.store.errors import NewerSchema, StoreError, ValidationError
from ka_tui.store.startup_read import in_child, in_child_then, in_thread, read_roster
from ka_tui.store.watch import fingerprints

RESULT_TIMEOUT = 20  # a loaded 2-core machine; a hang still fails


def _raise(error: BaseException) -> Callable[[], Any]:
    def read() -> Any:
        raise error
    return read


def _no_zombie(pid: int) -> None:
    """The child has been reaped: it is no longer this process's child."""
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def test_in_child_returns_the_result_read_in_another_process() -> None:
    """The read runs in a forked child, which is reaped."""
    future = in_child(os.getpid)
    child = future.result(timeout=RESULT_TIMEOUT)
    assert isinstance(child, int) and child != os.getpid()
    _no_zombie(child)


def test_in_child_hands_back_a_structured_result() -> None:
    """Any picklable value comes back whole (pickled)."""
    value: dict[str, Any] = {"names": ["Ann", "Kasia"], "pid": None, "nested": (1, 2.5, b"x")}
    got: dict[str, Any] = in_child(lambda: {**value, "pid": os.getpid()}).result(
        timeout=RESULT_TIMEOUT)
    assert got["pid"] != os.getpid()
    assert {**got, "pid": None} == value
    _no_zombie(got["pid"])


@pytest.mark.parametrize("error", [
    ValueError("bad value 7"),
    StoreError("cannot read /x/c.db: disk I/O error"),
    ValidationError("strength", "must be 1-10"),
    NewerSchema("/x/c.db", 99, 12),
], ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("run", [in_child, in_thread], ids=["child", "thread"])
def test_an_exception_in_the_read_comes_back_as_that_exception(
        run: Callable[[Callable[[], Any]], Future[Any]], error: Exception) -> None:
    """The roster screen tells a StoreError (shown to the
    GM) from anything else (read again): the type and message must survive."""
    future = run(_raise(error))
    with pytest.raises(type(error)) as raised:
        future.result(timeout=RESULT_TIMEOUT)
    assert type(raised.value) is type(error)
    assert str(raised.value) == str(error)
    if isinstance(error, ValidationError):
        assert (raised.value.field, raised.value.message) == (error.field, error.message)  # type: ignore[attr-defined]


def test_an_exception_that_cannot_be_pickled_comes_back_as_a_runtime_error_naming_it() -> None:
    """A class defined in a function cannot be pickled."""
    class LocalTrouble(Exception):
        pass

    future = in_child(_raise(LocalTrouble("the log would not replay")))
    with pytest.raises(RuntimeError) as raised:
        future.result(timeout=RESULT_TIMEOUT)
    assert str(raised.value) == "LocalTrouble: the log would not replay"


class TwoPartError(Exception):
    """Pickles, but does not unpickle: its ``__init__`` wants two arguments."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}")


def test_an_exception_that_cannot_be_unpickled_comes_back_as_a_runtime_error_naming_it(
        ) -> None:
    """Not "ended without an answer": the parent's
    unpickling would fail, so the child sends what it can."""
    future = in_child(_raise(TwoPartError("fight 3", "no first event")))
    with pytest.raises(RuntimeError) as raised:
        future.result(timeout=RESULT_TIMEOUT)
    assert str(raised.value) == "TwoPartError: fight 3: no first event"


def test_a_result_that_cannot_be_pickled_comes_back_as_an_error_not_a_hang() -> None:
    """The read's value cannot cross the pipe: the parent
    gets an exception (the roster then reads again itself)."""
    future = in_child(lambda: (lambda: None))
    with pytest.raises(Exception):  # noqa: B017 - pickle's own error, whichever it is
        future.result(timeout=RESULT_TIMEOUT)


def test_a_child_that_dies_without_answering_gives_a_runtime_error() -> None:
    """The roster's first frame."""
    def die() -> None:
        os._exit(3)

    future = in_child(die)
    with pytest.raises(RuntimeError, match="^the startup read ended without an answer$"):
        future.result(timeout=RESULT_TIMEOUT)


def test_a_second_answer_is_read_in_the_same_child_only_once_asked_for() -> None:
    """``in_child_then``: the first answer comes at once; ``then`` runs in
    the same child, given the first answer, after it is asked for (the
    player's battle, after his first frame); the child is reaped before the
    second answer is handed over."""
    first, second = in_child_then(os.getpid, lambda pid: (pid, os.getpid(), time.monotonic()))
    child = first.result(timeout=RESULT_TIMEOUT)
    assert child != os.getpid() and not second.done()
    asked = time.monotonic()
    second.ask()
    given, ran_in, ran_at = second.result(timeout=RESULT_TIMEOUT)
    assert (given, ran_in) == (child, child) and ran_at >= asked
    _no_zombie(child)


@pytest.mark.parametrize("run", ["child", "thread"])
def test_waiting_for_the_second_answer_asks_for_it_and_a_failed_first_skips_it(
        run: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``result()`` asks; when the first read fails, ``then`` never runs and
    the second answer fails too (without a fork: the same, in threads)."""
    if run == "thread":
        monkeypatch.delattr(os, "fork")
    ran: list[int] = []
    first, second = in_child_then(lambda: 6, lambda six: six * 7)
    assert second.result(timeout=RESULT_TIMEOUT) == 42 and first.result() == 6
    failed, after = in_child_then(_raise(ValueError("no campaign")), ran.append)
    with pytest.raises(ValueError, match="no campaign"):
        failed.result(timeout=RESULT_TIMEOUT)
    with pytest.raises(Exception):  # noqa: B017 - the first's error, or "no answer"
        after.result(timeout=RESULT_TIMEOUT)
    assert ran == []


def test_the_child_writes_nothing_to_the_parents_terminal(
        capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Not a byte of the child's reaches the screen
    Textual is about to take over (prints, raw writes).

    ``sys.stdout``/``sys.stderr`` write to descriptors 1 and 2, as in the
    command line (capfd alone points them at its own files, which a child
    process would not have)."""
    monkeypatch.setattr(sys, "stdout", open(1, "w", closefd=False))  # noqa: SIM115
    monkeypatch.setattr(sys, "stderr", open(2, "w", closefd=False))  # noqa: SIM115
    capfd.readouterr()

    def noisy() -> int:
        print("out from the child")
        print("err from the child", file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        os.write(1, b"raw out\n")
        os.write(2, b"raw err\n")
        return os.getpid()

    def noisy_failure() -> None:
        noisy()
        raise ValueError("and a failure")

    child = in_child(noisy).result(timeout=RESULT_TIMEOUT)
    assert child != os.getpid()
    with pytest.raises(ValueError):
        in_child(noisy_failure).result(timeout=RESULT_TIMEOUT)
    print("the parent still writes")  # the capture works
    sys.stdout.flush()
    out, err = capfd.readouterr()
    assert (out, err) == ("the parent still writes\n", "")


def test_in_thread_gives_the_same_results_in_this_process() -> None:
    """Where fork is missing or fails."""
    assert in_thread(os.getpid).result(timeout=RESULT_TIMEOUT) == os.getpid()
    assert in_thread(lambda: [1, "two"]).result(timeout=RESULT_TIMEOUT) == [1, "two"]

    class LocalTrouble(Exception):
        pass

    with pytest.raises(LocalTrouble, match="in process"):  # no pickling in a thread
        in_thread(_raise(LocalTrouble("in process"))).result(timeout=RESULT_TIMEOUT)


def _expected(path: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    con = sqlite3.connect(path)
    try:
        return (con.execute("SELECT id, name FROM character").fetchall(),
                con.execute("SELECT id, name FROM aircraft").fetchall())
    finally:
        con.close()


def _check_roster(data: Any, path: Path) -> None:
    characters, aircraft = _expected(path)
    assert characters and aircraft
    assert sorted((c["id"], c["name"]) for c in data.characters) == sorted(characters)
    assert sorted((a["id"], a["name"]) for a in data.aircraft) == sorted(aircraft)
    assert data.live is True
    first_id, first_name = min(characters, key=lambda r: str(r[1]).casefold())
    assert data.first_detail is not None
    detail_id, extra = data.first_detail
    assert detail_id == first_id, (first_name, characters)
    con = sqlite3.connect(path)
    try:
        skills = sorted(r[0] for r in con.execute(
            "SELECT name FROM skill WHERE character_id = ?", (first_id,)))
        weapons = sorted(r[0] for r in con.execute(
            "SELECT name FROM weapon WHERE character_id = ?", (first_id,)))
        seen = fingerprints(con)
    finally:
        con.close()
    assert skills, f"the demo's {first_name} has skills"
    assert sorted(s["name"] for s in extra["skills"]) == skills
    assert sorted(w["name"] for w in extra["weapons"]) == weapons
    assert all(s["character_id"] == first_id for s in extra["skills"] + extra["weapons"])
    assert data.prints == seen


@pytest.mark.parametrize("run", [in_child, in_thread], ids=["child", "thread"])
def test_read_roster_reads_the_demo_campaign_as_the_first_frame_shows_it(
        demo_db: Path, run: Callable[[Callable[[], Any]], Future[Any]]) -> None:
    """Every character and aircraft, the live state, the
    first row's detail (by name, case-folded), and the watcher's fingerprints."""
    data = run(lambda: read_roster(demo_db)).result(timeout=RESULT_TIMEOUT)
    _check_roster(data, demo_db)
    assert list_backups(demo_db) == []  # only asked for: daily_backup=True


def test_the_first_detail_is_the_first_name_case_folded(demo_db: Path) -> None:
    """A lower-case name sorts among the others as the
    roster's Name column does, not after every capital."""
    con = sqlite3.connect(demo_db)
    try:
        (cid,) = con.execute("SELECT id FROM character ORDER BY name DESC LIMIT 1").fetchone()
        con.execute("UPDATE character SET name = 'aardvark' WHERE id = ?", (cid,))
        con.commit()
    finally:
        con.close()
    data = read_roster(demo_db)
    assert data.first_detail is not None and data.first_detail[0] == cid
    _check_roster(data, demo_db)


def test_read_roster_in_a_child_takes_the_days_backup(demo_db: Path) -> None:
    """The command line leaves the day's backup to the
    startup read (``daily_backup=True``); it exists once the read answered."""
    assert list_backups(demo_db) == []
    data = in_child(lambda: read_roster(demo_db, daily_backup=True)).result(
        timeout=RESULT_TIMEOUT)
    _check_roster(data, demo_db)
    assert [b.reason for b in list_backups(demo_db)] == ["daily"]
    read_roster(demo_db, daily_backup=True)  # at most one a day
    assert [b.reason for b in list_backups(demo_db)] == ["daily"]


def test_read_roster_of_a_file_that_is_not_a_campaign_comes_back_as_a_store_error(
        tmp_path: Path) -> None:
    """The roster shows a StoreError as it would its own."""
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError):
        in_child(lambda: read_roster(junk)).result(timeout=RESULT_TIMEOUT)
