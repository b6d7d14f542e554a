"""The app's key gate (widgets/key_gate.py) on a small app of its own: keys
in one burst take effect one by one, each after the one before and what it
began; held keys wait and go on in order; a dropped wait throws them away.

A burst is posted to the app at once, as the bytes of one read from the
terminal (``key_scripts.burst``); the plain ``App`` beside it shows what
Textual does without the gate."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Static

from ka_tui.widgets.key_gate import KeysInOrder, drop_waiting_keys, hold_keys, when_quiet
from tests.ui.key_scripts import burst
from tests.ui.pilot_helpers import wait_for


class Spot(Static, can_focus=True):
    """Something focusable that types nothing."""


class Asked(ModalScreen[None]):
    """A dialog with a text field: what is typed once it is up goes there."""

    BINDINGS = [Binding("escape", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        yield Input(id="answer")


class Home(Screen[None]):
    BINDINGS = [Binding("o", "open", "Open"), Binding("k", "note('k')", "Note"),
                Binding("j", "note('j')", "Note"), Binding("w", "work", "Work")]

    def __init__(self) -> None:
        super().__init__()
        self.pressed = False
        self.notes: list[tuple[str, bool]] = []

    def compose(self) -> ComposeResult:
        yield Spot("home", id="spot")
        yield Button("press", id="press")

    def on_mount(self) -> None:
        self.query_one(Spot).focus()

    def action_open(self) -> None:
        self.app.push_screen(Asked())

    def action_work(self) -> None:
        """Work whose end the screen itself sees (a timer of its own)."""
        hold = hold_keys(self)
        self.set_timer(0.2, hold.release)

    def action_note(self, key: str) -> None:
        self.notes.append((key, self.pressed))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.pressed = True


class Gated(KeysInOrder[None]):
    def on_mount(self) -> None:
        self.push_screen(Home())


class Plain(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Home())


async def _home(pilot: Any) -> Home:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, Home)
                   and pilot.app.screen.focused is not None)
    screen = pilot.app.screen
    assert isinstance(screen, Home)
    return screen


def _answer(app: App[None]) -> str:
    field = app.screen.query("#answer")
    return field.first(Input).value if field else ""


async def _answer_after(app: App[None], keys: tuple[str, ...], wanted: str) -> str:
    """What the dialog's field holds once it holds ``wanted``, or as it
    stands when the keys are all handled (a plain app: a few pauses)."""
    async with app.run_test() as pilot:
        await _home(pilot)
        burst(app, keys)
        if isinstance(app, KeysInOrder):
            await wait_for(pilot, lambda: _answer(app) == wanted)
        else:
            await pilot.pause()
            await pilot.pause()
        return _answer(app)


async def test_keys_after_one_that_opens_a_dialog_go_to_the_dialog() -> None:
    """``o`` opens a dialog: the letters typed behind it, in the same burst,
    are typed in its field once it is up (without the gate they reach the
    screen under it)."""
    assert await _answer_after(Gated(), ("o", "h", "i"), "hi") == "hi"
    assert await _answer_after(Plain(), ("o", "h", "i"), "hi") != "hi"


async def _notes_after(app: App[None], keys: tuple[str, ...]) -> list[tuple[str, bool]]:
    async with app.run_test() as pilot:
        home = await _home(pilot)
        home.query_one(Button).focus()
        await pilot.pause()
        burst(app, keys)
        await wait_for(pilot, lambda: len(home.notes) == 1)
        return home.notes


async def test_the_message_a_key_posts_is_handled_before_the_next_key() -> None:
    """Enter on a button: its ``Pressed`` is handled before ``k``, typed right
    behind it, acts (without the gate ``k`` overtakes it)."""
    assert await _notes_after(Gated(), ("enter", "k")) == [("k", True)]
    assert await _notes_after(Plain(), ("enter", "k")) == [("k", False)]


async def test_held_keys_wait_and_go_on_in_the_order_typed() -> None:
    app = Gated()
    async with app.run_test() as pilot:
        home = await _home(pilot)
        hold = hold_keys(home)
        burst(app, ("k", "j", "k"))
        await pilot.pause()
        assert home.notes == [] and app.key_gate.waiting == 3
        hold.release()
        hold.release()  # once: a second release changes nothing
        await wait_for(pilot, lambda: len(home.notes) == 3)
        assert [key for key, _ in home.notes] == ["k", "j", "k"]
        assert not app.key_gate.busy


async def test_keys_wait_for_every_hold() -> None:
    app = Gated()
    async with app.run_test() as pilot:
        home = await _home(pilot)
        first, second = hold_keys(home), hold_keys(home)
        burst(app, ("k",))
        first.release()
        await pilot.pause()
        assert home.notes == []
        second.release()
        await wait_for(pilot, lambda: home.notes == [("k", False)])


async def test_dropped_keys_are_thrown_away_and_counted() -> None:
    app = Gated()
    async with app.run_test() as pilot:
        home = await _home(pilot)
        hold = hold_keys(home)
        burst(app, ("k", "j"))
        await pilot.pause()
        assert drop_waiting_keys(home) == 2
        hold.release()
        burst(app, ("j",))
        await wait_for(pilot, lambda: home.notes == [("j", False)])


async def test_a_dialog_closed_by_its_key_leaves_the_next_keys_to_the_screen_under_it() -> None:
    """Escape closes the dialog (its field, where the key went, is gone with
    it): ``k`` behind it reaches the screen under it."""
    app = Gated()
    async with app.run_test() as pilot:
        home = await _home(pilot)
        burst(app, ("o", "x", "escape", "k"))
        await wait_for(pilot, lambda: home.notes == [("k", False)])
        assert app.screen is home and not app.key_gate.busy


async def test_a_plain_app_has_no_gate_and_holds_do_nothing() -> None:
    app = Plain()
    async with app.run_test() as pilot:
        home = await _home(pilot)
        hold = hold_keys(home)
        assert not hold.held
        burst(app, ("k",))
        await wait_for(pilot, lambda: home.notes == [("k", False)])
        hold.release()


async def test_a_hold_with_a_limit_lets_the_keys_go_after_it() -> None:
    """Work that may be slow (a startup read on a slow disk) holds the keys a
    limited time: after it they act on the screen as it stands."""
    app = Gated()
    async with app.run_test() as pilot:
        home = await _home(pilot)
        hold = hold_keys(home, at_most=0.2)
        burst(app, ("k",))
        await pilot.pause()
        assert home.notes == [] and hold.held
        await wait_for(pilot, lambda: home.notes == [("k", False)])
        assert not hold.held
        hold.release()  # the work's own release, later, changes nothing


async def test_keys_go_on_when_the_screen_itself_ends_the_work() -> None:
    """The hold released from the screen's own callback: the next key's probe
    still gets back to the app (none is taken as lost: it would wait for
    ever here)."""
    app = Gated()
    async with app.run_test() as pilot:
        home = await _home(pilot)
        app.key_gate.LOST = 1000.0
        burst(app, ("w", "k"))
        await wait_for(pilot, lambda: home.notes == [("k", False)])
        await wait_for(pilot, lambda: not app.key_gate.busy)


async def test_work_done_ahead_waits_for_a_quiet_moment_after_the_keys() -> None:
    """``when_quiet``: work begun ahead of need (an import, a warm-up) runs at
    once while nobody types, and waits while keys come and until none has
    come for its quiet time, so it never slows the keys (a mode opened right
    after the start)."""
    app = Gated()
    async with app.run_test() as pilot:
        home = await _home(pilot)
        ran: list[str] = []
        when_quiet(home, lambda: ran.append("at once"), quiet=30.0)
        assert ran == ["at once"]                 # no key yet: nothing to wait for
        await pilot.press("k")
        await wait_for(pilot, lambda: home.notes == [("k", False)])
        when_quiet(home, lambda: ran.append("after the keys"), quiet=30.0)
        assert ran == ["at once"]                 # a key came less than 30 s ago
        gate = app.key_gate
        assert 20.0 < gate.quiet_in(30.0) <= 30.0
        when_quiet(home, lambda: ran.append("soon"), quiet=0.3)
        await wait_for(pilot, lambda: "soon" in ran)
        assert ran == ["at once", "soon"]
