"""The map editor: a battle map edited with the keyboard, returned by ``dismiss``.

``MapEditorScreen(battle_map=None)`` edits a copy of a ``BattleMap`` (R-6.1
terrain and heights, R-10 strips and carriers) on the hex map widget and
dismisses with the edited map (``ctrl+s``) or ``None`` (``escape``; asks first
when something changed). It writes nothing to the campaign: its caller stores
the map (or its text, ``format_map``) where it wants.

Keys (the map's own keys move the cursor: arrows, ``hjkl``, ``z`` zoom):
``.`` ``~`` ``f`` ``r`` set the cursor hex's surface (the text map's codes),
``0``-``9`` its height, ``+``/``-`` one up or down; ``n`` a new strip and
``c`` a new carrier starting at the cursor, ``e`` edit and ``d`` delete the
strip or carrier under it; ``S`` the map's size; ``i`` import and ``w`` export
a text map file (``rules/air/battle_map.py``'s format). An import with a bad line is
refused with the line and column at the file field, and the map is unchanged.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from ka_tui.rules.air.battle_map import (
    BattleMap,
    Carrier,
    MapError,
    Strip,
    Surface,
    Terrain,
    format_map,
    parse_map,
)
from ka_tui.rules.air.hexgrid import FACING_NAMES, Hex
from ka_tui.widgets.form_fields import (
    CheckField,
    ChoiceField,
    FormScreen,
    IntField,
    TextField,
)
from ka_tui.widgets.hex_map import HexMap
from ka_tui.widgets.quiet_footer import QuietFooter

SURFACE_KEYS = {"full_stop": Surface.OPEN, "tilde": Surface.WATER, "f": Surface.FOREST,
                "r": Surface.ROUGH}
MAX_SIZE = 200          # hexes per side: a 100x100 battle map with room to spare
MAX_HEIGHT = 12         # altitude levels (RULES-NOTES D: the echelon table's top)
MAX_LENGTH = 30         # strip/carrier hexes (R-10's longest need is 12)


def _expand(text: str) -> Path:
    return Path(text).expanduser()


def _one_word(value: Any) -> str | None:
    text = str(value)
    if any(ch.isspace() for ch in text) or "#" in text:
        return "one word, no '#'"
    return None


class MapEditorScreen(Screen["BattleMap | None"]):
    """Edit a battle map; ``dismiss(map)`` on ``ctrl+s``, ``dismiss(None)`` on escape."""

    HELP_TITLE = "Map editor"

    CSS_PATH = "map_editor.tcss"

    BINDINGS = [
        Binding("ctrl+s", "done", "Done", id="map_editor.done"),
        Binding("escape", "cancel", "Cancel", id="map_editor.cancel"),
        *(Binding(key, f"surface('{surface.value}')", f"Terrain: {surface.label}",
                  show=False, id=f"map_editor.surface_{surface.value}")
          for key, surface in SURFACE_KEYS.items()),
        *(Binding(str(d), f"height({d})", f"Height {d}", show=False,
                  id=f"map_editor.height_{d}") for d in range(10)),
        Binding("plus", "raise(1)", "Higher", show=False, id="map_editor.higher"),
        Binding("minus", "raise(-1)", "Lower", show=False, id="map_editor.lower"),
        Binding("n", "new_strip", "Strip", id="map_editor.new_strip"),
        Binding("c", "new_carrier", "Carrier", id="map_editor.new_carrier"),
        Binding("e", "edit_site", "Edit", show=False, id="map_editor.edit"),
        Binding("d", "delete_site", "Delete", show=False, id="map_editor.delete"),
        Binding("S", "resize", "Size", show=False, id="map_editor.size"),
        Binding("i", "import_map", "Import", id="map_editor.import"),
        Binding("w", "export_map", "Export", id="map_editor.export"),
    ]

    def __init__(self, battle_map: BattleMap | None = None, *, title: str = "Map") -> None:
        super().__init__()
        self.original = battle_map or BattleMap(20, 12)
        self.title_text = title
        self.edited = self.original
        self._status: tuple[str, bool] = ("", False)

    # ---------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield Static(f"Map editor: {self.title_text}", classes="editor-title", markup=False)
        with Horizontal():
            yield HexMap(self.edited, id="editor-map")
            yield Static("", classes="editor-side", id="editor-side", markup=False)
        yield Static("", classes="editor-status", id="editor-status", markup=False)
        yield QuietFooter(compact=True)

    @property
    def hex_map(self) -> HexMap:
        return self.query_one("#editor-map", HexMap)

    def on_mount(self) -> None:
        self.hex_map.focus()
        self._show_side()

    def unsaved_changes(self) -> str | None:
        return "The map has changes that are not kept." if self.edited != self.original else None

    @on(HexMap.CursorMoved)
    def _cursor_moved(self) -> None:
        self._show_side()

    def _show_side(self) -> None:
        m, h = self.edited, self.hex_map.cursor
        col, row = h.to_offset()
        cell = m.terrain.get(h, Terrain())
        lines = [f"Map {m.cols} x {m.rows} hexes", "", f"Hex {col},{row}",
                 f"{cell.surface.label}, height {cell.height}"]
        site = m.strip_at(h)
        if site is not None:
            kind = "Carrier" if site.surface is Surface.CARRIER else "Strip"
            lines += [f"{kind} {site.name}",
                      f" {FACING_NAMES[site.facing]} {site.length}x{site.width}"
                      f" {site.surface.value} h{site.height}"]
        else:
            lines += ["", ""]
        lines += ["", ". ~ f r  terrain", "0-9 + -  height", "n strip  c carrier",
                  "e edit   d delete", "S size   z zoom", "i import w export",
                  "ctrl+s done", "esc cancel"]
        self.query_one("#editor-side", Static).update("\n".join(lines))

    def set_status(self, message: str, *, error: bool = False) -> None:
        status = self.query_one("#editor-status", Static)
        status.update(message)
        status.set_class(error, "-error")
        self._status = (message, error)

    def _apply(self, new: BattleMap, message: str = "") -> None:
        self.edited = new
        self.hex_map.set_map(new)
        self._show_side()
        self.set_status(message)

    # ---------------------------------------------------------------- terrain

    def _cell(self) -> tuple[Hex, Terrain]:
        h = self.hex_map.cursor
        return h, self.edited.terrain.get(h, Terrain())

    def _set_cell(self, h: Hex, cell: Terrain) -> None:
        terrain = dict(self.edited.terrain)
        if cell == Terrain():
            terrain.pop(h, None)
        else:
            terrain[h] = cell
        self._apply(replace(self.edited, terrain=terrain))

    def action_surface(self, value: str) -> None:
        h, cell = self._cell()
        self._set_cell(h, Terrain(Surface(value), cell.height))

    def action_height(self, height: int) -> None:
        h, cell = self._cell()
        self._set_cell(h, Terrain(cell.surface, height))

    def action_raise(self, step: int) -> None:
        h, cell = self._cell()
        height = cell.height + step
        if not 0 <= height <= MAX_HEIGHT:
            self.set_status(f"Height is 0..{MAX_HEIGHT}.", error=True)
            return
        self._set_cell(h, Terrain(cell.surface, height))

    # ---------------------------------------------------------------- strips, carriers

    def _site_at(self, h: Hex) -> Strip | Carrier | None:
        for s in self.edited.strips:
            if h in s.hexes():
                return s
        for c in self.edited.carriers:
            if h in c.as_strip().hexes():
                return c
        return None

    def _names(self, skip: Strip | Carrier | None = None) -> set[str]:
        sites: list[Strip | Carrier] = [*self.edited.strips, *self.edited.carriers]
        return {s.name for s in sites if s is not skip}

    def action_new_strip(self) -> None:
        self._open_site_form(None, carrier=False)

    def action_new_carrier(self) -> None:
        self._open_site_form(None, carrier=True)

    def action_edit_site(self) -> None:
        site = self._site_at(self.hex_map.cursor)
        if site is None:
            self.set_status("No strip or carrier here to edit.", error=True)
            return
        self._open_site_form(site, carrier=isinstance(site, Carrier))

    def action_delete_site(self) -> None:
        site = self._site_at(self.hex_map.cursor)
        if site is None:
            self.set_status("No strip or carrier here to delete.", error=True)
            return
        m = self.edited
        self._apply(replace(m, strips=tuple(s for s in m.strips if s is not site),
                            carriers=tuple(c for c in m.carriers if c is not site)),
                    f"Deleted {site.name}.")

    def _open_site_form(self, site: Strip | Carrier | None, *, carrier: bool) -> None:
        start = self.hex_map.cursor
        if site is not None:
            start = site.stern if isinstance(site, Carrier) else site.start
        form = SiteForm(site, carrier=carrier, start=start, taken=self._names(site))

        def done(values: dict[str, Any] | None) -> None:
            if values is None:
                return
            new: Strip | Carrier
            if carrier:
                new = Carrier(values["name"], start, values["facing"], values["length"],
                              values["width"], values["height"])
            else:
                new = Strip(values["name"], start, values["facing"], values["length"],
                            values["width"], values["surface"], values["height"])
            m = self.edited
            if isinstance(new, Carrier):
                carriers = [c for c in m.carriers if c is not site] + [new]
                result = replace(m, carriers=tuple(carriers))
            else:
                strips = [s for s in m.strips if s is not site] + [new]
                result = replace(m, strips=tuple(strips))
            self._apply(result, f"{'Changed' if site else 'Added'} {new.name}.")

        self.app.push_screen(form, done)

    # ---------------------------------------------------------------- size, files

    def action_resize(self) -> None:
        def done(values: dict[str, Any] | None) -> None:
            if values is None:
                return
            cols, rows = int(values["cols"]), int(values["rows"])
            m = self.edited

            def inside(h: Hex) -> bool:
                col, row = h.to_offset()
                return 0 <= col < cols and 0 <= row < rows

            strips = tuple(s for s in m.strips if inside(s.start))
            carriers = tuple(c for c in m.carriers if inside(c.stern))
            dropped = len(m.strips) + len(m.carriers) - len(strips) - len(carriers)
            new = BattleMap(cols, rows, {h: t for h, t in m.terrain.items() if inside(h)},
                            strips, carriers)
            note = f" ({dropped} strip(s)/carrier(s) off the map removed)" if dropped else ""
            self._apply(new, f"Map is now {cols} x {rows}.{note}")

        self.app.push_screen(SizeForm(self.edited.cols, self.edited.rows), done)

    def action_import_map(self) -> None:
        def done(new: BattleMap | None) -> None:
            if new is not None:
                self._apply(new, f"Imported a {new.cols} x {new.rows} map.")

        self.app.push_screen(MapFileForm(), done)

    def action_export_map(self) -> None:
        try:
            text = format_map(self.edited)
        except ValueError as error:
            self.set_status(f"Cannot export: {error}", error=True)
            return

        def done(path: Path | None) -> None:
            if path is not None:
                self.set_status(f"Written to {path}.")

        self.app.push_screen(MapFileForm(export_text=text), done)

    # ---------------------------------------------------------------- leave

    def action_done(self) -> None:
        self.dismiss(self.edited)

    def action_cancel(self) -> None:
        if self.unsaved_changes() is None:
            self.dismiss(None)
            return
        from ka_tui.screens.confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                self.dismiss(None)

        self.app.push_screen(ConfirmScreen("Leave the editor and drop the changes?",
                                           yes="Drop", title="Map editor"), answered)


class SiteForm(FormScreen[dict[str, Any]]):
    """A strip (R-10: length, width, surface) or a carrier (length, width, deck height)."""

    HELP_TITLE = "Strip or carrier"

    def __init__(self, site: Strip | Carrier | None, *, carrier: bool, start: Hex,
                 taken: set[str]) -> None:
        super().__init__()
        self.site = site
        self.carrier = carrier
        self.start = start
        self.taken = taken

    def compose(self) -> ComposeResult:
        s = self.site
        kind = "carrier" if self.carrier else "strip"
        col, row = self.start.to_offset()
        with Vertical(classes="form-box") as box:
            box.border_title = f"{'Edit' if s else 'New'} {kind} at {col},{row}"
            yield TextField("Name", s.name if s else "", key="name", required=True,
                            max_length=24, check=[_one_word, self._free])
            yield ChoiceField("Facing", [(n, i) for i, n in enumerate(FACING_NAMES)],
                              s.facing if s else 0, key="facing")
            yield IntField("Length", s.length if s else 4, key="length", lo=1, hi=MAX_LENGTH)
            yield IntField("Width", s.width if s else 1, key="width", lo=1, hi=5)
            if not self.carrier:
                surface = s.surface if isinstance(s, Strip) else Surface.PREPARED
                yield ChoiceField("Surface", [("prepared", Surface.PREPARED),
                                              ("unprepared", Surface.UNPREPARED)],
                                  surface, key="surface")
            yield IntField("Deck height" if self.carrier else "Height",
                           s.height if s else 0, key="height", lo=0, hi=MAX_HEIGHT)
            yield Static("ctrl+s keeps it, escape drops it.", classes="form-status")
        yield QuietFooter()

    def _free(self, value: Any) -> str | None:
        return "name already used on this map" if str(value) in self.taken else None


class SizeForm(FormScreen[dict[str, Any]]):
    HELP_TITLE = "Map size"

    def __init__(self, cols: int, rows: int) -> None:
        super().__init__()
        self.cols, self.rows = cols, rows

    def compose(self) -> ComposeResult:
        with Vertical(classes="form-box") as box:
            box.border_title = "Map size (hexes)"
            yield IntField("Columns", self.cols, key="cols", lo=1, hi=MAX_SIZE)
            yield IntField("Rows", self.rows, key="rows", lo=1, hi=MAX_SIZE)
            yield Static("Cells off a smaller map are dropped.", classes="form-status")
        yield QuietFooter()


class MapFileForm(FormScreen[Any]):
    """Import (``export_text`` None: read and parse a text map, the map is the
    result) or export (write ``export_text``; the path is the result)."""

    HELP_TITLE = "Map file"

    def __init__(self, export_text: str | None = None) -> None:
        super().__init__()
        self.export_text = export_text

    def compose(self) -> ComposeResult:
        exporting = self.export_text is not None
        with Vertical(classes="form-box") as box:
            box.border_title = "Export map to a text file" if exporting else \
                "Import a text map file"
            yield TextField("File", str(Path.cwd() / "map.txt") if exporting else "",
                            key="file", required=True, check=self._check)
            if exporting:
                yield CheckField("Overwrite", False, key="overwrite")
            yield Static("The text map format: one row of cells per line, then strip "
                         "and carrier lines.", classes="form-status")
        yield QuietFooter()

    def _check(self, value: Any) -> str | None:
        path = _expand(str(value))
        if path.is_dir():
            return "is a folder"
        if self.export_text is None and not path.is_file():
            return "no such file"
        if self.export_text is not None and not path.parent.is_dir():
            return "no such folder"
        return None

    def write(self, values: dict[str, Any]) -> Any:
        from ka_tui.store.errors import ValidationError

        path = _expand(values["file"])
        if self.export_text is not None:
            from ka_tui.store.files import write_text_atomic

            if path.exists() and not values.get("overwrite"):
                raise ValidationError("file", "exists: tick Overwrite to replace it")
            try:
                write_text_atomic(path, self.export_text)
            except OSError as error:
                raise ValidationError("file", f"cannot write: {error.strerror}") from None
            return path
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ValidationError("file", f"cannot read: {error}") from None
        try:
            return parse_map(text)
        except MapError as error:
            raise ValidationError("file", str(error)) from None
