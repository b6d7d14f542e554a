"""The close-combat screen through the real app and a real SQLite file:
whole fights ending in a disengage and at 0 K-points, cards refused at entry,
masked cards, typed dice refused at the field, undo and resume after a
restart -- each checked against the database.

Rules cited: S0 §Close combat 1-6, §2.2 (Feint, Defence, Evade, Disarm,
Attack), §4 (critical fail), RULES-NOTES B (K-points at 0, retained AP).
Demo fighters: see tests/store/test_fights.py.
"""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Input, OptionList

from ka_tui.app import KaApp
from ka_tui.rules.core.dice import RandomDice
from ka_tui.screens.roller.fields import RollTextField
from ka_tui.widgets.cqc_card import CqcCardEditor
from tests.ui.combat_pilot import (  # noqa: F401 — INIT, keys… are imported from here too
    INIT, MIKE_WINS, SIZE, keys, kinds, make_app, mike_vs, new_fight, open_combat, text_of,
)
from tests.ui.pilot_helpers import rows, settle


async def test_s0_close_combat_fight_ending_in_disengage(demo_db: Path) -> None:
    """Two rounds: Mike wins round 1 with a Feint (S0 §2.2 Feint: +1 for the
    fight) while Jeanne's losing Defence keeps 1 AP (RULES-NOTES B); in round 2
    Mike rolls a critical fail (S0 §4: Jeanne wins automatically) and her
    uncancelled Evade disengages (S0 §2.2 Evade): the fight is over."""
    app = make_app(demo_db, INIT + MIKE_WINS)
    async with app.run_test(size=SIZE) as pilot:
        screen = await mike_vs(pilot, "Jeanne Moreau")
        await keys(pilot, "f", "b", "enter")          # Mike: Basic Feint
        assert "card entered" in text_of(screen, "#fighters")
        await keys(pilot, "d", "b", "enter")          # Jeanne: Basic Defence
        assert screen.view_step == 3
        await keys(pilot, "v")
        assert screen.view_step == 4
        await keys(pilot, "r")
        assert screen.view_step == 5
        await keys(pilot, "enter")
        assert screen.view_step == 6
        p = screen.progress
        assert p is not None
        mike, jeanne = p.fight.order
        assert p.fight.fighter(mike).feint_against(jeanne) == 1
        assert p.fight.fighter(jeanne).pool == 7
        await keys(pilot, "enter")                    # round 2
        assert screen.view_step == 2 and "round 2" in screen.sub_title
        await keys(pilot, "a", "b", "enter")          # Mike: Basic Attack
        await keys(pilot, "e", "D", "g", "enter")     # Jeanne: Deliberate Evade, disengage
        await keys(pilot, "v")
        dice = screen.query_one("#input-dice", Input)
        assert dice.has_focus
        await pilot.press(*"1 4 4 4 5 5")             # typed from the table's dice
        await settle(pilot)
        assert "all faces in" in text_of(screen, "#status")
        await keys(pilot, "enter")
        assert screen.view_step == 5
        assert "Jeanne Moreau WINS" in text_of(screen, "#info")
        await keys(pilot, "enter")
        assert screen.view_step == 6 and screen.progress is not None and screen.progress.over
        assert "disengage" in text_of(screen, "#info")
        await keys(pilot, "enter")                    # end the fight
        assert screen.progress is not None and screen.progress.ended
    assert rows(demo_db, "SELECT status FROM fight") == [("ended",)]
    assert kinds(demo_db) == (["fight_started", "initiative"]
                              + ["card_entered", "card_entered", "cards_revealed",
                                 "dice_rolled", "round_resolved"] * 2 + ["fight_ended"])
    typed = [json.loads(p)["typed"] for (p,) in
             rows(demo_db, "SELECT payload FROM fight_event WHERE kind='dice_rolled'")]
    assert typed == [False, True]
    last = json.loads(rows(demo_db, "SELECT payload FROM fight_event "
                                    "WHERE kind='round_resolved' ORDER BY seq DESC")[0][0])
    assert [e["kind"] for e in last["report"]["pairings"][0]["effects"]] == ["disengage"]
    assert rows(demo_db, "SELECT k_points FROM character WHERE name='Jeanne Moreau'") == [(10,)]


