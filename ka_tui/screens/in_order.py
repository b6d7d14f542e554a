"""Work that happens in the order the GM asked for it (no Textual here).

A write on the campaign runs in a worker thread; a key that starts another
write while it is in flight, or acts on what it changes (undo the newest
roll, edit the row just copied), waits its turn here: it is neither dropped
(a ``busy`` guard that returns early) nor run on the state from before the
write (a second worker racing the first). Typed fast or slow, the keys give
the same result.

    line = InOrder()
    line.run(step)          # now, or once what is in flight and waiting is done
    token = line.hold()     # a write begins: what follows waits ...
    line.release(token)     # ... until it is done (once per hold; later calls do nothing)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
D = TypeVar("D")


class Hold:
    """One ``InOrder.hold``: released once."""


class InOrder:
    """Steps run one after another; a step that begins a write holds the line
    until the write (and whatever must follow it) is done."""

    def __init__(self) -> None:
        self._waiting: deque[Callable[[], object]] = deque()
        self._hold: Hold | None = None

    @property
    def busy(self) -> bool:
        """A write is in flight, or steps wait for one."""
        return self._hold is not None or bool(self._waiting)

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def run(self, step: Callable[[], object]) -> None:
        """Run ``step`` now if nothing is in flight, else after what waits."""
        if self.busy:
            self._waiting.append(step)
        else:
            step()

    def hold(self) -> Hold:
        """A write begins: the steps asked for from now on wait for ``release``."""
        self._hold = Hold()
        return self._hold

    def release(self, hold: Hold) -> None:
        """``hold``'s write is done (or failed): the waiting steps run in order,
        until one of them holds the line again. A hold released already, or
        an older one, changes nothing."""
        if hold is not self._hold:
            return
        self._hold = None
        while self._waiting and self._hold is None:
            self._waiting.popleft()()


def releasing(call: Callable[[Callable[[], None]], object], release: Callable[[], None],
              job: Callable[[D], T], *,
              expected: tuple[type[BaseException], ...] = ()) -> Callable[[D], T]:
    """``job``, calling ``release`` (through ``call``: on the app's thread) if
    it raises an error not ``expected``: such an error reaches neither the
    write's ``done`` nor its ``failed``, and the line must not wait for ever."""

    def run(db: D) -> T:
        try:
            return job(db)
        except expected:
            raise
        except BaseException:
            call(release)
            raise

    return run
