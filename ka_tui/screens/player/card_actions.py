"""The player screen's close combat (S0 §Close combat): pane 2 shown
from what was read, and his own CQC card sent at step 2 (enter), changeable
until the GM reveals. Mixed into ``PlayerScreen`` (``CardHost``: what the
mixin asks of it); the pane itself (``fight_pane.py``, with the rules and the
card editor) is mounted when first shown. Writes only through
``store/players.py``, with ``store_work``: the keys typed while the card is
sent wait for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ka_tui.screens.door import Change
from ka_tui.screens.player.panes import (
    PANES_HELP,
    PlayerHost,
    PlayerLoaded,
    mounted_pane,
)
from ka_tui.screens.store_work import store_work

if TYPE_CHECKING:
    from ka_tui.rules.cqc.log import FightProgress
    from ka_tui.screens.player.fight_pane import FightPane
    from ka_tui.store.db import CampaignDB
    from ka_tui.store.player_data import PlayerFight
    from ka_tui.widgets.cqc_card import CqcCardEditor


class CardHost(PlayerHost, Protocol):
    """The player's screen as the card mixin sees it (``PlayerScreen`` is one)."""

    fights: list[PlayerFight]
    fight_index: int
    progress: FightProgress | None

    def fight_pane(self) -> FightPane | None: ...

    def _own(self) -> tuple[str, ...]: ...

    def _show_fight(self) -> None: ...

    def card_due(self) -> str: ...

    def _forget_card(self) -> None: ...

    def _card_status(self, editor: CqcCardEditor) -> None: ...

    def _sent(self, progress: FightProgress) -> None: ...

    def _refused(self, error: Exception) -> None: ...


class CardActions:
    """Pane 2 and the card: mixed into ``PlayerScreen`` (a ``CardHost``)."""

    fights: list[PlayerFight]
    fight_index: int
    progress: FightProgress | None
    sent_note: str

    def fight_pane(self: CardHost) -> FightPane | None:
        """Pane 2, once it has been shown."""
        return mounted_pane(self, "pane-fight")  # type: ignore[no-any-return]

    def _own(self: CardHost) -> tuple[str, ...]:
        if not self.fights:
            return ()
        return self.fights[self.fight_index].fighters

    def card_due(self: CardHost) -> str:
        """The round whose card one of his fighters still owes (S0 §Close
        combat 2), as a line for every pane; empty: none due. Without a fight
        shown, the fight's rules are not imported (his first frame)."""
        p = self.progress
        if p is None:
            return ""
        from ka_tui.rules.cqc.log import FightStep

        if p.over or p.step is not FightStep.PLAN:
            return ""
        if not set(self._own()) & set(p.to_enter):
            return ""
        return f"Your card for round {p.fight.round} is due: 2 opens the fight"

    def _show_fight(self: CardHost) -> None:
        pane = self.fight_pane()
        on_pane = self.pane == "fight"
        editing = pane is not None and pane.show(self.progress, self._own(),
                                                 index=self.fight_index,
                                                 count=len(self.fights), focus=on_pane)
        if on_pane and editing and pane is not None:
            self._card_status(pane.editor)
        elif on_pane:
            self._status(self.sent_note or PANES_HELP)
        elif self.pane != "battles":  # pane 4's status is its plan's
            self._status(self.card_due() or PANES_HELP)
        self.sent_note = ""

    def _forget_card(self: CardHost) -> None:
        """The card is shown as the file holds it at the next read."""
        pane = self.fight_pane()
        if pane is not None:
            pane.editing = None

    def on_cqc_card_editor_changed(self: CardHost, event: CqcCardEditor.Changed) -> None:
        self._card_status(event.editor)

    def _card_status(self: CardHost, editor: CqcCardEditor) -> None:
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

    def action_send(self: CardHost) -> None:
        pane = self.fight_pane()
        p = self.progress
        draft = pane.editor.draft if pane is not None else None
        player = self.player
        if pane is None or p is None or draft is None or not self.fights or player is None:
            return
        editor = pane.editor
        errors = editor.errors()
        if errors:
            self.app.bell()
            self._status(f"Refused: {errors[0].message}", error=True)
            return
        fight, round_no, owner, cards = (self.fights[self.fight_index], p.fight.round,
                                         draft.owner, editor.cards)

        def job(db: CampaignDB) -> FightProgress:
            from ka_tui.store import players

            return players.send_card(db, player, fight, round_no, owner, cards)

        store_work(self.screen, job, group="player-send", publish=Change.FIGHT,
                   done=self._sent, failed=self._refused)

    def _sent(self: CardHost, progress: FightProgress) -> None:
        self.progress = progress
        self._forget_card()  # show the card as the file holds it
        self.sent_note = "Card sent: the GM sees that it is in, not what is on it."
        self._show_fight()
        self.post_message(PlayerLoaded())

    def _refused(self: CardHost, error: Exception) -> None:
        """Not saved (the GM revealed, or entered this card meanwhile): say why
        and show the fight as it is now."""
        self._forget_card()
        self.notify(str(error), title="The card was not sent", severity="error")
        self.sent_note = f"Not sent: {error}"
        self.load()
