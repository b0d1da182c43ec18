"""The dealer's console and the supervisor's screen, served by the table process.

The web server is one more producer for the table's queue and one more reader of
its published state (DESIGN.md, "How data flows"): a button on a page becomes
`table.submit(event, source=...)`, and every state the table publishes is pushed
to each open page as a server-sent event. Nothing here holds game state.

Supervisor actions (validate, refuse, void a round, clear a fault, correct a meter)
are accepted only at /api/supervisor/action, only with a session that a good PIN
obtained (auth.py), and are submitted with source="supervisor" and the signed-in
supervisor's id, which the table journals with the time. The dealer's endpoint
refuses them outright: the server decides, whatever a page sends. Every POST must
carry the X-Tablectl header, which a page from another origin cannot send without
a CORS preflight that this server never grants.

Whoever reaches the screens' port is not trusted for more than the dealer's
buttons (controller/boundary.py says which events each source may submit). Before
anything is parsed a request must name this server: its Host is the configured
screen address (the [screen] bind and port; an IP literal, or localhost on
loopback), so a page from a name that an attacker's DNS points here (DNS
rebinding) gets nothing, and an Origin, when sent, is the same address. A body
over MAX_BODY is refused before it is read (Content-Length) or as soon as the
bytes read pass it, and JSON nested deeper than MAX_JSON_DEPTH is refused
before it is parsed: 413 and 400, never a stalled loop or a 500.

The box's own kiosk has a door of its own (doors.py, [screen] kiosk_port): whoever holds
every connection or stream of the screen's port does not reach the kiosk's, so the dealer's
console is served first. On the screen's port one peer address holds at most half of the
connections and of the streams, and every door lets go of a connection whose headers do
not come (doors.HEADER_SECONDS).

Supervisor authority belongs to the person at the supervisor's view, not to the browser
(issue 26): the dealer's page, when it loads, ends whatever session the browser's cookie
names, and a supervisor's request that a page other than the supervisor's sent (its
Referer) ends the session and is refused. The supervisor's view ends its session when it is
left (Dealer's view, Sign out, the idle time, the page going away).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import re
import socket
from urllib.parse import urlsplit
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from controller.boundary import supervisor_only
from controller.games.handpay import redacted
from controller.games import registry
from controller.games.game import Game
from controller.logs import Repeating

from . import doors
from .auth import Authority, SignInRefused
from .par_routes import routes as par_routes
from .report_routes import routes as report_routes
from .software_routes import routes as software_routes
from .meter_routes import routes as meter_routes
from .metrics_routes import routes as metrics_routes

STATIC = Path(__file__).with_name("static")
COOKIE = "tablectl_supervisor"
CSRF_HEADER = "x-tablectl"
# supervisor_only (controller/boundary.py): only a signed-in supervisor submits them; the table checks again.
MAX_BODY = 16 * 1024       # bytes: the largest thing a screen sends is a few hundred
MAX_JSON_DEPTH = 8         # a screen's deepest body is {"event": {"up": {"1": ["As"]}}}: 4
_STOP = object()           # put on a page's queue to end its stream
HEARTBEAT_SECONDS = 10.0   # a heartbeat event this often, so a dead connection shows on both ends
RETRY_MS = 1000            # what EventSource waits before reconnecting
# What one box's screens need at once, with room to spare: the dealer's console, the supervisor's
# screen, a kiosk or two. Past these an outsider on the network gets a 503, not the box's memory:
MAX_STREAMS = 16           # pages following the table at once (each holds a connection and a queue)
MAX_CONNECTIONS = 64       # connections at once (uvicorn's limit_concurrency: past it, every request is a 503)
# One peer address holds at most half of them, so one client alone never takes every place (issue 26):
MAX_STREAMS_PER_CLIENT = MAX_STREAMS // 2
MAX_CONNECTIONS_PER_CLIENT = MAX_CONNECTIONS // 2
# The kiosk's own door (doors.py): the dealer's console, the supervisor's view, a page being replaced.
KIOSK_STREAMS = 4
KIOSK_CONNECTIONS = 16
BODY_SECONDS = 10.0        # a request's body arrives within this, or the request is refused (408)
SUPERVISOR_PAGE = "/supervisor"   # the one page whose requests carry a supervisor's authority
CARRIED = ("pit_fill", "pit_credit")   # the acts a runner or cashier signs beside the supervisor


def _log():
    try:
        import structlog
        return structlog.get_logger("controller.ui")
    except ImportError:  # pragma: no cover - structlog is a dependency
        return None


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"ok": False, "error": message}, status_code=status)


async def _json_body(request: Request) -> dict:
    if request.headers.get(CSRF_HEADER) != "1":
        raise _Refusal(403, "requests to the table come from its own screens (X-Tablectl header missing)")
    raw = await _bounded_body(request)
    if _json_depth(raw) > MAX_JSON_DEPTH:
        raise _Refusal(400, f"the request body is nested deeper than {MAX_JSON_DEPTH}")
    try:
        body = json.loads(raw or b"null")
    except (ValueError, RecursionError):   # not JSON, not UTF-8, a number of thousands of digits
        raise _Refusal(400, "the request body is not JSON") from None
    if not isinstance(body, dict):
        raise _Refusal(400, "the request body must be a JSON object")
    return body


async def _bounded_body(request: Request) -> bytes:
    """The body, read no further than MAX_BODY (a body without Content-Length is counted as it comes)
    and for no longer than BODY_SECONDS (a body sent a byte at a time holds its place no longer)."""
    chunks, size = [], 0
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BODY:
                    raise _Refusal(413, f"a request body is at most {MAX_BODY} bytes")
                chunks.append(chunk)
    except TimeoutError:
        raise _Refusal(408, f"a request body arrives within {BODY_SECONDS:g} s") from None
    return b"".join(chunks)


_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"?')
_BRACKETS = re.compile(rb"[\[\]{}]")


def _json_depth(raw: bytes) -> int:
    """How deep the body's arrays and objects nest, counted without parsing (strings skipped)."""
    depth = deepest = 0
    for b in _BRACKETS.findall(_STRINGS.sub(b"", raw)):
        depth += 1 if b in (b"[", b"{") else -1
        deepest = max(deepest, depth)
    return deepest


