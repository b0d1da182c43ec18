"""Today's figures on the supervisor's screen: `GET /api/supervisor/report`.

The same report as `tablectl report` (controller/report), for the gaming day
now under way, with the meter's readings for its chart, and each game's section
of it as the screen writes it (`screen`: its line and its chart's readings). Only a signed-in
supervisor may read it: the figures are the count room's, not the players'.
The journal is read read-only in a worker thread, so a long day costs the
table's event loop nothing.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from controller.report.figures import sections
from controller.report.today import today


def routes(table, signed_in) -> list[Route]:
    async def report(request: Request) -> Response:
        if signed_in(request) is None:
            return JSONResponse({"ok": False, "error": "the figures need a supervisor signed in"}, status_code=401)
        data_dir = getattr(table, "data_dir", None)
        if data_dir is None or not (Path(data_dir) / "journal.db").exists():
            return JSONResponse({"ok": False, "error": "this table keeps no journal yet"}, status_code=404)
        body = await asyncio.to_thread(today, Path(data_dir), getattr(table, "profile", None))
        shown = body["tables"][0]   # each game's section as the screen shows it (figures.js knows no game)
        screen = {s.name: s.screen(shown.get(s.name)) for s in sections()}
        return JSONResponse({"ok": True, **body, "screen": screen}, headers={"Cache-Control": "no-store"})

    return [Route("/api/supervisor/report", report)]