async def test_s0_close_combat_fight_ending_at_zero_k_points(demo_db: Path) -> None:
    """Mike's two Basic Attacks a round with the Sten gun (damage 4; S0 §2.2:
    each successful attack lands once) against Olga's failed saves (d12 +
    Armour 1 vs 13, S0 §6) bring her from 10 K-points to 0: out of the fight
    (RULES-NOTES B). His Disarm takes her TT pistol (S0 §2.2). Both carry
    over to the roster when the fight ends."""
    round1 = MIKE_WINS + [2, 12]  # saves: fail (-4), a 12 saves
    round2 = MIKE_WINS + [3, 3]   # saves: fail, fail (-8): 6 -> 0
    app = make_app(demo_db, INIT + round1 + round2)
    async with app.run_test(size=SIZE) as pilot:
        screen = await mike_vs(pilot, "Olga Petrova")
        editor = screen.query_one(CqcCardEditor)
        await keys(pilot, "a", "b", "b", "s", "b", "w")  # 2 Basic Attacks, Basic Disarm, Sten gun
        assert editor.card.weapon == "Sten gun" and editor.budget_text() == "spent 3 / 8, left 5"
        await keys(pilot, "enter", "f", "b", "enter", "v", "r", "enter")
        assert screen.view_step == 6
        assert "Olga Petrova takes" not in text_of(screen, "#info")
        assert "takes TT pistol" in text_of(screen, "#info")
        await keys(pilot, "enter")                    # round 2
        # his card starts with the Sten gun of his last card
        await keys(pilot, "a", "b", "b")
        assert editor.card.weapon == "Sten gun"
        await keys(pilot, "enter", "f", "b", "enter", "v", "r", "enter")
        p = screen.progress
        assert p is not None and p.over and screen.view_step == 6
        olga = next(f for f in p.fight.fighters if f.name == "Olga Petrova")
        assert olga.out and olga.k_points == 0
        assert "OUT" in text_of(screen, "#fighters")
        await keys(pilot, "enter")
        await keys(pilot, "1")  # the roster shows the outcome at once
        # Read the roster's table through its row API, whatever widget it is.
        table = next(w for w in pilot.app.screen.query("*") if hasattr(w, "get_row_at"))
        count = table.row_count() if callable(table.row_count) else table.row_count
        cells = [" ".join(map(str, table.get_row_at(i))) for i in range(count)]
        assert any("Olga Petrova" in c and " 0/10" in c for c in cells), cells
    assert rows(demo_db, "SELECT k_points FROM character WHERE name='Olga Petrova'") == [(0,)]
    assert rows(demo_db, "SELECT k_points FROM character WHERE name='Mike Dunn'") == [(14,)]
    assert rows(demo_db, "SELECT c.name, w.quick_slot FROM weapon w JOIN character c "
                         "ON c.id = w.character_id WHERE w.name='TT pistol'") == [("Mike Dunn", 4)]
    assert rows(demo_db, "SELECT status FROM fight") == [("ended",)]


async def test_s0_2_invalid_card_is_refused_at_entry(demo_db: Path) -> None:
    """S0 §2: three Deliberates (9 AP) from Mike's 8 AP; a Special with other
    actions. The reason shows and enter hands nothing in."""
    app = make_app(demo_db, INIT)
    async with app.run_test(size=SIZE) as pilot:
        screen = await mike_vs(pilot, "Jeanne Moreau")
        editor = screen.query_one(CqcCardEditor)
        await keys(pilot, "a", "D", "D", "D")
        assert editor.budget_text() == "spent 9 / 8, 1 over"
        assert "spends 9 AP but the pool holds 8" in text_of(screen, "#status")
        await keys(pilot, "enter")
        assert "Refused" in text_of(screen, "#status")
        await keys(pilot, "-", "e", "S")
        assert "must be the only action" in editor.errors()[0].message
        await keys(pilot, "enter")
        assert kinds(demo_db) == ["fight_started", "initiative"]
        await keys(pilot, "delete", "enter")               # Deliberate + Basic... now 6 AP: valid
        assert kinds(demo_db)[-1] == "card_entered"


