"""The live status a flight card shows (R-1.4 end-phase report)."""

from __future__ import annotations

from ka_tui.rules.air.units import Airman, AirUnit, Damage
from ka_tui.rules.air.flight_status import FlightStatus, of_unit
from ka_tui.rules.air.profiles import BF109, TEMPEST


def test_r1_4_fresh_status_reads_full_tanks_from_the_profile():
    s = FlightStatus()
    assert (s.fuel(TEMPEST), s.ammo(TEMPEST), s.wm_uses(BF109)) == (20, 10, 3)
    assert s.hull_left(TEMPEST) == 4 and not s.damaged


def test_s0_hull_left_never_below_zero():
    s = FlightStatus(damage=Damage(hull_hits=9))
    assert s.hull_left(TEMPEST) == 0 and s.damaged


def test_r1_3_unit_status_counts_pending_damage_too():
    unit = AirUnit("u1", "blue", TEMPEST, Airman("Ann", wounds=1), fuel=7, ammo=2,
                   overheat=3, wm_uses_left=0, damage=Damage(1), pending_damage=Damage(2))
    s = of_unit(unit)
    assert s.damage.hull_hits == 3 and s.hull_left(TEMPEST) == 1
    assert (s.fuel_left, s.ammo_left, s.overheat, s.wm_uses_left) == (7, 2, 3, 0)
    assert s.pilot is not None and s.pilot.wounds == 1
