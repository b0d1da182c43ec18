"""`tablectl floor serve`: the pit's view of every table, from the floor's PostgreSQL, for signed-in
supervisors only.

It reads the floor with a read-only role (a member of floor_reader: it can change nothing there)
and answers on the screens' rules (controller/ui/app.py): a request names this server (Host, and
Origin when sent), a POST carries the X-Tablectl header and a bounded body, and nothing but the
page itself is served before a supervisor signs in with their PIN (controller/ui/auth.py, the
screens' secrets file, its lock-outs kept in --state-dir). The page asks for the figures every
POLL_SECONDS; the figures are read from the floor at most once a CACHE_SECONDS however many
tablets ask, so the pit's tablets never load the floor's database more than one reader does, and
each read takes only the facts stored since the last (controller/floor/books.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from pathlib import Path
from typing import Any

import psycopg
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from controller.ui.app import ScreenAddress, _error, _Gate, _json_body, _Refusal, bind
from controller.ui.auth import Authority, SignInRefused

STATIC = Path(__file__).with_name("static")
COOKIE = "tablectl_floor"
POLL_SECONDS = 2.0     # the page's ask (floor.js): a fact shows within this and CACHE_SECONDS of arriving
CACHE_SECONDS = 1.0


class FloorReader:
    """The floor's figures, read by one connection (reconnected when lost), at most once a CACHE_SECONDS."""

    def __init__(self, connect, period) -> None:
        self._connect = connect
        self._period = period          # a function: today's gaming day when asked
        self._conn: psycopg.Connection | None = None
        self._lock = threading.Lock()
        self._last: tuple[float, dict[str, Any]] | None = None
        from controller.floor.books import FloorBooks
        self._books = FloorBooks()   # each table's figures, folded fact by fact as they arrive

    def read(self) -> dict[str, Any]:
        import json

        from controller.floor.view import floor_view
        with self._lock:
            now = time.monotonic()
            if self._last is not None and now - self._last[0] < CACHE_SECONDS:
                return self._last[1]
            try:
                if self._conn is None or self._conn.closed:
                    self._conn = self._connect()
                # a copy of its own: the folds go on changing under a page still being sent this one
                view = json.loads(json.dumps(floor_view(self._conn, self._period(), self._books)))
            except psycopg.Error:
                if self._conn is not None:
                    self._conn.close()
                self._conn = None
                raise
            self._last = (time.monotonic(), view)
            return view

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def create_app(reader: FloorReader, auth: Authority, address: ScreenAddress) -> Starlette:
    def session(request: Request):
        return auth.session(request.cookies.get(COOKIE))

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "floor.html", headers={"Cache-Control": "no-store"})

    async def figures(request: Request) -> Response:
        if session(request) is None:
            return _error(401, "not signed in")
        try:
            view = await asyncio.to_thread(reader.read)
        except psycopg.Error as exc:
            return _error(503, f"the floor's database cannot be read: {str(exc).strip().splitlines()[0]}")
        return JSONResponse(view, headers={"Cache-Control": "no-store"})

    async def sign_in(request: Request) -> Response:
        try:
            body = await _json_body(request)
        except _Refusal as r:
            return _error(r.status, r.message)
        who, pin = body.get("id"), body.get("pin")
        address_ = request.client.host if request.client else None
        try:
            if not isinstance(who, str) or not isinstance(pin, str):
                raise SignInRefused("give a supervisor id and a PIN")
            token, s = await asyncio.to_thread(auth.sign_in, who, pin, "floor", address_)
        except SignInRefused as exc:
            return _error(423 if exc.locked_until else 401, str(exc))
        response = JSONResponse({"ok": True, "id": s.who, "name": s.name, "poll_seconds": POLL_SECONDS})
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/")
        return response

    async def sign_out(request: Request) -> Response:
        try:
            await _json_body(request)
        except _Refusal as r:
            return _error(r.status, r.message)
        auth.sign_out(request.cookies.get(COOKIE))
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE, path="/")
        return response

    async def whoami(request: Request) -> Response:
        s = session(request)
        if s is None:
            return _error(401, "not signed in")
        return JSONResponse({"ok": True, "id": s.who, "name": s.name, "poll_seconds": POLL_SECONDS})

    routes = [Route("/", page), Route("/api/floor", figures), Route("/api/whoami", whoami),
              Route("/api/sign-in", sign_in, methods=["POST"]), Route("/api/sign-out", sign_out, methods=["POST"]),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    app = Starlette(routes=routes)
    from controller.ui import doors
    return _Gate(app, {doors.SCREEN: address})  # type: ignore[return-value]  # an ASGI app, gated


def serve_main(args) -> int:
    """Serve until SIGINT or SIGTERM; the URL on the first line of stdout once it answers."""
    import sys
    from controller.floor.sender import FloorTarget
    from controller.report.cli import period_of
    from controller.report.period import PeriodError
    try:
        period_of(args)
    except PeriodError as exc:
        print(f"tablectl floor serve: {exc}", file=sys.stderr)
        return 2
    if args.secrets is None or not Path(args.secrets).is_file():
        print("tablectl floor serve: --secrets names the screens' secrets file: without it nobody can sign in",
              file=sys.stderr)
        return 2
    from controller import paths
    state = Path(args.state_dir) if args.state_dir else paths.data_dir() / "floor-view"
    state.mkdir(mode=0o700, parents=True, exist_ok=True)
    auth = Authority.from_file(args.secrets, state_dir=state)
    target = FloorTarget(args.url, Path(args.password_file) if args.password_file else None)
    reader = FloorReader(target.connect, lambda: period_of(args))
    try:
        sock = bind(args.bind, args.port)
    except OSError as exc:
        print(f"tablectl floor serve: {exc}", file=sys.stderr)
        return 1
    address = ScreenAddress(args.bind, sock.getsockname()[1])

    def warm() -> None:   # the day so far folded in before the first tablet asks (a busy floor: seconds)
        with contextlib.suppress(psycopg.Error):
            reader.read()
    threading.Thread(target=warm, name="floor-warm", daemon=True).start()
    app = create_app(reader, auth, address)
    config = uvicorn.Config(app, log_config=None, access_log=False, lifespan="off", ws="none",
                            timeout_graceful_shutdown=2, limit_concurrency=64)
    server = uvicorn.Server(config)
    host = f"[{args.bind}]" if ":" in args.bind else args.bind

    async def run() -> None:
        task = asyncio.ensure_future(server.serve(sockets=[sock]))
        while not server.started and not task.done():  # noqa: ASYNC110 - uvicorn sets a flag, no event
            await asyncio.sleep(0.01)
        if server.started:
            print(f"http://{host}:{address.port}/", flush=True)
        await task

    try:
        asyncio.run(run())
    finally:
        reader.close()
        sock.close()
    return 0
