"""The player screen's keys for pane 4, his aircraft's move plan (issue 14):
the plan keys, ``p`` (typed), enter (send), ``l`` / ``n`` (next battle, next
of his aircraft there). Mixed into ``PlayerScreen``; the pane itself
(``air_plan.py``, with the air engine) is loaded when first shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ka_tui.screens.door import CampaignChanged, Change, door
from ka_tui.screens.player.panes import PANES_HELP, PlayerLoaded, mounted_pane

if TYPE_CHECKING:
    from ka_tui.rules.air.move_plan import Plan
    from ka_tui.screens.player.air_plan import AirPlanPane
    from ka_tui.store.battles import LoadedBattle
    from ka_tui.store.player_data import Player, PlayerBattle

class PlanActions:
    """The player screen's keys for pane 4 (mixed into ``PlayerScreen``): the
    plan keys, ``p`` (typed), enter (send), ``l`` / ``n`` (next battle,
    next of his aircraft there). Writes only through ``store/players.py``."""

    player: Player | None
    battles: list[PlayerBattle]
    battle_index: int
    busy: bool

    def plan_pane(self) -> AirPlanPane | None:
        """Pane 4, once it has been shown (it is mounted then: issue 13)."""
        return mounted_pane(self, "pane-battles")  # type: ignore[no-any-return]

    def plan_action(self, action: str) -> bool | None:
        """``check_action`` for pane 4's actions; None: not one of them."""
        screen: Any = self
        pane = self.plan_pane()
        on_pane = screen.pane == "battles" and pane is not None
        if action in ("plan", "type_plan", "send_plan"):
            return on_pane and pane is not None and bool(pane.can_plan())
        if action == "next_fight" and on_pane:
            return len(self.battles) > 1
        if action == "next_aircraft" and on_pane:
            return pane is not None and pane.battle is not None and len(pane.battle.units) > 1
        return None

    def action_plan(self, code: str) -> None:
        pane = self.plan_pane()
        if pane is not None:
            pane.key(code)
            self._plan_status()

    def on_air_plan_pane_changed(self, event: AirPlanPane.Changed) -> None:
        self._plan_status()

    def action_type_plan(self) -> None:
        pane = self.plan_pane()
        if pane is not None:
            pane.open_typed()

    def _plan_status(self) -> None:
        screen: Any = self
        pane = self.plan_pane()
        if pane is None or not pane.can_plan():
            screen._status(PANES_HELP)
            return
        why = pane.refusal()
        screen._status(f"cannot send: {why}" if why else
                       "enter: send the plan to the GM (no other player sees it)",
                       error=bool(why))

    def action_send_plan(self) -> None:
        screen: Any = self
        pane = self.plan_pane()
        if (pane is None or self.busy or self.player is None or pane.battle is None
                or pane.runner is None):
            return
        why = pane.refusal()
        if why is not None:
            screen.app.bell()
            screen._status(f"Refused: {why}", error=True)
            return
        uid, battle, runner = pane.unit_id, pane.battle, pane.runner
        if uid is None:
            return
        self.busy = True
        screen.run_worker(lambda: self._send_plan(battle, uid, runner.plan(uid),
                                                  uid in runner.evasive),
                          thread=True, group="player-send", exit_on_error=False)

    def _send_plan(self, battle: PlayerBattle, uid: str, plan: Plan, evasive: bool) -> None:
        from ka_tui.store import players
        from ka_tui.store.errors import StoreError

        screen: Any = self
        assert self.player is not None
        try:
            seen = players.send_plan(door(screen).campaign_db(), self.player, battle, uid,
                                     plan, evasive)
        except StoreError as error:
            screen.app.call_from_thread(self._plan_refused, error)
            return
        screen.app.call_from_thread(self._plan_sent, battle, seen)

    def _plan_sent(self, battle: PlayerBattle, seen: LoadedBattle) -> None:
        screen: Any = self
        self.busy = False
        screen.seen = seen
        pane = self.plan_pane()
        if pane is not None:
            pane.show(battle, seen, len(self.battles))
        screen._status("Plan sent: the GM sees that it is in; no other player sees it.")
        door(screen).campaign_changed(CampaignChanged(Change.BATTLE, screen))
        screen.post_message(PlayerLoaded())

    def _plan_refused(self, error: Exception) -> None:
        """Not saved (his aircraft moved meanwhile, the turn ended …): say why
        and show the battle as it is now."""
        screen: Any = self
        self.busy = False
        screen.notify(str(error), title="The plan was not sent", severity="error")
        screen.sent_note = f"Not sent: {error}"
        screen.load()
