"""The software verified on demand from the supervisor's screen: `POST /api/supervisor/software-verify`.

An inspector at the table gives a seed; the signed-in supervisor types it on the screen's keypad
and the table answers with the same figure `tablectl software verify --seed` prints
(controller/software/verify.py). The verification is journaled with who asked, the seed and the
figure; a file that does not authenticate faults the table (the start would have), and clearing
that fault is refused while the files differ (controller/journal/severity.py). One verification at
a time: it reads every file the table runs, in a worker thread, so the event loop plays on.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from controller.software.verify import ALGORITHMS, BadSeed, parse_seed, raise_software_fault, verify

MAX_LISTED = 20   # problems journaled and shown: the fault says how many more


def routes(table: Any, signed_in: Any) -> list[Route]:
    running = asyncio.Lock()

    async def software_verify(request: Request) -> Response:
        session = signed_in(request)
        if session is None:
            return JSONResponse({"ok": False, "error": "verifying the software needs a supervisor signed in"},
                                status_code=401)
        try:
            body = await request.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return JSONResponse({"ok": False, "error": 'give {"seed": HEX, "algorithm": "sha256"}'}, status_code=400)
        algorithm = body.get("algorithm", "sha256")
        if algorithm not in ALGORITHMS:
            return JSONResponse({"ok": False, "error": f"algorithm: one of {', '.join(ALGORITHMS)}"}, status_code=400)
        try:
            seed = parse_seed(body.get("seed"))
        except BadSeed as exc:
            return JSONResponse({"ok": False, "error": str(exc)}, status_code=400)
        if running.locked():
            return JSONResponse({"ok": False, "error": "a verification is running; wait for its figure"},
                                status_code=409)
        async with running:
            result = await asyncio.to_thread(verify, seed, algorithm)
        problems = [{"code": p.code, "where": p.where, "detail": p.detail} for p in result.problems]
        table.writer.append("software-verified", {
            "by": session.who, "seed": result.seed, "algorithm": result.algorithm, "digest": result.digest,
            "files": len(result.manifest), "problems": problems[:MAX_LISTED], "problem_count": len(problems)})
        if problems:
            raise_software_fault(table, result.problems[:MAX_LISTED])
        return JSONResponse({"ok": True, "seed": result.seed, "algorithm": result.algorithm,
                             "digest": result.digest, "files": len(result.manifest),
                             "problems": problems[:MAX_LISTED], "problem_count": len(problems)},
                            headers={"Cache-Control": "no-store"})

    return [Route("/api/supervisor/software-verify", software_verify, methods=["POST"])]

