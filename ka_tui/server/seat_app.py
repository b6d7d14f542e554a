"""One player's view as the table server starts it, in a child process:
``python -m ka_tui.server.seat_app --db PATH --as NAME [--view JSON]``.

The same app and the same quick start as ``ka-tui play --as NAME`` (its
startup read forked before Textual loads), with what the server adds: on a
pseudo-terminal it takes that terminal as its controlling one (so a window
resize reaches it), ``--view`` puts the player back where he was, and where
he goes is written, a JSON line per change, to the file descriptor named by
``KA_TUI_VIEW_FD`` (the server keeps the last one for his next connection).
Under textual-serve the environment names Textual's web driver instead of a
terminal. Not a command for people: the server runs it.

``--wait``: a spare, started before anyone connects. It loads what a view
needs (Textual, the player's screen, the store's reads: about half of a
view's start), then waits for its order on the descriptor named by
``KA_TUI_SEAT_ORDER_FD``, a JSON line: the character, where to put him back,
and the variables of his connection (``TERM``; the browser's size). The
server keeps one spare per way in, so a player's first frame does not wait
for Python to load them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

VIEW_FD = "KA_TUI_VIEW_FD"
ORDER_FD = "KA_TUI_SEAT_ORDER_FD"


def _warm_up() -> None:
    """What the view imports on its way to its first frame, loaded ahead."""
    import textual.app  # noqa: F401
    import textual.widgets  # noqa: F401

    import ka_tui.player_app  # noqa: F401
    import ka_tui.screens.player.screen  # noqa: F401
    import ka_tui.store.player_data  # noqa: F401
    import ka_tui.store.players  # noqa: F401
    import ka_tui.store.startup_read  # noqa: F401
    if "web_driver" in os.environ.get("TEXTUAL_DRIVER", ""):
        import textual.drivers.web_driver  # noqa: F401
    else:
        import textual.drivers.linux_driver  # noqa: F401


def _order() -> dict[str, object] | None:
    """The server's order to a spare (None: the server let it go)."""
    fd_text = os.environ.pop(ORDER_FD, "")
    if not fd_text.isdigit():
        return None
    with os.fdopen(int(fd_text), "rb") as orders:
        line = orders.readline()
    try:
        order = json.loads(line)
    except ValueError:
        return None
    return order if isinstance(order, dict) and isinstance(order.get("name"), str) else None


def _take_terminal() -> None:
    """Make standard input, a pty the server opened, this session's
    controlling terminal (the server started us as a session leader)."""
    import fcntl
    import termios

    if os.isatty(0):
        try:
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        except OSError:
            pass  # no controlling terminal: resizes arrive when the next key does


def _reporter() -> object:
    fd_text = os.environ.pop(VIEW_FD, "")
    if not fd_text.isdigit():
        return None
    fd = int(fd_text)

    def report(view: object) -> None:
        try:
            os.write(fd, (json.dumps(view.to_dict()) + "\n").encode())  # type: ignore[attr-defined]
        except OSError:
            pass  # the server went away: nothing to tell

    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ka_tui.server.seat_app")
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--as", dest="name", default="")
    parser.add_argument("--view", default="")
    parser.add_argument("--wait", action="store_true")
    args = parser.parse_args(argv)
    if args.wait:
        _warm_up()
        order = _order()
        if order is None:
            return 0
        env = order.get("env")
        if isinstance(env, dict):
            os.environ.update({str(k): str(v) for k, v in env.items()})
        args.name = order["name"]
        args.view = json.dumps(order["view"]) if isinstance(order.get("view"), dict) else ""
    if not args.name:
        print("ka-tui: seat_app needs --as NAME", file=sys.stderr)
        return 2
    from ka_tui.store.startup_read import pause_collector

    pause_collector()
    _take_terminal()
    from ka_tui.store.errors import StoreError
    from ka_tui.store.player_data import check_player

    try:
        full = check_player(args.db, args.name)
    except StoreError as error:
        print(f"ka-tui: {error}", file=sys.stderr)
        return 2
    from ka_tui.store.startup_read import begin_player_read

    startup_read = begin_player_read(args.db, full)
    from ka_tui.player_app import PlayerApp, SeatView

    try:
        view = SeatView.from_dict(json.loads(args.view)) if args.view else None
    except ValueError:
        view = None
    app = PlayerApp(args.db, full, startup_read=startup_read, view=view,
                    on_view=_reporter())  # type: ignore[arg-type]
    app.run()
    return app.return_code or 0   # 1 when the app ended on an error


if __name__ == "__main__":
    raise SystemExit(main())
