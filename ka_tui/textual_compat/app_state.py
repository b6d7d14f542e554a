"""What the app asks of Textual's own state that Textual gives no public way to ask.

No trick here, so no switch: these are the questions themselves, each in one
function the canary checks, so a Textual that renames the state fails one
named test instead of the app.

- ``running_app()``: the app of the current context (Textual's
  ``textual._context.active_app``), for code that is not a widget
  (``widgets/glyphs.ascii_wanted``);
- ``on_app_thread(app)``: whether the caller runs on the app's thread
  (``App._thread_id``; a worker thread must go through ``call_from_thread``);
- ``every_screen(app)``: the screens of every mode, not only the current
  one's (``App._screen_stacks``; quit asks about unsaved changes in all of
  them), and ``mode_names_built(app)``;
- ``send_as_driver(app, message)``: a key or event handed to the app as its
  driver hands it one (``App._driver``; tests and benchmarks that must not
  wait for Pilot's idle pauses).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from textual._context import active_app

if TYPE_CHECKING:
    from textual.app import App
    from textual.message import Message
    from textual.screen import Screen


def running_app() -> App[Any] | None:
    """The running app of this context, or None outside one."""
    try:
        return active_app.get()
    except LookupError:
        return None


def on_app_thread(app: App[Any]) -> bool:
    """Whether the caller runs on ``app``'s own thread."""
    return threading.get_ident() == app._thread_id


def every_screen(app: App[Any]) -> Iterator[Screen[Any]]:
    """Every screen on the stack of every mode, bottom first, mode by mode."""
    for stack in list(app._screen_stacks.values()):
        yield from stack


def mode_names_built(app: App[Any]) -> frozenset[str]:
    """The modes whose screen stack exists (their screen was made)."""
    return frozenset(app._screen_stacks)


def send_as_driver(app: App[Any], message: Message) -> None:
    """Hand ``message`` (a ``Key``, a ``Resize``) to ``app`` as its driver does."""
    driver = app._driver
    if driver is None:
        raise RuntimeError("the app has no driver (not running)")
    driver.send_message(message)
