"""The piloting target number every air piloting check starts from (R-2).

R-2: the target is "formed mainly from the modified ... piloting skill". The
modifiers that always apply to the pilot's own machine come from here, once:
control-surface damage in effect (+1 per point, RULES-NOTES D hit table) and
the pilot's wounds (+1 each, as R-7 counts them). Each check then adds its own
(R-3.3 descent, R-9 figure difficulty, R-10 landing …) with ``TargetNumber.plus``.
"""

from __future__ import annotations

from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.core.options import AirOptions, EngineOut
from ka_tui.rules.core.target import TargetNumber


def piloting_target(unit: AirUnit, what: str = "piloting", source: str = "R-2") -> TargetNumber:
    """R-2 base (the pilot's piloting rating) plus damage and wound modifiers.

    ``what``/``source`` name the check for the base's label, e.g.
    ``piloting_target(unit, "stall", "R-3.2")`` → ``5 (Kay piloting: stall, R-3.2)``.
    Control-surface damage counts only once in effect (R-1.3), not while pending.
    """
    label = f"{unit.pilot.name} piloting" if what == "piloting" else \
        f"{unit.pilot.name} piloting: {what}"
    target = TargetNumber(unit.pilot.piloting, label, source)
    target = target.plus(unit.damage.at("control_surfaces"), "control surfaces damaged",
                         "RULES-NOTES D")
    target = target.plus(unit.pilot.wounds, "pilot wounds", "R-7, RULES-NOTES D")
    return target


def thrust_lost(unit: AirUnit) -> int:
    """RULES-NOTES D engine hit: −1 thrust per engine effect in force."""
    return unit.damage.at("engine")


def thrust_capacity(unit: AirUnit, options: AirOptions, *, afterburner: bool = False,
                    water_methanol: bool = False) -> int:
    """Thrust points this turn (R-3.1): the profile's, or the afterburner number in
    parentheses (R-3.5), plus water-methanol (R-3.6), less engine damage; none
    from an empty tank (house rule ``engine_out_control`` seed_and: an empty
    tank is a disabled engine)."""
    p = unit.profile
    if unit.fuel <= 0 and options.engine_out_control is EngineOut.SEED_AND:
        return 0
    base = p.afterburner_thrust if afterburner and p.afterburner_thrust is not None else p.thrust
    extra = p.wm_thrust if water_methanol and p.wm_thrust is not None else 0
    return max(0, base + extra - thrust_lost(unit))
