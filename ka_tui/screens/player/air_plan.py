"""The player's air-battle pane: his aircraft's move plan, sent to
the GM, who executes it.

The pane is the GM's planning view for one aircraft: the same ``Runner``
(screens/air/runner.py: plan steps, ``validate_plan``, R-6 collision odds),
the same plan keys (screens/air/keys.py ``plan_key``), the same overlays
(screens/air/overlays.py: path on the map, costs, every check with its exact
odds) and the same words (screens/air/views.py). Only the data differ: the
battle comes from ``store/players.player_battle``, projected by
``rules/air/plans.visible_to``, so another aircraft's plan is never in it.

A plan may be built from the turn's start until his aircraft moves
(``rules/air/plans.plan_window``), for an aircraft he pilots; enter (on the
player's screen) sends it; an illegal plan is refused with the engine's
reason (``plans.plan_refusal``, the check the store repeats in its write).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, Static

from ka_tui.rules.air.plans import plan_refusal, plan_window
from ka_tui.rules.air.turn import Phase
from ka_tui.screens.air import views
from ka_tui.screens.air.keys import plan_key
from ka_tui.screens.air.runner import Runner
from ka_tui.screens.air.setup import SIDES
from ka_tui.widgets.air_panel import AircraftPanel
from ka_tui.widgets.hex_map import HexMap, MapAircraft

if TYPE_CHECKING:
    from ka_tui.store.battles import LoadedBattle
    from ka_tui.store.player_data import PlayerBattle


class AirPlanPane(Vertical):
    """One battle as the player sees it, and his plan (the screen owns the keys)."""

    class Changed(Message):
        """The plan changed (a key, a typed character): the screen says if it can go."""

    DEFAULT_CSS = """
    AirPlanPane { height: 1fr; }
    AirPlanPane #plan-head { height: auto; max-height: 3; padding: 0 1; }
    AirPlanPane #plan-main { height: 1fr; }
    AirPlanPane #plan-map { width: 1fr; height: 1fr; }
    AirPlanPane #plan-side { width: 30; height: 1fr; padding: 0 1;
                             border-left: solid $primary; scrollbar-size-vertical: 1; }
    AirPlanPane #plan-detail { height: 6; padding: 0 1; border-top: solid $primary;
                               scrollbar-size-vertical: 1; }
    AirPlanPane #plan-cmd { height: 1; }
    """

    def __init__(self, *, ascii_glyphs: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii_glyphs = ascii_glyphs
        self.battle: PlayerBattle | None = None
        self.loaded: LoadedBattle | None = None
        self.runner: Runner | None = None
        self.unit_id: str | None = None
        self.count = 1
        # what screens/air/keys.py and overlays.py ask of a planning view
        self.placement = None
        self.hold_detail = False
        self.show_reach = False
        self.show_start = False

    def compose(self) -> ComposeResult:
        yield Static("", id="plan-head")
        with Horizontal(id="plan-main"):
            hex_map = HexMap(id="plan-map", ascii=self.ascii_glyphs or None, sides=SIDES)
            hex_map.can_focus = False   # the keys are the player screen's
            yield hex_map
            with VerticalScroll(id="plan-side"):
                yield AircraftPanel("", id="plan-panel")
        with VerticalScroll(id="plan-detail"):
            yield Static("", id="plan-detail-text")
        yield Input(id="plan-cmd", compact=True, select_on_focus=False,
                    placeholder="plan: +1 F F R F C D LOOP LAND … (enter)")

    def on_mount(self) -> None:
        self.query_one("#plan-cmd", Input).display = False
        self.query_one("#plan-main").display = False

    # -- data in -----------------------------------------------------------

    def show(self, battle: PlayerBattle | None, loaded: LoadedBattle | None,
             count: int = 1) -> None:
        """Show ``loaded`` (the battle as this player may see it); the plan
        being built stays when it is the same battle and he has not moved."""
        older = self.runner if (self.loaded is not None and loaded is not None
                                and self.loaded.battle_id == loaded.battle_id) else None
        self.battle, self.loaded = battle, loaded
        main = self.query_one("#plan-main")
        if battle is None or loaded is None:
            self.runner, self.unit_id = None, None
            main.display = False
            self._head(["You are in no air battle."])
            self._detail([])
            return
        self.runner = Runner(loaded.battle, plan_ahead=True)
        if older is not None:
            self.runner.keep_plans(older)
        main.display = True
        hex_map = self.query_one(HexMap)
        if older is None:
            hex_map.set_map(loaded.battle.battle_map)
        units = [u for u in battle.piloted if self.runner.unit(u) is not None] \
            or [u for u in battle.units if self.runner.unit(u) is not None]
        if self.unit_id not in units:
            open_ones = [u for u in units if self.runner.plannable(u)]
            self.unit_id = (open_ones or units)[0] if units else None
        self.count = count
        self.refresh_view()
        if self.unit_id is not None:
            hex_map.select(self.unit_id)
            self.centre()

    def centre(self) -> None:
        """Scroll the map to his aircraft; only when the pane is shown (a
        hidden map has no size to centre in)."""
        hex_map = self.query_one(HexMap)
        if self.display and self.runner is not None and self.unit_id is not None:
            hex_map.call_after_refresh(hex_map.centre_on, hex_map.cursor)

    def next_unit(self) -> None:
        if self.battle is None or self.runner is None:
            return
        units = [u for u in self.battle.units if self.runner.unit(u) is not None]
        if len(units) > 1 and self.unit_id in units:
            self.unit_id = units[(units.index(self.unit_id) + 1) % len(units)]
            self.query_one(HexMap).select(self.unit_id)
            self.refresh_view()
            self.centre()

    # -- what the planning view answers (screens/air/keys.py, overlays.py) ----

    def selected(self) -> str | None:
        return self.unit_id

    def cursor_target(self) -> str | None:
        return None

    def show_panel(self, unit_lines: list[str], readout: list[str]) -> None:
        self.query_one(AircraftPanel).show(unit_lines, [])

    def _detail(self, lines: list[str], *, tall: bool = False) -> None:
        self.query_one("#plan-detail-text", Static).update(Content("\n".join(lines)))

    def refresh_overlays(self) -> None:
        from ka_tui.screens.air.overlays import show_overlays

        if self.runner is None:
            return
        show_overlays(self, self.runner)
        if self.unit_id is None or not self.runner.plannable(self.unit_id):
            events = self.runner.battle.events
            lines = [line for ev in events[-3:] for line in views.event_lines(ev)]
            self._detail(lines[-5:])

    def refresh_view(self) -> None:
        r = self.runner
        if r is None or self.battle is None or self.loaded is None:
            return
        self.query_one(HexMap).set_aircraft(
            MapAircraft(u.id, u.hex, u.facing, u.side, u.altitude, u.speed, u.id[:4])
            for u in r.state.units if not (u.destroyed or u.crashed))
        turn = max(r.state.turn, 1) if r.state.phase is not Phase.BETWEEN_TURNS \
            else r.state.turn
        more = f" ({self.count} battles; l: next)" if self.count > 1 else ""
        head = [f"{self.loaded.name} · turn {turn}{more} · GM: {r.next().text}"]
        head.append(self.plan_state())
        self._head(head)
        self.refresh_overlays()

    # -- the plan ----------------------------------------------------------------

    def can_plan(self) -> bool:
        """His own aircraft's plan may be built now (he pilots it; R-1.2)."""
        return (self.runner is not None and self.battle is not None
                and self.unit_id in self.battle.piloted and self.runner.plannable(self.unit_id))

    def plan_state(self) -> str:
        """One line: what he may do with his plan now."""
        r, uid = self.runner, self.unit_id
        if r is None or uid is None or self.battle is None:
            return ""
        if uid not in self.battle.piloted:
            return f"Only {uid}'s pilot sends its plan; you see it fly."
        why = plan_window(r.state, uid)
        if why is not None:
            return f"No plan now: {why}."
        got = r.sent.get(uid)
        if got is not None:
            same = got.plan == r.plan(uid) and got.evasive == (uid in r.evasive)
            return (f"Sent: {got.text}. The GM executes it; "
                    + ("change it and enter sends it again." if same
                       else "enter sends the changed plan."))
        return f"Plan {uid}'s move (f [ ] + - c d m e, p: type), enter: send to the GM."

    def refusal(self) -> str | None:
        """Why the plan cannot be sent (the engine's reason), or None."""
        r, uid = self.runner, self.unit_id
        if r is None or uid is None or not self.can_plan():
            return "no plan to send now"
        return plan_refusal(r.state, uid, r.plan(uid), uid in r.evasive, r.battle_map,
                            r.options)

    def plan_empty(self) -> bool:
        return self.runner is None or self.unit_id is None or not self.runner.plan(self.unit_id)

    def key(self, code: str) -> None:
        if self.can_plan():
            plan_key(self, code)
            self.refresh_view()

    def open_typed(self) -> None:
        if not self.can_plan() or self.runner is None or self.unit_id is None:
            return
        field = self.query_one("#plan-cmd", Input)
        field.value = self.runner.plan_text(self.unit_id)
        field.display = True
        field.focus()
        field.cursor_position = len(field.value)

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "plan-cmd" or self.runner is None or self.unit_id is None:
            return
        event.stop()
        errors = self.runner.set_text(self.unit_id, event.value)
        self.refresh_view()
        if errors:
            self._detail(["cannot read the plan: " + "; ".join(errors)])
        self.post_message(self.Changed())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "plan-cmd":
            return
        event.stop()
        self.close_typed()

    def close_typed(self) -> None:
        field = self.query_one("#plan-cmd", Input)
        field.display = False
        self.screen.set_focus(None)

    def _head(self, lines: list[str]) -> None:
        self.query_one("#plan-head", Static).update(Content("\n".join(lines)))
