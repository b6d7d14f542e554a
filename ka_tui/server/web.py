"""The table server's browser side, on textual-serve.

A player opens his private link, ``http://HOST:PORT/P/TOKEN``: the page is
textual-serve's terminal (its xterm.js front end and its protocol), and its
websocket, ``/P/TOKEN/ws/TICKET``, shows his view (``ka_tui.server.seat_app``)
running on Textual's web driver in a child process of the server. The token
is checked on both; without a live one nothing but a one-line page is
served. Nothing else of textual-serve's server is on: no downloads, no
index app.

The view starts when the page is asked for, not when its websocket comes:
the browser loads and starts the front end (half a second) while the app
starts, so his first frame comes about as soon as a local ``ka-tui play``'s.
The page carries a one-time ticket for that view; the websocket takes it
up (and the app is told the terminal's real size). A view no websocket
takes up within ``PARK_SECONDS`` is ended, and one link has one such view
waiting at most.

The token stays out of every log (aiohttp's access log is off; a filter
takes any ``/P/…`` out of the records of aiohttp's loggers) and off other
sites (``Referrer-Policy: no-referrer``). textual-serve's own extension
points are private names (``Server._make_app`` builds the routes,
``AppService._open_app_process`` starts the app); both are overridden here
only, and ``tests/server/test_web_seat.py`` checks they still exist.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import os
import re
import secrets
import signal
from collections.abc import Callable
from importlib.metadata import version
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager
from textual_serve.server import Server

from ka_tui.server.seat_app import ORDER_FD, VIEW_FD
from ka_tui.server.seat_process import SeatOrders, ViewPipe
from ka_tui.store import table_seats
from ka_tui.store.errors import StoreError
from ka_tui.store.table_seats import Admitted, NotAdmitted

if TYPE_CHECKING:
    from ka_tui.server.table import TableServer

_TOKEN_IN_PATH = re.compile(r"/[Pp]/[A-Za-z2-7]+")
_AIOHTTP_LOGGERS = ("aiohttp.access", "aiohttp.client", "aiohttp.internal", "aiohttp.server",
                    "aiohttp.web", "aiohttp.websocket")
_HEADERS = {"Referrer-Policy": "no-referrer", "Cache-Control": "no-store",
            "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff"}


class _NoTokens(logging.Filter):
    """Takes a link's token out of a log record, whatever logs it."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if _TOKEN_IN_PATH.search(text):
            record.msg, record.args = _TOKEN_IN_PATH.sub("/P/…", text), ()
        record.exc_info = record.exc_info if "/P/" not in str(record.exc_info) else None
        return True


def keep_tokens_out_of_logs() -> None:
    # textual-serve says "Application failed to start" for a view ended before
    # it started (a spare at the server's stop, a page left at once); a view
    # that fails prints its own error, which the app service passes on
    logging.getLogger("textual-serve").setLevel(logging.CRITICAL)
    for name in _AIOHTTP_LOGGERS:
        log = logging.getLogger(name)
        if not any(isinstance(f, _NoTokens) for f in log.filters):
            log.addFilter(_NoTokens())


def _page(title: str, body: str, status: int = 200) -> web.Response:
    text = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
            "</title><meta name='viewport' content='width=device-width'></head><body style="
            "'background:#0c181f;color:#eee;font-family:monospace;padding:2em'>"
            f"<p>{html.escape(body)}</p></body></html>")
    return web.Response(text=text, content_type="text/html", status=status, headers=_HEADERS)


PARK_SECONDS = 15.0


