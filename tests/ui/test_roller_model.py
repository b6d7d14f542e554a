"""The dice roller's model (screens/roller/model.py) on plain values, without
Textual: what each pick and each typed pool does to the odds (S0 §Skills),
who may oppose whom and with which skill (S0 §Close combat 4), typed faces
checked and resolved, and the entry that goes to the roll log."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

from ka_tui.rules.core.dice import ScriptedDice
from ka_tui.rules.core.odds import unopposed_odds
from ka_tui.rules.core.options import SkillOptions
from ka_tui.rules.core.roll_choices import RollerData, character_of_row
from ka_tui.screens.roller.model import (
    NOBODY, TYPED, CannotRoll, RollerModel, RollerRead, read_roller, write_roll,
)
from ka_tui.store.db import open_campaign
from ka_tui.store.roll_log import LoggedRoll, RollEntry
from ka_tui.widgets.dice_text import (
    AnyOdds, ContestOdds, LinesShown, OddsNote, OddsProblem, ResultNote, SkillOdds,
    SkillShown, odds_text,
)

ROOT = Path(__file__).resolve().parents[2]
BASES = dict(strength=6, agility=4, endurance=6, resistance=5, armour=2, base_weapons=6,
             base_tech=3, base_survival=6, base_communication=3, base_psy=3,
             piloting=7, gunnery=8)
MIKE = character_of_row(dict(id=4, name="Mike Dunn", **BASES), [
    dict(id=1, name="Close Combat", kind="active", number=7, level="L", upgrades=1),
    dict(id=3, name="Brawl", kind="passive", number=4, level="B", upgrades=0)])
OLGA = character_of_row(dict(id=5, name="Olga Petrova", **{**BASES, "agility": 7}), [
    dict(id=7, name="Pistols", kind="active", number=5, level="T", upgrades=0),
    dict(id=8, name="Close Combat", kind="active", number=6, level="E", upgrades=0)])


def read(*characters: object) -> RollerRead:
    return RollerRead(RollerData("Winter Ops", tuple(characters)), (), 0)  # type: ignore[arg-type]


def loaded(*characters: object) -> RollerModel:
    model = RollerModel()
    model.take_read(read(*characters))
    return model


def key(model: RollerModel, who: object, skill: str) -> str:
    character = model.data.character(who)  # type: ignore[arg-type]
    assert character is not None
    return next(c.key for c in character.choices if c.skill.name == skill)


def test_the_first_read_fills_the_first_skill_and_its_odds_s0_skills() -> None:
    """Mike's first skill, Close Combat 7 [L1]: 3d12+1d20 against 7, the odds
    the rules core works out (S0 §Skills)."""
    model = RollerModel()
    assert isinstance(model.odds, OddsNote) and not model.loaded
    model.take_read(read(MIKE, OLGA))
    assert model.title() == "Dice roller · Winter Ops"
    assert model.picks["who"].value == MIKE.id and model.picks["versus"].value == NOBODY
    assert model.text("pool_a") == "3d12+1d20 @7"
    assert isinstance(model.odds, SkillOdds)
    assert model.odds.odds == unopposed_odds((12, 12, 12, 20), 7, SkillOptions())
    assert model.faces_placeholder == "faces of 3d12+1d20, or r"
    assert not model.allows("swap")  # against 13: nothing to swap


def test_a_passive_skill_rolls_d12_plus_its_bonus_on_a_base_s0_skills() -> None:
    """S0 §Skills: "Brawl: 4 — … roll d12, then add +4", on the Base picked."""
    model = loaded(MIKE)
    model.pick("skill", key(model, MIKE.id, "Brawl"))
    assert model.rows["row-base"] and model.picks["base"].value == "Weapons"
    assert model.text("pool_a") == "1d12+4 @6"
    model.pick("base", "Agility")
    assert model.text("pool_a") == "1d12+4 @4"


def test_the_opponent_rolls_the_same_skill_and_never_himself_s0_close_combat_4() -> None:
    model = loaded(MIKE, OLGA)
    assert [v for _, v in model.picks["versus"].options] == [NOBODY, OLGA.id, TYPED]
    model.pick("versus", OLGA.id)
    assert model.picks["vskill"].value == key(model, OLGA.id, "Close Combat")
    assert model.allows("swap") and model.rows["field-pool-b"]
    assert isinstance(model.odds, ContestOdds)
    assert model.odds.names == ("Mike Dunn", "Olga Petrova")
    model.pick("who", OLGA.id)  # Olga rolls: she is no longer her own opponent
    assert model.picks["versus"].value == NOBODY and not model.rows["field-pool-b"]


def test_swap_exchanges_the_sides_with_the_pools_as_typed() -> None:
    model = loaded(MIKE, OLGA)
    model.pick("versus", OLGA.id)
    model.type_text("pool_a", "3d12+1d20 @4")  # his Close Combat's dice, another number
    model.swap()
    assert (model.picks["who"].value, model.picks["versus"].value) == (OLGA.id, MIKE.id)
    assert model.text("pool_b") == "3d12+1d20 @4"
    assert model.text("pool_a") == "3d10 @6"  # her Close Combat [E]
    assert model.setup is not None and model.setup.b is not None
    assert (model.setup.b.who, model.setup.b.what) == ("Mike Dunn", "Close Combat (edited)")


def test_a_pool_of_other_dice_is_the_gms_not_the_characters_in_the_list() -> None:
    """Who is picked in the list rolls his skill's dice, his number edited or
    not; other dice typed in Pool are a typed pool, logged as the GM's (and
    the opponent's as "Opponent"), never under the name the list shows."""
    model = loaded(MIKE, OLGA)
    model.type_text("pool_a", "3d10 @6")
    entry = model.roll(ScriptedDice.of([3, 4, 9]), typed=False)
    assert isinstance(entry, RollEntry)
    assert (entry.who, entry.what, entry.pool) == ("GM", "typed pool", "3d10 @6")
    model.type_text("pool_a", "3d12+1d20 @5")
    entry = model.roll(ScriptedDice.of([3, 4, 9, 2]), typed=False)
    assert isinstance(entry, RollEntry)
    assert (entry.who, entry.what) == ("Mike Dunn", "Close Combat (edited)")
    model.type_text("pool_a", "2d6+1 @8")  # any dice while his skill is picked
    entry = model.roll(ScriptedDice.of([3, 4]), typed=False)
    assert isinstance(entry, RollEntry) and entry.who == "GM"
    model.type_text("pool_a", "3d12+1d20 @7")
    model.pick("versus", OLGA.id)
    model.type_text("pool_b", "2d8 @5")
    entry = model.roll(ScriptedDice.of([3, 4, 9, 2, 5, 5]), typed=False)
    assert isinstance(entry, RollEntry)
    assert entry.who == "Mike Dunn vs Opponent" and entry.what == "Close Combat vs typed pool"


