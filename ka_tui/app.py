"""The ka-tui application: modes, global bindings and command palette entries.

Screens live in ``ka_tui/screens`` (one module each); this module only wires
them together. Heavy imports (SQLModel, the store) wait until a worker thread
needs them, so the first frame comes quickly.

Adding a mode (docs/ARCHITECTURE.md "UI conventions"): append one ``ModeSpec``
to ``MODE_SPECS``. It becomes a ``MODES`` entry (imported lazily), a global
binding with an id, and a command-palette entry.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import Console, ConsoleOptions, RenderResult
from textual._compositor import CompositorUpdate
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.dom import DOMNode
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.signal import Signal

from ka_tui.screens.door import (
    ELSEWHERE,
    AirPreset,
    CampaignChanged,
    Change,
    ChangeCallback,
    DiceMode,
)
from ka_tui.widgets.screen_diff import ScreenShadow

if TYPE_CHECKING:
    from ka_tui.rules.core.dice import Dice
    from ka_tui.store.db import CampaignDB
    from ka_tui.store.watch import CampaignWatcher


class ChangedElsewhere(Message):
    """The watcher saw another connection's commit (``areas``: store/watch.py)."""

    def __init__(self, areas: frozenset[str]) -> None:
        super().__init__()
        self.areas = areas