class WebSeat(AppService):
    """A player's view for one browser: textual-serve's app service, started
    as an argument list (no shell), in its own session, with the server's
    environment for players (``seat_process.seat_env``), not the GM's whole
    one, and the pipe that says where the player is. What it draws before a
    websocket takes it up (``attach``) is kept and sent then."""

    def __init__(self, argv: list[str], env: dict[str, str], *, spare: bool = False) -> None:
        super().__init__("", write_bytes=self._out_bytes, write_str=self._out_text,
                         close=self._out_close, download_manager=DownloadManager())
        self.argv = argv
        self.env = env
        self.on_view: Callable[[dict[str, object]], None] = lambda view: None
        self._orders = SeatOrders() if spare else None
        self.process: asyncio.subprocess.Process | None = None
        self._views: ViewPipe | None = None
        self.websocket: web.WebSocketResponse | None = None
        self.size = (80, 24)   # the app's terminal size, as last told
        self._early: list[bytes] = []
        self._closed_early = False

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None

    def order(self, name: str, view: dict[str, object] | None, width: int,
              height: int) -> None:
        """A spare's player (and the browser's size, as far as it is known)."""
        assert self._orders is not None, "not a spare"
        self._orders.send(name, view, {"COLUMNS": str(width), "ROWS": str(height)})
        self.size = (width, height)

    async def attach(self, websocket: web.WebSocketResponse, width: int, height: int) -> None:
        """The browser's websocket takes the view up: what it drew so far, then
        its frames as they come, at the browser terminal's size."""
        self.websocket = websocket
        early, self._early = self._early, []
        for data in early:
            await websocket.send_bytes(data)
        if self._closed_early:
            await websocket.close()
            return
        await self.resize(width, height)

    async def resize(self, width: int, height: int) -> None:
        """A new size for the app, if it is one: each resize repaints it whole."""
        if (width, height) != self.size:
            self.size = (width, height)
            await self.set_terminal_size(width, height)

    async def _out_bytes(self, data: bytes) -> None:
        if self.websocket is None:
            self._early.append(data)
        else:
            await self.websocket.send_bytes(data)

    async def _out_text(self, text: str) -> None:
        if self.websocket is not None:
            await self.websocket.send_str(text)

    async def _out_close(self) -> None:
        if self.websocket is None:
            self._closed_early = True
        else:
            await self.websocket.close()

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        self.size = (width, height)
        self._views = ViewPipe(lambda view: self.on_view(view))
        env = {**self.env, "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver",
               "TEXTUAL_FPS": "60", "TEXTUAL_COLOR_SYSTEM": "truecolor",
               "TERM_PROGRAM": "textual", "TERM_PROGRAM_VERSION": version("textual-serve"),
               "COLUMNS": str(width), "ROWS": str(height), VIEW_FD: str(self._views.write_fd)}
        fds = [self._views.write_fd]
        if self._orders is not None:
            env[ORDER_FD] = str(self._orders.read_fd)
            fds.append(self._orders.read_fd)
        self.process = self._process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=env, start_new_session=True,
            pass_fds=tuple(fds))
        self._views.child_started()
        if self._orders is not None:
            self._orders.child_started()
        assert self.process.stdin is not None
        self._stdin = self.process.stdin
        return self.process

    async def on_meta(self, data: bytes) -> None:
        """Only the app's exit is passed on: no file goes to the browser."""
        with contextlib.suppress(ValueError):
            if json.loads(data).get("type") == "exit":
                await self.remote_close()

    async def end(self, grace: float = 3.0) -> None:
        """Ask the app to quit; after ``grace`` seconds, kill it."""
        if self._orders is not None:
            self._orders.close()   # a spare still waiting ends at once
        try:
            await asyncio.wait_for(self.stop(), grace)
        except (TimeoutError, OSError, ConnectionError):
            pass
        process = self.process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), grace)
        if self._views is not None:
            self._views.close()


class Parked:
    """A view started for a page, waiting for the page's websocket."""

    def __init__(self, seat: WebSeat, character_id: int, token: str,
                 expire: asyncio.TimerHandle) -> None:
        self.seat, self.character_id, self.token, self.expire = seat, character_id, token, \
            expire


class WebSession:
    """One browser connection, as the table server drops it."""

    def __init__(self, websocket: web.WebSocketResponse) -> None:
        self.websocket = websocket
        self.seat: WebSeat | None = None
        self.goodbye = ""

    def drop(self, why: str) -> None:
        self.goodbye = why

        async def close() -> None:
            if self.seat is not None:
                await self.seat.end()
            await self.websocket.close()

        asyncio.get_running_loop().create_task(close())


