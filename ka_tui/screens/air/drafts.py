"""The GM's plans being built, kept in the campaign as they change, so that a
plan built but not flown survives ``q`` and reopening as the battle does.

A draft is a ``battle_draft`` row (``store/battles.py``), not an event: the
battle's log keeps what was done and the plans players sent; a draft is work
in progress, replaced on every key. Only the GM's air screen reads or writes
them, so a draft is as secret as the GM's screen (a player's view never
reads the table). A plan that is only a player's sent plan, unchanged, is no
draft (the log has it); a player's plan sent after the draft wins.

Writes go one at a time, the newest of each aircraft's last: typing faster
than the file answers only skips the states in between.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ka_tui.rules.air.codec import CodecError, plan_from_json, plan_to_json
from ka_tui.screens.store_work import store_work
from ka_tui.store.battles import Draft

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from ka_tui.screens.air.runner import Runner
    from ka_tui.store.battles import LoadedBattle
    from ka_tui.store.db import CampaignDB


def drafts_of(runner: Runner) -> dict[str, Draft]:
    """The plans being built that are the GM's own: not empty (or evasive), not
    a player's sent plan as it came in, for aircraft still to move."""
    out: dict[str, Draft] = {}
    for uid in sorted(set(runner.plans) | runner.evasive):
        u = runner.unit(uid)
        plan, evasive = runner.plan(uid), uid in runner.evasive
        if u is None or u.moved or not (plan or evasive):
            continue
        got = runner.sent.get(uid)
        if got is not None and got.plan == plan and got.evasive == evasive:
            continue
        based_on = runner.filled_from.get(uid, 0)
        out[uid] = Draft(uid, tuple(plan_to_json(plan)), evasive, runner.state.turn, based_on)
    return out


class DraftKeeper:
    """Saves and restores one screen's drafts (``AirScreen.drafts``)."""

    def __init__(self) -> None:
        self.battle_id: int | None = None
        self.saved: dict[str, Draft] = {}        # as the file has them (or will)
        self._waiting: dict[str, Draft | None] = {}
        self._writing = False

    def restore(self, runner: Runner | None, loaded: LoadedBattle | None) -> list[str]:
        """Put the battle's open drafts back into the plans; returns the aircraft
        whose plan came back (a player's plan sent since wins)."""
        self.battle_id = None if loaded is None else loaded.battle_id
        self._waiting.clear()
        back: list[str] = []
        if runner is None or loaded is None:
            self.saved = {}
            return back
        for uid, d in loaded.drafts.items():
            got = runner.sent.get(uid)
            if got is not None and got.seq != d.based_on:
                continue
            try:
                plan = plan_from_json(list(d.plan))
            except (CodecError, TypeError, ValueError):
                continue
            runner.plans[uid] = plan
            runner.evasive.discard(uid)
            if d.evasive:
                runner.evasive.add(uid)
            if got is not None:
                runner.filled_from[uid] = got.seq
            back.append(uid)
        self.saved = drafts_of(runner)
        return back

    def changed(self, node: DOMNode, runner: Runner | None) -> None:
        """After any change of the plans: write what differs from the file."""
        if runner is None or self.battle_id is None:
            return
        now = drafts_of(runner)
        diff: dict[str, Draft | None] = {u: d for u, d in now.items() if self.saved.get(u) != d}
        diff.update({u: None for u in self.saved if u not in now})
        if not diff:
            return
        self.saved = now
        self._waiting.update(diff)
        if not self._writing:
            self._write(node)

    def _write(self, node: DOMNode) -> None:
        battle_id, batch = self.battle_id, dict(self._waiting)
        self._waiting.clear()
        if battle_id is None or not batch:
            return
        self._writing = True

        def job(db: CampaignDB) -> None:
            from ka_tui.store.battles import save_drafts

            save_drafts(db, battle_id, batch)

        def done(_: object = None) -> None:
            self._writing = False
            if self._waiting:
                self._write(node)

        def failed(error: Exception) -> None:
            done()
            say = getattr(node, "_status", None)
            if callable(say):
                say(f"the plan being built is NOT kept in the campaign: {error}")

        store_work(node, job, group="air-draft", done=done, failed=failed,
                   errors=(Exception,))

    @property
    def writing(self) -> bool:
        return self._writing

    def pending(self) -> Mapping[str, Draft | None]:
        return dict(self._waiting)
