"""The full history of a fight or an air battle: every
round / turn, read from the campaign's event log (``store/history.py``),
readable on screen and exported as text or Markdown next to the campaign
file.

``HistoryScreen(LogRef.fight(id))`` or ``HistoryScreen(LogRef.battle(id))``:
the close-combat screen opens it with ``h``; the air screen can push it the
same way. Keys: ``[`` / ``]`` the previous / next round (or turn), ``page
up/down``, ``home/end``, ``e`` export as text, ``m`` export as Markdown,
``escape`` back. Nothing here writes to the campaign.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Header, Static

from ka_tui.screens.store_work import store_work
from ka_tui.store.errors import StoreError
from ka_tui.store.events import LogRef
from ka_tui.store.history import Format, History, export_history, history_of
from ka_tui.widgets.quiet_footer import QuietFooter


class HistoryScreen(Screen[None]):
    HELP_TITLE = "History"

    CSS_PATH = "history.tcss"

    BINDINGS = [
        Binding("escape", "close", "Back", id="history.close"),
        Binding("right_square_bracket", "section(1)", "Next round", id="history.next"),
        Binding("left_square_bracket", "section(-1)", "Prev", id="history.prev"),
        Binding("e", "export('text')", "Export text", id="history.export_text"),
        Binding("m", "export('markdown')", "Markdown", id="history.export_md"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="history.page_up"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="history.page_down"),
        Binding("home", "edge(-1)", "Top", show=False, id="history.top"),
        Binding("end", "edge(1)", "Bottom", show=False, id="history.bottom"),
    ]

    PALETTE_HELP = {
        "history.close": "Back to the fight or battle",
        "history.next": "Jump to the next round (or turn)",
        "history.prev": "Jump to the previous round (or turn)",
        "history.export_text": "Write the whole history as a text file next to the campaign",
        "history.export_md": "Write the whole history as a Markdown file next to the campaign",
        "history.page_up": "Scroll up a page",
        "history.page_down": "Scroll down a page",
        "history.top": "Go to the start",
        "history.bottom": "Go to the end",
    }

    def __init__(self, log: LogRef) -> None:
        super().__init__()
        self.log_ref = log
        self.history: History | None = None
        self.section = 0

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield VerticalScroll(Static("Loading…", classes="history-section"), id="history")
        yield Static("", id="history-status")
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        what = "Fight" if self.log_ref.kind.value == "fight" else "Battle"
        self.sub_title = f"History · {what} #{self.log_ref.id}"
        self.query_one("#history", VerticalScroll).focus()
        self.load()

    def load(self) -> None:
        ref = self.log_ref
        store_work(self, lambda db: history_of(db, ref), group="history-load", exclusive=True,
                   done=self.show_history, errors=(Exception,),  # any failure: one message
                   failed=lambda e: self._status(f"Cannot read the history: {e}", True))

    def show_history(self, history: History) -> None:
        self.history = history
        self.sub_title = history.title
        box = self.query_one("#history", VerticalScroll)
        box.remove_children()
        parts = [Static(Content(history.title).stylize("bold underline"),
                        classes="history-section")]
        for i, s in enumerate(history.sections):
            body = Content("\n").join([Content(s.title).stylize("bold reverse"),
                                       *(Content(line) for line in s.lines)])
            parts.append(Static(body, classes="history-section", id=f"section-{i}"))
        box.mount_all(parts)
        n = len(history.sections)
        self._status(f"{n} part(s) · ] next round · [ previous · e: export text · "
                     "m: export Markdown")

    def _status(self, text: str, error: bool = False) -> None:
        content = Content(text).stylize("bold $error" if error else "")
        self.query_one("#history-status", Static).update(content)

    # -- keys ---------------------------------------------------------------

    def action_close(self) -> None:
        self.dismiss(None)

    def action_section(self, delta: int) -> None:
        if self.history is None or not self.history.sections:
            return
        self.section = max(0, min(len(self.history.sections) - 1, self.section + delta))
        target = self.query_one(f"#section-{self.section}", Static)
        self.query_one("#history", VerticalScroll).scroll_to_widget(target, top=True,
                                                                      animate=False)

    def action_page(self, direction: int) -> None:
        box = self.query_one("#history", VerticalScroll)
        if direction < 0:
            box.scroll_page_up(animate=False)
        else:
            box.scroll_page_down(animate=False)

    def action_edge(self, direction: int) -> None:
        box = self.query_one("#history", VerticalScroll)
        if direction < 0:
            box.scroll_home(animate=False)
        else:
            box.scroll_end(animate=False)

    def action_export(self, fmt: Format) -> None:
        if self.history is None:
            self.app.bell()
            return
        self._export(self.history, fmt)

    def _export(self, history: History, fmt: Format) -> None:
        def exported(path: Path) -> None:
            self._status(f"Exported: {path}")
            self.notify(str(path), title="History exported")

        def refused(error: Exception) -> None:
            self._status(f"Not exported: {error}", True)
            self.notify(str(error), title="Not exported", severity="error")

        store_work(self, lambda db: export_history(history, Path(db.path).parent, fmt),
                   group="history-export", done=exported, failed=refused,
                   errors=(OSError, StoreError))
