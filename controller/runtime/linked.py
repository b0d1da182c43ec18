"""A live table's end of a pool in PostgreSQL (issue 10): what the journaled round asks of the pool.

`LinkedTable` is what every linked table shares. It follows the journaled round
(`after_batch`, called by controller/table.py after each batch is on disk) and
asks the pool what the round needs, in the order it happened, through one worker,
so the pool sees a table's operations in that order. Every operation is journaled
when it is asked for (`link-op`) and when the pool answers or the outbox keeps it
(`link-confirm`), each with its `ident` (what makes it this operation: a round,
or a round and a seat), so a table killed in between asks again at start.

That restart is flat however long the journal: each snapshot (written when a
round opens) carries the operations asked and not yet confirmed, and only the
entries after the latest snapshot are read (9 NYCRR 5321.18(c): nothing counted
twice or lost; the pool knows each operation's key).

`StudLink` is a Caribbean stud table on a linked progressive:
- the round's progressive wagers at the lock-out (5324.37(a)(3)(ii));
- the round's winning progressive hands at settlement, seat 7 down to 1
  (5324.37(e)(4)); the pool pays them from its meter in the order the database
  commits them (5321.18(b)(3)(iii)) and the table takes the pool's awards into
  the round (`pool_awards`), so the round record pays what the pool paid;
- each supervisor's validation or refusal of an award (5324.37(f)(2));
- the round's close, once it is recorded (settled or voided) after all of that: the
  pool takes a claim only for the table's latest contribution not closed (issue 26).
While the link client says unplayable the table recognizes no progressive wager
and the base game goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import structlog

from controller.link.errors import LinkRefused
from controller.link.pool import LinkClient, LinkStatus, ProgressiveLink, Sent

log = structlog.get_logger("controller.link.table")

UNAVAILABLE = "progressive unavailable: link down"
PROVISION = "5321.18(c)"
DRAIN_PATIENCE = 20.0   # seconds the table waits at its close for the pool to confirm what is queued


class LinkedTable:
    """Journaled operations on a pool, sent in order by one worker; owned by controller/table.py."""

    unavailable = UNAVAILABLE
    alarm_kind = "progressive_unavailable"   # the alarm the screens show while the pool is out of reach

    def __init__(self, table: Any, config: Any, client: LinkClient) -> None:
        self.table = table
        self.config = config
        self.client = client
        self.status: LinkStatus = self.client.status
        self.asked: set[tuple[str, str]] = set()         # (kind, ident) asked this run or found asked
        self.open_ops: dict[tuple[str, str], dict] = {}  # asked, not yet confirmed: (kind, ident) -> args
        self.queue: asyncio.Queue = asyncio.Queue()
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
        its key, so nothing is counted twice (5321.18(c)).
        """
        j = self.table.journal
        if j is None:
            return
        snapshot, entries = j.recovery()
        carried = ((snapshot.payload or {}).get("link") or {}) if snapshot is not None else {}
        if carried.get("pool") == self.config.pool:
            for op in carried.get("unconfirmed", []):
                self.open_ops[(op["op"], op["ident"])] = op["args"]
        for e in entries:
            p = e.payload
            if e.kind not in ("link-op", "link-confirm") or not isinstance(p, dict) or "ident" not in p:
                continue
            if e.kind == "link-op" and p.get("pool") == self.config.pool:
                self.asked.add((p["op"], p["ident"]))   # the round replayed after it asks nothing twice
                self.open_ops[(p["op"], p["ident"])] = {k: v for k, v in p.items()
                                                        if k not in ("op", "pool", "table", "ident")}
            elif e.kind == "link-confirm" and p.get("confirmed"):
                self.open_ops.pop((p["op"], p["ident"]), None)
                self.confirmed(p["op"], p, from_journal=True)
        for (kind, ident), args in self.open_ops.items():
            log.info("link_op_resent", op=kind, ident=ident)
            self.asked.add((kind, ident))
            self.queue.put_nowait((kind, ident, args))

    def unconfirmed(self) -> dict:
        """For the snapshot a round opens with: what was asked of the pool and not yet confirmed."""
        return {"pool": self.config.pool,
                "unconfirmed": [{"op": k, "ident": i, "args": a} for (k, i), a in self.open_ops.items()]}

    async def close(self) -> None:
        """Wait (a while) for what is queued to be confirmed, keep the rest in the outbox, stop the client.

        The table calls this last, once nothing can ask anything more (issue 16): whatever
        was journaled as asked and is not confirmed is in the outbox before the process
        exits, so the keeper of the next start sends it even before the journal is read.
        """
        with contextlib.suppress(asyncio.TimeoutError):
            async with asyncio.timeout(DRAIN_PATIENCE):
                await self.queue.join()
                # the outbox is SQLite, confirmed by the link worker: a poll, bounded by DRAIN_PATIENCE
                while self.client.outbox.pending(self.config.pool):  # noqa: ASYNC110
                    await asyncio.sleep(0.1)
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
        for (kind, ident), args in list(self.open_ops.items()):
            try:
                await self.operation(kind, args, send=False)
            except Exception as exc:  # noqa: BLE001 - the journal still holds it for the next start
                log.error("link_op_not_kept", op=kind, ident=ident, error=repr(exc))
        await self.client.stop()

    # -- what the table shows ------------------------------------------------------------------
    @property
    def playable(self) -> bool:
        return self.status.playable

    def refusal(self) -> str:
        return f"{self.unavailable} ({self.status.reason}; {PROVISION}): the base game goes on"

    def view(self) -> dict:
        s = self.status
        return {"linked": True, "pool": s.pool, "table": s.table, "available": s.playable,
                "asked": len(self.open_ops),   # journaled as asked, not yet journaled as confirmed
                "message": None if s.playable else self.unavailable, "reason": s.reason or None,
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

    # -- asking the pool -----------------------------------------------------------------------
    def after_batch(self, r: Any) -> None:
        """Queue what the journaled round now asks of the pool (each once)."""
        raise NotImplementedError

    def _ask(self, kind: str, ident: str, args: dict) -> None:
        """Journal the operation, then queue it; `args` names its round (a round id or a hand id)."""
        if (kind, ident) in self.asked:
            return
        self.asked.add((kind, ident))
        self.open_ops[(kind, ident)] = args
        self._journal("link-op", {"op": kind, "pool": self.config.pool, "table": self.config.table,
                                  "ident": ident, **args}, args["round"])
        self.queue.put_nowait((kind, ident, args))

    async def operation(self, kind: str, args: dict, *, send: bool = True) -> Sent:
        """Send one operation through the client (what each kind of table asks); `send=False`
        only writes it to the outbox."""
        raise NotImplementedError

    def confirmed(self, kind: str, entry: dict, *, from_journal: bool = False) -> None:
        """The pool confirmed an operation (now, or in the journal read at start)."""

    def refused(self, kind: str, ident: str, args: dict, reason: str) -> None:
        """The pool refused an operation for good (its outbox keeps it as refused)."""

    async def _work(self) -> None:
        while True:
            kind, ident, args = await self.queue.get()
            try:
                await self._send(kind, ident, args)
            except Exception as exc:  # noqa: BLE001 - journaled; the outbox keeps the operation
                log.error("link_op_failed", op=kind, ident=ident, error=repr(exc))
                entry = {"op": kind, "ident": ident, "round": args["round"], "confirmed": False, "error": str(exc)}
                if isinstance(exc, LinkRefused):   # the pool's answer: its code, and the key it recorded it by
                    op = self.client.outbox.find(self.config.pool, kind, ident)
                    entry |= {"refused": exc.code, "key": op.key if op is not None else None}
                self._journal("link-confirm", entry, args["round"])
                if isinstance(exc, LinkRefused):
                    self.refused(kind, ident, args, str(exc))
            finally:
                self.queue.task_done()

    async def _send(self, kind: str, ident: str, args: dict) -> None:
        rid = args["round"]
        sent = await self.operation(kind, args)
        entry = {"op": kind, "ident": ident, "round": rid, "key": sent.key, "confirmed": sent.confirmed}
        if not sent.confirmed:
            self._journal("link-confirm", {**entry, "queued": "kept in the outbox until the pool is reached"}, rid)
            sent = await self._until_confirmed(sent)
            entry["confirmed"] = sent.confirmed
        if sent.result is not None:
            entry["result"] = dict(sent.result)
        self._journal("link-confirm", entry, rid)
        self.open_ops.pop((kind, ident), None)
        self.confirmed(kind, entry)
        self.table._publish()

    async def _until_confirmed(self, sent: Sent) -> Sent:
        """The keeper sends what the outbox holds when the link is back; wait for this one's answer."""
        while True:
            op = self.client.outbox.get(sent.key)
            if op is not None and op.status != "pending":
                if op.status != "confirmed":
                    code, _, message = (op.reason or "").partition(": ")
                    raise LinkRefused(code, message or f"the pool refused {op.kind} {op.ident}")
                return Sent.of(op)
            await asyncio.sleep(0.1)


class StudLink(LinkedTable):
    """A Caribbean stud table on a linked progressive (5324.37(f), (g)(4)-(6); 5321.18)."""

    client: ProgressiveLink   # the client __init__ makes

    def __init__(self, table: Any, config: Any) -> None:
        client = ProgressiveLink(config, config.outbox_path(table.data_dir), on_status=self._on_status)
        super().__init__(table, config, client)
        self.awards: dict[str, list[dict]] = {}   # round -> the pool's awards, as the round takes them
        self.given: set[str] = set()              # rounds whose awards were handed to the table this run
        self.contributed: str | None = None       # the round of this run's latest contribution not closed

    def after_batch(self, r: Any) -> None:
        if r is None or not getattr(r, "pool", None):
            return
        rid = r.round_id
        if self.contributed not in (None, rid):
            self._close(self.contributed)   # recorded and left in one batch with the next round's opening
        if getattr(r, "void", None):   # voided before a card: a contribution of its lock-out stays, closed
            if ("contribution", rid) in self.asked:
                self._close(rid)
            return
        d = r.m.d
        if r.state != "open" and d.progressive:
            self._ask("contribution", rid, {"round": rid, "seats": sorted(d.progressive)})
            if ("close", rid) not in self.asked:
                self.contributed = rid
        if d.pending:
            hits = [(s, a["hand"], "".join(a["cards"])) for s, a in sorted(d.pending.items(), reverse=True)]
            self._ask("claim", rid, {"round": rid, "hits": hits})
        if r.state == "validation" and r.m.awaiting_pool() and rid in self.awards:   # confirmed before a restart
            self._hand_in_once(rid, self._awards_event(rid))
        for seat, who in sorted(d.validated.items()):
            if ("settle", f"{rid}#{seat}") not in self.asked:
                self._ask("settle", f"{rid}#{seat}", {"round": rid, "seat": seat, "supervisor": who, "status": "paid",
                                                      "validation": self._validation(rid, seat, "validate")})
        for seat, why in sorted(d.refused.items()):   # the supervisor refused the win
            if "pool_refused" in d.pending[seat] or ("settle", f"{rid}#{seat}") in self.asked:
                continue   # the pool refused the claim: it holds no award to void
            self._ask("settle", f"{rid}#{seat}", {"round": rid, "seat": seat, "supervisor": why["supervisor"],
                                                  "status": "voided", "reason": why.get("reason"),
                                                  "validation": self._validation(rid, seat, "refuse")})
        if r.closed and ("contribution", rid) in self.asked:
            self._close(rid)   # after its claim and settlements, in the order the worker sends them

    def _close(self, rid: str) -> None:
        """The round is over: the pool takes no claim for it from now on (issue 26)."""
        self._ask("close", rid, {"round": rid})
        if self.contributed == rid:
            self.contributed = None

    def _validation(self, rid: str, seat: int, kind: str) -> dict | None:
        """The journal entry in which the supervisor signed in at a screen validated (or refused)
        the seat's award: it travels to the pool with the settlement (issue 16)."""
        from controller.link.pool import validation_record
        j = self.table.journal
        found = None
        for e in (j.round_entries(rid) if j is not None else []):
            ev = (e.payload or {}).get("event") if e.kind == "event" and isinstance(e.payload, dict) else None
            if ev and ev.get("type") == kind and ev.get("seat") == seat:
                found = e
        return validation_record(found, seat) if found is not None else None

    async def operation(self, kind: str, args: dict, *, send: bool = True) -> Sent:
        c, rid = self.client, args["round"]
        if kind == "contribution":
            return await c.contribute(rid, args["seats"], send=send)
        if kind == "claim":
            return await c.claim(rid, [tuple(h) for h in args["hits"]], send=send)
        if kind == "close":
            return await c.close_round(rid, send=send)
        return await c.settle(rid, args["seat"], status=args["status"], supervisor=args["supervisor"],
                              reason=args.get("reason"), validation=args.get("validation") or {}, send=send)

    def confirmed(self, kind: str, entry: dict, *, from_journal: bool = False) -> None:
        if kind != "claim" or not entry.get("result"):
            return
        rid = entry["round"]
        self.awards[rid] = [
            {"seat": a["seat"], "hand": a["hand"], "amount": a["amount_cents"], "seq": a["seq"],
             "meter_before": a["meter_before_cents"], "meter_after": a["meter_after_cents"],
             "shared_by": a["shared_by"], "from_meter": a["from_meter"]}
            for a in entry["result"].get("awards") or []]
        if not from_journal:
            self._hand_in_once(rid, self._awards_event(rid))

    def refused(self, kind: str, ident: str, args: dict, reason: str) -> None:
        if kind == "claim":
            self._hand_in_once(args["round"], {"type": "pool_awards", "refused": reason})

    def _awards_event(self, rid: str) -> dict:
        return {"type": "pool_awards", "claim": rid, "awards": self.awards[rid]}

    def _hand_in_once(self, rid: str, event: dict) -> None:
        """The pool's answer to a round's claim goes to the table once in a run."""
        if rid not in self.given:
            self.given.add(rid)
            self.table._spawn(self._hand_in(rid, event), "link-awards")

    async def _hand_in(self, rid: str, event: dict) -> None:
        """The pool's answer goes to the round through the table's one queue, journaled like any event."""
        r = self.table.state.round if self.table.state else None
        if r is None or r.round_id != rid or r.state != "validation":
            log.error("link_awards_unused", round=rid, state=r.state if r else None)
            return
        answer = await self.table.submit(event, source="link")
        if not answer["ok"]:
            log.error("link_awards_refused", round=rid, error=answer["error"])
