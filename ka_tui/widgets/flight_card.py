"""The flight card drawn as a card (S0 §Flight card, R-3…R-10).

One widget shows an ``AircraftProfile`` and its live ``FlightStatus``:

- the S0 card: Move, dive maximum, Roll, Loop/Immelmann, Firepower, Hull,
  Evasion, the manoeuvre dial (X-wing style, Stressful ones red *and* marked
  ``!`` so they read in 16 colours and in monochrome), Traits with their dice;
- the S0 altitude ladder (Edge … Deck) with the ceiling and the echelons that
  need a test (S0's red/grey box: reverse video and ``[!]``);
- the R-3…R-10 hex-combat profile: class, engines, thrust "(n)", water-methanol,
  G-rating, turn-mode table, landing, take-off, fuel, ammo, airframe;
- live status (R-1.4): hull and damage by location, fuel, ammo, overheat,
  pilot and crew with wounds and consciousness.

Under ``WIDE_AT`` columns the card is two columns (card + hex profile | ladder
+ status) and fits 80×24; wider, it is three columns with the traits' effects
spelled out. ``t`` shows each trait's S0 rule text. The widget computes no
rule: it renders values and the data in ``rules/air/traits.py``.
"""

from __future__ import annotations


from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Resize
from textual.reactive import reactive
from textual.widgets import Static

from ka_tui.rules.air.aircraft import AircraftProfile, Echelon, Manoeuvre, ManoeuvreKind
from ka_tui.rules.air.flight_status import FlightStatus
from ka_tui.rules.air.traits import rule_of
from ka_tui.rules.air.units import MAX_WOUNDS, Airman
from ka_tui.widgets.glyphs import ascii_wanted as app_ascii

WIDE_AT = 120

STRESS = "bold red"          # S0: "Red marked manoeuvres are Stressful"
TEST_BOX = "bold reverse red"  # S0: red or grey box = the echelon needs a test
MUTED = "dim"
LABEL = "bold"

# Dial columns, left to right: hard left, turn left, ahead, turn right, hard right.
DIAL_COLUMNS: tuple[tuple[ManoeuvreKind, str], ...] = (
    (ManoeuvreKind.HARD_TURN, "↰"), (ManoeuvreKind.TURN, "↖"), (ManoeuvreKind.AHEAD, "↑"),
    (ManoeuvreKind.TURN, "↗"), (ManoeuvreKind.HARD_TURN, "↱"),
)


# One character for one, so a Text's style spans stay where they were.
ASCII_GLYPHS = str.maketrans({
    "↰": "<", "↖": "\\", "↑": "^", "↗": "/", "↱": ">", "✓": "y", "✗": "n", "■": "#",
    "□": "-", "◄": "<", "•": "*", "—": "-", "×": "x", "…": ".", "·": "-",
})


def to_ascii(text: Text) -> Text:
    """The same text with the card's non-ASCII glyphs swapped (``KA_TUI_ASCII=1``)."""
    out = text.copy()
    out.plain = text.plain.translate(ASCII_GLYPHS)
    return out


def ascii_wanted() -> bool:
    """The app's ASCII switch (``--ascii``/``KA_TUI_ASCII=1``; widgets/glyphs.py)."""
    return app_ascii()


def _yes(flag: bool) -> Text:
    return Text("✓", style="bold") if flag else Text("✗", style=MUTED)


def _pair(label: str, value: str | int, style: str = "") -> Text:
    return Text.assemble((label, LABEL), " ", (str(value), style))


def _join(parts: list[Text], sep: str = "   ") -> Text:
    return Text(sep).join(parts)


def header_line(profile: AircraftProfile, status: FlightStatus) -> Text:
    engines = f"{profile.engines}× {profile.engine_kind.value}"
    line = Text.assemble((profile.name, "bold"), "   ",
                         (f"{profile.aircraft_class.label} · {engines}", MUTED))
    if status.hull_left(profile) == 0:
        line.append("   ")
        line.append(" DESTROYED ", style=TEST_BOX)
    elif status.damaged:
        line.append("   ")
        line.append(" DAMAGED ", style=TEST_BOX)
    return line


