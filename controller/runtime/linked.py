"""A Caribbean stud table on a linked progressive (issue 10): the round's part in the pool.

The round machine still plays the round with the table's own meter (so a linked
round is settled and recorded as any other), and this follows the journaled
round and tells the pool what it must know, in the order it happened, through
one worker so the pool sees a table's operations in that order:

- the round's progressive wagers at the lock-out (5324.37(a)(3)(ii)), keyed by
  table and round, so sending it again after a restart is the same operation;
- the round's winning progressive hands at settlement, seat 7 down to 1
  (5324.37(e)(4)); the pool computes the awards from its meter;
- each supervisor's validation of an award (5324.37(f)(2)).

Every operation is journaled when it is asked for (`link-op`) and when the pool
answers or the outbox keeps it (`link-confirm`). The published meter is the pool's.
While the link client says unplayable (9 NYCRR 5321.18(c)) the table recognizes
no progressive wager and the base game goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import structlog

from controller.link.errors import LinkError
from controller.link.pool import LinkStatus, ProgressiveLink

log = structlog.get_logger("controller.link.table")

UNAVAILABLE = "progressive unavailable: link down"
PROVISION = "5321.18(c)"
DRAIN_PATIENCE = 20.0   # seconds the table waits at its close for the pool to confirm what is queued


class TableLink:
    """The live table's end of its pool; owned by controller/table.py, fed after each journaled batch."""

    def __init__(self, table: Any, config: Any) -> None:
        self.table = table
        self.config = config
        self.client = ProgressiveLink(config, config.outbox_path(table.data_dir), on_status=self._on_status)
        self.status: LinkStatus = self.client.status
        self.asked: set[tuple[str, str]] = set()     # (kind, ident) already queued this run
        self.queue: asyncio.Queue = asyncio.Queue()
        self.awards: dict[str, list] = {}             # round -> the pool's awards
        self._worker: asyncio.Task | None = None

    # -- life --------------------------------------------------------------------------------
    async def start(self) -> None:
        await self.client.start()
        self._resend_unconfirmed()
        self._worker = asyncio.create_task(self._work(), name="link-worker")

    def _resend_unconfirmed(self) -> None:
        """Queue again each operation journaled as asked but never confirmed (a table killed in between).

        The table may have died before the operation reached its outbox, so the
        outbox alone cannot bring it back; the journal can. Sending it again is
        safe: the outbox finds an operation it already holds, and the pool knows
        its key (op_key), so nothing is counted twice (5321.18(c)).
        """
        j = self.table.journal
        if j is None:
            return
        asked: dict[tuple[str, str], dict] = {}
        confirmed: set[tuple[str, str]] = set()
        for e in j.entries_since(0):
            if e.kind not in ("link-op", "link-confirm") or not isinstance(e.payload, dict):
                continue
            p = e.payload
            ident = f"{p['round']}#{p['seat']}" if p.get("op") == "settle" and "seat" in p else p.get("round")
            if e.kind == "link-op" and p.get("pool") == self.config.pool:
                asked[(p["op"], ident)] = {k: v for k, v in p.items() if k not in ("op", "pool", "table")}
            elif e.kind == "link-confirm" and p.get("confirmed"):
                confirmed.add((p.get("op"), ident))
        for (kind, ident), args in asked.items():
            if (kind, ident) in confirmed:
                continue
            log.info("link_op_resent", op=kind, ident=ident)
            self.asked.add((kind, ident))
            self.queue.put_nowait((kind, args))

    async def close(self) -> None:
        """Wait (a while) for what is queued to be confirmed, then stop the client."""
        with contextlib.suppress(asyncio.TimeoutError):
            async with asyncio.timeout(DRAIN_PATIENCE):
                await self.queue.join()
                while self.client.outbox.pending(self.config.pool):
                    await asyncio.sleep(0.1)
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
        await self.client.stop()

    # -- what the table shows ------------------------------------------------------------------
    @property
    def playable(self) -> bool:
        return self.status.playable

    def refusal(self) -> str:
        return f"{UNAVAILABLE} ({self.status.reason}; {PROVISION}): the base game goes on"

    def view(self) -> dict:
        s = self.status
        return {"linked": True, "pool": s.pool, "available": s.playable,
                "message": None if s.playable else UNAVAILABLE, "reason": s.reason or None,
                "meter": s.meter_cents, "pending": [dict(a) for a in s.pending_awards],
                "unconfirmed": s.unconfirmed}

    def _on_status(self, status: LinkStatus) -> None:
        was = self.status.playable
        self.status = status
        if status.playable != was:
            self._journal("link-status", {"playable": status.playable, "reason": status.reason}, None)
        self.table._publish()
        self.table._wake_outputs.set()

    def _journal(self, kind: str, payload: dict, round_id: str | None) -> None:
        j = self.table.journal
        if j is None:
            return
        try:
            j.append(kind, payload, round_id=round_id)
        except Exception as exc:  # noqa: BLE001 - the table's own fault handling owns the journal
            log.error("link_journal_failed", kind=kind, error=str(exc))

    # -- following the round -------------------------------------------------------------------
    def after_batch(self, r: Any) -> None:
        """Queue what the journaled round now asks of the pool (each once)."""
        if r is None or getattr(r, "void", None):
            return
        d, rid = r.m.d, r.round_id
        if r.state != "open" and d.progressive:
            self._ask("contribution", rid, {"round": rid, "seats": sorted(d.progressive)})
        result = d.result or {}
        prog = result.get("progressive") if isinstance(result, dict) else None
        if prog and prog.get("awards"):
            hits = [(a["seat"], a["hand"], "".join(str(c) for c in d.hands[a["seat"]])) for a in prog["awards"]]
            self._ask("claim", rid, {"round": rid, "hits": hits})
        for seat, who in sorted(d.validated.items()):
            self._ask("settle", f"{rid}#{seat}", {"round": rid, "seat": seat, "supervisor": who, "status": "paid"})
        for seat, why in sorted(getattr(d, "refused", {}).items()):   # the supervisor refused the win
            self._ask("settle", f"{rid}#{seat}", {"round": rid, "seat": seat, "supervisor": why["supervisor"],
                                                  "status": "voided", "reason": why.get("reason")})

    def _ask(self, kind: str, ident: str, args: dict) -> None:
        if (kind, ident) in self.asked:
            return
        self.asked.add((kind, ident))
        self._journal("link-op", {"op": kind, "pool": self.config.pool, "table": self.config.table, **args},
                      args["round"])
        self.queue.put_nowait((kind, args))

    async def _work(self) -> None:
        while True:
            kind, args = await self.queue.get()
            try:
                await self._send(kind, args)
            except Exception as exc:  # noqa: BLE001 - journaled; the outbox keeps the operation
                log.error("link_op_failed", op=kind, round=args["round"], error=repr(exc))
                self._journal("link-confirm", {"op": kind, "round": args["round"], "confirmed": False,
                                               "error": str(exc)}, args["round"])
            finally:
                self.queue.task_done()

    async def _send(self, kind: str, args: dict) -> None:
        c, rid = self.client, args["round"]
        if kind == "contribution":
            sent = await c.contribute(rid, args["seats"])
        elif kind == "claim":
            sent = await c.claim(rid, args["hits"])
        else:
            sent = await c.settle(rid, args["seat"], status=args["status"], supervisor=args["supervisor"],
                                  reason=args.get("reason"))
        which = {"seat": args["seat"]} if kind == "settle" else {}   # names the settle's operation on a replay
        entry = {"op": kind, "round": rid, **which, "key": sent.key, "confirmed": sent.confirmed}
        if not sent.confirmed:
            entry["queued"] = "kept in the outbox until the pool is reached"
            self._journal("link-confirm", entry, rid)
            sent = await self._until_confirmed(sent)
            entry = {"op": kind, "round": rid, **which, "key": sent.key, "confirmed": sent.confirmed}
        if sent.result is not None:
            entry["result"] = dict(sent.result)
            if kind == "claim":
                self.awards[rid] = list(sent.result.get("awards") or [])
        self._journal("link-confirm", entry, rid)

    async def _until_confirmed(self, sent: Any) -> Any:
        """The keeper sends what the outbox holds when the link is back; wait for this one's answer."""
        while True:
            op = self.client.outbox.get(sent.key)
            if op is not None and op.status != "pending":
                if op.status != "confirmed":
                    raise LinkError(f"the pool refused {op.kind} {op.ident}: {op.reason}")
                return type(sent).of(op)
            await asyncio.sleep(0.1)
