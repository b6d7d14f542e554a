"""``FormTabs``: Textual's ``TabbedContent`` with its tab row drawn by one widget.

Textual's tab row is eight widgets (``ContentTabs``: a scroll container, a bar,
a row, one ``ContentTab`` per tab and the ``Underline``), each styled, laid out
and drawn when a form opens -- about a fifth of the time the character form
took to open. ``FormTabs`` keeps ``TabbedContent``'s API as the
forms and their tests use it (``active``, ``get_tab(id).label``/``label_text``,
``TabActivated`` with ``pane``, the ``TabPane``\\ s in a ``ContentSwitcher``) and
draws the row itself with ``TabRow``: the labels on the first line and the same
``Bar`` underline on the second, with the colours of Textual's tabs. Like
``Tabs``, the row takes focus (left/right change tabs, the active label shows
the cursor colours) and a click on a label shows its tab. The underline moves
without animation.

Not supported (the forms do not use them): adding, removing, hiding or
disabling panes after composing.

The trick's Textual internals, its measured gain and its switch
(``KA_TUI_TRICKS_OFF=drawn-tab-row``: Textual's own tab row) are in
``ka_tui/textual_compat/tabs.py``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import Group
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding, BindingType
from textual.renderables.bar import Bar
from textual.visual import VisualType
from textual.widget import Widget
from textual.widgets import ContentSwitcher, TabbedContent, TabPane
from textual.widgets.tabbed_content import ContentTab

from ka_tui.textual_compat.tabs import DrawnTabsInternals, pane_title
from ka_tui.textual_compat.tricks import Trick, trick_on


class _RowTab(ContentTab):
    """A tab's label, never mounted: ``TabRow`` draws it. A new label (the
    aircraft form's ``!`` marks) redraws the row."""

    row: TabRow | None = None

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        if self.row is not None:
            self.row.refresh()


class TabRow(Widget, can_focus=True):
    """The tab labels and their underline, one widget (see the module doc)."""

    DEFAULT_CSS = """
    TabRow {
        width: 100%;
        height: 2;
        dock: top;
        & > .tab-row--tab {
            color: $foreground 50%;
        }
        & > .tab-row--hover {
            color: $foreground;
        }
        & > .tab-row--active {
            color: $foreground;
        }
        & > .tab-row--bar {
            color: $block-cursor-background;
            background: $foreground 10%;
        }
        &:focus {
            & > .tab-row--bar {
                background: $foreground 30%;
            }
            & > .tab-row--active {
                text-style: $block-cursor-text-style;
                color: $block-cursor-foreground;
                background: $block-cursor-background;
            }
        }
        &:ansi {
            & > .tab-row--tab, & > .tab-row--hover {
                text-style: dim;
            }
            & > .tab-row--active {
                text-style: not dim bold;
            }
            & > .tab-row--bar {
                color: $block-cursor-background;
                background: $border-blurred;
            }
        }
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "tab-row--tab", "tab-row--hover", "tab-row--active", "tab-row--bar"}

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Previous tab", show=False),
        Binding("right", "step(1)", "Next tab", show=False),
    ]

    ALLOW_SELECT = False

    def __init__(self, owner: FormTabs, tabs: list[tuple[str, _RowTab]]) -> None:
        super().__init__()
        self.owner = owner
        self.tabs = tabs
        self._hover: int | None = None
        for _, tab in tabs:
            tab.row = self

    def _spans(self) -> list[tuple[int, int]]:
        """(start, end) columns of each tab, its padding of one each side included."""
        spans, x = [], 0
        for _, tab in self.tabs:
            width = tab.label.cell_length + 2
            spans.append((x, x + width))
            x += width
        return spans

    def render(self) -> RenderResult:
        active = self.owner.active
        labels = Text(no_wrap=True, overflow="crop")
        highlight = (0.0, 0.0)
        for i, ((pane_id, tab), (start, end)) in enumerate(zip(self.tabs, self._spans())):
            if pane_id == active:
                style = self.get_component_rich_style("tab-row--active")
                highlight = (start + 1, end - 1)
            elif i == self._hover:
                style = self.get_component_rich_style("tab-row--hover")
            else:
                style = self.get_component_rich_style("tab-row--tab")
            labels.append(f" {tab.label.plain} ", style)
        bar = self.get_component_rich_style("tab-row--bar")
        return Group(labels, Bar(highlight_range=highlight,
                                 highlight_style=Style.from_color(bar.color),
                                 background_style=Style.from_color(bar.bgcolor)))

    def _tab_at(self, x: int) -> int | None:
        return next((i for i, (start, end) in enumerate(self._spans())
                     if start <= x < end), None)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        i = self._tab_at(event.x)
        self.focus()
        if i is not None:
            self.owner.active = self.tabs[i][0]

    def on_mouse_move(self, event: events.MouseMove) -> None:
        i = self._tab_at(event.x) if event.y == 0 else None
        if i != self._hover:
            self._hover = i
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.refresh()

    def action_step(self, delta: int) -> None:
        """Tabs' left/right: the previous or next tab, wrapping around."""
        ids = [pane_id for pane_id, _ in self.tabs]
        if not ids:
            return
        active = self.owner.active
        i = ids.index(active) if active in ids else (-1 if delta > 0 else 0)
        self.owner.active = ids[(i + delta) % len(ids)]


