"""The dice roller's state and steps, without Textual: who rolls against whom,
the pools as typed or filled from a skill, the faces typed from the table's
dice, the odds and the last result, and what goes to the roll log.

All rule work goes through the rules core: pools from ``roll_choices`` and
pool notation, odds from ``odds`` / ``any_dice``, results from
``skill_tests`` / ``any_dice``. The screen (``screen.py``) feeds the GM's
picks and typing in (``pick``, ``type_text``), shows what the model holds
(``form_view``, ``odds``, ``result``, ``faces_view``) and runs the store work
(``read_roller``, ``write_roll``, ``strike``) off its thread.

Side ``a`` is who rolls (selects ``who``/``skill``/``base``, field
``pool_a``), side ``b`` who he rolls against (``versus``/``vskill``/
``vbase``, ``pool_b``); ``versus`` at ``NOBODY`` is an unopposed test
against 13 (S0 §Skills).
"""

from __future__ import annotations

import getpass
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

from ka_tui.rules.core.any_dice import DiceRoll, roll_dice
from ka_tui.rules.core.dice import Dice, RecordingDice, ScriptedDice
from ka_tui.rules.core.roll_choices import (
    AnySetup, RollChoice, RollerCharacter, RollerData, Setup, any_faces_problem,
    faces_problem, notation_for, opponents, same_skill_key,
)
from ka_tui.rules.core.skill_tests import OpposedResult, TestResult, opposed_test, unopposed_test
from ka_tui.screens.roller.pools import NOTHING_TYPED, SideTyped, read_pools
from ka_tui.store.load_failure import load_failure
from ka_tui.store.errors import StoreError
from ka_tui.store.roll_log import (
    LoggedRoll, RollEntry, append_roll, count_rolls, last_standing_roll, query_rolls, strike_roll,
)
from ka_tui.store.roller_reads import load_roller_data
from ka_tui.widgets.dice_text import (
    ContestShown, LinesShown, OddsNote, OddsProblem, OddsShown, ResultNote, ResultShown,
    SkillShown, log_summary, opposed_summary,
)

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

TYPED = -1     # "who": no character, a typed pool
NOBODY = -2    # "versus": an unopposed test against 13
LOG_LIMIT = 200  # rows on screen; the filter searches the whole log

# The selects and the pool field of each side: who, skill, base, pool.
SIDES: dict[str, tuple[str, str, str, str]] = {
    "a": ("who", "skill", "base", "pool_a"),
    "b": ("versus", "vskill", "vbase", "pool_b"),
}
SELECTS = ("who", "skill", "base", "versus", "vskill", "vbase")
TEXTS = ("pool_a", "pool_b", "mods", "faces")
# The rows that come and go, as they are before the campaign is read.
ROWS_AT_START: dict[str, bool] = {
    "row-skill": True, "row-base": False, "field-mods": False,
    "row-vskill": False, "row-vbase": False, "field-pool-b": False,
}
FIRST_MESSAGE = "Press r to roll, or f and type the faces the table rolled, then enter."


@dataclass(frozen=True)
class Pick:
    """A select: its options (label, value) and the value picked."""

    options: tuple[tuple[str, object], ...]
    value: object


@dataclass(frozen=True)
class Fill:
    """A text field as the model has it; ``serial`` grows each time the model
    (not the GM's typing) sets the text, so the screen writes it only then."""

    text: str
    serial: int = 0


@dataclass(frozen=True)
class FormView:
    """What the form on the left shows."""

    picks: dict[str, Pick]
    rows: dict[str, bool]
    texts: dict[str, Fill]
    errors: dict[str, str]


@dataclass(frozen=True)
class FacesView:
    """The faces field: its text, placeholder and error."""

    fill: Fill
    placeholder: str
    error: str


@dataclass(frozen=True)
class CannotRoll:
    """Nothing was rolled: ``message`` says why (notified, unless it is said
    at the faces field only)."""

    message: str
    at_field: bool = False


@dataclass(frozen=True)
class RollerRead:
    """One read of the campaign for the roller: its data and the log's newest
    rows (``problem``: the log could not be read, the dice still roll)."""

    data: RollerData
    rolls: tuple[LoggedRoll, ...]
    total: int
    problem: StoreError | None = None


