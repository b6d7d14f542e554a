"""What the GM's app and the player's app share: the host of the screens.

``CampaignHost`` is an ``App`` with one campaign file (``db_path``) opened on
first use (``campaign_db()``, from a worker thread), the campaign signal
(``campaign_changed`` / ``on_campaign_changed``, the screens' ``Door``),
live views across processes (a light watcher thread, ``store/watch.py``:
``PRAGMA data_version`` a few times a second turns another process's commit
into ``CampaignChanged(change, source=ELSEWHERE)``), the screen shadow
(only changed cells written, ``ctrl+l`` writes all), the clock, the
command line's flags (``ascii_glyphs``, ``read_only``), a driver that
reads any bytes a terminal sends, and the key gate (``widgets/key_gate.py``:
every key in the order typed, each once the one before and the work it began
are done). ``KaApp`` (``app.py``) and ``PlayerApp``
(``player_app.py``) add their screens.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App, SystemCommand
from textual.screen import Screen
from textual.binding import Binding
from textual.dom import DOMNode
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.signal import Signal

from ka_tui.screens.door import ELSEWHERE, CampaignChanged, Change, ChangeCallback
from ka_tui.textual_compat.app_state import on_app_thread
from ka_tui.textual_compat.css_refresh import parse_once_stylesheet
from ka_tui.textual_compat.display import ShadowWriter
from ka_tui.textual_compat.resize import SameSizeResize
from ka_tui.widgets.key_gate import KeysInOrder, when_quiet
from ka_tui.widgets.screen_diff import ScreenShadow

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB
    from ka_tui.store.watch import CampaignWatcher


class ChangedElsewhere(Message):
    """The watcher saw another connection's commit (``areas``: the ``Change``
    members it touched, store/watch.py)."""

    def __init__(self, areas: frozenset[Change]) -> None:
        super().__init__()
        self.areas = areas


class CampaignHost(SameSizeResize, ShadowWriter, KeysInOrder[None]):
    """An app on one campaign file: the screens' door to it (see the module doc)."""

    clock: Callable[[], datetime] | None = None  # None: the wall clock, UTC (tests set it)

    def __init__(self, db_path: Path | None, *, ascii_glyphs: bool = False,
                 read_only: bool = False) -> None:
        """``ascii_glyphs``: draw ASCII only (``--ascii``); ``read_only``: open
        the campaign read-only whether or not it could be written
        (``--read-only``)."""
        self.ascii_glyphs = ascii_glyphs
        super().__init__()
        self.stylesheet = parse_once_stylesheet(self.stylesheet)
        self.db_path = db_path
        self.read_only_asked = read_only
        self._db: CampaignDB | None = None
        self._db_lock = threading.Lock()
        self.campaign_signal: Signal[CampaignChanged] = Signal(self, "campaign-changed")

    # -- the campaign file -----------------------------------------------------

    def campaign_db(self) -> CampaignDB:
        """The open campaign, opened on first use. Call it from a worker thread:
        it imports the store and may run migrations. Raises ``StoreError``."""
        with self._db_lock:
            if self._db is None:
                self._db = self.open_campaign()
            return self._db

    def open_campaign(self) -> CampaignDB:
        """Open ``db_path`` (under the lock of ``campaign_db``)."""
        from ka_tui.store.db import open_campaign

        if self.db_path is None:
            raise RuntimeError("no campaign chosen")
        return open_campaign(self.db_path, read_only=self.read_only_asked)

    def close_campaign(self) -> None:
        with self._db_lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def read_only_reason(self) -> str | None:
        """Why the campaign opens read-only (asked, or it cannot be written)."""
        from ka_tui.store.files import read_only_reason

        if self.db_path is None:
            return None
        return read_only_reason(self.db_path, asked=self.read_only_asked)

    def now(self) -> datetime:
        return self.clock() if self.clock is not None else datetime.now(UTC)

    def on_unmount(self) -> None:
        self.stop_watching()
        self.close_campaign()

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Every toast is plain text, whatever ``markup`` says (``Widget.notify``
        always passes True): toasts name characters, aircraft, files and
        errors, where ``[KA-B]`` would be read as a style and vanish, and a
        stray ``[/b]`` would stop the app when the toast is drawn."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """A text field's cursor stays lit instead of blinking (Input and
        TextArea ``cursor_blink``): over SSH a blink is a few dozen bytes
        twice a second for as long as a form is open, while nothing changes."""
        if getattr(event.widget, "cursor_blink", False):
            event.widget.cursor_blink = False  # type: ignore[attr-defined]

    def get_driver_class(self) -> type[Any]:
        """Textual's driver, reading any bytes the terminal sends without
        stopping (``textual_compat.terminal_input``); ASCII only with ``--ascii``."""
        from ka_tui.textual_compat.terminal_input import tolerant_driver

        base = tolerant_driver(super().get_driver_class())
        if not self.ascii_glyphs:
            return base
        from ka_tui.widgets.glyphs import ascii_driver

        return ascii_driver(base)

    def action_help(self) -> None:
        from ka_tui.screens.help import HelpScreen, key_rows

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(key_rows(self, self.screen)))  # type: ignore[arg-type]

    # -- live views across processes -------------------------------------------

    # seconds between two looks at the file; None: no watching
    watch_interval: float | None = 0.25
    _watcher: CampaignWatcher | None = None
    # the first view's read, begun before the app (``store/startup_read.py``):
    # handed once to the screen, and its fingerprints once to the watcher
    _startup_read: Future[Any] | None = None
    _baseline_read: Future[Any] | None = None
    # changes this process wrote while no watch ran (handed to the next one)
    _written_early: frozenset[Change] = frozenset()
    # changes ``campaign_written`` told the watcher of, not yet published: their
    # ``campaign_changed`` does not read the file again (on the app's thread)
    _noted: dict[Change, int] | None = None
    _noted_lock = threading.Lock()

    def begin_with(self, startup_read: Future[Any]) -> None:
        self._startup_read = self._baseline_read = startup_read

    def take_startup_read(self) -> Future[Any] | None:
        """The read begun for the first view, once (later loads read afresh)."""
        future, self._startup_read = self._startup_read, None
        return future

    def start_watching_soon(self) -> None:
        """Watch from the first view's read, once the first frame is out (the
        watch starts from the read's fingerprints, so nothing committed
        meanwhile is missed); without such a read, at once."""
        if self._baseline_read is not None:
            self.set_timer(0.5, self.start_watching)
        else:
            self.start_watching()

    def start_watching(self) -> None:
        from ka_tui.store.watch import CampaignWatcher

        written = self._written_early
        self.stop_watching()
        if self.db_path is None or self.watch_interval is None:
            return
        self._watcher = CampaignWatcher(lambda: self.campaign_db().connect(),
                                        lambda areas: self.post_message(ChangedElsewhere(areas)),
                                        interval=self.watch_interval,
                                        baseline=self.watch_baseline, written=written)
        self._watcher.start()

    def watch_baseline(self) -> Mapping[str, int] | None:
        """The fingerprints the first view's read was taken with (its
        ``prints``; ``CampaignWatcher`` ``baseline``), once, in the watch
        thread; None: the file as the watch finds it."""
        future, self._baseline_read = self._baseline_read, None
        if future is None:
            return None
        try:
            return future.result(timeout=10).prints  # type: ignore[no-any-return]
        except Exception:  # noqa: BLE001 - the screen reads again and shows the error
            return None

    def stop_watching(self) -> None:
        self._written_early = frozenset()
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher = None

    def _tell_watcher(self, change: Change) -> None:
        """This process wrote ``change`` and tells its own views: the watcher
        takes the file as it is now as seen (a small read, on this thread)."""
        if self._watcher is not None:
            self._watcher.written_here(change)
        else:  # the watch starts after the first frame: it takes this as seen
            self._written_early |= {change}

    def campaign_writing(self, change: Change) -> None:
        """Called by a worker before it writes ``change`` (``store_work``): the
        watcher holds back what it sees there until ``campaign_written`` (or
        ``campaign_write_failed``), so the write never comes back as another
        process's, however soon the watcher looks after the commit."""
        if self._watcher is not None:
            self._watcher.begin_write(change)

    def campaign_write_failed(self, change: Change) -> None:
        """The write announced by ``campaign_writing`` did not happen."""
        if self._watcher is not None:
            self._watcher.end_write(change, wrote=False)

    def campaign_written(self, change: Change) -> None:
        """Called by the worker that committed ``change``, right after the
        commit (``screens/store_work.py``): the watcher takes it as this
        process's own at once, before it can look, and the ``campaign_changed``
        that publishes it later reads nothing on the app's thread."""
        if self._watcher is not None:
            self._watcher.end_write(change, wrote=True)
        else:  # the watch starts after the first frame: it takes this as seen
            self._written_early |= {change}
        with self._noted_lock:
            if self._noted is None:
                self._noted = {}
            self._noted[change] = self._noted.get(change, 0) + 1

    def campaign_changed(self, change: CampaignChanged) -> None:
        """Tell every subscribed view that the campaign changed (any thread);
        a write of this process's is taken as seen by the watcher, so it does
        not come back as another process's."""
        if change.source != ELSEWHERE:
            with self._noted_lock:
                noted = self._noted is not None and self._noted.get(change.change, 0) > 0
                if noted and self._noted is not None:
                    self._noted[change.change] -= 1
            if not noted:
                self._tell_watcher(change.change)
        if not on_app_thread(self):
            self.call_from_thread(self.campaign_signal.publish, change)
        else:
            self.campaign_signal.publish(change)

    def on_campaign_changed(self, node: DOMNode, callback: ChangeCallback) -> None:
        """Call ``callback(change)`` on ``node`` after each campaign change."""
        self.campaign_signal.subscribe(node, callback)

    def on_changed_elsewhere(self, message: ChangedElsewhere) -> None:
        for change in sorted(message.areas):
            self.campaign_signal.publish(CampaignChanged(Change(change), ELSEWHERE))

    # -- the terminal --------------------------------------------------------

    REDRAW_BINDING = Binding("ctrl+l", "redraw", "Redraw", show=False, id="redraw")
    REDRAW_HELP = {"redraw": "Write the whole screen again (after another program, "
                             "a message or line noise drew over it)"}

    @cached_property
    def screen_shadow(self) -> ScreenShadow:
        return ScreenShadow()

    def on_mount(self) -> None:
        """Suspended (another program draws on the terminal meanwhile) and
        resumed: the terminal's content is unknown. At once, before the
        redraw that follows. The garbage collector, paused by the command
        line for the start (``startup_read.pause_collector``), runs again a
        second after, once no key is being typed."""
        from ka_tui.store.startup_read import COLLECTOR_BACK_S, resume_collector

        for signal in (self.app_suspend_signal, self.app_resume_signal):
            signal.subscribe(self, lambda _: self.forget_terminal(), immediate=True)
        self.set_timer(COLLECTOR_BACK_S, lambda: when_quiet(self, resume_collector))

    def on_driver_signal_resume(self) -> None:
        """Back from SIGSTOP/SIGCONT (``kill -STOP``, job control): the shell
        wrote on the terminal meanwhile; Textual does not redraw by itself."""
        self.action_redraw()

    def on_resize(self) -> None:
        self.forget_terminal()

    def redraw_command(self) -> SystemCommand:
        return SystemCommand("Redraw the screen", self.REDRAW_HELP["redraw"] + " (ctrl+l)",
                             self.action_redraw)

    def action_redraw(self) -> None:
        self.forget_terminal()
        self.screen.refresh()  # the whole screen dirty: a full update, written whole


def binding_commands(screen: Screen[Any]) -> Iterable[SystemCommand]:
    """A palette entry per action bound on ``screen`` (and its focused widget).

    Screens get their palette entries for free by declaring bindings with a
    description; ``PALETTE_HELP`` (binding id → text) adds the help line.
    """
    seen: set[str] = set()
    for active in screen.active_bindings.values():
        binding, node = active.binding, active.node
        if node is screen.app or not active.enabled or not binding.description:
            continue
        if binding.action in seen:
            continue
        seen.add(binding.action)
        helps: dict[str, str] = getattr(node, "PALETTE_HELP", {})
        help_text = helps.get(binding.id or "", f"Key: {screen.app.get_key_display(binding)}")
        yield SystemCommand(
            binding.description, help_text,
            lambda node=node, action=binding.action: _run(node, action))


async def _run(node: Any, action: str) -> None:
    await node.app.run_action(action, node)
