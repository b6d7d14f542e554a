"""The one way a screen works on the campaign file: in a worker thread, with
the result (or the error) handed back on the app's thread, and the change
published to every view once it is in the file.

    store_work(self, lambda db: roster.delete(db, cid), group="roster-write",
               done=self._deleted, publish=Change.ROSTER)

``job`` gets the open ``CampaignDB`` and runs in a thread (it may block, run
migrations, take a write lock); ``done(result)`` and ``failed(error)`` run on
the app's thread, so they may touch widgets. ``publish`` names what the job
wrote: after ``done`` the change goes to every subscribed view (this node's
own callback ignores it, ``source`` being this node) and the watcher takes
it as this process's own write. A job whose result says whether anything
was written returns it and publishes itself from ``done``.

Only the errors in ``errors`` (``StoreError`` by default) are expected;
anything else ends the worker as Textual reports it (``exit_on_error=False``
keeps the app running). Without ``failed`` an expected error is shown with
the door's ``show_store_error``. ``explain(error)``, when given, runs in the
worker thread on an expected error and returns the error ``failed`` gets (a
read's failure worded with ``damage.load_failure``, which may look into the
file).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

from textual.dom import DOMNode
from textual.worker import Worker

from ka_tui.screens.door import CampaignChanged, Change, door
from ka_tui.store.errors import StoreError

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
               explain: Callable[[Exception], Exception] | None = None) -> Worker[None]:
    """Run ``job(db)`` in a worker thread of ``node``; see the module doc."""
    changes = (publish,) if isinstance(publish, Change) else tuple(publish)
    app = node.app

    def finish(result: T) -> None:
        if done is not None:
            done(result)
        for change in changes:
            door(node).campaign_changed(CampaignChanged(change, node))

    def fail(error: Exception) -> None:
        if failed is not None:
            failed(error)
        else:
            door(node).show_store_error(title, error)

    def run() -> None:
        try:
            result = job(door(node).campaign_db())
        except errors as error:
            app.call_from_thread(fail, error if explain is None else explain(error))
            return
        app.call_from_thread(finish, result)

    return node.run_worker(run, thread=True, group=group, exclusive=exclusive,
                           exit_on_error=False)
