"""The dice roller: pick who rolls what (or type a pool), see the exact odds,
then roll — or type the faces the table's physical dice show — and read the
result with every die explained. Every roll goes to the campaign's roll log.

The screen computes no rule: pools come from ``skills.roll_setup`` through
pool notation, odds from ``odds``, results from ``checks``; it renders their
result objects. Reads and writes run in thread workers; each roll is one
transaction (``store.roll_log.append_roll``).

The dice source and the clock are injectable (``RollerScreen(dice=…,
clock=…)``, or through the door: ``door(self).dice("roller")``, ``now()``) so
tests and snapshots are deterministic. A change of the campaign elsewhere (the
house rules saved in settings, the roster edited) reads it again.
"""

from __future__ import annotations

import getpass
import threading
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header, Input, Select

from ka_tui.rules.core.any_dice import (
    DiceNotationError, dice_odds, parse_dice, parse_modifiers, rating_check, roll_dice,
)
from ka_tui.rules.core.dice import Dice, RecordingDice, ScriptedDice
from ka_tui.rules.core.dice_notation import NotationError, PoolSpec, parse_pool
from ka_tui.rules.core.odds import opposed_odds, unopposed_odds
from ka_tui.rules.core.roll_choices import (
    AnySetup, RollChoice, RollerCharacter, RollerData, Setup, Side, any_faces_problem,
    distinct_names, faces_hint, faces_problem, notation_for, opponents, same_skill_key,
    tiebreaks,
)
from ka_tui.rules.core.skill_tests import (
    OpposedResult, TestResult, opposed_need, opposed_test, unopposed_needed, unopposed_test,
)
from ka_tui.screens.door import CampaignChanged, Change, door
from ka_tui.screens.roller.fields import FACE_CHARS, POOL_CHARS, PickRow, RollTextField
from ka_tui.store.load_failure import load_failure
from ka_tui.store.errors import StoreError
from ka_tui.store.roll_log import (
    LoggedRoll, RollEntry, append_roll, count_rolls, last_standing_roll, query_rolls, strike_roll,
)
from ka_tui.store.roller_reads import load_roller_data
from ka_tui.widgets.dice_panel import DicePanel, OddsView, any_dice_lines, opposed_lines
from ka_tui.widgets.dice_panel import unopposed_lines
from ka_tui.widgets.dice_panel import log_summary, opposed_summary, pass_style
from ka_tui.widgets.form_fields import TextField
from ka_tui.widgets.roll_log_pane import RollLogPane
from ka_tui.widgets.quiet_footer import QuietFooter

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

TYPED = -1     # "who": no character, a typed pool
NOBODY = -2    # "versus": an unopposed test against 13
LOG_LIMIT = 200  # rows on screen; the filter searches the whole log


# --------------------------------------------------------------- the fields


# --------------------------------------------------------------- the screen


