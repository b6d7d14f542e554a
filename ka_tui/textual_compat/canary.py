"""What this package relies on in Textual and Rich, each a check that names its trick.

``tests/test_textual_canary.py`` runs every ``CHECKS`` entry; run it alone
against a new Textual before moving the pin (``pytest --noconftest
tests/test_textual_canary.py`` in a venv with that Textual and this
checkout on ``PYTHONPATH``: it needs neither the store nor the rest of the
suite). A failing entry says which private name or signature changed, which
trick to switch off meanwhile (``KA_TUI_TRICKS_OFF=NAME``) and which module
to adapt; an entry with no trick (``app_state``) has no switch: its module
must be adapted before ka-tui runs on that Textual.

The checks are of three kinds: a name still there with the parameters we
call it with; the text of a Textual method we copied (its digest) unchanged;
and a small behaviour (our reading of an update or a style gives what
Textual itself writes).
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ka_tui.textual_compat.tricks import Trick


@dataclass(frozen=True)
class Check:
    trick: Trick | None
    subject: str  # what is relied on, as Textual names it
    module: str   # the module of this package that relies on it
    run: Callable[[], None]  # raises AssertionError (or any error) when it changed

    def advice(self) -> str:
        where = f"ka_tui/textual_compat/{self.module}.py"
        if self.trick is None:
            return (f"no switch: adapt {where} before ka-tui runs on this Textual "
                    f"(no trick depends on it; the app does)")
        return (f"switch off the trick {self.trick.value!r} "
                f"(KA_TUI_TRICKS_OFF={self.trick.value}) and adapt {where}")


CHECKS: list[Check] = []


def _check(trick: Trick | None, subject: str, module: str
           ) -> Callable[[Callable[[], None]], Callable[[], None]]:
    def add(run: Callable[[], None]) -> Callable[[], None]:
        CHECKS.append(Check(trick, subject, module, run))
        return run
    return add


def _params(function: Any) -> list[str]:
    return list(inspect.signature(function).parameters)


def _has_params(function: Any, *names: str) -> None:
    found = _params(function)
    assert found[:len(names)] == list(names), f"parameters are {found}, not {list(names)}"


def _digest(function: Any) -> str:
    return hashlib.sha256(inspect.getsource(function).encode()).hexdigest()


def _source(function: Any) -> str:
    return inspect.getsource(function)


def _app() -> Any:
    from textual.app import App

    return App()


# ---------------------------------------------------------------- screen shadow

_SHADOW = Trick.SCREEN_SHADOW


@_check(_SHADOW, "App._display(screen, renderable) writes a CompositorUpdate by "
        "render_segments, then moves the cursor", "display")
def _display() -> None:
    from textual.app import App

    _has_params(App._display, "self", "screen", "renderable")
    text = _source(App._display)
    for needle in ("isinstance(renderable, CompositorUpdate)", "render_segments(console)",
                   "self._batch_count", "self._running", "self._closed", "self._driver"):
        assert needle in text, f"App._display no longer uses {needle}"


@_check(_SHADOW, "App._driver, App._batch_count, App._running, App._closed", "display")
def _app_state_for_display() -> None:
    app = _app()
    for name in ("_driver", "_batch_count", "_running", "_closed"):
        assert hasattr(app, name), f"App has no {name}"


@_check(_SHADOW, "textual._compositor: CompositorUpdate, LayoutUpdate(strips, region), "
        "ChopsUpdate(chops, spans, chop_ends)", "compositor")
def _updates() -> None:
    from textual._compositor import ChopsUpdate, CompositorUpdate, LayoutUpdate

    assert issubclass(LayoutUpdate, CompositorUpdate)
    assert issubclass(ChopsUpdate, CompositorUpdate)
    _has_params(LayoutUpdate.__init__, "self", "strips", "region")
    _has_params(ChopsUpdate.__init__, "self", "chops", "spans", "chop_ends")
    _has_params(CompositorUpdate.render_segments, "self", "console")


def _cells_written(text: str) -> dict[tuple[int, int], str]:
    """(y, x) -> character, of plain text written at cursor moves (SGR skipped)."""
    import re

    cells: dict[tuple[int, int], str] = {}
    y = x = 0
    for move, sgr, char in re.findall(r"\x1b\[(\d+;\d+)H|(\x1b\[[0-9;]*m)|(.)", text,
                                      re.DOTALL):
        if move:
            row, column = move.split(";")
            y, x = int(row) - 1, int(column) - 1
        elif char and char != "\n":
            cells[(y, x)] = char
            x += 1
    return cells


@_check(_SHADOW, "ChopsUpdate.render_segments writes the cells chops_pieces reads "
        "(chops, chop_ends, spans)", "compositor")
def _chops_read_as_written() -> None:
    import io

    from rich.console import Console
    from rich.segment import Segment
    from rich.style import Style
    from textual.strip import Strip

    from ka_tui.textual_compat.compositor import chops_pieces, chops_update

    console = Console(file=io.StringIO(), width=20, color_system="truecolor")
    red, blue = Style(color="red"), Style(bgcolor="blue", bold=True)
    line = {0: Strip([Segment("abcdef", red)]), 6: Strip([Segment("ghij", blue)])}
    spans = [(0, 2, 8), (1, 0, 10)]
    update = chops_update([line, dict(line)], spans, [[6, 10], [6, 10]])
    theirs = _cells_written(update.render_segments(console))
    ours = {(y, x + i): char for y, x, strip in chops_pieces(update)
            for i, char in enumerate(strip.text)}
    wanted = {(y, x): c for (y, x), c in theirs.items()
              if any(y == sy and x1 <= x < x2 for sy, x1, x2 in spans)}
    assert ours == wanted, f"Textual writes {sorted(wanted.items())}, we read {sorted(ours.items())}"


@_check(_SHADOW, "rich Style._attributes/_set_attributes/_color/_bgcolor/_link give "
        "the codes of Style._make_ansi_codes", "compositor")
def _style_parts() -> None:
    from rich.color import ColorSystem
    from rich.style import Style

    from ka_tui.textual_compat.compositor import style_parts

    for system in (ColorSystem.STANDARD, ColorSystem.EIGHT_BIT, ColorSystem.TRUECOLOR):
        # new styles per system: Rich keeps the first codes it made for a style
        styles = [Style(), Style(bold=True, italic=True, color="red"),
                  Style(dim=True, underline=True, strike=True, bgcolor="#102030"),
                  Style(reverse=True, color="color(200)", bgcolor="default"),
                  Style(overline=True, underline2=True, blink=True, conceal=True),
                  Style(link="https://example.org", bold=False, frame=True, encircle=True)]
        for style in styles:
            attrs, fg, bg, link = style_parts(style, system)
            ours = ";".join(p for p in (attrs, fg, bg) if p)
            assert ours == style._make_ansi_codes(system), (style, system, ours)
            assert link == (style.link or "")


@_check(_SHADOW, "rich Console._color_system", "compositor")
def _color_system() -> None:
    import io

    from rich.color import ColorSystem
    from rich.console import Console

    from ka_tui.textual_compat.compositor import color_system

    console = Console(file=io.StringIO(), color_system="256")
    assert color_system(console) == ColorSystem.EIGHT_BIT


@_check(None, "Screen._compositor (size, render_strips), App._background_screens, "
        "textual._compositor.visible_screen_stack", "compositor")
def _repaint_parts() -> None:
    from textual._compositor import visible_screen_stack  # type: ignore[attr-defined]
    from textual.screen import Screen

    screen: Screen[None] = Screen()
    assert hasattr(screen._compositor, "size")
    assert callable(screen._compositor.render_strips)
    assert callable(screen._compositor.render_update)
    assert hasattr(_app(), "_background_screens")
    assert visible_screen_stack.name


# ---------------------------------------------------------------- quiet footer

_FOOTER = Trick.QUIET_FOOTER


@_check(_FOOTER, "textual.widgets._footer.FooterKey with a compact reactive", "footer")
def _footer_key() -> None:
    from textual.reactive import Reactive
    from textual.widget import Widget
    from textual.widgets._footer import FooterKey

    assert issubclass(FooterKey, Widget)
    assert isinstance(FooterKey.__dict__.get("compact"), Reactive)


@_check(_FOOTER, "Footer._bindings_ready (a reactive), the palette key's "
        "-command-palette class", "footer")
def _bindings_ready() -> None:
    from textual.reactive import Reactive
    from textual.widgets import Footer

    assert isinstance(Footer.__dict__.get("_bindings_ready"), Reactive)
    assert "-command-palette" in _source(Footer.compose)


@_check(_FOOTER, "Footer.bindings_changed as QuietFooter copies it", "footer")
def _bindings_changed_copied() -> None:
    import textwrap

    from textual.widgets import Footer

    from ka_tui.textual_compat.footer import COPIED_BINDINGS_CHANGED

    theirs = textwrap.dedent(_source(Footer.bindings_changed)).strip()
    ours = textwrap.dedent(COPIED_BINDINGS_CHANGED).strip()
    assert theirs == ours, f"Footer.bindings_changed is now:\n{theirs}"


# ---------------------------------------------------------------- forms

@_check(Trick.ONE_LAYOUT_OPEN, "Screen._refresh_layout(size, scroll), Screen._on_layout"
        "(message), Widget._layout_required, Layout.time", "forms")
def _one_layout() -> None:
    from textual import messages
    from textual.screen import Screen
    from textual.widget import Widget

    _has_params(Screen._refresh_layout, "self", "size", "scroll")
    _has_params(Screen._on_layout, "self", "message")
    assert inspect.iscoroutinefunction(Screen._on_layout)
    assert "_layout_required" in _source(Screen._refresh_layout) or \
        "_layout_required" in inspect.getsource(Widget)
    assert hasattr(Widget(), "_layout_required") and hasattr(Screen(), "_layout_required")
    assert hasattr(messages.Layout(Widget()), "time")


@_check(Trick.FIRST_RESIZE_SKIP, "Screen._on_resize(event), Screen._compositor.size",
        "forms")
def _first_resize() -> None:
    from textual.screen import Screen

    _has_params(Screen._on_resize, "self", "event")
    assert inspect.iscoroutinefunction(Screen._on_resize)
    assert hasattr(Screen()._compositor, "size")


@_check(Trick.SHARED_INPUT_STYLES, "the stylesheet asks node._get_component_classes() "
        "and fills node._component_styles; DOMNode._attach(parent), "
        "DOMNode._pseudo_classes_cache_key", "forms")
def _component_styles() -> None:
    from textual.css.stylesheet import Stylesheet
    from textual.dom import DOMNode
    from textual.widget import Widget

    assert "_process_component_classes(node)" in _source(Stylesheet.apply)
    text = _source(Stylesheet._process_component_classes)
    assert "node._get_component_classes()" in text
    assert "node._component_styles" in text
    _has_params(DOMNode._attach, "self", "parent")
    assert hasattr(DOMNode, "_pseudo_classes_cache_key")
    assert isinstance(Widget()._component_styles, dict)


@_check(Trick.QUIET_INPUT_OPEN, "Input._watch_value(value), Input._initial_value", "forms")
def _quiet_open() -> None:
    from textual.widgets import Input

    _has_params(Input._watch_value, "self", "value")
    assert "self._initial_value = True" in _source(Input.__init__)
    assert "if self._initial_value:" in _source(Input._watch_value)


@_check(Trick.FIXED_INPUT_WIDTH, "Input._watch_value sets virtual_size "
        "Size(content_width, 1) and posts Changed", "forms")
def _fixed_width() -> None:
    from textual.widgets import Input

    text = _source(Input._watch_value)
    assert "self.virtual_size = Size(self.content_width, 1)" in text
    assert "self.Changed(" in text


@_check(Trick.SINGLE_RESUME_RESTYLE, "Screen._on_screen_resume(event) restyles only "
        "when ScreenResume.refresh_styles", "forms")
def _resume() -> None:
    from textual import events
    from textual.screen import Screen

    _has_params(Screen._on_screen_resume, "self", "event")
    assert "event.refresh_styles" in _source(Screen._on_screen_resume)
    assert events.ScreenResume().refresh_styles is True


@_check(Trick.LIGHT_DIALOG_REPAINT, "Screen._compositor_refresh(), "
        "Compositor._dirty_regions (a set of regions)", "forms")
def _light() -> None:
    from textual.screen import Screen

    _has_params(Screen._compositor_refresh, "self")
    assert isinstance(Screen()._compositor._dirty_regions, set)


# ---------------------------------------------------------------- tabs

@_check(Trick.DRAWN_TAB_ROW, "TabbedContent._watch_active(active), TabPane._title, "
        "panes named tab-N", "tabs")
def _tabs() -> None:
    from textual.content import Content
    from textual.widgets import TabbedContent, TabPane

    _has_params(TabbedContent._watch_active, "self", "active")
    assert isinstance(TabPane("Title")._title, Content)
    assert 'f"tab-{' in inspect.getsource(TabbedContent)
    _has_params(TabbedContent.compose_add_child, "self", "widget")


# ---------------------------------------------------------------- terminal input

_INPUT = Trick.TOLERANT_INPUT


@_check(_INPUT, "Driver._app, the app a driver serves (ended when its input ends)",
        "terminal_input")
def _driver_app() -> None:
    from textual.driver import Driver

    assert "self._app = app" in _source(Driver.__init__)


@_check(_INPUT, "LinuxDriver.run_input_thread and WebDriver.run_input_thread as the "
        "tolerant drivers copy them", "terminal_input")
def _input_threads_copied() -> None:
    from textual.drivers.linux_driver import LinuxDriver
    from textual.drivers.web_driver import WebDriver

    from ka_tui.textual_compat.terminal_input import COPIED_RUN_INPUT_THREAD

    for cls in (LinuxDriver, WebDriver):
        name = f"{cls.__module__}.{cls.__qualname__}.run_input_thread"
        assert _digest(cls.run_input_thread) == COPIED_RUN_INPUT_THREAD[name], (
            f"{name} changed: compare it with the copy")


@_check(_INPUT, "the drivers' fileno, exit_event, process_message, _debug; "
        "WebDriver._input_reader, _on_meta; textual.drivers._byte_stream.ByteStream, "
        "web_driver._ExitInput", "terminal_input")
def _driver_parts() -> None:
    from textual.drivers._byte_stream import ByteStream
    from textual.drivers.linux_driver import LinuxDriver
    from textual.drivers.web_driver import WebDriver, _ExitInput

    assert issubclass(_ExitInput, BaseException)
    assert callable(ByteStream().feed)
    _has_params(LinuxDriver.process_message, "self", "message")
    text = inspect.getsource(LinuxDriver.__init__)
    for needle in ("self.fileno", "self.exit_event"):
        assert needle in text, needle
    assert "self._debug" in inspect.getsource(LinuxDriver.__mro__[1])
    web = inspect.getsource(WebDriver)
    assert "self._input_reader" in web and "def _on_meta" in web


@_check(_INPUT, "textual._xterm_parser.XTermParser(debug): feed, tick, "
        "_sequence_to_key_events(sequence, alt), parse_mouse_code(code), "
        "terminal_size, terminal_pixel_size, mouse_pixels", "terminal_input")
def _parser() -> None:
    from textual._xterm_parser import XTermParser

    parser = XTermParser(False)
    _has_params(XTermParser._sequence_to_key_events, "self", "sequence", "alt")
    _has_params(XTermParser.parse_mouse_code, "self", "code")
    for name in ("terminal_size", "terminal_pixel_size", "mouse_pixels"):
        assert hasattr(parser, name), name
    assert [getattr(k, "key", None) for k in parser.feed("a")] == ["a"]
    assert list(parser.tick()) == []


# ---------------------------------------------------------------- css refresh

@_check(Trick.STYLED_MODE_SCREEN, "App._css_update_count and Screen._css_update_count "
        "(-1 when built) decide App.refresh_css in _init_mode and switch_mode, which "
        "post ScreenResume (its refresh_styles read by Screen._on_screen_resume)",
        "css_refresh")
def _css_update_count() -> None:
    from textual.app import App
    from textual.screen import Screen

    assert isinstance(_app()._css_update_count, int)
    assert Screen()._css_update_count == -1
    for method in (App._init_mode, App.switch_mode):
        assert "._css_update_count != self._css_update_count" in _source(method)
        assert "post_message(events.ScreenResume())" in _source(method)
    assert "self._css_update_count += 1" in _source(App._invalidate_css)
    assert "event.refresh_styles" in _source(Screen._on_screen_resume)


@_check(Trick.CSS_PARSE_CACHE, "Stylesheet._parse_cache (an LRUCache), _variables, "
        "_invalid_css; reparse() parses the same sources as parse()", "css_refresh")
def _parse_cache() -> None:
    from textual.cache import LRUCache
    from textual.css.stylesheet import Stylesheet

    sheet = Stylesheet(variables={"a": "red"})
    assert isinstance(sheet._parse_cache, LRUCache)
    assert sheet._variables == {"a": "red"} and isinstance(sheet._invalid_css, set)
    assert "self._parse_cache[cache_key]" in _source(Stylesheet._parse_rules)
    assert "self._parse_cache.clear()" in _source(Stylesheet.set_variables)
    text = _source(Stylesheet.reparse)
    assert "stylesheet.parse()" in text and "self._rules = stylesheet.rules" in text
    _has_params(Stylesheet.__init__, "self", "variables")


# ---------------------------------------------------------------- resize

@_check(Trick.SAME_SIZE_RESIZE, "App._on_resize(event) keeps App._resize_event before it "
        "compares App._size; App._resize_timer; App._on_idle posts the kept event; "
        "prevent_default() stops the handlers of the MRO below", "resize")
def _same_size_resize() -> None:
    from textual.app import App
    from textual.message_pump import MessagePump

    _has_params(App._on_resize, "self", "event")
    assert inspect.iscoroutinefunction(App._on_resize)
    text = _source(App._on_resize)
    assert text.index("self._resize_event = event") < text.index("if self._size == event.size")
    assert "self._resize_event is not None" in _source(App._on_idle)
    assert "if message._no_default_action:" in _source(MessagePump._get_dispatch_methods)
    app = _app()
    assert app._size is None and app._resize_timer is None


# ---------------------------------------------------------------- crash

@_check(Trick.ONE_LINE_CRASH, "App._fatal_error(), App._exception, App._exit_renderables, "
        "App._close_messages_no_wait()", "crash")
def _fatal_error() -> None:
    from textual.app import App

    _has_params(App._fatal_error, "self")
    _has_params(App._close_messages_no_wait, "self")
    app = App[None]()
    assert app._exception is None and app._exit_renderables == []
    assert "self._exit_renderables.append" in _source(App._fatal_error)


# ---------------------------------------------------------------- app state

@_check(None, "textual._context.active_app (a ContextVar)", "app_state")
def _active_app() -> None:
    from contextvars import ContextVar

    from textual._context import active_app

    assert isinstance(active_app, ContextVar)


@_check(None, "App._thread_id (the app's thread, as call_from_thread asks it)",
        "app_state")
def _thread_id() -> None:
    from textual.app import App

    assert "self._thread_id" in _source(App.call_from_thread)
    assert isinstance(_app()._thread_id, int)


@_check(None, "App._screen_stacks (mode -> screen stack)", "app_state")
def _screen_stacks() -> None:
    stacks = _app()._screen_stacks
    assert isinstance(stacks, dict) and all(isinstance(s, list) for s in stacks.values())


@_check(None, "App._driver.send_message(message)", "app_state")
def _send_message() -> None:
    from textual.driver import Driver

    _has_params(Driver.send_message, "self", "message")