def test_a_fill_is_marked_for_the_screen_and_typing_is_not() -> None:
    """The screen writes a pool into its field only when the model filled it."""
    model = loaded(MIKE)
    filled = model.texts["pool_a"].serial
    model.type_text("pool_a", "2d10 @5")
    assert model.texts["pool_a"].serial == filled
    model.pick("skill", key(model, MIKE.id, "Brawl"))
    assert model.texts["pool_a"].serial == filled + 1


def test_a_pool_that_cannot_be_read_says_why_and_rolls_nothing() -> None:
    model = loaded(MIKE)
    model.type_text("pool_a", "2d7 @5")
    assert "d7 is not a die" in model.errors["pool_a"]
    assert isinstance(model.odds, OddsProblem) and model.setup is None
    outcome = model.roll(ScriptedDice.of([3, 4]), typed=False)
    assert isinstance(outcome, CannotRoll) and not outcome.at_field
    assert model.last_result is None


def test_typed_faces_are_checked_then_resolved_into_a_log_entry_s0_skills() -> None:
    """A 1 on a d12 negated by a critical on the d20 (S0 §Skills)."""
    model = loaded(MIKE)
    model.type_text("faces", "13 5 9 12")
    assert model.errors["faces"] == "13 is not a face of a d12 (die 1)"
    refused = model.roll_faces()
    assert isinstance(refused, CannotRoll) and refused.at_field
    model.type_text("faces", "1 5 9 20")
    entry = model.roll_faces()
    assert isinstance(entry, RollEntry)
    assert (entry.who, entry.what, entry.pool) == ("Mike Dunn", "Close Combat · table dice",
                                                   "3d12+1d20 @7")
    assert entry.faces == ((12, 1), (12, 5), (12, 9), (20, 20))
    assert entry.explanation[0] == "Faces typed from the table's dice"
    assert isinstance(model.result, SkillShown) and model.result.title == "Result · table dice"
    assert model.text("faces") == "" and model.errors["faces"] == ""