class RollerModel:
    """The roller's state: the GM's picks and typing, and what follows from them."""

    def __init__(self) -> None:
        self.data = RollerData()
        self.loaded = False
        self.picks: dict[str, Pick] = {name: Pick((("…", 0),), 0) for name in SELECTS}
        self.rows = dict(ROWS_AT_START)
        self.texts: dict[str, Fill] = {name: Fill("") for name in TEXTS}
        self.errors: dict[str, str] = {name: "" for name in TEXTS}
        self.faces_placeholder = "table's dice: 3 7 10, or r"
        self.setup: Setup | None = None
        self.any_setup: AnySetup | None = None
        self.setup_error = "loading…"
        self.odds: OddsShown = OddsNote(("Loading the campaign…",))
        self.result: ResultShown = ResultNote(FIRST_MESSAGE)
        self.last_result: TestResult | OpposedResult | DiceRoll | None = None
        self.log_filter = ""
        self.keep_typed = False  # the next read keeps the typed pools (a change elsewhere)

    # -- views ---------------------------------------------------------------

    def form_view(self) -> FormView:
        return FormView(dict(self.picks), dict(self.rows),
                        {k: self.texts[k] for k in ("pool_a", "pool_b", "mods")},
                        {k: self.errors[k] for k in ("pool_a", "pool_b", "mods")})

    def faces_view(self) -> FacesView:
        return FacesView(self.texts["faces"], self.faces_placeholder, self.errors["faces"])

    def title(self) -> str:
        return f"Dice roller · {self.data.campaign}" if self.data.campaign else "Dice roller"

    def allows(self, action: str) -> bool:
        """Whether ``action`` is offered now (the footer follows it)."""
        if action == "swap":  # only for an opposed roll
            return self.opposed()
        return True

    def unsaved(self) -> str | None:
        """What quitting now would lose: faces typed and not rolled yet."""
        return "faces typed and not rolled" if self.texts["faces"].text.strip() else None

    # -- reading the sides -------------------------------------------------

    def text(self, name: str) -> str:
        return self.texts[name].text

    def character(self, side: str) -> RollerCharacter | None:
        who = self.picks[SIDES[side][0]].value
        return self.data.character(who if isinstance(who, int) else None)

    def choice(self, side: str) -> RollChoice | None:
        character = self.character(side)
        key = self.picks[SIDES[side][1]].value
        return character.choice(str(key)) if character is not None else None

    def opposed(self) -> bool:
        return self.picks["versus"].value != NOBODY

    # -- the campaign read -------------------------------------------------

    def take_read(self, read: RollerRead) -> None:
        """The campaign as read: who may roll (the picks kept where they still
        can be), the house rules; the typed pools kept after a change elsewhere."""
        data = read.data
        first = not self.loaded
        self.data = data
        self.loaded = True
        keep_who, keep_versus = self.picks["who"].value, self.picks["versus"].value
        ids = {c.id for c in data.characters} | {TYPED, NOBODY}
        options = (*((c.name, c.id) for c in data.characters), ("(typed pool)", TYPED))
        who = keep_who if not first and keep_who in ids else options[0][1]
        self.picks["who"] = Pick(options, who)
        self._versus_options(keep_versus if not first else NOBODY)
        keep, self.keep_typed = self.keep_typed and not first, False
        for side in SIDES:
            typed = self.text(SIDES[side][3])
            self.apply_side(side, pool=typed if keep and self.character(side) is None else None)

    def read_failed(self, error: Exception) -> None:
        """Nothing was read: the odds box says why (the log's failure: the result)."""
        if self.loaded:
            self.result = ResultNote(str(error))
        else:
            self.odds = OddsProblem(str(error))

    def _versus_options(self, keep: object) -> None:
        """Nobody, everyone but who rolls (he does not oppose himself), a typed pool."""
        who = self.picks["who"].value
        people = opponents(self.data.characters, who if isinstance(who, int) else None)
        options = (("nobody: against 13", NOBODY), *((c.name, c.id) for c in people),
                   ("(typed pool)", TYPED))
        legal = {c.id for c in people} | {TYPED, NOBODY}
        self.picks["versus"] = Pick(options, keep if keep in legal else NOBODY)

    # -- the GM's picks and typing -----------------------------------------

    def pick(self, name: str, value: object) -> None:
        """The GM picked ``value`` in select ``name``."""
        self.picks[name] = replace(self.picks[name], value=value)
        if not self.loaded:
            return
        if name == "who":
            before = self.picks["versus"].value
            self._versus_options(before)
            self.apply_side("a")
            if self.picks["versus"].value != before:
                self.apply_side("b")  # he was his own opponent: now nobody
        elif name == "versus":
            self.apply_side("b", skill=self._same_skill_as_a())
        elif name in ("skill", "vskill"):
            side = "a" if name == "skill" else "b"
            self.apply_side(side, skill=value)
            if side == "a" and self.character("b") is not None:
                self.apply_side("b", skill=self._same_skill_as_a())
        else:
            side = "a" if name == "base" else "b"
            self.apply_side(side, skill=self.picks[SIDES[side][1]].value, base=value)

    def type_text(self, name: str, text: str) -> None:
        """The GM's text in field ``name`` (``pool_a``, ``pool_b``, ``mods``, ``faces``)."""
        if self.texts[name].text == text:
            return
        self.texts[name] = replace(self.texts[name], text=text)
        if name == "faces":
            self._check_faces()
        else:
            self.update_odds()

    def _fill(self, name: str, text: str) -> None:
        self.texts[name] = Fill(text, self.texts[name].serial + 1)

    def _same_skill_as_a(self) -> str | None:
        """Side B's choice of the skill A rolls, if he has it (S0 §Close combat 4)."""
        other = self.character("b")
        return same_skill_key(other, self.choice("a")) if other is not None else None

    def apply_side(self, side: str, *, skill: object = None, base: object = None,
                   pool: str | None = None) -> None:
        """A side for the character picked: its roll choices, the "on" row for a
        Passive skill, and the pool text (``pool``, or the choice's notation)."""
        who_name, skill_name, base_name, pool_name = SIDES[side]
        character = self.character(side)
        active = side == "a" or self.picks[who_name].value != NOBODY
        if side == "b":
            self.rows["field-pool-b"] = active
        self.rows[f"row-{skill_name}"] = character is not None
        self.rows[f"row-{base_name}"] = False
        if side == "a":
            self.rows["field-mods"] = False
        text = pool
        if character is not None:
            keep = skill if skill is not None else self.picks[skill_name].value
            options = tuple((c.label, c.key) for c in character.choices)
            key = keep if character.choice(str(keep)) is not None else options[0][1]
            self.picks[skill_name] = Pick(options, key)
            choice = character.choice(str(key))
            if side == "a" and choice is not None and choice.check:
                self.rows["field-mods"] = True
            if choice is not None and choice.passive:
                self.rows[f"row-{base_name}"] = True
                keep_base = base if base is not None else self.picks[base_name].value
                names = [n for n, _ in character.bases]
                same = choice.skill.name if choice.skill.name in names else names[0]
                self.picks[base_name] = Pick(
                    tuple((f"{n} {v}", n) for n, v in character.bases),
                    keep_base if keep_base in names else same)
            if text is None and choice is not None:
                base_number = dict(character.bases).get(str(self.picks[base_name].value), 0)
                text = notation_for(choice, base_number)
        if text is None and character is None and active:
            text = ""
        if text is not None:
            self._fill(pool_name, text)
        self.update_odds()

    def swap(self) -> None:
        """Who rolls and who opposes change places (pools as typed, edits kept)."""
        if not self.opposed():
            return
        state = {side: tuple(self.picks[n].value for n in SIDES[side][:3])
                 + (self.text(SIDES[side][3]),) for side in SIDES}
        self.picks["who"] = replace(self.picks["who"], value=state["b"][0])
        self._versus_options(state["a"][0])
        for side, other in (("a", "b"), ("b", "a")):
            _, skill, base, pool = state[other]
            self.apply_side(side, skill=skill, base=base, pool=str(pool))

    # -- the odds ----------------------------------------------------------------

    def typed(self, side: str) -> SideTyped:
        return SideTyped(self.text(SIDES[side][3]), self.character(side), self.choice(side),
                         self.picks[SIDES[side][2]].value)

    def update_odds(self) -> None:
        """Read both pools and work out the exact odds (``pools.read_pools``)."""
        got = read_pools(self.typed("a"), self.typed("b") if self.opposed() else None,
                         self.text("mods") if self.rows["field-mods"] else None, self.data)
        self.setup, self.any_setup, self.setup_error = got.setup, got.any_setup, got.problem
        self.odds = got.odds
        self.errors.update(got.errors)
        if got.placeholder is not None:
            self.faces_placeholder = got.placeholder
        self._check_faces()

    # -- faces typed at the table ------------------------------------------------

    def _check_faces(self) -> None:
        text = self.text("faces")
        self.errors["faces"] = self._faces(text)[1] if text.strip() else ""

    def _faces(self, text: str) -> tuple[tuple[int, ...] | None, str]:
        if self.any_setup is not None:
            return any_faces_problem(self.any_setup.expr, text)
        return faces_problem(self.setup, text, self.data.options)

    def roll_faces(self) -> RollEntry | CannotRoll:
        """Resolve the faces typed (refused at the field if wrong); the field empties."""
        text = self.text("faces")
        if not text.strip():
            if self.setup is None and self.any_setup is None:
                return self._nothing_to_roll()
            self.errors["faces"] = "type the faces, or press r to roll"
            return CannotRoll(self.errors["faces"], at_field=True)
        faces, problem = self._faces(text)
        if faces is None:
            self.errors["faces"] = problem
            return CannotRoll(problem, at_field=True)
        rolled = self.roll(ScriptedDice.of(faces), typed=True)
        self._fill("faces", "")
        self.errors["faces"] = ""
        return rolled

    # -- rolling -------------------------------------------------------------------

    def roll(self, dice: Dice, *, typed: bool) -> RollEntry | CannotRoll:
        """Run the test on ``dice`` and show it; the entry for the roll log."""
        if self.any_setup is not None:
            return self._roll_any(self.any_setup, dice, typed)
        setup = self.setup
        if setup is None:
            return self._nothing_to_roll()
        recording = RecordingDice(dice)
        options = self.data.options
        title = f"Result · {'table dice' if typed else 'rolled'}"
        result: TestResult | OpposedResult
        if setup.b is None:
            result = unopposed_test(setup.a.spec.pool, setup.a.number, recording, options,
                                    bonus=setup.a.spec.bonus, label=setup.a.who)
            self.result = SkillShown(title, setup.a.who, result)
            summary = log_summary(result)
        else:
            result = opposed_test(setup.a.contestant(), setup.b.contestant(), recording, options)
            names = (setup.a.who, setup.b.who)
            self.result = ContestShown(title, names, result)
            summary = opposed_summary(result, names)
        self.last_result = result
        a, b = setup.a, setup.b
        who = a.who if b is None else f"{a.who} vs {b.who}"
        what = a.what if b is None else f"{a.what} vs {b.what}"
        return RollEntry(who, what + (" · table dice" if typed else ""), setup.pool_label(),
                         tuple(recording.used), summary,
                         (_origin(typed), *result.explanation))

    def _nothing_to_roll(self) -> CannotRoll:
        """Why nothing rolls, where the GM looks (in an empty campaign too)."""
        message = self.setup_error or NOTHING_TYPED
        if not self.data.characters:
            message += " No characters yet: add them in the roster (1)."
        if not self.text("pool_a").strip():
            self.errors["pool_a"] = "type dice here, e.g. 2d6 @7"
        self.result = ResultNote(message, title="Cannot roll")
        return CannotRoll(message)

    def _roll_any(self, setup: AnySetup, dice: Dice, typed: bool) -> RollEntry:
        """Any dice (a 2d6 check succeeds on a total at or above its target, R-2)."""
        recording = RecordingDice(dice)
        rolled = roll_dice(setup.expr, recording)
        summary = rolled.summary()
        lines = [f"Target {setup.target.render()}"] if setup.target is not None else []
        if rolled.passed is not None:
            lines.append("R-2: the total must be equal to or greater than the target.")
        self.result = LinesShown(f"Result · {'table dice' if typed else 'rolled'}",
                                 f"{setup.who}  {summary}", tuple(lines))
        self.last_result = rolled
        what = setup.what + (" · table dice" if typed else "")
        return RollEntry(setup.who, what, setup.expr.render(), tuple(recording.used),
                         rolled.short(), (_origin(typed), summary, *lines))

    # -- the log --------------------------------------------------------------------

    def not_logged(self) -> None:
        """The roll shown did not reach the file: its title says so."""
        self.result = replace(self.result, title=f"{self.result.title} · NOT LOGGED")

    def shows_in_log(self, roll: LoggedRoll) -> bool:
        """A new roll joins the log on screen if the filter lets it through
        (the store's filter: every word in who, what, pool or result)."""
        hay = " ".join((roll.who, roll.what, roll.pool, roll.result)).casefold()
        return all(word.casefold() in hay for word in self.log_filter.split())

    def show_logged(self, roll: LoggedRoll) -> None:
        """A roll of the log in full, with who struck it and when."""
        when = roll.time.astimezone().strftime("%Y-%m-%d %H:%M")
        struck: tuple[str, ...] = ()
        if roll.struck_at is not None:
            at = datetime.fromisoformat(roll.struck_at.replace("Z", "+00:00"))
            struck = (f"STRUCK by {roll.struck_by or '?'} at "
                      f"{at.astimezone().strftime('%Y-%m-%d %H:%M')} (d stands it again)",)
        self.result = LinesShown(
            f"Logged roll #{roll.id} · {when}",
            f"{roll.who} · {roll.what} · {roll.pool} · faces {roll.faces_text} → {roll.result}",
            (*struck, *roll.explanation))

    def struck(self, roll: LoggedRoll) -> str:
        """A roll struck or stood again: what the result panel and the notice say."""
        if roll.struck:
            text = f"Roll #{roll.id} struck ({roll.who}); d on it stands it again."
        else:
            text = f"Roll #{roll.id} stands again."
        self.result = ResultNote(text, title="Roll log")
        return text


