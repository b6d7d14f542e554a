"""Opening a form or a dialog fast (used by ``widgets/form_fields.py``).

Seven tricks, each with its switch (``KA_TUI_TRICKS_OFF=NAME``) and its
figure in ``benchmarks/tricks.py``: CPU from the key to the first frame of
the character form (18 Inputs on three tabs), with every trick on 113 ms,
with every form trick off 310 ms; each below as "on / off" with only it off
(2 cores; in brackets a run with the machine loaded 6x over: 130 / 337 ms).

``shared-input-styles`` (``FormInput._get_component_classes``)
    Textual styles an Input's four component styles (cursor, selection,
    placeholder, suggestion) through a throwaway node per component, for each
    Input (``DOMNode._get_component_classes``, ``DOMNode._attach``,
    ``Widget._component_styles``). Inputs of one form with the same classes
    and state get the same styles, so the first computes them as Textual does
    and the others copy them; returning no names then tells the stylesheet
    there is nothing left to do. Only in a screen that offers a
    ``shared_input_styles`` dict (the ``QUIET_OPEN`` forms). 113 / 155 ms
    (130 / 179).

``quiet-input-open`` (``FormInput._watch_value``, ``Input._initial_value``)
    An Input built ``quiet`` does not report the value it opens with (no
    ``Changed`` message per field, each bubbling to the screen); the form
    checks every field once as it mounts instead. 113 / 124 ms (130 / 146).

``fixed-input-width`` (``FormInput._watch_value``)
    Textual's Input grows its virtual width with the text, a reactive that
    asks for a layout of the whole screen on every key stroke. A field's box
    has a fixed size: the new width is set quietly and only the Input is
    repainted. CPU per key typed in the name: 4.9 / 6.7 ms (6.7 / 7.9).

``one-layout-open`` (``OpensInOneLayout``: ``Screen._refresh_layout``,
``Screen._on_layout``, ``Widget._layout_required``)
    The first layout of a ``QUIET_OPEN`` form arranges every widget; handing
    each its size changes its virtual size (a reactive that asks for a
    layout), and the screen's own mount asks again: Textual laid the whole
    form out a second time on the next frame. Only a container whose scroll
    bar may appear (``may_need_second_layout``) keeps its request.
    113 / 122 ms (130 / 211).

``first-resize-skip`` (``OpensInOneLayout._on_resize``, ``Screen._compositor``)
    The first Resize a pushed form gets comes from its own first layout with
    that layout's size; Screen's handler would lay out the form, and the
    screen under it, again for nothing. A real terminal resize passes.
    113 / 123 ms (130 / 180).

``single-resume-restyle`` (``DialogInternals._on_screen_resume``)
    A dialog just composed was styled node by node as it mounted; Screen's
    resume handler restyles them all again. The first resume tells it not to
    (``ScreenResume.refresh_styles``). 113 / 124 ms (130 / 179); the delete
    dialog, a few widgets: 27 / 27 ms (37 / 41). Not on the first push of a
    screen with a ``CSS_PATH``: Textual reads that file after styling the
    screen's own node, and only the resume restyle applies it.

``light-dialog-repaint`` (``DialogInternals._compositor_refresh``,
``Compositor._dirty_regions``)
    A ``LIGHT`` dialog turns a whole-screen repaint into a repaint of its own
    widgets while the terminal keeps its size. Dormant: no screen sets
    ``LIGHT`` (Textual draws a see-through screen over black on a full
    repaint), so it costs and saves nothing now.
"""

from __future__ import annotations

import time
from typing import Any

from typing_extensions import Self
from textual import events, messages
from textual.dom import DOMNode
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Input

from ka_tui.textual_compat.app_state import running_app
from ka_tui.textual_compat.tricks import Trick, trick_on