async def test_cards_stay_masked_until_the_reveal(demo_db: Path) -> None:
    """S0 §3: a handed-in card shows only "card entered" until the reveal."""
    app = make_app(demo_db, INIT)
    async with app.run_test(size=SIZE) as pilot:
        screen = await mike_vs(pilot, "Jeanne Moreau")
        await keys(pilot, "a", "D", "d", "b", "enter")
        editor = screen.query_one(CqcCardEditor)
        assert editor.fighter.name == "Jeanne Moreau" and editor.card.is_empty
        fighters = text_of(screen, "#fighters")
        assert "card entered" in fighters and "Attack" not in fighters
        await keys(pilot, "e", "b", "enter")
        assert screen.view_step == 3
        info = text_of(screen, "#info")
        assert "card entered" in info and "Attack" not in info and "Evade" not in info
        await keys(pilot, "v")
        info = text_of(screen, "#info")
        assert "Deliberate Attack, Basic Defence" in info and "Basic Evade" in info
        assert "Odds of winning" in info


async def test_typed_dice_are_refused_at_the_field(demo_db: Path) -> None:
    """A face a die cannot show, or too many faces, is refused where it is
    typed; nothing is written. S0 §1 faces typed too."""
    app = make_app(demo_db)
    async with app.run_test(size=SIZE) as pilot:
        await open_combat(pilot)
        screen = await new_fight(pilot, ("Mike Dunn", "Jeanne Moreau"))
        assert "Combat Initiative 5: 4d12" in text_of(screen, "#info")
        assert "Agility 6: 2d8" in text_of(screen, "#info")   # S0 §1 Active Agility test
        await keys(pilot, *"10 10 10 10", "enter")
        field = screen.query_one("#field-dice", RollTextField)
        assert "more faces needed: next a d8" in field.error and screen.view_step == 1
        await keys(pilot, *" 2 2 5", "enter")
        assert "1 face(s) too many" in field.error
        await keys(pilot, "backspace", "backspace", "enter")
        assert screen.view_step == 2 and kinds(demo_db)[-1] == "initiative"
        await keys(pilot, "a", "b", "enter", "d", "b", "enter", "v")
        field = screen.query_one("#field-dice", RollTextField)
        await pilot.press(*"8 13")
        await settle(pilot)
        assert "13 is not a face of a d12" in field.error
        await keys(pilot, "enter")
        assert screen.view_step == 4 and kinds(demo_db)[-1] == "cards_revealed"
        screen.query_one("#input-dice", Input).value = "8 8 8 8 2 2 5"
        await settle(pilot)
        assert "too many" in field.error
        screen.query_one("#input-dice", Input).value = "8 8"
        await settle(pilot)
        assert not field.error and "die 3:" in text_of(screen, "#status")
        await keys(pilot, "enter")
        assert "more faces needed" in field.error and kinds(demo_db)[-1] == "cards_revealed"


async def test_undo_the_last_round(demo_db: Path) -> None:
    """Undo drops the round's events; the state goes back to its start."""
    app = make_app(demo_db, INIT + MIKE_WINS)
    async with app.run_test(size=SIZE) as pilot:
        screen = await mike_vs(pilot, "Jeanne Moreau")
        await keys(pilot, "a", "b", "enter", "d", "b", "enter", "v", "r", "enter")
        assert screen.view_step == 6
        await keys(pilot, "u", "y")  # undo asks first, y confirms
        assert screen.view_step == 2 and screen.progress is not None
        assert screen.progress.fight.round == 1 and not screen.progress.reports
        jeanne = next(f for f in screen.progress.fight.fighters if f.name == "Jeanne Moreau")
        assert jeanne.ap == 6
    assert kinds(demo_db) == ["fight_started", "initiative"]


async def test_quit_mid_fight_and_resume(demo_db: Path) -> None:
    """DESIGN.md: the last committed event is the truth. Quit with one card
    in, start again: Jeanne's card is next and Mike's stays masked; quit
    after the dice: the round report is back."""
    app = make_app(demo_db, INIT + MIKE_WINS)
    async with app.run_test(size=SIZE) as pilot:
        await mike_vs(pilot, "Jeanne Moreau")
        await keys(pilot, "a", "b", "enter")
    again = make_app(demo_db, MIKE_WINS)
    async with again.run_test(size=SIZE) as pilot:
        screen = await open_combat(pilot)
        assert screen.view_step == 2
        assert screen.query_one(CqcCardEditor).fighter.name == "Jeanne Moreau"
        assert "card entered" in text_of(screen, "#fighters")
        await keys(pilot, "d", "b", "enter", "v", "r")
        assert screen.view_step == 5
    third = make_app(demo_db)
    async with third.run_test(size=SIZE) as pilot:
        screen = await open_combat(pilot)
        assert screen.view_step == 5
        assert "Mike Dunn WINS" in text_of(screen, "#info")
        assert "needs 3+ on each die" not in text_of(screen, "#info")
        await keys(pilot, "t")  # the rules core's die-by-die lines (S0 §4)
        assert "needs 3+ on each die" in text_of(screen, "#info")


