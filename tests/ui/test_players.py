"""Players at their own terminals, with real app instances on one
real campaign file: the GM's ``KaApp`` and players' ``PlayerApp``s, each with
its own connection and the live watcher (store/watch.py), as separate
processes would have.

S0 §Close combat 2-3: every fighter fills in his CQC card in secret, then all
are revealed at once; the GM sees who has sent, never what, and a player
never sees another side's card before the reveal (asserted on the text the
widgets render, hidden ones included).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Static

from ka_tui.app import KaApp
from ka_tui.player_app import PlayerApp
from ka_tui.rules.core.dice import RandomDice
from ka_tui.rules.cqc import CqcCard, initiative_order
from ka_tui.screens.combat.screen import CombatScreen
from ka_tui.screens.player.screen import PlayerScreen
from ka_tui.screens.roster.character_form import CharacterForm
from ka_tui.store import fights
from ka_tui.store.db import open_campaign
from ka_tui.store.startup_read import begin_player_read
from ka_tui.widgets.cqc_card import CqcCardEditor
from tests.ui.pilot_helpers import SIZE, rows, settle, wait_for
from tests.ui.test_roster import roster, select_name

OLGAS_CARD = "Deliberate Attack, 3x Basic Defence"


def _ids(db_path: Path) -> dict[str, int]:
    return {n: i for i, n in rows(db_path, "SELECT id, name FROM character")}


def start_fight(db_path: Path) -> int:
    """Kasia vs Mike, Olga vs Jeanne; the order rolled: step 2, cards wanted."""
    ids = _ids(db_path)
    with open_campaign(db_path) as db:
        fid = fights.start_fight(db, [(ids["Kasia Nowak"], ids["Mike Dunn"]),
                                      (ids["Olga Petrova"], ids["Jeanne Moreau"])])
        p = fights.load_progress(db, fid)
        init = initiative_order(p.start.fighters, RandomDice(3), p.rules)
        fights.record_initiative(db, fid, init, False, expect_seq=p.seq)
    return fid


def text(app: Any) -> str:
    """Everything the current screen's widgets render (hidden ones too)."""
    parts = [str(w.render()) for w in app.screen.query("*")
             if isinstance(w, (Static, CqcCardEditor))]
    return "\n".join(parts)


def kinds(db_path: Path) -> list[str]:
    return [k for (k,) in rows(db_path, "SELECT kind FROM fight_event ORDER BY seq")]


async def player_ready(pilot: Pilot[Any]) -> PlayerScreen:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, PlayerScreen)
                   and pilot.app.screen.player is not None)
    screen = pilot.app.screen
    assert isinstance(screen, PlayerScreen)
    return screen