def dial_lines(manoeuvres: tuple[Manoeuvre, ...], *, cell: int = 3) -> Text:
    """S0 §Flight card manoeuvres as an X-wing dial: fastest speed on top."""
    by_key = {(m.kind, m.speed): m for m in manoeuvres}
    out = Text()
    out.append("Manoeuvres".ljust(12), style=LABEL)
    for _, glyph in DIAL_COLUMNS:
        out.append(glyph.rjust(cell - 1) + " ", style=MUTED)
    top = max((m.speed for m in manoeuvres), default=0)
    for speed in range(top, 0, -1):
        out.append("\n")
        out.append(f"{speed:>11} ", style=MUTED)
        for kind, glyph in DIAL_COLUMNS:
            m = by_key.get((kind, speed))
            if m is None:
                out.append(" " * cell)
            elif m.stressful:
                out.append(("!" + glyph).rjust(cell - 1) + " ", style=STRESS)
            else:
                out.append(glyph.rjust(cell - 1) + " ")
    if not manoeuvres:
        out.append("\n  (no manoeuvres)", style=MUTED)
    out.append("\n")
    out.append("!", style=STRESS)
    out.append(" red = Stressful", style=MUTED)
    return out


def traits_line(profile: AircraftProfile, *, wide: bool, rules: bool) -> Text:
    """S0 §Traits: names with dice counts; the rule text when asked."""
    out = Text()
    out.append("Traits ", style=LABEL)
    if not profile.traits:
        out.append("none", style=MUTED)
        return out
    if not (wide or rules):
        names = [rule_of(t).name + (f" {n}" if n is not None else "") for t, n in profile.traits]
        out.append(" · ".join(names))
        out.append("   t: rules", style=MUTED)
        return out
    for t, n in profile.traits:
        rule = rule_of(t)
        out.append("\n• ")
        out.append(rule.name + (f" {n}" if n is not None else ""), style="bold")
        out.append(" — ")
        text = rule.sentence.split(":", 1)[1].strip() if rules else rule.summary
        out.append(text)
    return out


def s0_block(profile: AircraftProfile, status: FlightStatus, *, wide: bool,
             rules: bool) -> Text:
    """S0 §Flight card: Move, dive max, Roll, Loop, combat stats, dial, traits."""
    hull = status.hull_left(profile)
    hull_style = TEST_BOX if hull < profile.hull else ""
    lines = [
        _join([_pair("Move", profile.move), _pair("Dive max", profile.dive_max)]),
        _join([Text.assemble(("Roll ", LABEL), _yes(profile.roll)),
               Text.assemble(("Loop ", LABEL), _yes(profile.loop)),
               Text.assemble(("Immelmann ", LABEL), _yes(profile.immelmann))]),
        _join([_pair("Firepower", profile.firepower),
               Text.assemble(("Hull ", LABEL), (f"{hull}/{profile.hull}", hull_style)),
               _pair("Evasion", profile.evasion)]),
        dial_lines(profile.manoeuvres, cell=4 if wide else 3),
        traits_line(profile, wide=wide, rules=rules),
    ]
    return Text("\n").join(lines)


def altitude_ladder(profile: AircraftProfile) -> Text:
    """S0 §Altitude explained: the six echelons, ceiling and test boxes."""
    out = Text()
    for e in sorted(Echelon, reverse=True):
        if out:
            out.append("\n")
        name = e.label.ljust(9)
        if e > profile.ceiling:
            out.append(f"{name}[ ]", style=MUTED)
        elif e in profile.test_echelons:
            out.append(name)
            out.append("[!]", style=TEST_BOX)
            out.append(" test", style=STRESS)
        else:
            out.append(name)
            out.append("[■]", style="bold")
        if e == profile.ceiling:
            out.append(" ◄ceiling", style="bold")
    out.append("\n")
    out.append("[!]", style=TEST_BOX)
    out.append(" needs a test", style=MUTED)
    return out