# ----------------------------------------------------------- the store work
#
# Jobs for ``store_work`` (they run in a worker thread, on the open campaign).


def read_roller(db: CampaignDB, log_filter: str) -> RollerRead:
    """Characters, skills and house rules, and the log's newest rows; a log
    that cannot be read is a ``problem`` (the dice still roll without it)."""
    data = load_roller_data(db)
    try:
        rolls, total = read_log(db, log_filter)
    except Exception as error:  # noqa: BLE001 — any failure: one message
        return RollerRead(data, (), 0, load_failure("the roll log", error, db))
    return RollerRead(data, rolls, total)


def read_log(db: CampaignDB, text: str) -> tuple[tuple[LoggedRoll, ...], int]:
    """The newest ``LOG_LIMIT`` rolls matching ``text``, and how many match."""
    return tuple(query_rolls(db, text, limit=LOG_LIMIT)), count_rolls(db, text)


def write_roll(db: CampaignDB, entry: RollEntry, at: datetime) -> LoggedRoll:
    """One roll into the log (one transaction)."""
    return append_roll(db, entry, at=at)


def strike(db: CampaignDB, roll_id: int | None, *, undo: bool,
           at: datetime) -> LoggedRoll | None:
    """Strike roll ``roll_id`` (or stand it again); ``None``: the newest
    standing roll, or nothing to undo (``None`` back)."""
    if roll_id is None:
        last = last_standing_roll(db)
        if last is None:
            return None
        roll_id = last.id
    return strike_roll(db, roll_id, by=login(), at=at, undo=undo)


# ----------------------------------------------------------------- helpers


def _origin(typed: bool) -> str:
    return "Faces typed from the table's dice" if typed else "Faces rolled by ka-tui"


def login() -> str:
    """Who strikes a roll: the login name (several GMs may share a campaign over SSH)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "GM"