async def test_cards_from_players_reach_the_gm_live_and_stay_secret(
        demo_db: Path) -> None:
    """Kasia sends her card: the GM's screen says so within one second, with
    no key pressed there. Olga's card never shows on Kasia's screens before
    the reveal; after the GM reveals, all three views show the round."""
    fid = start_fight(demo_db)
    gm, kasia, olga = KaApp(demo_db), PlayerApp(demo_db, "Kasia Nowak"), \
        PlayerApp(demo_db, "Olga Petrova")
    async with gm.run_test(size=SIZE) as pg, kasia.run_test(size=SIZE) as pk, \
            olga.run_test(size=SIZE) as po:
        await settle(pg)
        await pg.press("3")
        await wait_for(pg, lambda: isinstance(gm.screen, CombatScreen)
                       and gm.screen.progress is not None)
        assert "0 of 4 cards in" in text(gm)
        ks = await player_ready(pk)
        await player_ready(po)
        assert ks.pane == "fight" and "Fill in Kasia Nowak's card for round 1" in text(kasia)

        await pk.press("a", "b", "b", "d", "b", "b", "b", "b", "enter")
        await wait_for(pk, lambda: "Your card is sent" in text(kasia))
        sent_at = time.monotonic()
        await wait_for(pg, lambda: "1 of 4 cards in (Kasia)" in text(gm), timeout=5)
        assert time.monotonic() - sent_at < 1.0, "the GM saw the card more than 1 s late"
        assert "Attack" in text(gm) and "2x Basic Attack" not in text(gm)  # in, not what

        await po.press("a", "D", "d", "b", "b", "b", "enter")
        await wait_for(po, lambda: f"Your card is sent: {OLGAS_CARD}" in text(olga))
        await wait_for(pk, lambda: "2 of 4 cards in" in text(kasia), timeout=2)
        await wait_for(pg, lambda: "2 of 4 cards in" in text(gm), timeout=2)
        for app in (kasia, gm):  # sent, but its content nowhere before the reveal
            assert OLGAS_CARD not in text(app) and "Deliberate Attack" not in text(app)
        for pane in ("1", "3", "4", "2"):  # every pane of Kasia's view
            await pk.press(pane)
            await settle(pk)
            assert "Deliberate Attack" not in text(kasia)

        # the GM forces the absent players' cards (Mike, Jeanne) and reveals
        await pg.press("a", "b", "b", "b", "b", "d", "b", "b", "b", "b", "enter")
        await wait_for(pg, lambda: "3 of 4 cards in" in text(gm))
        await pg.press("a", "b", "b", "b", "d", "b", "b", "b", "enter")
        await wait_for(pg, lambda: "every card is in" in text(gm))
        await pg.press("v")
        await wait_for(pg, lambda: "Cards revealed" in text(gm))
        for pilot, app in ((pk, kasia), (po, olga)):
            await wait_for(pilot, lambda app=app: "Cards revealed" in text(app), timeout=2)
        assert f"Olga Petrova vs Jeanne Moreau: {OLGAS_CARD}" in text(kasia)
    assert kinds(demo_db).count("card_entered") == 4
    assert kinds(demo_db)[-1] == "cards_revealed"
    assert fid == 1


async def test_a_card_changes_until_the_reveal(demo_db: Path) -> None:
    start_fight(demo_db)
    kasia = PlayerApp(demo_db, "Kasia Nowak")
    async with kasia.run_test(size=SIZE) as pk:
        await player_ready(pk)
        await pk.press("a", "b", "enter")
        await wait_for(pk, lambda: "Your card is sent: Basic Attack" in text(kasia))
        await pk.press("d", "b", "b", "enter")
        await wait_for(pk, lambda: "Your card is sent: Basic Attack, 2x Basic Defence"
                       in text(kasia))
    assert kinds(demo_db)[-2:] == ["card_entered", "card_changed"]


async def test_a_stale_player_send_is_refused_and_reloads(demo_db: Path) -> None:
    """Two writers after the same state: the GM reveals while Kasia's view
    (not watching here, so it stays stale) changes her card. The reveal
    lands; her change is refused with the reason, her screen reloads to the
    revealed round; one card per fighter, nothing duplicated."""
    fid = start_fight(demo_db)
    kasia = PlayerApp(demo_db, "Kasia Nowak")
    kasia.watch_interval = None
    async with kasia.run_test(size=SIZE) as pk:
        await player_ready(pk)
        await pk.press("a", "b", "enter")
        await wait_for(pk, lambda: "Your card is sent" in text(kasia))
        with open_campaign(demo_db) as db:  # the GM's process
            p = fights.load_progress(db, fid)
            for owner in p.to_enter:
                opp = p.fight.opponents_of(owner)[0]
                fights.record_card(db, fid, 1, owner, [CqcCard.build(owner, opp, defence="b")])
            fights.record_reveal(db, fid, 1)
        await pk.press("d", "b", "enter")
        await wait_for(pk, lambda: "Cards revealed" in text(kasia))
        assert "already revealed" in text(kasia)
    assert kinds(demo_db).count("card_entered") == 4
    assert "card_changed" not in kinds(demo_db)


