"""The player screen's keys for pane 4, his aircraft's move plan:
the plan keys, ``p`` (typed), enter (send), ``l`` / ``n`` (next battle, next
of his aircraft there). Mixed into ``PlayerScreen``; the pane itself
(``air_plan.py``, with the air engine) is loaded when first shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ka_tui.screens.door import Change
from ka_tui.screens.player.panes import PANES_HELP, PlayerHost, PlayerLoaded, mounted_pane
from ka_tui.screens.store_work import store_work

if TYPE_CHECKING:
    from ka_tui.rules.air.move_plan import Plan
    from ka_tui.screens.player.air_plan import AirPlanPane
    from ka_tui.store.battles import LoadedBattle
    from ka_tui.store.db import CampaignDB
    from ka_tui.store.player_data import Player, PlayerBattle


class PlanActions:
    """The player screen's keys for pane 4 (mixed into ``PlayerScreen``): the
    plan keys, ``p`` (typed), enter (send), ``l`` / ``n`` (next battle,
    next of his aircraft there). Writes only through ``store/players.py``."""

    player: Player | None
    battles: list[PlayerBattle]
    battle_index: int
    seen: LoadedBattle | None
    sent_note: str

    def plan_pane(self) -> AirPlanPane | None:
        """Pane 4, once it has been shown (it is mounted then)."""
        return mounted_pane(self, "pane-battles")  # type: ignore[no-any-return]

    def plan_action(self: PlayerHost, action: str) -> bool | None:
        """``check_action`` for pane 4's actions; None: not one of them."""
        pane = self.plan_pane()
        on_pane = self.pane == "battles" and pane is not None
        if action in ("plan", "type_plan", "send_plan"):
            return on_pane and pane is not None and bool(pane.can_plan())
        if action == "next_fight" and on_pane:
            return len(self.battles) > 1
        if action == "next_aircraft" and on_pane:
            return pane is not None and pane.battle is not None and len(pane.battle.units) > 1
        return None

    def action_plan(self: PlayerHost, code: str) -> None:
        pane = self.plan_pane()
        if pane is not None:
            pane.key(code)
            self._plan_status()

    def on_air_plan_pane_changed(self: PlayerHost, event: AirPlanPane.Changed) -> None:
        self._plan_status()

    def action_type_plan(self) -> None:
        pane = self.plan_pane()
        if pane is not None:
            pane.open_typed()

    def _plan_status(self: PlayerHost) -> None:
        pane = self.plan_pane()
        if pane is None or not pane.can_plan():
            self._status(PANES_HELP)
            return
        if pane.plan_empty():   # nothing typed yet: what to do, not an error
            self._status("build the plan (f [ ] + - c d m e, p: type); enter sends it")
            return
        why = pane.refusal()
        self._status(f"not ready to send: {why}" if why else
                     "enter: send the plan to the GM (no other player sees it)",
                     error=bool(why))

    def action_send_plan(self: PlayerHost) -> None:
        pane = self.plan_pane()
        player = self.player
        if pane is None or player is None or pane.battle is None or pane.runner is None:
            return
        why = pane.refusal()
        if why is not None:
            self.app.bell()
            self._status(f"Refused: {why}", error=True)
            return
        uid, battle, runner = pane.unit_id, pane.battle, pane.runner
        if uid is None:
            return
        plan, evasive = runner.plan(uid), uid in runner.evasive

        def job(db: CampaignDB) -> LoadedBattle:
            from ka_tui.store import players

            return players.send_plan(db, player, battle, uid, plan, evasive)

        store_work(self.screen, job, group="player-send", publish=Change.BATTLE,
                   done=lambda seen: self._plan_sent(battle, seen), failed=self._plan_refused)

    def _plan_sent(self: PlayerHost, battle: PlayerBattle, seen: LoadedBattle) -> None:
        self.seen = seen
        pane = self.plan_pane()
        if pane is not None:
            pane.show(battle, seen, len(self.battles))
        self._status("Plan sent: the GM sees that it is in; no other player sees it.")
        self.post_message(PlayerLoaded())

    def _plan_refused(self: PlayerHost, error: Exception) -> None:
        """Not saved (his aircraft moved meanwhile, the turn ended …): say why
        and show the battle as it is now."""
        self.notify(str(error), title="The plan was not sent", severity="error")
        self.sent_note = f"Not sent: {error}"
        self.load()