class RollerScreen(Screen[None]):
    HELP_TITLE = "Dice roller"
    CSS_PATH = "roller.tcss"

    BINDINGS = [
        Binding("r", "roll", "Roll", id="roller.roll"),
        Binding("f", "focus_faces", "Faces", id="roller.faces"),
        Binding("w", "focus_who", "Who", id="roller.who"),
        Binding("v", "focus_versus", "Versus", id="roller.versus"),
        Binding("x", "swap", "Swap", id="roller.swap"),
        Binding("slash", "filter_log", "Filter", id="roller.filter_log"),
        Binding("l", "focus_log", "Log", show=False, id="roller.log"),
        Binding("z", "zoom_log", "Big log", show=False, id="roller.zoom_log"),
        Binding("ctrl+r", "reload", "Reload", show=False, id="roller.reload"),
        Binding("d,delete", "strike", "Strike", show=False, id="roller.strike"),
        Binding("u", "undo_last", "Undo", id="roller.undo_last"),
    ]

    PALETTE_HELP = {
        "roller.roll": "Roll the pool with the app's dice (r also works in the text fields)",
        "roller.faces": "Type the faces the table's physical dice show, then enter",
        "roller.who": "Choose who rolls",
        "roller.versus": "Choose an opponent for an opposed test (or nobody: against 13)",
        "roller.swap": "Swap the two sides of an opposed test",
        "roller.filter_log": "Filter the roll log by words in who, what, pool or result",
        "roller.log": "Move to the roll log (enter shows a roll in full)",
        "roller.zoom_log": "Show the roll log on the whole screen (again to go back)",
        "roller.reload": "Read characters, skills and house rules from the campaign again",
        "roller.strike": "Strike the roll under the log's cursor (kept, marked struck; "
                         "again to stand it again)",
        "roller.undo_last": "Undo the last roll: strike the newest standing roll (kept, "
                            "marked struck, with who and when)",
    }

    def __init__(self, *, dice: Dice | None = None,
                 clock: Callable[[], datetime] | None = None) -> None:
        super().__init__()
        self._dice = dice
        self._clock = clock
        self.data = RollerData()
        self.loaded = False
        self.setup: Setup | None = None
        self.any_setup: AnySetup | None = None  # any dice (issue 12 item 24)
        self.setup_error = "loading…"
        self.last_result: TestResult | OpposedResult | object | None = None
        self._write_lock = threading.Lock()
        self._log_filter = ""
        self._keep_typed = False  # a reload after a change elsewhere keeps typed pools

    # -- injectables ----------------------------------------------------------

    @property
    def dice(self) -> Dice:
        if self._dice is None:
            self._dice = door(self).dice("roller")
        return self._dice

    def now(self) -> datetime:
        return self._clock() if self._clock is not None else door(self).now()

    @property
    def ascii(self) -> bool:
        return door(self).ascii_glyphs

    def campaign_db(self) -> CampaignDB:
        return door(self).campaign_db()

    # -- layout -----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        with Horizontal(id="roller-top"):
            with Vertical(id="roller-form"):
                yield PickRow("Who", self._new_select("who"), id="row-who")
                yield PickRow("Roll", self._new_select("skill"), id="row-skill")
                yield PickRow("On", self._new_select("base"), id="row-base")
                yield TextField("Mods", key="mods", placeholder="+2 long range, -1 tail",
                                label_width=7, id="field-mods")
                yield RollTextField("Pool", key="pool_a", placeholder="type: 2d6 @7",
                                    allowed=POOL_CHARS, label_width=7, id="field-pool-a")
                yield PickRow("Versus", self._new_select("versus"), id="row-versus")
                yield PickRow("Roll", self._new_select("vskill"), id="row-vskill")
                yield PickRow("On", self._new_select("vbase"), id="row-vbase")
                yield RollTextField("Pool", key="pool_b", placeholder="type: 2d10 @5",
                                    allowed=POOL_CHARS, label_width=7, id="field-pool-b")
            with VerticalScroll(id="odds-box"):
                yield OddsView(id="odds")
        yield RollTextField("Faces", key="faces", allowed=FACE_CHARS,
                            placeholder="table's dice: 3 7 10, or r",
                            label_width=7, id="field-faces")
        yield DicePanel(id="result")
        yield RollLogPane(id="log")
        yield QuietFooter(compact=True)

    @staticmethod
    def _new_select(name: str) -> Select[Any]:
        return Select([("…", 0)], allow_blank=False, compact=True, id=f"select-{name}")

    def on_mount(self) -> None:
        for row in ("row-base", "field-mods", "row-vskill", "row-vbase", "field-pool-b"):
            self.query_one(f"#{row}").display = False
        self.query_one(OddsView).show_lines(["Loading the campaign…"])
        self.query_one(DicePanel).show_message(
            "Type the faces the table rolled and press enter, or press r to roll.")
        self.query_one("#input-faces", Input).focus()
        door(self).on_campaign_changed(self, self._campaign_changed)
        self.load()

    def _campaign_changed(self, changed: CampaignChanged) -> None:
        """House rules or the roster changed elsewhere: read them again, so the
        next odds and result follow them (as ``ctrl+r`` does)."""
        if changed.source is not self and changed.change in (Change.HOUSE_RULES,
                                                              Change.ROSTER):
            self._keep_typed = True
            self.load()
        elif changed.source is not self and changed.change is Change.ROLLS:
            self.query_log(self._log_filter)  # another window rolled: its log is ours too

    # -- loading ------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="roller-load", exit_on_error=False)
    def load(self) -> None:
        try:
            db = self.campaign_db()
            data = load_roller_data(db)
        except Exception as error:  # noqa: BLE001 — any failure: one message (issue 11)
            self.app.call_from_thread(self._load_failed,
                                      load_failure("the roller", error, door(self)))
            return
        try:
            rolls = query_rolls(db, self._log_filter, limit=LOG_LIMIT)
            total = count_rolls(db, self._log_filter)
            problem: StoreError | None = None
        except Exception as error:  # noqa: BLE001 — the dice still roll without the log
            rolls, total, problem = [], 0, load_failure("the roll log", error, door(self))
        self.app.call_from_thread(self._loaded, data, rolls, total)
        if problem is not None:
            self.app.call_from_thread(self._load_failed, problem)

    def _load_failed(self, error: Exception) -> None:
        if self.loaded:  # only the log failed: the dice still roll (issue 11)
            self.query_one(DicePanel).show_message(str(error))
            pane = self.query_one(RollLogPane)
            pane.border_title = "Roll log · could not be read"
        else:
            self.query_one(OddsView).show_problem(str(error))
        self.notify(str(error), title="Dice roller", severity="error", timeout=20)

    def _loaded(self, data: RollerData, rolls: list[LoggedRoll], total: int) -> None:
        first = not self.loaded
        self.data = data
        self.loaded = True
        self.sub_title = f"Dice roller · {data.campaign}" if data.campaign else "Dice roller"
        who = self.query_one("#select-who", Select)
        versus = self.query_one("#select-versus", Select)
        people: list[tuple[Text, int]] = [(Text(c.name), c.id) for c in data.characters]
        keep_who, keep_versus = who.value, versus.value
        typed = (Text("(typed pool)"), TYPED)
        ids = {c.id for c in data.characters} | {TYPED, NOBODY}
        with self.prevent(Select.Changed):
            who.set_options([*people, typed])
            if not first and keep_who in ids:
                who.value = keep_who
            self._versus_options(keep_versus if not first else NOBODY)
        keep, self._keep_typed = self._keep_typed and not first, False
        for side in ("a", "b"):
            typed_pool = self._pool_field(side).input.value
            self.apply_side(side, pool=typed_pool if keep and self._character(side) is None
                            else None)
        self.query_one(RollLogPane).set_rolls(rolls, total)

    def _versus_options(self, keep: object) -> None:
        """The versus list: nobody, everyone but who rolls, a typed pool
        (issue 12 item 14: a character does not oppose himself)."""
        who = self.query_one("#select-who", Select).value
        people = opponents(self.data.characters, who if isinstance(who, int) else None)
        versus = self.query_one("#select-versus", Select)
        with self.prevent(Select.Changed):
            versus.set_options([(Text("nobody: against 13"), NOBODY),
                                *[(Text(c.name), c.id) for c in people],
                                (Text("(typed pool)"), TYPED)])
            if keep in {c.id for c in people} | {TYPED, NOBODY}:
                versus.value = keep

    # -- the sides -----------------------------------------------------------------

    def _ids(self, side: str) -> tuple[str, str, str, str]:
        """Select/field ids of a side: who, skill, base, pool."""
        return (("who", "skill", "base", "pool_a") if side == "a"
                else ("versus", "vskill", "vbase", "pool_b"))

    def _character(self, side: str) -> RollerCharacter | None:
        who = self.query_one(f"#select-{self._ids(side)[0]}", Select).value
        return self.data.character(who if isinstance(who, int) else None)

    def _choice(self, side: str) -> RollChoice | None:
        character = self._character(side)
        key = self.query_one(f"#select-{self._ids(side)[1]}", Select).value
        return character.choice(str(key)) if character is not None else None

    def on_select_changed(self, event: Select.Changed) -> None:
        """A pick by the GM (programmatic changes are made with Changed prevented)."""
        name = (event.select.id or "").removeprefix("select-")
        if not self.loaded:
            return
        side = "a" if name in ("who", "skill", "base") else "b"
        if name == "who":
            before = self.query_one("#select-versus", Select).value
            self._versus_options(before)
            self.apply_side("a")
            if self.query_one("#select-versus", Select).value != before:
                self.apply_side("b")  # he was his own opponent: now nobody
        elif name == "versus":
            self.apply_side("b", skill=self._same_skill_as_a())
        elif name in ("skill", "vskill"):
            self.apply_side(side, skill=event.value)
            if side == "a" and self._character("b") is not None:
                self.apply_side("b", skill=self._same_skill_as_a())
        else:
            self.apply_side(side, skill=self._select(side, 1).value, base=event.value)
        if name in ("who", "versus"):
            self.refresh_bindings()  # x Swap: only for an opposed roll

    def _same_skill_as_a(self) -> str | None:
        """Side B's choice of the skill A rolls, if he has it (issue 12 item 14)."""
        other = self._character("b")
        return same_skill_key(other, self._choice("a")) if other is not None else None

    def _select(self, side: str, part: int) -> Select[Any]:
        return self.query_one(f"#select-{self._ids(side)[part]}", Select)

    def apply_side(self, side: str, *, skill: object = None, base: object = None,
                   pool: str | None = None) -> None:
        """Show a side for the character in its "who" select: its roll choices,
        the "on" row for a Passive skill, and the pool text (``pool``, or the
        choice's notation). Selects change without posting ``Changed``."""
        character = self._character(side)
        who = self._select(side, 0).value
        active = side == "a" or who != NOBODY
        if side == "b":
            self.query_one("#field-pool-b").display = active
        skill_row = self.query_one(f"#row-{self._ids(side)[1]}")
        base_row = self.query_one(f"#row-{self._ids(side)[2]}")
        skill_row.display = character is not None
        base_row.display = False
        if side == "a":
            self.query_one("#field-mods").display = False
        text = pool
        with self.prevent(Select.Changed):
            if character is not None:
                skills = self._select(side, 1)
                keep = skill if skill is not None else skills.value
                skills.set_options([(Text(c.label), c.key) for c in character.choices])
                if character.choice(str(keep)) is not None:
                    skills.value = keep
                choice = character.choice(str(skills.value))
                if side == "a" and choice is not None and choice.check:
                    self.query_one("#field-mods").display = True
                if choice is not None and choice.passive:
                    base_row.display = True
                    bases = self._select(side, 2)
                    keep_base = base if base is not None else bases.value
                    names = [n for n, _ in character.bases]
                    bases.set_options([(Text(f"{n} {v}"), n) for n, v in character.bases])
                    same = choice.skill.name if choice.skill.name in names else names[0]
                    bases.value = keep_base if keep_base in names else same
                if text is None and choice is not None:
                    base_number = dict(character.bases).get(str(self._select(side, 2).value), 0)
                    text = notation_for(choice, base_number)
        if text is None and character is None and active:
            text = ""
        if text is not None:
            self._pool_field(side).input.value = text
        self._update_odds()

    def _pool_field(self, side: str) -> RollTextField:
        return self.query_one(f"#field-pool-{side}", RollTextField)

    def _side(self, side: str) -> Side:
        """The side as typed; raises ``NotationError`` for a pool that can't be read."""
        spec = parse_pool(self._pool_field(side).input.value, require_number=True)
        character, choice = self._character(side), self._choice(side)
        ties = tiebreaks(self.data.roller.opposed_tiebreak, spec.number or 0, character)
        if character is None:
            return Side("GM" if side == "a" else "Opponent", "typed pool", spec,
                        tiebreaks=ties)
        what = "typed pool"
        legendary = False
        if choice is not None:
            what = choice.skill.name
            legendary = choice.skill.legendary
            if not _same_pool(spec, self._pool_field(side).input.value, choice, character,
                              self.query_one(f"#select-{self._ids(side)[2]}", Select).value):
                what += " (edited)"
        return Side(character.name, what, spec, legendary, ties)

    def _opposed(self) -> bool:
        return self.query_one("#select-versus", Select).value != NOBODY

    # -- odds -------------------------------------------------------------------------

    def on_form_field_changed(self, event: TextField.Changed) -> None:
        if event.key in ("pool_a", "pool_b", "mods"):
            self._update_odds()
        elif event.key == "faces":
            self._check_faces_field()

    def _update_odds(self) -> None:
        """Parse both pools and show the exact odds (rules core ``odds``)."""
        view = self.query_one(OddsView)
        self.setup, self.any_setup, self.setup_error = None, None, ""
        empty = [side for side in ("a", "b") if (side == "a" or self._opposed())
                 and not self._pool_field(side).input.value.strip()]
        if empty:
            for side in empty:
                self._pool_field(side).set_error(None)
            self.setup_error = "Nothing to roll yet: type dice in Pool."
            view.show_lines([self.setup_error, "a skill pool: 3d10+1d12 @7, d12+4 @6, [L2] @7",
                             "any dice: 2d6+1 @8 (total), 4d6 >=4 (count)"],
                            first_style="bold")
            self._check_faces_field()
            return
        try:
            a = self._side("a")
        except NotationError as error:
            if self._any_dice(view, error):
                return
            self._pool_field("a").set_error(self.setup_error.removeprefix("Pool: ")
                                            or error.message)
            self.setup_error = self.setup_error or f"Pool: {error}"
        else:
            self._pool_field("a").set_error(None)
        b: Side | None = None
        if self._opposed():
            try:
                b = self._side("b")
            except NotationError as error:
                self._pool_field("b").set_error(error.message)
                self.setup_error = self.setup_error or f"Versus pool: {error}"
            else:
                self._pool_field("b").set_error(None)
        if self.setup_error:
            view.show_problem(self.setup_error)
            self._check_faces_field()
            return
        if b is not None:
            a, b = distinct_names(a, b)
        self.setup = Setup(a, b)
        options = self.data.options
        if b is None:
            needed = unopposed_needed(a.number, a.spec.bonus)
            odds = unopposed_odds(a.spec.pool, a.number, options, bonus=a.spec.bonus)
            lines = unopposed_lines(needed, a.spec.pool, odds, ascii=self.ascii)
            first = f"bold {pass_style(odds.p_pass)}"
        else:
            ca, cb = a.contestant(), b.contestant()
            needs = (opposed_need(ca, cb, options).face, opposed_need(cb, ca, options).face)
            odds2 = opposed_odds(ca, cb, options)
            lines = opposed_lines((a.who, b.who), needs, (ca.pool, cb.pool), odds2,
                                  ascii=self.ascii)
            first = f"bold {pass_style(odds2.p_a_wins)}"
        view.show_lines(lines, first_style=first)
        self.query_one("#input-faces", Input).placeholder = faces_hint(self.setup)
        self._check_faces_field()

    def _any_dice(self, view: OddsView, skill_error: NotationError) -> bool:
        """Side A as any dice (issue 12 item 24: ``2d6+1 @8``, ``4d6 >=4``), with
        a rating check's named modifiers (R-2). True when shown; otherwise
        ``setup_error`` holds the message that fits what was typed."""
        text = self._pool_field("a").input.value
        mods_field = self.query_one("#field-mods", TextField)
        try:
            expr = parse_dice(text)
        except DiceNotationError as error:
            skill_like = "skill die" not in skill_error.message and not any(
                ch in text for ch in "≥>")
            self.setup_error = "" if skill_like else f"Pool: {error}"
            return False
        if self._opposed():
            self.setup_error = "Pool: any dice roll alone (set Versus to nobody)"
            return False
        character, choice = self._character("a"), self._choice("a")
        target = None
        who = character.name if character is not None else "GM"
        what = "dice"
        if choice is not None and choice.check and mods_field.display:
            try:
                mods = parse_modifiers(mods_field.input.value)
            except DiceNotationError as error:
                mods_field.set_error(error.message)
                self.setup_error = f"Mods: {error}"
                view.show_problem(self.setup_error)
                self._pool_field("a").set_error(None)
                return True
            mods_field.set_error(None)
            if text.strip() == notation_for(choice):  # the rating as filled: add the mods
                target = rating_check(choice.skill.number, f"{who} {choice.check}", mods)
                expr = parse_dice(f"2d6 @{target.value}")
                what = f"{choice.check} check"
            else:
                what = f"{choice.check} check (edited)"
        self._pool_field("a").set_error(None)
        self.any_setup = AnySetup(who, what, expr, target)
        view.show_lines(any_dice_lines(expr, dice_odds(expr), target, ascii=self.ascii),
                        first_style="bold")
        dice = "+".join(f"{n}d{d}" for n, d in expr.groups)
        self.query_one("#input-faces", Input).placeholder = f"faces of {dice}, or r"
        self._check_faces_field()
        return True

    # -- faces typed at the table -------------------------------------------------------

    def _check_faces_field(self) -> None:
        field = self.query_one("#field-faces", RollTextField)
        text = field.input.value
        if not text.strip():
            field.set_error(None)
            return
        field.set_error(self._faces(text)[1] or None)

    def _faces(self, text: str) -> tuple[tuple[int, ...] | None, str]:
        if self.any_setup is not None:
            return any_faces_problem(self.any_setup.expr, text)
        return faces_problem(self.setup, text, self.data.options)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "input-faces":
            event.stop()
            self.roll_typed()
        elif event.input.id in ("input-pool_a", "input-pool_b"):
            event.stop()
            self.focus_next()

    def roll_typed(self) -> None:
        """Resolve the faces typed in the faces field (refused at the field if wrong)."""
        field = self.query_one("#field-faces", RollTextField)
        text = field.input.value
        if not text.strip():
            if self.setup is None and self.any_setup is None:
                self._nothing_to_roll()
                return
            field.set_error("type the faces, or press r to roll")
            self.app.bell()
            return
        faces, problem = self._faces(text)
        if faces is None:
            field.set_error(problem)
            self.app.bell()
            return
        self.resolve(ScriptedDice.of(faces), typed=True)
        field.input.value = ""
        field.set_error(None)

    # -- rolling ---------------------------------------------------------------------------

    def action_roll(self) -> None:
        """Roll with the app's dice (an RNG unless a test injected others)."""
        self.resolve(self.dice, typed=False)

    def resolve(self, dice: Dice, *, typed: bool) -> bool:
        """Run the test on ``dice``, show it, and log it. False if nothing was rolled."""
        if self.any_setup is not None:
            return self._resolve_any(self.any_setup, dice, typed)
        setup = self.setup
        if setup is None:
            self._nothing_to_roll()
            return False
        recording = RecordingDice(dice)
        options = self.data.options
        panel = self.query_one(DicePanel)
        source = "table dice" if typed else "rolled"
        title = f"Result · {source}"
        entry_faces: tuple[tuple[int, int], ...]
        if setup.b is None:
            result: TestResult | OpposedResult = unopposed_test(
                setup.a.spec.pool, setup.a.number, recording, options,
                bonus=setup.a.spec.bonus, label=setup.a.who)
            assert isinstance(result, TestResult)
            panel.show_test(title, setup.a.who, result)
            summary = log_summary(result)
        else:
            result = opposed_test(setup.a.contestant(), setup.b.contestant(), recording, options)
            names = (setup.a.who, setup.b.who)
            panel.show_opposed(title, names, result)
            summary = opposed_summary(result, names)
        entry_faces = tuple(recording.used)
        self.last_result = result
        self.write_log(self._entry(setup, entry_faces, summary, result, typed))
        return True

    def _nothing_to_roll(self) -> None:
        """``r`` or enter with nothing to roll says why where the GM looks
        (issue 12 item 21: in an empty campaign it did nothing visible)."""
        message = self.setup_error or "Nothing to roll yet: type dice in Pool."
        if not self.data.characters:
            message += " No characters yet: add them in the roster (1)."
        pool = self._pool_field("a")
        if not pool.input.value.strip():
            pool.set_error("type dice here, e.g. 2d6 @7")
        self.query_one(DicePanel).show_message(message, title="Cannot roll")
        self.notify(message, title="Cannot roll", severity="warning")
        self.app.bell()

    def _resolve_any(self, setup: AnySetup, dice: Dice, typed: bool) -> bool:
        """Roll any dice (issue 12 item 24; a 2d6 check succeeds on a total at
        or above its target, R-2), show it, log it."""
        recording = RecordingDice(dice)
        rolled = roll_dice(setup.expr, recording)
        summary = rolled.summary()
        source = "table dice" if typed else "rolled"
        lines = [f"Target {setup.target.render()}"] if setup.target is not None else []
        if rolled.passed is not None:
            lines.append("R-2: the total must be equal to or greater than the target.")
        self.query_one(DicePanel).show_lines(f"Result · {source}",
                                             f"{setup.who}  {summary}", lines)
        self.last_result = rolled
        faces = tuple(recording.used)
        origin = "Faces typed from the table's dice" if typed else "Faces rolled by ka-tui"
        what = setup.what + (" · table dice" if typed else "")
        self.write_log(RollEntry(setup.who, what, setup.expr.render(), faces, rolled.short(),
                                 (origin, summary, *lines)))
        return True

    def _entry(self, setup: Setup, faces: tuple[tuple[int, int], ...], summary: str,
               result: TestResult | OpposedResult, typed: bool) -> RollEntry:
        a, b = setup.a, setup.b
        who = a.who if b is None else f"{a.who} vs {b.who}"
        what = a.what if b is None else f"{a.what} vs {b.what}"
        source = "Faces typed from the table's dice" if typed else "Faces rolled by ka-tui"
        return RollEntry(who, what + (" · table dice" if typed else ""), setup.pool_label(),
                         faces, summary, (source, *result.explanation))

    # -- the log ----------------------------------------------------------------------------

    @work(thread=True, group="roll-log-write", exit_on_error=False)
    def write_log(self, entry: RollEntry) -> None:
        at = self.now()
        try:
            with self._write_lock:
                logged = append_roll(self.campaign_db(), entry, at=at)
        except StoreError as error:
            self.app.call_from_thread(self._not_logged, error)
            return
        self.app.call_from_thread(self._logged, logged)

    def _logged(self, roll: LoggedRoll) -> None:
        pane = self.query_one(RollLogPane)
        if _matches(roll, self._log_filter):
            pane.add_roll(roll, LOG_LIMIT)
        door(self).campaign_changed(CampaignChanged(Change.ROLLS, self))
        self.post_message(RollerScreen.RollLogged(roll))

    def _not_logged(self, error: Exception) -> None:
        panel = self.query_one(DicePanel)
        panel.border_title = f"{panel.border_title} · NOT LOGGED"
        self.notify(str(error), title="The roll was not logged", severity="error")

    class RollLogged(Message):
        """Posted after a roll is in the campaign file (tests wait for it)."""

        def __init__(self, roll: LoggedRoll) -> None:
            super().__init__()
            self.roll = roll

    def on_roll_log_pane_filter_changed(self, event: RollLogPane.FilterChanged) -> None:
        self._log_filter = event.text
        self.query_log(event.text)

    @work(thread=True, exclusive=True, group="roll-log-query", exit_on_error=False)
    def query_log(self, text: str) -> None:
        try:
            db = self.campaign_db()
            rolls = query_rolls(db, text, limit=LOG_LIMIT)
            total = count_rolls(db, text)
        except Exception as error:  # noqa: BLE001 — any failure: one message (issue 11)
            self.app.call_from_thread(self.notify, str(load_failure("the roll log", error,
                                                                    door(self))),
                                      title="Roll log", severity="error")
            return
        self.app.call_from_thread(self._filtered, text, rolls, total)

    def _filtered(self, text: str, rolls: list[LoggedRoll], total: int) -> None:
        if text == self._log_filter:
            self.query_one(RollLogPane).set_rolls(rolls, total)

    def on_roll_log_pane_picked(self, event: RollLogPane.Picked) -> None:
        roll = event.roll
        when = roll.time.astimezone().strftime("%Y-%m-%d %H:%M")
        struck: tuple[str, ...] = ()
        if roll.struck_at is not None:
            at = datetime.fromisoformat(roll.struck_at.replace("Z", "+00:00"))
            struck = (f"STRUCK by {roll.struck_by or '?'} at "
                      f"{at.astimezone().strftime('%Y-%m-%d %H:%M')} (d stands it again)",)
        self.query_one(DicePanel).show_lines(
            f"Logged roll #{roll.id} · {when}",
            f"{roll.who} · {roll.what} · {roll.pool} · faces {roll.faces_text} → {roll.result}",
            (*struck, *roll.explanation))

    # -- striking a mistaken roll (issue 12 item 25) --------------------------------------

    def action_strike(self) -> None:
        """Strike the roll under the log's cursor, or stand a struck one again."""
        roll = self.query_one(RollLogPane).current()
        if roll is None:
            self.notify("No roll in the log to strike.", title="Roll log", severity="warning")
            return
        self.strike(roll.id, undo=roll.struck)

    def action_undo_last(self) -> None:
        self.strike(None, undo=False)

    @work(thread=True, group="roll-log-write", exit_on_error=False)
    def strike(self, roll_id: int | None, *, undo: bool) -> None:
        at = self.now()
        try:
            with self._write_lock:
                db = self.campaign_db()
                if roll_id is None:
                    last = last_standing_roll(db)
                    if last is None:
                        self.app.call_from_thread(self.notify, "No roll to undo.",
                                                  title="Roll log", severity="warning")
                        return
                    roll_id = last.id
                roll = strike_roll(db, roll_id, by=_login(), at=at, undo=undo)
        except StoreError as error:
            self.app.call_from_thread(self.notify, str(error), title="Not struck",
                                      severity="error")
            return
        self.app.call_from_thread(self._struck, roll)

    def _struck(self, roll: LoggedRoll) -> None:
        self.query_one(RollLogPane).replace_roll(roll)
        door(self).campaign_changed(CampaignChanged(Change.ROLLS, self))
        if roll.struck:
            text = f"Roll #{roll.id} struck ({roll.who}); d on it stands it again."
        else:
            text = f"Roll #{roll.id} stands again."
        self.query_one(DicePanel).show_message(text, title="Roll log")
        self.notify(text, title="Roll log", timeout=4)
        self.post_message(RollerScreen.RollStruck(roll))

    class RollStruck(Message):
        """Posted after a roll is struck or stood again (tests wait for it)."""

        def __init__(self, roll: LoggedRoll) -> None:
            super().__init__()
            self.roll = roll

    # -- actions ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "swap":  # only for an opposed roll (out of the footer otherwise)
            return self._opposed()
        return True

    def unsaved_changes(self) -> str | None:
        """What quitting now would lose: faces typed and not rolled yet (a stray
        ``q`` in the faces field reaches the app's Quit; it asks first)."""
        faces = self.query("#input-faces")
        typed = faces.first(Input).value.strip() if faces else ""
        return "faces typed and not rolled" if typed else None

    def action_focus_faces(self) -> None:
        self.query_one("#input-faces", Input).focus()

    def action_focus_who(self) -> None:
        self.query_one("#select-who", Select).focus()

    def action_focus_versus(self) -> None:
        self.query_one("#select-versus", Select).focus()

    def action_focus_log(self) -> None:
        self.query_one(RollLogPane).table.focus()

    def action_filter_log(self) -> None:
        self.query_one(RollLogPane).open_filter()

    def action_zoom_log(self) -> None:
        if self.maximized is not None:
            self.minimize()
        else:
            pane = self.query_one(RollLogPane)
            pane.table.focus()
            self.maximize(pane, container=False)

    def action_reload(self) -> None:
        self.load()

    def action_swap(self) -> None:
        """Swap who rolls and who opposes (pools as typed, edits kept)."""
        if not self._opposed():
            return
        state = {side: (self._select(side, 0).value, self._select(side, 1).value,
                        self._select(side, 2).value, self._pool_field(side).input.value)
                 for side in ("a", "b")}
        with self.prevent(Select.Changed):
            self._select("a", 0).value = state["b"][0]
        self._versus_options(state["a"][0])
        for side, other in (("a", "b"), ("b", "a")):
            _, skill, base, pool = state[other]
            self.apply_side(side, skill=skill, base=base, pool=pool)


# ----------------------------------------------------------------- helpers


def _same_pool(spec: PoolSpec, text: str, choice: RollChoice, character: RollerCharacter,
               base: object) -> bool:
    base_number = dict(character.bases).get(str(base), 0)
    try:
        return parse_pool(notation_for(choice, base_number)) == spec
    except NotationError:
        return False


def _login() -> str:
    """Who strikes a roll: the login name (several GMs may share a campaign over SSH)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "GM"


def _matches(roll: LoggedRoll, text: str) -> bool:
    """The store's filter (every word in who, what, pool or result), for one new row."""
    hay = " ".join((roll.who, roll.what, roll.pool, roll.result)).casefold()
    return all(word.casefold() in hay for word in text.split())
