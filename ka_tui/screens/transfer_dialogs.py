"""Export / import a whole campaign as JSON from inside the app (command palette).

Export writes the open campaign to a file (asks before replacing one). Import
reads a JSON export into a NEW campaign file in the campaign folder (or one
the GM names) and offers to open it; an existing campaign file is never
replaced from here. The store validates the whole document first (names the
first bad field) and builds the file aside, so nothing is half-imported.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from ka_tui.screens.confirm import ConfirmScreen
from ka_tui.screens.door import door
from ka_tui.store.errors import StoreError, ValidationError
from ka_tui.store.paths import file_for
from ka_tui.widgets.form_fields import FormScreen, TextField
from ka_tui.widgets.quiet_footer import QuietFooter



def _expand(text: str) -> Path:
    return Path(text.strip()).expanduser()


class ExportScreen(FormScreen[Path]):
    """Ask for the JSON file; ``write`` exports (one read of the campaign)."""

    HELP_TITLE = "Export"

    def __init__(self, default: str = "") -> None:
        super().__init__()
        self.default = default
        self.force = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="form-box") as box:
            box.border_title = "Export campaign to JSON"
            yield TextField("File", self.default or self._suggested(), key="file",
                            required=True, check=self._check)
            yield Static("", classes="form-status")
        yield QuietFooter()

    def _suggested(self) -> str:
        db_path = door(self).db_path
        stem = db_path.stem if db_path is not None else "campaign"
        return str(Path.cwd() / f"{stem}.json")

    def _check(self, value: Any) -> str | None:
        path = _expand(str(value))
        if path.is_dir():
            return "is a folder"
        if not path.parent.is_dir():
            return "no such folder"
        return None

    def action_save(self) -> None:
        values, errors = self.values()
        if not errors and _expand(values["file"]).exists() and not self.force:
            def answered(yes: bool | None) -> None:
                if yes:
                    self.force = True
                    super(ExportScreen, self).action_save()

            self.app.push_screen(ConfirmScreen(f"{values['file']} exists. Replace it?",
                                               yes="Replace", title="File exists"), answered)
            return
        super().action_save()

    def write(self, values: dict[str, Any]) -> Path:
        # store.transfer maps the whole schema (SQLModel): loaded on use only.
        from ka_tui.store.transfer import export_campaign

        written = export_campaign(door(self).campaign_db(), _expand(values["file"]),
                                  force=self.force)
        assert written is not None
        return written


class ImportScreen(FormScreen[Path]):
    """Ask for a JSON export and the new campaign file; ``write`` imports it."""

    HELP_TITLE = "Import"

    def compose(self) -> ComposeResult:
        with Vertical(classes="form-box") as box:
            box.border_title = "Import campaign from JSON"
            yield TextField("JSON file", "", key="file", required=True, check=self._check_json)
            yield TextField("New file", "", key="target", placeholder="(campaign folder)",
                            check=self._check_target)
            yield Static("Builds a new campaign file; nothing existing is replaced.",
                         classes="form-status")
        yield QuietFooter()

    def _check_json(self, value: Any) -> str | None:
        path = _expand(str(value))
        if not path.is_file():
            return "no such file"
        return None

    def _check_target(self, value: Any) -> str | None:
        if not str(value).strip():
            return None
        path = _expand(str(value))
        if path.exists():
            return "exists; choose a new name"
        if not path.parent.is_dir():
            return "no such folder"
        return None

    def write(self, values: dict[str, Any]) -> Path:
        # store.transfer maps the whole schema (SQLModel): loaded on use only.
        from ka_tui.store.transfer import import_campaign, read_document

        source = _expand(values["file"])
        try:
            target = (_expand(values["target"]) if values["target"]
                      else file_for(read_document(source)["campaign"]["name"]))
            if target.exists():
                raise ValidationError("target", f"{target.name} exists; name a new file")
            target.parent.mkdir(parents=True, exist_ok=True)
            result = import_campaign(source, target)
        except ValidationError as e:
            if e.field in ("target",):
                raise
            raise ValidationError("file", f"{e.field}: {e.message}") from None
        except StoreError:
            raise
        result.db.close()
        return target
