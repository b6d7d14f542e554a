"""Choose a campaign when there are several (or none): enter opens, n makes a new one.

Each file is checked in a worker (``store.file_check.check_file``: reads only) so the
list shows the campaign's name, or why a file cannot be opened.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from ka_tui.screens.store_work import file_work
from ka_tui.store.file_check import check_file
from ka_tui.store.errors import StoreError
from ka_tui.store.paths import list_campaign_files
from ka_tui.widgets.quiet_footer import QuietFooter


class CampaignPickerScreen(Screen[Path | None]):
    HELP_TITLE = "Campaigns"

    BINDINGS = [
        Binding("enter", "open", "Open", id="picker.open"),
        Binding("n", "new", "New campaign", id="picker.new"),
        Binding("escape", "cancel", "Cancel", show=False, id="picker.cancel"),
    ]

    CSS_PATH = "campaign_picker.tcss"

    def __init__(self, files: Iterable[Path] | None = None, folder: Path | None = None) -> None:
        super().__init__()
        self.files = None if files is None else list(files)
        self.folder = folder
        self.status: dict[Path, tuple[bool, str]] = {}

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Static("Several campaigns are kept here. Pick one, or press n for a new one.",
                     classes="picker-hint")
        yield DataTable(id="campaigns", cursor_type="row", zebra_stripes=True)
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        self.sub_title = "choose a campaign"
        table = self.query_one(DataTable)
        table.add_columns("Campaign", "File", "Status")
        table.focus()
        self.scan()

    def scan(self) -> None:
        files, folder = self.files, self.folder

        def job() -> list[tuple[Path, bool, str, str]]:
            found: list[tuple[Path, bool, str, str]] = []
            for path in files if files is not None else list_campaign_files(folder):
                try:
                    check = check_file(path)
                    found.append((path, True, check.name, f"schema v{check.version}"))
                except StoreError as error:
                    found.append((path, False, "-", _short(str(error), path)))
            return found

        file_work(self, job, group="picker", exclusive=True,
                  done=lambda found: self._show(found))

    def _show(self, found: list[tuple[Path, bool, str, str]]) -> None:
        table = self.query_one(DataTable)
        table.clear()
        rows = [(path, ok, _cut(name, NAME_WIDTH), _cut(path.name, FILE_WIDTH), status)
                for path, ok, name, status in found]
        used = (max((len(r[2]) for r in rows), default=0)
                + max((len(r[3]) for r in rows), default=0) + 4)
        # the screen's width, not the table's: the table may not be laid out yet
        room = max(STATUS_MIN, self.app.size.width - used - 3)
        for path, ok, name, file_name, status in rows:
            self.status[path] = (ok, status)
            table.add_row(name, file_name, _cut(status, room), key=str(path))
        if not found:
            self.query_one(".picker-hint", Static).update(
                "No campaigns yet. Press n to make one.")

    def _selected(self) -> Path | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return Path(key) if key else None

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        path = self._selected()
        if path is None:
            return
        ok, status = self.status.get(path, (False, "not checked yet"))
        if not ok:
            self.notify(f"{path.name}: {status}", title="Cannot open", severity="error")
            return
        self.dismiss(path)

    def action_new(self) -> None:
        from ka_tui.screens.new_campaign import NewCampaignForm  # not before the first frame

        self.app.push_screen(NewCampaignForm(self.folder), self._created)

    def _created(self, path: Path | None) -> None:
        if path is not None:
            self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)


# Name, file and status fit 80 columns; the status column must stay on screen.
NAME_WIDTH = 32
FILE_WIDTH = 24
STATUS_MIN = 16  # the status takes what is left; enter on a bad file shows it whole


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def _short(message: str, path: Path) -> str:
    """The store's message without the path it starts with (the File column has it)."""
    text = message.removeprefix(str(path)).strip()
    return text[:1].upper() + text[1:] if text else message