async def test_combat_keys_are_in_the_palette_and_footer(demo_db: Path) -> None:
    """Every action is a binding with an id (DESIGN.md: users can remap keys)."""
    app = make_app(demo_db, INIT)
    async with app.run_test(size=SIZE) as pilot:
        screen = await mike_vs(pilot, "Jeanne Moreau")
        active = {b.binding.id for b in screen.active_bindings.values() if b.enabled}
        # at step 2 "n" is the footer-less twin: the card's keys fill the footer
        assert {"combat.card_done", "combat.undo", "combat.new_quiet", "cqc_card.basic",
                "cqc_card.special"} <= active
        assert "combat.new" not in active
        from ka_tui.host import binding_commands

        titles = {c.title for c in binding_commands(screen)}
        assert {"Card done", "Basic", "Deliberate", "Undo", "New fight"} <= titles


async def test_one_character_facing_two_shares_his_pool(demo_db: Path) -> None:
    """S0 is silent on several opponents; house rule multi_opponent=split:
    one card per opponent, one AP pool (validate_split). Both pairings are
    rolled and resolved in one round."""
    app = KaApp(demo_db)
    app.combat_dice = RandomDice(7)  # type: ignore[attr-defined]
    async with app.run_test(size=SIZE) as pilot:
        await open_combat(pilot)
        screen = await new_fight(pilot, ("Mike Dunn", "Jeanne Moreau"),
                                 ("Mike Dunn", "Olga Petrova"))
        await keys(pilot, "r")
        p = screen.progress
        assert p is not None and len(p.fight.active_pairings) == 2
        mike = next(f.id for f in p.fight.fighters if f.name == "Mike Dunn")
        # Mike is first to plan only if he won the order; play whoever comes up.
        for _ in range(3):
            editor = screen.query_one(CqcCardEditor)
            if editor.fighter.id != mike:
                await keys(pilot, "d", "b", "enter")
                continue
            assert len(editor.cards) == 2
            await keys(pilot, "a", "D", "o", "a", "D", "d", "D")
            assert editor.budget_text() == "spent 9 / 8, 1 over"
            assert "spend 9 AP together" in text_of(screen, "#status")
            await keys(pilot, "enter")
            assert kinds(demo_db).count("card_entered") < 3
            await keys(pilot, "-", "b", "enter")
        assert screen.view_step == 3
        payloads = [json.loads(x) for (x,) in rows(
            demo_db, "SELECT payload FROM fight_event WHERE kind='card_entered'")]
        mine = next(x for x in payloads if x["owner"] == mike)
        assert len(mine["cards"]) == 2
        await keys(pilot, "v", "r")
        assert screen.view_step == 5 and screen.progress is not None
        assert screen.progress.rolled is not None
        assert len(screen.progress.rolled.pairings) == 2


async def test_list_and_switch_between_fights(demo_db: Path) -> None:
    """Two fights in the campaign: l lists them (newest first) and opens one
    where its log left it; the newest open fight is the one resumed."""
    app = make_app(demo_db, INIT)
    async with app.run_test(size=SIZE) as pilot:
        screen = await mike_vs(pilot, "Jeanne Moreau")   # fight 1, at step 2
        screen = await new_fight(pilot, ("Olga Petrova", "Kasia Nowak"))
        assert screen.view_step == 1 and "Olga Petrova vs Kasia Nowak" in screen.sub_title
        await keys(pilot, "l")
        listed = pilot.app.screen.query_one(OptionList)
        prompts = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        assert prompts == ["#2 Olga Petrova vs Kasia Nowak (open)",
                           "#1 Mike Dunn vs Jeanne Moreau (open)"]
        await keys(pilot, "down", "enter")
        assert "Mike Dunn vs Jeanne Moreau" in screen.sub_title and screen.view_step == 2
