"""The library of ready aircraft profiles and the profile file dialogs.

``ProfileLibraryScreen``: the ready profiles (``rules/air/profiles.py``) with the
highlighted one's flight card; ``c``/enter asks for the new aircraft's name (a
free one offered) and copies the profile into the campaign (fuel
and ammunition full), ``x`` exports it, ``X`` the
whole library, ``i`` imports a profile file. Every action is also in the
command palette. Dismisses with the id of the aircraft copied (or None).

``export_dialog`` / ``import_dialog`` ask for a file path; the write runs in a
worker and a refused file shows its reason beside the path field.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ka_tui.rules.air.aircraft import AircraftProfile
from ka_tui.rules.air.profiles import LIBRARY
from ka_tui.screens.door import door
from ka_tui.screens.store_work import store_work
from ka_tui.store.errors import StoreError, ValidationError
from ka_tui.store.limits import NAME_MAX
from ka_tui.store.profiles_io import (
    default_export_path, export_profiles, free_name, import_profiles,
)
from ka_tui.widgets.flight_card import FlightCard
from ka_tui.widgets.form_fields import CheckField, FormScreen, TextField
from ka_tui.widgets.quiet_footer import QuietFooter

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

Values = dict[str, Any]


def _summary(p: AircraftProfile) -> str:
    return (f"{p.name:<30} {p.aircraft_class.label:<15} {p.engines}×{p.engine_kind.value:<8} "
            f"M{p.move} FP{p.firepower} H{p.hull} E{p.evasion}")


class ProfileLibraryScreen(ModalScreen[int | None]):
    """Pick a ready profile and copy it into the campaign."""

    HELP_TITLE = "Profile library"

    BINDINGS = [
        Binding("escape", "close", "Close", id="library.close"),
        Binding("c", "copy", "Copy into campaign", id="library.copy"),
        Binding("x", "export_one", "Export", id="library.export"),
        Binding("X", "export_all", "Export all", show=False, id="library.export_all"),
        Binding("i", "import_profiles", "Import", id="library.import"),
    ]

    PALETTE_HELP: ClassVar[dict[str, str]] = {
        "library.copy": "Add the highlighted profile to the campaign as a new aircraft",
        "library.export": "Write the highlighted profile to a file",
        "library.export_all": "Write every library profile to one file",
        "library.import": "Add aircraft from a profile file to the campaign",
    }

    CSS_PATH = "library.tcss"

    def __init__(self, profiles: Sequence[AircraftProfile] = LIBRARY) -> None:
        super().__init__()
        self.profiles = list(profiles)

    def compose(self) -> ComposeResult:
        with Vertical():
            options = OptionList(*(Option(_summary(p), id=str(i))
                                   for i, p in enumerate(self.profiles)),
                                 id="library-list")
            options.border_title = "Ready profiles — c copy into campaign"
            yield options
            yield FlightCard(self.profiles[0], id="library-card")
        yield QuietFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @property
    def current(self) -> AircraftProfile:
        index = self.query_one(OptionList).highlighted or 0
        return self.profiles[index]

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.query_one(FlightCard).show(self.profiles[event.option_index])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_copy()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_copy(self) -> None:
        self._ask_name(self.current)

    def _ask_name(self, profile: AircraftProfile) -> None:
        """Read the names in use (off the UI thread), then ask for the name."""
        def names(db: CampaignDB) -> list[str]:
            from ka_tui.store import roster  # the write half (SQLModel): loaded on use only

            return roster.taken_aircraft_names(db)

        def write(values: Values) -> int:
            from ka_tui.store import roster

            return int(roster.copy_profile(door(self).campaign_db(), profile, values["name"]))

        def done(new_id: int | None) -> None:
            if new_id is not None:
                self.notify(f"{profile.name} copied into the campaign.", timeout=3)
                self.dismiss(new_id)

        store_work(self, names, group="library-copy", exclusive=True,
                   done=lambda taken: self.app.push_screen(
                       CopyNameDialog(profile.name, taken, write=write), done),
                   failed=lambda e: self.notify(str(e), title="Not copied", severity="error"))

    def action_export_one(self) -> None:
        export_dialog(self, (self.current,))

    def action_export_all(self) -> None:
        export_dialog(self, tuple(self.profiles), name="ka-tui library")

    def action_import_profiles(self) -> None:
        def imported(new_id: int | None) -> None:
            if new_id is not None:
                self.dismiss(new_id)

        import_dialog(self, imported)


class CopyNameDialog(FormScreen[Any]):
    """The name of the aircraft a library profile becomes (a free one offered)."""

    HELP_TITLE = "Copy into campaign"
    DRAWN_FIELDS = True

    CSS_PATH = "library.tcss"

    def __init__(self, profile_name: str, taken: Sequence[str], *,
                 write: Callable[[Values], Any]) -> None:
        super().__init__()
        self.profile_name = profile_name
        self.taken = {t.casefold() for t in taken}
        self.suggested = free_name(profile_name, set(taken))
        self.write = write

    def compose(self) -> ComposeResult:
        with Vertical(classes="form-box") as box:
            box.border_title = f"Copy {self.profile_name} into the campaign"
            yield TextField("Name", self.suggested, key="name", required=True,
                            max_length=NAME_MAX, check=self._free)
            yield Static("enter/ctrl+s copy, escape cancel.", classes="form-status")
        yield QuietFooter()

    def _free(self, value: Any) -> str | None:
        if str(value).strip().casefold() in self.taken:
            return "another aircraft has this name"
        return None

    def on_input_submitted(self, event: Any) -> None:
        event.stop()
        self.action_save()


class ProfileFileDialog(FormScreen[Any]):
    """Ask for a profile file path; ``write`` does the export or import."""

    HELP_TITLE = "Profile file"

    CSS_PATH = "library.tcss"

    def __init__(self, title: str, path: Path, *, write: Callable[[Values], Any],
                 overwrite_choice: bool) -> None:
        super().__init__()
        self.title_text = title
        self.path = path
        self.write = write
        self.overwrite_choice = overwrite_choice

    def compose(self) -> ComposeResult:
        with Vertical(classes="form-box") as box:
            box.border_title = self.title_text
            yield TextField("File", str(self.path), key="path", required=True)
            if self.overwrite_choice:
                yield CheckField("Replace file", False, key="overwrite")
            yield Static("ctrl+s to go, escape to cancel.", classes="form-status")
        yield QuietFooter()


def export_dialog(screen: Screen[Any], profiles: Sequence[AircraftProfile], *,
                  name: str | None = None) -> None:
    """Ask where, then write ``profiles`` to a profile file."""
    def write(values: Values) -> Path:
        try:
            return export_profiles(profiles, Path(values["path"]),
                                   overwrite=bool(values.get("overwrite")))
        except ValidationError:
            raise
        except StoreError as error:
            raise ValidationError("path", str(error)) from None

    def done(path: Path | None) -> None:
        if path is not None:
            screen.notify(f"Exported to {path}", title="Profiles", timeout=4)

    default = default_export_path(name or profiles[0].name)
    count = len(profiles)
    title = f"Export {count} profile{'s' if count > 1 else ''}"
    screen.app.push_screen(ProfileFileDialog(title, default, write=write,
                                             overwrite_choice=True), done)


def import_dialog(screen: Screen[Any], on_done: Callable[[int | None], None]) -> None:
    """Ask for a profile file, check it whole, then add its aircraft in one transaction."""
    def write(values: Values) -> list[int]:
        try:
            return import_profiles(door(screen).campaign_db(), Path(values["path"]))
        except StoreError as error:
            if isinstance(error, ValidationError) and error.field == "path":
                raise
            raise ValidationError("path", str(error)) from None

    def done(ids: list[int] | None) -> None:
        if ids:
            screen.notify(f"Added {len(ids)} aircraft from the file.", title="Profiles",
                          timeout=4)
            on_done(ids[0])

    folder = default_export_path("x").parent
    screen.app.push_screen(ProfileFileDialog("Import profiles", folder, write=write,
                                             overwrite_choice=False), done)