class ScreenAddress:
    """Where the screens are served: what a request's Host (and Origin, when sent) must name.

    The [screen] bind address and the port; a name is never taken (a name is what DNS
    rebinding changes), except "localhost" on a loopback bind. A server bound to every
    address (0.0.0.0, ::) takes any IP literal with its port.
    """

    def __init__(self, host: str, port: int) -> None:
        self.ip = ipaddress.ip_address(host)
        self.port = port

    def names(self, host: str | None) -> bool:
        if not host or len(host) > 300:
            return False
        host = host.strip().lower()
        m = re.fullmatch(r"\[([0-9a-f:.]+)\](?::(\d{1,5}))?|([a-z0-9.\-]+)(?::(\d{1,5}))?", host)
        if m is None:
            return False
        name, port = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if int(port or 80) != self.port:
            return False
        if name == "localhost":
            return self.ip.is_loopback
        try:
            ip = ipaddress.ip_address(name)
        except ValueError:
            return False
        return ip == self.ip or (self.ip.is_unspecified and ip.version == self.ip.version)

    def origin(self, origin: str) -> bool:
        try:
            parts = urlsplit(origin)
        except ValueError:
            return False
        return (parts.scheme in ("http", "https") and not parts.path and not parts.query
                and not parts.username and self.names(parts.netloc))


class _Gate:
    """Before any route: the request names this server (Host, Origin) and its body is not too big.

    Each door has its own address: the kiosk's page names the kiosk's port, the others the screen's."""

    def __init__(self, app, addresses: dict[str, ScreenAddress]) -> None:
        self.app = app
        self.addresses = addresses

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            headers = Headers(scope=scope)
            address = self.addresses.get(scope.get(doors.DOOR_KEY, doors.SCREEN))
            why = None
            if address is None or not address.names(headers.get("host")):
                why = 421, "this server answers to its screen address only (the Host header names another)"
            elif "origin" in headers and not address.origin(headers["origin"]):
                why = 403, "requests to the table come from its own screens (a foreign Origin)"
            else:
                length = headers.get("content-length")
                if length is not None and (not length.isdigit() or len(length) > 12 or int(length) > MAX_BODY):
                    why = 413, f"a request body is at most {MAX_BODY} bytes"
            if why is not None:
                response = _error(*why)
                response.headers["Connection"] = "close"
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _event_of(body: dict) -> dict:
    event = body.get("event")
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise _Refusal(400, 'give the event as {"event": {"type": ..., ...}}')
    return event


