"""The air-battle side panel: the selected aircraft and the cursor readout.

Every value comes from the air rules (``AirUnit`` fields and properties,
``piloting_target.thrust_capacity``, ``damage.under_control``,
``altitude.describe_level``, ``reach.readout``): the panel only words them.
"""

from __future__ import annotations

from textual.widgets import Static

from ka_tui.rules.air.altitude import describe_level
from ka_tui.rules.air.damage import LOCATION_EFFECTS, location_label, under_control
from ka_tui.rules.air.hexgrid import FACING_NAMES
from ka_tui.rules.air.piloting_target import thrust_capacity
from ka_tui.rules.air.reach import Readout
from ka_tui.rules.air.units import Airman, AirUnit
from ka_tui.rules.core.options import AirOptions


def _airman(role: str, a: Airman) -> str:
    if a.dead:
        return f"{role} {a.name}: dead"
    state = "" if a.conscious else ", KO"
    return f"{role} {a.name}: {a.wounds}w{state}"


def unit_state(u: AirUnit, options: AirOptions) -> str:
    if u.destroyed:
        return "DESTROYED"
    if u.crashed:
        return "CRASHED"
    if u.landed:
        return "on the ground"
    return "in control" if under_control(u, options) else "OUT OF CONTROL"


def unit_lines(u: AirUnit, options: AirOptions, thrust_used: int = 0) -> list[str]:
    """The flight card summary and the live state of one aircraft (R-1.4)."""
    p = u.profile
    col, row = u.hex.to_offset()
    lines = [
        f"{u.id} ({u.side})",
        f"{p.aircraft_class.label} · Move {p.move} G {p.g_rating}",
        f"{col},{row} {FACING_NAMES[u.facing]} · {describe_level(u.altitude, options)}",
        f"speed {u.speed} · thrust left {max(0, thrust_capacity(u, options) - thrust_used)}",
        f"heat {u.overheat} · fuel {u.fuel} · ammo {u.ammo}",
        f"hull {u.hull_left}/{p.hull}"
        + (f" (+{u.pending_damage.hull_hits} hit)" if u.pending_damage.hull_hits else "")
        + f" · {unit_state(u, options)}",
    ]
    hits = u.total_damage.located_hits
    if hits:
        lines.append("hits: " + ", ".join(f"{location_label(k)} {n}" for k, n in hits))
    for loc, n in u.total_damage.locations:
        lines.append(f"{location_label(loc)} x{n}: {LOCATION_EFFECTS.get(loc, '')}".rstrip(": "))
    lines.append(_airman("pilot", u.pilot))
    lines.extend(_airman("crew", a) for a in u.crew)
    flags = [name for name, on in (("evading", u.evading), ("shot", u.shot),
                                   ("afterburner", u.afterburner_on)) if on]
    if flags:
        lines.append("this turn: " + ", ".join(flags))
    if u.attack_forfeit:
        lines.append(f"no attack: {u.attack_forfeit}")
    return lines


def readout_lines(where: str, r: Readout, there: AirUnit | None) -> list[str]:
    """Range, band, bearing, same altitude and arc between the aircraft and the cursor."""
    lines = [f"> {where}" + (f" {there.id}" if there else "")]
    if r.hexes == 0 and there is None:
        return lines + ["(the aircraft's own hex)"]
    lines.append(f"range {r.hexes} hex, band {r.band}")
    lines.append(f"bearing {r.bearing} deg, {r.clock} o'clock")
    alt = ("" if r.same_altitude is None or there is None else
           "same level · " if r.same_altitude else f"level {there.altitude} · ")
    lines.append(alt + ("in fire arc" if r.in_arc else "out of fire arc"))
    return lines


class AircraftPanel(Static):
    """The selected aircraft, then the readout to the cursor."""

    DEFAULT_CSS = """
    AircraftPanel { width: 100%; height: auto; }
    """

    _shown: str | None = None

    def show(self, unit_text: list[str], readout: list[str]) -> None:
        body = unit_text + ([""] + readout if readout else [])
        text = "\n".join(body) if body else "No aircraft selected (tab)"
        if text != self._shown:   # unchanged: no layout
            self._shown = text
            self.update(text)
