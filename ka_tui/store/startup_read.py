"""The roster's startup read, done while Textual starts (its first frame).

Opening the campaign and reading the roster with the live state of open
fights and battles means importing the rules engine and replaying logs:
about 0.1 s of CPU. In a thread it competes with Textual's own start for
Python's one interpreter lock; so where ``os.fork`` exists the read runs in
a forked child (begun by the command line before Textual is imported), which
hands the result back pickled through a pipe, and the screen waits for
nothing. Elsewhere (or when a fork fails) the same read runs in a thread.

The child reads, and for the GM's roster takes the day's backup (best
effort, as ever): the command line has already checked and migrated the
file. Whatever goes wrong in it comes back as the exception the screen would
have met reading it itself. An app built without such a read (tests, other
callers) reads in a thread on its own open campaign (``roster_snapshot``,
``player_snapshot``), so an old file is migrated once.

A player's first frame is his sheet: his child (``begin_player_read``)
answers with his view first, without the air rules, and replays the battle
he may see for pane 4 (0.1-0.3 s of CPU) only when asked for it, after the
first frame (``in_child_then``): his screen asks a second after it, or as a
pane needs it.
"""

from __future__ import annotations

import gc
import os
import pickle
import struct
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

from ka_tui.store.roster_reads import RosterData, load_character_extra, load_roster

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB
    from ka_tui.store.player_data import PlayerView

T = TypeVar("T")
U = TypeVar("U")
COLLECTOR_BACK_S = 1.0  # after the app's mount: its first frame is out by then
_LENGTH = struct.Struct("<Q")  # each answer on the pipe: its length, then its pickle


def pause_collector() -> None:
    """No garbage collection while the app starts (before the startup read
    is forked, which inherits it off and ends soon after): importing Textual
    and building the first screen make a few hundred thousand objects, next
    to none of them garbage, and each batch of them set off a collection
    that walked all those before it (25-30 ms of a 300 ms start on one
    core). ``CampaignHost`` turns it on again ``COLLECTOR_BACK_S`` after
    its mount, in a moment without keys (``resume_collector``)."""
    gc.disable()


def resume_collector() -> None:
    """The start's garbage collected once, what is alive then frozen out of
    later collections (a first collection after the pause walks all of it:
    50-90 ms), and collection on again."""
    gc.collect()
    gc.freeze()
    gc.enable()


def read_roster(path: Path, *, daily_backup: bool = False,
                read_only: bool = False) -> RosterData:
    """The roster as its first frame shows it: every row, the live state of open
    fights and battles, the first row's detail (the Name column's order), and
    the watcher's fingerprints taken just before (``prints``: a change another
    process commits after them is reported, not lost). ``daily_backup``: take
    the day's backup first (``db.open_campaign``); ``read_only`` as asked
    on the command line."""
    from ka_tui.store.db import open_campaign

    db = open_campaign(path, daily_backup=daily_backup, read_only=read_only)
    try:
        return roster_snapshot(db)
    finally:
        db.close()


def roster_snapshot(db: CampaignDB) -> RosterData:
    """``read_roster`` on an open campaign."""
    prints = _prints(db)
    data = load_roster(db, live=True)
    first = min(data.characters, key=lambda r: str(r["name"]).casefold(), default=None)
    detail = None if first is None else (first["id"], load_character_extra(db, first["id"],
                                                                         kept=True))
    return replace(data, first_detail=detail, prints=prints)


def read_player(path: Path, name: str) -> PlayerView:
    """The player's view as his first frame shows it (``players.player_view``),
    with the watcher's fingerprints taken just before (``prints``)."""
    from ka_tui.store.db import open_campaign

    db = open_campaign(path)
    try:
        # deferred: the parent unpickles it without the rules engine
        return player_snapshot(db, name).deferred()
    finally:
        db.close()


