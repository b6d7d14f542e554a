"""Flight card widget: snapshots of several cards and plain-text checks
that stress and test boxes read without colour (S0 §Flight card, §Altitude explained)."""

from __future__ import annotations

from dataclasses import replace

from textual.app import App, ComposeResult
from textual.widgets import Footer

from ka_tui.rules.air.units import Airman, Damage
from ka_tui.rules.air.aircraft import Echelon, Trait
from ka_tui.rules.air.flight_status import FlightStatus
from ka_tui.rules.air.profiles import LANCASTER, METEOR, TEMPEST
from ka_tui.widgets.flight_card import (
    FlightCard,
    altitude_ladder,
    dial_lines,
    hex_block,
    s0_block,
    status_block,
    to_ascii,
    traits_line,
    turn_mode_table,
)

PILOT = Airman("F/O Ann Jones", piloting=5, gunnery=5, endurance=4)
CREW = (Airman("Sgt Bob Hale", wounds=2), Airman("Sgt Cy Ford"))
DAMAGED = FlightStatus(
    damage=Damage(hull_hits=3, locations=(("engine", 1), ("control_surfaces", 1)),
                  located_hits=(("engine", 1), ("control_surfaces", 1), ("left_wing", 1))),
    fuel_left=7, ammo_left=2, overheat=3,
    pilot=Airman("F/O Ann Jones", wounds=2),
    crew=(Airman("Sgt Bob Hale", wounds=4, conscious=False),))
ALL_TRAITS = replace(
    METEOR, name="Test bed (all traits)",
    traits=((Trait.ACCURACY, 2), (Trait.BULKY, None), (Trait.BULLET_DODGER, 1),
            (Trait.CRITICAL, 1), (Trait.ROBUST, 2), (Trait.LONG_RANGE, None),
            (Trait.GLIDER, None), (Trait.ZERO_IN, 1)))


class CardApp(App[None]):
    def __init__(self, card: FlightCard) -> None:
        super().__init__()
        self.card = card

    def compose(self) -> ComposeResult:
        yield self.card
        yield Footer()

    def on_load(self) -> None:
        self.card.ascii = False  # snapshots never depend on KA_TUI_ASCII

    def on_mount(self) -> None:
        self.card.focus()


def test_snapshot_fighter_80x24(snap_compare):
    assert snap_compare(CardApp(FlightCard(TEMPEST, FlightStatus(pilot=PILOT))),
                        terminal_size=(80, 24))


def test_snapshot_bomber_80x24(snap_compare):
    status = FlightStatus(pilot=PILOT, crew=CREW)
    assert snap_compare(CardApp(FlightCard(LANCASTER, status)), terminal_size=(80, 24))


def test_snapshot_damaged_aircraft_80x24(snap_compare):
    assert snap_compare(CardApp(FlightCard(TEMPEST, DAMAGED)), terminal_size=(80, 24))


def test_snapshot_all_traits_with_rule_text_80x24(snap_compare):
    """S0 §Traits: ``t`` shows each trait's rule text."""
    assert snap_compare(CardApp(FlightCard(ALL_TRAITS, FlightStatus(pilot=PILOT))),
                        terminal_size=(80, 24), press=["t"])


def test_snapshot_bomber_wide_140x36(snap_compare):
    status = FlightStatus(pilot=PILOT, crew=CREW)
    assert snap_compare(CardApp(FlightCard(LANCASTER, status)), terminal_size=(140, 36))


def test_snapshot_damaged_wide_140x36(snap_compare):
    assert snap_compare(CardApp(FlightCard(TEMPEST, DAMAGED)), terminal_size=(140, 36))


# --- without colour -----------------------------------------------------

def test_s0_flight_card_stressful_manoeuvres_marked_without_colour():
    """S0 §Flight card: "Red marked manoeuvres are Stressful" — also a '!'."""
    plain = dial_lines(TEMPEST.manoeuvres).plain
    stressful = sum(m.stressful for m in TEMPEST.manoeuvres)
    # each stressful entry appears once per side it is drawn on (turns both ways)
    drawn = sum(2 if m.kind.value != "ahead" else 1 for m in TEMPEST.manoeuvres if m.stressful)
    assert stressful and plain.count("!") == drawn + 1  # + the legend
    assert "! red = Stressful" in plain


def test_s0_dial_rows_run_from_fastest_down_to_1():
    rows = [ln for ln in dial_lines(TEMPEST.manoeuvres).plain.splitlines()[1:-1]]
    assert [int(r.split()[0]) for r in rows] == [5, 4, 3, 2, 1]


def test_s0_altitude_ladder_marks_ceiling_and_test_boxes_without_colour():
    """S0 §Altitude explained: a red or grey box means a test; Tempest ceiling Top."""
    lines = altitude_ladder(TEMPEST).plain.splitlines()
    assert [ln.split()[0] for ln in lines[:6]] == [
        "Edge", "Ceiling", "Top", "Mountain", "Hill", "Deck"]
    top = lines[2]
    assert "[!]" in top and "ceiling" in top
    assert "[■]" in lines[3] and "[ ]" in lines[1]


def test_s0_ladder_every_test_echelon_boxed():
    p = replace(TEMPEST, ceiling=Echelon.EDGE,
                test_echelons=frozenset({Echelon.CEILING, Echelon.EDGE}))
    plain = altitude_ladder(p).plain
    assert plain.count("[!]") == 3  # two echelons + the legend


def test_r3_4_turn_mode_table_shows_bands_as_speed_ranges():
    plain = turn_mode_table(TEMPEST).plain
    assert "1-3" in plain and "4-6" in plain and "7-9" in plain and "10+" in plain


def test_r3_5_afterburner_in_parentheses_and_r3_6_water_methanol():
    from ka_tui.rules.air.profiles import BF109

    assert "Thrust 6 (8)" in hex_block(TEMPEST).plain
    assert "W-M +2 ×3 to Mountain" in hex_block(BF109).plain


def test_s0_traits_line_shows_dice_counts_and_rule_text_on_demand():
    short = traits_line(TEMPEST, wide=False, rules=False).plain
    assert "Critical 1 · Robust 1" in short
    full = traits_line(TEMPEST, wide=False, rules=True).plain
    assert "high calibre weapon automatically changes normal hit" in full


def test_r1_4_status_reports_damage_fuel_ammo_heat_and_crew():
    plain = status_block(TEMPEST, DAMAGED).plain
    assert "1/4" in plain and "Fuel 7/20" in plain and "Ammo 2/10" in plain
    assert "Overheat 3" in plain
    assert "engine 1" in plain and "left wing 1" in plain
    assert "W2/6" in plain and "OUT" in plain


def test_ascii_glyph_set_keeps_markers_and_styles():
    """KA_TUI_ASCII=1: plain ASCII for fonts without arrows; '!' and styles stay."""
    text = s0_block(TEMPEST, DAMAGED, wide=False, rules=False)
    plain = to_ascii(text).plain
    assert plain.isascii()
    assert plain.count("!") == text.plain.count("!")
    assert [sp.style for sp in to_ascii(text).spans] == [sp.style for sp in text.spans]
    assert to_ascii(altitude_ladder(TEMPEST)).plain.isascii()
    assert to_ascii(status_block(TEMPEST, DAMAGED)).plain.isascii()


async def test_card_switches_to_wide_layout_and_back():
    app = CardApp(FlightCard(TEMPEST))
    async with app.run_test(size=(80, 24)) as pilot:
        assert not app.card.wide
        await pilot.resize_terminal(140, 30)
        await pilot.pause()
        assert app.card.wide
        assert app.card.query_one("#card-body").has_class("-wide")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not app.card.wide
