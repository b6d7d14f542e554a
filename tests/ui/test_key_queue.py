"""The keys a screen holds while its work is on its way (screens/key_queue.py),
without Textual: held in the order typed, handed back one by one once the
work is done, never while it runs; keys from another screen wait behind."""

from __future__ import annotations

from ka_tui.screens.key_queue import HeldKey, KeyQueue


def keys(*names: str) -> list[HeldKey]:
    return [HeldKey(n, n if len(n) == 1 else None) for n in names]


def test_keys_go_at_once_when_nothing_is_on_its_way() -> None:
    q = KeyQueue()
    assert q.settled and not q.offer(HeldKey("a", "a")) and q.settled


def test_keys_typed_during_work_wait_and_come_back_in_order() -> None:
    q = KeyQueue()
    q.begin()
    for k in keys("f", "b", "enter", "v"):
        assert q.offer(k)
    assert q.take() is None and q.waiting == 4 and not q.settled
    q.end()
    assert q.take() == HeldKey("f", "f")
    assert q.offer(HeldKey("x", "x"))  # behind the keys still waiting
    q.begin()                          # the replayed enter starts another save
    assert q.take() is None
    q.end()
    assert [q.take(), q.take(), q.take(), q.take()] == [*keys("b", "enter", "v", "x")]
    assert q.take() is None and q.settled


def test_work_in_flight_counts_and_keys_can_be_dropped() -> None:
    q = KeyQueue()
    q.begin()
    q.begin()                          # a dialog and the save its answer started
    q.offer(HeldKey("y", "y"))
    q.end()
    assert q.busy and q.take() is None
    assert q.drop() == (HeldKey("y", "y"),) and q.waiting == 0
    q.end()
    q.end()                            # an extra end never makes it negative
    assert q.settled and not q.offer(HeldKey("a", "a"))


def test_keys_from_another_screen_wait_behind_its_own() -> None:
    q = KeyQueue()
    q.begin()
    q.offer(HeldKey("a", "a"))
    q.hand_over(keys("b", "c"))
    q.end()
    assert [q.take(), q.take(), q.take()] == keys("a", "b", "c")
    assert not HeldKey("enter", "\r").printable and HeldKey(" ", " ").printable
