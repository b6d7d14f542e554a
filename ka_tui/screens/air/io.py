"""Loading a battle and saving each step, in order (issue 10): every step is
one transaction through ``data.py`` (``store/battles``), written by one worker
in the order the steps were done; a refused write (another window wrote
first) reloads the battle and says so."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import work
from textual.content import Content
from textual.widgets import Static

from ka_tui.screens.air.base import AirBase
from ka_tui.widgets.hex_map import HexMap

if TYPE_CHECKING:
    from ka_tui.screens.air.data import Loaded


class BattleIO(AirBase):

    @work(thread=True, exclusive=True, group="air-load", exit_on_error=False)
    def load(self, battle_id: int | None) -> None:
        from ka_tui.screens.air import data

        try:
            db = self.campaign_db()
            bid = battle_id if battle_id is not None else data.newest_open(db)
            loaded = None if bid is None else data.load_battle(db, bid)
        except Exception as error:  # noqa: BLE001 - shown to the GM
            self.app.call_from_thread(self._status, f"cannot read the battle: {error}")
            return
        self.app.call_from_thread(self.show_loaded, loaded)

    def show_loaded(self, loaded: Loaded | None) -> None:
        from ka_tui.screens.air.runner import Runner

        self.loaded = loaded
        self.runner = None if loaded is None else Runner(loaded.battle)
        hex_map = self.query_one(HexMap)
        if loaded is None:
            self.query_one("#air-phases", Static).update("Air battle")
            self.query_one("#air-next", Static).update(
                "No battle running. n: start a new one · l: list the battles")
            self._detail([])
            self.set_focus(None)
            self.refresh_bindings()
            return
        hex_map.set_map(loaded.battle.battle_map)
        self.sub_title = f"#{loaded.battle_id} {loaded.name}"
        self.refresh_view()
        hex_map.focus()
        sel = self._first_actor()
        if sel:
            hex_map.select(sel)

    def _first_actor(self) -> str | None:
        if self.runner is None:
            return None
        nxt = self.runner.next()
        units = nxt.units or tuple(u.id for u in self.runner.state.units)
        return units[0] if units else None

    def _save(self, event: dict[str, Any]) -> None:
        assert self.loaded is not None
        self._write(self.loaded.battle_id, "commit", event)

    def _write(self, battle_id: int, what: str, event: dict[str, Any] | None,
               expect: int = 0) -> None:
        """Queue a write; one worker writes them in order (each its own transaction)."""
        with self._write_lock:
            self._writes.append((battle_id, what, event, expect))
            if self._writing:
                return
            self._writing = True
        self.run_worker(self._drain, thread=True, group="air-write", exit_on_error=False)

    def _drain(self) -> None:
        from ka_tui.screens.air import data

        while True:
            with self._write_lock:
                if not self._writes:
                    self._writing = False
                    return
                battle_id, what, event, expect = self._writes.pop(0)
            try:
                db = self.campaign_db()
                if what == "commit":
                    assert event is not None
                    data.commit(db, battle_id, event)
                else:
                    data.undo(db, battle_id, expect)
            except Exception as error:  # noqa: BLE001 - shown; the screen reloads
                with self._write_lock:
                    self._writes.clear()
                self.app.call_from_thread(self._status, f"NOT SAVED: {error}; reloading")
                self.app.call_from_thread(self.load, battle_id)
