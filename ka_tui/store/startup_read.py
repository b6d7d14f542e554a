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
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ka_tui.store.roster_reads import RosterData, load_character_extra, load_roster

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB
    from ka_tui.store.player_data import PlayerView

T = TypeVar("T")


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
    detail = None if first is None else (first["id"], load_character_extra(db, first["id"]))
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
    if not hasattr(os, "fork"):
        return in_thread(read)
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        r, w = os.pipe()
    except OSError:
        return in_thread(read)
    try:
        pid = os.fork()
    except OSError:
        os.close(r)
        os.close(w)
        return in_thread(read)
    if pid == 0:  # the child: never returns
        _child(read, r, w)
    os.close(w)
    future: Future[T] = Future()

    def collect() -> None:
        chunks = []
        with os.fdopen(r, "rb") as pipe:
            while chunk := pipe.read(1 << 16):
                chunks.append(chunk)
        os.waitpid(pid, 0)
        try:
            ok, value = pickle.loads(b"".join(chunks))
        except Exception:  # noqa: BLE001 - the child died before answering
            future.set_exception(RuntimeError("the startup read ended without an answer"))
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    threading.Thread(target=collect, name="ka-startup-read", daemon=True).start()
    return future


def _child(read: Callable[[], object], r: int, w: int) -> None:
    try:
        os.close(r)
        # not a byte on the terminal, not a key read from it
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        try:
            payload = pickle.dumps((True, read()), protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException as error:  # noqa: BLE001 - sent to the parent
            try:
                payload = pickle.dumps((False, error))
                pickle.loads(payload)  # one whose __init__ wants other arguments
            except Exception:  # noqa: BLE001 - an exception that cannot be pickled
                payload = pickle.dumps((False, RuntimeError(f"{type(error).__name__}: {error}")))
        with os.fdopen(w, "wb") as pipe:
            pipe.write(payload)
    finally:
        os._exit(0)