def begin_player_read(path: Path, name: str) -> Future[PlayerView]:
    """``read_player`` in a forked child (``in_child_then``), in two answers: his
    view without the fight and battle as he may see them (``first_view``:
    no air rules imported), then, when asked for, those two pickled: the
    view's ``later`` is that answer's future (``Asked``), which
    ``PlayerView.details`` asks for."""
    from ka_tui.store.db import open_campaign

    opened: list[CampaignDB] = []
    shown: list[PlayerView] = []

    def first() -> PlayerView:
        from ka_tui.store.player_data import first_view

        db = open_campaign(path)
        try:
            prints = _prints(db)
            view = first_view(db, name)
        except BaseException:
            db.close()
            raise
        opened.append(db)
        shown.append(view)
        return replace(view, progress=None, prints=prints)

    def rest(_: PlayerView) -> bytes:
        from ka_tui.store.players import battle_seen

        try:
            view = shown[0]
            return pickle.dumps((view.progress, battle_seen(opened[0], view)),
                                protocol=pickle.HIGHEST_PROTOCOL)
        finally:
            opened[0].close()

    answer, later = in_child_then(first, rest)
    view: Future[PlayerView] = Future()

    def joined(done: Future[PlayerView]) -> None:
        error = done.exception()
        if error is not None:
            view.set_exception(error)
        else:
            view.set_result(replace(done.result(), later=later))

    answer.add_done_callback(joined)
    return view


def player_snapshot(db: CampaignDB, name: str) -> PlayerView:
    """``read_player`` on an open campaign (not deferred)."""
    from ka_tui.store.players import player_view

    prints = _prints(db)
    return replace(player_view(db, name), prints=prints)


def _prints(db: CampaignDB) -> dict[str, int]:
    from ka_tui.store.watch import fingerprints

    con = db.connect()
    try:
        return fingerprints(con)
    finally:
        con.close()


def in_thread(read: Callable[[], T]) -> Future[T]:
    future: Future[T] = Future()

    def run() -> None:
        try:
            future.set_result(read())
        except BaseException as error:  # noqa: BLE001 - handed to whoever waits
            future.set_exception(error)

    threading.Thread(target=run, name="ka-startup-read", daemon=True).start()
    return future


def in_child(read: Callable[[], T]) -> Future[T]:
    """``read()`` in a forked child; its result (or exception) in the future.
    Call it before any other thread starts (a fork copies only this one)."""
    return _fork(read, None)[0]


def in_child_then(read: Callable[[], T], then: Callable[[T], U]
                  ) -> tuple[Future[T], Asked[U]]:
    """``read()`` in a forked child, and ``then(its result)`` in the same child
    once the second answer is asked for (``Asked.ask``, or waiting for it):
    the first answer comes as soon as it is read, and the rest is done after
    the first frame, or never when nothing asks (the child then ends with
    this process). Each answer (or exception) in its future; when ``read``
    fails, ``then`` does not run and its future fails too. Without a fork,
    each runs in a thread."""
    first, second = _fork(read, then)
    assert second is not None
    return first, second


class Asked(Future[U]):
    """A future whose work begins when it is first asked for: ``ask()``, or
    ``result()`` / ``exception()``, which wait for it."""

    def __init__(self, begin: Callable[[], None]) -> None:
        super().__init__()
        self._begin: Callable[[], None] | None = begin
        self._asking = threading.Lock()

    def ask(self) -> None:
        with self._asking:
            begin, self._begin = self._begin, None
        if begin is not None:
            begin()

    def result(self, timeout: float | None = None) -> U:
        self.ask()
        return super().result(timeout)

    def exception(self, timeout: float | None = None) -> BaseException | None:
        self.ask()
        return super().exception(timeout)


