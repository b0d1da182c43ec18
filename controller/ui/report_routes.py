"""Today's figures on the supervisor's screen: `GET /api/supervisor/report`.

The same report as `tablectl report` (controller/report), for the gaming day
now under way, with the meter's readings for its chart. Only a signed-in
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


def today(data_dir: Path, profile) -> dict:
    from controller.journal import Journal
    from controller.report import figures
    from controller.report.cli import table_figures
    from controller.report.period import resolve
    table = getattr(profile, "table", None)
    period = resolve(day_start=getattr(table, "gaming_day_start", "06:00"), zone_name=getattr(table, "timezone", "UTC"))
    with Journal.open(data_dir, readonly=True) as journal:
        t = table_figures(journal, period, table=getattr(table, "id", None), game=getattr(profile, "game", None),
                          series=True)
    return figures.report(period, [t])


def routes(table, signed_in) -> list[Route]:
    async def report(request: Request) -> Response:
        if signed_in(request) is None:
            return JSONResponse({"ok": False, "error": "the figures need a supervisor signed in"}, status_code=401)
        data_dir = getattr(table, "data_dir", None)
        if data_dir is None or not (Path(data_dir) / "journal.db").exists():
            return JSONResponse({"ok": False, "error": "this table keeps no journal yet"}, status_code=404)
        body = await asyncio.to_thread(today, Path(data_dir), getattr(table, "profile", None))
        return JSONResponse({"ok": True, **body}, headers={"Cache-Control": "no-store"})

    return [Route("/api/supervisor/report", report)]
