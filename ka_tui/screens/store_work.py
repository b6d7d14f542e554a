"""The one way a screen works on the campaign file: in a worker thread, with
the result (or the error) handed back on the app's thread, and the change
published to every view once it is in the file.

    store_work(self, lambda db: roster.delete(db, cid), group="roster-write",
               done=self._deleted, publish=Change.ROSTER)

``job`` gets the open ``CampaignDB`` and runs in a thread (it may block, run
migrations, take a write lock); ``done(result)`` and ``failed(error)`` run on
the app's thread, so they may touch widgets. ``publish`` names what the job
wrote: the watcher takes it as this process's own write at once, in the
worker, right after the job; after ``done`` the change goes to every
subscribed view (this node's own callback ignores it, ``source`` being this
node). A job that may write nothing says so in its result: ``wrote(result)``
false publishes nothing. A job that writes several times (a queue of steps),
or one run by another worker (a form's ``write``, in the form's save
worker), calls ``announce(node, change)`` after each write, from its thread.

Only the errors in ``errors`` (``StoreError`` by default) are expected;
anything else ends the worker as Textual reports it (``exit_on_error=False``
keeps the app running). Without ``failed`` an expected error is shown with
the door's ``show_store_error``. ``diagnose="the house rules"`` makes a read
whose failure is one message for the GM: any error becomes
``store/load_failure.load_failure``'s text, the damage looked for in the worker,
and reaches ``failed`` as a ``StoreError``.

``exclusive=True`` cancels the group's older workers: a read cancelled so
(a newer read of the same view is on its way) or whose node has gone hands
nothing back, so an old read never shows over a newer one; a job that
published a change still reports it.

The keys wait for the job (``widgets/key_gate.py``): from its start until
``done`` or ``failed`` has run (or the worker is over, however it ends),
when a key began it -- the app's key gate is busy and ``node`` is on the
screen on top, so the read a key's write begins in its ``done`` holds them
too -- or always with ``hold_keys=True`` (a view's first read), never with
``hold_keys=False`` (a read no key depends on: a detail pane's extras).

``file_work`` is the same for work on campaign files with no campaign open
(the picker's checks, a restore): its job takes no argument.

``tests/test_store_off_ui_thread.py`` checks that screens call the store
only from jobs given to these two.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

from textual.dom import DOMNode
from textual.worker import Worker, get_current_worker

from ka_tui.screens.door import CampaignChanged, Change, Door, door
from ka_tui.store.errors import StoreError
from ka_tui.widgets.key_gate import begun_by_a_key, hold_keys as hold_keys_of

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

T = TypeVar("T")


def store_work(node: DOMNode, job: Callable[[CampaignDB], T], *,
               group: str,
               done: Callable[[T], object] | None = None,
               failed: Callable[[Exception], object] | None = None,
               publish: Change | Iterable[Change] = (),
               title: str = "Not saved",
               exclusive: bool = False,
               errors: tuple[type[Exception], ...] = (StoreError,),
               diagnose: str | None = None,
               wrote: Callable[[T], bool] | None = None,
               hold_keys: bool | None = None) -> Worker[None]:
    """Run ``job(db)`` in a worker thread of ``node``; see the module doc."""
    changes = (publish,) if isinstance(publish, Change) else tuple(publish)
    the_door = door(node)

    def run() -> tuple[T, tuple[Change, ...]]:
        db = the_door.campaign_db()
        for change in changes:  # the watcher holds back what it sees there meanwhile
            the_door.campaign_writing(change)
        try:
            result = job(db) if diagnose is None else _diagnosed(diagnose, job, db)
        except BaseException:
            for change in changes:
                the_door.campaign_write_failed(change)
            raise
        made = changes if wrote is None or wrote(result) else ()
        for change in changes:  # in the file now: the watcher takes it as ours
            if change in made:
                the_door.campaign_written(change)
            else:
                the_door.campaign_write_failed(change)
        return result, made

    return _work(node, run, group=group, done=done, failed=failed, title=title,
                 exclusive=exclusive,
                 errors=(Exception,) if diagnose is not None else errors, what=diagnose,
                 the_door=the_door, hold_keys=hold_keys)


def announce(node: DOMNode, *changes: Change) -> None:
    """From a job's thread, right after its write (a form's ``write``, a queue
    of steps): the watcher takes the write as this process's own, and every
    view subscribed reads again (``node``'s own callback ignores it)."""
    the_door = door(node)
    for change in changes:
        the_door.campaign_changed(CampaignChanged(change, node))


def file_work(node: DOMNode, job: Callable[[], T], *,
              group: str,
              done: Callable[[T], object] | None = None,
              failed: Callable[[Exception], object] | None = None,
              title: str = "Not done",
              exclusive: bool = False,
              errors: tuple[type[Exception], ...] = (StoreError,),
              hold_keys: bool | None = None) -> Worker[None]:
    """Run ``job()`` (work on campaign files, none open) in a worker thread of
    ``node``; ``done``, ``failed`` and ``hold_keys`` as for ``store_work``."""
    def run() -> tuple[T, tuple[Change, ...]]:
        return job(), ()

    return _work(node, run, group=group, done=done, failed=failed, title=title,
                 exclusive=exclusive, errors=errors, what=None, the_door=None,
                 hold_keys=hold_keys)


def _diagnosed(what: str, job: Callable[[CampaignDB], T], db: CampaignDB) -> T:
    from ka_tui.store.load_failure import load_failure

    try:
        return job(db)
    except Exception as error:  # noqa: BLE001 - any failure: one message, named
        raise load_failure(what, error, db) from error


def _work(node: DOMNode, run: Callable[[], tuple[T, tuple[Change, ...]]], *, group: str,
          done: Callable[[T], object] | None, failed: Callable[[Exception], object] | None,
          title: str, exclusive: bool, errors: tuple[type[Exception], ...],
          what: str | None, the_door: Door | None, hold_keys: bool | None) -> Worker[None]:
    app = node.app
    hold = hold_keys_of(node) if (begun_by_a_key(node) if hold_keys is None else hold_keys) \
        else None

    def finish(worker: Worker[None], got: tuple[T, tuple[Change, ...]]) -> None:
        result, changes = got
        broke: Exception | None = None
        if done is not None and not worker.is_cancelled:
            try:
                done(result)
            except Exception as error:  # noqa: BLE001 - the write stands; say so, go on
                broke = error
        for change in changes:   # the other views still learn of the write
            (the_door or door(node)).campaign_changed(CampaignChanged(change, node))
        if broke is not None:
            # in the worker thread it would vanish (the worker only turns to ERROR)
            app.log.error("after a store job", repr(broke))
            app.notify(f"Saved, but this screen could not show it ({type(broke).__name__}: "
                       f"{broke}); ctrl+l redraws, changing mode reloads it.",
                       title="Saved", severity="error", timeout=15)

    def fail(worker: Worker[None], error: Exception) -> None:
        if worker.is_cancelled:
            return
        if failed is not None:
            failed(error)
        else:
            (the_door or door(node)).show_store_error(title, error)

    def thread() -> None:
        worker: Worker[None] = get_current_worker()
        try:
            got = run()
        except errors as error:
            if what is not None and not isinstance(error, StoreError):
                from ka_tui.store.load_failure import load_failure  # before the job: no file

                error = load_failure(what, error)
            app.call_from_thread(fail, worker, error)
            return
        app.call_from_thread(finish, worker, got)

    worker: Worker[None] = node.run_worker(thread, thread=True, group=group,
                                           exclusive=exclusive, exit_on_error=False)
    if hold is not None:
        hold.until_done(worker)  # after ``done`` or ``failed``, whatever ends the worker
    return worker