class FormTabs(DrawnTabsInternals):
    """``TabbedContent`` whose tab row is one ``TabRow`` (see the module doc)."""

    DEFAULT_CSS = """
    FormTabs {
        height: auto;
    }
    """

    def __init__(self, *titles: Any, initial: str = "", **kwargs: Any) -> None:
        self.draws_own_tabs = trick_on(Trick.DRAWN_TAB_ROW)  # else Textual's tab row
        super().__init__(*titles, initial=initial, **kwargs)
        self._initial_pane = initial
        self._panes: list[Widget] = []
        self._row_tabs: dict[str, _RowTab] = {}

    def compose_add_child(self, widget: Widget) -> None:
        super().compose_add_child(widget)
        self._panes.append(widget)

    def compose(self) -> ComposeResult:
        if not self.draws_own_tabs:
            yield from super().compose()
            return
        panes: list[TabPane] = []
        for number, content in enumerate(self._panes, 1):
            if not isinstance(content, TabPane):
                raise TypeError("FormTabs holds TabPanes only")
            if content.id is None:
                content.id = f"tab-{number}"  # as TabbedContent names them
            panes.append(content)
        self._row_tabs = {pane.id or "": _RowTab(pane_title(pane), pane.id or "")
                          for pane in panes}
        first = self._initial_pane or (panes[0].id if panes else None)
        yield TabRow(self, list(self._row_tabs.items()))
        with ContentSwitcher(initial=first):
            yield from panes

    def on_mount(self) -> None:
        if self.draws_own_tabs and not self.active and self._row_tabs:
            self.active = self._initial_pane or next(iter(self._row_tabs))

    def active_changed(self, active: str) -> None:
        self.get_child_by_type(TabRow).refresh()
        self.get_child_by_type(ContentSwitcher).current = active or None
        if active:
            self.post_message(TabbedContent.TabActivated(
                tabbed_content=self, tab=self._row_tabs[active]))
        else:
            self.post_message(TabbedContent.Cleared(tabbed_content=self).set_sender(self))

    @property
    def tab_count(self) -> int:
        if not self.draws_own_tabs:
            return super().tab_count
        return len(self._row_tabs)

    def get_tab(self, pane_id: str | TabPane) -> Any:
        if not self.draws_own_tabs:
            return super().get_tab(pane_id)
        target = pane_id if isinstance(pane_id, str) else pane_id.id
        if not target:
            raise ValueError("'pane_id' must be a non-empty string or a TabPane with an id.")
        return self._row_tabs[target]
