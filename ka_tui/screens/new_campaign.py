"""The form that names a new, empty campaign (from the campaign picker).

Its own module so the picker's first frame loads no form widgets (a light first frame).
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from ka_tui.store.db import create_campaign
from ka_tui.store.limits import NAME_MAX
from ka_tui.store.paths import file_for
from ka_tui.widgets.form_fields import FormScreen, TextField
from ka_tui.widgets.quiet_footer import QuietFooter


class NewCampaignForm(FormScreen[Path]):
    """Name a new, empty campaign; it is created in the campaign folder."""

    HELP_TITLE = "New campaign"

    def __init__(self, folder: Path | None) -> None:
        super().__init__()
        self.folder = folder

    def compose(self) -> ComposeResult:
        with Vertical(classes="form-box") as box:
            box.border_title = "New campaign"
            yield TextField("Name", "", key="name", required=True, max_length=NAME_MAX,
                            check=self._free)
            yield Static("", classes="form-status")
        yield QuietFooter()

    def _target(self, name: str) -> Path:
        return file_for(name, self.folder)

    def _free(self, name: object) -> str | None:
        if isinstance(name, str) and name.strip() and self._target(name).exists():
            return f"{self._target(name).name} exists"
        return None

    def write(self, values: dict[str, object]) -> Path:
        name = str(values["name"])
        path = self._target(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        create_campaign(path, name).close()
        return path
