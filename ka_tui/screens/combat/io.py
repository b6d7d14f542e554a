"""Reading the fight and saving each step (S0 §Close combat): every read
and write of the campaign in a worker (``screens/store_work.py``); a step is
one event in one transaction (``runner.run_write``), then the fight is read
again and shown; a write refused because another window wrote first says
so and shows the fight as the file holds it.

Every read and write a key begins holds the keys typed after it until it is
shown (``hold_keys=True``: the app's key gate, ``widgets/key_gate.py``); a
step refused, the keys typed for what it would have done are dropped, and
the GM told so.

Live: a ``Change.FIGHT`` from elsewhere (a player's card, another window)
reads the fight again and shows it without a key, keeping the card the GM
is typing; never while this screen's own write is on its way."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.content import Content
from textual.message import Message

from ka_tui.rules.cqc.log import FightStep
from ka_tui.screens.combat.base import CombatBase
from ka_tui.screens.combat.runner import FightRead, Live, Write, read_fight, run_write
from ka_tui.screens.door import CampaignChanged, Change, door
from ka_tui.screens.store_work import store_work
from ka_tui.widgets.cqc_card import CqcCardEditor
from ka_tui.widgets.key_gate import drop_waiting_keys

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB


class FightSaved(Message):
    """Posted after each step is in the campaign file (tests wait for it)."""


class FightIO(CombatBase):
    # -- reading the campaign ------------------------------------------------

    def load(self, fight_id: int | None = None) -> None:
        """The given fight, else the newest open one (resume), else none."""
        what = f"fight {fight_id}" if fight_id is not None else "the fights"

        def job(db: CampaignDB) -> FightRead | Exception:
            try:
                return read_fight(db, fight_id)
            except Exception as error:  # noqa: BLE001 — any failure: one message
                return load_failure_of(what, error, db)

        self._read(job, "Cannot read the fight", what, self._loaded, to_info=True)

    def _loaded(self, read: FightRead) -> None:
        self.runner.show(read)
        self.show()

    def _read(self, job: Callable[[CampaignDB], object], title: str, what: str,
              then: Callable[..., None], *, to_info: bool = False) -> None:
        """A read in a worker, then ``then(result)``; a failure named (in the
        pane too, with ``to_info``). Keys typed meanwhile wait for it."""
        def done(result: object) -> None:
            if isinstance(result, Exception):
                if to_info:
                    self._info((Content(str(result)),))
                self._failed(title, result)
                return
            then(result)
            self.runner.ended()

        self.runner.began()
        store_work(self, job, group="combat-load", exclusive=True, done=done,
                   failed=lambda error: done(load_failure_of(what, error, None)),
                   hold_keys=True)

    def _fight_changed_elsewhere(self, changed: CampaignChanged) -> None:
        """A player sent a card, or another window took a step: read the fight
        again (the card the GM is typing is kept if it is still wanted)."""
        if changed.source is self or changed.change is not Change.FIGHT or self.runner.busy:
            return
        self._read_live(self.runner.fight_id(), self.runner.shown)

    def _read_live(self, fight_id: int | None, generation: int) -> None:
        def job(db: CampaignDB) -> FightRead | None:
            try:
                return read_fight(db, fight_id)
            except Exception:  # noqa: BLE001 — ctrl+r shows the full message
                return None

        store_work(self, job, group="combat-live", exclusive=True,
                   done=lambda read: self._live(read, generation))

    def _live(self, read: FightRead | None, generation: int) -> None:
        if read is None or read.progress is None:
            return
        verdict = self.runner.live(read.progress, generation)
        if verdict is Live.AGAIN:
            self._read_live(read.progress.fight_id, self.runner.shown)
        if verdict is not Live.SHOW:
            return
        editor = self.query_one(CqcCardEditor)
        typed = editor.draft if self.runner.step is FightStep.PLAN else None
        self.runner.show_live(read)
        self.show(typed=typed)
        self.post_message(FightSaved())

    # -- writing -------------------------------------------------------------------

    def _write(self, write: Write) -> None:
        """One step in a worker (one event, one transaction), then the fight
        read again from the file and shown; the keys typed meanwhile wait."""
        from ka_tui.store.errors import StoreError
        from ka_tui.store.fights import FightLogError

        self.runner.began()
        fight_id = self.runner.fight_id()
        store_work(self, lambda db: run_write(db, write, fight_id), group="combat-write",
                   done=lambda read: self._written(write, read),
                   failed=lambda error: self._failed(write.title, error),
                   errors=(StoreError, FightLogError, ValueError), hold_keys=True)

    def _written(self, write: Write, read: FightRead) -> None:
        if read.refused is not None:  # nothing written: the fight as it is now
            self.runner.show(read)
            self.notify(read.refused, title=write.title, severity="error")
            self.show(refused=read.refused)
            self.post_message(FightSaved())
            self._dropped(drop_waiting_keys(self))
            self.runner.ended()
            return
        self.runner.written(write, read)
        self.show()
        changes = door(self)
        changes.campaign_changed(CampaignChanged(Change.FIGHT, self))
        if write.ends and read.progress is not None and read.progress.ended:
            # The roster shows the K-points and weapons the fight changed.
            changes.campaign_changed(CampaignChanged(Change.ROSTER, self))
        if write.done:
            self.notify(write.done)
        self.post_message(FightSaved())
        self.runner.ended()

    def _failed(self, title: str, error: Exception) -> None:
        self.notify(str(error), title=title, severity="error")
        self._status(f"{title}: {error}", error=True)
        self._dropped(drop_waiting_keys(self))
        self.runner.ended()

    def _dropped(self, count: int) -> None:
        """Keys typed for a step that did not happen are not played on what
        the file holds instead; say so."""
        if count:
            self.notify(f"{count} key(s) typed after it were not used.",
                        title="Keys not used", severity="warning")


def load_failure_of(what: str, error: Exception, db: CampaignDB | None) -> Exception:
    """One message for a read that failed (worker thread when ``db`` is given:
    it looks for the damage in the file)."""
    from ka_tui.store.load_failure import load_failure

    return load_failure(what, error, db)