def turn_mode_table(profile: AircraftProfile) -> Text:
    """R-3.4: hexes straight per facing change, by speed band."""
    bands = profile.turn_mode
    heads: list[str] = []
    for i, b in enumerate(bands):
        top = bands[i + 1].min_speed - 1 if i + 1 < len(bands) else None
        if top is None:
            heads.append(f"{b.min_speed}+")
        elif top == b.min_speed:
            heads.append(str(b.min_speed))
        else:
            heads.append(f"{b.min_speed}-{top}")
    width = max([len(h) for h in heads] + [2]) + 1
    out = Text()
    out.append("Turn mode ", style=LABEL)
    out.append("speed ", style=MUTED)
    for h in heads:
        out.append(h.rjust(width))
    out.append("\n" + " " * 10)
    out.append("hexes ", style=MUTED)
    for b in bands:
        out.append(str(b.hexes).rjust(width), style="bold")
    return out


def hex_block(profile: AircraftProfile) -> Text:
    """R-3…R-10 profile fields (RULES-NOTES C)."""
    p = profile
    engines = f"{p.engines} {p.engine_kind.value} engine{'s' if p.engines > 1 else ''}"
    stall = "stalls at 0" if p.stalls else "no stall"
    thrust = f"{p.thrust}" + (f" ({p.afterburner_thrust})" if p.afterburner_thrust else "")
    if p.wm_thrust is not None:
        limit = ""
        if p.wm_altitude_limit is not None:
            limit = f" to {Echelon(p.wm_altitude_limit).label}" if 1 <= p.wm_altitude_limit <= 6 \
                else f" to level {p.wm_altitude_limit}"
        wm = f"+{p.wm_thrust} ×{p.wm_uses}{limit}"
    else:
        wm = "—"
    lines = [
        Text.assemble((p.aircraft_class.label, "bold"), " · ", engines, " · ", (stall, MUTED)),
        _join([_pair("Thrust", thrust), _pair("W-M", wm), _pair("G", p.g_rating)]),
        _join([_pair("Landing max", p.landing_speed), _pair("Take-off", f"{p.takeoff_run} hexes")]),
        turn_mode_table(p),
        _join([_pair("Fuel", p.fuel), _pair("Ammo", p.ammo), _pair("Airframe", p.hull)]),
        _join([_pair("Control surfaces", p.control_surfaces), _pair("Gear legs", p.gear_legs)]),
    ]
    return Text("\n").join(lines)


def _airman(role: str, a: Airman) -> Text:
    out = Text.assemble((role.ljust(6), LABEL), a.name, " ")
    wounds_style = STRESS if a.wounds else MUTED
    out.append(f"W{a.wounds}/{MAX_WOUNDS}", style=wounds_style)
    out.append(" ")
    if a.dead:
        out.append(" DEAD ", style=TEST_BOX)
    elif not a.conscious:
        out.append(" OUT ", style=TEST_BOX)
    else:
        out.append("awake", style=MUTED)
    return out


def _meter(left: int, full: int, width: int = 8) -> Text:
    full = max(full, 1)
    filled = round(width * min(left, full) / full) if left else 0
    return Text.assemble(("■" * filled, "bold"), ("□" * (width - filled), MUTED))


def status_block(profile: AircraftProfile, status: FlightStatus) -> Text:
    """R-1.4 end-phase report: hull, damage by location, fuel, ammo, heat, crew."""
    hull = status.hull_left(profile)
    lines = [
        Text.assemble(("Hull ", LABEL), _meter(hull, profile.hull), f" {hull}/{profile.hull}"),
        _join([_pair("Fuel", f"{status.fuel(profile)}/{profile.fuel}"),
               _pair("Ammo", f"{status.ammo(profile)}/{profile.ammo}")], "  "),
    ]
    heat = Text.assemble(("Overheat ", LABEL),
                         (str(status.overheat), STRESS if status.overheat else ""))
    if profile.wm_thrust is not None:
        heat = _join([heat, _pair("W-M", f"{status.wm_uses(profile)}/{profile.wm_uses}")], "  ")
    lines.append(heat)
    dmg = status.damage
    if dmg.located_hits:
        hits = ", ".join(f"{loc.replace('_', ' ')} {n}" for loc, n in dmg.located_hits)
        lines.append(Text.assemble(("Hits ", LABEL), hits))
    if dmg.locations:
        eff = ", ".join(f"{loc.replace('_', ' ')} {n}" for loc, n in dmg.locations)
        lines.append(Text.assemble(("Damage ", LABEL), (eff, STRESS)))
    if dmg.empty:
        lines.append(Text("No damage", style=MUTED))
    if status.pilot is not None:
        lines.append(_airman("Pilot", status.pilot))
    else:
        lines.append(Text.assemble(("Pilot ", LABEL), ("— none assigned", MUTED)))
    for member in status.crew:
        lines.append(_airman("Crew", member))
    return Text("\n").join(lines)


