"""The air screen's suggestion keys (``suggesting.py`` does the work): ``s``
fills the selected aircraft's plan with the suggestion, or in the shooting
phase puts the cursor on the target it picks; ``S`` fills every aircraft of
the side moving now that no player flies; ``K`` / ``ctrl+k`` step the aircraft's
/ its side's tactic (aggressive, cautious, break off), saved in the battle.
The reason shows in the detail pane above the plan's costs and checks;
nothing is rolled until ``g``."""

from __future__ import annotations

from textual.binding import Binding

from ka_tui.screens.air.io import BattleIO
from ka_tui.screens.air.runner import Refused
from ka_tui.widgets.hex_map import HexMap

SUGGEST_HELP = {
    "air.suggest": "Suggest: fill the selected aircraft's plan (or pick its target) "
                   "with the reason and odds",
    "air.suggest_side": "Suggest for the side: fill every plan of the side moving now "
                        "that no player flies",
    "air.tactic": "Tactic of the selected aircraft: aggressive, cautious, break off",
    "air.side_tactic": "Tactic of the selected aircraft's side: aggressive, cautious, "
                       "break off",
}


# hidden in the footer (no room at 80 columns): the status line names s
SUGGEST_BINDINGS = [
    Binding("s", "suggest", "Suggest", show=False, id="air.suggest"),
    Binding("S", "suggest_side", "Suggest side", show=False, id="air.suggest_side"),
    Binding("K", "tactic('unit')", "Tactic", show=False, id="air.tactic"),
    Binding("ctrl+k", "tactic('side')", "Side tactic", show=False, id="air.side_tactic"),
]


class SuggestKeys(BattleIO):

    def _refuse(self, refused: Refused) -> None:
        self._status(str(refused))
        self.app.bell()

    def action_suggest(self) -> None:
        from ka_tui.rules.air.turn import Phase
        from ka_tui.screens.air.suggesting import fill_one, pick_target

        r = self.runner
        if r is None or self.placement is not None:
            return
        uid = self.selected()
        try:
            if r.state.phase is Phase.SHOOTING:
                shot = pick_target(r, uid)
                target = r.unit(shot.target)
                if target is not None:
                    self.query_one(HexMap).move_cursor(target.hex)
                self.refresh_overlays()
                self._status(shot.reason + (" · g shoots" if shot.target else " · x ends"))
                return
            got = fill_one(r, uid)
        except Refused as refused:
            self._refuse(refused)
            return
        self._show_reasons([(got.unit_id, got.tactic.label, got.reason)])
        self._status(f"suggested for {got.unit_id}: {got.text} · g goes, keys edit")

    def action_suggest_side(self) -> None:
        from ka_tui.screens.air.suggesting import fill_side

        r = self.runner
        if r is None or self.placement is not None:
            return
        try:
            got = fill_side(r)
        except Refused as refused:
            self._refuse(refused)
            return
        self._show_reasons([(g.unit_id, g.tactic.label, g.reason) for g in got])
        self._status(f"suggested {len(got)} plan(s): " + ", ".join(g.unit_id for g in got)
                     + " · g goes for the selected one")

    def _show_reasons(self, reasons: list[tuple[str, str, str]]) -> None:
        """The plan as if the GM built it, the reason(s) on top until the cursor moves."""
        from ka_tui.screens.air import views

        self.hold_detail = False
        self.refresh_overlays()
        r, uid = self.runner, self.selected()
        lines = [f"{u} ({tactic}): {why}" for u, tactic, why in reasons]
        check = r.check(uid) if r is not None and uid is not None else None
        if r is not None and uid is not None and check is not None:
            lines += views.plan_lines(uid, r.plan_text(uid), uid in r.evasive, check,
                                      r.next_turn_lines(check))
            lines += r.collision_lines(uid, check)
        self._detail(lines)
        self.hold_detail = True

    def action_tactic(self, scope: str) -> None:
        from ka_tui.rules.air.turn import TurnError
        from ka_tui.screens.air.suggesting import tactic_step

        r = self.runner
        if r is None or self.placement is not None:
            return
        try:
            step = tactic_step(r, self.selected(), "side" if scope == "side" else "unit")
            event = r.do(step, self.dice)
        except (Refused, TurnError) as refused:
            self._status(str(refused))
            self.app.bell()
            return
        self._save(event)
        self._status(f"saved: {step.label}")
        self.refresh_overlays()

    def show_panel(self, unit_lines: list[str], readout: list[str]) -> None:
        from ka_tui.screens.air.suggesting import tactic_line

        uid = self.selected()
        extra = [tactic_line(self.runner, uid)] if self.runner is not None and uid else []
        super().show_panel(unit_lines + [line for line in extra if line], readout)

