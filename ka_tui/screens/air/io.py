"""Loading a battle and saving each step, in order: every step is one
transaction through ``data.py`` (``store/battles``), written by one
``store_work`` job that drains the queue in the order the steps were done; a
refused write (another window wrote first) reloads the battle and says so.

Live: a ``Change.BATTLE`` from another process (a player's plan, a second GM
window) reads the battle again and shows it without a key, keeping the
selection and the plans being built; never while this screen's own writes
are on their way (the read would be older than the screen)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.widgets import Static

from ka_tui.screens.air import data
from ka_tui.screens.air.base import AirBase
from ka_tui.screens.door import CampaignChanged, Change, door
from ka_tui.screens.store_work import announce, store_work
from ka_tui.widgets.hex_map import HexMap

if TYPE_CHECKING:
    from ka_tui.store.battles import LoadedBattle
    from ka_tui.store.db import CampaignDB


@dataclass(frozen=True)
class Drained:
    """How a drain of the write queue ended: ``error`` the write refused (the
    rest of the queue dropped) in battle ``battle_id``."""

    error: Exception | None = None
    battle_id: int | None = None


class BattleIO(AirBase):

    def load(self, battle_id: int | None) -> None:
        store_work(self, lambda db: data.open_battle(db, battle_id), group="air-load",
                   exclusive=True, done=self.show_loaded, errors=(Exception,),
                   failed=lambda e: self._status(f"cannot read the battle: {e}"))

    def show_loaded(self, loaded: LoadedBattle | None) -> None:
        from ka_tui.screens.air.runner import Runner

        older = self.runner if (self.loaded is not None and loaded is not None
                                and self.loaded.battle_id == loaded.battle_id) else None
        self.loaded = loaded
        self.runner = None if loaded is None else Runner(loaded.battle)
        if older is not None and self.runner is not None:
            self.runner.keep_plans(older)   # a reload keeps the plans being built
        else:   # opened: the GM's drafts kept in the campaign come back
            back = self.drafts.restore(self.runner, loaded)
            if back:
                self._status("plan being built kept: " + ", ".join(back))
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
        """Queue a write; one job writes them in order (each its own transaction)."""
        with self._write_lock:
            self._writes.append((battle_id, what, event, expect))
            if self._writing:
                return
            self._writing = True
        store_work(self, self._drain, group="air-write", done=self._drained,
                   failed=self._not_drained, errors=(Exception,))

    def _drain(self, db: CampaignDB) -> Drained:
        """Write the queue, oldest first, until it is empty or a write is refused."""
        while True:
            with self._write_lock:
                if not self._writes:
                    self._writing = False
                    return Drained()
                battle_id, what, event, expect = self._writes.pop(0)
            try:
                if what == "commit":
                    assert event is not None
                    data.commit(db, battle_id, event)
                else:
                    data.undo(db, battle_id, expect)
            except Exception as error:  # noqa: BLE001 - shown; the screen reloads
                with self._write_lock:
                    self._writes.clear()
                    self._writing = False
                return Drained(error, battle_id)
            # this process's own write, not another's (the watcher takes it as
            # seen); other modes (the roster) read again
            announce(self, Change.BATTLE)

    def _drained(self, end: Drained) -> None:
        if end.error is not None:
            self._status(f"NOT SAVED: {end.error}; reloading")
            self.load(end.battle_id)
        if self._live_wanted:   # a change came in while writing
            self._live_again()

    def _not_drained(self, error: Exception) -> None:
        """The campaign could not be had: nothing of the queue was written."""
        with self._write_lock:
            battle_id = self._writes[0][0] if self._writes else None
            self._writes.clear()
            self._writing = False
        self._drained(Drained(error, battle_id))

    # -- live ---------------------------------------------------------------------

    def watch_battles(self) -> None:
        door(self).on_campaign_changed(self, self._battle_changed)

    def _battle_changed(self, changed: CampaignChanged) -> None:
        """Another process wrote a battle: read it again (not during setup)."""
        if changed.source is self or changed.change is not Change.BATTLE \
                or self.placement is not None:
            return
        self._live_wanted = True
        with self._write_lock:
            if self._writing:
                return   # the drain asks again when its writes are done
        self._live_load(None if self.loaded is None else self.loaded.battle_id)

    def _live_load(self, battle_id: int | None) -> None:
        # a failed read is left alone: the next change or key reads again
        store_work(self, lambda db: data.open_battle(db, battle_id), group="air-live",
                   exclusive=True, done=self._live_loaded, errors=(Exception,),
                   failed=lambda e: None)

    def _live_loaded(self, loaded: LoadedBattle | None) -> None:
        with self._write_lock:
            if self._writing:
                return
        self._live_wanted = False
        if loaded is None or self.placement is not None:
            return
        if self.loaded is None or self.runner is None or loaded.ended \
                or loaded.battle_id != self.loaded.battle_id:
            if self.loaded is None or loaded.battle_id == self.loaded.battle_id:
                self.show_loaded(loaded)
            return
        mine = [json.dumps(e, sort_keys=True) for e in self.runner.battle.events]
        theirs = [json.dumps(e, sort_keys=True) for e in loaded.battle.events]
        if theirs == mine[:len(theirs)]:
            return   # nothing new (or a read older than this screen's own writes)
        from ka_tui.screens.air.runner import Runner

        older = self.runner
        self.loaded, self.runner = loaded, Runner(loaded.battle)
        self.runner.keep_plans(older)
        filled = [u for u, p in self.runner.sent.items()
                  if older.sent.get(u) is None or older.sent[u].seq != p.seq]
        self.refresh_view()   # a step's result held in the detail pane stays
        hex_map = self.query_one(HexMap)
        acting = self.runner.next().units
        if hex_map.selected is None or (acting and hex_map.selected not in acting):
            # the one selected has flown (or cannot act now): on to the next, as
            # this window's own move would
            sel = self._first_actor()
            if sel:
                hex_map.select(sel, move=False)
        self._status("plan in: " + ", ".join(f"{u} ({self.runner.sent[u].by})" for u in filled)
                     if filled else "the battle moved on in another window")

    def _live_again(self) -> None:
        if self._live_wanted:
            self._live_load(None if self.loaded is None else self.loaded.battle_id)