def test_an_empty_campaign_says_why_nothing_rolls() -> None:
    model = loaded()
    assert model.picks["who"].value == TYPED and model.text("pool_a") == ""
    outcome = model.roll(ScriptedDice.of([1]), typed=False)
    assert isinstance(outcome, CannotRoll) and "roster" in outcome.message
    assert isinstance(model.result, ResultNote) and model.result.title == "Cannot roll"
    assert model.errors["pool_a"] == "type dice here, e.g. 2d6 @7"


def test_any_dice_roll_alone_and_against_a_total_r2() -> None:
    """R-2: a total at or above the target succeeds; any dice have no opponent."""
    model = loaded(MIKE, OLGA)
    model.type_text("pool_a", "2d6+1 @8")
    assert isinstance(model.odds, AnyOdds)
    assert odds_text(model.odds)[0][0] == "2d6+1 @8 · pass 58.3% · mean 8.0"
    entry = model.roll(ScriptedDice.of([3, 4]), typed=False)
    assert isinstance(entry, RollEntry) and entry.result == "PASS 8 vs 8 (+0)"
    assert isinstance(model.result, LinesShown)
    model.pick("versus", OLGA.id)
    model.type_text("pool_a", "2d6+1 @8")
    assert model.odds == OddsProblem("Pool: any dice roll alone (set Versus to nobody)")


def test_a_read_after_a_change_elsewhere_keeps_the_typed_pools() -> None:
    """House rules saved in settings read the campaign again: what the GM
    typed for a typed pool stays; the picks stay where they still can."""
    model = loaded(MIKE, OLGA)
    model.pick("who", TYPED)
    model.type_text("pool_a", "2d10 @5")
    model.keep_typed = True
    model.take_read(read(MIKE, OLGA))
    assert model.picks["who"].value == TYPED and model.text("pool_a") == "2d10 @5"
    model.take_read(read(MIKE, OLGA))  # a plain reload (ctrl+r): filled again
    assert model.text("pool_a") == ""


def test_the_log_filter_lets_a_new_roll_in_by_its_words() -> None:
    model = RollerModel()
    roll = LoggedRoll(1, "Mike Dunn", "Close Combat", "3d12 @7", (), "PASS: 1 success", (),
                      "2026-03-01T20:15:00Z")
    assert model.shows_in_log(roll)
    model.log_filter = "mike pass"
    assert model.shows_in_log(roll)
    model.log_filter = "olga"
    assert not model.shows_in_log(roll)


def test_read_and_write_on_a_real_campaign(demo_db: Path) -> None:
    """The store jobs the screen runs off its thread: the read, one roll logged."""
    with open_campaign(demo_db) as db:
        got = read_roller(db, "")
        assert got.data.characters and got.total == 0 and got.problem is None
        model = RollerModel()
        model.take_read(got)
        entry = model.roll(ScriptedDice.of([3, 4, 5, 6]), typed=True)
        assert isinstance(entry, RollEntry)
        logged = write_roll(db, entry, datetime(2026, 3, 1, 20, 15, tzinfo=timezone.utc))
        assert read_roller(db, "").rolls == (logged,)


def test_the_model_loads_no_textual() -> None:
    code = ("import json, sys\nimport ka_tui.screens.roller.model\n"
            "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'textual', 'rich', 'sqlmodel', 'sqlalchemy'})))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT)}, timeout=120, check=True)
    assert json.loads(done.stdout) == []
