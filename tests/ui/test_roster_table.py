"""The roster's fixed-width table (``widgets/fast_table.py``): cursor keys,
messages, scrolling to the cursor, and a large row set."""

from __future__ import annotations

from textual.app import App, ComposeResult

from ka_tui.widgets.fast_table import FastTable


class TableApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, str | None]] = []

    def compose(self) -> ComposeResult:
        yield FastTable(id="t")

    def on_mount(self) -> None:
        table = self.query_one(FastTable)
        table.add_column("Name", 10)
        table.add_column("N", 3)
        table.set_rows([(str(i), (f"Row {i}", str(i))) for i in range(1000)])
        table.focus()

    def on_fast_table_highlighted(self, event: FastTable.Highlighted) -> None:
        self.seen.append(("h", event.key))

    def on_fast_table_selected(self, event: FastTable.Selected) -> None:
        self.seen.append(("s", event.key))


async def test_cursor_keys_scroll_and_select() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 10)) as pilot:
        table = app.query_one(FastTable)
        await pilot.press("down", "down")
        assert table.cursor_key == "2"
        await pilot.press("end")
        await pilot.pause()
        assert table.cursor_row == 999
        assert table.scroll_y >= 999 - (table.size.height - 1)
        await pilot.press("home", "pagedown")
        assert table.cursor_row == table.size.height - 2
        await pilot.press("enter")
        await pilot.pause()
        assert app.seen[-1] == ("s", str(table.cursor_row))
        assert ("h", "2") in app.seen


async def test_set_rows_keeps_the_cursor_on_its_key() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 10)) as pilot:
        table = app.query_one(FastTable)
        table.move_cursor(row=500)
        table.set_rows([(str(i), (f"Row {i}", str(i))) for i in range(400, 600)],
                       keep_key=table.cursor_key)
        await pilot.pause()
        assert table.cursor_key == "500"
        table.set_rows([], keep_key="500")
        assert table.cursor_key is None and table.row_count == 0


async def test_long_cells_are_cut_with_a_mark() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 10)) as pilot:
        table = app.query_one(FastTable)
        table.set_rows([("x", ("A very long name", "1"))])
        await pilot.pause()
        line = table.render_line(1).text
        assert "A very lo~" in line and "A very long" not in line
