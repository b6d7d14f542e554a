"""The roster's panes: the title and tab line, the line naming a fight or
battle in progress, and the detail pane; each draws what is set on its
reactive attribute (a line of markup, a ``model.RowDetail``)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from ka_tui.screens.roster import view
from ka_tui.screens.roster.model import NoRowDetail, RowDetail


class RosterTitle(Static):
    """``Campaign  [Characters (11)]  Aircraft (6)`` and what ``t`` does (or
    READ-ONLY): one line for title and tabs, two more rows for the table at
    80x24 than a Header and tabs."""

    DEFAULT_CSS = """
    RosterTitle {
        height: 1;
        padding: 0 1;
        background: $panel;
    }
    """

    line: reactive[str] = reactive("", init=False)

    def watch_line(self, line: str) -> None:
        self.update(line)


class InProgressLine(Static):
    """Which fight or battle is still open and the key that resumes it (the
    app opens on the roster: this says where the GM left off). Hidden when
    nothing is open."""

    DEFAULT_CSS = """
    InProgressLine {
        height: auto;
        max-height: 2;
        padding: 0 1;
        background: $warning-muted;
    }
    """

    line: reactive[str] = reactive("", init=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=True)
        self.display = False

    def watch_line(self, line: str) -> None:
        self.update(line)
        self.display = bool(line)


class DetailPane(VerticalScroll):
    """The row under the cursor in full: the name whole (the table may cut
    it), where he is now, skills and weapons; an aircraft's card and crew.
    Drawn again at its new width when it is resized."""

    DEFAULT_CSS = """
    DetailPane {
        width: 1fr;
        height: 1fr;
        border-left: vkey $primary;
        padding: 0 1;
    }
    """

    shown: reactive[RowDetail | NoRowDetail | None] = reactive(None, init=False)

    def compose(self) -> ComposeResult:
        yield Static("Loading the campaign…", id="detail-text", markup=True)

    def watch_shown(self) -> None:
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        shown = self.shown
        text = self.query_one("#detail-text", Static)
        if isinstance(shown, NoRowDetail):
            text.update(_nothing(shown))
        elif isinstance(shown, RowDetail):
            if shown.tab == "aircraft":
                text.update(view.aircraft_detail(shown.row, shown.characters))
            else:  # room for a scrollbar
                width = self.content_size.width - 2
                text.update(view.character_detail(shown.row, shown.extra, width))


def _nothing(shown: NoRowDetail) -> Content:
    """What the detail pane says when no row is selected."""
    if shown.filter:
        return Content.assemble(f'Nothing matches "{shown.filter}".\nPress ',
                                ("escape", "bold"), " to clear the filter.")
    empty = "No characters yet." if shown.tab == "characters" else "No aircraft yet."
    return Content.assemble(f"{empty}\nPress ", ("a", "bold"), " to add one.")