class _Refusal(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _refusals(handler):
    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except _Refusal as r:
            return _error(r.status, r.message)
    return wrapped


def create_app(table, secrets_path: Path | str | None, *, authority: Authority | None = None,
               secure_cookie: bool = False, address: ScreenAddress | None = None,
               kiosk: ScreenAddress | None = None) -> Starlette:
    """The screens' web application for one table.

    `authority` replaces the one read from `secrets_path` (tests pass a clock).
    `secure_cookie` marks the session cookie Secure, for a kiosk reached over TLS.
    `address`: where it is served (default: the profile's [screen] bind and port); `kiosk`: the
    kiosk's own door, when there is one (ScreenServer serves each door with its own server).
    """
    if address is None:
        screen = getattr(getattr(table, "profile", None), "screen", None)
        address = ScreenAddress(getattr(screen, "bind", "127.0.0.1"), getattr(screen, "port", 8080))
    log = _log()
    auth = authority or Authority.from_file(secrets_path, log=(log.info if log else None),
                                            state_dir=getattr(table, "data_dir", None))
    # the dealers' roster (controller/roster.py): its own lock-outs, beside the supervisors'
    dealers = getattr(getattr(table, "profile", None), "dealers", None)
    roster = getattr(dealers, "roster", None)
    data_dir = getattr(table, "data_dir", None)
    if roster is not None and data_dir is not None:
        (Path(data_dir) / "roster").mkdir(mode=0o700, exist_ok=True)
    dealer_auth = Authority.from_file(roster, log=(log.info if log else None),
                                      state_dir=None if data_dir is None else Path(data_dir) / "roster")
    # the runners' and cashiers' roster (issue 34): each signs the fill or credit they carry with their PIN
    pit = getattr(getattr(table, "profile", None), "pit", None)
    carriers = getattr(pit, "carriers", None)
    if carriers is not None and data_dir is not None:
        (Path(data_dir) / "carriers").mkdir(mode=0o700, exist_ok=True)
    carrier_auth = Authority.from_file(carriers, log=(log.info if log else None),
                                       state_dir=None if data_dir is None else Path(data_dir) / "carriers")
    streams: dict[asyncio.Queue, tuple[str, str]] = {}   # each page following the table: (door, peer address)
    crowded = Repeating(log, "screen_streams_full") if log else None

    def source(request: Request) -> tuple[str, str | None]:
        """Where a PIN came from (auth.py counts wrong PINs by it): the kiosk's door, or an address."""
        door = request.scope.get(doors.DOOR_KEY, doors.SCREEN)
        return door, None if door == doors.KIOSK else (request.client.host if request.client else "?")

    def signed_in(request: Request):
        """The signed-in supervisor of this request, or None. Authority goes with the supervisor's
        page: a request another page sent (the dealer's, with the cookie the browser still holds)
        ends the session it names, whatever that page's script does."""
        token = request.cookies.get(COOKIE)
        if token and not _from_supervisor_page(request):
            auth.sign_out(token, reason="a request from a page other than the supervisor's")
            return None
        return auth.session(token)

    async def dealer_page(request: Request) -> Response:
        response = FileResponse(STATIC / "dealer.html", headers={"Cache-Control": "no-store"})
        token = request.cookies.get(COOKIE)
        if token:
            # The dealer's page never carries a supervisor's authority: the supervisor left their view.
            auth.sign_out(token, reason="the dealer's page loaded")
            response.delete_cookie(COOKIE, path="/")
        return response

    async def supervisor_page(request: Request) -> Response:
        return FileResponse(STATIC / "supervisor.html", headers={"Cache-Control": "no-store"})

    game = registry.find(getattr(getattr(table, "profile", None), "game", None))
    console = _console(game, getattr(table, "profile", None))

    async def console_info(request: Request) -> Response:
        """The game's part of the screens: its key, its names for people, its scripts and styles
        (static/common.js loads them by the key, from /games/<key>/)."""
        return JSONResponse(console, headers={"Cache-Control": "no-store"})

    async def last_round(request: Request) -> Response:
        """Each seat's wagers of the last round settled before the one open, as the journal holds
        them: "Same as last round" is the table's, so it outlives a reload of the page (issue 30)."""
        return JSONResponse(_last_round(table), headers={"Cache-Control": "no-store"})

    async def state(request: Request) -> Response:
        return JSONResponse(table.published(), headers={"Cache-Control": "no-store"})

    async def events(request: Request) -> Response:
        door = request.scope.get(doors.DOOR_KEY, doors.SCREEN)
        peer = request.client.host if request.client else "?"
        on_door = [p for d, p in streams.values() if d == door]
        most, per_client = (KIOSK_STREAMS, None) if door == doors.KIOSK else (MAX_STREAMS, MAX_STREAMS_PER_CLIENT)
        why = None
        if len(on_door) >= most:
            why = f"at most {most} screens follow the table at once"
        elif per_client is not None and on_door.count(peer) >= per_client:
            why = f"at most {per_client} screens of one address follow the table at once"
        if why is not None:
            # the page retries every second (static/common.js) and gets in once another leaves
            if crowded:
                crowded.failed(open=len(on_door), door=door)
            return JSONResponse({"error": why}, status_code=503,
                                headers={"Retry-After": "5", "Cache-Control": "no-store"})
        if crowded:
            crowded.succeeded()
        queue = table.subscribe()
        streams[queue] = (door, peer)

        async def stream():
            seq = 0
            try:
                yield f"retry: {RETRY_MS}\n\n"
                current: Any = table.published()
                while current is not _STOP:
                    seq += 1
                    yield f"id: {seq}\nevent: state\ndata: {json.dumps(current, separators=(',', ':'))}\n\n"
                    while True:
                        try:
                            current = await asyncio.wait_for(queue.get(), HEARTBEAT_SECONDS)
                        except asyncio.TimeoutError:
                            yield "event: heartbeat\ndata: {}\n\n"
                            continue
                        # A slow page gets the newest state, not every one in between.
                        while current is not _STOP and not queue.empty():
                            current = queue.get_nowait()
                        break
            finally:
                streams.pop(queue, None)
                table.unsubscribe(queue)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    def stop_streams() -> None:
        """End every event stream (server shutdown), or uvicorn waits for the pages to leave."""
        for queue in list(streams):
            queue.put_nowait(_STOP)

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)

    async def dealer_checked(event: dict, request: Request) -> dict:
        """A dealer's sign-in as the roster has it: the badge on the roster, its PIN checked here
        where the profile asks for one (never sent on), the dealer's name added; the table refuses
        a sign-in this server did not check where a PIN is required."""
        if "name" in event or "pin_checked" in event:
            raise _Refusal(400, "the dealer's name is the roster's; the request does not give one")
        pin = event.pop("pin", None)
        if roster is None:
            if pin is not None:
                raise _Refusal(400, "this table signs its dealers in by badge alone")
            return event
        badge = event.get("badge")
        if getattr(dealers, "pin", "off") == "required":
            if not isinstance(pin, str) or not isinstance(badge, str):
                raise _Refusal(403, "give the dealer's badge and PIN")
            known = await asyncio.to_thread(dealer_auth.verify, badge, pin, *source(request))
            return {**event, "name": known.name, "pin_checked": True}
        known_ = dealer_auth.supervisors.get(badge) if isinstance(badge, str) else None
        if known_ is None:
            raise _Refusal(403, f"badge {badge} is not on this table's roster of dealers")
        return {**event, "name": known_.name}

    @_refusals
    async def panel(request: Request) -> Response:
        event = _event_of(await _json_body(request))
        if event["type"] in supervisor_only(table.events):
            raise _Refusal(403, f"{event['type']} is a supervisor's action: sign in on the supervisor's screen")
        if event["type"] == "dealer_on_duty":
            try:
                event = await dealer_checked(event, request)
            except SignInRefused as exc:
                return _error(423 if exc.locked_until else 403, f"dealer sign-in: {exc}")
        result = await table.submit(event, source="panel")
        return JSONResponse(result, status_code=200 if result.get("ok") else 409)

    @_refusals
    async def sign_in(request: Request) -> Response:
        body = await _json_body(request)
        who, pin = body.get("id"), body.get("pin")
        try:
            if not isinstance(who, str) or not isinstance(pin, str):
                raise SignInRefused("give a supervisor id and a PIN")
            # scrypt takes tens of milliseconds: keep it off the table's event loop.
            token, session = await asyncio.to_thread(auth.sign_in, who, pin, *source(request))
        except SignInRefused as exc:
            return _error(423 if exc.locked_until else 401, str(exc))
        response = JSONResponse({"ok": True, "id": session.who, "name": session.name,
                                 "idle_seconds": auth.idle_seconds})
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", secure=secure_cookie, path="/")
        return response

    @_refusals
    async def sign_out(request: Request) -> Response:
        await _json_body(request)
        auth.sign_out(request.cookies.get(COOKIE))
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE, path="/")
        return response

    async def whoami(request: Request) -> Response:
        s = signed_in(request)
        if s is None:
            return _error(401, "not signed in")
        return JSONResponse({"ok": True, "id": s.who, "name": s.name, "idle_seconds": auth.idle_seconds})

    async def carried_by(carrier: object, request: Request) -> str:
        """The runner or cashier who carries a fill or a credit, signed with their own PIN against the
        carriers' roster (the profile's [pit] carriers); the request never names them any other way."""
        if carriers is None:
            raise _Refusal(409, "this table has no roster of runners and cashiers ([pit] carriers in its "
                                "profile): a fill or a credit cannot be signed by its carrier")
        if not isinstance(carrier, dict) or not isinstance(carrier.get("id"), str) \
                or not isinstance(carrier.get("pin"), str):
            raise _Refusal(400, 'the carrier signs with their badge and PIN, as {"carrier": {"id", "pin"}}')
        try:
            known = await asyncio.to_thread(carrier_auth.verify, carrier["id"], carrier["pin"], *source(request))
        except SignInRefused as exc:
            raise _Refusal(423 if exc.locked_until else 403, f"carrier: {exc}") from None
        return known.id

    @_refusals
    async def supervisor_action(request: Request) -> Response:
        body = await _json_body(request)
        s = signed_in(request)
        if s is None:
            raise _Refusal(401, "a supervisor's action needs a supervisor signed in")
        event = _event_of(body)
        if event["type"] not in supervisor_only(table.events):
            raise _Refusal(400, f"{event['type']} is not a supervisor's action; the dealer's console does it")
        if "who" in event or "supervisor" in event or "second_signer" in event or "carrier" in event:
            raise _Refusal(400, "who acts is the signed-in supervisor (and a carrier signs with their PIN); "
                                "the request's event does not name one")
        second = body.get("second")
        if second is not None:
            # A large award's second signature (issue 18), for its validation or its refusal (issue 26):
            # that supervisor's own PIN, checked here; the round decides whether the award needs it.
            if event["type"] not in ("validate", "refuse", "pit_drop") or not isinstance(second, dict):
                raise _Refusal(400, 'a second signer goes with a validation, a refusal or a drop, '
                                    'as {"second": {"id", "pin"}}')
            try:
                other_id, other_pin = second.get("id"), second.get("pin")
                if not isinstance(other_id, str) or not isinstance(other_pin, str):
                    raise SignInRefused("give the second supervisor's id and PIN")
                other = await asyncio.to_thread(auth.countersign, other_id, other_pin, *source(request))
            except SignInRefused as exc:
                return _error(423 if exc.locked_until else 403, f"second signer: {exc}")
            if other.id == s.who:
                raise _Refusal(403, "the second signer is another supervisor, not the one signed in")
            event = {**event, "second_signer": other.id}
        if event["type"] in CARRIED:
            event = {**event, "carrier": await carried_by(body.get("carrier"), request)}
        elif "carrier" in body:
            raise _Refusal(400, "a carrier signs a fill or a credit only")
        if log is not None:
            log.info("supervisor_action", supervisor=s.who, action=redacted(event))   # a player's id masked
        result = await table.submit(event, source="supervisor", who=s.who)
        return JSONResponse(result, status_code=200 if result.get("ok") else 409)

    routes = [
        Route("/", dealer_page),
        Route("/supervisor", supervisor_page),
        Route("/api/state", state),
        Route("/api/console", console_info),
        Route("/api/last-round", last_round),
        Route("/favicon.ico", favicon),
        Route("/api/events", events),
        Route("/api/panel", panel, methods=["POST"]),
        Route("/api/supervisor/signin", sign_in, methods=["POST"]),
        Route("/api/supervisor/signout", sign_out, methods=["POST"]),
        Route("/api/supervisor/me", whoami),
        Route("/api/supervisor/action", supervisor_action, methods=["POST"]),
        *par_routes(table),  # the par sheet, from the cache (issue 21)
        *report_routes(table, signed_in),   # issue 20: today's figures
        *software_routes(table, signed_in),   # issue 28: the software verified under a seed
        *meter_routes(table, signed_in),    # issue 29: the meters of 5320.8
        *metrics_routes(table),             # issue 32: /metrics and /healthz for monitoring
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        *_game_files(game),
    ]
    addresses = {doors.SCREEN: address, **({doors.KIOSK: kiosk} if kiosk is not None else {})}
    app = Starlette(routes=routes, middleware=[Middleware(_Gate, addresses=addresses)])
    app.state.authority = auth
    app.state.stop_streams = stop_streams
    return app


