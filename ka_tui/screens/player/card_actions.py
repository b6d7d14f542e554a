"""The player screen's close combat (S0 §Close combat): pane 2 shown
from what was read, and his own CQC card sent at step 2 (enter), changeable
until the GM reveals. Mixed into ``PlayerScreen``; the pane itself
(``fight_pane.py``, with the rules and the card editor) is mounted when first
shown. Writes only through ``store/players.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ka_tui.screens.door import CampaignChanged, Change, door
from ka_tui.screens.player.panes import PANES_HELP, PlayerLoaded, mounted_pane

if TYPE_CHECKING:
    from ka_tui.rules.cqc.log import FightProgress
    from ka_tui.screens.player.fight_pane import FightPane
    from ka_tui.store.player_data import PlayerFight
    from ka_tui.widgets.cqc_card import CqcCardEditor


class CardActions:
    """Pane 2 and the card: mixed into ``PlayerScreen`` (its ``fights``,
    ``fight_index``, ``progress``, ``busy``, ``sent_note``, ``pane``, ``load``
    and ``_status``)."""

    fights: list[PlayerFight]
    fight_index: int
    progress: FightProgress | None
    busy: bool
    sent_note: str

    def fight_pane(self) -> FightPane | None:
        """Pane 2, once it has been shown."""
        return mounted_pane(self, "pane-fight")  # type: ignore[no-any-return]

    def _own(self) -> tuple[str, ...]:
        if not self.fights:
            return ()
        return self.fights[self.fight_index].fighters

    def card_due(self) -> str:
        """The round whose card one of his fighters still owes (S0 §Close
        combat 2), as a line for every pane; empty: none due."""
        from ka_tui.rules.cqc.log import FightStep

        p = self.progress
        if p is None or p.over or p.step is not FightStep.PLAN:
            return ""
        if not set(self._own()) & set(p.to_enter):
            return ""
        return f"Your card for round {p.fight.round} is due: 2 opens the fight"

    def _show_fight(self) -> None:
        screen: Any = self
        pane = self.fight_pane()
        on_pane = screen.pane == "fight"
        editing = pane is not None and pane.show(self.progress, self._own(),
                                                 index=self.fight_index,
                                                 count=len(self.fights), focus=on_pane)
        if on_pane and editing and pane is not None:
            self._card_status(pane.editor)
        elif on_pane:
            screen._status(self.sent_note or PANES_HELP)
        elif screen.pane != "battles":  # pane 4's status is its plan's
            screen._status(self.card_due() or PANES_HELP)
        self.sent_note = ""

    def _forget_card(self) -> None:
        """The card is shown as the file holds it at the next read."""
        pane = self.fight_pane()
        if pane is not None:
            pane.editing = None

    def on_cqc_card_editor_changed(self, event: CqcCardEditor.Changed) -> None:
        self._card_status(event.editor)

    def _card_status(self, editor: CqcCardEditor) -> None:
        screen: Any = self
        if editor.draft is None:
            return
        if self.sent_note:
            screen._status(self.sent_note)
            return
        errors = editor.errors()
        if errors:
            screen._status(f"{editor.budget_text()} · cannot send: {errors[0].message}",
                           error=True)
        else:
            screen._status(f"{editor.budget_text()} · enter: send the card (hidden until "
                           "the reveal)")

    def action_send(self) -> None:
        screen: Any = self
        pane = self.fight_pane()
        p = self.progress
        draft = pane.editor.draft if pane is not None else None
        if pane is None or p is None or draft is None or self.busy or not self.fights:
            return
        editor = pane.editor
        errors = editor.errors()
        if errors:
            screen.app.bell()
            screen._status(f"Refused: {errors[0].message}", error=True)
            return
        self.busy = True
        fight = self.fights[self.fight_index]
        screen.run_worker(lambda: self._send(fight, p.fight.round, draft.owner, editor.cards),
                          thread=True, group="player-send", exit_on_error=False)

    def _send(self, fight: PlayerFight, round_no: int, owner: str, cards: Any) -> None:
        from ka_tui.store import players
        from ka_tui.store.errors import StoreError

        screen: Any = self
        try:
            progress = players.send_card(door(screen).campaign_db(), fight, round_no, owner,
                                         cards)
        except StoreError as error:
            screen.app.call_from_thread(self._refused, error)
            return
        screen.app.call_from_thread(self._sent, progress)

    def _sent(self, progress: FightProgress) -> None:
        screen: Any = self
        self.busy = False
        self.progress = progress
        self._forget_card()  # show the card as the file holds it
        self.sent_note = "Card sent: the GM sees that it is in, not what is on it."
        self._show_fight()
        door(screen).campaign_changed(CampaignChanged(Change.FIGHT, screen))
        screen.post_message(PlayerLoaded())

    def _refused(self, error: Exception) -> None:
        """Not saved (the GM revealed, or entered this card meanwhile): say why
        and show the fight as it is now."""
        screen: Any = self
        self.busy = False
        self._forget_card()
        screen.notify(str(error), title="The card was not sent", severity="error")
        self.sent_note = f"Not sent: {error}"
        screen.load()
