"""The player's sheet and flight-card panes (panes 1 and 3 of
``PlayerScreen``): his character as the roster's detail shows it, and the
flight card of each aircraft he flies or crews (``n`` the next one). Read
only: the GM changes both."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import Static

from ka_tui.screens.door import door
from ka_tui.screens.player.panes import PlayerHost
from ka_tui.screens.store_work import store_work

if TYPE_CHECKING:
    from rich.text import Text

    from ka_tui.store.db import CampaignDB
    from ka_tui.store.player_data import Player


class SheetPanes:
    """Mixed into ``PlayerScreen``: panes 1 and 3."""

    player: Player | None
    aircraft_index: int

    def _show_sheet(self: PlayerHost, player: Player) -> None:
        from ka_tui.screens.roster.view import character_detail

        c = player.character
        text = character_detail(c, {"skills": c["skills"], "weapons": c["weapons"]}, width=44)
        seats = [f"  {name} ({seat})" for _, name, seat in player.aircraft] or ["  none"]
        self.query_one("#sheet", Static).update(
            text + "\n[b]Aircraft[/b]\n" + "\n".join(seats)
            + "\n[dim]You play this character; only the GM changes the sheet.[/]")

    _aircraft_shown = False  # pane 3 has been shown (its card is read from then on)

    def _show_aircraft(self: PlayerHost) -> None:
        if self.pane == "aircraft":
            self._aircraft_shown = True
        if not self._aircraft_shown:
            return  # read when pane 3 is first shown (not for the first frame)
        box = self.query_one("#aircraft", Static)
        if self.player is None or not self.player.aircraft:
            box.update("You fly no aircraft in this campaign.")
            return
        self._load_aircraft(self.player.aircraft[self.aircraft_index
                                                 % len(self.player.aircraft)][0])

    def _load_aircraft(self: PlayerHost, aircraft_id: int) -> None:
        ascii_only = door(self.screen).ascii_glyphs

        def job(db: CampaignDB) -> Text:
            from rich.text import Text

            from ka_tui.store.aircraft_view import load_aircraft_view
            from ka_tui.widgets.flight_card import (
                header_line,
                hex_block,
                s0_block,
                status_block,
                to_ascii,
            )

            view = load_aircraft_view(db, aircraft_id)
            p, s = view.profile, view.status
            text = Text("\n\n").join([header_line(p, s), s0_block(p, s, wide=False, rules=False),
                                       hex_block(p), status_block(p, s)])
            return to_ascii(text) if ascii_only else text

        store_work(self.screen, job, group="player-aircraft", exclusive=True,
                   done=self.query_one("#aircraft", Static).update, errors=(Exception,),
                   failed=lambda e: self._status(str(e), error=True))
