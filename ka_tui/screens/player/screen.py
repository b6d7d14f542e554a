"""A player's own view of the campaign (issue 14; ``ka-tui play --as NAME``).

Four panes on number keys: 1 the character's sheet (characteristics, skills,
weapons), 2 his close combat, 3 his aircraft's flight card, 4 the air
battles he is in. When the GM's fight is at step 2 (S0 §Close combat: each
fills in his CQC card in secret), pane 2 holds his own card in the same
editor and with the same refusals as the GM's (``widgets/cqc_card.py``);
enter sends it, and it can be changed and sent again until the GM reveals.
Pane 4 (``air_plan.py``) is the GM's planning view for the aircraft he
pilots: from the turn's start until it moves he builds its plan with the
GM's keys, sees path, costs and odds, and enter sends it for the GM to
execute (changeable until then).

What this screen shows of a fight or battle comes only from
``store/players.py``, which projects the logs through ``rules/cqc/log.py``
and ``rules/air/plans.py`` ``visible_to``: another side's card before the
reveal, or another aircraft's plan, is not in the data, so no view can show
it. The screen writes nothing but the player's own card and plan. Every view follows the
campaign live: the app's watcher publishes another process's writes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer, Header, Static

from ka_tui.rules.cqc.log import FightStep, card_order, cards_in_text
from ka_tui.screens.air.keys import PLAN_KEYS
from ka_tui.screens.combat.report import (
    damage_lines,
    fighter_lines,
    resolve_lines,
    revealed_lines,
    step_bar,
)
from ka_tui.screens.door import CampaignChanged, Change, door
from ka_tui.screens.player.air_plan import AirPlanPane, PlanActions, PlayerLoaded
from ka_tui.screens.player.sheet import SheetPanes
from ka_tui.widgets.cqc_card import CqcCardEditor

if TYPE_CHECKING:
    from ka_tui.rules.cqc.log import FightProgress
    from ka_tui.store.battles import LoadedBattle
    from ka_tui.store.players import Player, PlayerBattle, PlayerFight

PANES = ("sheet", "fight", "aircraft", "battles")


def _join(lines: list[Content]) -> Content:
    return Content("\n").join(lines)


class PlayerScreen(SheetPanes, PlanActions, Screen[None]):
    HELP_TITLE = "Player"
    CSS_PATH = "player.tcss"

    BINDINGS = [
        Binding("1,f1", "pane('sheet')", "Sheet", id="player.sheet"),
        Binding("2,f2", "pane('fight')", "Fight", id="player.fight"),
        Binding("3,f3", "pane('aircraft')", "Aircraft", id="player.aircraft"),
        Binding("4,f4", "pane('battles')", "Air battles", id="player.battles"),
        Binding("enter", "send", "Send card", id="player.send"),
        Binding("enter", "send_plan", "Send plan", id="player.send_plan"),
        Binding("l", "next_fight", "Next", show=False, id="player.next_fight"),
        Binding("n", "next_aircraft", "Next aircraft", show=False, id="player.next_aircraft"),
        Binding("ctrl+r", "reload", "Reload", show=False, id="player.reload"),
        Binding("p", "type_plan", "Type plan", id="player.type_plan"),
        *(Binding(key, f"plan('{code}')", desc, show=False, id=f"player.plan.{code}")
          for code, key, desc, _s in PLAN_KEYS),
    ]

    PALETTE_HELP = {
        "player.send": "Send your CQC card to the GM (it stays hidden until the reveal; "
                       "change it and send again until then)",
        "player.send_plan": "Send your aircraft's move plan to the GM (no one else sees it; "
                            "change it and send again until the GM executes it)",
        "player.type_plan": "Type the plan in the notation: +1 F F R F C D LOOP LAND",
        **{f"player.plan.{code}": f"Plan: {desc}" for code, _k, desc, _s in PLAN_KEYS},
        "player.next_fight": "Show the next fight (pane 2) or air battle (pane 4) you are in",
        "player.next_aircraft": "Show your next aircraft (its flight card, or in the battle)",
        "player.reload": "Read the campaign file again",
    }

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player_name = name
        self.player: Player | None = None
        self.fights: list[PlayerFight] = []
        self.battles: list[PlayerBattle] = []
        self.fight_index = 0
        self.battle_index = 0
        self.aircraft_index = 0
        self.progress: FightProgress | None = None
        self.editing: tuple[int, int, str] | None = None  # (fight, round, owner) in the editor
        self.sent_note = ""
        self.busy = False

    # -- layout ------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Static("", id="player-tabs")
        with ContentSwitcher(initial="pane-sheet", id="player-panes"):
            with VerticalScroll(id="pane-sheet"):
                yield Static("Loading…", id="sheet")
            with VerticalScroll(id="pane-fight"):
                yield Static("", id="fight-steps")
                yield Static("", id="fight-strip")
                yield Static("", id="fight-info")
                yield CqcCardEditor(id="card", ascii_glyphs=door(self).ascii_glyphs)
            with VerticalScroll(id="pane-aircraft"):
                yield Static("", id="aircraft")
            yield AirPlanPane(id="pane-battles", ascii_glyphs=door(self).ascii_glyphs)
        yield Static("", id="status")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(CqcCardEditor).display = False
        door(self).on_campaign_changed(self, self._campaign_changed)
        self._tabs("sheet")
        self.load(first=True)

    def _campaign_changed(self, changed: CampaignChanged) -> None:
        """Another process (the GM, another player) wrote: read again."""
        if changed.source is not self and changed.change in (Change.FIGHT, Change.ROSTER,
                                                               Change.BATTLE):
            self.load()

    # -- reading -----------------------------------------------------------

    @work(thread=True, exclusive=True, group="player-load", exit_on_error=False)
    def load(self, first: bool = False) -> None:
        from ka_tui.store import players

        try:
            db = door(self).campaign_db()
            player = players.find_player(db, self.player_name)
            if first:  # the sheet (plain reads) while the logs' reads start up
                self.app.call_from_thread(self._show_sheet, player)
            fights = players.fights_of(db, player.character_id)
            try:
                battles = players.battles_of(db, player)
            except Exception:  # noqa: BLE001 — a damaged battle log hides only the battles
                battles = []
            index = min(self.fight_index, max(0, len(fights) - 1))
            progress = players.player_progress(db, fights[index]) if fights else None
            battles = [b for b in battles if b.status == "open"]
            bindex = min(self.battle_index, max(0, len(battles) - 1))
            try:
                seen = players.player_battle(db, battles[bindex]) if battles else None
            except Exception:  # noqa: BLE001 — a damaged battle log hides only the battle
                seen = None
        except Exception as error:  # noqa: BLE001 — one message, never a traceback
            self.app.call_from_thread(self._failed, error)
            return
        self.battle_index = bindex
        self.app.call_from_thread(self._loaded, player, fights, battles, index, progress, first,
                                  seen)

    def _failed(self, error: Exception) -> None:
        self.busy = False
        self._status(f"Cannot read the campaign: {error}", error=True)
        self.post_message(PlayerLoaded())

    def _loaded(self, player: Player, fights: list[PlayerFight], battles: list[PlayerBattle],
                index: int, progress: FightProgress | None, first: bool,
                seen: LoadedBattle | None = None) -> None:
        self.busy = False
        self.player, self.fights, self.battles = player, fights, battles
        self.fight_index, self.progress = index, progress
        self.sub_title = "player view"
        self._show_sheet(player)
        self._show_aircraft()
        self._show_battles(seen)
        self._show_fight()
        if first and progress is not None and progress.fight.over is False \
                and fights[index].status == "open":
            self.action_pane("fight")
        self.refresh_bindings()
        self.post_message(PlayerLoaded())

    # -- panes -----------------------------------------------------------------

    def _tabs(self, current: str) -> None:
        labels = {"sheet": "1 Sheet", "fight": "2 Fight", "aircraft": "3 Aircraft",
                  "battles": "4 Air battles"}
        parts = [Content(f" {labels[p]} ").stylize("reverse bold" if p == current else "")
                 for p in PANES]
        self.query_one("#player-tabs", Static).update(Content(" ").join(parts))

    def action_pane(self, pane: str) -> None:
        self.query_one(ContentSwitcher).current = f"pane-{pane}"
        self._tabs(pane)
        if pane == "fight" and self.query_one(CqcCardEditor).display:
            self.query_one(CqcCardEditor).focus()
        elif pane == "battles":
            self.set_focus(None)   # the plan keys are this screen's
            self.query_one(AirPlanPane).centre()
            if self.query_one(AirPlanPane).can_plan():
                self._plan_status()
        self.refresh_bindings()

    @property
    def pane(self) -> str:
        return (self.query_one(ContentSwitcher).current or "pane-sheet").removeprefix("pane-")

    def _show_battles(self, seen: LoadedBattle | None) -> None:
        battle = self.battles[self.battle_index] if self.battles else None
        self.query_one(AirPlanPane).show(battle, seen, len(self.battles))
        if self.pane == "battles":
            self._plan_status()

    # -- the fight ---------------------------------------------------------------

    def _own(self) -> tuple[str, ...]:
        if not self.fights:
            return ()
        return self.fights[self.fight_index].fighters

    def _show_fight(self) -> None:
        p = self.progress
        editor = self.query_one(CqcCardEditor)
        info = self.query_one("#fight-info", Static)
        strip = self.query_one("#fight-strip", Static)
        steps = self.query_one("#fight-steps", Static)
        ascii_glyphs = door(self).ascii_glyphs
        if p is None:
            steps.update("")
            strip.update("")
            info.update(Content("You are in no fight."))
            editor.display = False
            self.editing = None
            return
        fight = p.fight
        own = [fid for fid in self._own() if fid in card_order(fight)]
        step = p.step
        planning = (not p.ended and not p.over and step in (FightStep.PLAN, FightStep.REVEAL,
                                                              FightStep.DAMAGE)
                    and not p.needs_order and p.initiative is not None)
        rnd = fight.round
        steps.update(step_bar(2 if planning and step == FightStep.DAMAGE else int(step),
                              ascii_glyphs=ascii_glyphs))
        entered = p.sent if planning and step != FightStep.DAMAGE else ()
        strip.update(_join(fighter_lines(fight, entered=entered, show_cards=planning,
                                         ascii_glyphs=ascii_glyphs)))
        title = f"{p.name} · round {rnd if planning else p.round}"
        lines: list[Content] = [Content(title).stylize("bold")]
        if len(self.fights) > 1:
            lines.append(Content(f"(fight {self.fight_index + 1} of {len(self.fights)}; "
                                 "l: next)").stylize("$text-muted"))
        if step == FightStep.DAMAGE and p.reports:
            lines += damage_lines(p.before_last or p.start, fight, p.reports[-1])
        if p.ended:
            lines.append(Content("The fight has ended.").stylize("bold"))
        elif p.initiative is None or p.needs_order:
            lines.append(Content(f"Round {rnd}: the GM rolls the order of combat."))
        elif step == FightStep.ROLL:
            lines += revealed_lines(fight, p.round_cards)
            lines.append(Content("The cards are revealed; the GM rolls the dice.")
                         .stylize("$text-muted"))
        elif step == FightStep.RESOLVE and p.rolled is not None:
            lines += resolve_lines(fight, p.rolled, p.typed_dice)
            lines.append(Content("The GM applies the round.").stylize("$text-muted"))
        elif planning:
            lines.append(Content(cards_in_text(p) if step != FightStep.DAMAGE
                                 else f"0 of {len(card_order(fight))} cards in"))
            for fid in own:
                mine = p.cards.get(fid, ()) if step != FightStep.DAMAGE else ()
                name = fight.fighter(fid).name
                if mine:
                    shown = "; ".join(c.summary() for c in mine)
                    lines.append(Content(f"Your card is sent: {shown}").stylize("$success"))
                    lines.append(Content("It stays hidden until the GM reveals; change it "
                                         "and press enter to send it again.")
                                 .stylize("$text-muted"))
                else:
                    lines.append(Content(f"Fill in {name}'s card for round {rnd}, then press "
                                         "enter to send it.").stylize("bold $accent"))
            if not own:
                lines.append(Content("You have no opponent this round.")
                             .stylize("$text-muted"))
        elif p.over:
            lines.append(Content("The fight is over; the GM writes the outcome back.")
                         .stylize("bold"))
        info.update(_join(lines))
        if planning and own:
            owner = own[0]
            key = (p.fight_id, rnd, owner)
            if self.editing != key:
                mine = p.cards.get(owner, ()) if step != FightStep.DAMAGE else ()
                editor.load(fight, owner, p.rules.cqc, mine)
                self.editing = key
            editor.display = True
            if self.pane == "fight":
                editor.focus()
            self._card_status(editor)
        else:
            editor.display = False
            self.editing = None
            self._status(self.sent_note or "1 sheet · 2 fight · 3 aircraft · 4 air battles")
        self.sent_note = ""

    def on_cqc_card_editor_changed(self, event: CqcCardEditor.Changed) -> None:
        self._card_status(event.editor)

    def _card_status(self, editor: CqcCardEditor) -> None:
        if editor.draft is None:
            return
        if self.sent_note:
            self._status(self.sent_note)
            return
        errors = editor.errors()
        if errors:
            self._status(f"{editor.budget_text()} · cannot send: {errors[0].message}",
                         error=True)
        else:
            self._status(f"{editor.budget_text()} · enter: send the card (hidden until "
                         "the reveal)")

    # -- keys --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        on_battles = self.plan_action(action)
        if on_battles is not None:
            return on_battles
        if action == "send":
            editor = self.query_one(CqcCardEditor)
            return self.pane == "fight" and editor.display and editor.draft is not None
        if action == "next_fight":
            return len(self.fights) > 1
        if action == "next_aircraft":
            return self.player is not None and len(self.player.aircraft) > 1
        return True

    def action_next_fight(self) -> None:
        if self.pane == "battles":
            self.battle_index += 1
            if self.battle_index >= len(self.battles):
                self.battle_index = 0
            self.load()
        elif self.fights:
            self.fight_index = (self.fight_index + 1) % len(self.fights)
            self.editing = None
            self.load()

    def action_next_aircraft(self) -> None:
        if self.pane == "battles":
            self.query_one(AirPlanPane).next_unit()
            return
        self.aircraft_index += 1
        self._show_aircraft()

    def action_reload(self) -> None:
        self.load()

    def action_send(self) -> None:
        editor = self.query_one(CqcCardEditor)
        p = self.progress
        if p is None or editor.draft is None or self.busy or not self.fights:
            return
        errors = editor.errors()
        if errors:
            self.app.bell()
            self._status(f"Refused: {errors[0].message}", error=True)
            return
        self.busy = True
        fight = self.fights[self.fight_index]
        self._send(fight, p.fight.round, editor.draft.owner, editor.cards)

    @work(thread=True, group="player-send", exit_on_error=False)
    def _send(self, fight: PlayerFight, round_no: int, owner: str, cards: Any) -> None:
        from ka_tui.store import players
        from ka_tui.store.errors import StoreError

        try:
            progress = players.send_card(door(self).campaign_db(), fight, round_no, owner,
                                         cards)
        except StoreError as error:
            self.app.call_from_thread(self._refused, error)
            return
        self.app.call_from_thread(self._sent, progress)

    def _sent(self, progress: FightProgress) -> None:
        self.busy = False
        self.progress = progress
        self.editing = None  # show the card as the file holds it
        self.sent_note = "Card sent: the GM sees that it is in, not what is on it."
        self._show_fight()
        door(self).campaign_changed(CampaignChanged(Change.FIGHT, self))
        self.post_message(PlayerLoaded())

    def _refused(self, error: Exception) -> None:
        """Not saved (the GM revealed, or entered this card meanwhile): say why
        and show the fight as it is now."""
        self.busy = False
        self.editing = None
        self.notify(str(error), title="The card was not sent", severity="error")
        self.sent_note = f"Not sent: {error}"
        self.load()

    def _status(self, text: str, *, error: bool = False) -> None:
        content = Content(text).stylize("bold $error" if error else "$text-muted")
        self.query_one("#status", Static).update(content)
