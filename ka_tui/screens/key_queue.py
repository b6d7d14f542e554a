"""Keys that wait for a screen's work: no key is ever lost, and typing speed
never changes the result.

A screen's key may start work that ends later, in another thread: a save
(one transaction), a read. A key typed meanwhile -- a fast typist, or an
SSH link delivering several keys in one read -- must take effect after that
work, on what the work left, in the order it was typed. ``KeyQueue`` holds
those keys: ``begin`` when work starts, ``end`` when its result is shown,
then ``take`` hands the held keys back one by one (until the next ``begin``).

No Textual here: a screen hooks its keys in with ``ordered_keys.KeyOrder``
(which replays what ``take`` gives through the screen's own bindings). Any
mode can use it: the runner behind a screen holds its queue.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class HeldKey:
    """A key as the terminal sent it: its name and the character it types."""

    key: str
    character: str | None = None

    @property
    def printable(self) -> bool:
        return self.character is not None and self.character.isprintable()


class KeyQueue:
    """The keys typed while work is on its way, in the order typed."""

    def __init__(self) -> None:
        self._held: deque[HeldKey] = deque()
        self._work = 0

    @property
    def busy(self) -> bool:
        """Work (a save, a read) is on its way."""
        return self._work > 0

    @property
    def waiting(self) -> int:
        """How many keys wait."""
        return len(self._held)

    @property
    def settled(self) -> bool:
        """No work on its way and no key waiting."""
        return not self._work and not self._held

    def begin(self) -> None:
        """Work starts: keys wait for it."""
        self._work += 1

    def end(self) -> None:
        """The work is done and shown: the keys may go on."""
        self._work = max(0, self._work - 1)

    def offer(self, key: HeldKey) -> bool:
        """True when ``key`` must wait (work on its way, or keys before it
        wait): it is held. False: it may take effect now."""
        if self._work or self._held:
            self._held.append(key)
            return True
        return False

    def take(self) -> HeldKey | None:
        """The next key to take effect, None while work is on its way."""
        if self._work or not self._held:
            return None
        return self._held.popleft()

    def hand_over(self, keys: Iterable[HeldKey]) -> None:
        """Keys another screen held for this one (a dialog it opened, or the
        screen that opened this one): they wait behind any held here, which
        were typed while this screen was on top, before them."""
        self._held.extend(keys)

    def drop(self) -> tuple[HeldKey, ...]:
        """Every key waiting, taken out (the work they waited for failed, or
        they go to another screen)."""
        keys = tuple(self._held)
        self._held.clear()
        return keys
