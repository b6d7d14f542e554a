"""Pick who fights whom (S0 §Close combat): pairs of opponents from the
roster; one character may face several. Returns the pairs as character ids.

Long names are cut in the list (the highlighted one is shown whole below
it) and wrap in the Pairs panel.

Keys: up/down move, enter picks the highlighted character (the first pick
waits for an opponent, the second makes the pair), x drops the last pair,
ctrl+s starts the fight, escape cancels.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ka_tui.screens.combat.report import cut
from ka_tui.screens.door import door
from ka_tui.store.fights import FighterCandidate
from ka_tui.widgets.quiet_footer import QuietFooter

NAME_WIDTH = 15
SKILL_WIDTH = 17
ROW_WIDTH = 44  # the people list is 46 columns wide at 80x24 (box 78, pairs 28)


class FightSetupScreen(ModalScreen[list[tuple[int, int]] | None]):
    HELP_TITLE = "New close combat"
    CSS_PATH = "setup.tcss"

    BINDINGS = [
        Binding("enter", "pick", "Pick", id="combat_setup.pick"),
        Binding("x", "drop", "Drop last pair", id="combat_setup.drop"),
        Binding("ctrl+s", "start", "Start fight", id="combat_setup.start"),
        Binding("escape", "cancel", "Cancel", id="combat_setup.cancel"),
    ]

    PALETTE_HELP = {
        "combat_setup.pick": "Pick the highlighted character; the next pick is his opponent",
        "combat_setup.drop": "Drop the last pair (or the pending pick)",
        "combat_setup.start": "Start the fight with these pairs",
        "combat_setup.cancel": "Leave without starting a fight",
    }

    def __init__(self, candidates: Sequence[FighterCandidate]) -> None:
        super().__init__()
        self.candidates = list(candidates)
        self.pairs: list[tuple[int, int]] = []
        self.pending: int | None = None
        self.message = ""

    def compose(self) -> ComposeResult:
        with Vertical(id="setup-box"):
            with Horizontal(id="setup-lists"):
                yield OptionList(*self._options(), id="setup-people", compact=True)
                yield Static("", id="setup-pairs")
            yield Static("", id="setup-status")
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#setup-box").border_title = "New close combat: who fights whom"
        people = self.query_one(OptionList)
        self.set_focus(people)
        people.highlighted = next((i for i, c in enumerate(self.candidates) if not c.unable), None)
        self._show()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._pick(event.option)

    @property
    def ascii(self) -> bool:
        try:
            return door(self).ascii_glyphs
        except Exception:  # noqa: BLE001 — not mounted yet
            return False

    def _skill(self, c: FighterCandidate) -> str:
        f = c.fighter
        return (f"Close Combat {f.cc_number}" if c.skill_note.startswith("Close Combat")
                else c.skill_note.replace("no Close Combat: ", "").replace(" (d12)", "")
                + " (no CC)")

    def _options(self) -> list[Option]:
        out = []
        a = self.ascii
        for c in self.candidates:
            f = c.fighter
            name = f"{cut(c.name, NAME_WIDTH, a):<{NAME_WIDTH}}"
            skill = cut(self._skill(c), SKILL_WIDTH, a)
            text = (f"{name} {skill:<{SKILL_WIDTH}} AP {f.ap_max:<2} K {f.k_points}"
                    if not c.unable else f"{name} cannot fight: {c.unable}")
            out.append(Option(cut(text, ROW_WIDTH, a), id=str(c.id), disabled=bool(c.unable)))
        return out

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The highlighted character in full, whatever the list cut."""
        self._show()

    def name_of(self, cid: int) -> str:
        return next(c.name for c in self.candidates if c.id == cid)

    def _show(self) -> None:
        lines = ["Pairs:"] + [f" {i}. {self.name_of(a)} vs {self.name_of(b)}"
                              for i, (a, b) in enumerate(self.pairs, 1)]
        if self.pending is not None:
            lines.append(f" {len(self.pairs) + 1}. {self.name_of(self.pending)} vs …")
        if len(lines) == 1:
            lines.append(" (none yet)")
        self.query_one("#setup-pairs", Static).update("\n".join(lines))
        hint = ("enter: pick his opponent" if self.pending is not None else
                "enter: pick a fighter" if not self.pairs else
                "enter: another pair, ctrl+s: start the fight")
        people = self.query_one(OptionList)
        here = (self.candidates[people.highlighted] if people.highlighted is not None
                and people.highlighted < len(self.candidates) else None)
        whole = ""
        if here is not None:
            f = here.fighter
            whole = (f"{here.name}: cannot fight: {here.unable}" if here.unable else
                     f"{here.name}: {self._skill(here)}, AP {f.ap_max}, K {f.k_points}")
        status = self.query_one("#setup-status", Static)
        status.update("\n".join(x for x in (whole, self.message or hint) if x))
        self.message = ""

    def action_pick(self) -> None:
        options = self.query_one(OptionList)
        if options.highlighted is not None:
            self._pick(options.get_option_at_index(options.highlighted))

    def _pick(self, option: Option) -> None:
        """The first pick waits for an opponent, the second makes the pair."""
        if option.disabled or option.id is None:
            self.app.bell()
            return
        cid = int(option.id)
        if self.pending is None:
            self.pending = cid
        elif cid == self.pending:
            self.message = "a character cannot fight himself: pick someone else"
            self.app.bell()
        elif any({a, b} == {self.pending, cid} for a, b in self.pairs):
            self.message = f"{self.name_of(self.pending)} and {self.name_of(cid)} are already paired"
            self.app.bell()
        else:
            self.pairs.append((self.pending, cid))
            self.pending = None
        self._show()

    def action_drop(self) -> None:
        if self.pending is not None:
            self.pending = None
        elif self.pairs:
            self.pairs.pop()
        self._show()

    def action_start(self) -> None:
        if not self.pairs:
            self.message = "pair at least two characters first"
            self.app.bell()
            self._show()
            return
        self.dismiss(list(self.pairs))

    def action_cancel(self) -> None:
        self.dismiss(None)


class FightListScreen(ModalScreen[int | None]):
    """The campaign's fights, newest first: enter opens one, h shows its
    whole history (an ended fight is more than "(ended)")."""

    HELP_TITLE = "Fights"
    CSS_PATH = "setup.tcss"
    BINDINGS = [Binding("h", "history", "History", id="combat_list.history"),
                Binding("escape", "cancel", "Cancel", id="combat_list.cancel")]

    def __init__(self, fights: Sequence[tuple[int, str, str]]) -> None:
        super().__init__()
        self.fights = list(fights)

    def compose(self) -> ComposeResult:
        with Vertical(id="fights-box"):
            yield OptionList(*[Option(f"#{i} {name} ({status})", id=str(i))
                               for i, name, status in self.fights], id="fights-list")
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#fights-box").border_title = "Fights (enter opens, h: history)"
        self.set_focus(self.query_one(OptionList))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(int(event.option.id or 0))

    def action_history(self) -> None:
        from ka_tui.screens.history import HistoryScreen
        from ka_tui.store.events import LogRef

        options = self.query_one(OptionList)
        if options.highlighted is None:
            return
        option = options.get_option_at_index(options.highlighted)
        self.app.push_screen(HistoryScreen(LogRef.fight(int(option.id or 0))))

    def action_cancel(self) -> None:
        self.dismiss(None)