def _console(game: Game | None, profile=None) -> dict[str, object]:
    if game is None:
        return {"key": None, "labels": {}, "files": [], "unit": 1}
    folder = game.console.static
    files = sorted(f.name for f in folder.iterdir() if f.is_file()) if folder is not None else []
    # the smallest amount the table's chips make: every keypad refuses an amount it cannot pay (issue 30)
    unit = getattr(game.console, "unit", None)
    dealers = getattr(profile, "dealers", None)
    return {"key": game.key, "labels": dict(game.console.labels), "files": files,
            "unit": unit(profile) if unit is not None and profile is not None else 1,
            "dealer_pin": getattr(dealers, "pin", "off") == "required"}


def _last_round(table) -> dict[str, object]:
    """{"round", "seats": {seat: {wager: stake}}} of the last settled round but the open one, or no round."""
    journal = getattr(table, "journal", None)
    current = (table.published().get("round") or {}).get("id")
    if journal is None:
        return {"round": None, "seats": {}}
    for round_id, *_ in reversed(journal.round_ids()):
        entry = journal.round_record(round_id) if round_id != current else None
        settled = (entry.payload.get("settlement") or {}) if entry is not None else {}
        if not isinstance(settled, dict) or not settled.get("seats"):
            continue
        seats = {str(x["seat"]): {k: w["stake"] for k, w in x.items() if isinstance(w, dict) and isinstance(w.get("stake"), int)}
                 for x in settled["seats"] if isinstance(x, dict) and isinstance(x.get("seat"), int)}
        return {"round": round_id, "seats": {k: v for k, v in seats.items() if v}}
    return {"round": None, "seats": {}}