class TableWeb(Server):
    """textual-serve's server with the table's routes and token checks."""

    def __init__(self, table: TableServer, host: str, port: int, public_url: str) -> None:
        super().__init__("ka-tui player view", host=host, port=port, title="ka-tui",
                         public_url=public_url)
        self.table = table
        self.runner: web.AppRunner | None = None
        self.parked: dict[str, Parked] = {}

    async def _make_app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024)
        app.add_routes([
            web.get("/", self.handle_root),
            web.get(r"/{p:[Pp]}/{token}", self.handle_index),
            web.get(r"/{p:[Pp]}/{token}/ws", self.handle_websocket),
            web.get(r"/{p:[Pp]}/{token}/ws/{ticket}", self.handle_websocket),
            web.static("/static", self.statics_path, name="static"),
        ])
        app.on_response_prepare.append(_cache_static)
        return app

    async def start(self) -> list[tuple[str, int]]:
        """Listen; returns the addresses listened on."""
        keep_tokens_out_of_logs()
        self.runner = web.AppRunner(await self._make_app(), access_log=None,
                                    handle_signals=False)
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.host or None, self.port)
        await site.start()
        return [(str(a[0]), int(a[1])) for a in self.runner.addresses]

    async def stop(self) -> None:
        for ticket in list(self.parked):
            await self._unpark(ticket)
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    async def handle_root(self, request: web.Request) -> web.Response:
        return _page("ka-tui", "This is a ka-tui table. Open the link your GM gave you.")

    async def _admitted(self, request: web.Request) -> Admitted | web.Response:
        token = request.match_info["token"]
        try:
            return await self.table.in_thread(lambda db: table_seats.admit_token(db, token))
        except NotAdmitted as refusal:
            return _page("ka-tui", f"ka-tui: {refusal}.", status=404)
        except StoreError as error:
            return _page("ka-tui", f"ka-tui: {error}", status=503)

    async def handle_index(self, request: web.Request) -> web.Response:
        who = await self._admitted(request)
        if isinstance(who, web.Response):
            return who
        font = request.query.get("fontsize", "16")
        size = int(font) if font.isdigit() and 6 <= int(font) <= 40 else 16
        ticket = await self._park(who, request.match_info["token"].upper())
        page = SEAT_PAGE.replace("{{title}}", html.escape(f"ka-tui · {who.name}")).replace(
            "{{font_size}}", str(size)).replace("{{static}}", "/static/").replace(
            "{{ticket}}", ticket)
        return web.Response(text=page, content_type="text/html", headers=_HEADERS)

    async def _park(self, who: Admitted, token: str) -> str:
        """Start the view for this page now; its websocket takes it up."""
        for ticket, parked in list(self.parked.items()):
            if parked.token == token:   # the page asked again: one waiting view a link
                await self._unpark(ticket)
        ticket = secrets.token_urlsafe(18)
        try:
            seat = await self.table.web_seat(who, 80, 24)
        except OSError:
            return "-"   # no view waits: the websocket starts one itself
        loop = asyncio.get_running_loop()
        expire = loop.call_later(PARK_SECONDS,
                                 lambda: loop.create_task(self._unpark(ticket)))
        self.parked[ticket] = Parked(seat, who.character_id, token, expire)
        return ticket

    async def _unpark(self, ticket: str) -> None:
        parked = self.parked.pop(ticket, None)
        if parked is not None:
            parked.expire.cancel()
            await parked.seat.end()



    async def handle_websocket(  # type: ignore[override]
            self, request: web.Request) -> web.StreamResponse:
        who = await self._admitted(request)
        if isinstance(who, web.Response):
            return who
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=1 << 20)
        await websocket.prepare(request)
        session = WebSession(websocket)
        connection_id = await self.table.opened(who, "web", request.remote or "", session)
        why = "left"
        try:
            width, height = _size(request.query.get("width"), request.query.get("height"))
            parked = self.parked.pop(request.match_info.get("ticket", ""), None)
            if parked is not None and parked.character_id == who.character_id:
                parked.expire.cancel()
                seat = session.seat = parked.seat
            else:
                if parked is not None:
                    await parked.seat.end()
                seat = session.seat = await self.table.web_seat(who, width, height)
            await seat.attach(websocket, width, height)
            await _relay(websocket, seat)
        except (OSError, ConnectionError) as error:
            why = f"the connection failed: {type(error).__name__}"
        finally:
            if session.seat is not None:
                await session.seat.end()
            await self.table.closed(connection_id, session.goodbye or why)
            await websocket.close()
        return websocket


