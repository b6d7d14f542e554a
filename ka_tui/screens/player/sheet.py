"""The player's sheet and flight-card panes (issue 14; panes 1 and 3 of
``PlayerScreen``): his character as the roster's detail shows it, and the
flight card of each aircraft he flies or crews (``n`` the next one). Read
only: the GM changes both."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import work
from textual.widgets import Static

from ka_tui.screens.door import door

if TYPE_CHECKING:
    from ka_tui.store.player_data import Player


class SheetPanes:
    """Mixed into ``PlayerScreen``: panes 1 and 3."""

    player: Player | None
    aircraft_index: int

    def _show_sheet(self, player: Player) -> None:
        screen: Any = self
        from ka_tui.screens.roster.view import character_detail

        c = player.character
        text = character_detail(c, {"skills": c["skills"], "weapons": c["weapons"]}, width=44)
        seats = [f"  {name} ({seat})" for _, name, seat in player.aircraft] or ["  none"]
        screen.query_one("#sheet", Static).update(
            text + "\n[b]Aircraft[/b]\n" + "\n".join(seats)
            + "\n[dim]You play this character; only the GM changes the sheet.[/]")

    _aircraft_shown = False  # pane 3 has been shown (its card is read from then on)

    def _show_aircraft(self) -> None:
        screen: Any = self
        if screen.pane == "aircraft":
            self._aircraft_shown = True
        if not self._aircraft_shown:
            return  # read when pane 3 is first shown (issue 13: not on the first frame)
        box = screen.query_one("#aircraft", Static)
        if self.player is None or not self.player.aircraft:
            box.update("You fly no aircraft in this campaign.")
            return
        self._load_aircraft(self.player.aircraft[self.aircraft_index
                                                 % len(self.player.aircraft)][0])

    @work(thread=True, exclusive=True, group="player-aircraft", exit_on_error=False)
    def _load_aircraft(self, aircraft_id: int) -> None:
        screen: Any = self
        from ka_tui.store.aircraft_view import load_aircraft_view
        from ka_tui.widgets.flight_card import (
            header_line,
            hex_block,
            s0_block,
            status_block,
        )

        try:
            view = load_aircraft_view(door(screen).campaign_db(), aircraft_id)
        except Exception as error:  # noqa: BLE001
            screen.app.call_from_thread(screen._status, str(error), error=True)
            return
        p, s = view.profile, view.status
        parts = [header_line(p, s), s0_block(p, s, wide=False, rules=False), hex_block(p),
                 status_block(p, s)]
        from rich.text import Text

        text = Text("\n\n").join(parts)
        if door(screen).ascii_glyphs:
            from ka_tui.widgets.flight_card import to_ascii

            text = to_ascii(text)
        screen.app.call_from_thread(screen.query_one("#aircraft", Static).update, text)