def _game_files(game: Game | None) -> list[Mount]:
    """The table's game's scripts and styles, under its key: /games/<key>/dealer.js."""
    folder = game.console.static if game is not None else None
    if game is None or folder is None:
        return []
    return [Mount(f"/games/{game.key}", StaticFiles(directory=folder), name=f"game-{game.key}")]


class _Server(uvicorn.Server):
    """uvicorn inside the table's loop: the table owns the signals, and open pages are let go at once."""

    def __init__(self, config: uvicorn.Config, stop_streams) -> None:
        super().__init__(config)
        self._stop_streams = stop_streams

    @contextlib.contextmanager
    def capture_signals(self):
        yield

    async def shutdown(self, sockets=None) -> None:
        self._stop_streams()
        await super().shutdown(sockets=sockets)


def bind(host: str, port: int) -> socket.socket:
    """The listening socket; an OSError here names the address, before anything is served."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise OSError(exc.errno, f"cannot serve the screens on {host}:{port}: {exc.strerror}") from None
    sock.listen(128)
    sock.setblocking(False)
    return sock


def _from_supervisor_page(request: Request) -> bool:
    """Whether a request came from the supervisor's page, as far as the browser says (its Referer).
    A request with no Referer is no page's (a program of its own, which has no kiosk cookie)."""
    referer = request.headers.get("referer")
    if referer is None:
        return True
    try:
        return urlsplit(referer).path == SUPERVISOR_PAGE
    except ValueError:
        return False