async def _cache_static(request: web.Request, response: web.StreamResponse) -> None:
    """The front end's files (the same for every player) are kept by the
    browser for a day: a player who comes back loads only his page."""
    if request.path.startswith("/static/") and response.status == 200:
        response.headers["Cache-Control"] = "public, max-age=86400"


def _size(width: object, height: object) -> tuple[int, int]:
    def number(value: object, default: int) -> int:
        return max(10, min(int(value), 500)) if isinstance(value, str) and value.isdigit() \
            else default

    return number(width, 80), number(height, 24)


async def _relay(websocket: web.WebSocketResponse, seat: WebSeat) -> None:
    """The browser's messages to the app, as textual-serve's front end sends
    them; anything malformed is dropped, never an error."""
    async for message in websocket:
        if message.type != WSMsgType.TEXT:
            continue
        try:
            envelope = json.loads(message.data)
        except ValueError:
            continue
        if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
            continue
        kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
        if kind == "stdin" and isinstance(data, str):
            await seat.send_bytes(data.encode("utf-8", "replace"))
        elif kind == "resize" and isinstance(data, dict):
            width, height = _size(str(data.get("width", "")), str(data.get("height", "")))
            await seat.resize(width, height)
        elif kind == "ping":
            await websocket.send_json(["pong", data])
        elif kind == "blur":
            await seat.blur()
        elif kind == "focus":
            await seat.focus()


# textual-serve's page (templates/app_index.html), with the fonts it ships
# instead of a font site (the table may be offline), and the websocket's
# address taken from the page's own (so it works behind a TLS proxy too).
SEAT_PAGE = """<!DOCTYPE html>
<html>
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>{{title}}</title>
    <link rel="stylesheet" href="{{static}}css/xterm.css" />
    <script src="{{static}}js/textual.js"></script>
    <style>
      @font-face { font-family: "Roboto Mono";
        src: url("{{static}}fonts/RobotoMono-VariableFont_wght.ttf"); }
      body { background: #0c181f; margin: 0; }
      .dialog-container { position: absolute; width: 100vw; height: 100vh; display: flex;
        align-items: center; justify-content: center; z-index: 10; }
      .intro { padding: 24px; font-size: 16px; z-index: 20; text-align: center;
        font-family: "Roboto Mono", menlo, monospace; color: rgba(255, 255, 255, 0.95);
        background-color: #12232d; }
      body.-first-byte .intro-dialog { display: none; }
      body .textual-terminal { opacity: 0; }
      body.-first-byte .textual-terminal { opacity: 1; }
      .closed-dialog { display: none; }
      body.-closed .closed-dialog { display: flex; }
      button { padding: 16px 32px; background-color: #5e0ba7; color: white; border: none;
        font-family: "Roboto Mono", menlo, monospace; margin: 16px auto 0; display: block; }
      #start { display: none; }
    </style>
  </head>
  <body>
    <div class="dialog-container intro-dialog"><div class="intro">{{title}}</div></div>
    <div class="dialog-container closed-dialog">
      <div class="intro">
        <div class="message">Session ended.</div>
        <button type="button" onClick="window.location.reload()">Connect again</button>
      </div>
    </div>
    <div id="terminal" class="textual-terminal" data-font-size="{{font_size}}"></div>
    <script>
      document.getElementById("terminal").dataset.sessionWebsocketUrl =
        (location.protocol === "https:" ? "wss://" : "ws://") + location.host +
        location.pathname.replace(/\\/$/, "") + "/ws/{{ticket}}";
    </script>
  </body>
</html>
"""
