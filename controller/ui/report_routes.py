"""Today's figures on the supervisor's screen: `GET /api/supervisor/report`, and the shift report to
sign printed from it: `GET /supervisor/print`.

The same report as `tablectl report` (controller/report), for the gaming day
now under way, with the meter's readings for its chart, and each game's section
of it as the screen writes it (`screen`: its line and its chart's readings). Only a signed-in
supervisor may read it: the figures are the count room's, not the players'.
The journal is read read-only in a worker thread, so a long day costs the
table's event loop nothing.

The print view is the shift report of `tablectl report --pdf` (controller/report/shift.py's lines,
the PDF's own) for today's gaming day, written into the page by the server when the supervisor's
screen opens it: a page of its own that carries no authority once served (app.py: a request sent by a
page other than the supervisor's ends the session), so it asks the table nothing more. Its paper, A4
or US letter, is chosen on it (static/print.js); @media print (static/print.css) leaves the controls
off the paper.
"""

from __future__ import annotations

import asyncio
import html
from datetime import UTC, datetime
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from controller.report import shift
from controller.report.figures import sections
from controller.report.today import today

PAPERS = {"a4": "A4", "letter": "US letter"}   # the print view's papers, as `tablectl report --paper`'s
ELEMENT = {"title": "h1", "heading": "h2", "signatures": "h2"}   # the other kinds are paragraphs


def print_page(report: dict, paper: str, who: str) -> str:
    """The print view: the shift report's lines, each an element of its kind, on the chosen paper."""
    body = []
    for kind, text in shift.lines(report):
        tag = ELEMENT.get(kind, "p")
        body.append(f'<{tag} class="line {kind}" data-kind="{kind}">{html.escape(text.strip())}</{tag}>')
    options = "".join(f'<option value="{k}"{" selected" if k == paper else ""}>{v}</option>'
                      for k, v in PAPERS.items())
    period = report["period"]
    at = datetime.now(UTC).strftime("%Y-%m-%d %H:%M")
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Shift report: table {html.escape(str(report["tables"][0]["table"]))}</title>
<link rel="stylesheet" href="/static/print.css">
<style id="page-size">@page {{ size: {"A4" if paper == "a4" else "letter"}; }}</style>
</head>
<body data-screen="print" data-paper="{paper}" data-from="{html.escape(period["from"])}" data-to="{html.escape(period["to"])}">
<div class="controls" data-test="print-controls">
  <label for="paper">Paper</label> <select id="paper" data-test="paper">{options}</select>
  <button id="print" data-test="print">Print</button>
  <button id="close" data-test="close">Close</button>
</div>
<div class="sheet">
<article id="report" data-test="shift-report">
{chr(10).join(body)}
</article>
<p class="printed-by" data-test="printed-by">Printed on the supervisor's screen by {html.escape(who)} at {at} UTC</p>
</div>
<script src="/static/print.js"></script>
</body>
</html>
"""


def refused(status: int, message: str) -> HTMLResponse:
    return HTMLResponse(f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shift report</title>'
                        f'</head><body><p data-test="refused">{html.escape(message)}</p></body></html>',
                        status_code=status, headers={"Cache-Control": "no-store"})


def routes(table, signed_in) -> list[Route]:
    def journal_dir() -> Path | None:
        data_dir = getattr(table, "data_dir", None)
        return None if data_dir is None or not (Path(data_dir) / "journal.db").exists() else Path(data_dir)

    async def report(request: Request) -> Response:
        if signed_in(request) is None:
            return JSONResponse({"ok": False, "error": "the figures need a supervisor signed in"}, status_code=401)
        data_dir = journal_dir()
        if data_dir is None:
            return JSONResponse({"ok": False, "error": "this table keeps no journal yet"}, status_code=404)
        body = await asyncio.to_thread(today, data_dir, getattr(table, "profile", None))
        shown = body["tables"][0]   # each game's section as the screen shows it (figures.js knows no game)
        screen = {s.name: s.screen(shown.get(s.name)) for s in sections()}
        return JSONResponse({"ok": True, **body, "screen": screen}, headers={"Cache-Control": "no-store"})

    async def printed(request: Request) -> Response:
        session = signed_in(request)
        if session is None:
            return refused(401, "The shift report needs a supervisor signed in on the supervisor's screen.")
        data_dir = journal_dir()
        if data_dir is None:
            return refused(404, "This table keeps no journal yet: there is no shift report to print.")
        paper = request.query_params.get("paper", "letter")
        if paper not in PAPERS:
            return refused(400, f"paper: one of {', '.join(PAPERS)}")
        body = await asyncio.to_thread(today, data_dir, getattr(table, "profile", None), labelled=True)
        return HTMLResponse(print_page(body, paper, f"{session.name} ({session.who})"),
                            headers={"Cache-Control": "no-store"})

    return [Route("/api/supervisor/report", report), Route("/supervisor/print", printed)]
