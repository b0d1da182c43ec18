"""The meters of 9 NYCRR 5320.8 on the supervisor's screen: `GET /api/supervisor/meters`.

The same figures as `tablectl meters --json` (controller/journal/readback.py meter_figures): each
meter's current amount, overflow, hits, wins, its last 25 hits with both signers, base, limit,
contributions and a change waiting for the meter's next reset. Only a signed-in supervisor reads
them; the journal is opened read-only in a worker thread, off the table's event loop.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from controller.report.meters import meters_of


def routes(table, signed_in) -> list[Route]:
    async def meters(request: Request) -> Response:
        if signed_in(request) is None:
            return JSONResponse({"ok": False, "error": "the meters need a supervisor signed in"}, status_code=401)
        data_dir = getattr(table, "data_dir", None)
        if data_dir is None or not (Path(data_dir) / "journal.db").exists():
            return JSONResponse({"ok": False, "error": "this table keeps no journal yet"}, status_code=404)
        figures = await asyncio.to_thread(meters_of, Path(data_dir))
        return JSONResponse({"ok": True, "meters": figures}, headers={"Cache-Control": "no-store"})

    return [Route("/api/supervisor/meters", meters)]