def test_a_player_can_only_send_his_own_card(demo_db: Path) -> None:
    from ka_tui.store import players
    from ka_tui.store.players import NotYours

    fid = start_fight(demo_db)
    with open_campaign(demo_db) as db:
        kasia = players.find_player(db, "kasia")  # a first name, any case
        mine = players.fights_of(db, kasia.character_id)
        assert [f.id for f in mine] == [fid]
        p = players.player_progress(db, mine[0])
        other = next(f for f in fights.card_order(p.fight) if f not in mine[0].fighters)
        opp = p.fight.opponents_of(other)[0]
        try:
            players.send_card(db, kasia, mine[0], 1, other, [CqcCard.build(other, opp, attack="b")])
        except NotYours:
            pass
        else:
            raise AssertionError("another fighter's card was sent")
    assert "card_entered" not in kinds(demo_db)


async def test_two_window_form_sequence_loses_nothing(demo_db: Path) -> None:
    """No lost update in two real windows: B opens Kasia's form; A sets
    K-points 10 and saves; B changes Strength and saves: K stays 10."""
    cid = _ids(demo_db)["Kasia Nowak"]
    with open_campaign(demo_db) as db:
        from ka_tui.store import roster as service

        service.update_character(db, cid, k_points=0)
    strength = rows(demo_db, "SELECT strength FROM character WHERE id = ?", cid)[0][0]
    a, b = KaApp(demo_db), KaApp(demo_db)
    async with a.run_test(size=SIZE) as pa, b.run_test(size=SIZE) as pb:
        for pilot in (pb, pa):  # B's form is open first
            screen = await roster(pilot)
            await select_name(pilot, screen, "Kasia Nowak")
            await pilot.press("e")
            await wait_for(pilot, lambda p=pilot: isinstance(p.app.screen, CharacterForm))
        a.screen.query_one("#input-k_points", Input).value = "10"
        await pa.press("ctrl+s")
        await roster(pa)
        assert rows(demo_db, "SELECT k_points FROM character WHERE id = ?", cid) == [(10,)]
        b.screen.query_one("#input-strength", Input).value = str(strength + 1)
        await pb.press("ctrl+s")
        await roster(pb)
    assert rows(demo_db, "SELECT k_points, strength FROM character WHERE id = ?", cid) == [
        (10, strength + 1)]


def test_a_watcher_costs_nothing_until_the_file_changes(demo_db: Path) -> None:
    """The watch is ``PRAGMA data_version``; its own reads change nothing, and
    a commit from another connection is reported as the area it touched."""
    import sqlite3
    import threading

    from ka_tui.store.watch import CampaignWatcher

    seen: list[frozenset[str]] = []
    got = threading.Event()

    def changed(areas: frozenset[str]) -> None:
        seen.append(areas)
        got.set()

    watcher = CampaignWatcher(lambda: sqlite3.connect(demo_db), changed, interval=0.02)
    watcher.start()
    try:
        time.sleep(0.2)
        assert seen == [] and watcher.polls > 3
        con = sqlite3.connect(demo_db)
        con.execute("UPDATE character SET notes = 'x' WHERE id = 1")
        con.commit()
        con.close()
        assert got.wait(2)
    finally:
        watcher.stop()
    assert seen == [frozenset({"roster"})]


def test_play_refuses_an_unknown_name_and_an_unwritable_campaign(
        demo_db: Path, capsys: Any, monkeypatch: Any) -> None:
    from ka_tui.cli import main

    assert main(["play", "--as", "Zed", "--db", str(demo_db)]) == 2
    assert "no character called 'Zed'" in capsys.readouterr().err
    assert main(["play", "--db", str(demo_db)]) == 2
    assert "play needs --as NAME" in capsys.readouterr().err
    assert main(["play", "--as", "Kasia", "--db", str(demo_db), "--read-only"]) == 2
    assert "cannot be written by you" in capsys.readouterr().err


