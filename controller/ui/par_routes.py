"""The par sheet on the supervisor's screen (issue 21): read from the cache, never computed here.

`routes(table)` starts the background job for the table's rules when their sheet is
not cached (controller/par/background.py) and serves GET /api/par: the cached
sheet with its game's blocks for the screen (its books' `par`), or what the job is
doing. A request only reads one cached file, so the
screen costs a round nothing.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


def routes(table) -> list[Route]:
    """The route; a table object without a profile (a test's stand-in) gets a sheet-less one."""
    from controller.par import background, cache
    from controller.par.sheet import rules_of, sheet_of

    profile = getattr(table, "profile", None)
    rules = None if profile is None else rules_of(profile)
    stem = None if rules is None else cache.key("sheet", rules)
    job = None if rules is None else background.start(rules)

    async def par(request: Request) -> JSONResponse:
        sheet = None if stem is None else cache.load_json(stem)
        body: dict[str, Any]
        if stem is None:
            body = {"state": "none"}
        elif sheet is not None:
            body = {"state": "ready", "sheet": sheet, "screen": sheet_of(sheet["game"]).screen(sheet)}
        elif job is None:
            body = {"state": "off", "command": "tablectl par --config PROFILE"}
        elif job.poll() is None:
            body = {"state": "computing", "pid": job.pid}
        else:
            body = {"state": "failed", "exit_status": job.returncode}
        return JSONResponse(body, headers={"Cache-Control": "no-store"})
    return [Route("/api/par", par)]
