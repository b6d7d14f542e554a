"""Air battle (R-1 … R-10): the hex map, the selected aircraft and
the turn runner, Initiative → Movement → Shooting → Heat → End.

A line always says what happens next and who acts (``turn.what_next``); ``g``
does it with the app's dice, ``t`` takes the faces of the table's dice
(checked die by die, refused with the reason). In the movement the plan is
built with keys or typed (``p``); its path, costs and every check with its
target number and exact odds show before anything is rolled. ``v`` shows the
reach. In the shooting the targets are marked with their odds. ``u`` undoes
the last step; every step is saved as it is done, so the battle resumes
where it was. The screen computes no rule (``runner.py`` asks the engine).
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Header, Input, Static

from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.core.dice import Dice, DiceError
from ka_tui.screens.air.base import line
from ka_tui.screens.air.io import BattleIO
from ka_tui.screens.air.typed import TypedInput
from ka_tui.screens.air.keys import PALETTE_HELP, PLAN_BINDINGS, plan_key
from ka_tui.screens.air.layout import LAYOUT_HELP, LAYOUT_HINT, MAP_ZOOMS
from ka_tui.screens.air.runner import PendingStep, Refused
from ka_tui.screens.air.suggest_keys import SUGGEST_BINDINGS, SUGGEST_HELP, SuggestKeys
from ka_tui.screens.air import views
from ka_tui.screens.door import AirPreset
from ka_tui.screens.air.setup import SIDES
from ka_tui.widgets.air_panel import AircraftPanel
from ka_tui.widgets.hex_map import HexMap, ReachMark
from ka_tui.widgets.quiet_footer import QuietFooter


class AirScreen(SuggestKeys, TypedInput, BattleIO):
    HELP_TITLE = "Air battle"
    CSS_PATH = "air.tcss"

    BINDINGS = [
        Binding("g", "go", "Go", id="air.go"),
        Binding("t", "table_dice", "Table dice", id="air.dice"),
        Binding("u", "undo", "Undo", id="air.undo"),
        Binding("y", "redo", "Redo", show=False, id="air.redo"),
        Binding("comma", "next_target", "Next target", show=False, id="air.next_target"),
        Binding("v", "reach", "Reach", id="air.reach"),
        Binding("x", "end_shooting", "End shooting", id="air.end_shooting"),
        Binding("o", "log", "Log", id="air.log"),
        Binding("i", "legend", "Legend", show=False, id="air.legend"),
        Binding("b", "side_panel", "Side panel", show=False, id="air.side_panel"),
        Binding("n", "new_battle", "New battle", show=False, id="air.new"),
        # priority: the map's vim key l (right; the arrows stay) would take it
        Binding("l", "list_battles", "Battles", show=False, id="air.list", priority=True),
        Binding("E", "end_battle", "End battle", show=False, id="air.end_battle"),
        *PLAN_BINDINGS,
        *SUGGEST_BINDINGS,
    ]
    PALETTE_HELP = {**PALETTE_HELP, **LAYOUT_HELP, **SUGGEST_HELP}

    # -- layout --------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Static("", id="air-phases")
        yield Static("Loading…", id="air-next")
        with Horizontal(id="air-main"):
            yield HexMap(id="air-map", zoom=MAP_ZOOMS[0], zooms=MAP_ZOOMS,
                         ascii=self.ascii or None, sides=SIDES)
            with Vertical(id="air-side"):   # layout.py: beside, below or folded
                with VerticalScroll(id="air-detail"):
                    yield Static("", id="air-detail-text")
                with VerticalScroll(id="air-panel-scroll"):
                    yield AircraftPanel("", id="air-panel")
        with Vertical(id="air-log-view"):
            yield Input(placeholder="filter the log: every word (esc, then o: the map)",
                        id="air-log-filter", compact=True)
            with VerticalScroll(id="air-log-scroll"):
                yield Static("", id="air-log")
        yield Input(id="air-cmd", compact=True, select_on_focus=False)
        yield Static("", id="air-status")
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#air-log-view").display = False
        self.query_one("#air-cmd").display = False
        self._lay_out()
        self._status(LAYOUT_HINT)
        self.watch_battles()   # live: another window's or player's writes show
        self.load(None)

    # -- what the screen shows -------------------------------------------------

    def refresh_view(self) -> None:
        if self.placement is not None:
            self.placement.show(self)
            return
        r = self.runner
        if r is None:
            return
        hex_map = self.query_one(HexMap)
        nxt = r.next()
        shown = views.map_aircraft(r.state, nxt)   # tab: who acts first
        hex_map.set_aircraft(shown, tab=views.tab_keys(r.state, shown, nxt.units))
        plans_in = r.plans_in().split(":")[0].split(";")[0]   # the count of plans sent in
        line(self.query_one("#air-phases", Static),
             views.phase_bar(r.state.turn, r.phase_key(), ascii=self.ascii)
             + (f" · {plans_in}" if plans_in else ""))
        line(self.query_one("#air-next", Static), "Next: " + nxt.text)
        self.refresh_overlays()
        self.refresh_bindings()

    def refresh_overlays(self) -> None:
        from ka_tui.screens.air.overlays import show_overlays

        if self.runner is not None and self.placement is None:
            show_overlays(self, self.runner)
            self.drafts.changed(self, self.runner)   # every plan change ends here

    def on_hex_map_cursor_moved(self, event: HexMap.CursorMoved) -> None:
        if self.placement is not None:
            self.placement.cursor_moved(self, event.hex)
            return
        self.ram_armed = None
        self.target_index = 0
        self.target_named = False
        if self.hold_detail and event.by_key:   # a result stays until the GM moves on
            self.hold_detail = False
            self.query_one("#air-detail").remove_class("-tall")
        self.refresh_overlays()

    def on_hex_map_aircraft_selected(self, event: HexMap.AircraftSelected) -> None:
        if event.aircraft is not None:
            hex_map = self.query_one(HexMap)
            hex_map.call_after_refresh(hex_map.centre_on, event.aircraft.hex)
        self.refresh_overlays()
        self.refresh_bindings()

    def on_hex_map_stack_listed(self, event: HexMap.StackListed) -> None:
        col, row = event.hex.to_offset()
        names = " · ".join(("({})" if a.key == event.selected else "{}").format(
            f"{a.key}, {a.side}, level {a.altitude}") for a in event.aircraft)
        self._status(f"{col},{row} highest first: {names} · enter: the next one")

    def on_hex_map_target_picked(self, event: HexMap.TargetPicked) -> None:
        """enter on a target's hex aims at it, the shooter staying selected:
        first the one a shot reaches first (the shooter's level), then the next
        of the stack on each press, as , does."""
        self._aim(1 if self.target_named else 0)

    def set_reach(self, marks: dict[Hex, ReachMark]) -> None:
        self.query_one(HexMap).set_reach(marks)

    # -- actions -----------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        from ka_tui.screens.air.keys import enabled

        if action != "log" and self.log_filtering:
            return False   # the log's letters are the filter's, never commands
        return enabled(self, action)

    def action_go(self) -> None:
        if self.placement is not None:
            from ka_tui.screens.air.placing import place

            place(self)
            return
        self._run(self.dice)

    def _pending(self, *, ram: bool = False) -> PendingStep | None:
        assert self.runner is not None
        ram = ram or self.ram_armed is not None
        try:
            return self.runner.pending(self.selected(), self.cursor_target(), ram=ram)
        except Refused as refused:
            self._status(str(refused))
            self.app.bell()
            return None

    def _run(self, dice: Dice, step: PendingStep | None = None) -> None:
        from ka_tui.rules.air.turn import TurnError

        if self.runner is None:
            return
        step = step or self._pending()
        if step is None:
            return
        try:
            event = self.runner.do(step, dice)
        except (TurnError, DiceError) as error:
            self._status(f"refused: {error}")
            self.app.bell()
            return
        self._after(step, event)

    def _after(self, step: PendingStep, event: dict[str, Any]) -> None:
        self.ram_armed = None
        self.redo_event = None
        self._save(event)
        self._status(f"done and saved: {step.label}")
        self.refresh_view()
        self._detail(views.event_lines(event),
                     tall=step.kind in ("shot_resolved", "ram_resolved"))
        if step.data.get("phase") == "end":
            self._report(views.event_lines(event))
        elif not self.query_one("#air-main").display:
            self.action_log()   # back to the map
        self.hold_detail = True   # the result stays until the cursor moves
        self._select_who_acts()

    def _select_who_acts(self) -> None:
        """Who acts next is selected (after a step, an undo, a redo); the map follows."""
        units = self.runner.next().units if self.runner is not None else ()
        if units and self.selected() not in units:
            self.query_one(HexMap).select(units[0])

    def action_end_shooting(self) -> None:
        if self.runner is None:
            return
        try:
            step = self.runner.end_shooting()
        except Refused as refused:
            self._status(str(refused))
            return
        self._run(self.dice, step)

    def action_next_target(self) -> None:
        """The next aircraft of the other side in the cursor's hex (a stack)."""
        if self.runner is None:
            return
        stack = self.runner.stack_targets(self.selected(), self.query_one(HexMap).cursor)
        if len(stack) < 2:
            self._status("one target here at most: , cycles a stacked hex's aircraft")
            return
        self._aim(1)

    def _aim(self, step: int) -> None:
        """The target in the cursor's hex ``step`` on from the one aimed at."""
        if self.runner is None:
            return
        stack = self.runner.stack_targets(self.selected(), self.query_one(HexMap).cursor)
        if not stack:
            return
        self.target_index = (self.target_index + step) % len(stack)
        self.target_named = True
        self.ram_armed = None
        self.hold_detail = False
        more = " · enter or , the next one" if len(stack) > 1 else ""
        self._status(f"target: {stack[self.target_index]} ({self.target_index + 1} of "
                     f"{len(stack)} here) · g shoots · R rams{more}")
        self.refresh_overlays()

    def action_ram(self) -> None:
        """R-7 like a shot: the first R shows the ram's target, odds and rolls;
        R again (or g) rolls it, t takes the table's dice; the cursor moving
        goes back to shooting."""
        step = self._pending(ram=True)
        if step is None or self.runner is None:
            return
        refusal = self.runner.ram_refusal(step.data["attacker"], step.data["target"])
        if refusal is not None:   # nothing to arm: say why, as a plan's refusal does
            self.ram_armed = None
            self._detail([self.runner.ram_line(step.data["attacker"], step.data["target"])])
            self.hold_detail = True
            self._status(f"cannot ram: {refusal}")
            self.app.bell()
            return
        if self.ram_armed != (step.data["attacker"], step.data["target"]):
            self.ram_armed = (step.data["attacker"], step.data["target"])
            from ka_tui.screens.air.dice_lines import ram_preview

            self._detail(ram_preview(self.runner, *self.ram_armed), tall=True)
            self.hold_detail = True
            self._status(f"ram armed: {step.label} — R or g rolls, t table dice")
            return
        self._run(self.dice, step)

    def action_undo(self) -> None:
        """Undo asks first, as close combat's does; y right after puts it back."""
        from ka_tui.screens.confirm import ConfirmScreen

        if self.runner is None or self.loaded is None:
            return
        last = self.runner.battle.events[-1]
        what = views.event_words(last)

        def answered(yes: bool | None) -> None:
            if yes:
                self._undo()
            else:
                self._status("Nothing undone.")

        self.app.push_screen(ConfirmScreen(f"Undo the last step: {what}? y right after "
                                           "puts it back.", yes="Undo", no="Keep",
                                           title="Undo step"), answered)

    def _undo(self) -> None:
        from ka_tui.rules.air.battle import ReplayError

        if self.runner is None or self.loaded is None:
            return
        try:
            last = self.runner.undo()
        except ReplayError as error:
            self._status(f"nothing to undo: {error}")
            return
        self._write(self.loaded.battle_id, "undo", None, len(self.runner.battle.events) + 1)
        self.redo_event = last
        self.hold_detail = False
        self._status(f"undone: {views.event_words(last, 50)} · y: put it back")
        self.refresh_view()
        self._select_who_acts()
        self._detail([f"undone: {views.event_words(last, 200)}"])
        if self.query_one("#air-log-view").display:
            self._show_log()

    def action_redo(self) -> None:
        from ka_tui.rules.air.turn import TurnError

        undone, self.redo_event = self.redo_event, None
        if self.runner is None or undone is None:
            self._status("nothing to redo: y puts back the step just undone")
            return
        step = PendingStep(str(undone["kind"]), dict(undone.get("data", {})), "redo")
        try:
            self.runner.redo(undone)
        except (TurnError, DiceError) as error:
            self._status(f"cannot redo: {error}")
            return
        self._after(step, self.runner.battle.events[-1])
        self._status(f"put back: {views.event_words(undone, 60)}")

    def action_reach(self) -> None:
        self.show_reach = not self.show_reach
        self._status("reach shown: + no check, ? a check (worst odds), x out of reach"
                     if self.show_reach else "reach hidden")
        self.refresh_overlays()

    def action_log(self) -> None:
        view = self.query_one("#air-log-view")
        view.display = not view.display
        self.query_one("#air-main").display = not view.display
        self.query_one("#air-detail").display = not view.display
        self.log_filtering = bool(view.display)
        if view.display:
            self._show_log()
            self.query_one("#air-log-filter", Input).focus()
        else:
            self.query_one(HexMap).focus()

    def _report(self, lines: list[str]) -> None:
        """The end-phase report (R-1.4) in the log pane, whole; o goes back."""
        view = self.query_one("#air-log-view")
        view.display = True
        self.log_filtering = False
        self.query_one("#air-main").display = False
        self.query_one("#air-detail").display = False
        self.query_one("#air-log", Static).update(Content("\n".join(lines)))
        self.query_one(HexMap).focus()
        self._status("the end-phase report (R-1.4) · o: the map and the whole log")

    def _show_log(self) -> None:
        if self.runner is None:
            return
        text = self.query_one("#air-log-filter", Input).value
        lines = views.log_lines(self.runner.battle.events, text)
        self.query_one("#air-log", Static).update(Content("\n".join(lines) or "(no match)"))

    # -- plan keys, setup, battles ---------------------------------------------

    def action_plan(self, code: str) -> None:
        plan_key(self, code)

    def action_new_battle(self) -> None:
        from ka_tui.screens.air.placing import start_setup

        start_setup(self)

    def open_setup(self, preset: AirPreset) -> None:
        """The new-battle setup pre-filled (a mission's battle)."""
        from ka_tui.screens.air.placing import start_setup

        start_setup(self, preset)

    def action_list_battles(self) -> None:
        from ka_tui.screens.air.placing import list_battles

        list_battles(self)

    def action_end_battle(self) -> None:
        from ka_tui.screens.air.placing import end_battle

        end_battle(self)