async def test_the_roll_log_follows_another_window_without_a_key(demo_db: Path) -> None:
    """Every view is live: a roll made in window A appears in
    window B's roll log, with no key pressed in B."""
    from ka_tui.screens.roller.screen import RollerScreen
    from ka_tui.widgets.roll_log_pane import RollLogPane

    a, b = KaApp(demo_db), KaApp(demo_db)
    a.roller_dice = RandomDice(7)  # type: ignore[attr-defined]
    async with a.run_test(size=SIZE) as pa, b.run_test(size=SIZE) as pb:
        for pilot in (pa, pb):
            await settle(pilot)
            await pilot.press("2")
            await wait_for(pilot, lambda p=pilot: isinstance(p.app.screen, RollerScreen)
                           and p.app.screen.loaded)
        pane = b.screen.query_one(RollLogPane)
        before = pane.total
        await pa.press("r")
        await wait_for(pa, lambda: a.screen.query_one(RollLogPane).total == before + 1)
        await wait_for(pb, lambda: pane.total == before + 1, timeout=5)


async def test_a_player_gets_the_gms_redraw(demo_db: Path) -> None:
    """Players over SSH get the same redraw as the GM (ctrl+l, the palette)."""
    app = PlayerApp(demo_db, "Arthur")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, PlayerScreen)
                       and pilot.app.screen.player is not None)
        assert "Redraw the screen" in [c.title for c in app.get_system_commands(app.screen)]
        assert any(b.action == "redraw" for b in PlayerApp.BINDINGS)


async def test_panes_2_3_and_4_are_built_or_read_when_first_shown(
        demo_db: Path) -> None:
    """The player's first frame is his sheet: the fight pane (rules, card
    editor), the flight card and the battle map come when first shown."""
    app = PlayerApp(demo_db, "Arthur")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, PlayerScreen)
                       and pilot.app.screen.player is not None)
        screen = app.screen
        assert isinstance(screen, PlayerScreen)
        assert not screen.query("#pane-fight") and not screen.query("#pane-battles")
        # his seat as the GM's roster says it (it said "none (unseated)")
        assert "Seat: pilot of Tempest KA-A" in str(screen.query_one("#sheet", Static).render())
        assert str(screen.query_one("#aircraft", Static).render()) == ""
        await pilot.press("2")
        await wait_for(pilot, lambda: bool(screen.query("#pane-fight")))
        assert screen.pane == "fight"
        assert "You are in no fight." in str(screen.query_one("#fight-info", Static).render())
        await pilot.press("3")
        await wait_for(pilot, lambda: "Tempest KA-A" in str(
            screen.query_one("#aircraft", Static).render()))
        await pilot.press("4")
        await wait_for(pilot, lambda: bool(screen.query("#pane-battles")))
        await wait_for(pilot, lambda: "Tempest KA-A" in str(
            screen.query_one("#plan-head", Static).render()))
        assert screen.pane == "battles"


async def test_the_command_line_s_startup_read_shows_his_sheet_then_pane_4_then_his_card(
        demo_db: Path) -> None:
    """``ka-tui play``'s read (``startup_read.begin_player_read``): his sheet
    comes from the child's first answer, the battle he may see for pane 4
    from its second, asked for after the first frame; a player whose card is
    due still opens on pane 2 with it."""
    arthur = PlayerApp(demo_db, "Arthur Hale",
                       startup_read=begin_player_read(demo_db, "Arthur Hale"))
    async with arthur.run_test(size=SIZE) as pilot:
        screen = await player_ready(pilot)
        assert "Seat: pilot of Tempest KA-A" in str(screen.query_one("#sheet", Static).render())
        await pilot.press("4")
        await wait_for(pilot, lambda: "Tempest KA-A" in str(
            screen.query_one("#plan-head", Static).render()))
        assert screen.seen is not None and screen.seen.battle.state.turn == 1
    await _kasia_opens_on_her_due_card(demo_db)


async def _kasia_opens_on_her_due_card(demo_db: Path) -> PlayerScreen:
    """A fight asks for cards; Kasia's ``play`` (its startup read) opens on
    pane 2 with her card to fill in."""
    start_fight(demo_db)
    kasia = PlayerApp(demo_db, "Kasia Nowak",
                      startup_read=begin_player_read(demo_db, "Kasia Nowak"))
    async with kasia.run_test(size=SIZE) as pilot:
        screen = await player_ready(pilot)
        await wait_for(pilot, lambda: screen.pane == "fight"
                       and "Fill in Kasia Nowak's card for round 1" in text(kasia))
    return screen