def _uvicorn_config(app, door: doors.Door, most: int) -> uvicorn.Config:
    return uvicorn.Config(doors.DoorApp(app, door.name), log_config=None, access_log=False, lifespan="off",
                          timeout_graceful_shutdown=2, ws="none", limit_concurrency=most,
                          timeout_keep_alive=doors.IDLE_SECONDS, http=doors.protocol_for(door))


class ScreenServer:
    """The screens' server as a start/stop pair (serve() runs it as one task).

    `kiosk_port`: the kiosk's own door on loopback (doors.py), served by a uvicorn server of its
    own with its own bounds; `kiosk_user`: only that user's sockets are served there."""

    def __init__(self, table, host: str = "127.0.0.1", port: int = 8080,
                 secrets_path: Path | str | None = None, *, kiosk_port: int | None = None,
                 kiosk_user: str | None = None, **app_options) -> None:
        log = _log()
        self.address = ScreenAddress(host, port)
        self.kiosk = ScreenAddress(doors.KIOSK_BIND, kiosk_port) if kiosk_port is not None else None
        self.app = create_app(table, secrets_path, address=self.address, kiosk=self.kiosk, **app_options)
        self.host = host
        self.sock = bind(host, port)
        self.port = self.address.port = self.sock.getsockname()[1]   # port 0: the one the system gave
        self.kiosk_sock: socket.socket | None = None
        self.kiosk_port: int | None = None
        servers = [(_uvicorn_config(self.app, doors.Door(doors.SCREEN, MAX_CONNECTIONS_PER_CLIENT,
                                                          log=log.info if log else None), MAX_CONNECTIONS),
                    self.sock)]
        if self.kiosk is not None:
            try:
                self.kiosk_sock = bind(doors.KIOSK_BIND, self.kiosk.port)
            except OSError:
                self.sock.close()
                raise
            self.kiosk_port = self.kiosk.port = self.kiosk_sock.getsockname()[1]
            door = doors.kiosk_door(kiosk_user, log=log.error if log else None)
            servers.append((_uvicorn_config(self.app, door, KIOSK_CONNECTIONS), self.kiosk_sock))
        self.servers = [(_Server(config, self.app.state.stop_streams), sock) for config, sock in servers]
        self.server = self.servers[0][0]
        self._tasks: list[asyncio.Task] = []

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def kiosk_url(self) -> str | None:
        return None if self.kiosk_port is None else f"http://{doors.KIOSK_BIND}:{self.kiosk_port}"

    def _sockets(self) -> list[socket.socket]:
        return [self.sock] + ([self.kiosk_sock] if self.kiosk_sock is not None else [])

    async def start(self) -> None:
        self._tasks = [asyncio.ensure_future(server.serve(sockets=[sock])) for server, sock in self.servers]
        for (server, _), task in zip(self.servers, self._tasks, strict=True):
            while not server.started:
                if task.done():
                    task.result()
                    raise RuntimeError("the screens' server stopped while starting")
                await asyncio.sleep(0.01)

    async def wait(self) -> None:
        if not self._tasks:
            raise RuntimeError("the screens' server was not started")
        await asyncio.shield(asyncio.gather(*self._tasks))

    async def stop(self) -> None:
        for server, _ in self.servers:
            server.should_exit = True
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for sock in self._sockets():
            sock.close()


async def serve(table, host: str = "127.0.0.1", port: int = 8080,
                secrets_path: Path | str | None = None) -> None:
    """Serve the screens until cancelled; the runtime runs this as one more task of its loop."""
    server = ScreenServer(table, host, port, secrets_path)
    try:
        # Cancelled even while starting (pages may already be served then), it still stops.
        await server.start()
        await server.wait()
    finally:
        await server.stop()
