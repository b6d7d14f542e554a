"""What the map, the side panel and the detail pane show for the selected
aircraft and the cursor: the plan's path and checks, the reach, the targets
with their odds (all from the engine through ``Runner``)."""

from __future__ import annotations

from ka_tui.rules.air.hexgrid import Hex
from ka_tui.rules.air.reach import readout
from ka_tui.rules.air.shooting import preview_shot
from ka_tui.rules.air.turn import Phase
from ka_tui.screens.air import views
from ka_tui.screens.air.host import PlanningView
from ka_tui.screens.air.runner import Runner
from ka_tui.widgets.air_panel import readout_lines, unit_lines
from ka_tui.widgets.hex_map import HexMap, ReachMark


def show_overlays(screen: PlanningView, runner: Runner) -> None:
    hex_map = screen.query_one(HexMap)
    sel = screen.selected()
    u = runner.unit(sel)
    cursor = hex_map.cursor
    phase = runner.state.phase
    path: list[Hex] = []
    targets: dict[Hex, str] = {}
    detail: list[str] = []
    thrust_used = 0
    if u is not None and runner.plannable(u.id):
        check = runner.check(u.id)
        if check is not None:
            path = [p.hex for p in check.path]
            thrust_used = check.thrust_used
            detail = views.plan_lines(u.id, runner.plan_text(u.id), u.id in runner.evasive,
                                      check, runner.next_turn_lines(check)) \
                + runner.collision_lines(u.id, check)
            got = runner.sent.get(u.id)
            if got is not None and not runner.plan_ahead:
                same = got.plan == runner.plan(u.id) and got.evasive == (u.id in
                                                                       runner.evasive)
                detail.insert(1, f"{got.by}'s plan (sent): {got.text}" +
                              (" · g executes it" if same else " · changed here"))
    if phase is Phase.BETWEEN_TURNS and screen.show_start:
        detail = runner.start_lines()
    if u is not None and phase is Phase.SHOOTING:
        odds = runner.targets(u.id)
        for tid, o in odds.items():
            t = runner.unit(tid)
            if t is not None:
                targets[t.hex] = views.pct(o.hit)
        t = runner.unit(screen.cursor_target())
        if t is not None and t.id in odds:
            to_hit = preview_shot(u, t, runner.options).target.render()
            detail = views.shot_lines(u.id, t.id, odds[t.id], to_hit)
        elif t is not None:
            why = preview_shot(u, t, runner.options).reason
            detail = [f"{u.id} cannot shoot {t.id}: {why}", runner.ram_line(u.id, t.id)]
    plans_in = runner.plans_in()
    if plans_in and not runner.plan_ahead:
        detail = [plans_in, *detail]   # who has sent a plan, never what
    marks: dict[Hex, ReachMark] = {}
    if screen.show_reach and u is not None:
        r = runner.reach(u.id)   # cached by the runner for this state
        marks = {} if r is None else {h: ReachMark(x.kind, x.odds_label)
                                      for h, x in r.hexes.items()}
    hex_map.set_path(path)
    hex_map.set_targets(targets)
    hex_map.set_reach(marks)
    if u is None:
        screen.show_panel([], [])
    else:
        there = next((a for a in runner.units_at(cursor) if a.id != u.id), None)
        col, row = cursor.to_offset()
        screen.show_panel(unit_lines(u, runner.options, thrust_used),
                          readout_lines(f"{col},{row}", readout(u, cursor, runner.options,
                                                                 there), there))
    if detail and not screen.hold_detail:
        screen._detail(detail)