class WatchesCampaign:
    """Live views across processes (issue 14): a light watcher thread
    (``store/watch.py``: ``PRAGMA data_version`` a few times a second) turns
    another process's commit into ``CampaignChanged(kind, source=ELSEWHERE)``
    on the app's campaign signal, so every open view reads again within a
    second without a key press. Mixed into ``KaApp`` and the player's app."""

    # seconds between two looks at the file; None: no watching
    watch_interval: float | None = 0.25
    _watcher: CampaignWatcher | None = None
    # the first view's read, begun before the app (``store/startup_read.py``):
    # handed once to the screen, and its fingerprints once to the watcher
    _startup_read: Future[Any] | None = None
    _baseline_read: Future[Any] | None = None
    # areas this process wrote while no watch ran (handed to the next one)
    _written_early: frozenset[str] = frozenset()

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
        app: Any = self
        if self._baseline_read is not None:
            app.set_timer(0.5, self.start_watching)
        else:
            self.start_watching()

    def start_watching(self) -> None:
        from ka_tui.store.watch import CampaignWatcher

        written = self._written_early
        self.stop_watching()
        app: Any = self
        if app.db_path is None or self.watch_interval is None:
            return
        self._watcher = CampaignWatcher(lambda: app.campaign_db().connect(),
                                        lambda areas: app.post_message(ChangedElsewhere(areas)),
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

    def campaign_changed(self, change: CampaignChanged) -> None:
        """Tell every subscribed view that the campaign changed (any thread);
        a write of this process's is taken as seen by the watcher, so it does
        not come back as another process's."""
        app: Any = self
        if change.source != ELSEWHERE:
            if self._watcher is not None:
                self._watcher.written_here(change.change.value)
            else:  # the watch starts after the first frame: it takes this as seen
                self._written_early |= {change.change.value}
        if threading.get_ident() != app._thread_id:
            app.call_from_thread(app.campaign_signal.publish, change)
        else:
            app.campaign_signal.publish(change)

    def on_campaign_changed(self, node: DOMNode, callback: ChangeCallback) -> None:
        """Call ``callback(change)`` on ``node`` after each campaign change."""
        app: Any = self
        app.campaign_signal.subscribe(node, callback)

    def on_changed_elsewhere(self, message: ChangedElsewhere) -> None:
        app: Any = self
        for area in sorted(message.areas):
            try:
                kind = Change(area)
            except ValueError:  # an area no view subscribes to yet
                continue
            app.campaign_signal.publish(CampaignChanged(kind, ELSEWHERE))


# KA_TUI_FULL_REPAINT=1: write every update whole, as Textual does (to tell a
# drawing fault of the screen shadow from one of a widget).
_FULL_REPAINT = os.environ.get("KA_TUI_FULL_REPAINT", "") not in ("", "0")


class ShadowedTerminal:
    """What reaches the terminal (issue 13): every update goes through a
    screen shadow (``widgets/screen_diff.py``), so only changed cells are
    written; ``ctrl+l`` (or the palette's "Redraw") writes the whole screen
    again, after another program has drawn over it. Mixed into ``KaApp``
    and the player's app, before ``App``."""

    REDRAW_BINDING = Binding("ctrl+l", "redraw", "Redraw", show=False, id="redraw")
    REDRAW_HELP = {"redraw": "Write the whole screen again (after another program, "
                             "a message or line noise drew over it)"}

    @cached_property
    def screen_shadow(self) -> ScreenShadow:
        return ScreenShadow()

    _cursor_written: Any = None

    def _display(self, screen: Screen[Any], renderable: Any) -> None:
        """Headless runs write nothing anyway. An update that changes no cell
        and leaves the cursor where it is writes nothing at all (Textual would
        still send a cursor move: bytes on the wire, and a screen that never
        looks settled)."""
        app: Any = self
        driver = app._driver
        if (driver is None or driver.is_inline or app.is_headless or _FULL_REPAINT
                or not isinstance(renderable, CompositorUpdate)):
            super()._display(screen, renderable)  # type: ignore[misc]
            return
        if app._batch_count or not app._running or app._closed:
            return  # what Textual's _display does with it: nothing
        text = self.screen_shadow.render(renderable, app.console)
        cursor = app.screen.outer_size.clamp_offset(app.cursor_position)
        if not text and cursor == self._cursor_written:
            return
        self._cursor_written = cursor
        super()._display(screen, _RenderedUpdate(text))  # type: ignore[misc]

    def _forget_terminal(self) -> None:
        """The terminal's content and cursor are unknown: the next update is
        written whole."""
        self.screen_shadow.reset()
        self._cursor_written = None

    def _suspend_signal(self) -> None:
        self._forget_terminal()  # another program draws on the terminal meanwhile
        super()._suspend_signal()  # type: ignore[misc]

    def _resume_signal(self) -> None:
        self._forget_terminal()
        super()._resume_signal()  # type: ignore[misc]

    def on_driver_signal_resume(self) -> None:
        """Back from SIGSTOP/SIGCONT (``kill -STOP``, job control): the shell
        wrote on the terminal meanwhile; Textual's own handler of the driver's
        resume is bound to ``App._resume_signal``, not to the override above."""
        self.action_redraw()

    def on_resize(self) -> None:
        self._forget_terminal()

    def redraw_command(self) -> SystemCommand:
        return SystemCommand("Redraw the screen", self.REDRAW_HELP["redraw"] + " (ctrl+l)",
                             self.action_redraw)

    def action_redraw(self) -> None:
        app: Any = self
        self._forget_terminal()
        app.screen.refresh()  # the whole screen dirty: a full update, written whole


@dataclass(frozen=True)
class ModeSpec:
    """A top-level section of the app with its own screen stack."""

    name: str     # mode id, also the binding id ``mode.<name>``
    title: str    # shown in the palette and the help screen
    key: str      # global key that switches to it
    screen: str   # "module:Class", imported on first use
    help: str     # one line for the command palette


MODE_SPECS: tuple[ModeSpec, ...] = (
    ModeSpec("roster", "Roster", "1", "ka_tui.screens.roster.screen:RosterScreen",
             "Characters and aircraft of the campaign"),
    ModeSpec("roller", "Dice roller", "2", "ka_tui.screens.roller.screen:RollerScreen",
             "Roll a skill or a typed pool, with exact odds and the roll log"),
    ModeSpec("combat", "Close combat", "3", "ka_tui.screens.combat.screen:CombatScreen",
             "Close combat on CQC cards: order, hidden cards, reveal, odds, dice, report"),
    ModeSpec("air", "Air battle", "4", "ka_tui.screens.air.screen:AirScreen",
             "Air battles on the hex map: initiative, moves with odds, shots, heat, end"),
    ModeSpec("campaign", "Campaign", "5", "ka_tui.screens.campaign.screen:CampaignScreen",
             "Between battles: missions, debriefs, service records, repairs, time, journal"),
    ModeSpec("scene", "Scene order", "6", "ka_tui.screens.scene_order:SceneOrderScreen",
             "Mixed scene order (S0 §Close combat 1): aircraft, ranged, close combat, rounds"),
    ModeSpec("table", "Table", "7", "ka_tui.screens.table.screen:TableScreen",
             "The table server: players' keys, join codes and links; who is connected"),
)


def _screen_factory(spec: ModeSpec) -> Callable[[], Screen[Any]]:
    def make() -> Screen[Any]:
        module, _, cls = spec.screen.partition(":")
        screen_cls = getattr(import_module(module), cls)
        screen: Screen[Any] = screen_cls()
        return screen
    return make


class KaApp(WatchesCampaign, ShadowedTerminal, App[None]):
    """The app; it is the screens' door (``ka_tui.screens.door.Door``)."""

    TITLE = "ka-tui"
    SUB_TITLE = "King's Angels campaign manager"
    CSS_PATH = "app.tcss"

    MODES: ClassVar[dict[str, str | Callable[[], Screen[Any]]]] = {
        spec.name: _screen_factory(spec) for spec in MODE_SPECS
    }

    PALETTE_HELP = {
        "help": "List the keys of this screen and the global ones",
        "quit": "Leave ka-tui (everything is already saved)",
        "settings": "View and change this campaign's house-rule options",
        "leave_field": "Escape leaves a text field or dropdown, so the global keys work",
        **{f"mode.{spec.name}": f"{spec.title}: {spec.help}" for spec in MODE_SPECS},
        **{f"mode.{spec.name}.fkey": f"{spec.title}: {spec.help}" for spec in MODE_SPECS},
        **ShadowedTerminal.REDRAW_HELP,
    }

    # What tests and snapshots inject (the door hands them out): each mode's
    # dice (None: random dice) and the clock (None: the wall clock, UTC).
    roller_dice: Dice | None = None
    combat_dice: Dice | None = None
    air_dice: Dice | None = None
    clock: Callable[[], datetime] | None = None

    # Keys rule (README "Keys", help screen): a digit switches mode unless a
    # text field or a dropdown has the focus (there it types / picks); the
    # same-numbered F-key switches from anywhere. Escape in a text field leaves
    # the field, unless the screen gives escape a meaning of its own (a form
    # cancels, the roster's filter clears).
    BINDINGS = [
        Binding("question_mark", "help", "Help", id="help"),
        Binding("q", "quit", "Quit", id="quit"),
        Binding("s", "settings", "Settings", show=False, id="settings"),
        Binding("escape", "leave_field", "Leave the text field", show=False,
                id="leave_field"),
        *(Binding(spec.key, f"digit_mode('{spec.name}')", spec.title, show=False,
                  id=f"mode.{spec.name}") for spec in MODE_SPECS),
        *(Binding(f"f{spec.key}", f"switch_mode('{spec.name}')", spec.title, show=False,
                  id=f"mode.{spec.name}.fkey") for spec in MODE_SPECS),
        ShadowedTerminal.REDRAW_BINDING,
    ]

    def __init__(self, db_path: Path | None = None, *,
                 campaigns: Iterable[Path] | None = None,
                 ascii_glyphs: bool | None = None,
                 startup_read: Future[Any] | None = None) -> None:
        """``db_path`` opens that campaign; without it the picker lists ``campaigns``
        (default: the store's ``list_campaign_files()``). ``ascii_glyphs``: draw
        ASCII only (default: ``KA_TUI_ASCII``; widgets/glyphs.py).
        ``startup_read``: the roster read begun before the app (``cli.py``,
        ``store/startup_read.py``); without it one starts here, in a thread."""
        from ka_tui.widgets.glyphs import ascii_from_env

        self.ascii_glyphs = ascii_from_env() if ascii_glyphs is None else ascii_glyphs
        if db_path is not None:
            # Start in the roster's mode: Textual builds it when the app composes,
            # so no empty default screen is drawn first and no mode switch
            # parses the CSS twice more (issue 13: first frame).
            self.DEFAULT_MODE = "roster"  # type: ignore[misc]
        super().__init__()
        self.db_path = db_path
        self._campaigns = None if campaigns is None else list(campaigns)
        self._db: CampaignDB | None = None
        self._db_lock = threading.Lock()
        # Called once the roster shows its data (tests/test_startup_imports.py).
        self.on_roster_ready: Callable[[], None] | None = None
        self._random_dice: dict[str, Dice] = {}
        self.campaign_signal: Signal[CampaignChanged] = Signal(self, "campaign-changed")
        # the command line's startup read takes the day's backup (not twice)
        self._daily_backup = startup_read is None
        if db_path is not None:
            if startup_read is None:
                from ka_tui.store.startup_read import in_thread, roster_snapshot

                startup_read = in_thread(lambda: roster_snapshot(self.campaign_db()))
            self.begin_with(startup_read)
            self.show_access()  # before the roster (built as the app composes) reads the title

    # -- the door (ka_tui.screens.door.Door) ------------------------------

    @property
    def roller_clock(self) -> Callable[[], datetime] | None:
        """The roller's name for ``clock`` (kept for the tests that set it)."""
        return self.clock

    @roller_clock.setter
    def roller_clock(self, clock: Callable[[], datetime] | None) -> None:
        self.clock = clock

    def dice(self, mode: DiceMode) -> Dice:
        """The dice of a mode: the injected ones, else random dice kept per mode."""
        injected: Dice | None = getattr(self, f"{mode}_dice")
        if injected is not None:
            return injected
        if mode not in self._random_dice:
            from ka_tui.rules.core.dice import RandomDice

            self._random_dice[mode] = RandomDice()
        return self._random_dice[mode]

    def now(self) -> datetime:
        return self.clock() if self.clock is not None else datetime.now(UTC)

    def open_air_setup(self, preset: AirPreset) -> None:
        """Mode 4 with its new-battle setup pre-filled (a mission's battle)."""
        async def go() -> None:
            from ka_tui.screens.air.screen import AirScreen

            await self.switch_mode("air")
            if isinstance(self.screen, AirScreen):
                self.screen.open_setup(preset)

        self.call_later(go)

    # -- campaign handle -------------------------------------------------

    def campaign_db(self) -> CampaignDB:
        """The open campaign, opened on first use. Call it from a worker thread:
        it imports the store and may run migrations. Raises ``StoreError``."""
        with self._db_lock:
            if self._db is None:
                from ka_tui.store.db import open_campaign

                if self.db_path is None:
                    raise RuntimeError("no campaign chosen")
                self._db = open_campaign(self.db_path, daily_backup=self._daily_backup)
            return self._db

    def close_campaign(self) -> None:
        with self._db_lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    # -- start ------------------------------------------------------------

    def show_access(self) -> None:
        """The header says when the campaign is open read-only (issue 11)."""
        from ka_tui.store.files import read_only_reason

        reason = read_only_reason(self.db_path) if self.db_path is not None else None
        base = getattr(self, "_base_title", None)
        if base is None:
            base = self._base_title = self.title
        self.title = f"{base} · READ-ONLY ({reason})" if reason else base

    def on_mount(self) -> None:
        if self.db_path is not None:
            self.switch_mode("roster")
            self.start_watching_soon()
        else:
            self.show_picker()

    def show_picker(self) -> None:
        from ka_tui.screens.campaign_picker import CampaignPickerScreen

        self.push_screen(CampaignPickerScreen(self._campaigns), self._picked)

    def _picked(self, path: Path | None) -> None:
        if path is None:
            self.exit()
            return
        self.db_path = path
        self.show_access()
        self.switch_mode("roster")
        self.start_watching()

    def show_store_error(self, title: str, error: Exception) -> None:
        """A full-screen message for a campaign that cannot be opened."""
        from ka_tui.screens.messages import MessageScreen

        self.push_screen(MessageScreen(title, str(error)))

    def on_unmount(self) -> None:
        self.stop_watching()
        self.close_campaign()

    # -- actions ----------------------------------------------------------

    def get_driver_class(self) -> type[Any]:
        base = super().get_driver_class()
        if not getattr(self, "ascii_glyphs", False):
            return base
        from ka_tui.widgets.glyphs import ascii_driver

        return ascii_driver(base)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        modal = isinstance(self.screen, ModalScreen)
        if action in ("switch_mode", "digit_mode", "settings") and modal:
            return False
        if action == "digit_mode" and _is_kind(self.focused, "Select", "SelectOverlay"):
            return False
        if action == "leave_field":
            return _is_kind(self.focused, *_FIELD_KINDS)
        if action == "settings" and self.db_path is None:
            return False
        return True

    async def action_digit_mode(self, mode: str) -> None:
        await self.run_action(f"switch_mode({mode!r})")

    def action_leave_field(self) -> None:
        """Escape in a text field or dropdown: focus the next widget that is
        neither (a table, a list), or nothing — then every global key works."""
        screen = self.screen
        current = self.focused
        chain = screen.focus_chain
        start = chain.index(current) + 1 if current in chain else 0
        for widget in chain[start:] + chain[:start]:
            if widget is not current and not _is_kind(widget, *_FIELD_KINDS):
                widget.focus()
                return
        screen.set_focus(None)

    async def action_quit(self) -> None:
        """Quit; first ask when a screen holds changes not saved yet (settings)."""
        unsaved = [text for stack in self._screen_stacks.values() for screen in stack
                   if (text := _unsaved(screen))]
        if not unsaved or type(self.screen).__name__ == "ConfirmScreen":
            self.exit()
            return
        from ka_tui.screens.confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                self.exit()

        self.push_screen(ConfirmScreen(f"Quit and lose the {', '.join(unsaved)}?",
                                       yes="Quit", title="Unsaved changes"), answered)

    def action_help(self) -> None:
        from ka_tui.screens.help import HelpScreen, key_rows

        if type(self.screen).__name__ == "HelpScreen":
            return
        self.push_screen(HelpScreen(key_rows(self, self.screen)))  # type: ignore[arg-type]

    def action_settings(self) -> None:
        from ka_tui.screens.settings import SettingsScreen

        self.push_screen(SettingsScreen())

    def action_write_journal(self) -> None:
        from ka_tui.screens.campaign.screen import write_markdown

        path = write_markdown(self.screen)
        if path is not None:
            self.notify(f"Journal written to {path}.")

    def action_export_campaign(self) -> None:
        from ka_tui.screens.transfer_dialogs import ExportScreen

        self.push_screen(ExportScreen(), self._exported)

    def action_import_campaign(self) -> None:
        from ka_tui.screens.transfer_dialogs import ImportScreen

        self.push_screen(ImportScreen(), self._imported)

    def _imported(self, path: Path | None) -> None:
        if path is None:
            return
        from ka_tui.screens.confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                self.open_campaign_file(path)
            else:
                self.notify(f"Imported into {path}.")

        self.push_screen(ConfirmScreen(f"Imported into {path}. Open it now?", yes="Open",
                                       title="Import done"), answered)

    # -- backups (issue 11; store/backups.py) ------------------------------

    def action_list_backups(self) -> None:
        from ka_tui.screens.messages import MessageScreen
        from ka_tui.store.backups import list_backups

        if self.db_path is None:
            return
        found = list_backups(self.db_path)
        lines = [f"{b.taken:%Y-%m-%d %H:%M} UTC  {b.reason:<22} {b.path.name}"
                 for b in found[:12]] or ["No backups yet (one is taken on the first "
                                          "open of each day)."]
        folder = found[0].path.parent if found else None
        hint = (f"In {folder}. Restore one with: ka-tui restore FILE (quit first), or "
                "the palette's 'Backups: restore the newest'. escape: close."
                if folder else "escape: close.")
        self.push_screen(MessageScreen(f"Backups of {self.db_path.name}", "\n".join(lines),
                                       hint=hint, quit_on_close=False))

    def action_backup_now(self) -> None:
        path = self.db_path
        if path is None:
            return

        def run() -> None:
            from ka_tui.store.backups import take_backup
            from ka_tui.store.errors import StoreError

            try:
                backup = take_backup(path, "manual")
            except StoreError as error:
                self.call_from_thread(self.notify, str(error), title="No backup",
                                      severity="error")
                return
            self.call_from_thread(self.notify, f"Backed up to {backup.path}.")

        self.run_worker(run, thread=True, group="backup", exit_on_error=False)

    def action_restore_newest(self) -> None:
        from ka_tui.screens.confirm import ConfirmScreen
        from ka_tui.store.backups import list_backups

        path = self.db_path
        if path is None:
            return
        found = list_backups(path)
        if not found:
            self.notify("No backups of this campaign yet.", severity="warning")
            return
        newest = found[0]

        def answered(yes: bool | None) -> None:
            from ka_tui.store.backups import restore
            from ka_tui.store.errors import StoreError

            if not yes:
                return
            self.stop_watching()
            self.close_campaign()
            try:
                done = restore(newest.path, path)
            except StoreError as error:
                self.notify(str(error), title="Not restored", severity="error")
                return
            self.open_campaign_file(path)
            kept = f" The file as it was is kept as {done.previous.path.name}." \
                if done.previous else ""
            self.notify(f"Restored the backup of {newest.taken:%Y-%m-%d %H:%M} UTC.{kept}")

        self.push_screen(ConfirmScreen(
            f"Restore the backup of {newest.taken:%Y-%m-%d %H:%M} UTC ({newest.reason})? "
            "The campaign as it is now is backed up first.", yes="Restore",
            title="Restore a backup"), answered)

    def _exported(self, path: Path | None) -> None:
        if path is not None:
            self.notify(f"Exported to {path}.")

    def open_campaign_file(self, path: Path) -> None:
        """Close the open campaign and show ``path`` in a fresh roster (other
        modes start again from scratch when next visited)."""
        self.stop_watching()
        self.close_campaign()
        self._startup_read = self._baseline_read = None  # the old file's
        self._daily_backup = True
        self.db_path = path
        self.show_access()

        def reset() -> None:
            for spec in MODE_SPECS:
                if spec.name != "roster" and spec.name in self._screen_stacks:
                    self.remove_mode(spec.name)
                    self.add_mode(spec.name, _screen_factory(spec))
            while len(self.screen_stack) > 1:
                self.pop_screen()
            roster = self.screen_stack[0]
            load = getattr(roster, "load", None)
            if callable(load):
                load()

        self.switch_mode("roster")
        self.call_after_refresh(reset)
        self.start_watching()

    # -- command palette --------------------------------------------------

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Every action of the current screen (from its bindings) and the app's."""
        yield from super().get_system_commands(screen)
        for spec in MODE_SPECS:
            yield SystemCommand(f"Go to {spec.title}", spec.help,
                                lambda name=spec.name: self.switch_mode(name))
        if self.db_path is not None:
            yield SystemCommand("Settings: house rules",
                                "View and change this campaign's house-rule options",
                                self.action_settings)
            yield SystemCommand("Export campaign to JSON",
                                "Write the whole campaign to a JSON file",
                                self.action_export_campaign)
            yield SystemCommand("Import campaign from JSON",
                                "Read a campaign JSON file into a new campaign file",
                                self.action_import_campaign)
            yield SystemCommand("Journal: write as Markdown",
                                "Write the campaign journal beside the campaign file "
                                "(a mission's debrief: x in the mission view)",
                                self.action_write_journal)
            yield SystemCommand("Backups: list", "This campaign's backups, newest first",
                                self.action_list_backups)
            yield SystemCommand("Backups: back up now",
                                "Take a checked backup of the campaign now",
                                self.action_backup_now)
            yield SystemCommand("Backups: restore the newest",
                                "Put the newest backup back (the file as it is now is "
                                "backed up first)", self.action_restore_newest)
        yield SystemCommand("Help: keys", "List the keys of this screen and the global ones",
                            self.action_help)
        yield self.redraw_command()
        yield from binding_commands(screen)


def _unsaved(screen: object) -> str | None:
    check = getattr(screen, "unsaved_changes", None)
    return check() if callable(check) else None


# Widgets where printable keys are typed or picked, not global keys.
_FIELD_KINDS = ("Input", "TextArea", "Select")


def _is_kind(widget: object, *names: str) -> bool:
    """Whether ``widget`` is (a subclass of) a Textual class named in ``names``;
    by name, so this module does not import the widgets at startup."""
    return widget is not None and any(c.__name__ in names for c in type(widget).__mro__)


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


class _RenderedUpdate(CompositorUpdate):
    """A compositor update already turned into terminal bytes by the screen shadow."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        return iter(())

    def render_segments(self, console: Console) -> str:
        return self.text
