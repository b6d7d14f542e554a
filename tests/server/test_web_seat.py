"""The textual-serve names the table's browser side builds on
(``ka_tui/server/web.py``): its private extension points, checked here so
an upgrade that moves them fails this test, not a player's browser."""

from __future__ import annotations

import inspect

from textual_serve.app_service import AppService
from textual_serve.server import Server

from ka_tui.server.web import TableWeb, WebSeat


def test_textual_serves_extension_points_are_still_there() -> None:
    assert list(inspect.signature(Server._make_app).parameters) == ["self"]
    assert list(inspect.signature(AppService._open_app_process).parameters) == \
        ["self", "width", "height"]
    for name in ("start", "stop", "send_bytes", "set_terminal_size", "blur", "focus",
                 "on_meta", "run", "encode_packet"):
        assert callable(getattr(AppService, name)), name
    source = inspect.getsource(AppService.start)
    assert "_open_app_process" in source and "self.run()" in source
    assert "self._stdin" in inspect.getsource(AppService)
    assert WebSeat._open_app_process is not AppService._open_app_process
    assert TableWeb._make_app is not Server._make_app
    assert Server(command="x").statics_path.joinpath("js", "textual.js").exists()