class FormInput(Input):
    """An Input with the form tricks (see the module doc); ``quiet``: the
    value it opens with is not reported."""

    def __init__(self, *args: Any, quiet: bool = False, **kwargs: Any) -> None:
        # read by _watch_value while Input.__init__ sets the value
        self._quiet = quiet and trick_on(Trick.QUIET_INPUT_OPEN)
        super().__init__(*args, **kwargs)
        self._quiet = False  # any later value is reported

    def _get_component_classes(self) -> frozenset[str]:  # type: ignore[override]
        names: frozenset[str] = super()._get_component_classes()
        screen = self.screen if self.parent is not None else None
        cache: dict[Any, dict[str, Any]] | None = getattr(screen, "shared_input_styles", None)
        if cache is None or not names or not trick_on(Trick.SHARED_INPUT_STYLES):
            return names
        app = self.app
        key = (frozenset(self.classes), self._pseudo_classes_cache_key, app.theme,
               app.ansi_color, id(app.stylesheet.rules))
        shared = cache.get(key)
        if shared is None:
            shared = {}
            for name in sorted(names):
                virtual = DOMNode(classes=name)
                virtual._attach(self)
                app.stylesheet.apply(virtual, animate=False)
                shared[name] = virtual.styles
            cache[key] = shared
        if self._component_styles != shared:
            self._component_styles = dict(shared)
            self.refresh()  # as the stylesheet does when they change
        return frozenset()

    def _watch_value(self, value: str) -> None:
        fixed = trick_on(Trick.FIXED_INPUT_WIDTH)
        if fixed:
            self.set_reactive(Input.virtual_size, Size(self.content_width, 1))
            self.refresh()
        if self._quiet and self._initial_value:
            # not reported (no Changed): the form checks every field once shown
            if not fixed:
                self.virtual_size = Size(self.content_width, 1)
            self.validate(value)
            self.cursor_position = len(value)
            self._initial_value = False
            return
        super()._watch_value(value)  # with ``fixed``: same size now, no layout


class DialogInternals:
    """Screen mixin (before ``ModalScreen``): ``single-resume-restyle`` and
    ``light-dialog-repaint`` (see the module doc). The host says ``LIGHT``."""

    LIGHT = False
    _opened_size: Any = None
    _resumes = 0

    _styled_with_own_css = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The first push of a screen reads its CSS_PATH after the screen node
        # was styled: only a screen whose CSS is already read is styled right.
        screen: Any = self
        app = running_app()
        if app is not None:
            self._styled_with_own_css = all(app.stylesheet.has_source(str(path), "")
                                            for path in screen.css_path)

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # No super() call: Textual dispatches a handler of every class in the
        # MRO, so Screen._on_screen_resume runs anyway (after this one).
        self._resumes += 1
        if self._resumes == 1:
            screen: Any = self
            self._opened_size = screen.app.size
            if trick_on(Trick.SINGLE_RESUME_RESTYLE) and self._styled_with_own_css:
                event.refresh_styles = False  # styled as it mounted, just now

    def _compositor_refresh(self) -> None:
        screen: Any = self
        compositor = screen._compositor
        full = compositor.size.region
        if (self.LIGHT and trick_on(Trick.LIGHT_DIALOG_REPAINT) and self._resumes == 1
                and screen.is_current and compositor.size == self._opened_size
                and full in compositor._dirty_regions):
            compositor._dirty_regions.discard(full)
            compositor._dirty_regions.update(
                child.region for child in screen.children if child.region)
        super()._compositor_refresh()  # type: ignore[misc]


class OpensInOneLayout:
    """Screen mixin (before the screen class): ``one-layout-open`` and
    ``first-resize-skip`` for a screen whose ``QUIET_OPEN`` is set (see the
    module doc). The host calls ``first_frame_drawn`` after its first frame
    and says which widgets keep their layout request
    (``may_need_second_layout``)."""

    QUIET_OPEN = False
    _laid_out = False
    _first_layout_done = False
    _first_layout_at = 0.0
    _first_frame_done = False

    def may_need_second_layout(self, widget: Widget) -> bool:
        """Whether ``widget``'s own layout request stands after the first layout."""
        return True

    def first_frame_drawn(self) -> None:
        self._first_frame_done = True

    def _refresh_layout(self, size: Any = None, scroll: bool = False) -> None:
        first = (self.QUIET_OPEN and not self._first_layout_done
                 and trick_on(Trick.ONE_LAYOUT_OPEN))
        if first:
            self._first_layout_at = time.monotonic()
        super()._refresh_layout(size, scroll)  # type: ignore[misc]
        if not first:
            return
        self._first_layout_done = True
        screen: Any = self
        for widget in screen.walk_children(Widget):
            if widget._layout_required and not self.may_need_second_layout(widget):
                widget._layout_required = False
        screen._layout_required = False

    async def _on_layout(self, message: messages.Layout) -> None:
        """A widget's request made before the first layout: covered by it."""
        if self._first_layout_done and message.time <= self._first_layout_at:
            message.stop()
            message.prevent_default()  # Textual then skips Screen._on_layout

    def refresh(self, *regions: Any, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Self:
        if layout and self._first_layout_done and not self._first_frame_done:
            layout = False  # the screen's mount completing: laid out already (above)
        done: Self = super().refresh(  # type: ignore[misc]
            *regions, repaint=repaint, layout=layout, recompose=recompose)
        return done

    async def _on_resize(self, event: events.Resize) -> None:
        first, self._laid_out = not self._laid_out, True
        screen: Any = self
        if (first and trick_on(Trick.FIRST_RESIZE_SKIP)
                and event.size == screen._compositor.size):
            event.stop()
            event.prevent_default()  # Textual then skips Screen._on_resize