class FlightCard(VerticalScroll, can_focus=True):
    """A flight card for one aircraft; ``show()`` swaps what it displays."""

    DEFAULT_CSS = """
    FlightCard {
        height: 1fr;
        width: 1fr;
        scrollbar-size-vertical: 1;
    }
    FlightCard:focus {
        background-tint: $foreground 0%;
    }
    FlightCard #card-header {
        height: 1;
        width: 1fr;
        padding: 0 1;
        background: $panel;
    }
    FlightCard #card-body {
        height: auto;
        width: 1fr;
    }
    FlightCard .card-main {
        width: 1fr;
        height: auto;
    }
    FlightCard .card-side {
        width: 31;
        height: auto;
    }
    FlightCard .card-block {
        height: auto;
        border-top: solid $primary;
        border-title-align: left;
        border-title-color: $text;
        border-title-style: bold;
        padding: 0 1;
    }
    FlightCard #card-body.-wide > #card-s0 {
        width: 1fr;
    }
    FlightCard #card-body.-wide > .card-side {
        width: 34;
    }
    FlightCard #card-body.-wide > #card-hex {
        width: 1fr;
    }
    """

    BINDINGS = [
        Binding("t", "toggle_rules", "Trait rules", id="card.trait_rules"),
    ]

    rules_shown: reactive[bool] = reactive(False)

    def __init__(self, profile: AircraftProfile, status: FlightStatus | None = None, *,
                 wide_at: int = WIDE_AT, ascii: bool | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.ascii = ascii_wanted() if ascii is None else ascii
        self.profile = profile
        self.status = status or FlightStatus()
        self.wide_at = wide_at
        self.wide = False

    def compose(self) -> ComposeResult:
        yield Static(id="card-header", markup=False)
        if self.wide:
            with Horizontal(id="card-body", classes="-wide"):
                yield Static(id="card-s0", classes="card-block")
                with Vertical(classes="card-side"):
                    yield Static(id="card-altitude", classes="card-block")
                    yield Static(id="card-status", classes="card-block")
                yield Static(id="card-hex", classes="card-block")
        else:
            with Horizontal(id="card-body"):
                with Vertical(classes="card-main"):
                    yield Static(id="card-s0", classes="card-block")
                    yield Static(id="card-hex", classes="card-block")
                with Vertical(classes="card-side"):
                    yield Static(id="card-altitude", classes="card-block")
                    yield Static(id="card-status", classes="card-block")

    def on_mount(self) -> None:
        self._fill()

    def _fill(self) -> None:
        p, s = self.profile, self.status
        titles = {"#card-s0": "Flight card · S0", "#card-altitude": "Altitude",
                  "#card-hex": "Hex combat · R-3…R-10", "#card-status": "Status"}
        blocks = {"#card-header": header_line(p, s),
                  "#card-s0": s0_block(p, s, wide=self.wide, rules=self.rules_shown),
                  "#card-altitude": altitude_ladder(p), "#card-hex": hex_block(p),
                  "#card-status": status_block(p, s)}
        for sel, text in blocks.items():
            self.query_one(sel, Static).update(to_ascii(text) if self.ascii else text)
        for sel, title in titles.items():
            self.query_one(sel).border_title = (title.translate(ASCII_GLYPHS) if self.ascii
                                                else title)

    def show(self, profile: AircraftProfile, status: FlightStatus | None = None) -> None:
        self.profile = profile
        self.status = status or FlightStatus()
        if self.is_mounted:
            self._fill()

    def watch_rules_shown(self) -> None:
        if self.is_mounted:
            self._fill()

    def action_toggle_rules(self) -> None:
        self.rules_shown = not self.rules_shown

    async def on_resize(self, event: Resize) -> None:
        wide = event.size.width >= self.wide_at
        if wide != self.wide:
            self.wide = wide
            await self.recompose()
            self._fill()