def _fork(read: Callable[[], T], then: Callable[[T], U] | None
          ) -> tuple[Future[T], Asked[U] | None]:
    if not hasattr(os, "fork"):
        return _threaded(read, then)
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        r, w = os.pipe()
        go_r, go_w = os.pipe() if then is not None else (-1, -1)
    except OSError:
        return _threaded(read, then)
    try:
        pid = os.fork()
    except OSError:
        for fd in (r, w, go_r, go_w):
            if fd >= 0:
                os.close(fd)
        return _threaded(read, then)
    if pid == 0:  # the child: never returns
        _child(read, then, r, w, go_r, go_w)
    os.close(w)
    first: Future[T] = Future()
    second: Asked[U] | None = None
    if then is not None:
        os.close(go_r)
        second = Asked(lambda: _go(go_w))

    def collect() -> None:  # the last answer is handed over once the child is reaped
        with os.fdopen(r, "rb") as pipe:
            answer = _answer_from(pipe)
            if second is not None:
                _hand_over(first, answer)
                answer = _answer_from(pipe)
        os.waitpid(pid, 0)
        last: Future[Any] = first if second is None else second
        _hand_over(last, answer)

    threading.Thread(target=collect, name="ka-startup-read", daemon=True).start()
    return first, second


def _go(go_w: int) -> None:
    """Tell the child to go on with its second answer."""
    try:
        os.write(go_w, b"1")
    except OSError:
        pass  # the child is gone: the answer's future says so
    finally:
        os.close(go_w)


def _threaded(read: Callable[[], T], then: Callable[[T], U] | None
              ) -> tuple[Future[T], Asked[U] | None]:
    first = in_thread(read)
    if then is None:
        return first, None

    def begin() -> None:
        def run() -> None:
            try:
                second.set_result(then(first.result()))
            except BaseException as error:  # noqa: BLE001 - handed to whoever waits
                second.set_exception(error)

        threading.Thread(target=run, name="ka-startup-read", daemon=True).start()

    second: Asked[U] = Asked(begin)
    return first, second


def _answer_from(pipe: IO[bytes]) -> bytes | None:
    """One answer's pickle from the pipe; None when the child ended before it."""
    head = pipe.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        return None
    (size,) = _LENGTH.unpack(head)
    body = pipe.read(size)
    return body if len(body) == size else None


def _hand_over(future: Future[T], payload: bytes | None) -> None:
    try:
        if payload is None:
            raise ValueError("no answer")
        ok, value = pickle.loads(payload)
    except Exception:  # noqa: BLE001 - the child died before answering
        future.set_exception(RuntimeError("the startup read ended without an answer"))
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def _answer(read: Callable[[], object]) -> tuple[bool, bytes]:
    """(whether ``read()`` answered, the pickle of its value or exception)."""
    try:
        return True, pickle.dumps((True, read()), protocol=pickle.HIGHEST_PROTOCOL)
    except BaseException as error:  # noqa: BLE001 - sent to the parent
        try:
            payload = pickle.dumps((False, error))
            pickle.loads(payload)  # one whose __init__ wants other arguments
        except Exception:  # noqa: BLE001 - an exception that cannot be pickled
            payload = pickle.dumps((False, RuntimeError(f"{type(error).__name__}: {error}")))
        return False, payload


def _child(read: Callable[[], T], then: Callable[[T], object] | None, r: int, w: int,
           go_r: int, go_w: int) -> None:
    try:
        os.close(r)
        if go_w >= 0:
            os.close(go_w)  # the parent's end: its close (or its end) is our EOF
        # not a byte on the terminal, not a key read from it
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        value: list[T] = []

        def first() -> T:
            value.append(read())
            return value[0]

        with os.fdopen(w, "wb") as pipe:
            ok, payload = _answer(first)
            pipe.write(_LENGTH.pack(len(payload)) + payload)
            pipe.flush()
            if then is not None and ok and os.read(go_r, 1):  # asked for (b"": never)
                _, payload = _answer(lambda: then(value[0]))
                pipe.write(_LENGTH.pack(len(payload)) + payload)
    finally:
        os._exit(0)
