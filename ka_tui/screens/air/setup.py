"""New air battle: aircraft and sides from the roster, and the map.

Keys: up/down move, ``1``–``4`` put the highlighted aircraft on side Blue,
Red, Green or Yellow, ``0`` takes it out, ``m`` the next map, ``ctrl+s`` goes
on to placing them on the map, escape cancels. An aircraft without a seated
pilot is refused with the reason. Also the battle list (the figure menu: figures.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ka_tui.rules.campaign.crash import FATE_WORDS, CrashFate
from ka_tui.screens.air.data import MapChoice
from ka_tui.screens.door import AirPreset
from ka_tui.screens.store_work import store_work
from ka_tui.store.battles import AircraftCandidate, BattleSummary
from ka_tui.widgets.quiet_footer import QuietFooter

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

SIDES = ("Blue", "Red", "Green", "Yellow")


@dataclass(frozen=True)
class SetupChoice:
    picked: tuple[tuple[AircraftCandidate, str], ...]     # (aircraft, side)
    map: MapChoice
    mission_id: int | None = None                 # a mission's battle

    @property
    def map_name(self) -> str:
        return self.map.name


class AirSetupScreen(ModalScreen[SetupChoice | None]):
    HELP_TITLE = "New air battle"
    CSS_PATH = "setup.tcss"

    BINDINGS = [
        *(Binding(str(i + 1), f"side({i})", f"Side {name}", show=i < 2,
                  id=f"air_setup.side{i + 1}") for i, name in enumerate(SIDES)),
        Binding("0", "side(-1)", "Leave out", id="air_setup.none"),
        Binding("m", "next_map", "Map", id="air_setup.map"),
        Binding("e", "edit_map", "Edit map", id="air_setup.edit_map"),
        Binding("ctrl+s", "start", "Place them", id="air_setup.start"),
        Binding("escape", "cancel", "Cancel", id="air_setup.cancel"),
    ]

    PALETTE_HELP = {
        **{f"air_setup.side{i + 1}": f"Put the highlighted aircraft on side {n}"
           for i, n in enumerate(SIDES)},
        "air_setup.none": "Leave the highlighted aircraft out of the battle",
        "air_setup.map": "Fly over the next map",
        "air_setup.edit_map": "Edit this map in the map editor; ctrl+s there saves it in the "
                              "campaign (a built-in map is saved as a new one)",
        "air_setup.start": "Go on to place each aircraft on the map (two sides at least)",
        "air_setup.cancel": "Leave without starting a battle",
    }

    def __init__(self, candidates: Sequence[AircraftCandidate],
                 maps: Sequence[MapChoice], preset: AirPreset | None = None) -> None:
        super().__init__()
        self.candidates = list(candidates)
        self.maps = list(maps)
        self.map_index = 0
        self.sides: dict[int, str] = dict(preset.sides) if preset else {}
        self.mission_id = preset.mission_id if preset else None
        self.message = ""
        for c in self.candidates:
            if c.aircraft_id in self.sides and (c.refusal or c.busy):
                del self.sides[c.aircraft_id]
                self.message = f"left out: {c.refusal or f'{c.name} already flies in {c.busy}'}"

    def compose(self) -> ComposeResult:
        with Vertical(id="air-setup-box"):
            yield OptionList(*self._options(), id="air-setup-list", compact=True)
            yield Static("", id="air-setup-status")
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#air-setup-box").border_title = (
            "New air battle: aircraft and sides" if self.mission_id is None
            else f"Mission #{self.mission_id}'s battle: aircraft and sides")
        options = self.query_one(OptionList)
        options.focus()
        options.highlighted = 0 if self.candidates else None
        self._show()

    def _text(self, c: AircraftCandidate) -> str:
        side = self.sides.get(c.aircraft_id, "-")
        who = c.pilot or "no pilot"
        crew = f" +{len(c.crew)}" if c.crew else ""
        busy = f" (in {c.busy})" if c.busy else ""
        return f"{side:<6} {c.name:<18} {c.class_label[:16]:<16} {who}{crew}{busy}"

    def _options(self) -> list[Option]:
        return [Option(Content(self._text(c)), id=str(c.aircraft_id)) for c in self.candidates]

    def _show(self) -> None:
        options = self.query_one(OptionList)
        keep = options.highlighted
        options.clear_options()
        options.add_options(self._options())
        options.highlighted = keep
        used = sorted(set(self.sides.values()), key=SIDES.index)
        lines = [f"map: {self.maps[self.map_index].name} (m: next)",
                 f"sides: {', '.join(used) or 'none yet'} · {len(self.sides)} aircraft",
                 self.message or "1-4: side · 0: leave out · ctrl+s: place them on the map"]
        self.query_one("#air-setup-status", Static).update(Content("\n".join(lines)))
        self.message = ""

    def _highlighted(self) -> AircraftCandidate | None:
        i = self.query_one(OptionList).highlighted
        return None if i is None else self.candidates[i]

    def action_side(self, index: int) -> None:
        c = self._highlighted()
        if c is None:
            return
        if index < 0:
            self.sides.pop(c.aircraft_id, None)
        elif c.refusal or c.busy:
            self.message = f"refused: {c.refusal or f'{c.name} already flies in {c.busy}'}"
            self.app.bell()
        else:
            self.sides[c.aircraft_id] = SIDES[index]
        self._show()

    def action_next_map(self) -> None:
        self.map_index = (self.map_index + 1) % len(self.maps)
        self._show()

    def action_edit_map(self) -> None:
        from ka_tui.rules.air.battle_map import parse_map
        from ka_tui.screens.map_editor import MapEditorScreen

        choice = self.maps[self.map_index]

        def edited(battle_map: object) -> None:
            if battle_map is not None:
                self._save_map(choice, battle_map)

        self.app.push_screen(MapEditorScreen(parse_map(choice.text), title=choice.name),
                             edited)

    def _save_map(self, choice: MapChoice, battle_map: object) -> None:
        from ka_tui.rules.air.battle_map import BattleMap, format_map

        assert isinstance(battle_map, BattleMap)
        text = format_map(battle_map)
        names = {m.name for m in self.maps}
        name = choice.name
        if choice.map_id is None:
            n = 1
            while f"{choice.name} ({n})" in names:
                n += 1
            name = f"{choice.name} ({n})"

        def job(db: CampaignDB) -> MapChoice:
            from ka_tui.store import maps

            saved = maps.save_map(db, name, text, map_id=choice.map_id)
            return MapChoice(saved.name, saved.text, saved.id)

        store_work(self, job, group="air-setup", errors=(Exception,),  # shown at the map line
                   done=lambda saved: self._map_saved(
                       saved, f"map saved in the campaign: {saved.name}"),
                   failed=lambda e: self._map_saved(None, f"map NOT saved: {e}"))

    def _map_saved(self, choice: MapChoice | None, message: str) -> None:
        if choice is not None:
            at = next((i for i, m in enumerate(self.maps) if m.map_id == choice.map_id
                       and m.map_id is not None), None)
            if at is None:
                self.maps.insert(0, choice)
                at = 0
            self.maps[at] = choice
            self.map_index = at
        self.message = message
        self._show()

    def action_start(self) -> None:
        if len(set(self.sides.values())) < 2:
            self.message = "a battle needs two sides or more: put aircraft on two sides"
            self.app.bell()
            self._show()
            return
        picked = tuple((c, self.sides[c.aircraft_id]) for c in self.candidates
                       if c.aircraft_id in self.sides)
        self.dismiss(SetupChoice(picked, self.maps[self.map_index], self.mission_id))

    def action_cancel(self) -> None:
        self.dismiss(None)


class _Picker(ModalScreen[str | None]):
    """A titled list; enter picks, escape cancels."""

    CSS_PATH = "setup.tcss"
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="air_pick.cancel")]

    def __init__(self, title: str, items: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.items = list(items)

    def compose(self) -> ComposeResult:
        with Vertical(id="picker-box"):
            yield OptionList(*[Option(Content(text), id=key) for key, text in self.items],
                             id="picker-list", compact=True)
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#picker-box").border_title = self.title_text
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class CrashCrewScreen(_Picker):
    """What the crash did to one person aboard (campaign.crash_crew, R-6.1)."""

    HELP_TITLE = "After a crash"

    def __init__(self, name: str, aircraft: str) -> None:
        super().__init__(f"{aircraft} crashed (R-6.1): what became of {name}?",
                         [(f.value, FATE_WORDS[f]) for f in CrashFate])


class BattleListScreen(_Picker):
    HELP_TITLE = "Air battles"

    def __init__(self, battles: Sequence[BattleSummary]) -> None:
        super().__init__("Air battles, newest first (enter opens)",
                         [(str(b.id), f"#{b.id} {b.name} ({b.status}, turn {b.turn}, "
                                      f"{b.map_name or 'map'})")
                          for b in battles])
