"""What the campaign mode shows, as plain text rows (no Textual): the screens
lay these out. Everything comes computed from the store (``rules/campaign``)."""

from __future__ import annotations

from collections.abc import Sequence

from ka_tui.rules.campaign.journal import Entry
from ka_tui.rules.campaign.missions import ServiceRecord
from ka_tui.rules.campaign.people import PersonState
from ka_tui.rules.campaign.repair import PlaneState
from ka_tui.store.campaign_state import Overview, RepairSummary
from ka_tui.store.missions import Mission, MissionSummary

Row = tuple[str, list[str]]

_PERSON_MARK = {PersonState.READY: "ready", PersonState.WOUNDED: "wounded",
                PersonState.UNCONSCIOUS: "unconsc.", PersonState.MISSING: "missing",
                PersonState.KILLED: "KILLED"}
_PLANE_MARK = {PlaneState.READY: "ready", PlaneState.DAMAGED: "damaged",
               PlaneState.UNDER_REPAIR: "repair", PlaneState.LOST: "LOST"}


def cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def overview_head(o: Overview) -> str:
    nxt = "Next: no mission planned"
    if o.next_mission:
        late = " (overdue)" if o.next_mission.day < o.day.isoformat() else ""
        nxt = (f"Next: {o.next_mission.name} — {o.next_mission.kind}, {o.next_mission.day}"
               f"{late}, {o.next_mission.members} aboard")
    ready = sum(1 for _, r in o.people if r.state is PersonState.READY)
    planes = sum(1 for _, r in o.planes if r.state is PlaneState.READY)
    return (f"Date {o.day.isoformat()}   missions {o.planned} planned, {o.flown} flown   "
            f"journal {o.journal_entries}\n{nxt}\n"
            f"Ready: {ready}/{len(o.people)} people, {planes}/{len(o.planes)} aircraft")


def overview_rows(o: Overview) -> list[Row]:
    rows: list[Row] = []
    for p, r in o.people:
        rows.append((f"c{p.id}", [_PERSON_MARK[r.state], p.role, r.why]))
    for a, pr in o.planes:
        rows.append((f"a{a.id}", [_PLANE_MARK[pr.state], "aircraft", pr.why]))
    return rows


def mission_rows(rows: Sequence[MissionSummary]) -> list[Row]:
    return [(str(m.id), [m.day, m.status, m.kind, m.name, str(m.members), str(m.battles)])
            for m in rows]


def mission_text(m: Mission, debrief_lines: Sequence[str]) -> str:
    out = [f"{m.name}", f"{m.kind.value}, {m.day} — {m.status.value}", ""]
    if m.briefing:
        out += [f"Briefing: {m.briefing}", ""]
    out.append("Aboard:")
    out += [f"  {x.name} ({x.role})" + (f" in {x.aircraft}" if x.aircraft else "")
            for x in m.members] or ["  nobody yet"]
    out.append("Played in it:")
    out += [f"  {ln.kind} “{ln.name}” ({ln.status})" for ln in m.links] or ["  nothing yet"]
    if debrief_lines:
        out += ["", "Debrief" + (" (to confirm)" if m.status.value == "planned" else ":"),
                *debrief_lines]
    if m.debrief_notes:
        out += ["", f"Notes: {m.debrief_notes}"]
    return "\n".join(out)


def record_rows(records: Sequence[ServiceRecord]) -> list[Row]:
    return [(str(r.character_id), [r.name, str(r.sorties), str(r.kills), str(r.wounds_taken),
                                   str(r.days_out), r.status]) for r in records]


def record_text(r: ServiceRecord) -> str:
    out = [r.name, f"Status: {r.status}",
           f"Sorties {r.sorties}   kills {r.kills}   wounds {r.wounds_taken}   "
           f"days out of action {r.days_out}", ""]
    if r.shot_down:
        out += ["Shot down:", *(f"  {x}" for x in r.shot_down), ""]
    if r.wound_history:
        out += ["Wounds:", *(f"  {x}" for x in r.wound_history), ""]
    out += ["Log:", *(f"  {x}" for x in r.log)] if r.log else ["No sortie flown yet."]
    return "\n".join(out)


def repair_rows(rows: Sequence[RepairSummary]) -> list[Row]:
    out: list[Row] = []
    for r in rows:
        state = _PLANE_MARK[r.readiness.state]
        if r.job is not None:
            when = f"{r.job.days_done}/{r.job.days_total}d, ready in {r.finishes_in}d"
        elif r.plane.lost:
            when = r.plane.lost
        else:
            when = f"needs {r.need.days}d" + (" (write off?)" if r.need.write_off_advised
                                               else "")
        cost = r.job.cost if r.job is not None else r.need.cost
        out.append((str(r.plane.id), [r.plane.name, state, when, str(cost)]))
    return out


def repair_text(r: RepairSummary) -> str:
    lines = [f"{x.location}: {x.count} → {x.days} days, cost {x.cost}" for x in r.need.lines]
    out = [r.readiness.why, *lines]
    if r.need.why:
        out.append(r.need.why)
    return "\n".join(out)


def journal_rows(entries: Sequence[Entry]) -> list[Row]:
    return [(str(e.seq), [e.day, e.kind.value, e.first_line]) for e in entries]
