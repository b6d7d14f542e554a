"""A player's own view of the campaign (``ka-tui play --as NAME``).

Four panes on number keys: 1 the character's sheet (characteristics, skills,
weapons), 2 his close combat, 3 his aircraft's flight card, 4 the air
battles he is in. When the GM's fight is at step 2 (S0 §Close combat: each
fills in his CQC card in secret), pane 2 holds his own card in the same
editor and with the same refusals as the GM's (``widgets/cqc_card.py``);
enter sends it, and it can be changed and sent again until the GM reveals.
Pane 4 (``air_plan.py``) is the GM's planning view for the aircraft he
pilots: from the turn's start until it moves he builds its plan with the
GM's keys, sees path, costs and odds, and enter sends it for the GM to
execute (changeable until then). Panes 2, 3 and 4 are built or read the
first time they are shown (``fight_pane.py``, ``air_plan.py``): the first
frame is the sheet, with nothing of the rules engine loaded for it.

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
from textual.widget import Widget
from textual.widgets import ContentSwitcher, Header, Static

from ka_tui.screens.air.plan_key_table import PLAN_KEYS
from ka_tui.screens.door import CampaignChanged, Change, door, when_read
from ka_tui.screens.player.card_actions import CardActions
from ka_tui.screens.player.panes import PANES_HELP, PlayerLoaded
from ka_tui.screens.player.plan_actions import PlanActions
from ka_tui.screens.player.sheet import SheetPanes
from ka_tui.screens.store_work import store_work
from ka_tui.store.errors import StoreError
from ka_tui.widgets.key_gate import when_quiet
from ka_tui.widgets.quiet_footer import QuietFooter

if TYPE_CHECKING:
    from ka_tui.rules.cqc.log import FightProgress
    from ka_tui.store.battles import LoadedBattle
    from ka_tui.store.db import CampaignDB
    from ka_tui.store.player_data import Player, PlayerBattle, PlayerFight, PlayerView

PANES = ("sheet", "fight", "aircraft", "battles")


class PlayerScreen(SheetPanes, CardActions, PlanActions, Screen[None]):
    HELP_TITLE = "Player"
    CSS_PATH = "player.tcss"

    BINDINGS = [
        # the pane keys are on the tab line above: the footer keeps its room
        Binding("1,f1", "pane('sheet')", "Sheet", show=False, id="player.sheet"),
        Binding("2,f2", "pane('fight')", "Fight", show=False, id="player.fight"),
        Binding("3,f3", "pane('aircraft')", "Aircraft", show=False, id="player.aircraft"),
        Binding("4,f4", "pane('battles')", "Air battles", show=False, id="player.battles"),
        Binding("enter", "send", "Send card", id="player.send"),
        Binding("enter", "send_plan", "Send plan", id="player.send_plan"),
        Binding("l", "next_fight", "Next", show=False, id="player.next_fight"),
        Binding("n", "next_aircraft", "Next aircraft", show=False, id="player.next_aircraft"),
        Binding("ctrl+r", "reload", "Reload", show=False, id="player.reload"),
        Binding("p", "type_plan", "Type plan", id="player.type_plan"),
        *(Binding(key, f"plan('{code}')", desc, show=False, id=f"player.plan.{code}")
          for code, key, desc in PLAN_KEYS),
    ]

    PALETTE_HELP = {
        "player.send": "Send your CQC card to the GM (it stays hidden until the reveal; "
                       "change it and send again until then)",
        "player.send_plan": "Send your aircraft's move plan to the GM (no one else sees it; "
                            "change it and send again until the GM executes it)",
        "player.type_plan": "Type the plan in the notation: +1 F F R F C D LOOP LAND",
        **{f"player.plan.{code}": f"Plan: {desc}" for code, _k, desc in PLAN_KEYS},
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
        self.seen: LoadedBattle | None = None  # the battle shown in pane 4
        self._view: PlayerView | None = None  # a read whose details are not taken yet
        self._reads = 0  # reads begun since mount (a startup read older than one is dropped)
        self.sent_note = ""

    # -- layout ------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Static("", id="player-tabs")
        with ContentSwitcher(initial="pane-sheet", id="player-panes"):
            # panes 2 and 4 (fight, air battles) are mounted when first shown
            with VerticalScroll(id="pane-sheet"):
                yield Static("Loading…", id="sheet")
            with VerticalScroll(id="pane-aircraft"):
                yield Static("", id="aircraft")
        yield Static("", id="status")
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        door(self).on_campaign_changed(self, self._campaign_changed)
        self._tabs("sheet")
        self.load(first=True)

    def _campaign_changed(self, changed: CampaignChanged) -> None:
        """Another process (the GM, another player) wrote: read again."""
        if changed.source is not self and changed.change in (Change.FIGHT, Change.ROSTER,
                                                               Change.BATTLE):
            self.load()

    # -- reading -----------------------------------------------------------

    def load(self, first: bool = False) -> None:
        """Read the player's view (``players.player_view``) in a worker; the
        first time, take the read begun before the app when there is one."""
        startup = door(self).take_startup_read() if first else None
        if startup is None:
            self._reads += 1
            self._read(first)
            return
        when_read(self, startup, self._startup_read)

    def _startup_read(self, future: Any) -> None:
        if self._reads:
            return  # a read begun since (ctrl+r, another's change) is newer
        try:
            view = future.result()
        except Exception:  # noqa: BLE001 - read again the usual way; its error shows there
            self._reads += 1
            self._read(True)
            return
        self._loaded(view, True)

    def _read(self, first: bool) -> None:
        name, fights, battles = self.player_name, self.fight_index, self.battle_index

        def job(db: CampaignDB) -> PlayerView:
            from ka_tui.store import players

            return players.player_view(db, name, fights, battles)

        store_work(self, job, group="player-load", exclusive=True,
                   done=lambda view: self._loaded(view, first), failed=self._failed,
                   errors=(Exception,))  # one message, never a traceback

    def _failed(self, error: Exception) -> None:
        self._status(f"Cannot read the campaign: {error}", error=True)
        self.post_message(PlayerLoaded())

    def _loaded(self, view: PlayerView, first: bool) -> None:
        if first:
            self.set_timer(1.0, lambda: when_quiet(self, self._warm_up))
        self.player, self.fights, self.battles = view.player, view.fights, view.battles
        self.fight_index, self.battle_index = view.fight_index, view.battle_index
        self._view = view
        if view.later is None or self.fight_pane() or self.plan_pane():
            self._take_details()
        self.sub_title = "player view"
        self._show_sheet(view.player)
        self._show_aircraft()
        self._show_fight()
        self._show_battles()  # after the fight: on pane 4 its status is the one shown
        self._tabs(self.pane)  # "2 Fight (card due)" on every pane
        if first and view.cards_due:
            self.call_later(self._first_pane, "fight")
            return
        self.refresh_bindings()
        self.post_message(PlayerLoaded())

    def _take_details(self) -> None:
        """The fight and battle as he may see them (rules objects): a startup
        read brings them pickled (or sends them after his first frame),
        unpickled when a pane first needs them. When they never came (the
        read's child died), his view is read again."""
        view, self._view = self._view, None
        if view is None:
            return
        try:
            self.progress, self.seen = view.details()
        except StoreError:
            self.load()

    @work(thread=True, group="player-warm", exit_on_error=False)
    def _warm_up(self) -> None:
        """Panes 2 and 4 load their modules (and the startup read its rules
        objects) after the first frame, so the first press of 2 or 4 does not
        wait for them."""
        import ka_tui.screens.player.air_plan  # noqa: F401
        import ka_tui.screens.player.fight_pane  # noqa: F401

        view = self._view
        if view is not None:
            view.details()

    async def _first_pane(self, pane: str) -> None:
        await self.action_pane(pane)
        self.post_message(PlayerLoaded())

    # -- panes -----------------------------------------------------------------

    def _tabs(self, current: str) -> None:
        due = " (card due)" if self.card_due() else ""
        labels = {"sheet": "1 Sheet", "fight": f"2 Fight{due}", "aircraft": "3 Aircraft",
                  "battles": "4 Air battles"}
        parts = [Content(f" {labels[p]} ").stylize("reverse bold" if p == current else "")
                 for p in PANES]
        self.query_one("#player-tabs", Static).update(Content(" ").join(parts))

    async def action_pane(self, pane: str) -> None:
        await self._mount_pane(pane)
        self.query_one(ContentSwitcher).current = f"pane-{pane}"
        self._tabs(pane)
        if pane == "aircraft" and not self._aircraft_shown:
            self._show_aircraft()
        fight = self.fight_pane()
        plan = self.plan_pane()
        # each pane says what its own enter does (the status line is shared)
        if pane == "fight" and fight is not None and fight.can_send():
            fight.editor.focus()
            self._card_status(fight.editor)
        elif pane == "battles" and plan is not None:
            self.set_focus(None)   # the plan keys are this screen's
            plan.centre()
            self._plan_status()
        else:
            self._status(("" if pane == "fight" else self.card_due()) or PANES_HELP)
        self.refresh_bindings()

    async def _mount_pane(self, pane: str) -> None:
        """Panes 2 and 4 the first time they are shown, filled from what was read
        (their rules, card editor and map load then, not for the first frame)."""
        if self.query(f"#pane-{pane}") or pane not in ("fight", "battles"):
            return
        widget: Widget
        if pane == "fight":
            from ka_tui.screens.player.fight_pane import FightPane

            widget = FightPane(id="pane-fight", ascii_glyphs=door(self).ascii_glyphs)
        else:
            from ka_tui.screens.player.air_plan import AirPlanPane

            widget = AirPlanPane(id="pane-battles", ascii_glyphs=door(self).ascii_glyphs)
        widget.display = False  # the switcher shows it
        self._take_details()
        await self.query_one(ContentSwitcher).mount(widget)
        if pane == "fight":
            self._show_fight()
        else:
            self._show_battles()

    @property
    def pane(self) -> str:
        return (self.query_one(ContentSwitcher).current or "pane-sheet").removeprefix("pane-")

    def _show_battles(self) -> None:
        pane = self.plan_pane()
        if pane is None:
            return
        battle = self.battles[self.battle_index] if self.battles else None
        pane.show(battle, self.seen, len(self.battles))
        if self.pane == "battles":
            self._plan_status()

    # -- keys --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        on_battles = self.plan_action(action)
        if on_battles is not None:
            return on_battles
        if action == "send":
            fight = self.fight_pane()
            return self.pane == "fight" and fight is not None and fight.can_send()
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
            self._forget_card()
            self.load()

    def action_next_aircraft(self) -> None:
        plan = self.plan_pane()
        if self.pane == "battles" and plan is not None:
            plan.next_unit()
            return
        self.aircraft_index += 1
        self._show_aircraft()

    def action_reload(self) -> None:
        self.load()

    def _status(self, text: str, *, error: bool = False) -> None:
        content = Content(text).stylize("bold $error" if error else "$text-muted")
        self.query_one("#status", Static).update(content)
