"""Monitoring's two doors on the screens' port: `GET /metrics` (OpenMetrics) and `GET /healthz` (issue 32, 7).

Read-only (GET and HEAD only; a POST is 405 like any route that takes none) and without secrets:
what they say is controller/metrics.py's. They pass the same gate as every page (the Host names the
screen address), and need no sign-in: a scraper holds no PIN, and nothing here is a player's or a
supervisor's. The journal is read in a worker thread, off the table's event loop.
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from controller import metrics

NO_STORE = {"Cache-Control": "no-store"}


def routes(table) -> list[Route]:
    follower = metrics.JournalFollower(str(getattr(getattr(table, "profile", None), "game", "")))

    async def scrape(request: Request) -> Response:
        now = metrics.table_figures(table)   # on the loop: what the table holds at this moment
        journal = await asyncio.to_thread(follower.read, getattr(table, "journal", None))
        body, content_type = metrics.exposition(now, journal, request.headers.get("accept"))
        return Response(body, media_type=content_type, headers=NO_STORE)

    async def healthz(request: Request) -> Response:
        status, line = metrics.health(metrics.table_figures(table))
        return PlainTextResponse(line, status_code=status, headers=NO_STORE)

    return [Route("/metrics", scrape), Route("/healthz", healthz)]
