"""Air battle (issue 10; R-1 … R-10): the hex map, the selected aircraft and
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

import threading
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Static

from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.core.dice import Dice, DiceError, RandomDice
from ka_tui.screens.air.keys import PALETTE_HELP, PLAN_BINDINGS, plan_key
from ka_tui.screens.air.runner import PendingStep, Refused, Runner
from ka_tui.screens.air import views
from ka_tui.screens.air.setup import SIDES
from ka_tui.widgets.air_panel import AircraftPanel
from ka_tui.widgets.hex_map import HexMap, MapAircraft, ReachMark

if TYPE_CHECKING:
    from ka_tui.screens.air.data import Loaded
    from ka_tui.store.db import CampaignDB


class AirScreen(Screen[None]):
    HELP_TITLE = "Air battle"
    CSS_PATH = "air.tcss"

    BINDINGS = [
        Binding("g", "go", "Go", id="air.go"),
        Binding("t", "table_dice", "Table dice", id="air.dice"),
        Binding("u", "undo", "Undo", id="air.undo"),
        Binding("v", "reach", "Reach", id="air.reach"),
        Binding("x", "end_shooting", "End shooting", id="air.end_shooting"),
        Binding("o", "log", "Log", id="air.log"),
        Binding("n", "new_battle", "New battle", show=False, id="air.new"),
        Binding("l", "list_battles", "Battles", show=False, id="air.list"),
        Binding("E", "end_battle", "End battle", show=False, id="air.end_battle"),
        *PLAN_BINDINGS,
    ]
    PALETTE_HELP = PALETTE_HELP

    def __init__(self, *, dice: Dice | None = None) -> None:
        super().__init__()
        self._dice = dice
        self.loaded: Loaded | None = None
        self.runner: Runner | None = None
        self.show_reach = False
        self.show_start = True        # before a turn: the start-of-turn preview
        self.hold_detail = False      # a step's result is in the detail pane
        self.input_mode = ""          # "plan" | "dice" | ""
        self.dice_step: PendingStep | None = None
        self._write_lock = threading.Lock()
        self._writes: list[tuple[int, str, dict[str, Any] | None, int]] = []
        self._writing = False
        from ka_tui.screens.air.placing import Placement

        self.placement: Placement | None = None

    # -- the door to the app (one place; issue 9's door replaces it) ----------

    @property
    def dice(self) -> Dice:
        injected: Dice | None = self._dice or getattr(self.app, "air_dice", None)
        if injected is None:
            self._dice = injected = RandomDice()
        return injected

    def campaign_db(self) -> CampaignDB:
        db: CampaignDB = getattr(self.app, "campaign_db")()
        return db

    @property
    def ascii(self) -> bool:
        return bool(getattr(self.app, "ascii_glyphs", False))

    # -- layout --------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Static("", id="air-phases")
        yield Static("Loading…", id="air-next")
        with Horizontal(id="air-main"):
            yield HexMap(id="air-map", ascii=self.ascii or None, sides=SIDES)
            with VerticalScroll(id="air-side"):
                yield AircraftPanel("", id="air-panel")
        with Vertical(id="air-log-view"):
            yield Input(placeholder="filter the log: every word (esc, then o: the map)",
                        id="air-log-filter", compact=True)
            with VerticalScroll(id="air-log-scroll"):
                yield Static("", id="air-log")
        with VerticalScroll(id="air-detail"):
            yield Static("", id="air-detail-text")
        yield Input(id="air-cmd", compact=True, select_on_focus=False)
        yield Static("", id="air-status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#air-log-view").display = False
        self.query_one("#air-cmd").display = False
        self.load(None)

    # -- loading and saving --------------------------------------------------

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

    # -- what the screen shows -------------------------------------------------

    def selected(self) -> str | None:
        return self.query_one(HexMap).selected

    def cursor_target(self) -> str | None:
        """An aircraft of another side under the cursor (the top one)."""
        if self.runner is None:
            return None
        sel = self.runner.unit(self.selected())
        for u in self.runner.units_at(self.query_one(HexMap).cursor):
            if sel is None or u.side != sel.side:
                return u.id
        return None

    def refresh_view(self) -> None:
        if self.placement is not None:
            self.placement.show(self)
            return
        r = self.runner
        if r is None:
            return
        hex_map = self.query_one(HexMap)
        hex_map.set_aircraft(MapAircraft(u.id, u.hex, u.facing, u.side, u.altitude, u.speed,
                                         u.id[:4]) for u in r.state.units
                             if not (u.destroyed or u.crashed))
        self.query_one("#air-phases", Static).update(
            Content(views.phase_bar(r.state.turn, r.phase_key(), ascii=self.ascii)))
        self.query_one("#air-next", Static).update(Content("Next: " + r.next().text))
        self.refresh_overlays()
        self.refresh_bindings()

    def refresh_overlays(self) -> None:
        from ka_tui.screens.air.overlays import show_overlays

        if self.runner is not None and self.placement is None:
            show_overlays(self, self.runner)

    def show_panel(self, unit_lines: list[str], readout: list[str]) -> None:
        self.query_one(AircraftPanel).show(unit_lines, readout)

    def _detail(self, lines: list[str], *, tall: bool = False) -> None:
        """The detail pane; ``tall`` (a shot's or ram's result: dice, re-rolls,
        damage by location) takes up to 12 lines until the cursor moves."""
        pane = self.query_one("#air-detail", VerticalScroll)
        pane.styles.height = min(12, max(6, len(lines) + 1)) if tall else 6
        self.query_one("#air-detail-text", Static).update(Content("\n".join(lines)))
        pane.scroll_home(animate=False)

    def _status(self, text: str) -> None:
        self.query_one("#air-status", Static).update(Content(text))

    def on_hex_map_cursor_moved(self, event: HexMap.CursorMoved) -> None:
        if self.placement is not None:
            self.placement.cursor_moved(self, event.hex)
            return
        if self.hold_detail:
            self.hold_detail = False
            self.query_one("#air-detail").styles.height = 6
        self.refresh_overlays()

    def on_hex_map_aircraft_selected(self, event: HexMap.AircraftSelected) -> None:
        if event.aircraft is not None:
            hex_map = self.query_one(HexMap)
            hex_map.call_after_refresh(hex_map.centre_on, event.aircraft.hex)
        self.refresh_overlays()
        self.refresh_bindings()

    def set_reach(self, marks: dict[Hex, ReachMark]) -> None:
        self.query_one(HexMap).set_reach(marks)

    # -- actions -----------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        from ka_tui.screens.air.keys import enabled

        return enabled(self, action)

    def action_go(self) -> None:
        if self.placement is not None:
            self.placement.place(self)
            return
        self._run(self.dice)

    def _pending(self, *, ram: bool = False) -> PendingStep | None:
        assert self.runner is not None
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
        units = self.runner.next().units if self.runner is not None else ()
        if units and self.selected() not in units:
            self.query_one(HexMap).select(units[0], move=False)   # who acts next

    def action_end_shooting(self) -> None:
        if self.runner is None:
            return
        try:
            step = self.runner.end_shooting()
        except Refused as refused:
            self._status(str(refused))
            return
        self._run(self.dice, step)

    def action_ram(self) -> None:
        step = self._pending(ram=True)
        if step is not None:
            self._run(self.dice, step)

    def action_undo(self) -> None:
        from ka_tui.rules.air.battle import ReplayError

        if self.runner is None or self.loaded is None:
            return
        try:
            last = self.runner.undo()
        except ReplayError as error:
            self._status(f"nothing to undo: {error}")
            return
        self._write(self.loaded.battle_id, "undo", None, len(self.runner.battle.events) + 1)
        self._status(f"undone: {last['kind'].replace('_', ' ')} (seq {last['seq']})")
        self.refresh_view()

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
        if view.display:
            self._show_log()
            self.query_one("#air-log-filter", Input).focus()
        else:
            self.query_one(HexMap).focus()

    def _report(self, lines: list[str]) -> None:
        """The end-phase report (R-1.4) in the log pane, whole; o goes back."""
        view = self.query_one("#air-log-view")
        view.display = True
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

    # -- typed input: a plan or the table's dice --------------------------------

    def action_type_plan(self) -> None:
        uid = self.selected()
        if self.runner is None or uid is None:
            return
        self._open_input("plan", self.runner.plan_text(uid),
                         "plan: +1 F F R F C D LOOP LAND … (enter)")

    def action_table_dice(self) -> None:
        if self.runner is None:
            return
        step = self._pending()
        if step is None:
            return
        self.dice_step = step
        self._open_input("dice", "", f"faces for: {step.label} (enter)")
        self._check_faces("")

    def _open_input(self, mode: str, value: str, placeholder: str) -> None:
        field = self.query_one("#air-cmd", Input)
        self.input_mode = mode
        field.value = value
        field.placeholder = placeholder
        field.display = True
        field.focus()
        field.cursor_position = len(value)

    def _close_input(self) -> None:
        field = self.query_one("#air-cmd", Input)
        field.display = False
        self.input_mode = ""
        self.query_one(HexMap).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "air-log-filter":
            self._show_log()
        elif event.input.id == "air-cmd" and self.input_mode == "dice":
            self._check_faces(event.value)
        elif event.input.id == "air-cmd" and self.input_mode == "plan":
            uid = self.selected()
            if uid and self.runner is not None:
                self.hold_detail = False
                errors = self.runner.set_text(uid, event.value)
                self._status("; ".join(errors))
                self.refresh_overlays()

    def _faces(self, text: str) -> list[int]:
        return [int(w) for w in text.replace(",", " ").split() if w.isdigit()]

    def _check_faces(self, text: str) -> str | None:
        """Each face checked at the field: the next die the step needs, or why not."""
        assert self.runner is not None and self.dice_step is not None
        bad = [w for w in text.replace(",", " ").split() if not w.isdigit()]
        if bad:
            msg = f"'{bad[0]}' is not a face (numbers only)"
        else:
            try:
                sides = self.runner.needs(self.dice_step, self._faces(text))
                msg = (f"next: a d{sides}" if sides else "enough faces: enter records the step")
            except (DiceError, ValueError) as error:
                msg = f"refused: {error}"
        self._status(msg)
        return msg

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "air-cmd":
            return
        event.stop()
        if self.input_mode == "plan":
            self._close_input()
            return
        if self.input_mode == "dice" and self.runner is not None and self.dice_step:
            msg = self._check_faces(event.value)
            if msg is None or not msg.startswith("enough"):
                self.app.bell()
                return
            step = self.dice_step
            try:
                saved = self.runner.do_faces(step, self._faces(event.value))
            except (DiceError, ValueError) as error:
                self._status(f"refused: {error}")
                return
            self._close_input()
            self.dice_step = None
            self._after(step, saved)

    # -- plan keys, setup, battles ---------------------------------------------

    def action_plan(self, code: str) -> None:
        plan_key(self, code)

    def action_new_battle(self) -> None:
        from ka_tui.screens.air.placing import start_setup

        start_setup(self)

    def action_list_battles(self) -> None:
        from ka_tui.screens.air.placing import list_battles

        list_battles(self)

    def action_end_battle(self) -> None:
        from ka_tui.screens.air.placing import end_battle

        end_battle(self)
