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

Each game's link is its own (controller/games/caribbean_stud/link.py StudLink, the linked
progressive; controller/games/poker/link.py JackpotTableLink, the room's pooled jackpot).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import structlog

from controller.journal.writer import JournalWriter, NotRecorded
from controller.link.errors import LinkRefused
from controller.link.pool import LinkClient, LinkStatus, Sent

if TYPE_CHECKING:
    from controller.config.profiles import GameProfile
    from controller.games.game import Json
    from controller.journal.store import Journal
    from controller.link.config import LinkConfig
    from controller.runtime.tablestate import TableState

log = structlog.get_logger("controller.link.table")

UNAVAILABLE = "progressive unavailable: link down"
PROVISION = "5321.18(c)"
# Any: an operation's args and a confirmation entry are JSON as journaled (`link-op`, `link-confirm`),
# read back by key by each game's link; the pool client checks what it sends
OpArgs = dict[str, Any]
DRAIN_PATIENCE = 20.0   # seconds the table waits at its close for the pool to confirm what is queued


class LinkHost(Protocol):
    """What a linked table reads of its table and calls back (controller/table.py Table)."""

    profile: GameProfile
    state: TableState | None     # None in a fault at power-up
    journal: Journal | None      # as it stands, read at start: what was asked and not confirmed
    writer: JournalWriter        # the table's one way into its journal: a failed append faults the table

    def publish(self) -> None: ...
    def wake_outputs(self) -> None: ...
    def spawn(self, coro: Coroutine[object, None, object], name: str) -> asyncio.Task[object]: ...
    async def submit(self, event: dict[str, Json], *, source: str, who: str | None = None) -> dict[str, Any]: ...


class LinkedTable:
    """Journaled operations on a pool, sent in order by one worker; owned by controller/table.py."""

    unavailable = UNAVAILABLE
    alarm_kind = "progressive_unavailable"   # the alarm the screens show while the pool is out of reach

    def __init__(self, table: LinkHost, config: LinkConfig, client: LinkClient) -> None:
        self.table = table
        self.config = config
        self.client = client
        self.status: LinkStatus = self.client.status
        self.asked: set[tuple[str, str]] = set()         # (kind, ident) asked this run or found asked
        self.open_ops: dict[tuple[str, str], OpArgs] = {}  # asked, not yet confirmed: (kind, ident) -> args
        self.queue: asyncio.Queue[tuple[str, str, OpArgs]] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None

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

    def unconfirmed(self) -> dict[str, Json]:
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

    def view(self) -> dict[str, Any]:
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
        if status.retired and not self._retirement_journaled(status.pool):
            # the pool's retirement in this table's journal too, once (issue 29 item 7): a significant event
            self._journal("pool-retired", {"pool": status.pool, "detail": status.retired}, None)
        self.table.publish()
        self.table.wake_outputs()

    def _retirement_journaled(self, pool: str) -> bool:
        journal = getattr(self.table, "journal", None)
        last = journal.latest("pool-retired") if journal is not None else None
        return last is not None and isinstance(last.payload, dict) and last.payload.get("pool") == pool

    def _journal(self, kind: str, payload: Mapping[str, object], round_id: str | None) -> bool:
        """Journaled through the table's writer: False when the journal did not take it, and the
        table is then in a fault for it (controller/journal/writer.py)."""
        try:
            self.table.writer.append(kind, payload, round_id=round_id)
            return True
        except NotRecorded:
            return False

    # -- asking the pool -----------------------------------------------------------------------
    def after_batch(self, r: Any) -> None:
        """Queue what the journaled round now asks of the pool (each once)."""
        raise NotImplementedError

    def _ask(self, kind: str, ident: str, args: OpArgs) -> None:
        """Journal the operation, then queue it; `args` names its round (a round id or a hand id)."""
        if (kind, ident) in self.asked:
            return
        if not self._journal("link-op", {"op": kind, "pool": self.config.pool, "table": self.config.table,
                                         "ident": ident, **args}, args["round"]):
            return   # not journaled as asked: not asked (the table is in a fault for it)
        self.asked.add((kind, ident))
        self.open_ops[(kind, ident)] = args
        self.queue.put_nowait((kind, ident, args))

    async def operation(self, kind: str, args: OpArgs, *, send: bool = True) -> Sent:
        """Send one operation through the client (what each kind of table asks); `send=False`
        only writes it to the outbox."""
        raise NotImplementedError

    def confirmed(self, kind: str, entry: OpArgs, *, from_journal: bool = False) -> None:
        """The pool confirmed an operation (now, or in the journal read at start)."""

    def refused(self, kind: str, ident: str, args: OpArgs, reason: str) -> None:
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

    async def _send(self, kind: str, ident: str, args: OpArgs) -> None:
        rid = args["round"]
        sent = await self.operation(kind, args)
        entry = {"op": kind, "ident": ident, "round": rid, "key": sent.key, "confirmed": sent.confirmed}
        if not sent.confirmed:
            self._journal("link-confirm", {**entry, "queued": "kept in the outbox until the pool is reached"}, rid)
            sent = await self._until_confirmed(sent)
            entry["confirmed"] = sent.confirmed
        if sent.result is not None:
            entry["result"] = dict(sent.result)
        if not self._journal("link-confirm", entry, rid):
            return   # not journaled as confirmed: still open, so the next start asks the pool again
        self.open_ops.pop((kind, ident), None)
        self.confirmed(kind, entry)
        self.table.publish()

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