async def test_a_startup_read_that_answers_late_still_opens_his_card_from_it(
        demo_db: Path, monkeypatch: Any) -> None:
    """On a slow machine the startup read's first answer comes after the app
    has stopped waiting for it (``door.when_read``'s 0.2 s): the thread that
    hands it over must not wait for the screen, which opens pane 2 at once
    (his card is due) and so asks the same child for its second answer. The
    card comes from the startup read itself, not from a read again after a
    pane gave up waiting (S0 §Close combat 2: each fighter fills in his card)."""
    from ka_tui.store import player_data

    real_first_view = player_data.first_view

    def slow_first_view(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.6)                      # in the forked child
        return real_first_view(*args, **kwargs)

    monkeypatch.setattr(player_data, "first_view", slow_first_view)
    monkeypatch.setattr(player_data, "LATER_TIMEOUT", 5.0)
    screen = await _kasia_opens_on_her_due_card(demo_db)
    assert screen._reads == 0, "the pane gave up on the startup read and read again"


def test_the_plan_key_table_names_each_step_the_gms_map_plans() -> None:
    """The player's bindings come from the light table; the GM's map adds the
    step each key plans (R-3: the plan's steps): the same codes, once each."""
    from ka_tui.screens.air.keys import STEPS
    from ka_tui.screens.air.plan_key_table import PLAN_KEYS

    codes = [code for code, _k, _d in PLAN_KEYS]
    assert len(codes) == len(set(codes)) and set(codes) == set(STEPS)
    assert len({key for _c, key, _d in PLAN_KEYS}) == len(PLAN_KEYS)


def test_the_players_first_frame_snapshot(demo_db: Path, snap_compare: Any) -> None:
    """His first frame at 80x24 (``ka-tui play --as Arthur``): the sheet, the
    pane tabs, the status line and the keys; no screen scrollbar (the player's
    stylesheet is the app's, his screen being the first)."""
    app = PlayerApp(demo_db, "Arthur")
    app.watch_interval = None

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, PlayerScreen)
                       and pilot.app.screen.player is not None)
        await settle(pilot)
        screen = pilot.app.screen
        assert not screen.show_vertical_scrollbar
        assert screen.query_one("#status").region.bottom <= SIZE[1] - 1

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def status_and_tabs(app: Any) -> tuple[str, str]:
    screen = app.screen
    return (str(screen.query_one("#status", Static).render()),
            str(screen.query_one("#player-tabs", Static).render()))


async def test_each_pane_says_what_its_enter_does_and_a_due_card_shows_on_every_pane(
        demo_db: Path) -> None:
    """S0 §Close combat 2: Kasia owes her card. Pane 2 says enter sends it;
    panes 1, 3 and 4 do not (their enter does not send a card) but say the
    card is due, and the tab line marks it on every pane. A fight the GM
    starts while she is on pane 1 is announced there, with no key pressed."""
    kasia = PlayerApp(demo_db, "Kasia Nowak")
    async with kasia.run_test(size=SIZE) as pk:
        ks = await player_ready(pk)
        assert ks.pane == "sheet" and "card due" not in status_and_tabs(kasia)[1]
        start_fight(demo_db)
        await wait_for(pk, lambda: "card due" in status_and_tabs(kasia)[1], timeout=5)
        assert "Your card for round 1 is due: 2 opens the fight" in status_and_tabs(kasia)[0]
        await pk.press("2")
        await settle(pk)
        assert "enter: send the card" in status_and_tabs(kasia)[0]
        for pane in ("1", "3", "4"):
            await pk.press(pane)
            await settle(pk)
            status, tabs = status_and_tabs(kasia)
            assert "send the card" not in status, (pane, status)
            assert "2 Fight (card due)" in tabs
            if pane != "4":
                assert "Your card for round 1 is due" in status
        await pk.press("2", "a", "b", "enter")
        await wait_for(pk, lambda: "Your card is sent" in text(kasia))
        await pk.press("1")
        await settle(pk)
        assert "card due" not in status_and_tabs(kasia)[1]
        assert "is due" not in status_and_tabs(kasia)[0]
