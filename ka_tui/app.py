"""The ka-tui application: modes, global bindings and command palette entries.

Screens live in ``ka_tui/screens`` (one module each); this module only wires
them together. Heavy imports (SQLModel, the store) wait until a worker thread
needs them, so the first frame comes quickly.

Adding a mode (docs/ARCHITECTURE.md "How to add…"): append one ``ModeSpec``
to ``MODE_SPECS``. It becomes a ``MODES`` entry (imported lazily), a global
binding with an id, and a command-palette entry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import datetime
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import SystemCommand
from textual.binding import Binding
from textual.screen import ModalScreen, Screen

from ka_tui.screens.door import (
    AirPreset,
    DiceMode,
)
from ka_tui.host import CampaignHost, binding_commands
from ka_tui.textual_compat.app_state import every_screen
from ka_tui.textual_compat.css_refresh import styled_as_built
from ka_tui.widgets.key_gate import when_quiet

if TYPE_CHECKING:
    from ka_tui.rules.core.dice import Dice
    from ka_tui.store.db import CampaignDB


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


# From a second after the first frame, with the roster's own warm-up
# (roster/screen.py): each waits for a moment without keys (when_quiet), so
# they are done about a second and a half after the start when nobody types.
MODE_IMPORTS_AFTER_S = 1.0
MODE_IMPORT_GAP_S = 0.05


def _screen_factory(spec: ModeSpec) -> Callable[[], Screen[Any]]:
    def make() -> Screen[Any]:
        module, _, cls = spec.screen.partition(":")
        screen_cls = getattr(import_module(module), cls)
        screen: Screen[Any] = screen_cls()
        styled_as_built(screen)
        return screen
    return make


class KaApp(CampaignHost):
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
        **CampaignHost.REDRAW_HELP,
    }

    # What tests and snapshots inject (the door hands them out): each mode's
    # dice (None: random dice) and the clock (None: the wall clock, UTC).
    roller_dice: Dice | None = None
    combat_dice: Dice | None = None
    air_dice: Dice | None = None

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
        CampaignHost.REDRAW_BINDING,
    ]

    def __init__(self, db_path: Path | None = None, *,
                 campaigns: Iterable[Path] | None = None,
                 ascii_glyphs: bool = False, read_only: bool = False,
                 startup_read: Future[Any] | None = None) -> None:
        """``db_path`` opens that campaign; without it the picker lists ``campaigns``
        (default: the store's ``list_campaign_files()``). ``ascii_glyphs``,
        ``read_only``: the command line's ``--ascii`` and ``--read-only``
        (``host.CampaignHost``). ``startup_read``: the roster read begun before
        the app (``cli.py``, ``store/startup_read.py``); without it one starts
        here, in a thread."""
        if db_path is not None:
            # Start in the roster's mode: Textual builds it when the app composes,
            # so no empty default screen is drawn first and no mode switch
            # parses the CSS twice more (first frame).
            self.DEFAULT_MODE = "roster"  # type: ignore[misc]
        super().__init__(db_path, ascii_glyphs=ascii_glyphs, read_only=read_only)
        self._campaigns = None if campaigns is None else list(campaigns)
        self._restoring = False  # a backup is being put back: the file stays closed
        # Called once the roster shows its data (tests/test_startup_imports.py).
        self.on_roster_ready: Callable[[], None] | None = None
        self._random_dice: dict[str, Dice] = {}
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

    def open_air_setup(self, preset: AirPreset) -> None:
        """Mode 4 with its new-battle setup pre-filled (a mission's battle)."""
        async def go() -> None:
            from ka_tui.screens.air.screen import AirScreen

            await self.switch_mode("air")
            if isinstance(self.screen, AirScreen):
                self.screen.open_setup(preset)

        self.call_later(go)

    # -- campaign handle -------------------------------------------------

    def open_campaign(self) -> CampaignDB:
        """``db_path``, with the day's backup when no startup read took it;
        never while a backup is being put back."""
        from ka_tui.store.db import open_campaign
        from ka_tui.store.errors import StoreError

        if self.db_path is None:
            raise RuntimeError("no campaign chosen")
        if self._restoring:
            raise StoreError("The campaign is being restored from a backup; "
                             "try again in a moment.")
        return open_campaign(self.db_path, daily_backup=self._daily_backup,
                             read_only=self.read_only_asked)

    # -- start ------------------------------------------------------------

    def show_access(self) -> None:
        """The header says when the campaign is open read-only."""
        reason = self.read_only_reason()
        base = getattr(self, "_base_title", None)
        if base is None:
            base = self._base_title = self.title
        self.title = f"{base} · READ-ONLY ({reason})" if reason else base

    def on_mount(self) -> None:
        if self.db_path is not None:
            self.switch_mode("roster")
            self.start_watching_soon()
            self.set_timer(MODE_IMPORTS_AFTER_S,
                           lambda: when_quiet(self, self._import_next_mode))
        else:
            self.show_picker()

    def _import_next_mode(self) -> None:
        """Each mode's screen modules imported while the GM reads the roster,
        one mode per quiet moment (no key for a while: ``when_quiet``), so a
        mode's first visit does not wait for its imports (the air battle's
        are most of its first visit). On the app's own thread: an import in a
        worker thread could meet the same import begun by a key and get a
        half-made module."""
        import gc
        import sys

        waiting = [spec.screen.partition(":")[0] for spec in MODE_SPECS[1:]]
        waiting = [m for m in waiting if m not in sys.modules]
        if not waiting:
            gc.freeze()   # the new modules' objects out of the collector's scans
            return
        import_module(waiting[0])
        self.set_timer(MODE_IMPORT_GAP_S, lambda: when_quiet(self, self._import_next_mode))

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

    # -- actions ----------------------------------------------------------

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
        unsaved = [text for screen in every_screen(self) if (text := _unsaved(screen))]
        from ka_tui.screens.confirm import ConfirmScreen

        if not unsaved or isinstance(self.screen, ConfirmScreen):
            self.exit()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.exit()

        self.push_screen(ConfirmScreen(f"Quit and lose the {', '.join(unsaved)}?",
                                       yes="Quit", title="Unsaved changes"), answered)

    def action_settings(self) -> None:
        from ka_tui.screens.settings import SettingsScreen

        self.push_screen(SettingsScreen())

    def action_write_journal(self) -> None:
        from ka_tui.screens.campaign.screen import markdown_file

        markdown_file(self.screen)

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

    # -- backups (store/backups.py; files, in workers: screens/store_work.py) ----

    def action_list_backups(self) -> None:
        from ka_tui.screens.messages import MessageScreen
        from ka_tui.screens.store_work import file_work
        from ka_tui.store.backups import Backup, list_backups

        path = self.db_path
        if path is None:
            return

        def show(found: list[Backup]) -> None:
            lines = [f"{b.taken:%Y-%m-%d %H:%M} UTC  {b.reason:<22} {b.path.name}"
                     for b in found[:12]] or ["No backups yet (one is taken on the first "
                                              "open of each day)."]
            folder = found[0].path.parent if found else None
            hint = (f"In {folder}. Restore one with: ka-tui restore FILE (quit first), or "
                    "the palette's 'Backups: restore the newest'. escape: close."
                    if folder else "escape: close.")
            self.push_screen(MessageScreen(f"Backups of {path.name}", "\n".join(lines),
                                           hint=hint, quit_on_close=False))

        file_work(self, lambda: list_backups(path), group="backup-list", done=show,
                  failed=lambda e: self.notify(str(e), title="Backups", severity="error"))

    def action_backup_now(self) -> None:
        from ka_tui.screens.store_work import file_work
        from ka_tui.store.backups import take_backup

        path = self.db_path
        if path is None:
            return
        file_work(self, lambda: take_backup(path, "manual"), group="backup",
                  done=lambda backup: self.notify(f"Backed up to {backup.path}."),
                  failed=lambda e: self.notify(str(e), title="No backup", severity="error"))

    def action_restore_newest(self) -> None:
        from ka_tui.screens.confirm import ConfirmScreen
        from ka_tui.screens.store_work import file_work
        from ka_tui.store.backups import Backup, Restored, list_backups, restore

        path = self.db_path
        if path is None:
            return

        def ask(found: list[Backup]) -> None:
            if not found:
                self.notify("No backups of this campaign yet.", severity="warning")
                return
            newest = found[0]

            def restored(done: Restored) -> None:
                self._restoring = False
                self.open_campaign_file(path)
                kept = f" The file as it was is kept as {done.previous.path.name}." \
                    if done.previous else ""
                self.notify(f"Restored the backup of {newest.taken:%Y-%m-%d %H:%M} UTC.{kept}")

            def refused(error: Exception) -> None:
                self._restoring = False
                self.notify(str(error), title="Not restored", severity="error")

            def answered(yes: bool | None) -> None:
                if not yes:
                    return
                self.stop_watching()
                self._restoring = True  # nothing opens the file while it is put back
                self.close_campaign()
                file_work(self, lambda: restore(newest.path, path), group="backup",
                          done=restored, failed=refused)

            self.push_screen(ConfirmScreen(
                f"Restore the backup of {newest.taken:%Y-%m-%d %H:%M} UTC ({newest.reason})? "
                "The campaign as it is now is backed up first.", yes="Restore",
                title="Restore a backup"), answered)

        file_work(self, lambda: list_backups(path), group="backup-list", done=ask,
                  failed=lambda e: self.notify(str(e), title="Backups", severity="error"))

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
            for spec in MODE_SPECS:  # (a mode never opened has nothing to drop)
                if spec.name != "roster":
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
